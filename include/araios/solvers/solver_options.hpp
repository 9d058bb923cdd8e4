#pragma once
// What every Araios solver (Jacobi, CG, GMRES(m)) takes besides the system itself.
//
// Reproducibility. `mode` selects the reductions (dot products and norms) the solver uses:
// Deterministic (the default) and Accurate give the same iteration count and the same bits of
// x on Serial, OpenMP at any thread count and CUDA, provided the product is itself
// reproducible across them, which the operator's mode (SpmvOperator, Deterministic by default)
// guarantees for every kernel (docs/reproducibility.md). Fast uses Kokkos' own reductions,
// whose order depends on the backend.
#include <araios/detail/spmv_dispatch.hpp>
#include <araios/primitives/deterministic_reduce.hpp>

#include <functional>

namespace araios {

enum class Preconditioner {
  Default,  ///< the method's own default: Jacobi for CG, none for GMRES
  None,
  Jacobi,   ///< diagonal scaling: z = D^-1 r (CG), right preconditioning A D^-1 (GMRES)
};

inline const char* toString(Preconditioner p) {
  switch (p) {
    case Preconditioner::Default: return "default";
    case Preconditioner::None: return "none";
    case Preconditioner::Jacobi: return "jacobi";
  }
  return "unknown";
}

struct SolverOptions {
  /// Jacobi stops when max_i |x_{k+1,i} - x_{k,i}| < tolerance (the classical test, absolute);
  /// CG and GMRES when ||b - A x||_2 <= tolerance * ||b||_2.
  double tolerance = 1e-8;
  /// Iterations at most: Jacobi sweeps, CG steps, GMRES Arnoldi steps over all cycles.
  int maxIterations = 10000;
  ReductionMode mode = ReductionMode::Deterministic;
  Preconditioner preconditioner = Preconditioner::Default;

  /// GMRES(m): the restart length m (Krylov vectors per cycle).
  int restart = 30;
  /// GMRES: kept for existing callers; it changes nothing. GMRES always orthogonalises twice,
  /// by classical Gram-Schmidt with reorthogonalisation (CGS2, solvers/gmres_steps.hpp), which
  /// keeps the basis orthogonal to working precision, so a further pass would only cost time.
  bool reorthogonalize = false;
  /// GMRES: stop as stagnated after this many consecutive cycles that each reduced the true
  /// residual by less than stagnationFactor (0 disables the test).
  int stagnationCycles = 10;
  double stagnationFactor = 1e-3;

  /// Divergence: the iteration is stopped and reported as diverged when its convergence
  /// measure (Jacobi's max |dx|, CG's residual) exceeds divergenceGrowth times the smallest
  /// value it has had, or becomes NaN or Inf. A convergent iteration may grow for a while
  /// (non-normal iteration matrices); ten orders of magnitude it does not.
  double divergenceGrowth = 1e10;

  /// Keep the convergence measure of every iteration in SolveResult::history.
  bool recordHistory = true;
  /// Called after every iteration with the iteration number (from 1) and the convergence
  /// measure (what history records), on the host, so a front end can print progress.
  std::function<void(int iteration, double residual)> onProgress;
};

}  // namespace araios
