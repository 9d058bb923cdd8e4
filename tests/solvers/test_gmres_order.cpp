// GMRES(m)'s iterates against a host implementation written from its definition
// (araios/solvers/gmres.hpp and gmres_steps.hpp): classical Gram-Schmidt applied twice, each
// update w_i = fma(-h_j, v_j,i, w_i) for j = 0, 1, ..., k in that order, every dot product and
// norm in the documented deterministic order (support/deterministic_dot_reference.hpp), the
// Givens rotations, the back substitution and the update of x with their single roundings.
// After several restart cycles x, the residual estimates and the final residual must match bit
// for bit, with and without the Jacobi preconditioner, on every backend. The device runs the
// fused passes (primitives/chunked_multi_dots.hpp), so this checks that fusing changed no
// rounding and no summation order.
//
// Also: the multi-dot gives every column the bits of araios::dot, for counts across the
// eight-column rounds of a GPU team and lengths across chunk boundaries.
//
// The operator is support/fma_csr_operator.hpp, whose bits a host loop reproduces. The
// matrices: two real nonsymmetric matrices (one chunk and five chunks of the reduction order)
// and a generated nonsymmetric one of 20 chunks, the last partial.
#define BOOST_TEST_MODULE gmres_order
#include <boost/test/unit_test.hpp>

#include "support/deterministic_dot_reference.hpp"
#include "support/device_vectors.hpp"
#include "support/fma_csr_operator.hpp"
#include "support/generated.hpp"
#include "support/kokkos_env.hpp"
#include "support/matrices.hpp"

#include <araios/araios.hpp>
#include <araios/primitives/chunked_multi_dots.hpp>
#include <araios/seeded_vector.hpp>
#include <araios/solvers/solvers.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <iomanip>
#include <limits>
#include <random>
#include <string>
#include <vector>

using araios::test::KokkosFixture;
BOOST_TEST_GLOBAL_FIXTURE(KokkosFixture);

