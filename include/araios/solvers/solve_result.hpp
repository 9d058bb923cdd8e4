#pragma once
// What a solver reports. A solve either converged, or says why not; it never hands back a
// diverged iterate as a solution (see `status` and the notes on x below).
#include <string>
#include <vector>

namespace araios {

enum class SolveStatus {
  Converged,
  MaxIterations,  ///< ran out of iterations while still making progress
  Stagnated,      ///< GMRES cycles (or CG residual replacements) stopped reducing the residual
  Diverged,       ///< the iterates grew without bound, or became NaN or Inf
  Breakdown,      ///< the method cannot continue: p^T A p <= 0 in CG (A not SPD), a singular
                  ///< Hessenberg matrix in GMRES
};

inline const char* toString(SolveStatus s) {
  switch (s) {
    case SolveStatus::Converged: return "converged";
    case SolveStatus::MaxIterations: return "max-iterations";
    case SolveStatus::Stagnated: return "stagnated";
    case SolveStatus::Diverged: return "diverged";
    case SolveStatus::Breakdown: return "breakdown";
  }
  return "unknown";
}

/// On return, x holds:
///   Converged, MaxIterations, Stagnated: the last iterate (the best the method has);
///   Diverged: Jacobi leaves the iterate before the step that failed the test (finite when the
///     failure was a NaN or Inf); CG and GMRES leave their last iterate. Either way it is not a
///     solution, and `converged` is false;
///   Breakdown: the last iterate before the breakdown.
struct SolveResult {
  SolveStatus status = SolveStatus::MaxIterations;
  bool converged = false;
  bool diverged = false;
  /// One sentence for the user: why the solve stopped.
  std::string message;
  int iterations = 0;
  int restarts = 0;  ///< GMRES cycles after the first; CG residual replacements
  /// The method's final convergence measure (Jacobi: max |dx|; CG: ||r||/||b|| of the
  /// recurrence; GMRES: the residual estimate of the Givens rotations / ||b||).
  double residual = 0;
  /// ||b - A x||_2 / ||b||_2 for the returned x, computed on the device after the loop
  /// (||b - A x||_2 itself when b = 0).
  double relResidual = 0;
  /// The convergence measure after every iteration (if SolverOptions::recordHistory).
  std::vector<double> history;
  double setupSeconds = 0;  ///< before the first iteration: diagonal, workspace, first residual
  double seconds = 0;       ///< the whole solve, setup included
};

}  // namespace araios
