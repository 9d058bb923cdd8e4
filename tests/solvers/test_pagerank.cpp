// PageRank (solvers/pagerank.hpp): small graphs with closed-form ranks and a host formula for
// the dangling policies; every real matrix of ../shared/matrices read as a graph, ranked in
// deterministic mode and compared with the long-double host reference (the BRCP paper's
// top-100 metric must be 100/100, nodes tied in the reference to 1e-15 being interchangeable);
// the paper's max-norm stopping test; several formats as the SpMV; and the same iteration count
// and bitwise-identical ranks on Serial, on OpenMP with 1 and 2 threads (each in a child
// process of this executable, so each gets its own thread pool) and on the GPU.
#define BOOST_TEST_MODULE pagerank
#include <boost/test/unit_test.hpp>

#include "support/child_process.hpp"
#include "support/kokkos_env.hpp"
#include "support/matrices.hpp"
#include "support/real_matrices.hpp"

#include <araios/araios.hpp>
#include <araios/solvers/pagerank.hpp>
#include <araios/solvers/pagerank_reference.hpp>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <random>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string>
#include <tuple>
#include <unistd.h>
#include <vector>

using araios::test::KokkosFixture;
BOOST_TEST_GLOBAL_FIXTURE(KokkosFixture);

namespace {

using namespace araios;

#ifdef KOKKOS_ENABLE_SERIAL
using Exec0 = Kokkos::Serial;
#else
using Exec0 = Kokkos::DefaultHostExecutionSpace;
#endif

using ExecSpaces = test::EnabledSpaces;

io::HostMatrix graphFromEdges(std::int64_t n, const std::vector<std::tuple<std::int64_t, std::int64_t, double>>& edges) {
  io::HostMatrix m;
  m.numRows = m.numCols = n;
  for (const auto& [i, j, w] : edges) {
    m.row.push_back(i);
    m.col.push_back(j);
    m.value.push_back(w);
  }
  return m;
}

struct Ranked {
  PageRankResult result;
  std::vector<double> rank;
  std::string hash;
};

/// PageRank of `adjacency` on Exec with G^T in CSR (scalar kernel).
template <class Exec>
Ranked rankWithCsr(const io::HostMatrix& adjacency, const PageRankOptions& options, bool useWeights = true) {
  using Device = typename Exec::device_type;
  using Csr = CsrMatrix<double, std::int32_t, std::int32_t, Device>;
  const PageRankGraph g = pageRankGraph(adjacency, useWeights);
  const Csr csr = csrFromHost<Csr>(g.transitionT);
  OperatorOptions scalar;
  scalar.kernel = Kernel::CsrScalar;
  scalar.mode = options.mode;
  const SpmvOperator<double, std::int32_t, std::int32_t, Exec> Gt(Exec(), csr, scalar);
  const auto mask = danglingMask<double, Device>(g);
  Kokkos::View<double*, Device> rank("rank", g.numNodes);
  Kokkos::deep_copy(rank, std::nan(""));  // the ranks must all be written
  Ranked r;
  r.result = pagerank(Exec(), Gt, mask, rank, options);
  auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), rank);
  r.rank.assign(host.data(), host.data() + host.extent(0));
  r.hash = hashBits(host);
  return r;
}

/// The textbook iteration written out once more in double on the host, for small graphs:
/// R_i <- alpha * sum_{j -> i} R_j w_ji / W_j + (1 - alpha) + [uniform] alpha * sum_{dangling} R_j / n.
std::vector<double> hostFormula(const io::HostMatrix& a, double alpha, bool uniform, int iterations) {
  const std::int64_t n = a.numRows;
  std::vector<double> out(n, 0.0), rank(n, 1.0);
  for (std::int64_t k = 0; k < a.nnz(); ++k) out[a.row[k]] += std::fabs(a.value[k]);
  for (int it = 0; it < iterations; ++it) {
    double dangling = 0;
    for (std::int64_t i = 0; i < n; ++i) dangling += out[i] == 0 ? rank[i] : 0.0;
    std::vector<double> next(n, (1 - alpha) + (uniform ? alpha * dangling / n : 0.0));
    for (std::int64_t k = 0; k < a.nnz(); ++k) {
      if (a.value[k] == 0) continue;  // an explicit zero is no edge
      next[a.col[k]] += alpha * rank[a.row[k]] * std::fabs(a.value[k]) / out[a.row[k]];
    }
    rank = next;
  }
  return rank;
}

