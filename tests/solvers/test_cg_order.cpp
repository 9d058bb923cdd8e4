// CG's iterates against a host implementation of the iteration written from its definition
// (araios/solvers/cg.hpp): every vector update with its single rounding, every dot product and
// norm in the documented deterministic order (support/deterministic_dot_reference.hpp). After
// a fixed number of iterations x must match bit for bit, with and without the Jacobi
// preconditioner, on every backend. The device runs the fused passes (solvers/cg_steps.hpp), so
// this checks that fusing changed no rounding and no summation order.
//
// The operator is support/fma_csr_operator.hpp, whose bits a host loop reproduces. The
// matrices: two real SPD matrices, and generated SPD graph Laplacians (shifted to be strictly
// diagonally dominant) with 69 and 1 chunks of the reduction order, power-law-like row lengths
// and a few rows of 2,000 entries.
#define BOOST_TEST_MODULE cg_order
#include <boost/test/unit_test.hpp>

#include "support/deterministic_dot_reference.hpp"
#include "support/device_vectors.hpp"
#include "support/fma_csr_operator.hpp"
#include "support/generated.hpp"
#include "support/kokkos_env.hpp"
#include "support/matrices.hpp"

#include <araios/araios.hpp>
#include <araios/seeded_vector.hpp>
#include <araios/solvers/solvers.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <iomanip>
#include <map>
#include <random>
#include <string>
#include <vector>

using araios::test::KokkosFixture;
BOOST_TEST_GLOBAL_FIXTURE(KokkosFixture);

namespace {

using namespace araios;
using test::hostDeterministicDot;

constexpr int kIterations = 30;

/// A symmetric graph Laplacian plus the identity: random weights in (0, 1], each row's
/// diagonal the sum of its off-diagonal magnitudes plus one (so SPD). Every row links to 1 to
/// 6 random others; every `hubEvery`-th row to 2,000.
io::HostMatrix shiftedLaplacian(std::int64_t n, std::int64_t hubEvery, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<std::int64_t> column(0, n - 1);
  std::uniform_real_distribution<double> weight(0.0, 1.0);
  std::map<std::pair<std::int64_t, std::int64_t>, double> entries;
  for (std::int64_t i = 0; i < n; ++i) {
    const std::int64_t links = i % hubEvery == 0 ? 2000 : 1 + i % 6;
    for (std::int64_t k = 0; k < links; ++k) {
      const std::int64_t j = column(rng);
      if (j == i) continue;
      const double w = 1.0 - weight(rng);  // (0, 1]
      entries[{i, j}] = -w;
      entries[{j, i}] = -w;
    }
  }
  std::vector<double> diagonal(n, 1.0);
  for (const auto& [ij, v] : entries) diagonal[ij.first] += -v;
  for (std::int64_t i = 0; i < n; ++i) entries[{i, i}] = diagonal[i];
  std::vector<std::tuple<std::int64_t, std::int64_t, double>> triplets;
  triplets.reserve(entries.size());
  for (const auto& [ij, v] : entries) triplets.emplace_back(ij.first, ij.second, v);
  return test::fromTriplets(n, n, std::move(triplets));
}

struct HostCgResult {
  std::vector<double> x;
  int iterations = 0;
  double residual = 0;  ///< ||r|| / ||b|| of the recurrence after the last iteration
};

/// Preconditioned CG from x = 0, written from cg.hpp's definition; d empty: no preconditioner.
HostCgResult hostCg(const io::HostMatrix& A, const std::vector<double>& b, const std::vector<double>& d, int iterations) {
  const std::size_t n = b.size();
  const bool precondition = !d.empty();
  std::vector<double> x(n, 0.0), r(n), z(n), p(n), q(n);
  const double bnorm = std::sqrt(hostDeterministicDot(b, b));
  test::hostFmaProduct(A, x, q);
  for (std::size_t i = 0; i < n; ++i) r[i] = b[i] - q[i];
  for (std::size_t i = 0; i < n; ++i) z[i] = precondition ? r[i] / d[i] : r[i];
  p = z;
  double rho = hostDeterministicDot(r, z);
  double rnorm = std::sqrt(hostDeterministicDot(r, r));
  HostCgResult out;
  for (int k = 1; k <= iterations; ++k) {
    test::hostFmaProduct(A, p, q);
    const double pAp = hostDeterministicDot(p, q);
    if (!(pAp > 0 && std::isfinite(pAp))) break;
    const double alpha = rho / pAp;
    for (std::size_t i = 0; i < n; ++i) {
      x[i] = std::fma(alpha, p[i], x[i]);
      r[i] = std::fma(-alpha, q[i], r[i]);
      z[i] = precondition ? r[i] / d[i] : r[i];
    }
    const double rhoNew = hostDeterministicDot(r, z);
    rnorm = std::sqrt(precondition ? hostDeterministicDot(r, r) : rhoNew);
    const double beta = rhoNew / rho;
    rho = rhoNew;
    for (std::size_t i = 0; i < n; ++i) p[i] = std::fma(beta, p[i], z[i]);
    out.iterations = k;
    out.residual = rnorm / bnorm;
  }
  out.x = std::move(x);
  return out;
}

struct Case {
  std::string name;
  io::HostMatrix matrix;
};

const std::vector<Case>& cases() {
  static const std::vector<Case> all = [] {
    std::vector<Case> c;
    for (const char* name : {"nos5", "bcsstk13"}) {
      c.push_back({name, io::readMatrixMarket((test::matricesDir() / (std::string(name) + ".mtx.gz")).string())});
    }
    c.push_back({"laplacian-70001", shiftedLaplacian(70001, 9000, 8117)});  // 69 chunks
    c.push_back({"laplacian-1000", shiftedLaplacian(1000, 400, 8118)});     // one partial chunk
    return c;
  }();
  return all;
}

#ifdef KOKKOS_ENABLE_SERIAL
using CpuConfigs = std::tuple<test::Config<Kokkos::Serial, double>, test::Config<Kokkos::OpenMP, double>>;
#else
using CpuConfigs = std::tuple<test::Config<Kokkos::OpenMP, double>>;
#endif
#ifdef KOKKOS_ENABLE_CUDA
using Configs = test::Concat<CpuConfigs, std::tuple<test::Config<Kokkos::Cuda, double>>>;
#else
using Configs = CpuConfigs;
#endif

}  // namespace

