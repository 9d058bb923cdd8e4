#pragma once
// PageRank by power iteration on the device, with an SpmvOperator of any kernel as the SpMV (the
// application of the BRCP paper, Yang et al.):
//
//   R_{k+1} = alpha * G^T R_k + (1 - alpha) * E,    alpha = 0.85, R_0 = E = (1, ..., 1)
//
//   araios::PageRankGraph g = araios::pageRankGraph(adjacency);       // host: G^T and dangling nodes
//   auto csr = araios::csrFromHost<araios::CsrMatrix<double>>(g.transitionT);
//   araios::SpmvOperator<double> Gt(exec, csr, operatorOptions);         // any kernel and mode
//   auto dangling = araios::danglingMask<double, Device>(g);
//   araios::PageRankResult r = araios::pagerank(exec, Gt, dangling, rank, options);
//
// The graph. Row i of the adjacency matrix lists the links out of node i: entry (i, j) is an
// edge i -> j with weight |a_ij| (1 for a pattern file; explicit zeros are no edge). G holds
// the weights normalised per source row, G_ij = |a_ij| / sum_k |a_ik|, so every row with an
// edge sums to 1. A rectangular matrix is read as a graph on max(rows, cols) nodes.
//
// Dangling nodes (no out-edge). By default (PageRankDangling::Uniform) their rank is spread
// evenly over all nodes: each iteration adds alpha * d / n to every node, d being the rank the
// dangling nodes hold, so the ranks keep summing to n. PageRankDangling::Drop is the paper's
// plain formula above, in which that rank leaks away.
//
// The scale and the stopping test (the scaling trap). Ranks are kept on the paper's
// unnormalised scale, mean rank 1 (sum n), with E all ones, and by default the iteration stops
// when ||R_{k+1} - R_k||_1 < tolerance (1e-5, the paper's epsilon). On this scale a test means
// the same for any graph size; on the probability scale (sum 1) ranks are about 1/n and a
// max-norm test of 1e-5 would stop at once on a graph of 300 k nodes. (Divide by n for
// probabilities; the L1 test is then ||dR||_1 < tolerance / n.) PageRankNorm::Max gives the
// paper's own test, max_i |R_{k+1,i} - R_{k,i}| < tolerance, which is looser by up to a factor
// n: it leaves near-tied nodes misordered on mesh-like graphs (top-100 of 94/100 on orsirr_2
// and 98/100 on Andrews against the exact ranking, where the L1 test gives 100/100 on every
// matrix of the test collection, for about 20 % more iterations).
//
// Reproducibility. The iteration stays on the device: two rank buffers alternate roles, and
// only the convergence scalar comes back to the host once per iteration. The sums of the
// iteration, the L1 norm of the change and the dangling rank d, are reductions in
// PageRankOptions::mode (Deterministic by default: a fixed order, the same bits on every
// backend; see primitives/deterministic_reduce.hpp; the max norm is exact in every mode), and
// every update is one explicit fma.
// With an operator whose mode is deterministic (the SpmvOperator's own OperatorOptions::mode,
// which pagerank applies unchanged) the ranks and the iteration count are therefore bitwise
// identical on Serial, OpenMP at any thread count and CUDA.
#include <araios/detail/light_parallel_for.hpp>
#include <araios/error.hpp>
#include <araios/io/matrix_market.hpp>
#include <araios/primitives/deterministic_reduce.hpp>
#include <araios/primitives/device_scalar.hpp>
#include <araios/primitives/fp.hpp>
#include <araios/operator.hpp>
#include <araios/solvers/solver_support.hpp>
#include <araios/vector_ops.hpp>

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace araios {

enum class PageRankDangling {
  Uniform,  ///< dangling nodes' rank is spread evenly over all nodes (ranks keep summing to n)
  Drop,     ///< the paper's plain formula: dangling nodes' rank leaks away
};

inline const char* toString(PageRankDangling d) { return d == PageRankDangling::Uniform ? "uniform" : "drop"; }

/// The norm of R_{k+1} - R_k that the stopping test bounds (on the mean-1 scale).
enum class PageRankNorm {
  L1,   ///< sum_i |R_{k+1,i} - R_{k,i}|: a deterministic sum (the default)
  Max,  ///< max_i |R_{k+1,i} - R_{k,i}|: the paper's test
};

inline const char* toString(PageRankNorm n) { return n == PageRankNorm::L1 ? "l1" : "max"; }

struct PageRankOptions {
  double alpha = 0.85;       ///< damping factor
  double tolerance = 1e-5;   ///< stop when ||R_{k+1} - R_k|| < tolerance (mean-1 scale, `norm`)
  int maxIterations = 1000;
  PageRankDangling dangling = PageRankDangling::Uniform;
  PageRankNorm norm = PageRankNorm::L1;
  /// The reduction of the dangling rank (the only sum of the iteration).
  Mode mode = Mode::Deterministic;
  /// Keep ||R_{k+1} - R_k|| of every iteration in PageRankResult::history.
  bool recordHistory = false;
  /// Called on the host after every iteration with the iteration number and ||R_{k+1} - R_k||.
  std::function<void(int iteration, double change)> onProgress;
};

struct PageRankResult {
  bool converged = false;
  int iterations = 0;
  double change = 0;  ///< ||R_k - R_{k-1}|| (PageRankOptions::norm) of the last iteration
  std::string message;
  std::vector<double> history;
  double seconds = 0;
};

/// The graph as the iteration needs it: G^T (row = target, column = source, value = the
/// normalised weight of the edge) and which nodes are dangling. Built on the host.
struct PageRankGraph {
  std::int64_t numNodes = 0;
  std::int64_t numEdges = 0;            ///< entries of G^T (edges of nonzero weight)
  io::HostMatrix transitionT;           ///< G^T, n x n, entries ordered by target then source
  std::vector<std::uint8_t> dangling;   ///< 1 for a node without out-edges
  std::int64_t numDangling = 0;
};

/// Builds G^T from an adjacency matrix (row = source, column = target). With useWeights the
/// edge weights are |a_ij|, else every stored entry of nonzero value weighs 1. The per-row sums
/// are taken in long double and each weight divided once, so G^T is the same on every machine.
/// A NaN or infinite value is refused, naming the entry.
inline PageRankGraph pageRankGraph(const io::HostMatrix& adjacency, bool useWeights = true) {
  PageRankGraph g;
  const std::int64_t n = adjacency.numRows > adjacency.numCols ? adjacency.numRows : adjacency.numCols;
  g.numNodes = n;
  std::vector<long double> outWeight(n, 0.0L);
  const auto weightOf = [&](std::int64_t k) -> long double {
    const double a = adjacency.value[k];
    if (!std::isfinite(a)) {
      throw InputError("PageRank: the entry at (" + std::to_string(adjacency.row[k] + 1) + ", " +
                       std::to_string(adjacency.col[k] + 1) + ") is " + std::to_string(a) +
                       "; expected a finite edge weight");
    }
    if (a == 0) return 0.0L;
    return useWeights ? std::fabs(static_cast<long double>(a)) : 1.0L;
  };
  for (std::int64_t k = 0; k < adjacency.nnz(); ++k) outWeight[adjacency.row[k]] += weightOf(k);

  // Counting sort of the edges by target; within a target the sources come in entry order,
  // then sorted, so each row of G^T lists its sources ascending.
  std::vector<std::int64_t> start(n + 1, 0);
  for (std::int64_t k = 0; k < adjacency.nnz(); ++k) {
    if (weightOf(k) != 0) ++start[adjacency.col[k] + 1];
  }
  for (std::int64_t i = 0; i < n; ++i) start[i + 1] += start[i];
  const std::int64_t m = start[n];
  std::vector<std::pair<std::int64_t, double>> edges(m);  // (source, G_ij) at the target's slot
  std::vector<std::int64_t> next(start.begin(), start.end() - 1);
  for (std::int64_t k = 0; k < adjacency.nnz(); ++k) {
    const long double w = weightOf(k);
    if (w == 0) continue;
    const std::int64_t source = adjacency.row[k];
    edges[next[adjacency.col[k]]++] = {source, static_cast<double>(w / outWeight[source])};
  }
  g.numEdges = m;
  io::HostMatrix& t = g.transitionT;
  t.numRows = t.numCols = n;
  t.row.resize(m);
  t.col.resize(m);
  t.value.resize(m);
  for (std::int64_t target = 0; target < n; ++target) {
    std::sort(edges.begin() + start[target], edges.begin() + start[target + 1]);
    for (std::int64_t k = start[target]; k < start[target + 1]; ++k) {
      t.row[k] = target;
      t.col[k] = edges[k].first;
      t.value[k] = edges[k].second;
    }
  }
  g.dangling.assign(n, 0);
  for (std::int64_t i = 0; i < n; ++i) {
    if (outWeight[i] == 0) {
      g.dangling[i] = 1;
      ++g.numDangling;
    }
  }
  return g;
}

/// The dangling indicator on the device (1 for a dangling node, 0 otherwise), as values so
/// that the dangling rank is a dot product.
template <class Value, class Device>
Kokkos::View<Value*, Device> danglingMask(const PageRankGraph& g) {
  Kokkos::View<Value*, Device> mask("araios::pagerank::dangling", g.numNodes);
  auto host = Kokkos::create_mirror_view(mask);
  for (std::int64_t i = 0; i < g.numNodes; ++i) host(i) = g.dangling[i] ? Value(1) : Value(0);
  Kokkos::deep_copy(mask, host);
  return mask;
}

namespace Impl {

/// Slots of the iteration's device scalars (enumerators, not constexpr variables: Kokkos takes
/// View indices by reference, which device code cannot do with a host variable).
enum PageRankSlot : int {
  kPageRankDanglingSlot = 0,  ///< d: the rank held by dangling nodes
  kPageRankTeleportSlot = 1,  ///< what every node receives besides alpha * (G^T R)_i
  kPageRankChangeSlot = 2,    ///< sum_i |R_{k+1,i} - R_{k,i}| (the L1 test)
  kPageRankSlots = 3
};

/// teleport = (1 - alpha) + alpha * d / n, on the device.
template <class Value, class Device>
struct PageRankTeleport {
  Kokkos::View<Value*, Device> scalars;
  Value alpha;
  Value numNodes;
  bool spreadDangling;
  KOKKOS_INLINE_FUNCTION void operator()(int) const {
    const Value base = Value(1) - alpha;
    scalars(kPageRankTeleportSlot) =
        spreadDangling ? fp::fma(alpha, scalars(kPageRankDanglingSlot) / numNodes, base) : base;
  }
};

/// next_i = fma(alpha, (G^T R)_i, teleport), returning |next_i - current_i| (+Inf for NaN,
/// which would vanish in a max).
template <class Vector, class Value, class Device>
struct PageRankStep {
  Vector current, next, product;
  Kokkos::View<Value*, Device> scalars;
  Value alpha;
  KOKKOS_INLINE_FUNCTION Value operator()(std::int64_t i) const {
    const Value updated = fp::fma(alpha, product(i), scalars(kPageRankTeleportSlot));
    next(i) = updated;
    const Value d = fp::abs(updated - current(i));
    return d <= fp::Traits<Value>::maxFinite ? d : fp::infinity<Value>();
  }
};

/// The step, keeping every change for the L1 sum.
template <class Vector, class Value, class Device>
struct PageRankUpdateL1 {
  PageRankStep<Vector, Value, Device> step;
  Vector change;
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t i) const { change(i) = step(i); }
};

/// The step, reducing the changes to their maximum.
template <class Vector, class Value, class Device>
struct PageRankUpdateMax {
  PageRankStep<Vector, Value, Device> step;
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t i, Value& maxChange) const {
    const Value d = step(i);
    if (d > maxChange) maxChange = d;
  }
};

}  // namespace Impl

