#pragma once
// Restarted GMRES(m) on the device (Saad and Schultz, SIAM J. Sci. Stat. Comput. 7(3), 1986).
//
//   araios::SolveResult r = araios::gmres(exec, A, b, x, options);        // m = options.restart
//   araios::SolveResult r = araios::gmres(exec, A, b, x, options, diag);  // Jacobi-preconditioned, any format
//
// Each cycle: r0 = b - A x (the true residual, recomputed at every restart), v_0 = r0/||r0||,
// then m Arnoldi steps, each orthogonalising A v_k against the basis by classical Gram-Schmidt
// applied twice (CGS2, solvers/gmres_steps.hpp), the new Hessenberg column reduced by Givens
// rotations, which give the residual norm |g_{k+1}| of the least-squares problem without
// forming x. At the end of the cycle y = R^-1 g and x = x0 + V y. No preconditioner by
// default; Preconditioner::Jacobi applies D^-1 on the right (A D^-1 u = b, x = D^-1 u), which
// keeps the residual the true one.
//
// The (m+1) x m Hessenberg matrix, the rotations, g and y live in a small device array with
// the other scalars: the reductions write h_jk there, the updates of Gram-Schmidt read it there,
// and the rotations and the triangular solve run on the device. Each Arnoldi step copies back
// two scalars (the residual estimate and a status flag).
//
// On one process, in Fast and Deterministic mode, a step is the product and seven kernels
// whatever k is: three chunk passes over the basis, each with its tree pass, and the division
// that makes the next basis vector (and its preconditioned copy). Fast mode takes these fused
// reductions in the deterministic order too: fused into the updates they read no vector a
// second time, which a separate unordered reduction would. Accurate mode, and a distributed
// operator, run the same arithmetic with one reduction per basis vector and pass.
//
// Stops when ||b - A x|| <= tol ||b|| at a restart, after maxIterations Arnoldi steps in all,
// or, as stagnated, after stagnationCycles consecutive cycles that each reduced the true
// residual by less than the factor stagnationFactor.
#include <araios/detail/light_parallel_for.hpp>
#include <araios/primitives/chunked_multi_dots.hpp>
#include <araios/solvers/diagonal.hpp>
#include <araios/solvers/gmres_steps.hpp>
#include <araios/solvers/solver_support.hpp>

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <optional>
#include <type_traits>

