#pragma once
// Preconditioned conjugate gradients for symmetric positive definite systems, on the device.
//
//   araios::SolveResult r = araios::cg(exec, A, b, x, options);        // A: an SpmvOperator
//   araios::SolveResult r = araios::cg(exec, A, b, x, options, diag);  // your own diagonal
//
// The Jacobi (diagonal) preconditioner is on by default (Preconditioner::Default or Jacobi);
// Preconditioner::None runs plain CG. Every scalar of the recurrence (rho = r.z, p.Ap, alpha,
// beta) lives in a device array: the reductions write it there, one-thread kernels combine it,
// and the vector updates read it there. Each iteration copies back two scalars: ||r|| for the
// convergence test and a status flag. All multiply-adds are explicit fma (primitives/fp.hpp).
//
// On one process, in Fast and Deterministic mode, an iteration is the product and five fused
// kernels (solvers/cg_steps.hpp); the bits are those of the unfused sequence. Fast mode uses
// the deterministic order for its reductions too: fused into the vector updates they read no
// vector a second time, which a separate unordered reduction would. What Fast changes is the
// operator's kernel. Accurate mode, and a distributed operator (whose reductions cross the
// ranks), run the unfused sequence.
//
// Stopping: when the recurrence residual satisfies ||r|| <= tol ||b||, the true residual
// b - A x is computed; if it does not satisfy the test as well (the recurrence drifted), r is
// replaced by it and CG restarts from the current x (at most kMaxResidualReplacements times).
// p^T A p <= 0 means A is not positive definite: reported as a breakdown, x left at the last
// iterate.
#include <araios/solvers/cg_steps.hpp>
#include <araios/solvers/diagonal.hpp>
#include <araios/solvers/solver_support.hpp>

#include <Kokkos_Core.hpp>

#include <optional>
#include <type_traits>

