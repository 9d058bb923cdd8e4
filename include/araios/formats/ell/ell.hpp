#pragma once
// ELL (ELLPACK) storage, as used for GPUs by Bell & Garland ("Implementing sparse matrix-vector
// multiplication on throughput-oriented processors", SC '09, section "ELL format").
//
// Every row is padded to `width` slots. Slot t of row r lives at t*numRows + r (column-major),
// so when thread r reads its slot t, neighbouring threads read neighbouring addresses: the
// loads of one-thread-per-row SpMV coalesce on a GPU.
//
// Padding slots hold value 0 and column paddingColumn (-1). A row's padding always follows its
// real entries, so a kernel stops at the first padding slot and never reads x there: an Inf or
// NaN in x reaches only the rows whose real entries use it, as with CSR. An explicit zero that
// the input stores keeps its real column, so it is never mistaken for padding, and the
// entries of a row keep their CSR order (the round trip back to CSR is exact).
//
//   A = [ 1 . 2 ]      numRows 3, width 2 (the longest row)
//       [ . 3 . ]      colIdx = [ 0  1  0 |  2 -1  2 ]   slot 0 of rows 0..2 | slot 1 of rows 0..2
//       [ 4 . 5 ]      values = [ 1  3  4 |  2  0  5 ]
#include <Kokkos_Core.hpp>

#include <cstdint>

namespace araios {

template <class Value, class Ordinal = std::int32_t, class Offset = std::int32_t,
          class Device = Kokkos::DefaultExecutionSpace::device_type>
struct EllMatrix {
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
  Ordinal width = 0;      // slots per row
  Offset numEntries = 0;  // real entries (explicit zeros included), padding excluded
  Kokkos::View<Ordinal*, Device> colIdx;  // numRows * width, column-major
  Kokkos::View<Value*, Device> values;    // numRows * width, column-major

  /// Position of slot t of row `row` in colIdx and values.
  KOKKOS_INLINE_FUNCTION Offset slot(Ordinal row, Ordinal t) const {
    return static_cast<Offset>(t) * static_cast<Offset>(numRows) + static_cast<Offset>(row);
  }

  std::int64_t nnz() const { return numEntries; }
  std::int64_t storedSlots() const { return static_cast<std::int64_t>(numRows) * width; }
  std::int64_t bytes() const { return storedSlots() * static_cast<std::int64_t>(sizeof(Ordinal) + sizeof(Value)); }
};

}  // namespace araios