/// Runs the power iteration with G^T in any format (transitionT, n x n) and the dangling
/// indicator of danglingMask(). `rank` (n entries) receives the ranks, mean 1 with the
/// Uniform policy. Refuses alpha outside [0, 1), a non-square G^T and mismatched lengths.
template <class ExecSpace, class Operator, class MaskView, class RankView>
PageRankResult pagerank(const ExecSpace& exec, const Operator& transitionT, const MaskView& dangling,
                        const RankView& rank, const PageRankOptions& options = {}) {
  using Value = typename Operator::value_type;
  using Device = typename Operator::device_type;
  using Vector = Kokkos::View<Value*, Device>;
  static_assert(std::is_same_v<typename RankView::value_type, Value>,
                "rank must hold non-const values of the matrix's value type");
  Kokkos::Timer timer;
  using Context = Impl::SolverContext<Operator>;
  const std::int64_t n = static_cast<std::int64_t>(transitionT.numRows());
  // Entries of every vector held here: all n on one process, this rank's block when distributed.
  const std::int64_t local = Context::localRows(transitionT);
  if (static_cast<std::int64_t>(transitionT.numCols()) != n) {
    throw InputError("PageRank: G^T is " + std::to_string(transitionT.numRows()) + " x " +
                     std::to_string(transitionT.numCols()) + "; expected a square matrix");
  }
  if (static_cast<std::int64_t>(rank.extent(0)) != local || static_cast<std::int64_t>(dangling.extent(0)) != local) {
    throw InputError("PageRank: the graph has " + std::to_string(local) + " nodes here but rank has " +
                     std::to_string(rank.extent(0)) + " and the dangling mask " + std::to_string(dangling.extent(0)) +
                     " entries; expected both of " + std::to_string(local));
  }
  if (!(options.alpha >= 0 && options.alpha < 1)) {
    throw InputError("PageRank: alpha = " + std::to_string(options.alpha) + "; expected 0 <= alpha < 1");
  }
  if (!(options.tolerance >= 0) || options.maxIterations < 0) {
    throw InputError("PageRank: tolerance " + std::to_string(options.tolerance) + " and maxIterations " +
                     std::to_string(options.maxIterations) + "; expected both >= 0");
  }
  // Before rank is touched: a refused PageRank leaves it as it was.
  Impl::requireSolverMemory<Value>(exec, options.norm == PageRankNorm::L1 ? 5 : 3, local, "PageRank");
  PageRankResult result;
  result.message = "PageRank did not converge in " + std::to_string(options.maxIterations) + " iterations";
  fill(exec, rank, Value(1));
  if (n == 0) {
    result.converged = true;
    result.message = "PageRank: the graph has no nodes";
    return result;
  }

  Vector current = Impl::allocateWorkVector<Vector>(exec, local, "araios::pagerank::R_a", "PageRank");
  Vector next = Impl::allocateWorkVector<Vector>(exec, local, "araios::pagerank::R_b", "PageRank");
  Vector product = Impl::allocateWorkVector<Vector>(exec, local, "araios::pagerank::GtR", "PageRank");
  Kokkos::View<Value*, Device> scalars("araios::pagerank::scalars", Impl::kPageRankSlots);
  const bool l1 = options.norm == PageRankNorm::L1;
  // The L1 test keeps every |R_{k+1,i} - R_{k,i}| and sums them as a dot product with ones
  // (each product is exact, so it is the sum in the mode's order).
  Vector change, ones;
  if (l1) {
    change = Impl::allocateWorkVector<Vector>(exec, local, "araios::pagerank::dR", "PageRank");
    ones = Impl::allocateWorkVector<Vector>(exec, local, "araios::pagerank::ones", "PageRank");
    fill(exec, ones, Value(1));
  }
  auto changeHost = Kokkos::create_mirror(scalars);
  auto ws = Context::reduction(transitionT);
  fill(exec, current, Value(1));
  const Value alpha = static_cast<Value>(options.alpha);
  const bool spread = options.dangling == PageRankDangling::Uniform;
  const Impl::PageRankTeleport<Value, Device> teleport{scalars, alpha, static_cast<Value>(n), spread};
  if (!spread) Impl::runOnce("araios::pagerank::teleport", exec, teleport);

  using Policy = Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>;
  for (int k = 1; k <= options.maxIterations; ++k) {
    transitionT.apply(exec, current, product);
    if (spread) {
      dot(exec, current, dangling, DeviceScalar<Value, Device>{scalars, Impl::kPageRankDanglingSlot}, options.mode, ws);
      Impl::runOnce("araios::pagerank::teleport", exec, teleport);
    }
    const Impl::PageRankStep<Vector, Value, Device> step{current, next, product, scalars, alpha};
    Value measure = 0;
    if (l1) {
      Impl::lightParallelFor("araios::pagerank::update", exec, local,
                             Impl::PageRankUpdateL1<Vector, Value, Device>{step, change});
      dot(exec, change, ones, DeviceScalar<Value, Device>{scalars, Impl::kPageRankChangeSlot}, options.mode, ws);
      readScalars(scalars, Impl::kPageRankChangeSlot, 1, changeHost);
      measure = changeHost(0);
    } else {
      Kokkos::parallel_reduce("araios::pagerank::update", Policy(exec, 0, local),
                              Impl::PageRankUpdateMax<Vector, Value, Device>{step}, Kokkos::Max<Value>(measure));
      if (local == 0) measure = 0;
      measure = Context::allMax(ws, measure);
    }
    std::swap(current, next);
    result.iterations = k;
    result.change = static_cast<double>(measure);
    if (options.recordHistory) result.history.push_back(result.change);
    if (options.onProgress) options.onProgress(k, result.change);
    if (!std::isfinite(result.change)) {
      result.message = "PageRank: the ranks became NaN or Inf at iteration " + std::to_string(k);
      break;
    }
    if (result.change < options.tolerance) {
      result.converged = true;
      char buf[32];
      std::snprintf(buf, sizeof buf, "%.3e", result.change);
      result.message = "PageRank converged in " + std::to_string(k) + " iterations (" +
                       (l1 ? "||dR||_1 = " : "max |dR| = ") + buf + ")";
      break;
    }
  }
  copy(exec, current, rank);
  exec.fence();
  result.seconds = timer.seconds();
  return result;
}

}  // namespace araios

// The compiled combinations (araios/instantiations.hpp) come from the library.
#ifdef ARAIOS_COMPILED_INSTANTIATIONS
#include <araios/instantiations.hpp>
#include <araios/operator.hpp>
ARAIOS_ETI_FOR_EACH(ARAIOS_ETI_DECLARE_PAGERANK)
#endif
