// araios solve FILE --method jacobi|cg|gmres: solves A x = b on the device with one of the
// library's solvers, any SpMV kernel as the operator, and checks the answer on the host.
//
// Exit codes: 0 converged; 3 did not converge (iteration limit or stagnation); 4 diverged or
// broke down; 1 refused input (a zero diagonal for Jacobi, a bad right-hand side, ...).
#ifdef ARAIOS_CLI_MPI
#include "mpi/distributed_commands.hpp"
#endif
#include "auto_options.hpp"
#include "backend.hpp"
#include "command_args.hpp"
#include "solver_args.hpp"
#include "typed_run.hpp"

#include <araios/araios.hpp>
#include <araios/solvers/solvers.hpp>

#include <fmt/core.h>
#include <nlohmann/json.hpp>

#include <cmath>
#include <algorithm>
#include <cstdint>
#include <limits>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <vector>

namespace araios::cli {
namespace {

/// The right-hand side: all ones, seeded uniform values in [-1, 1), or a Matrix Market file
/// holding an n x 1 (or 1 x n) matrix, array or coordinate (missing entries are zero).
std::vector<double> makeRhs(const std::string& spec, std::int64_t n) {
  if (spec == "ones") return std::vector<double>(n, 1.0);
  const std::string randomPrefix = "random:";
  if (spec.rfind(randomPrefix, 0) == 0) {
    const std::string seedText = spec.substr(randomPrefix.size());
    std::uint64_t seed = 0;
    try {
      std::size_t used = 0;
      seed = std::stoull(seedText, &used);
      if (used != seedText.size()) throw std::invalid_argument("trailing characters");
    } catch (const std::exception&) {
      throw InputError("--rhs " + spec + ": the seed '" + seedText + "' is not an unsigned integer; expected random:SEED");
    }
    return seededVector<double>(n, seed);
  }
  const io::HostMatrix m = io::readMatrixMarket(spec);
  const bool column = m.numCols == 1 && m.numRows == n;
  const bool row = m.numRows == 1 && m.numCols == n;
  if (!column && !row) {
    throw InputError("--rhs " + spec + ": the file holds a " + std::to_string(m.numRows) + " x " +
                     std::to_string(m.numCols) + " matrix; expected " + std::to_string(n) + " x 1");
  }
  std::vector<double> b(n, 0.0);
  for (std::int64_t k = 0; k < m.nnz(); ++k) b[column ? m.row[k] : m.col[k]] = m.value[k];
  return b;
}

/// ||b - A x|| / ||b|| in long double on the host, over the matrix as read (||b - A x|| when
/// b = 0). Independent of every kernel and reduction the solve used.
template <class HostX>
long double hostRelativeResidual(const io::HostMatrix& A, const std::vector<double>& b, const HostX& x) {
  std::vector<long double> r(b.begin(), b.end());
  for (std::int64_t k = 0; k < A.nnz(); ++k) {
    r[A.row[k]] -= static_cast<long double>(A.value[k]) * static_cast<long double>(x(A.col[k]));
  }
  long double rr = 0, bb = 0;
  for (std::size_t i = 0; i < r.size(); ++i) {
    rr += r[i] * r[i];
    bb += static_cast<long double>(b[i]) * b[i];
  }
  return bb > 0 ? std::sqrt(rr / bb) : std::sqrt(rr);
}

/// Prints a progress line every `every` iterations, or (every = 0) at most one per second.
class ProgressPrinter {
 public:
  ProgressPrinter(int every, const char* measure) : every_(every), measure_(measure) {}
  void operator()(int iteration, double value) {
    const bool due = every_ > 0 ? iteration % every_ == 0 : clock_.seconds() - lastPrint_ >= 1.0;
    if (!due) return;
    lastPrint_ = clock_.seconds();
    fmt::print("  iteration {:>8}  {} {:.3e}  ({:.1f} s)\n", iteration, measure_, value, lastPrint_);
    std::fflush(stdout);
  }

