#pragma once
// Element-wise vector primitives on the device: fill, copy, scale, axpy and friends.
//
//   araios::axpy(exec, alpha, x, y);          // y = alpha*x + y
//
// Every coefficient is either a host value or a DeviceScalar (a slot on the device written by
// a reduction), so a solver never has to bring a scalar back to the host to use it.
// Every element is computed by one thread with one fixed formula, so the result does not
// depend on the backend or the thread count; multiply-adds are explicit fp::fma calls (see
// primitives/fp.hpp for why), which makes them bitwise identical on CPUs and GPUs as well.
// Like every Kokkos kernel, each call is asynchronous with respect to the host. The kernels
// launch through Impl::lightParallelFor: on a GPU a RangePolicy would leave them at about half
// the memory bandwidth (detail/light_parallel_for.hpp says why).
#include <araios/detail/light_parallel_for.hpp>
#include <araios/error.hpp>
#include <araios/primitives/device_scalar.hpp>
#include <araios/primitives/fp.hpp>

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <string>

namespace araios {
namespace Impl {

template <class AView, class BView>
void requireSameLength(const AView& a, const BView& b, const char* what) {
  if (a.extent(0) != b.extent(0)) {
    throw InputError(std::string(what) + ": the vectors have " + std::to_string(a.extent(0)) + " and " +
                     std::to_string(b.extent(0)) + " entries; expected equal lengths");
  }
}

template <class YView, class Value>
struct FillKernel {
  YView y;
  Value value;
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t i) const { y(i) = value; }
};

template <class XView, class YView>
struct CopyKernel {
  XView x;
  YView y;
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t i) const { y(i) = x(i); }
};

template <class XView, class Alpha>
struct ScaleKernel {
  using Value = typename XView::non_const_value_type;
  Alpha alpha;
  XView x;
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t i) const { x(i) = coefficient<Value>(alpha) * x(i); }
};

template <class XView, class YView, class Alpha>
struct AxpyKernel {
  using Value = typename YView::non_const_value_type;
  Alpha alpha;
  XView x;
  YView y;
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t i) const {
    y(i) = fp::fma(coefficient<Value>(alpha), static_cast<Value>(x(i)), y(i));
  }
};

template <class XView, class YView, class Alpha, class Beta>
struct AxpbyKernel {
  using Value = typename YView::non_const_value_type;
  Alpha alpha;
  XView x;
  Beta beta;
  YView y;
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t i) const {
    y(i) = fp::fma(coefficient<Value>(alpha), static_cast<Value>(x(i)), coefficient<Value>(beta) * y(i));
  }
};

template <class XView, class YView, class Beta>
struct XpbyKernel {
  using Value = typename YView::non_const_value_type;
  XView x;
  Beta beta;
  YView y;
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t i) const {
    y(i) = fp::fma(coefficient<Value>(beta), y(i), static_cast<Value>(x(i)));
  }
};

template <class XView, class YView, class Divisor>
struct DivideByScalarKernel {
  using Value = typename YView::non_const_value_type;
  XView x;
  Divisor s;
  YView y;
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t i) const { y(i) = static_cast<Value>(x(i)) / coefficient<Value>(s); }
};

template <class XView, class DView, class YView>
struct DivideElementwiseKernel {
  using Value = typename YView::non_const_value_type;
  XView x;
  DView d;
  YView y;
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t i) const {
    y(i) = static_cast<Value>(x(i)) / static_cast<Value>(d(i));
  }
};

template <class AView, class BView, class YView>
struct SubtractKernel {
  using Value = typename YView::non_const_value_type;
  AView a;
  BView b;
  YView y;
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t i) const {
    y(i) = static_cast<Value>(a(i)) - static_cast<Value>(b(i));
  }
};

}  // namespace Impl

/// y_i = value.
template <class ExecSpace, class YView>
void fill(const ExecSpace& exec, const YView& y, typename YView::non_const_value_type value) {
  Impl::lightParallelFor("araios::fill", exec, static_cast<std::int64_t>(y.extent(0)),
                         Impl::FillKernel<YView, typename YView::non_const_value_type>{y, value});
}

