#pragma once
// CSR <-> BRCP. The layout is planned on the host from the row pointers (brcp_plan.hpp); the
// entries and the padding are written on the device, one thread per slot row.
#include <araios/detail/device_memory.hpp>
#include <araios/format_options.hpp>
#include <araios/formats/matrix_stats.hpp>
#include <araios/types.hpp>
#include <araios/formats/brc/brc_slot_rows.hpp>
#include <araios/formats/brcp/brcp.hpp>
#include <araios/formats/brcp/brcp_plan.hpp>
#include <araios/formats/csr/csr.hpp>

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <string>

namespace araios {
namespace Impl {

/// Where block b starts and how wide it is, from blockPtr alone.
template <class PtrView>
struct BrcpBlockShape {
  using Offset = typename PtrView::value_type;
  PtrView blockPtr;
  KOKKOS_INLINE_FUNCTION Offset begin(Offset b) const { return blockPtr(b); }
  KOKKOS_INLINE_FUNCTION Offset width(Offset b) const { return (blockPtr(b + 1) - blockPtr(b)) / kSlotRowsPerBlock; }
};

}  // namespace Impl

/// CSR -> BRCP. Refused with a PaddingError when storedSlots / nnz passes
/// options.maxPaddingRatio, unless options.force.
template <class ExecSpace, class Value, class Ordinal, class Offset, class Device>
BrcpMatrix<Value, Ordinal, Offset, Device> brcpFromCsr(const ExecSpace& exec,
                                                       const CsrMatrix<Value, Ordinal, Offset, Device>& csr,
                                                       const FormatOptions& options = {}) {
  using Brcp = BrcpMatrix<Value, Ordinal, Offset, Device>;
  const MatrixStats stats = computeStats(exec, csr);
  const std::int64_t threshold = Impl::lengthThreshold(stats.meanRowLength, stats.stdRowLength);
  const Impl::BrcpPlan plan = Impl::planBrcp(Impl::hostRowPointers(csr.rowPtr), threshold);
  const std::int64_t slots = plan.blockPtr.back();
  checkPadding("BRCP", slots, stats.nnz, options,
               "each block of 32 rows is as wide as eq. (3) makes it (T = round(mean + std) = " +
                   std::to_string(threshold) + "), and its shorter rows are padded to that width");

  Brcp A;
  A.numRows = csr.numRows;
  A.numCols = csr.numCols;
  A.numEntries = csr.nnz();
  A.numSlots = checkedNarrow<Offset>(slots, "number of BRCP slots");
  requireMemory(exec, slots * static_cast<std::int64_t>(sizeof(Ordinal) + sizeof(Value)),
                Impl::buildingWhat("BRCP", csr.numRows, csr.numCols));
  A.lengthThreshold = threshold;
  using Impl::slotRowsToDevice;
  A.blockPtr = slotRowsToDevice<Offset, Device>(plan.blockPtr, "araios::brcp::blockPtr", "BRCP slot offset");
  A.rowPerm = slotRowsToDevice<Ordinal, Device>(plan.slotRows.row, "araios::brcp::rowPerm", "row index");
  A.rowSegLen = slotRowsToDevice<Ordinal, Device>(plan.rowSegLen, "araios::brcp::rowSegLen", "segment length");
  A.splitRow = slotRowsToDevice<Ordinal, Device>(plan.splitRow, "araios::brcp::splitRow", "row index");
  A.splitFirstBlock = slotRowsToDevice<Offset, Device>(plan.splitFirstBlock, "araios::brcp::splitFirstBlock", "block");
  A.splitLastBlock = slotRowsToDevice<Offset, Device>(plan.splitLastBlock, "araios::brcp::splitLastBlock", "block");
  A.emptyRow = slotRowsToDevice<Ordinal, Device>(plan.emptyRow, "araios::brcp::emptyRow", "row index");
  A.value = decltype(A.value)(Kokkos::view_alloc(Kokkos::WithoutInitializing, "araios::brcp::value"), slots);
  A.col = decltype(A.col)(Kokkos::view_alloc(Kokkos::WithoutInitializing, "araios::brcp::col"), slots);
  Impl::fillSlotRows(exec, Impl::BrcpBlockShape<decltype(A.blockPtr)>{A.blockPtr}, plan.slotRows, csr, A.value, A.col,
                     "araios::brcp");
  return A;
}

/// BRCP -> CSR: the original rows in their original order, padding dropped.
template <class ExecSpace, class Value, class Ordinal, class Offset, class Device>
CsrMatrix<Value, Ordinal, Offset, Device> csrFromBrcp(const ExecSpace& exec,
                                                      const BrcpMatrix<Value, Ordinal, Offset, Device>& A) {
  return Impl::csrFromSlotRows<CsrMatrix<Value, Ordinal, Offset, Device>>(
      exec, A.numRows, A.numCols, Impl::BrcpBlockShape<decltype(A.blockPtr)>{A.blockPtr}, A.rowPerm, A.value, A.col,
      "araios::csrFromBrcp");
}

}  // namespace araios
