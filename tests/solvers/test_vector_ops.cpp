// The vector primitives (fill, copy, scale, axpy, ...) against plain host loops, bit for bit;
// the deterministic dot and norm against a host re-implementation of their documented order,
// bit for bit, on every backend; and the accurate dot and norm against an exact reference in
// Boost.Multiprecision (4600-bit binary floats: every product of two doubles and every sum of
// them is exact), on inputs built to cancel catastrophically, to tie, to underflow and to
// overflow.
#define BOOST_TEST_MODULE vector_ops
#include <boost/test/unit_test.hpp>

#include "support/deterministic_dot_reference.hpp"
#include "support/kokkos_env.hpp"

#include <araios/detail/host_space.hpp>
#include <araios/detail/team_scratch.hpp>
#include <araios/primitives/chunked_dots.hpp>
#include <araios/primitives/deterministic_reduce.hpp>
#include <araios/vector_ops.hpp>

#include <boost/config.hpp>
#if defined(__CUDACC__)
// nvcc's front end rejects Boost.Multiprecision's integer_traits for __int128 limbs; without
// BOOST_HAS_INT128 it uses 64-bit limbs, which only makes the host reference a little slower.
#undef BOOST_HAS_INT128
#endif
#include <boost/multiprecision/cpp_bin_float.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

using araios::test::KokkosFixture;
BOOST_TEST_GLOBAL_FIXTURE(KokkosFixture);

namespace {

using namespace araios;
using test::hostDeterministicDot;
namespace mp = boost::multiprecision;

/// Wide enough that the sum of any products of doubles, from 2^-2148 up to 2^2112, is exact.
using Exact = mp::number<mp::cpp_bin_float<4600, mp::digit_base_2>, mp::et_off>;

template <class Value, class Device>
Kokkos::View<Value*, Device> toDevice(const std::vector<Value>& v) {
  Kokkos::View<Value*, Device> d("v", v.size());
  auto h = Kokkos::create_mirror_view(d);
  for (std::size_t i = 0; i < v.size(); ++i) h(i) = v[i];
  Kokkos::deep_copy(d, h);
  return d;
}

template <class View>
std::vector<typename View::non_const_value_type> toHost(const View& v) {
  auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), v);
  return std::vector<typename View::non_const_value_type>(h.data(), h.data() + h.extent(0));
}

template <class Value>
bool sameBits(Value a, Value b) {
  return std::memcmp(&a, &b, sizeof(Value)) == 0;
}

template <class Value>
bool sameBits(const std::vector<Value>& a, const std::vector<Value>& b) {
  return a.size() == b.size() && (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(Value)) == 0);
}

template <class Value>
std::vector<Value> randomVector(std::size_t n, std::uint64_t seed, double lo = -1, double hi = 1) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> dist(lo, hi);
  std::vector<Value> v(n);
  for (auto& e : v) e = static_cast<Value>(dist(rng));
  return v;
}

// ---------------------------------------------------------------------------------------------
// Exact references and the correct-rounding checks.

template <class Value>
Exact exactDot(const std::vector<Value>& x, const std::vector<Value>& y) {
  Exact s = 0;
  for (std::size_t i = 0; i < x.size(); ++i) s += Exact(x[i]) * Exact(y[i]);
  return s;
}

template <class Value>
bool evenSignificand(Value r) {
  using Bits = std::conditional_t<sizeof(Value) == 8, std::uint64_t, std::uint32_t>;
  Bits b;
  std::memcpy(&b, &r, sizeof b);
  return (b & 1) == 0;  // the last significand bit is the last bit of the encoding
}

/// 2^maxExponent: the value every overflow is measured against (the "next" value after max).
template <class Value>
Exact overflowPoint() {
  return mp::ldexp(Exact(1), std::numeric_limits<Value>::max_exponent);
}

/// Whether r is X rounded to nearest, ties to even, in the format Value (an overflow rounds to
/// infinity from the midpoint between the largest finite value and 2^maxExponent on).
template <class Value>
bool correctlyRounded(const Exact& X, Value r, std::string& why) {
  const Value inf = std::numeric_limits<Value>::infinity();
  const Exact maxFinite = Exact(std::numeric_limits<Value>::max());
  const Exact overflowFrom = (maxFinite + overflowPoint<Value>()) / 2;
  if (std::isinf(r)) {
    const bool ok = r > 0 ? X >= overflowFrom : X <= -overflowFrom;
    if (!ok) why = "overflowed to infinity, exact value " + X.str(20, std::ios::scientific);
    return ok;
  }
  auto neighbour = [&](Value dir) -> Exact {
    const Value n = std::nextafter(r, dir);
    if (!std::isinf(n)) return Exact(n);
    return dir > 0 ? overflowPoint<Value>() : -overflowPoint<Value>();
  };
  const Exact err = mp::abs(X - Exact(r));
  for (Value dir : {inf, -inf}) {
    const Exact other = mp::abs(X - neighbour(dir));
    if (err > other || (err == other && !evenSignificand(r))) {
      why = "got " + Exact(r).str(20, std::ios::scientific) + ", exact " + X.str(25, std::ios::scientific);
      return false;
    }
  }
  return true;
}

