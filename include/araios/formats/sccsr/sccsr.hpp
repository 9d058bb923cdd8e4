#pragma once
// SC-CSR (segmented, combined CSR) storage, after Liang, "Research on GPU-based sparse
// matrix-vector multiplication", HUST master's thesis, 2012 (the SC-CSR chapter).
//
// Rows are sorted by length (ascending; ties keep their original order) and split into the
// length classes of sccsr_plan.hpp. Inside a range, every c consecutive sorted rows are
// combined into one merged row, interleaved entry by entry: slot j*c + r of a merged row holds
// entry j of its r-th row. A warp then reads a merged row with consecutive lanes on
// consecutive addresses, whatever the lengths of the original rows. Each row is padded to the
// longest row of its group, and the last group of a range to c rows, with slots of value 0 and
// column paddingColumn. The padding of a row always follows its real entries.
//
// Example: rows of lengths 1, 2, 2 (sorted rows a, b, d) merged with c = 4:
//
//   merged row 0:  slot   0   1   2   3 | 4   5   6   7
//                  entry a0  b0  d0   - | -  b1  d1   -      ('-' = padding, column -1)
//
// rowIndex maps each sorted position back to the original row: the kernels write y through it.
#include <Kokkos_Core.hpp>

#include <cstdint>

namespace araios {

/// One launch of the SC-CSR kernel: a contiguous span of length-sorted rows, merged c at a time.
/// A range is one length class, or several when a short class was folded into the next one.
struct ScCsrRange {
  int mergeFactor = 0;              ///< c: original rows per merged row (32, 16, 8 or 4)
  std::int64_t firstRow = 0;        ///< first sorted position (index into rowIndex)
  std::int64_t numRows = 0;         ///< original rows in the range
  std::int64_t firstMergedRow = 0;  ///< first merged row (index into rowPtr)
  std::int64_t numMergedRows = 0;   ///< ceil(numRows / c)
};

template <class Value, class Ordinal = std::int32_t, class Offset = std::int32_t,
          class Device = Kokkos::DefaultExecutionSpace::device_type>
struct ScCsrMatrix {
  using value_type = Value;
  using ordinal_type = Ordinal;
  using size_type = Offset;
  using device_type = Device;
  using execution_space = typename Device::execution_space;
  using memory_space = typename Device::memory_space;

  /// The column of a padding slot. Negative, so it can never be a real column.
  static constexpr Ordinal paddingColumn = -1;

  Ordinal numRows = 0;
  Ordinal numCols = 0;
  Offset numEntries = 0;                  // real entries (explicit zeros included), padding excluded
  Kokkos::View<Offset*, Device> rowPtr;   // merged rows + 1 entries
  Kokkos::View<Ordinal*, Device> colIdx;  // rowPtr[last] slots, interleaved inside each merged row
  Kokkos::View<Value*, Device> values;
  Kokkos::View<Ordinal*, Device> rowIndex;  // numRows entries: sorted position -> original row
  /// The launch plan, read on the host by the SpMV (one kernel per range).
  Kokkos::View<ScCsrRange*, Kokkos::HostSpace> ranges;

  std::int64_t nnz() const { return numEntries; }
  std::int64_t storedSlots() const { return static_cast<std::int64_t>(values.extent(0)); }
  std::int64_t numMergedRows() const {
    return rowPtr.extent(0) > 0 ? static_cast<std::int64_t>(rowPtr.extent(0)) - 1 : 0;
  }
  std::int64_t bytes() const {
    return static_cast<std::int64_t>(rowPtr.extent(0)) * sizeof(Offset) +
           storedSlots() * static_cast<std::int64_t>(sizeof(Ordinal) + sizeof(Value)) +
           static_cast<std::int64_t>(rowIndex.extent(0)) * sizeof(Ordinal);
  }
};

}  // namespace araios
