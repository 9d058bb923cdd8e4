#pragma once
// CSR <-> VAB. The block counts are planned on the host from the row lengths in O(n); the
// entries are moved on the device by forEachRowEntry (a team shares a long row).
#include <araios/detail/device_memory.hpp>
#include <araios/detail/for_each_row_entry.hpp>
#include <araios/format_options.hpp>
#include <araios/primitives/bucket_sort.hpp>
#include <araios/types.hpp>
#include <araios/formats/csr/csr.hpp>
#include <araios/formats/csr/csr_from_row_passes.hpp>
#include <araios/formats/vab/vab.hpp>

#include <Kokkos_Core.hpp>

namespace araios {
namespace Impl {

/// Entry t of a row (CSR position k) sits in the row's block t / 4, at t % 4.
template <class Vab>
KOKKOS_INLINE_FUNCTION typename Vab::size_type vabEntrySlot(const Vab& vab, std::int64_t row, std::int64_t t) {
  return Vab::slot(vab.rowBlockPtr(row) + static_cast<typename Vab::size_type>(t / kVabBlockWidth),
                   static_cast<int>(t % kVabBlockWidth));
}

template <class Csr, class Vab>
struct VabScatterEntry {
  Csr csr;
  Vab vab;
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t row, std::int64_t k, std::int64_t t) const {
    const auto slot = vabEntrySlot(vab, row, t);
    vab.colIdx(slot) = csr.colIdx(k);
    vab.values(slot) = csr.values(k);
  }
};

/// Writes each row's length into rowLength(row): four per block, less the padding of its last.
template <class Vab, class LengthView>
struct VabRowLengths {
  Vab vab;
  LengthView rowLength;
  KOKKOS_INLINE_FUNCTION void operator()(typename Vab::ordinal_type row) const {
    const auto first = vab.rowBlockPtr(row), end = vab.rowBlockPtr(row + 1);
    typename LengthView::value_type length = 0;
    if (end > first) {
      length = (end - 1 - first) * kVabBlockWidth;
      for (int k = 0; k < kVabBlockWidth && vab.colIdx(Vab::slot(end - 1, k)) != Vab::paddingColumn; ++k) ++length;
    }
    rowLength(row) = length;
  }
};

template <class Vab, class Csr>
struct VabGatherEntry {
  Vab vab;
  Csr csr;
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t row, std::int64_t k, std::int64_t t) const {
    const auto slot = vabEntrySlot(vab, row, t);
    csr.colIdx(k) = vab.colIdx(slot);
    csr.values(k) = vab.values(slot);
  }
};

}  // namespace Impl

/// VAB from CSR. Refuses (PaddingError) more than options.maxPaddingRatio block slots per
/// nonzero (rows of one entry take four) unless options.force.
template <class ExecSpace, class Value, class Ordinal, class Offset, class Device>
VabMatrix<Value, Ordinal, Offset, Device> vabFromCsr(const ExecSpace& exec,
                                                     const CsrMatrix<Value, Ordinal, Offset, Device>& csr,
                                                     const FormatOptions& options = {}) {
  using Vab = VabMatrix<Value, Ordinal, Offset, Device>;
  using Csr = CsrMatrix<Value, Ordinal, Offset, Device>;
  auto rowPtr = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), csr.rowPtr);
  Vab vab;
  vab.numRows = csr.numRows;
  vab.numCols = csr.numCols;
  vab.numEntries = csr.nnz();
  vab.rowBlockPtr =
      decltype(vab.rowBlockPtr)(Kokkos::view_alloc(Kokkos::WithoutInitializing, "araios::vab::rowBlockPtr"),
                                static_cast<std::int64_t>(csr.numRows) + 1);
  auto rowBlockPtr = Kokkos::create_mirror_view(vab.rowBlockPtr);
  std::int64_t blocks = 0;
  rowBlockPtr(0) = 0;
  for (std::int64_t row = 0; row < csr.numRows; ++row) {
    blocks += (static_cast<std::int64_t>(rowPtr(row + 1) - rowPtr(row)) + kVabBlockWidth - 1) / kVabBlockWidth;
    rowBlockPtr(row + 1) = static_cast<Offset>(blocks);  // blocks <= nnz, which fits Offset
  }
  checkPadding("VAB", blocks * kVabBlockWidth, csr.nnz(), options,
               "each row is cut into blocks of 4 entries and its last block is padded");
  const std::int64_t groups = (blocks + kVabBlocksPerGroup - 1) / kVabBlocksPerGroup;
  const Offset slots = checkedNarrow<Offset>(groups * kVabBlocksPerGroup * kVabBlockWidth, "VAB stored slots");
  requireMemory(exec, static_cast<std::int64_t>(slots) * static_cast<std::int64_t>(sizeof(Ordinal) + sizeof(Value)),
                Impl::buildingWhat("VAB", csr.numRows, csr.numCols));
  vab.numBlocks = static_cast<Offset>(blocks);
  Kokkos::deep_copy(exec, vab.rowBlockPtr, rowBlockPtr);
  vab.colIdx = decltype(vab.colIdx)(Kokkos::view_alloc(Kokkos::WithoutInitializing, "araios::vab::colIdx"), slots);
  vab.values = decltype(vab.values)("araios::vab::values", slots);  // padding values are zero
  Kokkos::deep_copy(exec, vab.colIdx, Vab::paddingColumn);
  Impl::forEachRowEntry("araios::vab::scatter", exec, csr.rowPtr, Impl::VabScatterEntry<Csr, Vab>{csr, vab});
  // The host mirror must outlive the asynchronous copy from it.
  exec.fence();
  return vab;
}

/// CSR from VAB: each row's entries in their original order, padding left out. Gives back
/// exactly the CSR that vabFromCsr was given.
template <class ExecSpace, class Value, class Ordinal, class Offset, class Device>
CsrMatrix<Value, Ordinal, Offset, Device> csrFromVab(const ExecSpace& exec,
                                                     const VabMatrix<Value, Ordinal, Offset, Device>& vab) {
  using Vab = VabMatrix<Value, Ordinal, Offset, Device>;
  using Csr = CsrMatrix<Value, Ordinal, Offset, Device>;
  using PtrView = decltype(Csr::rowPtr);
  return Impl::csrFromRowEntries<Csr>(
      exec, vab.numRows, vab.numCols, "araios::vab::toCsr",
      [&](const PtrView& rowPtr) { return Impl::VabRowLengths<Vab, PtrView>{vab, rowPtr}; },
      [&](const Csr& csr) { return Impl::PtrRowSpans<PtrView>{csr.rowPtr}; },
      [&](const Csr& csr) { return Impl::VabGatherEntry<Vab, Csr>{vab, csr}; });
}

}  // namespace araios