/// The long-double reference of a real matrix (default options), computed once per process.
const PageRankReference& referenceOf(const test::NamedMatrix& m) {
  static std::map<std::string, PageRankReference> cache;
  auto it = cache.find(m.name);
  if (it == cache.end()) it = cache.emplace(m.name, pageRankReference(m.matrix)).first;
  return it->second;
}

const test::NamedMatrix& realMatrix(const std::string& name) {
  for (const auto& m : test::realMatrices()) {
    if (m.name == name) return m;
  }
  throw std::runtime_error("no real matrix named " + name);
}

PageRankOptions tight() {
  PageRankOptions o;
  o.tolerance = 1e-13;
  o.maxIterations = 2000;
  return o;
}

}  // namespace

BOOST_AUTO_TEST_CASE_TEMPLATE(two_nodes_closed_form, Exec, ExecSpaces) {
  // 0 -> 1, and 1 is dangling. Uniform: R0 = 0.15 + 0.425 R1 and R0 + R1 = 2, so
  // R1 = 1.85 / 1.425; drop (the paper's formula): R0 = 0.15, R1 = 0.15 + 0.85 * 0.15.
  const io::HostMatrix a = graphFromEdges(2, {{0, 1, 1.0}});
  PageRankOptions o = tight();
  const Ranked uniform = rankWithCsr<Exec>(a, o);
  BOOST_TEST(uniform.result.converged);
  BOOST_TEST(uniform.rank[1] == 1.85 / 1.425, boost::test_tools::tolerance(1e-11));
  BOOST_TEST(uniform.rank[0] == 2 - 1.85 / 1.425, boost::test_tools::tolerance(1e-11));
  o.dangling = PageRankDangling::Drop;
  const Ranked drop = rankWithCsr<Exec>(a, o);
  BOOST_TEST(drop.result.converged);
  BOOST_TEST(drop.rank[0] == 0.15, boost::test_tools::tolerance(1e-12));
  BOOST_TEST(drop.rank[1] == 0.15 + 0.85 * 0.15, boost::test_tools::tolerance(1e-12));
}

BOOST_AUTO_TEST_CASE_TEMPLATE(dangling_policies_match_the_host_formula, Exec, ExecSpaces) {
  // A random weighted graph of 60 nodes of which a fifth have no out-edges, with negative
  // weights (|a| counts), explicit zeros (no edge) and a self-loop.
  std::mt19937_64 rng(7);
  std::vector<std::tuple<std::int64_t, std::int64_t, double>> edges;
  const std::int64_t n = 60;
  for (std::int64_t i = 0; i < n; ++i) {
    if (i % 5 == 3) continue;  // dangling
    const int degree = 1 + static_cast<int>(rng() % 6);
    std::set<std::int64_t> targets;
    for (int d = 0; d < degree; ++d) targets.insert(static_cast<std::int64_t>(rng() % n));
    for (std::int64_t j : targets) edges.emplace_back(i, j, (rng() % 2 ? 1.0 : -1.0) * (0.5 + (rng() % 100) / 10.0));
  }
  edges.emplace_back(3, 4, 0.0);   // an explicit zero: 3 stays dangling
  edges.emplace_back(10, 10, 2.0); // a self-loop
  const io::HostMatrix a = graphFromEdges(n, edges);
  const PageRankGraph g = pageRankGraph(a);
  BOOST_TEST(g.numDangling == 12);

  for (bool uniform : {true, false}) {
    PageRankOptions o = tight();
    o.dangling = uniform ? PageRankDangling::Uniform : PageRankDangling::Drop;
    const Ranked r = rankWithCsr<Exec>(a, o);
    BOOST_TEST_REQUIRE(r.result.converged);
    const std::vector<double> expected = hostFormula(a, 0.85, uniform, 500);
    double sum = 0;
    for (std::int64_t i = 0; i < n; ++i) {
      BOOST_TEST(r.rank[i] == expected[i], boost::test_tools::tolerance(1e-10));
      sum += r.rank[i];
    }
    if (uniform) {
      BOOST_TEST(sum == double(n), boost::test_tools::tolerance(1e-12));  // mass is conserved
    } else {
      BOOST_TEST(sum < 0.9 * n);  // the dangling nodes' rank leaks away
    }
    // The long-double reference agrees as well, and with unweighted edges too.
    PageRankReferenceOptions ro;
    ro.dangling = o.dangling;
    const PageRankReference ref = pageRankReference(a, ro);
    BOOST_TEST(ref.converged);
    BOOST_TEST(compareRankings(ref, r.rank, 100).maxRelScoreError < 1e-11);
    ro.useWeights = false;
    const Ranked unweighted = rankWithCsr<Exec>(a, o, false);
    BOOST_TEST(compareRankings(pageRankReference(a, ro), unweighted.rank, 100).maxRelScoreError < 1e-11);
  }
}

