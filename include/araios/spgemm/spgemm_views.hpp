#pragma once
// The Views the SpGEMM kernels read and write, gathered once so that every kernel takes the
// same few members: A's and B's arrays (read only) and C's (written).
#include <araios/formats/csr/csr.hpp>

#include <Kokkos_Core.hpp>

#include <cstdint>

namespace araios::Impl {

template <class Value, class Ordinal, class Offset, class Device>
struct SpgemmViews {
  Kokkos::View<const Offset*, Device> aPtr;
  Kokkos::View<const Ordinal*, Device> aCol;
  Kokkos::View<const Value*, Device> aVal;
  Kokkos::View<const Offset*, Device> bPtr;
  Kokkos::View<const Ordinal*, Device> bCol;
  Kokkos::View<const Value*, Device> bVal;
  Kokkos::View<Offset*, Device> cPtr;
  Kokkos::View<Ordinal*, Device> cCol;
  Kokkos::View<Value*, Device> cVal;

  SpgemmViews() = default;
  SpgemmViews(const CsrMatrix<Value, Ordinal, Offset, Device>& a, const CsrMatrix<Value, Ordinal, Offset, Device>& b,
              const CsrMatrix<Value, Ordinal, Offset, Device>& c)
      : aPtr(a.rowPtr), aCol(a.colIdx), aVal(a.values), bPtr(b.rowPtr), bCol(b.colIdx), bVal(b.values),
        cPtr(c.rowPtr), cCol(c.colIdx), cVal(c.values) {}
};

/// The first position in sorted cols[begin, end) whose column is >= j (end if none).
template <class ColView, class Offset, class Ordinal>
KOKKOS_INLINE_FUNCTION Offset lowerBound(const ColView& cols, Offset begin, Offset end, Ordinal j) {
  while (begin < end) {
    const Offset mid = begin + (end - begin) / 2;
    if (cols(mid) < j) {
      begin = mid + 1;
    } else {
      end = mid;
    }
  }
  return begin;
}

/// The same over a raw array (on-chip memory), without branches on the data: the search
/// halves a window by a conditional move, so its cost does not depend on predicting the
/// comparisons (random columns defeat a CPU's branch predictor at every step).
template <class Ordinal>
KOKKOS_INLINE_FUNCTION int lowerBound(const Ordinal* cols, int n, Ordinal j) {
  if (n == 0) return 0;
  const Ordinal* base = cols;
  int length = n;
  while (length > 1) {
    const int half = length / 2;
    base += half * static_cast<int>(base[half - 1] < j);  // arithmetic, so no branch is emitted
    length -= half;
  }
  return static_cast<int>(base - cols) + (*base < j ? 1 : 0);
}

}  // namespace araios::Impl
