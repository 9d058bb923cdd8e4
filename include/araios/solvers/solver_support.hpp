#pragma once
// What the three solvers share: argument checks, the residual b - A x, progress and history,
// the divergence test and the final relative residual.
#include <araios/detail/device_memory.hpp>
#include <araios/error.hpp>
#include <araios/primitives/deterministic_reduce.hpp>
#include <araios/primitives/device_scalar.hpp>
#include <araios/solvers/solve_result.hpp>
#include <araios/solvers/diagonal.hpp>
#include <araios/solvers/solver_options.hpp>
#include <araios/operator.hpp>
#include <araios/vector_ops.hpp>

#include <Kokkos_Core.hpp>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <string>

namespace araios::Impl {

/// What a solver needs to know about where its operator's rows live. This is the one-process
/// case; a distributed operator specialises it (araios/distributed/distributed_solvers.hpp)
/// with reductions over the ranks, so that the solvers' code is the same for both.
template <class Operator>
struct SolverContext {
  using Value = typename Operator::value_type;
  using Device = typename Operator::device_type;
  using Reduction = ReductionWorkspace<Value, Device>;
  using Diagonal = Kokkos::View<Value*, Device>;

  /// The reductions' workspace for vectors of the operator's rows.
  static Reduction reduction(const Operator& A) {
    Reduction ws;
    ws.reserve(A.numRows());
    return ws;
  }
  /// Rows, and entries of every vector, held here.
  static std::int64_t localRows(const Operator& A) { return A.numRows(); }
  /// The maximum of a value over everything that holds rows (here: the value).
  template <class T>
  static T allMax(Reduction&, T value) {
    return value;
  }
  /// Runs a check that may throw; distributed, a failure on one rank is thrown on all.
  template <class Step>
  static void collectively(const Operator&, Step&& step) {
    step();
  }
  /// The diagonal of the rows held here, from the CSR matrix A was built from.
  template <class ExecSpace>
  static Diagonal diagonal(const ExecSpace& exec, const Operator& A) {
    return extractDiagonal(exec, A.csr());
  }
};

template <class Operator, class BView, class XView>
void checkSystem(const Operator& A, const BView& b, const XView& x, const char* who) {
  static_assert(Kokkos::is_view<BView>::value && BView::rank == 1, "b must be a rank-1 Kokkos::View");
  static_assert(Kokkos::is_view<XView>::value && XView::rank == 1, "x must be a rank-1 Kokkos::View");
  static_assert(std::is_same_v<typename XView::value_type, typename Operator::value_type>,
                "x must hold non-const values of the operator's value type");
  if (A.numRows() != A.numCols()) {
    throw InputError(std::string(who) + ": the matrix is " + std::to_string(A.numRows()) + " x " +
                     std::to_string(A.numCols()) + "; expected a square matrix");
  }
  const std::int64_t rows = SolverContext<Operator>::localRows(A);
  if (static_cast<std::int64_t>(b.extent(0)) != rows || static_cast<std::int64_t>(x.extent(0)) != rows) {
    throw InputError(std::string(who) + ": the matrix has " + std::to_string(rows) + " rows here but b has " +
                     std::to_string(b.extent(0)) + " and x " + std::to_string(x.extent(0)) +
                     " entries; expected both of " + std::to_string(rows));
  }
}

/// r = b - A x, with t receiving A x. The product is formed with beta = 0 and the subtraction
/// done apart, so no alpha/beta multiply-add of the SpMV enters the residual.
template <class ExecSpace, class Operator, class BView, class XView, class TView, class RView>
void residual(const ExecSpace& exec, const Operator& A, const BView& b, const XView& x, const TView& t, const RView& r) {
  A.apply(exec, x, t);
  subtract(exec, b, t, r);
}

/// Refuses (OutOfMemoryError) a solver whose work vectors, `vectors` of n values, do not fit
/// the memory of `exec`'s space, before it allocates any.
template <class Value, class ExecSpace>
void requireSolverMemory(const ExecSpace& exec, std::int64_t vectors, std::int64_t n, const char* who) {
  requireMemory(exec, vectors * n * static_cast<std::int64_t>(sizeof(Value)),
                std::string(who) + " on " + groupedDigits(n) + " unknowns (" + std::to_string(vectors) +
                    " work vectors)");
}

/// A work vector of n values; a failed allocation comes out as OutOfMemoryError naming `who`.
template <class Vector, class ExecSpace>
Vector allocateWorkVector(const ExecSpace& exec, std::int64_t n, const std::string& label, const char* who) {
  return refuseAllocationFailure(exec, std::string(who) + " (work vector " + label + ")", [&] {
    return Vector(Kokkos::view_alloc(Kokkos::WithoutInitializing, label), n);
  });
}

inline void checkOptions(const SolverOptions& o, const char* who) {
  if (!(o.tolerance >= 0)) {
    throw InputError(std::string(who) + ": tolerance " + std::to_string(o.tolerance) + "; expected tolerance >= 0");
  }
  if (o.maxIterations < 0) {
    throw InputError(std::string(who) + ": maxIterations " + std::to_string(o.maxIterations) +
                     "; expected maxIterations >= 0");
  }
}

inline void setStatus(SolveResult& result, SolveStatus status, const std::string& message) {
  result.status = status;
  result.converged = status == SolveStatus::Converged;
  result.diverged = status == SolveStatus::Diverged;
  result.message = message;
}

/// History and progress callback, after every iteration.
inline void recordProgress(const SolverOptions& options, SolveResult& result, int iteration, double measure) {
  if (options.recordHistory) result.history.push_back(measure);
  if (options.onProgress) options.onProgress(iteration, measure);
}

/// The divergence test of SolverOptions::divergenceGrowth: NaN or Inf, or growth beyond the
/// factor over the smallest value seen.
class DivergenceMonitor {
 public:
  explicit DivergenceMonitor(double growth) : growth_(growth) {}
  /// An empty string while the measure looks sane; otherwise why the iteration diverged.
  std::string check(double measure, const char* what) {
    if (!std::isfinite(measure)) return std::string(what) + " became NaN or Inf";
    if (measure < smallest_) smallest_ = measure;
    if (smallest_ > 0 && measure > growth_ * smallest_) {
      return std::string(what) + " grew to " + formatNumber(measure) + ", " + formatNumber(measure / smallest_) +
             " times its smallest value " + formatNumber(smallest_);
    }
    return {};
  }
  static std::string formatNumber(double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.3e", v);
    return buf;
  }