/// Whether r is sqrt(S) rounded to nearest, ties to even: S lies between the squares of the
/// midpoints to r's neighbours.
template <class Value>
bool correctlyRoundedSqrt(const Exact& S, Value r, std::string& why) {
  const Value inf = std::numeric_limits<Value>::infinity();
  if (std::isinf(r)) {
    const Exact mid = (Exact(std::numeric_limits<Value>::max()) + overflowPoint<Value>()) / 2;
    if (S >= mid * mid) return true;
    why = "overflowed to infinity";
    return false;
  }
  const Value up = std::nextafter(r, inf);
  const Exact hi = ((std::isinf(up) ? overflowPoint<Value>() : Exact(up)) + Exact(r)) / 2;
  if (S > hi * hi || (S == hi * hi && !evenSignificand(r))) {
    why = "too small: got " + Exact(r).str(20, std::ios::scientific);
    return false;
  }
  if (r > 0) {
    const Exact lo = (Exact(std::nextafter(r, Value(0))) + Exact(r)) / 2;
    if (S < lo * lo || (S == lo * lo && !evenSignificand(r))) {
      why = "too large: got " + Exact(r).str(20, std::ios::scientific);
      return false;
    }
  } else if (S != 0) {
    const Exact lo = Exact(std::numeric_limits<Value>::denorm_min()) / 2;
    if (S >= lo * lo) {
      why = "zero for a positive sum of squares";
      return false;
    }
  }
  return true;
}

// ---------------------------------------------------------------------------------------------
// Adversarial inputs for the accurate dot.

template <class Value>
struct DotCase {
  std::string name;
  std::vector<Value> x, y;
  Exact exact = 0;  ///< filled in once by dotCases()
};