namespace araios {
namespace Impl {

constexpr int kMaxResidualReplacements = 5;

}  // namespace Impl

/// CG with the diagonal given (used when the Jacobi preconditioner is on; any format).
template <class ExecSpace, class Operator, class BView, class XView, class DView>
SolveResult cg(const ExecSpace& exec, const Operator& A, const BView& b, const XView& x, const SolverOptions& options,
               const DView& diagonal) {
  using Value = typename Operator::value_type;
  using Device = typename Operator::device_type;
  using Vector = Kokkos::View<Value*, Device>;
  using Slots = Impl::CgSlots;
  using Scalar = DeviceScalar<Value, Device>;
  Kokkos::Timer timer;
  Impl::checkSystem(A, b, x, "CG");
  Impl::checkOptions(options, "CG");
  const bool precondition = options.preconditioner != Preconditioner::None;
  if (precondition) {
    if (diagonal.extent(0) != x.extent(0)) {
      throw InputError("CG: the diagonal has " + std::to_string(diagonal.extent(0)) + " entries; expected " +
                       std::to_string(x.extent(0)));
    }
    Impl::SolverContext<Operator>::collectively(
        A, [&] { checkDiagonal(exec, diagonal, true, "CG with the Jacobi preconditioner"); });
  }

  const std::int64_t n = static_cast<std::int64_t>(x.extent(0));
  Impl::requireSolverMemory<Value>(exec, precondition ? 4 : 3, n, "CG");
  auto alloc = [&](const char* label) { return Impl::allocateWorkVector<Vector>(exec, n, label, "CG"); };
  Vector r = alloc("araios::cg::r"), p = alloc("araios::cg::p"), q = alloc("araios::cg::Ap");
  Vector z = precondition ? alloc("araios::cg::z") : r;
  Kokkos::View<Value*, Device> slots("araios::cg::scalars", Slots::kCount);
  auto hostSlots = Kokkos::create_mirror(slots);  // a separate copy even on the host: readScalars writes its start
  const Scalar rho{slots, Slots::kRho}, pAp{slots, Slots::kPAp}, alpha{slots, Slots::kAlpha},
      rhoNew{slots, Slots::kRhoNew}, beta{slots, Slots::kBeta}, rnorm{slots, Slots::kRnorm};
  auto ws = Impl::SolverContext<Operator>::reduction(A);
  // The fused passes need the one-process reduction workspace; Accurate keeps its exact sums.
  constexpr bool oneProcess = std::is_same_v<decltype(ws), ReductionWorkspace<Value, Device>>;
  std::optional<Impl::CgFusedSteps<Value, Device, XView, DView>> fused;
  if constexpr (oneProcess) {
    if (options.mode != ReductionMode::Accurate) {
      const Vector second = precondition ? Impl::allocateWorkVector<Vector>(exec, Impl::dotChunks(n) + 1,
                                                                           "araios::cg::partials", "CG")
                                         : Vector();
      fused.emplace(slots, p, q, x, r, z, diagonal, precondition, ws.partials, second);
    }
  }

  SolveResult result;
  const double bnorm = Impl::hostNorm<Value, Device>(exec, b, options.mode, ws);
  if (bnorm == 0) {
    fill(exec, x, Value(0));
    exec.fence();
    Impl::setStatus(result, SolveStatus::Converged, "b is zero, so x = 0 solves the system");
    result.seconds = timer.seconds();
    return result;
  }

  // (Re)starts the recurrence from the true residual of the current x. Returns ||r|| / ||b||.
  auto restartFromTrueResidual = [&]() {
    Impl::residual(exec, A, b, x, q, r);
    if (precondition) divideElementwise(exec, r, diagonal, z);
    copy(exec, z, p);
    dot(exec, r, z, rho, options.mode, ws);
    norm2(exec, r, rnorm, options.mode, ws);
    readScalars(slots, Slots::kRnorm, 1, hostSlots);
    return static_cast<double>(hostSlots(0)) / bnorm;
  };

  double measure = restartFromTrueResidual();
  result.residual = measure;
  result.setupSeconds = timer.seconds();
  Impl::DivergenceMonitor divergence(options.divergenceGrowth);
  Impl::setStatus(result, SolveStatus::MaxIterations,
                  "CG did not converge in " + std::to_string(options.maxIterations) + " iterations");
  if (measure <= options.tolerance) {
    Impl::setStatus(result, SolveStatus::Converged, "the initial guess already satisfies the tolerance");
  }
  for (int k = 1; k <= options.maxIterations && !result.converged; ++k) {
    A.apply(exec, p, q);
    if (fused) {
      fused->alpha(exec);
      fused->update(exec);
    } else {
      dot(exec, p, q, pAp, options.mode, ws);
      Impl::runOnce("araios::cg::alpha", exec, Impl::CgAlpha<Value, Device>{slots});
      axpy(exec, alpha, p, x);
      axpy(exec, alpha.negated(), q, r);
      if (precondition) {
        divideElementwise(exec, r, diagonal, z);
        dot(exec, r, z, rhoNew, options.mode, ws);
        norm2(exec, r, rnorm, options.mode, ws);
      } else {
        dot(exec, r, r, rhoNew, options.mode, ws);
      }
      Impl::runOnce("araios::cg::beta", exec, Impl::CgBeta<Value, Device>{slots, !precondition});
    }
    xpby(exec, z, beta, p);
    readScalars(slots, Slots::kRnorm, 2, hostSlots);
    const int flag = static_cast<int>(hostSlots(1));
    if (flag != 0) {
      // alpha was 0: x is still the previous iterate.
      if (flag == 1) {
        Impl::setStatus(result, SolveStatus::Breakdown,
                        "CG broke down at iteration " + std::to_string(k) +
                            ": p^T A p <= 0, so A is not symmetric positive definite");
      } else {
        Impl::setStatus(result, SolveStatus::Diverged,
                        "CG diverged at iteration " + std::to_string(k) + ": p^T A p became NaN or Inf");
      }
      break;
    }
    measure = static_cast<double>(hostSlots(0)) / bnorm;
    result.iterations = k;
    result.residual = measure;
    Impl::recordProgress(options, result, k, measure);
    const std::string why = divergence.check(measure, "||r|| / ||b||");
    if (!why.empty()) {
      Impl::setStatus(result, SolveStatus::Diverged, "CG diverged at iteration " + std::to_string(k) + ": " + why);
      break;
    }
    if (measure <= options.tolerance) {
      const double trueMeasure = restartFromTrueResidual();
      if (trueMeasure <= options.tolerance) {
        result.residual = trueMeasure;
        Impl::setStatus(result, SolveStatus::Converged,
                        "CG converged in " + std::to_string(k) + " iterations (||b - Ax|| / ||b|| = " +
                            Impl::DivergenceMonitor::formatNumber(trueMeasure) + ")");
      } else if (++result.restarts > Impl::kMaxResidualReplacements) {
        result.residual = trueMeasure;
        Impl::setStatus(result, SolveStatus::Stagnated,
                        "CG stagnated: the recurrence reached the tolerance " +
                            std::to_string(result.restarts) + " times but the true residual stays at " +
                            Impl::DivergenceMonitor::formatNumber(trueMeasure));
        break;
      }
    }
  }
  result.relResidual = Impl::finalRelativeResidual(exec, A, b, x, q, r, bnorm, options, ws);
  result.seconds = timer.seconds();
  return result;
}

/// CG with the preconditioner's diagonal taken from the CSR matrix A was built from.
template <class ExecSpace, class Operator, class BView, class XView>
SolveResult cg(const ExecSpace& exec, const Operator& A, const BView& b, const XView& x, const SolverOptions& options = {}) {
  Impl::checkSystem(A, b, x, "CG");
  using Context = Impl::SolverContext<Operator>;
  if (options.preconditioner == Preconditioner::None) return cg(exec, A, b, x, options, typename Context::Diagonal());
  return cg(exec, A, b, x, options, Context::diagonal(exec, A));
}

}  // namespace araios

// The compiled combinations (araios/instantiations.hpp) come from the library.
#ifdef ARAIOS_COMPILED_INSTANTIATIONS
#include <araios/instantiations.hpp>
#include <araios/operator.hpp>
ARAIOS_ETI_FOR_EACH(ARAIOS_ETI_DECLARE_CG)
#endif
