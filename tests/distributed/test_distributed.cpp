// The distributed product, reductions and solvers against the one-process runs: on 1, 2 and
// 3 ranks (CTest runs this under mpiexec), Deterministic and Accurate results must be the same
// bits as one process running the same kernel on the whole matrix, for every partition.
#define BOOST_TEST_MODULE distributed
#include <boost/test/unit_test.hpp>

#include "distributed_support.hpp"
#include "support/generated.hpp"
#include "support/matrices.hpp"

#include <araios/araios.hpp>
#include <araios/distributed.hpp>
#include <araios/solvers/solvers.hpp>

#include <cmath>
#include <cstdint>
#include <map>
#include <random>
#include <string>
#include <vector>

using araios::test::MpiKokkosFixture;
BOOST_TEST_GLOBAL_FIXTURE(MpiKokkosFixture);

namespace araios::test {
namespace {

using Exec = Kokkos::DefaultExecutionSpace;
using Device = Exec::device_type;
using Vector = Kokkos::View<double*, Device>;
using Csr = CsrMatrix<double, std::int32_t, std::int32_t, Device>;

/// A real matrix from the collection, read once (only the ones the tests name: the whole
/// collection takes longer to read than these tests take to run).
const io::HostMatrix& realMatrix(const std::string& name) {
  static std::map<std::string, io::HostMatrix> cache;
  auto it = cache.find(name);
  if (it == cache.end()) it = cache.emplace(name, io::readMatrixMarket((matricesDir() / (name + ".mtx.gz")).string())).first;
  return it->second;
}

std::vector<double> randomValues(std::int64_t n, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  std::vector<double> v(n);
  // Magnitudes over many binades, so that the summation order shows in the last bits.
  for (double& x : v) x = u(rng) * std::ldexp(1.0, static_cast<int>(rng() % 40) - 20);
  return v;
}

Vector deviceVector(const std::vector<double>& v) {
  Vector d("v", v.size());
  auto h = Kokkos::create_mirror_view(d);
  for (std::size_t i = 0; i < v.size(); ++i) h(i) = v[i];
  Kokkos::deep_copy(d, h);
  return d;
}

/// y = A x on one process, every rank computing it alone.
std::vector<double> oneProcessProduct(const io::HostMatrix& m, Kernel kernel, Mode mode, const std::vector<double>& x) {
  Exec exec;
  OperatorOptions o;
  o.kernel = kernel;
  o.mode = mode;
  o.format.force = true;
  SpmvOperator<double, std::int32_t, std::int32_t, Exec> A(exec, csrFromHost<Csr>(m), o);
  Vector y("y", m.numRows);
  A.apply(exec, deviceVector(x), y);
  return toVector(y);
}

std::vector<double> distributedProduct(const io::HostMatrix& m, const RowPartition& p, Kernel kernel, Mode mode,
                                       const std::vector<double>& x, const RowPartition* columns = nullptr) {
  Exec exec;
  OperatorOptions o;
  o.kernel = kernel;
  o.mode = mode;
  o.format.force = true;
  const DistributedHostMatrix local = distributeRows(world(), m, &p);
  DistributedOperator<double, std::int32_t, std::int32_t, Exec> A(exec, local, o, columns);
  const int rank = commRank(world());
  const RowPartition& cols = A.columnPartition();
  Vector xb = block<double, Device>(cols, rank, x);
  Vector y("y", p.rows(rank));
  Kokkos::deep_copy(y, std::nan(""));  // poison: every entry must be written
  A.apply(exec, xb, y);
  A.apply(exec, xb, y);  // twice: the persistent requests restart
  return gather(world(), p, y);
}

}  // namespace

BOOST_AUTO_TEST_CASE(dot_and_norm_equal_one_process_for_any_partition) {
  Exec exec;
  const int ranks = commSize(world()), rank = commRank(world());
  for (std::int64_t n : {0, 1, 31, 1023, 1024, 1025, 2100, 5000, 70001}) {
    const std::vector<double> xs = randomValues(n, 11 + n), ys = randomValues(n, 29 + n);
    const Vector x = deviceVector(xs), y = deviceVector(ys);
    std::vector<RowPartition> partitions = testPartitions(std::vector<std::int64_t>(n, 1), ranks);
    partitions.push_back(RowPartition::uniform(n, ranks));
    for (const RowPartition& p : partitions) {
      const Vector xb = block<double, Device>(p, rank, xs), yb = block<double, Device>(p, rank, ys);
      DistributedReduction<double, Device> ws(world(), p);
      Kokkos::View<double*, Device> slots("slots", 2);
      for (ReductionMode mode : {ReductionMode::Deterministic, ReductionMode::Accurate, ReductionMode::Fast}) {
        Kokkos::deep_copy(slots, std::nan(""));
        dot(exec, xb, yb, DeviceScalar<double, Device>{slots, 0}, mode, ws);
        norm2(exec, xb, DeviceScalar<double, Device>{slots, 1}, mode, ws);
        const std::vector<double> got = toVector(slots);
        const std::vector<double> want{araios::dot(exec, x, y, mode), araios::norm2(exec, x, mode)};
        BOOST_TEST_CONTEXT("n " << n << ", mode " << toString(mode) << ", blocks from " << p.starts()[1]) {
          if (mode == ReductionMode::Fast) {
            double scale = 0;
            for (std::int64_t i = 0; i < n; ++i) scale += std::fabs(xs[i] * ys[i]);
            BOOST_TEST(std::fabs(got[0] - want[0]) <= 1e-12 * scale);
            BOOST_TEST(std::fabs(got[1] - want[1]) <= 1e-12 * want[1]);
          } else {
            BOOST_TEST(sameBits(got, want));
          }
        }
      }
    }
  }
}

BOOST_AUTO_TEST_CASE(spmv_equals_one_process_on_real_and_generated_matrices) {
  const int ranks = commSize(world());
  struct Case {
    std::string name;
    io::HostMatrix matrix;
  };
  std::vector<Case> cases;
  for (const char* name : {"sherman3", "nos5", "bcsstk13", "gre_1107", "USAir97", "rajat19", "orsirr_2", "Erdos971"}) {
    cases.push_back({name, realMatrix(name)});
  }
  cases.push_back({"power_law_long_row", powerLawWithLongRow()});  // rectangular, one row of 22,000
  cases.push_back({"banded", banded()});
  const std::vector<std::pair<Kernel, Mode>> runs = {
      {Kernel::CsrScalar, Mode::Deterministic}, {Kernel::Sell, Mode::Deterministic}, {Kernel::Jds, Mode::Deterministic},
      {Kernel::Coo, Mode::Deterministic},       {Kernel::Auto, Mode::Deterministic}, {Kernel::CsrVector, Mode::Accurate},
      {Kernel::Brcp, Mode::Accurate},           {Kernel::CsrScalar, Mode::Accurate}};
  for (const Case& c : cases) {
    const std::vector<double> x = randomValues(c.matrix.numCols, 5);
    for (const auto& [kernel, mode] : runs) {
      // Auto in Deterministic mode chooses among the CSR-order kernels: csr-scalar's bits.
      const std::vector<double> want =
          oneProcessProduct(c.matrix, kernel == Kernel::Auto ? Kernel::CsrScalar : kernel, mode, x);
      for (const RowPartition& p : testPartitions(rowCounts(c.matrix), ranks)) {
        BOOST_TEST_CONTEXT(c.name << ", kernel " << static_cast<int>(kernel) << ", mode " << toString(mode)
                                  << ", rank 0 rows " << p.rows(0)) {
          BOOST_TEST(sameBits(distributedProduct(c.matrix, p, kernel, mode, x), want));
        }
      }
    }
  }
}

BOOST_AUTO_TEST_CASE(fast_spmv_is_close_and_kernels_that_order_by_neighbours_are_refused) {
  const io::HostMatrix& m = realMatrix("sherman3");
  const RowPartition p = RowPartition::balanced(rowCounts(m), commSize(world()));
  const std::vector<double> x = randomValues(m.numCols, 9);
  const std::vector<double> fast = distributedProduct(m, p, Kernel::CsrVector, Mode::Fast, x);
  const std::vector<double> exact = oneProcessProduct(m, Kernel::CsrScalar, Mode::Accurate, x);
  for (std::size_t i = 0; i < fast.size(); ++i) BOOST_TEST(std::fabs(fast[i] - exact[i]) <= 1e-10 * (1 + std::fabs(exact[i])));
  // csr-vector's deterministic order is a Kokkos reduction's; it is refused on every rank alike.
  // The rank that found it throws UnsupportedError, the others RemoteError with its message.
  BOOST_CHECK_EXCEPTION(distributedProduct(m, p, Kernel::CsrVector, Mode::Deterministic, x), Error,
                        [](const Error& e) { return std::string(e.what()).find("csr-vector") != std::string::npos; });
}

namespace {

template <class Solve>
void checkSolverAgainstOneProcess(const io::HostMatrix& m, Mode mode, Kernel kernel, const Solve& solve,
                                  const std::string& what) {
  Exec exec;
  const int rank = commRank(world());
  OperatorOptions o;
  o.kernel = kernel;
  o.mode = mode;
  const std::vector<double> bWhole = randomValues(m.numRows, 3);
  SpmvOperator<double, std::int32_t, std::int32_t, Exec> A1(exec, csrFromHost<Csr>(m), o);
  Vector x1("x", m.numRows);
  const SolveResult r1 = solve(exec, A1, deviceVector(bWhole), x1);
  const std::vector<double> want = toVector(x1);
  for (const RowPartition& p : testPartitions(rowCounts(m), commSize(world()))) {
    DistributedOperator<double, std::int32_t, std::int32_t, Exec> A(exec, distributeRows(world(), m, &p), o);
    Vector x("x", p.rows(rank));
    const SolveResult r = solve(exec, A, block<double, Device>(p, rank, bWhole), x);
    BOOST_TEST_CONTEXT(what << ", mode " << toString(mode) << ", rank 0 rows " << p.rows(0)) {
      BOOST_TEST(r1.iterations > 0);
      BOOST_TEST(r.iterations == r1.iterations);
      BOOST_TEST(static_cast<int>(r.status) == static_cast<int>(r1.status));
      BOOST_TEST(r.residual == r1.residual);
      BOOST_TEST(sameBits(gather(world(), p, x), want));
    }
  }
}

}  // namespace

BOOST_AUTO_TEST_CASE(solvers_give_the_one_process_iterations_and_bits) {
  SolverOptions so;
  so.tolerance = 1e-10;
  so.maxIterations = 400;
  auto cg = [&](const auto& exec, const auto& A, const Vector& b, const Vector& x) { return araios::cg(exec, A, b, x, so); };
  auto gmres = [&](const auto& exec, const auto& A, const Vector& b, const Vector& x) {
    SolverOptions g = so;
    g.restart = 20;
    g.preconditioner = Preconditioner::Jacobi;
    return araios::gmres(exec, A, b, x, g);
  };
  auto jacobi = [&](const auto& exec, const auto& A, const Vector& b, const Vector& x) {
    SolverOptions j = so;
    j.tolerance = 1e-9;
    return araios::jacobi(exec, A, b, x, j);
  };
  for (Mode mode : {Mode::Deterministic, Mode::Accurate}) {
    checkSolverAgainstOneProcess(realMatrix("bcsstk13"), mode, Kernel::CsrScalar, cg, "CG on bcsstk13");
    checkSolverAgainstOneProcess(realMatrix("nos5"), mode, Kernel::Sell, cg, "CG on nos5");
    checkSolverAgainstOneProcess(realMatrix("sherman3"), mode, Kernel::CsrScalar, gmres, "GMRES on sherman3");
    checkSolverAgainstOneProcess(banded(), mode, Kernel::CsrScalar, jacobi, "Jacobi on banded");
  }
}

BOOST_AUTO_TEST_CASE(pagerank_gives_the_one_process_ranks) {
  Exec exec;
  const int rank = commRank(world());
  for (const char* name : {"USAir97", "Erdos971"}) {
    const PageRankGraph g = pageRankGraph(realMatrix(name));
    for (PageRankNorm norm : {PageRankNorm::L1, PageRankNorm::Max}) {
      PageRankOptions po;
      po.norm = norm;
      po.tolerance = 1e-9;
      OperatorOptions o;
      o.kernel = Kernel::CsrScalar;
      SpmvOperator<double, std::int32_t, std::int32_t, Exec> G1(exec, csrFromHost<Csr>(g.transitionT), o);
      Vector r1("rank", g.numNodes);
      const PageRankResult one = pagerank(exec, G1, danglingMask<double, Device>(g), r1, po);
      const std::vector<double> want = toVector(r1);
      std::vector<double> mask(g.numNodes);
      for (std::int64_t i = 0; i < g.numNodes; ++i) mask[i] = g.dangling[i];
      for (const RowPartition& p : testPartitions(rowCounts(g.transitionT), commSize(world()))) {
        DistributedOperator<double, std::int32_t, std::int32_t, Exec> G(exec, distributeRows(world(), g.transitionT, &p), o);
        Vector r("rank", p.rows(rank));
        const PageRankResult many = pagerank(exec, G, block<double, Device>(p, rank, mask), r, po);
        BOOST_TEST_CONTEXT(name << ", norm " << toString(norm) << ", rank 0 rows " << p.rows(0)) {
          BOOST_TEST(one.iterations > 1);
          BOOST_TEST(many.iterations == one.iterations);
          BOOST_TEST(many.change == one.change);
          BOOST_TEST(sameBits(gather(world(), p, r), want));
        }
      }
    }
  }
}

BOOST_AUTO_TEST_CASE(a_diagonal_zero_on_one_rank_fails_every_rank) {
  // The last row's diagonal is zero: only the rank that holds it can see that, and every
  // rank must still throw rather than wait in the solver's next reduction.
  io::HostMatrix m = banded();
  for (std::size_t k = 0; k < m.row.size(); ++k) {
    if (m.row[k] == m.numRows - 1 && m.col[k] == m.row[k]) m.value[k] = 0;
  }
  Exec exec;
  const int rank = commRank(world());
  const RowPartition p = RowPartition::balanced(rowCounts(m), commSize(world()));
  DistributedOperator<double, std::int32_t, std::int32_t, Exec> A(exec, distributeRows(world(), m, &p));
  Vector b = block<double, Device>(p, rank, randomValues(m.numRows, 1)), x("x", p.rows(rank));
  BOOST_CHECK_THROW(jacobi(exec, A, b, x), Error);
}

}  // namespace araios::test