 private:
  int every_;
  const char* measure_;
  Kokkos::Timer clock_;
  double lastPrint_ = 0;
};

int exitCode(const SolveResult& r) {
  if (r.converged) return 0;
  if (r.status == SolveStatus::Diverged || r.status == SolveStatus::Breakdown) return 4;
  return 3;
}

/// Up to kMaxHistoryPoints entries of the history, evenly spaced, the last one included.
nlohmann::json sampledHistory(const std::vector<double>& history) {
  constexpr std::size_t kMaxHistoryPoints = 100;  // enough to plot, small enough to read
  nlohmann::json points = nlohmann::json::array();
  if (history.empty()) return points;
  const std::size_t step = (history.size() + kMaxHistoryPoints - 1) / kMaxHistoryPoints;
  for (std::size_t k = step - 1; k < history.size(); k += step) points.push_back({{"iteration", k + 1}, {"value", history[k]}});
  if ((history.size() - 1) % step != step - 1) points.push_back({{"iteration", history.size()}, {"value", history.back()}});
  return points;
}

template <class ExecSpace, class Value, class Ordinal, class Offset>
int runTyped(const ExecSpace& exec, const io::HostMatrix& host, const std::vector<double>& bHost, const SolveArgs& args) {
  using Device = typename ExecSpace::device_type;
  using Csr = CsrMatrix<Value, Ordinal, Offset, Device>;
  using Vector = Kokkos::View<Value*, Device>;
  if (host.numRows != host.numCols) {
    throw InputError(args.file + " is " + std::to_string(host.numRows) + " x " + std::to_string(host.numCols) +
                     "; expected a square matrix");
  }
  const SolverMethod method = solverMethodFromString(args.method);
  SolverOptions options = solverOptions(args);
  // Every kernel's deterministic and accurate modes give the same products on every backend.
  const bool spmvReproducible = options.mode != Mode::Fast;

  Kokkos::Timer timer;
  const Csr csr = csrFromHost<Csr>(host);
  FormatOptions formatOptions;
  formatOptions.force = args.force;
  OperatorOptions operatorOptions;
  operatorOptions.kernel = parseKernel(args.format);
  operatorOptions.mode = options.mode;  // the products follow the same mode as the reductions
  operatorOptions.format = formatOptions;
  operatorOptions.portableOnly = args.portable;
  // A solve runs up to --maxiter products; past a thousand the build's share no longer matters.
  setAutoOptions(operatorOptions, exec, args.choice, args.run.backend, std::min(args.maxIterations, 1000));
  const SpmvOperator<Value, Ordinal, Offset, ExecSpace> A(exec, csr, operatorOptions);
  const std::string kernelName(A.kernel().name);
  Vector diagonal;
  if (needsDiagonal(method, options.preconditioner)) diagonal = extractDiagonal(exec, csr);
  Vector b("b", host.numRows), x("x", host.numRows);
  {
    auto bMirror = Kokkos::create_mirror_view(b);
    for (std::int64_t i = 0; i < host.numRows; ++i) bMirror(i) = static_cast<Value>(bHost[i]);
    Kokkos::deep_copy(b, bMirror);
  }
  exec.fence();
  const double prepareSeconds = timer.seconds();

  const char* measure = method == SolverMethod::Jacobi ? "max |dx|" : "||r||/||b||";
  std::optional<ProgressPrinter> progress;
  if (!args.run.json) {
    fmt::print("matrix    {}: {} x {}, {} stored entries\n", args.file, host.numRows, host.numCols, host.nnz());
    std::string solver = args.method;
    if (method == SolverMethod::Gmres) solver += "(" + std::to_string(args.restart) + ")";
    const bool precondition = method != SolverMethod::Jacobi && needsDiagonal(method, options.preconditioner);
    fmt::print("solver    {}{}, {} mode, tolerance {:g}, at most {} iterations\n", solver,
               method == SolverMethod::Jacobi ? "" : (precondition ? ", Jacobi preconditioner" : ", no preconditioner"),
               args.mode, args.tol, args.maxIterations);
    fmt::print("operator  {} on {} ({} threads), {}, {}-bit indices\n", kernelName, args.run.backend,
               ExecSpace().concurrency(), args.run.precision, 8 * sizeof(Offset));
    if (A.choice() != nullptr) fmt::print("auto      {}\n", choiceText(*A.choice()));
    progress.emplace(args.progressEvery, measure);
    options.onProgress = [&progress](int k, double v) { (*progress)(k, v); };
  }

  const SolveResult result = solve(exec, A, b, x, method, options, diagonal);
  auto xHost = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), x);
  const double hostResidual = static_cast<double>(hostRelativeResidual(host, bHost, xHost));
  const std::string hash = hashBits(x);
  const double solveSeconds = result.seconds;
  const double perIteration = result.iterations > 0 ? (result.seconds - result.setupSeconds) / result.iterations : 0.0;