/// Terms of widely spread magnitude, each huge one followed somewhere by its exact negation,
/// shuffled: naive summation loses every bit, the exact result is the sum of the small rest.
template <class Value>
DotCase<Value> cancellingCase(std::size_t pairs, int spread, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> mant(0.5, 1.0);
  std::uniform_int_distribution<int> ex(-spread, spread);
  std::bernoulli_distribution sign(0.5);
  DotCase<Value> c{"cancelling_spread" + std::to_string(spread) + "_seed" + std::to_string(seed), {}, {}};
  for (std::size_t k = 0; k < pairs; ++k) {
    const Value a = static_cast<Value>(std::ldexp(mant(rng) * (sign(rng) ? 1 : -1), ex(rng)));
    const Value b = static_cast<Value>(std::ldexp(mant(rng), ex(rng)));
    c.x.push_back(a);
    c.y.push_back(b);
    c.x.push_back(-a);
    c.y.push_back(b);
    // A small survivor every few pairs.
    if (k % 7 == 0) {
      c.x.push_back(static_cast<Value>(mant(rng)));
      c.y.push_back(static_cast<Value>(std::ldexp(mant(rng), -spread / 2)));
    }
  }
  std::vector<std::size_t> order(c.x.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::shuffle(order.begin(), order.end(), rng);
  DotCase<Value> s{c.name, {}, {}};
  for (auto i : order) {
    s.x.push_back(c.x[i]);
    s.y.push_back(c.y[i]);
  }
  return s;
}

/// A long vector pair: enough elements for many teams and threads of the accurate dot, with
/// exponents drawn from [-spread, spread] and random signs (spread 0: uniform in (-1, 1)).
template <class Value>
DotCase<Value> longCase(std::size_t n, int spread, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> mant(0.5, 1.0), unit(-1.0, 1.0);
  std::uniform_int_distribution<int> ex(-spread, spread);
  std::bernoulli_distribution sign(0.5);
  DotCase<Value> c{"long" + std::to_string(n) + "_spread" + std::to_string(spread) + "_seed" + std::to_string(seed), {}, {}};
  for (std::size_t i = 0; i < n; ++i) {
    if (spread == 0) {
      c.x.push_back(static_cast<Value>(unit(rng)));
      c.y.push_back(static_cast<Value>(unit(rng)));
    } else {
      c.x.push_back(static_cast<Value>(std::ldexp(mant(rng) * (sign(rng) ? 1 : -1), ex(rng))));
      c.y.push_back(static_cast<Value>(std::ldexp(mant(rng), ex(rng))));
    }
  }
  return c;
}

std::vector<DotCase<double>> doubleDotCases() {
  const double big = 1e300, tiny = std::ldexp(1.0, -537);  // tiny^2 = 2^-1074
  const double dmax = std::numeric_limits<double>::max();
  std::vector<DotCase<double>> cases = {
      {"empty", {}, {}},
      {"single", {3.0}, {7.0}},
      {"products_beyond_range_cancel", {big, 1.0, -big, 0.5}, {big, 1e-20, big, 3.0}},
      {"tie_to_even_down", {1.0, std::ldexp(1.0, -53)}, {1.0, 1.0}},
      {"tie_broken_by_sticky_far_below", {1.0, std::ldexp(1.0, -53), std::ldexp(1.0, -600)}, {1.0, 1.0, std::ldexp(1.0, -300)}},
      {"tie_to_even_up", {1.0 + std::ldexp(1.0, -52), std::ldexp(1.0, -53)}, {1.0, 1.0}},
      {"smallest_subnormal", {tiny}, {tiny}},
      {"subnormal_tie_to_even", {tiny, tiny, tiny}, {tiny / 2, tiny / 2, tiny / 2}},
      {"below_subnormal_rounds_to_zero", {tiny}, {tiny / 4}},
      {"subnormal_times_normal", {std::numeric_limits<double>::denorm_min(), 1.0}, {0.75, -1e-310}},
      {"overflow_to_infinity", {dmax, dmax}, {1.0, 1.0}},
      {"overflow_tie_goes_to_infinity", {dmax, std::ldexp(1.0, 969)}, {1.0, 1.0}},
      {"just_below_overflow", {dmax, std::ldexp(1.0, 968)}, {1.0, 1.0}},
      {"negative_overflow", {-dmax, -dmax}, {1.0, 1.0}},
      {"exact_zero_from_cancellation", {1e10, -1e10, 3.0, -3.0}, {1e-5, 1e-5, 7.0, 7.0}},
      {"negative_result", {-1.0, std::ldexp(1.0, -60)}, {1.0, 1.0}},
  };
  for (std::uint64_t seed = 1; seed <= 4; ++seed) cases.push_back(cancellingCase<double>(3000, 400, seed));
  cases.push_back(cancellingCase<double>(2000, 1000, 9));  // products over almost the whole range
  // Many teams, threads with full shares and a partial last team: products in a few binary orders
  // of magnitude (they stay in the threads' expansions) and over 2^-500 to 2^500 (where most of
  // them pass through the teams' limbs).
  cases.push_back(longCase<double>(131149, 0, 11));
  cases.push_back(longCase<double>(131149, 250, 12));
  // The Ogita-Rump-Oishi style: a dot product with condition number around 1e100.
  {
    DotCase<double> c{"condition_1e100", {}, {}};
    std::mt19937_64 rng(77);
    std::uniform_real_distribution<double> u(-1, 1);
    for (int i = 0; i < 500; ++i) {
      const double e = std::ldexp(1.0, (i % 50) * 6);
      c.x.push_back(u(rng) * e);
      c.y.push_back(u(rng) * e);
    }
    // Append terms that cancel the running exact sum down to a few ulps of 1.
    Exact s = exactDot(c.x, c.y);
    for (int k = 0; k < 40 && mp::abs(s) > 1; ++k) {
      const double t = static_cast<double>(s);
      c.x.push_back(-t);
      c.y.push_back(1.0);
      s -= Exact(t);
    }
    c.x.push_back(1.0);
    c.y.push_back(1e-100);
    cases.push_back(c);
  }
  return cases;
}

std::vector<DotCase<float>> floatDotCases() {
  const float fmax = std::numeric_limits<float>::max();
  std::vector<DotCase<float>> cases = {
      {"tie_to_even_down", {1.0f, std::ldexp(1.0f, -24)}, {1.0f, 1.0f}},
      {"tie_broken_by_sticky", {1.0f, std::ldexp(1.0f, -24), std::ldexp(1.0f, -70)}, {1.0f, 1.0f, std::ldexp(1.0f, -70)}},
      {"overflow", {fmax, fmax}, {1.0f, 1.0f}},
      {"products_beyond_range_cancel", {1e30f, -1e30f, 2.0f}, {1e30f, 1e30f, 0.25f}},
      {"subnormal_result", {std::ldexp(1.0f, -75), std::ldexp(1.0f, -76)}, {std::ldexp(1.0f, -74), std::ldexp(1.0f, -74)}},
  };
  for (std::uint64_t seed = 1; seed <= 3; ++seed) cases.push_back(cancellingCase<float>(3000, 60, seed));
  cases.push_back(longCase<float>(100003, 0, 13));
  cases.push_back(longCase<float>(100003, 60, 14));
  return cases;
}

/// The cases with their exact results, computed once per process (4600-bit sums are slow).
template <class Value>
const std::vector<DotCase<Value>>& dotCases() {
  static const std::vector<DotCase<Value>> cases = [] {
    std::vector<DotCase<Value>> out;
    if constexpr (std::is_same_v<Value, double>) {
      out = doubleDotCases();
    } else {
      out = floatDotCases();
    }
    for (auto& c : out) c.exact = exactDot(c.x, c.y);
    return out;
  }();
  return cases;
}

// ---------------------------------------------------------------------------------------------
// The deterministic order, re-implemented on the host from its documentation.

const std::int64_t kLengths[] = {0, 1, 31, 32, 33, 1023, 1024, 1025, 5000, 70001};

}  // namespace

// =============================================================================================

