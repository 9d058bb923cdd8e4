#pragma once
// SELL-C-sigma (sliced ELLPACK; Kreutzer, Hager, Wellein, Fehske, Bishop, "A unified sparse
// matrix data format for efficient general sparse matrix-vector multiplication on modern
// processors with wide SIMD units", SIAM J. Sci. Comput. 36(5), 2014; the partitioned JDS of
// Kirk & Hwu, Programming Massively Parallel Processors, section 14.6).
//
// The rows are sorted by length, longest first, within windows of sigma consecutive rows
// (stable: rows of equal length keep their order); perm[p] is the original row at sorted
// position p. The sorted rows are cut into slices of C rows; the last slice is completed with
// empty rows. Each slice is an ELL matrix of its own width, the length of its longest row,
// stored column-major: entry t of the slice's row j sits at slicePtr[s] + t*C + j, so the C
// threads of a slice read C consecutive slots at every step. A row shorter than its slice
// leaves padding slots after its entries: value 0 and column paddingColumn (-1), which the
// kernel never uses as an index. Slice s has width (slicePtr[s+1] - slicePtr[s]) / C.
//
//   A (3 x 4), C = 2, sigma = 3       row lengths 2 1 3   sorted rows (perm): 2 0 1
//   [ a . b . ]                       slice 0 = rows 2, 0: width 3
//   [ . c . . ]                       slice 1 = row 1 and an empty row: width 1
//   [ d e . f ]
//                 slice 0 (t = 0, 1, 2)        slice 1 (t = 0)
//   slicePtr = [0                              6              8]
//   perm     = [2 0 1]
//   colIdx   = [0 0 | 1 2 | 3 *              | 1 *]          (* = paddingColumn)
//   values   = [d a | e b | f 0              | c 0]
//
// storedSlots() = 8 slots for nnz() = 6 nonzeros: a padding ratio of 1.33.
#include <Kokkos_Core.hpp>

#include <cstdint>

namespace araios {

template <class Value, class Ordinal = std::int32_t, class Offset = std::int32_t,
          class Device = Kokkos::DefaultExecutionSpace::device_type>
struct SellMatrix {
  using value_type = Value;
  using ordinal_type = Ordinal;
  using size_type = Offset;
  using device_type = Device;
  using execution_space = typename Device::execution_space;
  using memory_space = typename Device::memory_space;

  /// The column of a padding slot. Real columns are never negative.
  static constexpr Ordinal paddingColumn = -1;

  Ordinal numRows = 0;
  Ordinal numCols = 0;
  Ordinal sliceHeight = 1;        // C: rows per slice
  std::int64_t sortWindow = 1;    // sigma: rows per sorting window, as built
  std::int64_t numNonzeros = 0;   // real nonzeros: storedSlots() less the padding
  Kokkos::View<Offset*, Device> slicePtr;  // numSlices() + 1 entries: first slot of each slice
  Kokkos::View<Ordinal*, Device> perm;     // numRows entries: original row at each sorted position
  Kokkos::View<Ordinal*, Device> colIdx;   // storedSlots() entries, slice after slice
  Kokkos::View<Value*, Device> values;

  std::int64_t numSlices() const { return static_cast<std::int64_t>(slicePtr.extent(0)) - 1; }
  std::int64_t nnz() const { return numNonzeros; }
  std::int64_t storedSlots() const { return static_cast<std::int64_t>(values.extent(0)); }
  std::int64_t bytes() const {
    return static_cast<std::int64_t>(slicePtr.extent(0)) * sizeof(Offset) +
           static_cast<std::int64_t>(perm.extent(0)) * sizeof(Ordinal) +
           storedSlots() * static_cast<std::int64_t>(sizeof(Ordinal) + sizeof(Value));
  }
};

}  // namespace araios
