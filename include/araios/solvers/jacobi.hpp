#pragma once
// Jacobi iteration on the device: x_{k+1} = B x_k + f with B = I - D^-1 A and f = D^-1 b,
// computed as x_{k+1} = x_k + D^-1 (b - A x_k) (the same map; it needs only A x_k from the
// SpMV, so any Araios format serves as the operator).
//
//   araios::SolveResult r = araios::jacobi(exec, A, b, x, options);        // A: an SpmvOperator
//   araios::SolveResult r = araios::jacobi(exec, A, b, x, options, diag);  // your own diagonal
//
// As in the thesis this follows, the iteration stays on the device: two solution buffers
// alternate roles, one fused kernel forms x_{k+1} and reduces max_i |x_{k+1,i} - x_{k,i}|, and
// only that scalar comes back to test convergence (max is exact, so the test is reproducible
// in every mode). A zero or missing diagonal entry is refused before iterating, naming the
// row. Divergence (NaN, Inf, or growth of max |dx| by SolverOptions::divergenceGrowth) is
// reported as such; x then holds the iterate before the failing step, never a solution.
//
// Convergence of Jacobi needs the spectral radius of B below 1, and the test bounds only the
// step, not the error: with rho(B) close to 1 the error is about max |dx| / (1 - rho). The
// result therefore also reports the true relative residual of the returned x.
#include <araios/solvers/diagonal.hpp>
#include <araios/solvers/solver_support.hpp>

#include <Kokkos_Core.hpp>

#include <utility>

namespace araios {
namespace Impl {

template <class Vector, class BView, class DView>
struct JacobiSweep {
  using Value = typename Vector::non_const_value_type;
  Vector current, next, product;
  BView b;
  DView d;
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t i, Value& maxStep) const {
    const Value old = current(i);
    const Value updated = old + (static_cast<Value>(b(i)) - product(i)) / static_cast<Value>(d(i));
    next(i) = updated;
    Value step = fp::abs(updated - old);
    if (!(step <= fp::Traits<Value>::maxFinite)) step = fp::infinity<Value>();  // NaN must not vanish in max
    if (step > maxStep) maxStep = step;
  }
};

}  // namespace Impl

/// Jacobi with the diagonal given (any format). x holds the initial guess on entry.
template <class ExecSpace, class Operator, class BView, class XView, class DView>
SolveResult jacobi(const ExecSpace& exec, const Operator& A, const BView& b, const XView& x, const SolverOptions& options,
                   const DView& diagonal) {
  using Value = typename Operator::value_type;
  using Device = typename Operator::device_type;
  using Vector = Kokkos::View<Value*, Device>;
  Kokkos::Timer timer;
  Impl::checkSystem(A, b, x, "Jacobi");
  Impl::checkOptions(options, "Jacobi");
  if (diagonal.extent(0) != x.extent(0)) {
    throw InputError("Jacobi: the diagonal has " + std::to_string(diagonal.extent(0)) + " entries; expected " +
                     std::to_string(x.extent(0)));
  }
  Impl::SolverContext<Operator>::collectively(A, [&] { checkDiagonal(exec, diagonal, false, "Jacobi"); });

  const std::int64_t n = static_cast<std::int64_t>(x.extent(0));
  Impl::requireSolverMemory<Value>(exec, 3, n, "Jacobi");
  Vector current = Impl::allocateWorkVector<Vector>(exec, n, "araios::jacobi::x_a", "Jacobi");
  Vector next = Impl::allocateWorkVector<Vector>(exec, n, "araios::jacobi::x_b", "Jacobi");
  Vector product = Impl::allocateWorkVector<Vector>(exec, n, "araios::jacobi::Ax", "Jacobi");
  auto ws = Impl::SolverContext<Operator>::reduction(A);
  copy(exec, x, current);
  const double bnorm = Impl::hostNorm<Value, Device>(exec, b, options.mode, ws);

  SolveResult result;
  result.setupSeconds = timer.seconds();
  Impl::DivergenceMonitor divergence(options.divergenceGrowth);
  Impl::setStatus(result, SolveStatus::MaxIterations,
                  "Jacobi did not converge in " + std::to_string(options.maxIterations) + " iterations");
  using Policy = Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>;
  for (int k = 1; k <= options.maxIterations; ++k) {
    A.apply(exec, current, product);
    Value step = 0;
    Kokkos::parallel_reduce("araios::jacobi::sweep", Policy(exec, 0, n),
                            Impl::JacobiSweep<Vector, BView, DView>{current, next, product, b, diagonal},
                            Kokkos::Max<Value>(step));
    if (n == 0) step = 0;
    step = Impl::SolverContext<Operator>::allMax(ws, step);
    result.iterations = k;
    result.residual = static_cast<double>(step);
    Impl::recordProgress(options, result, k, result.residual);
    const std::string why = divergence.check(result.residual, "max |x_{k+1} - x_k|");
    if (!why.empty()) {
      // `current` still holds x_k, the iterate before the failing step.
      Impl::setStatus(result, SolveStatus::Diverged, "Jacobi diverged at iteration " + std::to_string(k) + ": " + why);
      break;
    }
    std::swap(current, next);
    if (result.residual < options.tolerance) {
      Impl::setStatus(result, SolveStatus::Converged,
                      "Jacobi converged in " + std::to_string(k) + " iterations (max |dx| = " +
                          Impl::DivergenceMonitor::formatNumber(result.residual) + ")");
      break;
    }
  }
  copy(exec, current, x);
  result.relResidual = Impl::finalRelativeResidual(exec, A, b, x, product, next, bnorm, options, ws);
  result.seconds = timer.seconds();
  return result;
}

/// Jacobi with the diagonal taken from the CSR matrix A was built from.
template <class ExecSpace, class Operator, class BView, class XView>
SolveResult jacobi(const ExecSpace& exec, const Operator& A, const BView& b, const XView& x,
                   const SolverOptions& options = {}) {
  Impl::checkSystem(A, b, x, "Jacobi");
  return jacobi(exec, A, b, x, options, Impl::SolverContext<Operator>::diagonal(exec, A));
}

}  // namespace araios

// The compiled combinations (araios/instantiations.hpp) come from the library.
#ifdef ARAIOS_COMPILED_INSTANTIATIONS
#include <araios/instantiations.hpp>
#include <araios/operator.hpp>
ARAIOS_ETI_FOR_EACH(ARAIOS_ETI_DECLARE_JACOBI)
#endif
