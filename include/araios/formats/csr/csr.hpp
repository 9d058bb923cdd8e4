#pragma once
// CSR (compressed sparse row) storage: rowPtr[i]..rowPtr[i+1] delimit row i's entries in
// colIdx and values. Columns are sorted within each row when built by Araios.
#include <Kokkos_Core.hpp>

#include <cstdint>

namespace araios {

template <class Value, class Ordinal = std::int32_t, class Offset = std::int32_t,
          class Device = Kokkos::DefaultExecutionSpace::device_type>
struct CsrMatrix {
  using value_type = Value;
  using ordinal_type = Ordinal;
  using size_type = Offset;
  using device_type = Device;
  using execution_space = typename Device::execution_space;
  using memory_space = typename Device::memory_space;

  Ordinal numRows = 0;
  Ordinal numCols = 0;
  Kokkos::View<Offset*, Device> rowPtr;  // numRows + 1 entries
  Kokkos::View<Ordinal*, Device> colIdx;
  Kokkos::View<Value*, Device> values;

  /// Callable in kernels too.
  KOKKOS_INLINE_FUNCTION Offset nnz() const { return static_cast<Offset>(values.extent(0)); }
  /// No padding: every slot holds a stored entry.
  std::int64_t storedSlots() const { return nnz(); }
  std::int64_t bytes() const {
    return static_cast<std::int64_t>(rowPtr.extent(0)) * sizeof(Offset) +
           static_cast<std::int64_t>(nnz()) * (sizeof(Ordinal) + sizeof(Value));
  }
};

}  // namespace araios