BOOST_AUTO_TEST_CASE_TEMPLATE(elementwise_primitives_match_host_loops_bitwise, Cfg, test::AllConfigs) {
  using Exec = typename Cfg::execution_space;
  using Device = typename Cfg::device_type;
  using Value = typename Cfg::value_type;
  Exec exec;
  for (std::int64_t n : {0, 1, 17, 4099}) {
    const auto xs = randomVector<Value>(n, 1), ys = randomVector<Value>(n, 2), ds = randomVector<Value>(n, 3, 0.5, 2);
    const Value alpha = Value(-0.37), beta = Value(1.9);
    Kokkos::View<Value*, Device> slots("slots", 2);
    Kokkos::deep_copy(Kokkos::subview(slots, 0), alpha);
    Kokkos::deep_copy(Kokkos::subview(slots, 1), beta);
    const DeviceScalar<Value, Device> dAlpha{slots, 0}, dBeta{slots, 1};
    auto x = toDevice<Value, Device>(xs);
    auto d = toDevice<Value, Device>(ds);
    const std::string at = " n=" + std::to_string(n);

    auto check = [&](const char* name, auto&& op, auto&& expect) {
      auto y = toDevice<Value, Device>(ys);
      op(y);
      exec.fence();
      std::vector<Value> want(n);
      for (std::int64_t i = 0; i < n; ++i) want[i] = expect(i);
      BOOST_TEST(sameBits(toHost(y), want), name << at);
    };
    check("fill", [&](auto y) { fill(exec, y, alpha); }, [&](auto) { return alpha; });
    check("copy", [&](auto y) { copy(exec, x, y); }, [&](auto i) { return xs[i]; });
    check("scale", [&](auto y) { scale(exec, alpha, y); }, [&](auto i) { return alpha * ys[i]; });
    check("scale device", [&](auto y) { scale(exec, dAlpha, y); }, [&](auto i) { return alpha * ys[i]; });
    check("axpy", [&](auto y) { axpy(exec, alpha, x, y); }, [&](auto i) { return std::fma(alpha, xs[i], ys[i]); });
    check("axpy device", [&](auto y) { axpy(exec, dAlpha, x, y); }, [&](auto i) { return std::fma(alpha, xs[i], ys[i]); });
    check("axpy device negated", [&](auto y) { axpy(exec, dAlpha.negated(), x, y); },
          [&](auto i) { return std::fma(-alpha, xs[i], ys[i]); });
    check("axpby", [&](auto y) { axpby(exec, alpha, x, dBeta, y); },
          [&](auto i) { return std::fma(alpha, xs[i], beta * ys[i]); });
    check("xpby", [&](auto y) { xpby(exec, x, dBeta, y); }, [&](auto i) { return std::fma(beta, ys[i], xs[i]); });
    check("divide", [&](auto y) { divide(exec, x, dBeta, y); }, [&](auto i) { return xs[i] / beta; });
    check("divideElementwise", [&](auto y) { divideElementwise(exec, x, d, y); }, [&](auto i) { return xs[i] / ds[i]; });
    check("subtract", [&](auto y) { subtract(exec, x, d, y); }, [&](auto i) { return xs[i] - ds[i]; });
  }
}

BOOST_AUTO_TEST_CASE_TEMPLATE(refuses_mismatched_lengths, Cfg, test::AllConfigs) {
  using Device = typename Cfg::device_type;
  using Value = typename Cfg::value_type;
  typename Cfg::execution_space exec;
  Kokkos::View<Value*, Device> a("a", 3), b("b", 4);
  BOOST_CHECK_THROW(axpy(exec, Value(1), a, b), InputError);
  BOOST_CHECK_THROW(copy(exec, a, b), InputError);
  BOOST_CHECK_THROW(dot(exec, a, b), InputError);
  BOOST_CHECK_THROW(maxAbsDiff(exec, a, b), InputError);
}

BOOST_AUTO_TEST_CASE_TEMPLATE(deterministic_dot_follows_the_documented_order, Cfg, test::AllConfigs) {
  using Exec = typename Cfg::execution_space;
  using Device = typename Cfg::device_type;
  using Value = typename Cfg::value_type;
  Exec exec;
  for (std::int64_t n : kLengths) {
    const auto xs = randomVector<Value>(n, 11 + n), ys = randomVector<Value>(n, 12 + n);
    auto x = toDevice<Value, Device>(xs);
    auto y = toDevice<Value, Device>(ys);
    const Value got = dot(exec, x, y, ReductionMode::Deterministic);
    const Value want = hostDeterministicDot(xs, ys);
    BOOST_TEST(sameBits(got, want), "n=" << n << ": got " << got << ", the documented order gives " << want);
    const Value norm = norm2(exec, x, ReductionMode::Deterministic);
    BOOST_TEST(sameBits(norm, std::sqrt(hostDeterministicDot(xs, xs))), "norm n=" << n);
  }
}

/// Two sums in one sweep, as CG's fused update takes them: x . y and x . x.
template <class XView, class YView, class Value>
struct TwoDotTerms {
  XView x;
  YView y;
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t i, Value (&a)[2], Value (&b)[2]) const {
    a[0] = x(i);
    b[0] = y(i);
    a[1] = x(i);
    b[1] = x(i);
  }
};

template <class Value, class Device>
struct StoreTwoTotals {
  Kokkos::View<Value*, Device> out;
  KOKKOS_INLINE_FUNCTION void operator()(const Value (&totals)[2]) const {
    out(0) = totals[0];
    out(1) = totals[1];
  }
};

/// Host terms of TwoDotTerms's form on plain arrays.
template <class Value>
struct HostTwoDotTerms {
  const Value* x;
  const Value* y;
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t i, Value (&a)[2], Value (&b)[2]) const {
    a[0] = x[i];
    b[0] = y[i];
    a[1] = x[i];
    b[1] = x[i];
  }
};

