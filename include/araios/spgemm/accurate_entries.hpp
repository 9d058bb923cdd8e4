#pragma once
// Accurate mode's second pass: the entries of C whose expansion could not prove the correctly
// rounded value (written NaN by the numeric kernel) are summed again, each by one thread, in
// the exact fixed-point accumulator (ExactRowSum): the thread walks row i of A and finds column
// j in each row k of B by binary search. Such entries are rare (cancellation to within the
// error bound, results near underflow or overflow, NaN or Inf inputs).
#include <araios/detail/row_sum.hpp>
#include <araios/spgemm/spgemm_views.hpp>

#include <Kokkos_Core.hpp>

#include <cstdint>

namespace araios::Impl {

template <class Value, class Ordinal, class Offset, class ExecSpace>
struct ExactEntries {
  using Device = typename ExecSpace::device_type;
  SpgemmViews<Value, Ordinal, Offset, Device> v;
  Ordinal r0, r1;  ///< the chunk's rows
  Offset cBase;    ///< C's first entry of the chunk

  /// Counts the entries it recomputed.
  KOKKOS_INLINE_FUNCTION void operator()(const Offset q, std::int64_t& recomputed) const {
    const Offset c = cBase + q;
    const Value current = v.cVal(c);
    if (current == current) return;  // decided by the expansion
    // The row of entry c: the last row whose start is <= c.
    Ordinal lo = r0, hi = r1;  // the row lies in [lo, hi)
    while (hi - lo > 1) {
      const Ordinal mid = lo + (hi - lo) / 2;
      if (v.cPtr(mid) <= c) {
        lo = mid;
      } else {
        hi = mid;
      }
    }
    const Ordinal i = lo, j = v.cCol(c);
    ExactRowSum<Value> sum;
    for (Offset p = v.aPtr(i); p < v.aPtr(i + 1); ++p) {
      const Ordinal k = v.aCol(p);
      const Offset qEnd = v.bPtr(k + 1);
      const Offset at = lowerBound(v.bCol, v.bPtr(k), qEnd, j);
      if (at < qEnd && v.bCol(at) == j) sum.add(v.aVal(p), v.bVal(at));
    }
    sum.store(v.cVal, c, Value(1), Value(0));
    recomputed += 1;
  }
};

}  // namespace araios::Impl
