#pragma once
// How far a computed y is from the long-double reference.
#include <araios/reference_spmv.hpp>

#include <cmath>
#include <cstdint>

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

}  // namespace araios::cli