BOOST_AUTO_TEST_CASE_TEMPLATE(deterministic_cg_matches_the_host_iteration_bit_for_bit, Cfg, Configs) {
  using Exec = typename Cfg::execution_space;
  using Device = typename Cfg::device_type;
  using Csr = CsrMatrix<double, std::int32_t, std::int32_t, Device>;
  using Vector = Kokkos::View<double*, Device>;
  Exec exec;
  for (const Case& c : cases()) {
    const Csr A = csrFromHost<Csr>(c.matrix);
    const test::FmaCsrOperator<Csr> op{A};
    const std::vector<double> bHost = seededVector<double>(c.matrix.numRows, 40 + c.matrix.numRows);
    const Vector b = test::deviceVector<Device>(bHost, "b");
    const Vector diagonal = extractDiagonal(exec, A);
    const std::vector<double> dHost = test::hostValues(diagonal);

    for (bool precondition : {true, false}) {
      const std::string label = c.name + (precondition ? " jacobi" : " plain") + " on " + Exec::name();
      SolverOptions o;
      o.tolerance = 0;  // run all kIterations
      o.maxIterations = kIterations;
      o.mode = ReductionMode::Deterministic;
      o.preconditioner = precondition ? Preconditioner::Jacobi : Preconditioner::None;
      Vector x("x", bHost.size());  // the initial guess, x = 0
      const SolveResult got = cg(exec, op, b, x, o, precondition ? diagonal : Vector());
      const HostCgResult want = hostCg(c.matrix, bHost, precondition ? dHost : std::vector<double>(), kIterations);

      BOOST_TEST(got.iterations == want.iterations, label);
      BOOST_TEST(got.residual == want.residual,
                 label << ": ||r|| / ||b|| " << std::setprecision(17) << got.residual << " vs " << want.residual);
      const std::vector<double> xHost = test::hostValues(x);
      std::size_t differ = 0, first = 0;
      for (std::size_t i = 0; i < xHost.size(); ++i) {
        if (std::memcmp(&xHost[i], &want.x[i], sizeof(double)) != 0 && differ++ == 0) first = i;
      }
      BOOST_TEST(differ == 0u, label << ": " << differ << " entries of x differ from the host iteration, the first at "
                                     << first << " (" << std::setprecision(17) << xHost[first] << " vs "
                                     << want.x[first] << ")");
    }
  }
}
