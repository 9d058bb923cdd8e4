// araios spmv | solve | pagerank under mpirun: each rank holds its rows (DistributedOperator);
// rank 0 prints what one process prints, plus ranks, halo_bytes and comm_s.
#include "accuracy.hpp"
#include "kernel_choice.hpp"
#include "solver_args.hpp"
#include "mpi/distributed_commands.hpp"
#include "mpi/distributed_run.hpp"
#include "spmv_x.hpp"
#include "typed_run.hpp"

#include <araios/araios.hpp>
#include <araios/distributed.hpp>
#include <araios/seeded_vector.hpp>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

namespace araios::cli {
namespace {

template <class Value, class ExecSpace>
using Distributed = DistributedOperator<Value, std::int32_t, std::int32_t, ExecSpace>;

OperatorOptions operatorOptions(const std::string& format, const std::string& mode, bool force, bool portable) {
  OperatorOptions o;
  o.kernel = parseKernel(format);
  o.mode = parseMode(mode);
  o.format.force = force;
  o.portableOnly = portable;
  return o;
}

/// This rank's rows renumbered from 0, for the long-double reference of its block.
io::HostMatrix localBlock(const DistributedHostMatrix& m) {
  io::HostMatrix b = m.local;
  b.numRows = m.localRows();
  for (std::int64_t& r : b.row) r -= m.firstRow();
  return b;
}

/// The keys every distributed command adds; halo_bytes is the sum over the ranks per product.
template <class Operator>
void addDistributedKeys(nlohmann::json& j, const Operator& A, std::int64_t haloBytes, double commSeconds) {
  j["ranks"] = commSize(world());
  j["halo_bytes"] = haloBytes;
  j["comm_s"] = commSeconds;
  j["direct_messages"] = A.directMessages();
}

template <class ExecSpace, class Value>
int spmvTyped(const ExecSpace& exec, const DistributedHostMatrix& m, const SpmvArgs& args) {
  using Device = typename ExecSpace::device_type;
  const OperatorOptions o = operatorOptions(args.format, args.mode, args.force, args.portable);
  const Distributed<Value, ExecSpace> A(exec, m, o);
  const std::vector<Value> xWhole = makeX<Value>(m.numCols(), args.seed);
  const std::vector<double> xd(xWhole.begin(), xWhole.end());
  const auto x = blockOf<Value, Device>(A.columnPartition(), xd, "x");
  Kokkos::View<Value*, Device> y("y", A.localRows());
  Kokkos::deep_copy(y, std::numeric_limits<Value>::quiet_NaN());
  A.apply(exec, x, y);  // warm-up
  const double commBefore = A.commSeconds();
  std::vector<double> times;
  for (int r = 0; r < args.repeat; ++r) {
    ARAIOS_MPI_CHECK(MPI_Barrier(world()));
    Kokkos::Timer timer;
    A.apply(exec, x, y);
    times.push_back(maxOverRanks(timer.seconds()));  // a product ends when its slowest rank does
  }
  std::nth_element(times.begin(), times.begin() + times.size() / 2, times.end());
  const double seconds = times[times.size() / 2];
  const double commSeconds = maxOverRanks((A.commSeconds() - commBefore) / std::max(args.repeat, 1));

  const ReferenceSpmv ref = referenceSpmv<Value>(localBlock(m), xWhole, Value(1), Value(0), {});
  const Accuracy mine = measureAccuracy<Value>(ref, Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), y));
  const double maxRelError = maxOverRanks(mine.maxRelError);
  const bool withinBound = maxOverRanks<std::int64_t>(mine.withinBound ? 0 : 1) == 0;
  const std::vector<Value> whole = gatherOnRankZero(A.partition(), y);
  const std::int64_t nnz = sumOverRanks(m.local.nnz());
  const std::int64_t halo = sumOverRanks(A.haloBytesReceived());
  if (commRank(world()) == 0) {
    const Kokkos::View<const Value*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged> all(whole.data(), whole.size());
    const std::string hash = hashBits(all);
    const std::string kernel(A.kernel().name);
    if (args.run.json) {
      nlohmann::json j = {{"file", args.file},       {"rows", m.numRows()},
                          {"cols", m.numCols()},     {"nnz", nnz},
                          {"format", kernel},        {"mode", toString(o.mode)},
                          {"backend", args.run.backend}, {"threads", ExecSpace().concurrency()},
                          {"precision", args.run.precision}, {"repeat", args.repeat},
                          {"time_s", seconds},       {"gflops", 2.0 * nnz / seconds * 1e-9},
                          {"max_rel_error", maxRelError}, {"within_error_bound", withinBound},
                          {"hash", hash}};
      addDistributedKeys(j, A, halo, commSeconds);
      fmt::print("{}\n", j.dump());
    } else {
      fmt::print("matrix    {}: {} x {}, {} stored entries, on {} ranks\n", args.file, m.numRows(), m.numCols(), nnz,
                 commSize(world()));
      fmt::print("kernel    {} ({} mode) on {} ({} threads per rank), {}\n", kernel, toString(o.mode),
                 args.run.backend, ExecSpace().concurrency(), args.run.precision);
      fmt::print("time      {:.3f} us per product (median of {}), {:.3f} us of it in halo messages\n", seconds * 1e6,
                 args.repeat, commSeconds * 1e6);
      fmt::print("halo      {} bytes per product in all\n", halo);
      fmt::print("error     {:.3e} max relative vs the long-double reference; error bound {}\n", maxRelError,
                 withinBound ? "holds on every row" : "VIOLATED");
      fmt::print("hash      {}\n", hash);
    }
  }
  return withinBound ? 0 : 3;
}

