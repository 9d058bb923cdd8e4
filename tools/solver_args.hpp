#pragma once
// The library's options from the command's arguments, for araios solve and pagerank on one
// process and under mpirun alike.
#include "command_args.hpp"
#include <araios/mode.hpp>

#include <araios/solvers/pagerank.hpp>
#include <araios/solvers/solver_options.hpp>

namespace araios::cli {

inline SolverOptions solverOptions(const SolveArgs& args) {
  SolverOptions options;
  options.tolerance = args.tol;
  options.maxIterations = args.maxIterations;
  options.restart = args.restart;
  options.reorthogonalize = args.reorthogonalize;
  options.mode = parseMode(args.mode);
  options.preconditioner = args.precond.empty()      ? Preconditioner::Default
                           : args.precond == "none" ? Preconditioner::None
                                                    : Preconditioner::Jacobi;
  return options;
}

inline PageRankOptions pageRankOptions(const PageRankArgs& args) {
  PageRankOptions options;
  options.alpha = args.alpha;
  options.tolerance = args.tol;
  options.maxIterations = args.maxIterations;
  options.dangling = args.dangling == "drop" ? PageRankDangling::Drop : PageRankDangling::Uniform;
  options.norm = args.norm == "max" ? PageRankNorm::Max : PageRankNorm::L1;
  options.mode = parseMode(args.mode);
  return options;
}

}  // namespace araios::cli