/// A CPU runs a chunk's lane walk with the FMA instruction where it has one and through libm
/// otherwise; both must give the bits of the documented order. Operands spread over 2^-30 ..
/// 2^30, where a product rounded before its addition would differ from the fma.
BOOST_AUTO_TEST_CASE(host_chunk_walks_give_the_same_bits_with_and_without_the_fma_instruction) {
  std::mt19937_64 rng(2026);
  std::uniform_real_distribution<double> mantissa(-1.0, 1.0);
  std::uniform_int_distribution<int> exponent(-30, 30);
  std::vector<double> x(kDotChunk), y(kDotChunk);
  for (std::int64_t i = 0; i < kDotChunk; ++i) {
    x[static_cast<std::size_t>(i)] = std::ldexp(mantissa(rng), exponent(rng));
    y[static_cast<std::size_t>(i)] = std::ldexp(mantissa(rng), exponent(rng));
  }
  const HostTwoDotTerms<double> terms{x.data(), y.data()};
  for (const int length : {1, 31, 33, 1000, static_cast<int>(kDotChunk)}) {
    double plain[2][kDotLanes] = {}, reference[2][kDotLanes] = {};
    Impl::walkChunkInOrder<double, 2>(terms, 0, length, plain);
    for (int e = 0; e < length; ++e) {  // the order written out: lane e % 32, one fma each
      reference[0][e % kDotLanes] = std::fma(x[e], y[e], reference[0][e % kDotLanes]);
      reference[1][e % kDotLanes] = std::fma(x[e], x[e], reference[1][e % kDotLanes]);
    }
    BOOST_TEST(std::memcmp(plain, reference, sizeof plain) == 0, "length " << length);
    if (Impl::hostWalksWithFma()) {
      double fused[2][kDotLanes] = {};
      Impl::walkChunkInOrderWithFma<double, 2>(terms, 0, length, fused);
      BOOST_TEST(std::memcmp(fused, reference, sizeof fused) == 0, "length " << length);
    }
  }
}

/// Impl::pairwiseTreeLevels on one team: sums(i, k) is chunk sum i of array k.
template <class Exec, class Value>
struct TreeLevelsKernel {
  using Member = typename Kokkos::TeamPolicy<Exec>::member_type;
  Kokkos::View<Value**, Kokkos::LayoutLeft, typename Exec::device_type> sums;
  std::int64_t entries;
  KOKKOS_INLINE_FUNCTION void operator()(const Member& team) const {
    const std::int64_t arrays = static_cast<std::int64_t>(sums.extent(1));
    Impl::pairwiseTreeLevels(team, static_cast<std::int64_t>(sums.extent(0)), arrays, entries,
                             Impl::scratchArray<Value>(team, static_cast<std::size_t>(arrays * entries + 1)),
                             [&](const std::int64_t k, const std::int64_t i) -> Value& { return sums(i, k); });
  }
};

/// The tree pass adds kTreeBlock levels per step, in global memory while its sums do not fit
/// the scratch and in scratch after; every split must give the sums of the documented
/// level-by-level order. Values spread over 2^-40 .. 2^40 so that another order rounds
/// differently; counts around the block size and its powers, scratch from none to ample.
BOOST_AUTO_TEST_CASE_TEMPLATE(pairwise_tree_steps_add_in_the_documented_order, Exec, test::EnabledSpaces) {
  using Value = double;
  using Sums = Kokkos::View<Value**, Kokkos::LayoutLeft, typename Exec::device_type>;
  Exec exec;
  std::mt19937_64 rng(20261129);
  std::uniform_int_distribution<int> exponent(-40, 40);
  const int threads = Impl::isHostSpace<Exec>() ? 1 : Impl::kDotTreeThreads;
  for (const std::int64_t count : {1, 2, 3, 7, 8, 9, 63, 64, 65, 100, 511, 513, 4097, 33333}) {
    for (const std::int64_t arrays : {1, 3}) {
      std::vector<std::vector<Value>> columns(static_cast<std::size_t>(arrays));
      for (auto& column : columns) {
        column = randomVector<Value>(static_cast<std::size_t>(count), rng());
        for (auto& v : column) v = std::ldexp(v, exponent(rng));
      }
      for (const std::int64_t entries : {0, 1, 2, 5, 8, 64, 1500}) {
        Sums sums("sums", count, arrays);
        auto host = Kokkos::create_mirror_view(sums);
        for (std::int64_t k = 0; k < arrays; ++k)
          for (std::int64_t i = 0; i < count; ++i) host(i, k) = columns[k][i];
        Kokkos::deep_copy(sums, host);
        Kokkos::TeamPolicy<Exec> policy(exec, 1, threads);
        const std::size_t scratch = Impl::scratchArrayBytes<Value>(static_cast<std::size_t>(arrays * entries + 1));
        Kokkos::parallel_for("test::tree_levels", policy.set_scratch_size(0, Kokkos::PerTeam(scratch)),
                             TreeLevelsKernel<Exec, Value>{sums, entries});
        Kokkos::deep_copy(host, sums);
        for (std::int64_t k = 0; k < arrays; ++k) {
          const Value expected = test::hostPairwiseTree(columns[k]);
          BOOST_TEST(sameBits(host(0, k), expected), "count " << count << ", array " << k << " of " << arrays
                                                               << ", scratch " << entries << ": got " << host(0, k)
                                                               << ", the documented order gives " << expected);
        }
      }
    }
  }
}