std::vector<double> distributedRhs(const std::string& spec, std::int64_t n) {
  if (spec == "ones") return std::vector<double>(n, 1.0);
  const std::string prefix = "random:";
  if (spec.rfind(prefix, 0) == 0) {
    try {
      return seededVector<double>(n, std::stoull(spec.substr(prefix.size())));
    } catch (const std::logic_error&) {
    }
  }
  throw InputError("--rhs " + spec + ": under mpirun the right-hand side is ones or random:SEED; expected one of those");
}

template <class ExecSpace, class Value>
int solveTyped(const ExecSpace& exec, const DistributedHostMatrix& m, const SolveArgs& args) {
  using Device = typename ExecSpace::device_type;
  SolverOptions options = solverOptions(args);
  const SolverMethod method = solverMethodFromString(args.method);
  const Distributed<Value, ExecSpace> A(exec, m, operatorOptions(args.format, args.mode, args.force, args.portable));
  const auto b = blockOf<Value, Device>(A.partition(), distributedRhs(args.rhs, m.numRows()), "b");
  Kokkos::View<Value*, Device> x("x", A.localRows());
  Kokkos::View<Value*, Device> diagonal;
  if (needsDiagonal(method, options.preconditioner)) diagonal = A.diagonal();
  if (!args.run.json && commRank(world()) == 0) {
    options.onProgress = [every = args.progressEvery](int k, double v) {
      if (every > 0 && k % every == 0) fmt::print("  iteration {:>8}  {:.3e}\n", k, v);
    };
  }
  const SolveResult result = solve(exec, A, b, x, method, options, diagonal);
  const double commSeconds = maxOverRanks(A.commSeconds());
  const std::vector<Value> whole = gatherOnRankZero(A.partition(), x);
  const std::int64_t halo = sumOverRanks(A.haloBytesReceived());
  if (commRank(world()) == 0) {
    const Kokkos::View<const Value*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged> all(whole.data(), whole.size());
    const std::string hash = hashBits(all);
    const double perIteration = result.iterations > 0 ? (result.seconds - result.setupSeconds) / result.iterations : 0.0;
    if (args.run.json) {
      nlohmann::json j = {{"file", args.file}, {"method", args.method}, {"mode", args.mode},
                          {"format", std::string(A.kernel().name)}, {"backend", args.run.backend},
                          {"precision", args.run.precision}, {"rows", m.numRows()},
                          {"iterations", result.iterations}, {"converged", result.converged},
                          {"status", toString(result.status)}, {"message", result.message},
                          {"residual", result.residual}, {"rel_residual", result.relResidual},
                          {"solve_s", result.seconds}, {"per_iteration_s", perIteration}, {"hash", hash}};
      addDistributedKeys(j, A, halo, commSeconds);
      fmt::print("{}\n", j.dump());
    } else {
      fmt::print("matrix    {}: {} x {} on {} ranks, {} ({} mode)\n", args.file, m.numRows(), m.numCols(),
                 commSize(world()), std::string(A.kernel().name), args.mode);
      fmt::print("result    {}\n", result.message);
      fmt::print("time      {:.3f} s, {:.3f} ms per iteration, {:.3f} s in halo messages\n", result.seconds,
                 perIteration * 1e3, commSeconds);
      fmt::print("hash      {} (x)\n", hash);
    }
  }
  if (result.converged) return 0;
  return result.status == SolveStatus::Diverged || result.status == SolveStatus::Breakdown ? 4 : 3;
}