  if (args.run.json) {
    nlohmann::json j = {{"file", args.file},
                        {"rows", host.numRows},
                        {"nnz", host.nnz()},
                        {"method", args.method},
                        {"restart", method == SolverMethod::Gmres ? nlohmann::json(args.restart) : nlohmann::json()},
                        {"precond", method == SolverMethod::Jacobi ? nlohmann::json()
                                    : needsDiagonal(method, options.preconditioner) ? nlohmann::json("jacobi")
                                                                                    : nlohmann::json("none")},
                        {"format", kernelName},
                        {"mode", args.mode},
                        {"spmv_reproducible", spmvReproducible},
                        {"backend", args.run.backend},
                        {"threads", ExecSpace().concurrency()},
                        {"precision", args.run.precision},
                        {"tolerance", args.tol},
                        {"max_iterations", args.maxIterations},
                        {"iterations", result.iterations},
                        {"restarts", result.restarts},
                        {"converged", result.converged},
                        {"diverged", result.diverged},
                        {"status", toString(result.status)},
                        {"message", result.message},
                        {"rel_residual", hostResidual},
                        {"solver_rel_residual", result.relResidual},
                        {"final_measure", result.residual},
                        {"time_s", solveSeconds},
                        {"time_per_iteration_s", perIteration},
                        {"setup_s", result.setupSeconds},
                        {"prepare_s", prepareSeconds},
                        {"history", sampledHistory(result.history)},
                        {"auto", A.choice() != nullptr ? nlohmann::json::parse(choiceJson(*A.choice(), A.chooseSeconds()))
                                                       : nlohmann::json()},
                        {"hash", hash}};
    fmt::print("{}\n", j.dump());
  } else {
    const char* verdict = result.converged ? "CONVERGED" : result.diverged ? "DIVERGED" : "NOT CONVERGED";
    fmt::print("result    {} after {} iterations{}: {}\n", verdict, result.iterations,
               result.restarts > 0 ? " (" + std::to_string(result.restarts) + " restarts)" : std::string(),
               result.message);
    fmt::print("residual  ||b - Ax|| / ||b|| = {:.3e} (recomputed on the host in long double; the solver measured {:.3e})\n",
               hostResidual, result.relResidual);
    fmt::print("time      {:.4f} s total, {:.3f} ms per iteration, {:.4f} s setup (+ {:.4f} s to build the operator)\n",
               solveSeconds, perIteration * 1e3, result.setupSeconds, prepareSeconds);
    fmt::print("hash      {} (x)\n", hash);
    if (result.diverged) fmt::print("          x is not a solution: the iteration diverged\n");
  }
  return exitCode(result);
}

}  // namespace

int runSolve(const SolveArgs& args) {
#ifdef ARAIOS_CLI_MPI
  if (launchedByMpi()) return runSolveDistributed(args);
#endif
  return runOnMatrix(args, [&](auto exec, auto value, auto index, const io::HostMatrix& host) {
    using Index = decltype(index);
    return runTyped<decltype(exec), decltype(value), Index, Index>(exec, host, makeRhs(args.rhs, host.numRows), args);
  });
}

}  // namespace araios::cli