/// y_i = x_i. Works between Views of different layouts (a column of a 2-D View, say).
template <class ExecSpace, class XView, class YView>
void copy(const ExecSpace& exec, const XView& x, const YView& y) {
  Impl::requireSameLength(x, y, "araios::copy");
  Impl::lightParallelFor("araios::copy", exec, static_cast<std::int64_t>(y.extent(0)),
                         Impl::CopyKernel<XView, YView>{x, y});
}

/// x_i = alpha * x_i.
template <class ExecSpace, class Alpha, class XView>
void scale(const ExecSpace& exec, const Alpha& alpha, const XView& x) {
  Impl::lightParallelFor("araios::scale", exec, static_cast<std::int64_t>(x.extent(0)),
                         Impl::ScaleKernel<XView, Alpha>{alpha, x});
}

/// y_i = fma(alpha, x_i, y_i): alpha*x + y with one rounding.
template <class ExecSpace, class Alpha, class XView, class YView>
void axpy(const ExecSpace& exec, const Alpha& alpha, const XView& x, const YView& y) {
  Impl::requireSameLength(x, y, "araios::axpy");
  Impl::lightParallelFor("araios::axpy", exec, static_cast<std::int64_t>(y.extent(0)),
                         Impl::AxpyKernel<XView, YView, Alpha>{alpha, x, y});
}

/// y_i = fma(alpha, x_i, beta * y_i): alpha*x + beta*y.
template <class ExecSpace, class Alpha, class XView, class Beta, class YView>
void axpby(const ExecSpace& exec, const Alpha& alpha, const XView& x, const Beta& beta, const YView& y) {
  Impl::requireSameLength(x, y, "araios::axpby");
  Impl::lightParallelFor("araios::axpby", exec, static_cast<std::int64_t>(y.extent(0)),
                         Impl::AxpbyKernel<XView, YView, Alpha, Beta>{alpha, x, beta, y});
}

/// y_i = fma(beta, y_i, x_i): x + beta*y with one rounding (the CG direction update).
template <class ExecSpace, class XView, class Beta, class YView>
void xpby(const ExecSpace& exec, const XView& x, const Beta& beta, const YView& y) {
  Impl::requireSameLength(x, y, "araios::xpby");
  Impl::lightParallelFor("araios::xpby", exec, static_cast<std::int64_t>(y.extent(0)),
                         Impl::XpbyKernel<XView, YView, Beta>{x, beta, y});
}

/// y_i = x_i / s (a true division, not a multiplication by 1/s, which rounds twice).
template <class ExecSpace, class XView, class Divisor, class YView>
void divide(const ExecSpace& exec, const XView& x, const Divisor& s, const YView& y) {
  Impl::requireSameLength(x, y, "araios::divide");
  Impl::lightParallelFor("araios::divide", exec, static_cast<std::int64_t>(y.extent(0)),
                         Impl::DivideByScalarKernel<XView, YView, Divisor>{x, s, y});
}

/// y_i = x_i / d_i (a diagonal preconditioner).
template <class ExecSpace, class XView, class DView, class YView>
void divideElementwise(const ExecSpace& exec, const XView& x, const DView& d, const YView& y) {
  Impl::requireSameLength(x, y, "araios::divideElementwise");
  Impl::requireSameLength(d, y, "araios::divideElementwise");
  Impl::lightParallelFor("araios::divideElementwise", exec, static_cast<std::int64_t>(y.extent(0)),
                         Impl::DivideElementwiseKernel<XView, DView, YView>{x, d, y});
}

/// y_i = a_i - b_i (a residual b - A x from the product A x).
template <class ExecSpace, class AView, class BView, class YView>
void subtract(const ExecSpace& exec, const AView& a, const BView& b, const YView& y) {
  Impl::requireSameLength(a, y, "araios::subtract");
  Impl::requireSameLength(b, y, "araios::subtract");
  Impl::lightParallelFor("araios::subtract", exec, static_cast<std::int64_t>(y.extent(0)),
                         Impl::SubtractKernel<AView, BView, YView>{a, b, y});
}

}  // namespace araios