namespace {

using namespace araios;
using test::hostDeterministicDot;

bool sameBits(double a, double b) { return std::memcmp(&a, &b, sizeof(double)) == 0; }

/// A nonsymmetric matrix: each row links to 2 to 7 random columns with values in [-1, 1), and
/// to its neighbours with unequal weights (a convection-like skew); the diagonal is one plus
/// half the row's off-diagonal magnitude, so not dominant.
io::HostMatrix nonsymmetric(std::int64_t n, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<std::int64_t> column(0, n - 1);
  std::uniform_real_distribution<double> value(-1.0, 1.0);
  std::vector<std::tuple<std::int64_t, std::int64_t, double>> entries;
  for (std::int64_t i = 0; i < n; ++i) {
    std::vector<std::int64_t> taken{i};
    double magnitude = 0;
    auto add = [&](std::int64_t j, double v) {
      if (std::find(taken.begin(), taken.end(), j) != taken.end()) return;
      taken.push_back(j);
      entries.emplace_back(i, j, v);
      magnitude += std::fabs(v);
    };
    if (i > 0) add(i - 1, -1.5);
    if (i + 1 < n) add(i + 1, -0.5);
    for (std::int64_t k = 0; k < 2 + i % 6; ++k) {
      const std::int64_t j = column(rng);  // drawn in this order: argument order is unspecified
      add(j, value(rng));
    }
    entries.emplace_back(i, i, 1.0 + 0.5 * magnitude);
  }
  return test::fromTriplets(n, n, std::move(entries));
}

struct HostGmresResult {
  std::vector<double> x;
  std::vector<double> history;  ///< |g_{k+1}| / ||b|| after every Arnoldi step
  int iterations = 0;
  double residual = 0;  ///< ||b - A x|| / ||b|| of the returned x, as the last restart computes it
  bool singular = false;
};

/// GMRES(m) from x0 for maxIterations Arnoldi steps (tolerance 0), written from gmres.hpp's
/// definition; d empty: no preconditioner.
HostGmresResult hostGmres(const io::HostMatrix& A, const std::vector<double>& b, const std::vector<double>& x0,
                          const std::vector<double>& d, int m, int maxIterations) {
  const std::size_t n = b.size();
  const bool precondition = !d.empty();
  HostGmresResult out;
  std::vector<double> x = x0, r(n), t(n), z(n);
  std::vector<std::vector<double>> V(m + 1, std::vector<double>(n));
  std::vector<std::vector<double>> H(m + 1, std::vector<double>(m));
  std::vector<double> cs(m), sn(m), g(m + 1), y(m), h(m), c(m);
  const double bnorm = std::sqrt(hostDeterministicDot(b, b));
  // v = u / s, and z = v / d for the next product.
  auto normalize = [&](const std::vector<double>& u, std::vector<double>& v, double s) {
    for (std::size_t i = 0; i < n; ++i) {
      v[i] = u[i] / s;
      if (precondition) z[i] = v[i] / d[i];
    }
  };
  while (true) {
    test::hostFmaProduct(A, x, t);
    for (std::size_t i = 0; i < n; ++i) r[i] = b[i] - t[i];
    const double beta = std::sqrt(hostDeterministicDot(r, r));
    out.residual = beta / bnorm;
    if (out.iterations >= maxIterations || out.singular) break;
    g.assign(m + 1, 0.0);
    g[0] = beta;
    normalize(r, V[0], beta);
    int columns = 0;
    for (int k = 0; k < m && out.iterations < maxIterations; ++k) {
      std::vector<double>& w = V[k + 1];
      test::hostFmaProduct(A, precondition ? z : V[k], w);
      // Classical Gram-Schmidt, twice: every coefficient of a pass from the same w.
      for (int j = 0; j <= k; ++j) h[j] = hostDeterministicDot(w, V[j]);
      for (std::size_t i = 0; i < n; ++i)
        for (int j = 0; j <= k; ++j) w[i] = std::fma(-h[j], V[j][i], w[i]);
      for (int j = 0; j <= k; ++j) c[j] = hostDeterministicDot(w, V[j]);
      for (std::size_t i = 0; i < n; ++i)
        for (int j = 0; j <= k; ++j) w[i] = std::fma(-c[j], V[j][i], w[i]);
      const double hNext = std::sqrt(hostDeterministicDot(w, w));
      for (int j = 0; j <= k; ++j) H[j][k] = h[j] + c[j];
      // The rotations, as gmresCloseColumn forms them.
      for (int i = 0; i < k; ++i) {
        const double a = H[i][k], bb = H[i + 1][k];
        H[i][k] = std::fma(cs[i], a, sn[i] * bb);
        H[i + 1][k] = std::fma(cs[i], bb, -(sn[i] * a));
      }
      const double a = H[k][k], bb = hNext;
      double ck = 1, sk = 0, rk = a;
      if (bb != 0) {
        const double scale = std::fabs(a) > std::fabs(bb) ? std::fabs(a) : std::fabs(bb);
        const double as = a / scale, bs = bb / scale;
        rk = scale * std::sqrt(std::fma(as, as, bs * bs));
        ck = a / rk;
        sk = bb / rk;
      }
      cs[k] = ck;
      sn[k] = sk;
      H[k][k] = rk;
      const double gk = g[k];
      g[k] = ck * gk;
      g[k + 1] = -(sk * gk);
      normalize(w, w, hNext);
      if (rk == 0 || !std::isfinite(rk) || !std::isfinite(g[k + 1])) {
        out.singular = true;
        break;
      }
      columns = k + 1;
      ++out.iterations;
      out.history.push_back(std::fabs(g[k + 1]) / bnorm);
      if (bb == 0) break;
    }
    for (int i = columns - 1; i >= 0; --i) {
      double sum = g[i];
      for (int j = columns - 1; j > i; --j) sum = std::fma(-H[i][j], y[j], sum);
      y[i] = sum / H[i][i];
    }
    if (columns > 0) {
      for (std::size_t i = 0; i < n; ++i) {
        double u = 0;
        for (int j = 0; j < columns; ++j) u = std::fma(V[j][i], y[j], u);
        x[i] = x[i] + (precondition ? u / d[i] : u);
      }
    }
  }
  out.x = std::move(x);
  return out;
}

struct Case {
  std::string name;
  io::HostMatrix matrix;
  int restart;
  int iterations;
  bool guess;  ///< start from a seeded x0 as well as from zero
};

const std::vector<Case>& cases() {
  static const std::vector<Case> all = [] {
    auto real = [](const char* name) {
      return io::readMatrixMarket((test::matricesDir() / (std::string(name) + ".mtx.gz")).string());
    };
    std::vector<Case> c;
    // m = 12: up to 13 columns a pass, two of a GPU team's rounds; three cycles (12, 12, 6).
    c.push_back({"orsirr_2", real("orsirr_2"), 12, 30, false});      // 886 rows: one chunk
    c.push_back({"sherman3", real("sherman3"), 40, 50, false});      // 5,005 rows; 5 rounds of columns
    c.push_back({"nonsymmetric-20001", nonsymmetric(20001, 6131), 12, 30, true});  // 20 chunks
    return c;
  }();
  return all;
}

#ifdef KOKKOS_ENABLE_SERIAL
using CpuSpaces = std::tuple<Kokkos::Serial, Kokkos::OpenMP>;
#else
using CpuSpaces = std::tuple<Kokkos::OpenMP>;
#endif
#ifdef KOKKOS_ENABLE_CUDA
using Spaces = test::Concat<CpuSpaces, std::tuple<Kokkos::Cuda>>;
#else
using Spaces = CpuSpaces;
#endif

}  // namespace

