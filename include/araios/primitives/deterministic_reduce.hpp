#pragma once
// Dot products, 2-norms and the max-abs-difference reduction, in three modes:
//
//   Fast           Kokkos::parallel_reduce: the backend picks the order, so the last bits
//                  depend on the backend and the thread count.
//   Deterministic  a summation order fixed by the vector length alone (below), the same on
//                  Serial, OpenMP at any thread count and CUDA: bitwise identical results.
//   Accurate       correctly rounded: every product is added exactly into a long fixed-point
//                  accumulator (primitives/exact_accumulator.hpp, through the floating-point
//                  expansions of primitives/exact_dot.hpp) and rounded once. Also reproducible,
//                  and free of cancellation error.
//
// The deterministic order. The vector is cut into chunks of kDotChunk consecutive elements
// (the last may be shorter). Inside a chunk, lane l (0 <= l < kDotLanes) accumulates the
// elements l, l + kDotLanes, l + 2 kDotLanes, ... in that order with acc = fma(x_i, y_i, acc),
// starting from zero; the kDotLanes lane sums are then added by a fixed pairwise tree
// (lane l += lane l + 16, then l + 8, ..., l + 1). The chunk sums are added by a fixed pairwise
// tree over the chunk index: at level s (s = 1, 2, 4, ...) partial[i] += partial[i + s] for
// every i that is a multiple of 2s with i + s < number of chunks. The order depends on n only;
// how many threads compute the chunks, and in which order, cannot change a bit.
//
// Results go either to a DeviceScalar (no synchronisation: what the solvers use) or, through
// the convenience overloads, back to the host.
#include <araios/error.hpp>
#include <araios/mode.hpp>
#include <araios/primitives/chunked_dots.hpp>
#include <araios/primitives/device_scalar.hpp>
#include <araios/primitives/exact_accumulator.hpp>
#include <araios/primitives/exact_dot.hpp>
#include <araios/primitives/fp.hpp>

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <string>

namespace araios {

namespace Impl {

enum class ReduceTransform { Identity, Sqrt };

template <class Value>
KOKKOS_INLINE_FUNCTION Value applyTransform(Value v, ReduceTransform t) {
  return t == ReduceTransform::Sqrt ? fp::sqrt(v) : v;
}

}  // namespace Impl

/// Device buffers the reductions need, allocated once per solver instead of once per call
/// (an allocation on a GPU synchronises the device).
template <class Value, class Device>
struct ReductionWorkspace {
  Kokkos::View<Value*, Device> partials;
  Kokkos::View<Value, Device> fastResult;
  Kokkos::View<std::int64_t*, Device> exact;  // kLimbs limbs, then kSpecialCount counters

  /// Makes room for vectors of n entries (a no-op when there is room already).
  void reserve(std::int64_t n) {
    const std::int64_t chunks = Impl::dotChunks(n);
    if (static_cast<std::int64_t>(partials.extent(0)) < chunks || !partials.data()) {
      partials = Kokkos::View<Value*, Device>(Kokkos::view_alloc(Kokkos::WithoutInitializing, "araios::dot::partials"),
                                              chunks > 0 ? chunks : 1);
    }
    if (!fastResult.data()) fastResult = Kokkos::View<Value, Device>("araios::dot::fast");
    if (!exact.data()) {
      exact = Kokkos::View<std::int64_t*, Device>("araios::dot::exact",
                                                  Impl::ExactAccumulatorLayout::kLimbs + Impl::kSpecialCount);
    }
  }
};

namespace Impl {

/// The tree pass's finish for one reduction: target = transform(total).
template <class Value, class Device>
struct StoreTotal {
  DeviceScalar<Value, Device> target;
  ReduceTransform transform;
  KOKKOS_INLINE_FUNCTION void operator()(const Value (&totals)[1]) const {
    target.ref() = applyTransform(totals[0], transform);
  }
};

template <class XView, class YView, class Value>
struct FastDotKernel {
  XView x;
  YView y;
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t i, Value& sum) const {
    sum += static_cast<Value>(x(i)) * static_cast<Value>(y(i));
  }
};

template <class Value, class Device>
struct StoreTransformed {
  Kokkos::View<Value, Device> source;
  DeviceScalar<Value, Device> target;
  ReduceTransform transform;
  KOKKOS_INLINE_FUNCTION void operator()(int) const { target.ref() = applyTransform(source(), transform); }
};

template <class Value, class Device>
struct ExactFinalize {
  using L = ExactAccumulatorLayout;
  Kokkos::View<std::int64_t*, Device> exact;
  DeviceScalar<Value, Device> target;
  ReduceTransform transform;