template <class ExecSpace, class Value>
int pagerankTyped(const ExecSpace& exec, const PageRankArgs& args) {
  using Device = typename ExecSpace::device_type;
  const int rank = commRank(world());
  // G^T needs every node's out-weight, so rank 0 reads the graph and builds it, and each rank
  // receives its rows of G^T and of the dangling mask.
  PageRankGraph graph;
  agreeOnErrors(world(), [&] {
    if (rank == 0) graph = pageRankGraph(io::readMatrixMarket(args.file), !args.unweighted);
  });
  const DistributedHostMatrix rows = scatterRows(world(), graph.transitionT);
  std::vector<double> mask(rank == 0 ? graph.numNodes : 0);
  for (std::size_t i = 0; i < mask.size(); ++i) mask[i] = graph.dangling[i];
  mask.resize(rows.numRows());
  ARAIOS_MPI_CHECK(MPI_Bcast(mask.data(), static_cast<int>(mask.size()), MPI_DOUBLE, 0, world()));
  const PageRankOptions options = pageRankOptions(args);
  const Distributed<Value, ExecSpace> Gt(exec, rows, operatorOptions(args.format, args.mode, args.force, args.portable));
  Kokkos::View<Value*, Device> ranks("rank", Gt.localRows());
  const PageRankResult result = pagerank(exec, Gt, blockOf<Value, Device>(Gt.partition(), mask, "dangling"), ranks, options);
  const double commSeconds = maxOverRanks(Gt.commSeconds());
  const std::vector<Value> whole = gatherOnRankZero(Gt.partition(), ranks);
  const std::int64_t halo = sumOverRanks(Gt.haloBytesReceived());
  if (rank == 0) {
    const Kokkos::View<const Value*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged> all(whole.data(), whole.size());
    const std::string hash = hashBits(all);
    if (args.run.json) {
      nlohmann::json j = {{"file", args.file}, {"nodes", rows.numRows()}, {"mode", args.mode},
                          {"format", std::string(Gt.kernel().name)}, {"backend", args.run.backend},
                          {"iterations", result.iterations}, {"converged", result.converged},
                          {"change", result.change}, {"message", result.message},
                          {"seconds", result.seconds}, {"hash", hash}};
      addDistributedKeys(j, Gt, halo, commSeconds);
      fmt::print("{}\n", j.dump());
    } else {
      fmt::print("graph     {}: {} nodes on {} ranks, {} ({} mode)\n", args.file, rows.numRows(), commSize(world()),
                 std::string(Gt.kernel().name), args.mode);
      fmt::print("result    {}\n", result.message);
      fmt::print("hash      {} (rank vector)\n", hash);
    }
  }
  return result.converged ? 0 : 3;
}

/// f(exec, Value{}) on the backend and precision of `run`.
template <class F>
int onBackend(const RunOptions& run, const F& f) {
  return runTypedOnBackend(run, true, [&](auto exec, auto value, auto) { return f(exec, value); });
}

}  // namespace

DistributedHostMatrix readRows(const std::string& file, const RunOptions& run) {
  DistributedReadOptions options;
  options.read.dropInvalid = run.dropInvalid;
  return readMatrixMarketRows(world(), file, options);
}

int runSpmvDistributed(const SpmvArgs& args) {
  const DistributedHostMatrix m = readRows(args.file, args.run);
  return onBackend(args.run, [&](auto exec, auto value) { return spmvTyped<decltype(exec), decltype(value)>(exec, m, args); });
}

int runSolveDistributed(const SolveArgs& args) {
  const DistributedHostMatrix m = readRows(args.file, args.run);
  return onBackend(args.run, [&](auto exec, auto value) { return solveTyped<decltype(exec), decltype(value)>(exec, m, args); });
}

int runPageRankDistributed(const PageRankArgs& args) {
  return onBackend(args.run, [&](auto exec, auto value) { return pagerankTyped<decltype(exec), decltype(value)>(exec, args); });
}

}  // namespace araios::cli
