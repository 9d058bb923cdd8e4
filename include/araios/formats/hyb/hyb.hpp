#pragma once
// HYB storage: ELL + COO (Bell & Garland, "Implementing sparse matrix-vector multiplication
// on throughput-oriented processors", SC '09, section "Hybrid format"). The ELL part holds the
// first K entries of every row (K = ell.width, chosen from the row-length histogram: see
// hyb_convert.hpp); the COO part holds the rest, sorted by row and, within a row, in CSR
// order. Rows up to K entries long get the coalesced one-thread-per-row ELL kernel; the few
// longer rows no longer force every other row to pad up to them.
//
//   A = [ 1 2 3 ]      K = 1
//       [ 4 . . ]      ell.colIdx = [ 0  0 -1 ]   ell.values = [ 1  4  0 ]
//       [ . . . ]      coo.rowIdx = [ 0  0 ]      coo.colIdx = [ 1  2 ]     coo.values = [ 2  3 ]
#include <araios/formats/coo/coo.hpp>
#include <araios/formats/ell/ell.hpp>

#include <Kokkos_Core.hpp>

#include <cstdint>

namespace araios {

template <class Value, class Ordinal = std::int32_t, class Offset = std::int32_t,
          class Device = Kokkos::DefaultExecutionSpace::device_type>
struct HybMatrix {
  using value_type = Value;
  using ordinal_type = Ordinal;
  using size_type = Offset;
  using device_type = Device;
  using execution_space = typename Device::execution_space;
  using memory_space = typename Device::memory_space;

  Ordinal numRows = 0;
  Ordinal numCols = 0;
  EllMatrix<Value, Ordinal, Offset, Device> ell;  // same shape as the whole matrix
  CooMatrix<Value, Ordinal, Offset, Device> coo;  // same shape as the whole matrix

  std::int64_t nnz() const { return ell.nnz() + static_cast<std::int64_t>(coo.nnz()); }
  /// ELL slots (padding included) plus COO entries.
  std::int64_t storedSlots() const { return ell.storedSlots() + static_cast<std::int64_t>(coo.nnz()); }
  std::int64_t bytes() const { return ell.bytes() + coo.bytes(); }
};

}  // namespace araios