/// A host basis for the lane chains: column j of a row-major copy.
struct HostColumns {
  const double* values;
  std::int64_t rows;
  KOKKOS_INLINE_FUNCTION double operator()(std::int64_t i, int j) const { return values[j * rows + i]; }
};

/// A CPU's lane chains run with the FMA instruction where it has one and through libm otherwise;
/// both must give the documented order's bits: lane l sums w[e] * V(e, j) for e = l, l + 32, ...
BOOST_AUTO_TEST_CASE(host_lane_chains_give_the_same_bits_with_and_without_the_fma_instruction) {
  std::mt19937_64 rng(1129);
  std::uniform_real_distribution<double> mantissa(-1.0, 1.0);
  std::uniform_int_distribution<int> exponent(-30, 30);
  const std::int64_t rows = kDotChunk;
  std::vector<double> w(static_cast<std::size_t>(rows)), v(static_cast<std::size_t>(3 * rows));
  for (double& a : w) a = std::ldexp(mantissa(rng), exponent(rng));
  for (double& a : v) a = std::ldexp(mantissa(rng), exponent(rng));
  const HostColumns V{v.data(), rows};
  for (const int length : {1, 33, 1000, static_cast<int>(rows)}) {
    for (int j = 0; j < 3; ++j) {
      double reference[kDotLanes] = {}, plain[kDotLanes];
      for (int e = 0; e < length; ++e) reference[e % kDotLanes] = std::fma(w[e], V(e, j), reference[e % kDotLanes]);
      Impl::columnLaneChains(w.data(), V, 0, length, j, plain);
      BOOST_TEST(std::memcmp(plain, reference, sizeof plain) == 0, "length " << length << ", column " << j);
      if (Impl::hostWalksWithFma()) {
        double fused[kDotLanes];
        Impl::columnLaneChainsWithFma(w.data(), V, 0, length, j, fused);
        BOOST_TEST(std::memcmp(fused, reference, sizeof fused) == 0, "length " << length << ", column " << j);
      }
    }
  }
}

BOOST_AUTO_TEST_CASE_TEMPLATE(multi_dots_have_the_bits_of_the_single_dot, Exec, Spaces) {
  using Device = typename Exec::device_type;
  using Basis = Kokkos::View<double**, Kokkos::LayoutLeft, Device>;
  using Vector = Kokkos::View<double*, Device>;
  Exec exec;
  constexpr int kColumns = 33;
  // 200,001 entries are 196 chunk sums a column, in 25 blocks: for 33 columns the tree's
  // scratch holds 124 sums a column, so its first step reads global memory and the rest run in
  // scratch (test_vector_ops's pairwise_tree_steps_add_in_the_documented_order covers steps in
  // global memory).
  for (const std::int64_t n : {0, 1, 31, 1024, 1025, 3000, 20001, 70001, 200001}) {
    Basis V("V", n, kColumns);
    for (int j = 0; j < kColumns; ++j) {
      const auto column = test::deviceVector<Device>(seededVector<double>(n, 900 + j), "column");
      Kokkos::deep_copy(Kokkos::subview(V, Kokkos::ALL, j), column);
    }
    const std::vector<double> wHost = seededVector<double>(n, 77);
    const Vector w = test::deviceVector<Device>(wHost, "w");
    const auto partials = Impl::allocateMultiPartials<double, Device>(n, kColumns, "partials");
    for (const int count : {1, 5, 8, 9, 17, 33}) {
      const std::string label = "n = " + std::to_string(n) + ", count = " + std::to_string(count) + " on " + Exec::name();
      // Poisoned: a sum the finish does not write stays NaN.
      Vector out("out", kColumns + 1);
      Kokkos::deep_copy(out, std::numeric_limits<double>::quiet_NaN());
      Impl::chunkedMultiDots("test::multi_dots", exec, n, Impl::VectorEntry<Vector, double>{w}, V, count, partials,
                             Impl::StoreMultiTotals<double, Device>{out, 1, count});
      const std::vector<double> got = test::hostValues(out);
      BOOST_TEST(std::isnan(got[0]), label << ": wrote before its first slot");
      for (int j = 0; j < kColumns; ++j) {
        if (j >= count) {
          BOOST_TEST(std::isnan(got[1 + j]), label << ": wrote sum " << j);
          continue;
        }
        const auto column = Kokkos::subview(V, Kokkos::ALL, j);
        const double single = dot(exec, w, column, ReductionMode::Deterministic);
        const double host = hostDeterministicDot(wHost, test::hostValues(column));
        BOOST_TEST(sameBits(got[1 + j], single),
                   label << ", column " << j << ": " << std::setprecision(17) << got[1 + j] << " vs dot " << single);
        BOOST_TEST(sameBits(single, host), label << ", column " << j << ": dot " << single << " vs host " << host);
      }
    }
  }
}