/// The tree pass takes its first step in global memory once the chunk sums' blocks outnumber its
/// scratch (Impl::kTreeScratchValues over the sums of one sweep). Lengths around that limit for
/// two sums (the fused sweep) and below it, for one sum (dot, norm) and for two, against the
/// documented order on the host. Double only, once per space: the vectors hold millions of
/// entries, and the tree's path does not depend on the value type.
BOOST_AUTO_TEST_CASE_TEMPLATE(deterministic_dots_past_the_tree_scratch, Exec, test::EnabledSpaces) {
  using Device = typename Exec::device_type;
  using Value = double;
  using Vector = Kokkos::View<Value*, Device>;
  Exec exec;
  // The longest vector whose chunk sums' blocks fit the scratch for two sums.
  const std::int64_t limit = Impl::kTreeScratchValues / 2 * Impl::kTreeBlock * kDotChunk;
  for (const std::int64_t n : {std::int64_t(3000), limit / 5 + 7, limit, limit + 1}) {
    const auto xs = randomVector<Value>(static_cast<std::size_t>(n), 31), ys = randomVector<Value>(static_cast<std::size_t>(n), 32);
    const Vector x = toDevice<Value, Device>(xs), y = toDevice<Value, Device>(ys);
    const Value xy = hostDeterministicDot(xs, ys), xx = hostDeterministicDot(xs, xs);
    const Value got = dot(exec, x, y, ReductionMode::Deterministic);
    BOOST_TEST(sameBits(got, xy), "dot, n=" << n << ": got " << got << ", the documented order gives " << xy);
    Vector out("out", 2);
    Kokkos::deep_copy(out, std::numeric_limits<Value>::quiet_NaN());
    Vector first("partials", Impl::dotChunks(n)), second("partials", Impl::dotChunks(n));
    Impl::chunkedDots("test::two_dots", exec, n, TwoDotTerms<Vector, Vector, Value>{x, y},
                      Impl::PartialSums<Value, Device, 2>{first, second}, StoreTwoTotals<Value, Device>{out});
    const auto totals = toHost(out);
    BOOST_TEST(sameBits(totals[0], xy), "two sums, x.y, n=" << n << ": got " << totals[0] << ", expected " << xy);
    BOOST_TEST(sameBits(totals[1], xx), "two sums, x.x, n=" << n << ": got " << totals[1] << ", expected " << xx);
  }
}

BOOST_AUTO_TEST_CASE_TEMPLATE(every_mode_meets_the_summation_error_bound, Cfg, test::AllConfigs) {
  using Device = typename Cfg::device_type;
  using Value = typename Cfg::value_type;
  typename Cfg::execution_space exec;
  for (std::int64_t n : kLengths) {
    const auto xs = randomVector<Value>(n, 21 + n), ys = randomVector<Value>(n, 22 + n);
    auto x = toDevice<Value, Device>(xs);
    auto y = toDevice<Value, Device>(ys);
    // 256 bits are not exact here, but 2^-256 relative is far below the bound being checked.
    using Wide = mp::number<mp::cpp_bin_float<256, mp::digit_base_2>, mp::et_off>;
    Wide exact = 0, magnitude = 0;
    for (std::int64_t i = 0; i < n; ++i) {
      const Wide p = Wide(xs[i]) * Wide(ys[i]);
      exact += p;
      magnitude += mp::abs(p);
    }
    // gamma_n * sum |x_i y_i|, n roundings at most in any summation order (Higham 3.1).
    const double u = std::numeric_limits<Value>::epsilon() / 2;
    const Wide bound = Wide(n * u / (1 - n * u)) * magnitude;
    for (auto mode : {ReductionMode::Fast, ReductionMode::Deterministic, ReductionMode::Accurate}) {
      const Value got = dot(exec, x, y, mode);
      BOOST_TEST(mp::abs(Wide(got) - exact) <= bound, toString(mode) << " n=" << n);
    }
  }
}

// The accurate dot's first step: every finite double as an integer below 2^53 times a power of
// two, exactly, subnormals and the extremes included.
BOOST_AUTO_TEST_CASE(split_double_gives_the_value_exactly) {
  std::vector<double> values = {0.0,
                                -0.0,
                                std::numeric_limits<double>::denorm_min(),
                                3 * std::numeric_limits<double>::denorm_min(),
                                std::numeric_limits<double>::min() / 3,
                                std::nextafter(std::numeric_limits<double>::min(), 0.0),
                                std::numeric_limits<double>::min(),
                                1.0,
                                -1.5,
                                std::nextafter(1.0, 2.0),
                                std::numeric_limits<double>::max(),
                                -std::numeric_limits<double>::max()};
  std::mt19937_64 rng(20261129);
  for (int i = 0; i < 2000; ++i) {
    std::uint64_t bits = rng();
    double v;
    std::memcpy(&v, &bits, sizeof v);
    if (std::isfinite(v)) values.push_back(v);
  }
  for (const double v : values) {
    const araios::Impl::ScaledInteger s = araios::Impl::splitDouble(v);
    BOOST_TEST_CONTEXT("value " << v) {
      BOOST_TEST(s.mantissa < (std::uint64_t(1) << 53));
      BOOST_TEST(s.exponent >= -1074);
      BOOST_TEST(std::ldexp(static_cast<double>(s.mantissa), s.exponent) == std::fabs(v));
    }
  }
}

