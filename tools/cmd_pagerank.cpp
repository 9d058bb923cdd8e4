// araios pagerank FILE: ranks the nodes of a graph (row = source, column = target) on the
// device with any SpMV kernel, and optionally checks the ranking against a long-double host
// reference (the BRCP paper's top-100 metric).
//
// Exit codes: 0 converged; 3 did not converge in --maxiter iterations; 1 refused input.
#ifdef ARAIOS_CLI_MPI
#include "mpi/distributed_commands.hpp"
#endif
#include "auto_options.hpp"
#include "backend.hpp"
#include "command_args.hpp"
#include "solver_args.hpp"
#include "typed_run.hpp"

#include <araios/araios.hpp>
#include <araios/solvers/pagerank.hpp>
#include <araios/solvers/pagerank_reference.hpp>

#include <fmt/core.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <memory>
#include <string>

namespace araios::cli {
namespace {

/// How many positions the check compares: the paper's top-100 metric.
constexpr int kCheckedPositions = 100;

template <class ExecSpace, class Value, class Ordinal, class Offset>
int runTyped(const ExecSpace& exec, const io::HostMatrix& adjacency, const PageRankArgs& args) {
  using Device = typename ExecSpace::device_type;
  using Csr = CsrMatrix<Value, Ordinal, Offset, Device>;
  const PageRankOptions options = pageRankOptions(args);

  Kokkos::Timer timer;
  const PageRankGraph graph = pageRankGraph(adjacency, !args.unweighted);
  const Csr csr = csrFromHost<Csr>(graph.transitionT);
  FormatOptions formatOptions;
  formatOptions.force = args.force;
  OperatorOptions operatorOptions;
  operatorOptions.kernel = parseKernel(args.format);
  operatorOptions.mode = options.mode;  // the products follow the same mode as the reduction
  operatorOptions.format = formatOptions;
  operatorOptions.portableOnly = args.portable;
  setAutoOptions(operatorOptions, exec, args.choice, args.run.backend, std::min(args.maxIterations, 1000));
  const SpmvOperator<Value, Ordinal, Offset, ExecSpace> Gt(exec, csr, operatorOptions);
  const std::string kernelName(Gt.kernel().name);
  const auto mask = danglingMask<Value, Device>(graph);
  Kokkos::View<Value*, Device> rank("rank", graph.numNodes);
  exec.fence();
  const double prepareSeconds = timer.seconds();

  const PageRankResult result = pagerank(exec, Gt, mask, rank, options);
  auto rankHost = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), rank);
  const std::string hash = hashBits(rankHost);
  const auto top = topNodes(rankHost, graph.numNodes, args.top);
  const double perIteration = result.iterations > 0 ? result.seconds / result.iterations : 0.0;
  const int threads = ExecSpace().concurrency();

  PageRankReference reference;
  RankingComparison comparison;
  double referenceSeconds = 0;
  if (args.check) {
    timer.reset();
    PageRankReferenceOptions refOptions;
    refOptions.alpha = args.alpha;
    refOptions.dangling = options.dangling;
    refOptions.useWeights = !args.unweighted;
    reference = pageRankReference(adjacency, refOptions);
    comparison = compareRankings(reference, rankHost, kCheckedPositions);
    referenceSeconds = timer.seconds();
  }

  if (args.run.json) {
    nlohmann::json topJson = nlohmann::json::array();
    for (std::int64_t node : top) topJson.push_back({{"node", node + 1}, {"score", static_cast<double>(rankHost(node))}});
    nlohmann::json j = {{"file", args.file},
                        {"nodes", graph.numNodes},
                        {"edges", graph.numEdges},
                        {"dangling_nodes", graph.numDangling},
                        {"dangling", toString(options.dangling)},
                        {"weighted", !args.unweighted},
                        {"alpha", args.alpha},
                        {"tolerance", args.tol},
                        {"norm", args.norm},
                        {"scale", "mean rank 1"},
                        {"format", kernelName},
                        {"mode", args.mode},
                        {"backend", args.run.backend},
                        {"threads", threads},
                        {"precision", args.run.precision},
                        {"converged", result.converged},
                        {"iterations", result.iterations},
                        {"final_change", result.change},
                        {"time_s", result.seconds},
                        {"time_per_iteration_s", perIteration},
                        {"prepare_s", prepareSeconds},
                        {"top", topJson},
                        {"hash", hash},
                        {"auto", Gt.choice() != nullptr ? nlohmann::json::parse(choiceJson(*Gt.choice(), Gt.chooseSeconds()))
                                                        : nlohmann::json()},
                        {"top100_matches", nullptr},
                        {"top100_positions", nullptr},
                        {"max_rel_score_error", nullptr}};
    if (args.check) {
      j["top100_matches"] = comparison.matches;
      j["top100_positions"] = comparison.positions;
      j["max_rel_score_error"] = comparison.maxRelScoreError;
      j["reference_iterations"] = reference.iterations;
      j["reference_converged"] = reference.converged;
    }
    fmt::print("{}\n", j.dump());
  } else {
    fmt::print("graph     {}: {} nodes, {} edges{}, {} dangling ({})\n", args.file, graph.numNodes, graph.numEdges,
               args.unweighted ? " (unweighted)" : adjacency.header.field == io::MatrixMarketField::Pattern ? "" : " (weighted)",
               graph.numDangling,
               options.dangling == PageRankDangling::Uniform ? "their rank spread uniformly" : "their rank dropped");
    fmt::print("pagerank  alpha {:g}, stop when {} < {:g} (ranks on the mean-1 scale)\n", args.alpha,
               options.norm == PageRankNorm::L1 ? "||R_k+1 - R_k||_1" : "max |R_k+1 - R_k|", args.tol);
    fmt::print("operator  G^T as {} on {} ({} threads), {}, {} mode\n", kernelName, args.run.backend, threads,
               args.run.precision, args.mode);
    if (Gt.choice() != nullptr) fmt::print("auto      {}\n", choiceText(*Gt.choice()));
    fmt::print("result    {}\n", result.message);
    fmt::print("time      {:.4f} s, {:.3f} ms per iteration (+ {:.4f} s to build G^T and the format)\n", result.seconds,
               perIteration * 1e3, prepareSeconds);
    fmt::print("top {:<5} {:>6}  {:>10}  {}\n", top.size(), "place", "node", "score");
    for (std::size_t p = 0; p < top.size(); ++p) {
      fmt::print("          {:>6}  {:>10}  {:.9g}\n", p + 1, top[p] + 1, static_cast<double>(rankHost(top[p])));
    }
    fmt::print("hash      {} (rank vector)\n", hash);
    if (args.check) {
      fmt::print("check     top-{} matches {}/{} against a long-double host reference ({} iterations{}, {:.2f} s)\n",
                 kCheckedPositions, comparison.matches, comparison.positions, reference.iterations,
                 reference.converged ? "" : ", NOT converged", referenceSeconds);
      fmt::print("          max relative score error {:.3e}\n", comparison.maxRelScoreError);
    }
  }
  return result.converged ? 0 : 3;
}

}  // namespace

int runPageRank(const PageRankArgs& args) {
#ifdef ARAIOS_CLI_MPI
  if (launchedByMpi()) return runPageRankDistributed(args);
#endif
  return runOnMatrix(args, [&](auto exec, auto value, auto index, const io::HostMatrix& host) {
    using Index = decltype(index);
    return runTyped<decltype(exec), decltype(value), Index, Index>(exec, host, args);
  });
}

}  // namespace araios::cli
