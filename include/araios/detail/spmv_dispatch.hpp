#pragma once
// The one dispatch point of y = alpha*A*x + beta*y. araios::spmv() checks its arguments and
// calls Impl::Spmv<ExecSpace, Matrix>::apply. Each format specialises Impl::Spmv with its
// portable Kokkos kernels (formats/<fmt>/<fmt>_spmv.hpp); a backend adds a more specialised
// partial specialisation only where it measurably wins (backends/<backend>/).
#include <araios/detail/host_space.hpp>
#include <araios/detail/light_parallel_for.hpp>
#include <araios/error.hpp>
#include <araios/mode.hpp>
#include <araios/spmv_options.hpp>

#include <Kokkos_Core.hpp>

#include <cmath>
#include <cstdint>
#include <string>
#include <type_traits>
#include <utility>

namespace araios {

namespace Impl {

/// Specialised by every format: a static
///   apply(exec, A, x, y, alpha, beta, const SpmvOptions&, const Kokkos::View<Value*, Device>& work)
/// and, for a format whose product keeps values between passes, a static
///   std::int64_t workspaceValues(const Matrix&)
/// or, where only some of its algorithms need it,
///   std::int64_t workspaceValues(const Matrix&, SpmvAlgorithm)
/// giving how many values `work` must hold (none otherwise). The workspace belongs to the
/// caller (SpmvOperator keeps one; araios::spmv allocates one per call), never to the matrix,
/// so two products on one matrix can run at once.
template <class ExecSpace, class Matrix>
struct Spmv;

template <class SpmvImpl, class Matrix, class = void>
struct HasWorkspace : std::false_type {};
template <class SpmvImpl, class Matrix>
struct HasWorkspace<SpmvImpl, Matrix, std::void_t<decltype(SpmvImpl::workspaceValues(std::declval<const Matrix&>()))>>
    : std::true_type {};

template <class SpmvImpl, class Matrix, class = void>
struct HasAlgorithmWorkspace : std::false_type {};
template <class SpmvImpl, class Matrix>
struct HasAlgorithmWorkspace<SpmvImpl, Matrix,
                             std::void_t<decltype(SpmvImpl::workspaceValues(std::declval<const Matrix&>(),
                                                                            SpmvAlgorithm::Auto))>> : std::true_type {};

/// Values of workspace the product on A with `algorithm` needs on ExecSpace (0 for most formats).
template <class ExecSpace, class Matrix>
std::int64_t spmvWorkspaceValues(const Matrix& A, SpmvAlgorithm algorithm = SpmvAlgorithm::Auto) {
  if constexpr (HasAlgorithmWorkspace<Spmv<ExecSpace, Matrix>, Matrix>::value) {
    return Spmv<ExecSpace, Matrix>::workspaceValues(A, algorithm);
  } else if constexpr (HasWorkspace<Spmv<ExecSpace, Matrix>, Matrix>::value) {
    return Spmv<ExecSpace, Matrix>::workspaceValues(A);
  } else {
    return 0;
  }
}

/// Refuses a workspace smaller than the product needs (a caller's own buffer, say).
template <class WorkView>
void checkWorkspace(const WorkView& work, std::int64_t needed, const char* format) {
  if (static_cast<std::int64_t>(work.extent(0)) < needed) {
    throw InputError(std::string(format) + " SpMV: the workspace holds " + std::to_string(work.extent(0)) +
                     " values; expected at least " + std::to_string(needed) +
                     " (araios::spmvWorkspaceValues gives the size)");
  }
}

/// a*b + c rounded once, on every backend. Compilers contract a*b + c into a fused
/// multiply-add or not depending on the target and on how the code was inlined (nvcc by
/// default, g++ only with FMA targets), which changes the last bit; spelling the fma out makes
/// the result the same everywhere.
template <class T>
KOKKOS_INLINE_FUNCTION T fusedMultiplyAdd(T a, T b, T c) {
#ifdef __CUDA_ARCH__
  return ::fma(a, b, c);
#else
  return std::fma(a, b, c);
#endif
}

/// a*b rounded on its own, never fused with a following addition into an FMA. nvcc contracts
/// a*b + c into an FMA by default (and a host compiler does under -march=native unless
/// -ffp-contract=off, which the araios CMake target imposes on every TU that uses it); the
/// __dmul_rn/__fmul_rn intrinsics are documented never to be contracted, so the device rounds
/// exactly as the host does.
template <class Value>
KOKKOS_INLINE_FUNCTION Value unfusedProduct(Value a, Value b) {
#if defined(__CUDA_ARCH__)
  if constexpr (std::is_same_v<Value, double>) {
    return __dmul_rn(a, b);
  } else if constexpr (std::is_same_v<Value, float>) {
    return __fmul_rn(a, b);
  } else {
    return a * b;
  }
#else
  return a * b;
#endif
}

/// a + b, rounded once; on a device through the intrinsics that are never contracted either.
template <class Value>
KOKKOS_INLINE_FUNCTION Value unfusedSum(Value a, Value b) {
#if defined(__CUDA_ARCH__)
  if constexpr (std::is_same_v<Value, double>) {
    return __dadd_rn(a, b);
  } else if constexpr (std::is_same_v<Value, float>) {
    return __fadd_rn(a, b);
  } else {
    return a + b;
  }
#else
  return a + b;
#endif
}

/// acc = acc + a*b with the product and the sum each rounded: the step of every deterministic
/// SpMV kernel. Spelled out so that no backend can fuse it.
template <class Value>
KOKKOS_INLINE_FUNCTION void accumulateProduct(Value& acc, Value a, Value b) {
  acc = unfusedSum(acc, unfusedProduct(a, b));
}

/// What every deterministic accumulator starts from and every padding slot holds: -0.0, the
/// exact identity of addition (-0 + v == v for every v, +0 and -0 included; +0 + -0 is +0).
/// A sum seeded with it equals the sum of its terms alone, so where the lanes or blocks of a
/// kernel split a row cannot show in the sign of a zero result. A row with no entries sums
/// to -0.0.
template <class Value>
KOKKOS_INLINE_FUNCTION Value sumIdentity() {
  return -Value(0);
}

/// The one formula that applies alpha and beta: y_i = fma(alpha, sum, beta*y_i). When beta is
/// zero, y_i = alpha*sum is written without reading y_i, so a y holding NaN or Inf does not
/// leak into the result (and the kernel saves the read).
template <class YView, class Index, class Value>
KOKKOS_INLINE_FUNCTION void storeRow(const YView& y, Index i, Value sum, Value alpha, Value beta) {
  if (beta == Value(0)) {
    y(i) = alpha * sum;
  } else {
    y(i) = fusedMultiplyAdd(alpha, sum, beta * static_cast<Value>(y(i)));
  }
}

template <class YView>
struct ScaleByBeta {
  YView y;
  typename YView::non_const_value_type beta;
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t i) const {
    y(i) = beta == 0 ? typename YView::non_const_value_type(0) : beta * y(i);
  }
};

/// y = beta*y (y = 0 when beta is zero): the first step of the kernels that scatter into y.
template <class ExecSpace, class YView>
void scaleByBeta(const ExecSpace& exec, const YView& y, typename YView::non_const_value_type beta) {
  lightParallelFor("araios::spmv::scaleByBeta", exec, static_cast<std::int64_t>(y.extent(0)),
                   ScaleByBeta<YView>{y, beta});
}

inline void refuseAlgorithm(SpmvAlgorithm algorithm, const char* format) {
  throw UnsupportedError(std::string("SpMV algorithm '") + toString(algorithm) + "' does not apply to the " +
                         format + " format; expected auto");
}

}  // namespace Impl
}  // namespace araios