namespace araios {

/// GMRES(m) with the diagonal given (used only with Preconditioner::Jacobi; any format).
template <class ExecSpace, class Operator, class BView, class XView, class DView>
SolveResult gmres(const ExecSpace& exec, const Operator& A, const BView& b, const XView& x,
                  const SolverOptions& options, const DView& diagonal) {
  using Value = typename Operator::value_type;
  using Device = typename Operator::device_type;
  using Vector = Kokkos::View<Value*, Device>;
  using Scalar = DeviceScalar<Value, Device>;
  using Slots = Impl::GmresSlots;
  Kokkos::Timer timer;
  Impl::checkSystem(A, b, x, "GMRES");
  Impl::checkOptions(options, "GMRES");
  if (options.restart < 1) {
    throw InputError("GMRES: restart length " + std::to_string(options.restart) + "; expected at least 1");
  }
  const bool precondition = options.preconditioner == Preconditioner::Jacobi;
  if (precondition) {
    if (diagonal.extent(0) != x.extent(0)) {
      throw InputError("GMRES: the diagonal has " + std::to_string(diagonal.extent(0)) + " entries; expected " +
                       std::to_string(x.extent(0)));
    }
    Impl::SolverContext<Operator>::collectively(
        A, [&] { checkDiagonal(exec, diagonal, false, "GMRES with the Jacobi preconditioner"); });
  }

  const std::int64_t n = static_cast<std::int64_t>(x.extent(0));
  // More basis vectors than unknowns cannot help: the Krylov space is full by then (all the
  // unknowns: A.numRows() counts every rank's rows when A is distributed).
  const int m = static_cast<int>(std::max<std::int64_t>(1, std::min<std::int64_t>(options.restart, A.numRows())));
  const Slots at{m};
  // The basis (m + 1 vectors), r, Ax and z.
  Impl::requireSolverMemory<Value>(exec, static_cast<std::int64_t>(m) + 1 + (precondition ? 3 : 2), n, "GMRES");
  using Basis = Kokkos::View<Value**, Kokkos::LayoutLeft, Device>;
  const Basis V = refuseAllocationFailure(exec, "GMRES (its Krylov basis)", [&] {
    return Basis(Kokkos::view_alloc(Kokkos::WithoutInitializing, "araios::gmres::V"), n, m + 1);
  });
  auto alloc = [&](const char* label) { return Impl::allocateWorkVector<Vector>(exec, n, label, "GMRES"); };
  Vector r = alloc("araios::gmres::r"), t = alloc("araios::gmres::Ax");
  Vector z = precondition ? alloc("araios::gmres::z") : Vector();
  Kokkos::View<Value*, Device> slots("araios::gmres::scalars", at.count());
  auto hostSlots = Kokkos::create_mirror(slots);  // a separate copy even on the host: readScalars writes its start
  auto ws = Impl::SolverContext<Operator>::reduction(A);
  auto column = [&](int j) { return Kokkos::subview(V, Kokkos::ALL, j); };
  // The fused passes need the one-process reduction workspace; Accurate keeps its exact sums.
  constexpr bool oneProcess = std::is_same_v<decltype(ws), ReductionWorkspace<Value, Device>>;
  std::optional<Impl::GmresFusedSteps<Value, Device>> fused;
  if constexpr (oneProcess) {
    if (options.mode != ReductionMode::Accurate) {
      const auto multi = refuseAllocationFailure(exec, "GMRES (its chunk sums)", [&] {
        return Impl::allocateMultiPartials<Value, Device>(n, m, "araios::gmres::partials");
      });
      fused.emplace(V, slots, at, multi, ws.partials);
    }
  }
  // v = u / s(slot), with z = v / d beside it for the next product.
  auto normalize = [&](const auto& u, const auto& v, int slot) {
    Impl::lightParallelFor("araios::gmres::normalize", exec, n,
                           Impl::GmresNormalize<std::decay_t<decltype(u)>, std::decay_t<decltype(v)>, DView, Value, Device>{
                               u, v, diagonal, z, slots, slot, precondition});
  };

  SolveResult result;
  const double bnorm = Impl::hostNorm<Value, Device>(exec, b, options.mode, ws);
  if (bnorm == 0) {
    fill(exec, x, Value(0));
    exec.fence();
    Impl::setStatus(result, SolveStatus::Converged, "b is zero, so x = 0 solves the system");
    result.seconds = timer.seconds();
    return result;
  }
  result.setupSeconds = timer.seconds();

  int cycles = 0, slowCycles = 0;
  double previous = 0;
  bool singular = false;
  while (true) {
    Impl::residual(exec, A, b, x, t, r);
    norm2(exec, r, Scalar{slots, Slots::kBeta}, options.mode, ws);
    readScalars(slots, Slots::kBeta, 1, hostSlots);
    const double measure = static_cast<double>(hostSlots(0)) / bnorm;
    result.residual = measure;
    result.relResidual = measure;
    if (!std::isfinite(measure)) {
      Impl::setStatus(result, SolveStatus::Diverged,
                      "GMRES diverged: the residual became NaN or Inf after " + std::to_string(result.iterations) +
                          " iterations");
      break;
    }
    if (measure <= options.tolerance) {
      Impl::setStatus(result, SolveStatus::Converged,
                      "GMRES(" + std::to_string(m) + ") converged in " + std::to_string(result.iterations) +
                          " iterations (||b - Ax|| / ||b|| = " + Impl::DivergenceMonitor::formatNumber(measure) + ")");
      break;
    }
    if (singular) {
      Impl::setStatus(result, SolveStatus::Breakdown,
                      "GMRES broke down: the Hessenberg matrix became singular (A D^-1 or A is singular on the "
                      "Krylov space); reached ||b - Ax|| / ||b|| = " + Impl::DivergenceMonitor::formatNumber(measure));
      break;
    }
    if (cycles > 0) {
      slowCycles = measure > (1 - options.stagnationFactor) * previous ? slowCycles + 1 : 0;
      if (options.stagnationCycles > 0 && slowCycles >= options.stagnationCycles) {
        Impl::setStatus(result, SolveStatus::Stagnated,
                        "GMRES(" + std::to_string(m) + ") stagnated: " + std::to_string(slowCycles) +
                            " restart cycles in a row reduced the residual by less than a factor " +
                            Impl::DivergenceMonitor::formatNumber(options.stagnationFactor) +
                            "; reached ||b - Ax|| / ||b|| = " + Impl::DivergenceMonitor::formatNumber(measure));
        break;
      }
    }
    if (result.iterations >= options.maxIterations) {
      Impl::setStatus(result, SolveStatus::MaxIterations,
                      "GMRES(" + std::to_string(m) + ") did not converge in " + std::to_string(options.maxIterations) +
                          " iterations; reached ||b - Ax|| / ||b|| = " + Impl::DivergenceMonitor::formatNumber(measure));
      break;
    }
    previous = measure;
    if (cycles++ > 0) ++result.restarts;

    Impl::runOnce("araios::gmres::start", exec, Impl::GmresStartCycle<Value, Device>{slots, at});
    normalize(r, column(0), Slots::kBeta);
    int columns = 0;  // basis vectors whose coefficients y are solved for at the end of the cycle
    for (int k = 0; k < m && result.iterations < options.maxIterations; ++k) {
      const auto w = column(k + 1);
      if (precondition) {
        A.apply(exec, z, w);
      } else {
        A.apply(exec, column(k), w);
      }
      if (fused) {
        fused->orthogonalize(exec, k);
      } else {
        Impl::gmresOrthogonalizeUnfused(exec, V, slots, at, k, options.mode, ws);
      }
      normalize(w, w, Slots::kHNext);  // unused when h_{k+1,k} = 0 ends the cycle
      readScalars(slots, Slots::kEstimate, 2, hostSlots);
      const double estimate = static_cast<double>(hostSlots(0)) / bnorm;
      const int flag = static_cast<int>(hostSlots(1));
      if (flag == 2 || flag == 3) {  // column k cannot be used: solve with the columns before it
        singular = true;
        break;
      }
      columns = k + 1;
      ++result.iterations;
      result.residual = estimate;
      Impl::recordProgress(options, result, result.iterations, estimate);
      if (flag == 1 || estimate <= options.tolerance) break;
    }
    if (columns > 0) {
      Impl::runOnce("araios::gmres::triangle", exec, Impl::GmresSolveTriangle<Value, Device>{slots, at, columns});
      Impl::lightParallelFor("araios::gmres::update_x", exec, n,
                             Impl::GmresUpdateX<decltype(V), XView, DView, Value, Device>{V, x, diagonal, precondition,
                                                                                        slots, at, columns});
    }
  }
  exec.fence();
  result.seconds = timer.seconds();
  return result;
}

/// GMRES(m) without a diagonal (any format); with Preconditioner::Jacobi the diagonal is taken
/// from A (CSR, COO and CSC).
template <class ExecSpace, class Operator, class BView, class XView>
SolveResult gmres(const ExecSpace& exec, const Operator& A, const BView& b, const XView& x,
                  const SolverOptions& options = {}) {
  Impl::checkSystem(A, b, x, "GMRES");
  using Context = Impl::SolverContext<Operator>;
  if (options.preconditioner != Preconditioner::Jacobi) return gmres(exec, A, b, x, options, typename Context::Diagonal());
  return gmres(exec, A, b, x, options, Context::diagonal(exec, A));
}

}  // namespace araios

// The compiled combinations (araios/instantiations.hpp) come from the library.
#ifdef ARAIOS_COMPILED_INSTANTIATIONS
#include <araios/instantiations.hpp>
#include <araios/operator.hpp>
ARAIOS_ETI_FOR_EACH(ARAIOS_ETI_DECLARE_GMRES)
#endif