BOOST_AUTO_TEST_CASE(edge_cases_and_refusals) {
  // No nodes; one node with a self-loop (rank 1); a graph where every node is dangling (all
  // ranks stay 1); a rectangular matrix read as a graph on max(rows, cols) nodes.
  BOOST_TEST(rankWithCsr<Exec0>(graphFromEdges(0, {}), tight()).rank.empty());
  BOOST_TEST(rankWithCsr<Exec0>(graphFromEdges(1, {{0, 0, 3.0}}), tight()).rank[0] == 1.0,
             boost::test_tools::tolerance(1e-14));
  const Ranked none = rankWithCsr<Exec0>(graphFromEdges(4, {}), tight());
  BOOST_TEST(none.result.iterations == 1);
  for (double v : none.rank) BOOST_TEST(v == 1.0);
  io::HostMatrix rect = graphFromEdges(3, {{0, 4, 1.0}, {2, 1, 1.0}});
  rect.numCols = 5;
  BOOST_TEST(pageRankGraph(rect).numNodes == 5);
  BOOST_TEST(rankWithCsr<Exec0>(rect, tight()).rank.size() == 5u);

  io::HostMatrix bad = graphFromEdges(2, {{0, 1, std::nan("")}});
  BOOST_CHECK_THROW(pageRankGraph(bad), InputError);
  PageRankOptions o;
  o.alpha = 1.0;
  BOOST_CHECK_THROW(rankWithCsr<Exec0>(graphFromEdges(2, {{0, 1, 1.0}}), o), InputError);
}

BOOST_AUTO_TEST_CASE(top100_matches_the_reference_on_every_real_matrix) {
  // alpha 0.85, ||dR||_1 < 1e-5 on the mean-1 scale, deterministic mode. (On Serial: the
  // cross-backend test below shows every other backend gives the same bits.)
  for (const auto& m : test::realMatrices()) {
    const Ranked r = rankWithCsr<Exec0>(m.matrix, PageRankOptions{});
    const PageRankReference& ref = referenceOf(m);
    BOOST_TEST_REQUIRE(ref.converged, m.name);
    const RankingComparison c = compareRankings(ref, r.rank, 100);
    BOOST_TEST_MESSAGE(m.name << ": " << r.result.iterations << " iterations, top-100 " << c.matches << "/"
                              << c.positions << ", max rel score error " << c.maxRelScoreError << ", reference "
                              << ref.iterations << " iterations");
    BOOST_TEST(r.result.converged, m.name);
    BOOST_TEST(c.matches == c.positions, m.name << ": top-100 matches " << c.matches << "/" << c.positions);
    BOOST_TEST(c.maxRelScoreError < 1e-3, m.name);
  }
}

BOOST_AUTO_TEST_CASE(the_papers_max_norm_test) {
  // The paper's stopping test, max_i |dR_i| < 1e-5, is looser than the default L1 test: fewer
  // iterations, and on these graphs still the right top 100.
  for (const char* name : {"USAir97", "Erdos971", "vt2010"}) {
    const test::NamedMatrix& m = realMatrix(name);
    PageRankOptions paper;
    paper.norm = PageRankNorm::Max;
    const Ranked max = rankWithCsr<Exec0>(m.matrix, paper);
    const Ranked l1 = rankWithCsr<Exec0>(m.matrix, PageRankOptions{});
    BOOST_TEST(max.result.converged, m.name);
    BOOST_TEST(max.result.change < 1e-5);
    BOOST_TEST(max.result.iterations < l1.result.iterations, m.name);
    const RankingComparison c = compareRankings(referenceOf(m), max.rank, 100);
    BOOST_TEST(c.matches == c.positions, m.name << ": " << c.matches << "/" << c.positions);
  }
}

