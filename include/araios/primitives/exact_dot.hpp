#pragma once
// Accurate mode's dot products and 2-norms: every product x_i * y_i added exactly
// into the fixed-point accumulator of exact_accumulator.hpp (the caller's `exact`, zeroed first),
// which ExactFinalize rounds once.
//
// How the products get there. Each thread holds a floating-point expansion of a few doubles in
// registers (after ExBLAS: Collange, Defour, Graillat and Iakymchuk, Parallel Computing 49,
// 2015). TwoProduct splits a product exactly into p + q, and each part runs down the terms by
// TwoSum: a term keeps the rounded sum and passes the rounding error on, so the terms always add
// up exactly to what went in. Three kinds of value become integers instead, added into limbs that
// the team shares (in scratch) by atomic additions:
//   - what the last term passes on (rare: the terms hold products over some 200 binary orders
//     of magnitude);
//   - products that TwoProduct cannot split exactly (below kExpansionMinProduct) or whose sums
//     could overflow (above kExpansionMaxMagnitude), split into integers (splitDouble);
//   - the terms themselves, once the thread's share of the vector is done.
// The team then carries its limbs once, each into the next, and adds them into `exact`. On a CPU
// a team is one thread and has no expansion (kExactDotTerms): each product goes to its limbs as
// integers, without atomics.
//
// Integer additions commute and the expansion is exact, so `exact` ends with the exact sum
// whichever thread took which product: the team size, the share per thread and the order of the
// atomics change no bit. Neither does the number of terms; it only sets how often values take the
// integer path.
//
// Bounds. A thread adds at most 2 * kExactDotMaxShare parts of at most 2^1000 each to its
// expansion, so no TwoSum overflows. A team's limb takes at most 9 digits (each below 2^32) per
// element of its share; with at most 2^16 elements per team it stays below 2^52, and after the
// carry each value the team adds into `exact` is below 2^33 in magnitude, so `exact` takes 2^30
// teams (exactDotShape refuses more).
//
// Before, each GPU thread split every product into integers and added it into 140 limbs of its
// own, in local memory, which it cleared, carried and added into `exact` every 256 products. On an
// H100 the dot of two vectors of 2^27 doubles took 14 to 175 times Deterministic mode's time; it
// now takes 1.9 to 7.7 times (bench/results/nvidia-h100/exact_dot).
#include <araios/detail/host_space.hpp>
#include <araios/detail/team_scratch.hpp>
#include <araios/error.hpp>
#include <araios/primitives/error_free.hpp>
#include <araios/primitives/exact_accumulator.hpp>
#include <araios/primitives/fp.hpp>
#include <araios/primitives/integer_atomics.hpp>

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <string>