BOOST_AUTO_TEST_CASE_TEMPLATE(accurate_dot_is_correctly_rounded, Cfg, test::AllConfigs) {
  using Device = typename Cfg::device_type;
  using Value = typename Cfg::value_type;
  typename Cfg::execution_space exec;
  for (const auto& c : dotCases<Value>()) {
    auto x = toDevice<Value, Device>(c.x);
    auto y = toDevice<Value, Device>(c.y);
    const Value got = dot(exec, x, y, ReductionMode::Accurate);
    std::string why;
    BOOST_TEST(correctlyRounded(c.exact, got, why), c.name << ": " << why);
    // The reverse order and the swapped operands give the same bits.
    std::vector<Value> rx(c.x.rbegin(), c.x.rend()), ry(c.y.rbegin(), c.y.rend());
    const Value reversed = dot(exec, toDevice<Value, Device>(rx), toDevice<Value, Device>(ry), ReductionMode::Accurate);
    const Value swapped = dot(exec, y, x, ReductionMode::Accurate);
    BOOST_TEST(sameBits(got, reversed), c.name << ": reversed order differs");
    BOOST_TEST(sameBits(got, swapped), c.name << ": swapped operands differ");
  }
}

// The threads' expansions hold any number of terms (none: every product as integers) and let a
// value run down all of them or stop at the first that passes nothing on: only how often values go
// to the integer limbs changes, never the bits.
BOOST_AUTO_TEST_CASE_TEMPLATE(accurate_dot_bits_do_not_depend_on_the_expansion, Cfg, test::AllConfigs) {
  using Exec = typename Cfg::execution_space;
  using Device = typename Cfg::device_type;
  using Value = typename Cfg::value_type;
  Exec exec;
  ReductionWorkspace<Value, Device> ws;
  Kokkos::View<Value*, Device> slot("slot", 1);
  for (const auto& c : dotCases<Value>()) {
    auto x = toDevice<Value, Device>(c.x);
    auto y = toDevice<Value, Device>(c.y);
    const Value want = dot(exec, x, y, ReductionMode::Accurate);
    ws.reserve(static_cast<std::int64_t>(c.x.size()));
    const auto with = [&](auto terms, auto earlyExit) {
      Kokkos::deep_copy(slot, fp::quietNaN<Value>());
      Kokkos::deep_copy(exec, ws.exact, std::int64_t(0));
      Impl::addExactDot<decltype(terms)::value, decltype(earlyExit)::value>(exec, x, y, ws.exact,
                                                                            static_cast<std::int64_t>(c.x.size()));
      Impl::runOnce("round", exec,
                    Impl::ExactFinalize<Value, Device>{ws.exact, DeviceScalar<Value, Device>{slot, 0},
                                                       Impl::ReduceTransform::Identity});
      exec.fence();
      return toHost(slot)[0];
    };
    BOOST_TEST(sameBits(with(std::integral_constant<int, 0>{}, std::false_type{}), want), c.name << ": integers only");
    BOOST_TEST(sameBits(with(std::integral_constant<int, 1>{}, std::false_type{}), want), c.name << ": one term");
    BOOST_TEST(sameBits(with(std::integral_constant<int, 2>{}, std::true_type{}), want), c.name << ": two terms");
    BOOST_TEST(sameBits(with(std::integral_constant<int, 8>{}, std::false_type{}), want), c.name << ": eight terms");
  }
}

BOOST_AUTO_TEST_CASE_TEMPLATE(accurate_dot_propagates_nan_and_infinity, Cfg, test::AllConfigs) {
  using Device = typename Cfg::device_type;
  using Value = typename Cfg::value_type;
  typename Cfg::execution_space exec;
  const Value inf = std::numeric_limits<Value>::infinity(), nan = std::numeric_limits<Value>::quiet_NaN();
  auto run = [&](std::vector<Value> x, std::vector<Value> y) {
    return dot(exec, toDevice<Value, Device>(x), toDevice<Value, Device>(y), ReductionMode::Accurate);
  };
  BOOST_TEST(std::isnan(run({1, nan}, {1, 1})));
  BOOST_TEST(std::isnan(run({inf, 0}, {0, 1})));  // inf * 0
  BOOST_TEST(std::isnan(run({inf, inf}, {1, -1})));
  BOOST_TEST(run({inf, 1e30f}, {1, -1e30f}) == inf);
  BOOST_TEST(run({inf, 5}, {-2, 1}) == -inf);
  BOOST_TEST(norm2(exec, toDevice<Value, Device>({1, -inf}), ReductionMode::Accurate) == inf);
}

