#pragma once
// How far a computed y is from the long-double reference.
#include <araios/reference_spmv.hpp>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>

namespace araios::cli {

struct Accuracy {
  /// max_i |y_i - ref_i| / |ref_i|; a row whose reference is exactly zero is measured against
  /// its magnitude sum_j |a_ij x_j| instead, so cancellation does not divide by zero.
  double maxRelError = 0;
  /// Whether every row lies within the rounding-error bound that any summation order meets.
  bool withinBound = true;
};

template <class Value, class HostY>
Accuracy measureAccuracy(const ReferenceSpmv& ref, const HostY& y) {
  Accuracy a;
  for (std::size_t i = 0; i < ref.y.size(); ++i) {
    const long double err = std::fabs(static_cast<long double>(y(i)) - ref.y[i]);
    const long double scale = ref.y[i] != 0 ? std::fabs(ref.y[i]) : ref.magnitude[i];
    const long double rel = scale > 0 ? err / scale : err;
    if (rel > a.maxRelError || std::isnan(static_cast<double>(rel))) a.maxRelError = static_cast<double>(rel);
    if (!(err <= spmvErrorBound<Value>(ref.rowLength[i], ref.magnitude[i]))) a.withinBound = false;
  }
  return a;
}

/// Units in the last place between two values of the same type (the number of representable
/// values between them); NaN against anything else counts as the largest distance.
template <class Value>
std::int64_t ulpDistance(Value a, Value b) {
  if (std::isnan(a) || std::isnan(b)) return std::isnan(a) && std::isnan(b) ? 0 : std::numeric_limits<std::int64_t>::max();
  using Bits = std::conditional_t<sizeof(Value) == 8, std::int64_t, std::int32_t>;
  Bits ia, ib;
  std::memcpy(&ia, &a, sizeof a);
  std::memcpy(&ib, &b, sizeof b);
  // Map the sign-magnitude encoding onto a monotonic integer line.
  if (ia < 0) ia = std::numeric_limits<Bits>::min() - ia;
  if (ib < 0) ib = std::numeric_limits<Bits>::min() - ib;
  const std::int64_t d = static_cast<std::int64_t>(ia) - static_cast<std::int64_t>(ib);
  return d < 0 ? -d : d;
}

}  // namespace araios::cli