namespace araios::Impl {

/// Counters after the limbs in `exact`: NaN, +Inf and -Inf products.
constexpr int kSpecialNaN = 0, kSpecialPosInf = 1, kSpecialNegInf = 2, kSpecialCount = 3;

/// Doubles in a thread's expansion on ExecSpace, and whether a value stops running down the terms
/// at the first that passes nothing on. Four with the stop on a GPU: within 10 % of the fastest of
/// 2 to 6 terms with and without it on each of six vector pairs on an H100, where every product as
/// integers took 1.6 to 33 times as long (the team's atomics on a few limbs). None on a CPU: there a
/// thread's chain of TwoSums waits on each addition in turn, and on the project's 2-core EPYC four
/// terms took 0.6 to 1.0 times the integers' time on products within a few binary orders of
/// magnitude but 2.8 to 3.1 times on products spread over 2^-600 to 2^600, so every product goes to
/// the limbs as integers, as before (bench/results/nvidia-h100/exact_dot, cpu-2core-epyc/exact_dot).
template <class ExecSpace>
constexpr int kExactDotTerms = isHostSpace<ExecSpace>() ? 0 : 4;
constexpr bool kExactDotEarlyExit = true;
/// Threads of a team on a GPU; one on a CPU.
constexpr int kExactDotTeamThreads = 256;
/// Elements per thread on a GPU: from the least share up to the most, doubled while the vector
/// would need more than kExactDotTeamsWanted teams (more teams keep a GPU busy on short vectors,
/// longer shares spread each team's final additions over more products).
constexpr std::int64_t kExactDotLeastShare = 16, kExactDotMaxShare = 256, kExactDotTeamsWanted = 4096;
/// Elements per thread on a CPU, where a team is one thread.
constexpr std::int64_t kExactDotHostShare = 4096;
/// Elements a GPU's thread loads before it adds any of them (their loads are in flight together).
/// A CPU's thread takes one at a time: its caches prefetch the next, and the batch's arrays cost
/// it up to a tenth of its time on the 2-core EPYC.
constexpr int kExactDotBatch = 8;

/// How a dot of n elements is launched: teams of teamThreads threads, share elements each.
struct ExactDotShape {
  std::int64_t teams = 0;
  int teamThreads = 1;
  std::int64_t share = 1;
};

template <class ExecSpace>
ExactDotShape exactDotShape(std::int64_t n) {
  ExactDotShape shape;
  if (isHostSpace<ExecSpace>()) {
    shape.share = kExactDotHostShare;
  } else {
    shape.teamThreads = kExactDotTeamThreads;
    shape.share = kExactDotLeastShare;
    while (shape.share < kExactDotMaxShare && shape.share * shape.teamThreads * kExactDotTeamsWanted < n) {
      shape.share *= 2;
    }
  }
  const std::int64_t perTeam = shape.share * shape.teamThreads;
  shape.teams = (n + perTeam - 1) / perTeam;
  if (shape.teams >= (std::int64_t(1) << 30)) {
    throw InputError("accurate dot product of " + std::to_string(n) + " elements: more than 2^30 teams of " +
                     std::to_string(perTeam) + " would overflow the exact accumulator");
  }
  return shape;
}

/// Adds v * 2^bit (v < 2^64), or subtracts it, into the team's limbs: by atomic additions where the
/// team has several threads (Shared), skipping zero digits; plainly otherwise, where a test for
/// zero digits costs more than the additions.
template <bool Shared>
KOKKOS_INLINE_FUNCTION void depositBitsIntoTeam(std::int64_t* limbs, std::uint64_t v, int bit, bool negative) {
  if constexpr (!Shared) {
    depositBits(limbs, v, bit, negative);
  } else {
    const LimbDigits d = limbDigits(v, bit);
    for (int j = 0; j < 3; ++j) {
      if (d.digits[j] != 0) atomicFetchAddInteger(&limbs[d.limb + j], negative ? -d.digits[j] : d.digits[j]);
    }
  }
}

/// Adds a finite double into the team's limbs.
template <bool Shared>
KOKKOS_INLINE_FUNCTION void depositDoubleIntoTeam(std::int64_t* limbs, double v) {
  if (v == 0) return;
  const ScaledInteger s = splitDouble(v);
  depositBitsIntoTeam<Shared>(limbs, s.mantissa, s.exponent, v < 0);
}

/// Adds +-(a * 2^qa) * (b * 2^qb) exactly (a, b < 2^53, both nonzero) into the team's limbs.
template <bool Shared>
KOKKOS_INLINE_FUNCTION void depositProductIntoTeam(std::int64_t* limbs, ScaledInteger a, ScaledInteger b,
                                                   bool negative) {
  splitProduct(a, b, [&](std::uint64_t v, int bit) { depositBitsIntoTeam<Shared>(limbs, v, bit, negative); });
}

/// Adds v to the expansion `terms` exactly; returns what the last term passes on (0 when the
/// terms hold it all). With EarlyExit the walk stops at the first term that passes nothing on.
template <bool EarlyExit, int Terms>
KOKKOS_INLINE_FUNCTION double addToExpansion(double (&terms)[Terms], double v) {
  for (int k = 0; k < Terms; ++k) {
    twoSum(terms[k], v, terms[k], v);
    if (EarlyExit && v == 0) return 0;
  }
  return v;
}

/// One team's share of x . y, added into `exact` (kLimbs limbs, then kSpecialCount counters).
template <class ExecSpace, class XView, class YView, class Exact, int Terms = kExactDotTerms<ExecSpace>,
          bool EarlyExit = kExactDotEarlyExit>
struct ExactDotTeamKernel {
  using L = ExactAccumulatorLayout;
  using Member = typename Kokkos::TeamPolicy<ExecSpace>::member_type;
  static constexpr bool kShared = !isHostSpace<ExecSpace>();
  XView x;
  YView y;
  Exact exact;
  std::int64_t n;
  std::int64_t share;

  /// A GPU's team shares its limbs in scratch; a CPU's one thread keeps them on its stack, where
  /// the compiler knows that nothing else writes them.
  static std::size_t scratchBytes() { return kShared ? scratchArrayBytes<std::int64_t>(L::kLimbs) : 0; }

  /// The expansion's array (one unused double where there is none).
  static constexpr int kSlots = Terms > 0 ? Terms : 1;

