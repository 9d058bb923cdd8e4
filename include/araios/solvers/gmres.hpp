#pragma once
// Restarted GMRES(m) on the device (Saad and Schultz, SIAM J. Sci. Stat. Comput. 7(3), 1986).
//
//   araios::SolveResult r = araios::gmres(exec, A, b, x, options);        // m = options.restart
//   araios::SolveResult r = araios::gmres(exec, A, b, x, options, diag);  // Jacobi-preconditioned, any format
//
// Each cycle: r0 = b - A x (the true residual, recomputed at every restart), v_0 = r0/||r0||,
// then m Arnoldi steps with modified Gram-Schmidt (optionally a second pass, reorthogonalize),
// the new Hessenberg column reduced by Givens rotations, which give the residual norm
// |g_{k+1}| of the least-squares problem without forming x. At the end of the cycle
// y = R^-1 g and x = x0 + V y. No preconditioner by default; Preconditioner::Jacobi applies
// D^-1 on the right (A D^-1 u = b, x = D^-1 u), which keeps the residual the true one.
//
// The (m+1) x m Hessenberg matrix, the rotations, g and y live in a small device array with
// the other scalars: the reductions write h_jk there, the axpys of Gram-Schmidt read it
// there, and one-thread kernels apply the rotations and solve the triangular system. Each
// Arnoldi step copies back two scalars (the residual estimate and a status flag).
//
// Stops when ||b - A x|| <= tol ||b|| at a restart, after maxIterations Arnoldi steps in all,
// or, as stagnated, after stagnationCycles consecutive cycles that each reduced the true
// residual by less than the factor stagnationFactor.
#include <araios/detail/light_parallel_for.hpp>
#include <araios/solvers/diagonal.hpp>
#include <araios/solvers/solver_support.hpp>

#include <Kokkos_Core.hpp>

#include <algorithm>

