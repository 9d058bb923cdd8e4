#pragma once
// CSC (compressed sparse column) storage: the CSR of the transpose. colPtr[j]..colPtr[j+1]
// delimit column j's entries in rowIdx and values, rows sorted within each column.
#include <Kokkos_Core.hpp>

#include <cstdint>

namespace araios {

template <class Value, class Ordinal = std::int32_t, class Offset = std::int32_t,
          class Device = Kokkos::DefaultExecutionSpace::device_type>
struct CscMatrix {
  using value_type = Value;
  using ordinal_type = Ordinal;
  using size_type = Offset;
  using device_type = Device;
  using execution_space = typename Device::execution_space;
  using memory_space = typename Device::memory_space;

  Ordinal numRows = 0;
  Ordinal numCols = 0;
  Kokkos::View<Offset*, Device> colPtr;  // numCols + 1 entries
  Kokkos::View<Ordinal*, Device> rowIdx;
  Kokkos::View<Value*, Device> values;

  KOKKOS_INLINE_FUNCTION Offset nnz() const { return static_cast<Offset>(values.extent(0)); }
  /// No padding: every slot holds a stored entry.
  std::int64_t storedSlots() const { return nnz(); }
  std::int64_t bytes() const {
    return static_cast<std::int64_t>(colPtr.extent(0)) * sizeof(Offset) +
           static_cast<std::int64_t>(nnz()) * (sizeof(Ordinal) + sizeof(Value));
  }
};

}  // namespace araios