  KOKKOS_INLINE_FUNCTION void addProduct(double a, double b, double (&terms)[kSlots], std::int64_t* limbs,
                                         std::int64_t (&specials)[kSpecialCount]) const {
    if (!fp::isFinite(a) || !fp::isFinite(b)) {
      const double p = a * b;
      ++specials[p != p ? kSpecialNaN : (p > 0 ? kSpecialPosInf : kSpecialNegInf)];
      return;
    }
    if (a == 0 || b == 0) return;
    if constexpr (Terms == 0) {
      depositProductIntoTeam<kShared>(limbs, splitDouble(a), splitDouble(b), (a < 0) != (b < 0));
      return;
    }
    double p, q;
    twoProduct(a, b, p, q);
    const double magnitude = ::fabs(p);
    if (!(magnitude >= kExpansionMinProduct && magnitude <= kExpansionMaxMagnitude)) {  // also an overflowed p
      depositProductIntoTeam<kShared>(limbs, splitDouble(a), splitDouble(b), (a < 0) != (b < 0));
      return;
    }
    depositDoubleIntoTeam<kShared>(limbs, addToExpansion<EarlyExit>(terms, p));
    if (q != 0) depositDoubleIntoTeam<kShared>(limbs, addToExpansion<EarlyExit>(terms, q));
  }

  KOKKOS_INLINE_FUNCTION void operator()(const Member& team) const {
    std::int64_t ownLimbs[kShared ? 1 : L::kLimbs];
    std::int64_t* const limbs = kShared ? scratchArray<std::int64_t>(team, L::kLimbs) : ownLimbs;
    Kokkos::parallel_for(Kokkos::TeamThreadRange(team, L::kLimbs), [&](const int k) { limbs[k] = 0; });
    team.team_barrier();

    // Thread r of the team takes elements first + r, first + r + threads, ...: a warp's loads
    // are coalesced.
    const std::int64_t threads = team.team_size();
    const std::int64_t start = team.league_rank() * share * threads + team.team_rank();
    const std::int64_t end = start + share * threads < n ? start + share * threads : n;
    double terms[kSlots];
    for (int k = 0; k < kSlots; ++k) terms[k] = 0;
    std::int64_t specials[kSpecialCount] = {0, 0, 0};
    constexpr int kBatch = kShared ? kExactDotBatch : 1;
    for (std::int64_t first = start; first < end; first += kBatch * threads) {
      double a[kBatch], b[kBatch];
      for (int u = 0; u < kBatch; ++u) {
        const std::int64_t i = first + u * threads;
        a[u] = i < end ? static_cast<double>(x(i)) : 0.0;
        b[u] = i < end ? static_cast<double>(y(i)) : 0.0;
      }
      for (int u = 0; u < kBatch; ++u) addProduct(a[u], b[u], terms, limbs, specials);
    }
    for (int k = 0; k < kSlots; ++k) depositDoubleIntoTeam<kShared>(limbs, terms[k]);
    for (int s = 0; s < kSpecialCount; ++s) {
      if (specials[s] != 0) atomicFetchAddInteger(&exact(L::kLimbs + s), specials[s]);
    }
    team.team_barrier();

    // One carry: limb k keeps its digit (splitDigit) and takes the carry of limb k - 1; the top
    // limb keeps all of itself.
    Kokkos::parallel_for(Kokkos::TeamThreadRange(team, L::kLimbs), [&](const int k) {
      std::int64_t value = k == L::kLimbs - 1 ? limbs[k] : splitDigit(limbs[k]).digit;
      if (k > 0) value += splitDigit(limbs[k - 1]).carry;
      if (value != 0) atomicFetchAddInteger(&exact(k), value);
    });
  }
};

/// Adds x . y (n elements, each converted to double) into `exact`, which holds kLimbs limbs and
/// then kSpecialCount counters, on `exec`. Asynchronous.
template <int Terms, bool EarlyExit, class ExecSpace, class XView, class YView, class Exact>
void addExactDot(const ExecSpace& exec, const XView& x, const YView& y, const Exact& exact, std::int64_t n) {
  const ExactDotShape shape = exactDotShape<ExecSpace>(n);
  if (shape.teams == 0) return;
  using Kernel = ExactDotTeamKernel<ExecSpace, XView, YView, Exact, Terms, EarlyExit>;
  Kokkos::TeamPolicy<ExecSpace> policy(exec, static_cast<int>(shape.teams), shape.teamThreads);
  Kokkos::parallel_for("araios::dot::exact", policy.set_scratch_size(0, Kokkos::PerTeam(Kernel::scratchBytes())),
                       Kernel{x, y, exact, n, shape.share});
}

/// The same with ExecSpace's expansion (kExactDotTerms).
template <class ExecSpace, class XView, class YView, class Exact>
void addExactDot(const ExecSpace& exec, const XView& x, const YView& y, const Exact& exact, std::int64_t n) {
  addExactDot<kExactDotTerms<ExecSpace>, kExactDotEarlyExit>(exec, x, y, exact, n);
}

}  // namespace araios::Impl