BOOST_AUTO_TEST_CASE(every_format_serves_as_the_spmv) {
  // Deterministic mode with several formats on two graphs: each converges to a ranking with
  // 100/100 against the reference.
  using Device = Exec0::device_type;
  using Csr = CsrMatrix<double, std::int32_t, std::int32_t, Device>;
  Exec0 exec;
  for (const char* name : {"USAir97", "cage10"}) {
    const test::NamedMatrix& m = realMatrix(name);
    const PageRankGraph g = pageRankGraph(m.matrix);
    const Csr csr = csrFromHost<Csr>(g.transitionT);
    const auto mask = danglingMask<double, Device>(g);
    const PageRankReference& ref = referenceOf(m);
    FormatOptions force;
    force.force = true;
    for (const KernelEntry& k : kernelRegistry()) {
      const std::string format(k.name);
      OperatorOptions options;
      options.kernel = k.kernel;
      options.format = force;
      const SpmvOperator<double, std::int32_t, std::int32_t, Exec0> Gt(exec, csr, options);
      Kokkos::View<double*, Device> rank("rank", g.numNodes);
      const PageRankResult r = pagerank(exec, Gt, mask, rank, PageRankOptions{});
      auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), rank);
      const RankingComparison c = compareRankings(ref, host, 100);
      BOOST_TEST(r.converged, name << " " << format);
      BOOST_TEST(c.matches == c.positions, name << " " << format << ": " << c.matches << "/" << c.positions);
    }
  }
}

// =============================================================================================
// Reproducibility across backends and thread counts.

namespace {

/// "name iterations hash" of every real graph (../shared/matrices), on Exec: the same
/// iteration count and bits are required on every backend and thread count.
template <class Exec>
std::vector<std::string> fingerprints() {
  std::vector<std::string> lines;
  for (const auto& m : test::realMatrices()) {
    const Ranked r = rankWithCsr<Exec>(m.matrix, PageRankOptions{});
    lines.push_back(m.name + " " + std::to_string(r.result.iterations) + " " + r.hash);
  }
  return lines;
}

const char* const kWorkerOutput = "ARAIOS_PAGERANK_REPRO_OUTPUT";

std::vector<std::string> fingerprintsInChildProcess(int threads) {
  return test::linesFromChildProcess(kWorkerOutput, "pagerank_reproducibility_worker", threads);
}

}  // namespace

BOOST_AUTO_TEST_CASE(pagerank_reproducibility_worker) {
  // Does the work only when spawned by ranks_are_bitwise_identical_on_every_backend.
  const char* out = std::getenv(kWorkerOutput);
  if (!out) {
    BOOST_TEST_MESSAGE("pagerank reproducibility worker: runs only in a child process");
    return;
  }
#ifdef KOKKOS_ENABLE_OPENMP
  std::ofstream file(out);
  for (const auto& line : fingerprints<Kokkos::OpenMP>()) file << line << "\n";
#endif
}

BOOST_AUTO_TEST_CASE(ranks_are_bitwise_identical_on_every_backend) {
  const std::vector<std::string> reference = fingerprints<Exec0>();
  for (const auto& line : reference) BOOST_TEST_MESSAGE(line);
#ifdef KOKKOS_ENABLE_OPENMP
  const std::vector<std::string> here = fingerprints<Kokkos::OpenMP>();
  BOOST_TEST(here == reference, "OpenMP in this process (" << Kokkos::OpenMP().concurrency() << " threads)");
  for (int threads : {1, 2}) {
    const auto lines = fingerprintsInChildProcess(threads);
    BOOST_TEST_REQUIRE(lines.size() == reference.size(), "worker with " << threads << " threads");
    for (std::size_t k = 0; k < lines.size(); ++k) {
      BOOST_TEST(lines[k] == reference[k], "OpenMP with " << threads << " threads: " << lines[k] << " vs " << reference[k]);
    }
  }
#endif
#ifdef KOKKOS_ENABLE_CUDA
  const std::vector<std::string> gpu = fingerprints<Kokkos::Cuda>();
  for (std::size_t k = 0; k < gpu.size(); ++k) BOOST_TEST(gpu[k] == reference[k], "CUDA: " << gpu[k] << " vs " << reference[k]);
#endif
}
