#pragma once
// COO (coordinate) storage: one (row, column, value) triple per stored entry.
#include <Kokkos_Core.hpp>

#include <cstdint>

namespace araios {

template <class Value, class Ordinal = std::int32_t, class Offset = std::int32_t,
          class Device = Kokkos::DefaultExecutionSpace::device_type>
struct CooMatrix {
  using value_type = Value;
  using ordinal_type = Ordinal;
  using size_type = Offset;
  using device_type = Device;
  using execution_space = typename Device::execution_space;
  using memory_space = typename Device::memory_space;

  Ordinal numRows = 0;
  Ordinal numCols = 0;
  Kokkos::View<Ordinal*, Device> rowIdx;
  Kokkos::View<Ordinal*, Device> colIdx;
  Kokkos::View<Value*, Device> values;
  /// Optional (numRows + 1 entries or none): row offsets, set when the entries are sorted by
  /// row, as cooFromCsr and cooFromHost (for a row-sorted, not hypersparse host matrix) make
  /// them: row i's entries are then rowPtr[i]..rowPtr[i+1]-1. The deterministic and accurate
  /// SpMV use it to find each row's entries; without it they sort the entries by row on every
  /// call.
  /// Not counted in bytes(): it is a cache (shared with the CSR it came from, for cooFromCsr).
  Kokkos::View<Offset*, Device> rowPtr = {};

  Offset nnz() const { return static_cast<Offset>(values.extent(0)); }
  /// No padding: every slot holds a stored entry.
  std::int64_t storedSlots() const { return nnz(); }
  /// Bytes held by the arrays.
  std::int64_t bytes() const {
    return static_cast<std::int64_t>(nnz()) * (2 * sizeof(Ordinal) + sizeof(Value));
  }
};

}  // namespace araios