BOOST_AUTO_TEST_CASE_TEMPLATE(deterministic_gmres_matches_the_host_iteration_bit_for_bit, Exec, Spaces) {
  using Device = typename Exec::device_type;
  using Csr = CsrMatrix<double, std::int32_t, std::int32_t, Device>;
  using Vector = Kokkos::View<double*, Device>;
  Exec exec;
  for (const Case& c : cases()) {
    const Csr A = csrFromHost<Csr>(c.matrix);
    const test::FmaCsrOperator<Csr> op{A};
    const std::int64_t n = c.matrix.numRows;
    const std::vector<double> bHost = seededVector<double>(n, 50 + n);
    const Vector b = test::deviceVector<Device>(bHost, "b");
    const Vector diagonal = extractDiagonal(exec, A);
    const std::vector<double> dHost = test::hostValues(diagonal);
    for (const bool guess : {false, true}) {
      if (guess && !c.guess) continue;
      const std::vector<double> x0 = guess ? seededVector<double>(n, 3) : std::vector<double>(n, 0.0);
      for (const bool precondition : {true, false}) {
        const std::string label = c.name + (precondition ? " jacobi" : " plain") + (guess ? " from a guess" : "") +
                                  " on " + Exec::name();
        SolverOptions o;
        o.tolerance = 0;  // run all the iterations
        o.maxIterations = c.iterations;
        o.restart = c.restart;
        o.stagnationCycles = 0;
        o.mode = ReductionMode::Deterministic;
        o.preconditioner = precondition ? Preconditioner::Jacobi : Preconditioner::None;
        const Vector x = test::deviceVector<Device>(x0, "x");
        const SolveResult got = gmres(exec, op, b, x, o, precondition ? diagonal : Vector());
        const HostGmresResult want =
            hostGmres(c.matrix, bHost, x0, precondition ? dHost : std::vector<double>(), c.restart, c.iterations);

        BOOST_TEST(!want.singular, label);
        BOOST_TEST(got.iterations == want.iterations, label);
        BOOST_TEST((got.status == SolveStatus::MaxIterations), label << ": " << got.message);
        BOOST_TEST(sameBits(got.residual, want.residual),
                   label << ": ||b - Ax|| / ||b|| " << std::setprecision(17) << got.residual << " vs " << want.residual);
        BOOST_TEST(got.history.size() == want.history.size(), label);
        for (std::size_t k = 0; k < std::min(got.history.size(), want.history.size()); ++k) {
          if (!sameBits(got.history[k], want.history[k])) {
            BOOST_TEST(false, label << ": estimate " << k << " " << std::setprecision(17) << got.history[k] << " vs "
                                    << want.history[k]);
            break;
          }
        }
        const std::vector<double> xHost = test::hostValues(x);
        std::size_t differ = 0, first = 0;
        for (std::size_t i = 0; i < xHost.size(); ++i) {
          if (!sameBits(xHost[i], want.x[i]) && differ++ == 0) first = i;
        }
        BOOST_TEST(differ == 0u, label << ": " << differ << " entries of x differ from the host iteration, the first at "
                                       << first << " (" << std::setprecision(17) << xHost[first] << " vs "
                                       << want.x[first] << ")");
      }
    }
  }
}