  KOKKOS_INLINE_FUNCTION void operator()(int) const {
    const std::int64_t nan = exact(L::kLimbs + kSpecialNaN);
    const std::int64_t posInf = exact(L::kLimbs + kSpecialPosInf);
    const std::int64_t negInf = exact(L::kLimbs + kSpecialNegInf);
    if (nan > 0 || (posInf > 0 && negInf > 0)) {
      target.ref() = fp::quietNaN<Value>();
      return;
    }
    if (posInf > 0 || negInf > 0) {
      target.ref() = posInf > 0 || transform == ReduceTransform::Sqrt ? fp::infinity<Value>() : -fp::infinity<Value>();
      return;
    }
    std::int64_t limbs[L::kLimbs];
    ARAIOS_ROLLED_LOOP
    for (int k = 0; k < L::kLimbs; ++k) limbs[k] = exact(k);
    normalize(limbs);
    if (transform == ReduceTransform::Sqrt) {
      std::int64_t work[L::kLimbs];
      target.ref() = static_cast<Value>(sqrtRoundToNearest<Value>(limbs, work));
    } else {
      target.ref() = static_cast<Value>(roundSignedToNearest<Value>(limbs));
    }
  }
};

template <class ExecSpace, class XView, class YView, class Value, class Device>
void reduceProducts(const ExecSpace& exec, const XView& x, const YView& y, const DeviceScalar<Value, Device>& target,
                    ReductionMode mode, ReductionWorkspace<Value, Device>& ws, ReduceTransform transform) {
  const std::int64_t n = static_cast<std::int64_t>(x.extent(0));
  ws.reserve(n);
  if (mode == ReductionMode::Fast) {
    Kokkos::parallel_reduce("araios::dot::fast", Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>(exec, 0, n),
                            FastDotKernel<XView, YView, Value>{x, y}, ws.fastResult);
    runOnce("araios::dot::fast_store", exec, StoreTransformed<Value, Device>{ws.fastResult, target, transform});
  } else if (mode == ReductionMode::Deterministic) {
    chunkedDots("araios::dot", exec, n, DotTerms<XView, YView, Value>{x, y}, PartialSums<Value, Device, 1>{ws.partials},
                StoreTotal<Value, Device>{target, transform});
  } else {
    Kokkos::deep_copy(exec, ws.exact, std::int64_t(0));
    addExactDot(exec, x, y, ws.exact, n);
    runOnce("araios::dot::exact_round", exec, ExactFinalize<Value, Device>{ws.exact, target, transform});
  }
}

template <class XView, class YView>
void checkSameLength(const XView& x, const YView& y, const char* what) {
  if (x.extent(0) != y.extent(0)) {
    throw InputError(std::string(what) + ": the vectors have " + std::to_string(x.extent(0)) + " and " +
                                std::to_string(y.extent(0)) + " entries; expected equal lengths");
  }
}

}  // namespace Impl

/// target = x . y, computed on the device in the given mode. Asynchronous.
template <class ExecSpace, class XView, class YView, class Value, class Device>
void dot(const ExecSpace& exec, const XView& x, const YView& y, const DeviceScalar<Value, Device>& target,
         ReductionMode mode, ReductionWorkspace<Value, Device>& ws) {
  Impl::checkSameLength(x, y, "araios::dot");
  Impl::reduceProducts(exec, x, y, target, mode, ws, Impl::ReduceTransform::Identity);
}

/// target = ||x||_2. Deterministic: the square root of the deterministic x . x. Accurate: the
/// correctly rounded square root of the exact sum of squares (no overflow or underflow in
/// between, since that sum is held exactly). Asynchronous.
template <class ExecSpace, class XView, class Value, class Device>
void norm2(const ExecSpace& exec, const XView& x, const DeviceScalar<Value, Device>& target, ReductionMode mode,
           ReductionWorkspace<Value, Device>& ws) {
  Impl::reduceProducts(exec, x, x, target, mode, ws, Impl::ReduceTransform::Sqrt);
}

/// x . y returned to the host (synchronises).
template <class ExecSpace, class XView, class YView>
typename XView::non_const_value_type dot(const ExecSpace& exec, const XView& x, const YView& y,
                                         ReductionMode mode = ReductionMode::Deterministic) {
  using Value = typename XView::non_const_value_type;
  using Device = typename ExecSpace::device_type;
  ReductionWorkspace<Value, Device> ws;
  Kokkos::View<Value*, Device> slot("araios::dot::result", 1);
  dot(exec, x, y, DeviceScalar<Value, Device>{slot, 0}, mode, ws);
  exec.fence();
  Value result;
  Kokkos::deep_copy(result, Kokkos::subview(slot, 0));
  return result;
}

/// ||x||_2 returned to the host (synchronises).
template <class ExecSpace, class XView>
typename XView::non_const_value_type norm2(const ExecSpace& exec, const XView& x,
                                           ReductionMode mode = ReductionMode::Deterministic) {
  using Value = typename XView::non_const_value_type;
  using Device = typename ExecSpace::device_type;
  ReductionWorkspace<Value, Device> ws;
  Kokkos::View<Value*, Device> slot("araios::norm2::result", 1);
  norm2(exec, x, DeviceScalar<Value, Device>{slot, 0}, mode, ws);
  exec.fence();
  Value result;
  Kokkos::deep_copy(result, Kokkos::subview(slot, 0));
  return result;
}

namespace Impl {

template <class AView, class BView, class Value>
struct MaxAbsDiffKernel {
  AView a;
  BView b;
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t i, Value& result) const {
    Value d = fp::abs(static_cast<Value>(a(i)) - static_cast<Value>(b(i)));
    if (!(d <= fp::Traits<Value>::maxFinite)) d = fp::infinity<Value>();  // NaN would vanish in max
    if (d > result) result = d;
  }
};

}  // namespace Impl

/// max_i |a_i - b_i|, returned to the host. A NaN or Inf difference gives +Inf (a NaN would
/// otherwise be dropped or kept depending on the order). The maximum is exact and
/// order-independent, so this is reproducible in every mode.
template <class ExecSpace, class AView, class BView>
typename AView::non_const_value_type maxAbsDiff(const ExecSpace& exec, const AView& a, const BView& b) {
  using Value = typename AView::non_const_value_type;
  Impl::checkSameLength(a, b, "araios::maxAbsDiff");
  if (a.extent(0) == 0) return Value(0);
  Value result = 0;
  Kokkos::parallel_reduce("araios::maxAbsDiff",
                          Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>(exec, 0, a.extent(0)),
                          Impl::MaxAbsDiffKernel<AView, BView, Value>{a, b}, Kokkos::Max<Value>(result));
  return result;
}

}  // namespace araios