 private:
  double growth_;
  double smallest_ = std::numeric_limits<double>::infinity();
};

/// ||b - A x|| / ||b|| (||b - A x|| when b = 0) for the returned x, in the solver's mode;
/// t and r are work vectors of n entries. Synchronises.
template <class ExecSpace, class Operator, class BView, class XView, class Vector, class Reduction>
double finalRelativeResidual(const ExecSpace& exec, const Operator& A, const BView& b, const XView& x, const Vector& t,
                             const Vector& r, double bnorm, const SolverOptions& options, Reduction& ws) {
  using Value = typename Vector::non_const_value_type;
  using Device = typename Vector::device_type;
  residual(exec, A, b, x, t, r);
  Kokkos::View<Value*, Device> slot("araios::solver::final_residual", 1);
  norm2(exec, r, DeviceScalar<Value, Device>{slot, 0}, options.mode, ws);
  exec.fence();
  Value rnorm;
  Kokkos::deep_copy(rnorm, Kokkos::subview(slot, 0));
  return bnorm > 0 ? static_cast<double>(rnorm) / bnorm : static_cast<double>(rnorm);
}

/// ||v|| in the solver's mode, back on the host. Synchronises.
template <class Value, class Device, class ExecSpace, class VView, class Reduction>
double hostNorm(const ExecSpace& exec, const VView& v, ReductionMode mode, Reduction& ws) {
  Kokkos::View<Value*, Device> slot("araios::solver::norm", 1);
  norm2(exec, v, DeviceScalar<Value, Device>{slot, 0}, mode, ws);
  exec.fence();
  Value result;
  Kokkos::deep_copy(result, Kokkos::subview(slot, 0));
  return static_cast<double>(result);
}

}  // namespace araios::Impl