namespace araios {
namespace Impl {

/// Where each GMRES scalar lives in the device array.
struct GmresSlots {
  // An enum, not static constexpr members: View::operator() takes its index by reference,
  // which would make nvcc look for the members' storage in device code.
  enum : int {
    kBeta = 0,      ///< ||r0|| of the cycle
    kEstimate = 1,  ///< |g_{k+1}|: read by the host with kFlag
    kFlag = 2,      ///< 0 ok, 1 happy breakdown (h_{k+1,k} = 0), 2 singular, 3 NaN/Inf
    kHNext = 3,     ///< ||w||, before it becomes h_{k+1,k}
    kHeader = 4,
  };
  int m;
  KOKKOS_INLINE_FUNCTION int h(int i, int j) const { return kHeader + i + j * (m + 1); }
  KOKKOS_INLINE_FUNCTION int cs(int i) const { return kHeader + (m + 1) * m + i; }
  KOKKOS_INLINE_FUNCTION int sn(int i) const { return cs(m) + i; }
  KOKKOS_INLINE_FUNCTION int g(int i) const { return sn(m) + i; }    // m + 1 entries
  KOKKOS_INLINE_FUNCTION int y(int i) const { return g(m + 1) + i; }
  KOKKOS_INLINE_FUNCTION int reorth(int i) const { return y(m) + i; }  // second-pass coefficients
  int count() const { return reorth(m); }
};

template <class Value, class Device>
struct GmresStartCycle {
  Kokkos::View<Value*, Device> s;
  GmresSlots at;
  KOKKOS_INLINE_FUNCTION void operator()(int) const {
    s(at.g(0)) = s(GmresSlots::kBeta);
    for (int i = 1; i <= at.m; ++i) s(at.g(i)) = 0;
  }
};

template <class Value, class Device>
struct GmresAddReorthogonalization {
  Kokkos::View<Value*, Device> s;
  GmresSlots at;
  int k;
  KOKKOS_INLINE_FUNCTION void operator()(int) const {
    for (int j = 0; j <= k; ++j) s(at.h(j, k)) = s(at.h(j, k)) + s(at.reorth(j));
  }
};

/// Applies the previous rotations to column k, makes the rotation that zeroes h_{k+1,k}, and
/// updates g. Only +, *, /, sqrt and fma: the same bits on every backend (hypot is not
/// correctly rounded and differs between libraries, so the norm of (a, b) is formed here).
template <class Value, class Device>
struct GmresGivens {
  Kokkos::View<Value*, Device> s;
  GmresSlots at;
  int k;
  KOKKOS_INLINE_FUNCTION void operator()(int) const {
    const Value hNext = s(GmresSlots::kHNext);
    for (int i = 0; i < k; ++i) {
      const Value c = s(at.cs(i)), sn = s(at.sn(i));
      const Value a = s(at.h(i, k)), b = s(at.h(i + 1, k));
      s(at.h(i, k)) = fp::fma(c, a, sn * b);
      s(at.h(i + 1, k)) = fp::fma(c, b, -(sn * a));
    }
    const Value a = s(at.h(k, k));
    const Value b = hNext;
    Value c = 1, sn = 0, r = a;
    if (b != 0) {
      // Scaled so that the squares can neither overflow nor underflow.
      const Value scale = fp::abs(a) > fp::abs(b) ? fp::abs(a) : fp::abs(b);
      const Value as = a / scale, bs = b / scale;
      r = scale * fp::sqrt(fp::fma(as, as, bs * bs));
      c = a / r;
      sn = b / r;
    }
    s(at.cs(k)) = c;
    s(at.sn(k)) = sn;
    s(at.h(k, k)) = r;
    s(at.h(k + 1, k)) = 0;
    const Value gk = s(at.g(k));
    s(at.g(k)) = c * gk;
    s(at.g(k + 1)) = -(sn * gk);
    s(GmresSlots::kEstimate) = fp::abs(s(at.g(k + 1)));
    if (!fp::isFinite(r) || !fp::isFinite(s(GmresSlots::kEstimate))) {
      s(GmresSlots::kFlag) = 3;
    } else if (r == 0) {
      s(GmresSlots::kFlag) = 2;
    } else {
      s(GmresSlots::kFlag) = b == 0 ? 1 : 0;
    }
  }
};

/// y = R^-1 g for the leading k x k triangle, back substitution in a fixed order.
template <class Value, class Device>
struct GmresSolveTriangle {
  Kokkos::View<Value*, Device> s;
  GmresSlots at;
  int k;
  KOKKOS_INLINE_FUNCTION void operator()(int) const {
    for (int i = k - 1; i >= 0; --i) {
      Value sum = s(at.g(i));
      for (int j = k - 1; j > i; --j) sum = fp::fma(-s(at.h(i, j)), s(at.y(j)), sum);
      s(at.y(i)) = sum / s(at.h(i, i));
    }
  }
};

/// x_i += (V y)_i, or x_i += (V y)_i / d_i with the right preconditioner. (V y)_i is summed
/// over the basis in order j = 0, 1, ... by one thread.
template <class Basis, class XView, class DView, class Value, class Device>
struct GmresUpdateX {
  Basis V;
  XView x;
  DView d;
  bool precondition;
  Kokkos::View<Value*, Device> s;
  GmresSlots at;
  int k;
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t i) const {
    Value u = 0;
    for (int j = 0; j < k; ++j) u = fp::fma(V(i, j), s(at.y(j)), u);
    x(i) = x(i) + (precondition ? u / static_cast<Value>(d(i)) : u);
  }
};

}  // namespace Impl

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
    divide(exec, r, Scalar{slots, Slots::kBeta}, column(0));
    int columns = 0;  // basis vectors whose coefficients y are solved for at the end of the cycle
    for (int k = 0; k < m && result.iterations < options.maxIterations; ++k) {
      const auto w = column(k + 1);
      if (precondition) {
        divideElementwise(exec, column(k), diagonal, z);
        A.apply(exec, z, w);
      } else {
        A.apply(exec, column(k), w);
      }
      for (int j = 0; j <= k; ++j) {  // modified Gram-Schmidt: w is updated before the next dot
        const Scalar h{slots, at.h(j, k)};
        dot(exec, w, column(j), h, options.mode, ws);
        axpy(exec, h.negated(), column(j), w);
      }
      if (options.reorthogonalize) {
        for (int j = 0; j <= k; ++j) {
          const Scalar c{slots, at.reorth(j)};
          dot(exec, w, column(j), c, options.mode, ws);
          axpy(exec, c.negated(), column(j), w);
        }
        Impl::runOnce("araios::gmres::reorth", exec, Impl::GmresAddReorthogonalization<Value, Device>{slots, at, k});
      }
      norm2(exec, w, Scalar{slots, Slots::kHNext}, options.mode, ws);
      Impl::runOnce("araios::gmres::givens", exec, Impl::GmresGivens<Value, Device>{slots, at, k});
      divide(exec, w, Scalar{slots, Slots::kHNext}, w);  // unused when h_{k+1,k} = 0 ends the cycle
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