BOOST_AUTO_TEST_CASE_TEMPLATE(accurate_norm_is_correctly_rounded, Cfg, test::AllConfigs) {
  using Device = typename Cfg::device_type;
  using Value = typename Cfg::value_type;
  typename Cfg::execution_space exec;
  const Value big = std::ldexp(Value(1), std::numeric_limits<Value>::max_exponent - 3);
  const Value small = std::numeric_limits<Value>::denorm_min();
  std::vector<std::pair<std::string, std::vector<Value>>> cases = {
      {"empty", {}},
      {"pythagorean", {3, -4}},
      {"single_negative", {Value(-0.1)}},
      {"huge_entries_do_not_overflow", {big, big, -big}},
      {"sum_of_squares_overflows_the_format", {std::numeric_limits<Value>::max(), std::numeric_limits<Value>::max()}},
      {"smallest_subnormal", {small}},
      {"subnormal_entries_do_not_underflow", {small, small, small * 3}},
      {"ones", std::vector<Value>(1000, Value(1))},
  };
  for (std::uint64_t seed = 1; seed <= 6; ++seed) {
    auto v = randomVector<Value>(777 * seed, seed);
    if (seed % 2 == 0)
      for (std::size_t i = 0; i < v.size(); ++i) v[i] = std::ldexp(v[i], static_cast<int>(i % 40) - 20);
    cases.emplace_back("random_" + std::to_string(seed), v);
  }
  for (const auto& [name, v] : cases) {
    const Value got = norm2(exec, toDevice<Value, Device>(v), ReductionMode::Accurate);
    std::string why;
    BOOST_TEST(correctlyRoundedSqrt(exactDot(v, v), got, why), name << ": " << why);
  }
}

BOOST_AUTO_TEST_CASE(deterministic_and_accurate_results_are_equal_on_every_backend) {
  // Each enabled execution space, the same inputs: the bits must agree.
  for (std::int64_t n : kLengths) {
    const auto xs = randomVector<double>(n, 31 + n), ys = randomVector<double>(n, 32 + n);
    std::vector<std::pair<std::string, std::vector<double>>> results;
    auto runOn = [&](auto exec, const char* name) {
      using Device = typename decltype(exec)::device_type;
      auto x = toDevice<double, Device>(xs);
      auto y = toDevice<double, Device>(ys);
      results.push_back({name,
                         {dot(exec, x, y, ReductionMode::Deterministic), norm2(exec, x, ReductionMode::Deterministic),
                          dot(exec, x, y, ReductionMode::Accurate), norm2(exec, x, ReductionMode::Accurate)}});
    };
#ifdef KOKKOS_ENABLE_SERIAL
    runOn(Kokkos::Serial(), "serial");
#endif
#ifdef KOKKOS_ENABLE_OPENMP
    runOn(Kokkos::OpenMP(), "openmp");
#endif
#ifdef KOKKOS_ENABLE_CUDA
    runOn(Kokkos::Cuda(), "cuda");
#endif
    for (const auto& [name, r] : results) {
      BOOST_TEST(sameBits(r, results.front().second), name << " differs from " << results.front().first << " at n=" << n);
    }
  }
}

BOOST_AUTO_TEST_CASE_TEMPLATE(device_scalar_targets_and_workspace_reuse, Cfg, test::AllConfigs) {
  using Device = typename Cfg::device_type;
  using Value = typename Cfg::value_type;
  typename Cfg::execution_space exec;
  // One workspace for vectors of growing and shrinking length, results in separate slots.
  ReductionWorkspace<Value, Device> ws;
  Kokkos::View<Value*, Device> slots("slots", 6);
  const std::int64_t lengths[] = {5000, 10, 70001};
  std::vector<Value> want;
  for (int k = 0; k < 3; ++k) {
    const auto xs = randomVector<Value>(lengths[k], 40 + k), ys = randomVector<Value>(lengths[k], 50 + k);
    dot(exec, toDevice<Value, Device>(xs), toDevice<Value, Device>(ys), DeviceScalar<Value, Device>{slots, 2 * k},
        ReductionMode::Deterministic, ws);
    norm2(exec, toDevice<Value, Device>(xs), DeviceScalar<Value, Device>{slots, 2 * k + 1}, ReductionMode::Accurate, ws);
    want.push_back(hostDeterministicDot(xs, ys));
    long double squares = 0;
    for (Value v : xs) squares += static_cast<long double>(v) * v;
    want.push_back(static_cast<Value>(std::sqrt(squares)));  // checked loosely below
  }
  const auto got = toHost(slots);
  for (int k = 0; k < 3; ++k) {
    BOOST_TEST(sameBits(got[2 * k], want[2 * k]));
    BOOST_TEST(std::fabs(got[2 * k + 1] - want[2 * k + 1]) <= 2 * std::numeric_limits<Value>::epsilon() * want[2 * k + 1]);
  }
}

BOOST_AUTO_TEST_CASE_TEMPLATE(max_abs_diff_turns_nan_into_infinity, Cfg, test::AllConfigs) {
  using Device = typename Cfg::device_type;
  using Value = typename Cfg::value_type;
  typename Cfg::execution_space exec;
  const Value nan = std::numeric_limits<Value>::quiet_NaN(), inf = std::numeric_limits<Value>::infinity();
  auto run = [&](std::vector<Value> a, std::vector<Value> b) {
    return maxAbsDiff(exec, toDevice<Value, Device>(a), toDevice<Value, Device>(b));
  };
  BOOST_TEST(run({}, {}) == Value(0));
  BOOST_TEST(run({1, 2, 3}, {1, 2.5, 2}) == Value(1));
  BOOST_TEST(run({1, nan, 3}, {1, 2, 3}) == inf);
  BOOST_TEST(run({inf, 0}, {inf, 0}) == inf);  // inf - inf is NaN: not a converged entry
  std::vector<Value> a = randomVector<Value>(100000, 5), b = a;
  b[77777] += Value(0.5);
  BOOST_TEST(run(a, b) == std::fabs(b[77777] - a[77777]));
}
