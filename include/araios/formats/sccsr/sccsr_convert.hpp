#pragma once
// CSR <-> SC-CSR. The layout (sort by length, ranges, merged-row sizes) is planned on the host
// from the row lengths in O(n + longest row); the entries are moved on the device by
// forEachRowEntry (a team shares a long row).
#include <araios/detail/device_memory.hpp>
#include <araios/detail/for_each_row_entry.hpp>
#include <araios/detail/stable_order_by_key.hpp>
#include <araios/format_options.hpp>
#include <araios/primitives/bucket_sort.hpp>
#include <araios/types.hpp>
#include <araios/formats/csr/csr.hpp>
#include <araios/formats/csr/csr_from_row_passes.hpp>
#include <araios/formats/sccsr/sccsr.hpp>
#include <araios/formats/sccsr/sccsr_plan.hpp>

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <numeric>
#include <vector>

namespace araios {
namespace Impl {

/// Where row number i of a range lives: its merged row and its lane r within it, so that its
/// entry j sits at rowPtr(mergedRow) + j*c + r.
struct ScCsrRangeCursor {
  std::int64_t firstRow, firstMergedRow;
  int mergeFactor;
  KOKKOS_INLINE_FUNCTION std::int64_t sortedRow(std::int64_t i) const { return firstRow + i; }
  KOKKOS_INLINE_FUNCTION std::int64_t mergedRow(std::int64_t i) const { return firstMergedRow + i / mergeFactor; }
  KOKKOS_INLINE_FUNCTION std::int64_t lane(std::int64_t i) const { return i % mergeFactor; }
};

/// Where entry t of range row i sits: rowPtr(mergedRow) + t*c + lane.
template <class Sc>
KOKKOS_INLINE_FUNCTION std::int64_t scCsrEntrySlot(const Sc& sc, const ScCsrRangeCursor& at, std::int64_t i,
                                                   std::int64_t t) {
  return sc.rowPtr(at.mergedRow(i)) + at.lane(i) + t * at.mergeFactor;
}

/// Entry t of range row i, CSR position k, to its slot.
template <class Csr, class Sc>
struct ScCsrScatterEntry {
  Csr csr;
  Sc sc;
  ScCsrRangeCursor at;
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t i, std::int64_t k, std::int64_t t) const {
    const auto slot = scCsrEntrySlot(sc, at, i, t);
    sc.colIdx(slot) = csr.colIdx(k);
    sc.values(slot) = csr.values(k);
  }
};

/// Writes each original row's length into rowLength(row): its slots up to the first padding.
/// A row's real slots come before its padding, so the first padding slot is found by
/// bisection (a long row would otherwise walk its slots one by one).
template <class Sc, class LengthView>
struct ScCsrRowLengths {
  Sc sc;
  LengthView rowLength;
  ScCsrRangeCursor at;
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t i) const {
    const auto m = at.mergedRow(i);
    std::int64_t low = 0, high = (sc.rowPtr(m + 1) - sc.rowPtr(m)) / at.mergeFactor;  // the length lies in [low, high]
    while (low < high) {
      const std::int64_t j = low + (high - low) / 2;
      if (sc.colIdx(scCsrEntrySlot(sc, at, i, j)) != Sc::paddingColumn)
        low = j + 1;
      else
        high = j;
    }
    rowLength(sc.rowIndex(at.sortedRow(i))) = static_cast<typename LengthView::value_type>(low);
  }
};

template <class Sc, class Csr>
struct ScCsrGatherEntry {
  Sc sc;
  Csr csr;
  ScCsrRangeCursor at;
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t i, std::int64_t k, std::int64_t t) const {
    const auto slot = scCsrEntrySlot(sc, at, i, t);
    csr.colIdx(k) = sc.colIdx(slot);
    csr.values(k) = sc.values(slot);
  }
};

/// Range row i of a range starting at sorted row firstRow is CSR row rowIndex(firstRow + i).
template <class PtrView, class Sc>
PermutedRowSpans<PtrView, decltype(Sc::rowIndex)> scCsrRangeSpans(const PtrView& rowPtr, const Sc& sc,
                                                                  const ScCsrRange& range) {
  return {rowPtr, sc.rowIndex, range.firstRow};
}

}  // namespace Impl

/// SC-CSR from CSR. Refuses (PaddingError) a layout of more than options.maxPaddingRatio slots
/// per nonzero unless options.force. scOptions.foldingThreshold overrides the device's N_w.
template <class ExecSpace, class Value, class Ordinal, class Offset, class Device>
ScCsrMatrix<Value, Ordinal, Offset, Device> scCsrFromCsr(const ExecSpace& exec,
                                                         const CsrMatrix<Value, Ordinal, Offset, Device>& csr,
                                                         const FormatOptions& options = {},
                                                         const ScCsrOptions& scOptions = {}) {
  using Sc = ScCsrMatrix<Value, Ordinal, Offset, Device>;
  const std::int64_t n = csr.numRows;
  const auto rowPtr = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), csr.rowPtr);
  std::vector<std::int64_t> lengths(static_cast<std::size_t>(n));
  for (std::int64_t row = 0; row < n; ++row) lengths[static_cast<std::size_t>(row)] = rowPtr(row + 1) - rowPtr(row);

  // Sorted position -> original row; the stable order keeps rows of equal length in order, so
  // the layout does not depend on the sort's implementation.
  const std::vector<std::int64_t> order = Impl::stableOrderByKey(lengths, Impl::KeyOrder::SmallestFirst);

  std::array<std::int64_t, kScCsrLengthClasses.size()> classRows{};
  for (const std::int64_t length : lengths) ++classRows[scCsrLengthClass(length)];
  const double threshold =
      scOptions.foldingThreshold ? *scOptions.foldingThreshold
      : scOptions.tuneToDevice   ? scCsrDeviceFoldingThreshold(exec)
                                 : scCsrDefaultFoldingThreshold(exec);
  const std::vector<ScCsrRange> plan = planScCsrRanges(classRows, threshold);

  // A merged row holds c slots per entry of its longest row, the last row of its group since
  // rows are sorted by ascending length.
  std::vector<std::int64_t> mergedPtr{0};
  for (const ScCsrRange& range : plan) {
    for (std::int64_t first = 0; first < range.numRows; first += range.mergeFactor) {
      const std::int64_t longest = std::min(first + range.mergeFactor, range.numRows) - 1;
      mergedPtr.push_back(mergedPtr.back() + range.mergeFactor * lengths[order[range.firstRow + longest]]);
    }
  }
  const std::int64_t slots = mergedPtr.back();
  checkPadding("SC-CSR", slots, csr.nnz(), options,
               "each row is padded to the longest of the c rows it is merged with, and the last group of each "
               "length range to c rows");

  checkedNarrow<Offset>(slots, "SC-CSR stored slots");
  requireMemory(exec, slots * static_cast<std::int64_t>(sizeof(Ordinal) + sizeof(Value)) + n * static_cast<std::int64_t>(sizeof(Ordinal)),
                Impl::buildingWhat("SC-CSR", csr.numRows, csr.numCols));
  Sc sc;
  sc.numRows = csr.numRows;
  sc.numCols = csr.numCols;
  sc.numEntries = csr.nnz();
  sc.ranges = decltype(sc.ranges)("araios::sccsr::ranges", plan.size());
  std::copy(plan.begin(), plan.end(), sc.ranges.data());

  sc.rowPtr =
      decltype(sc.rowPtr)(Kokkos::view_alloc(Kokkos::WithoutInitializing, "araios::sccsr::rowPtr"), mergedPtr.size());
  auto rowPtrHost = Kokkos::create_mirror_view(sc.rowPtr);
  const Offset slotCount = checkedNarrow<Offset>(slots, "SC-CSR stored slots");
  for (std::size_t m = 0; m < mergedPtr.size(); ++m) rowPtrHost(m) = static_cast<Offset>(mergedPtr[m]);
  Kokkos::deep_copy(exec, sc.rowPtr, rowPtrHost);

  sc.rowIndex = decltype(sc.rowIndex)(Kokkos::view_alloc(Kokkos::WithoutInitializing, "araios::sccsr::rowIndex"), n);
  auto rowIndexHost = Kokkos::create_mirror_view(sc.rowIndex);
  for (std::int64_t s = 0; s < n; ++s) rowIndexHost(s) = static_cast<Ordinal>(order[s]);
  Kokkos::deep_copy(exec, sc.rowIndex, rowIndexHost);

  sc.colIdx = decltype(sc.colIdx)(Kokkos::view_alloc(Kokkos::WithoutInitializing, "araios::sccsr::colIdx"), slotCount);
  sc.values = decltype(sc.values)("araios::sccsr::values", slotCount);  // padding values are zero
  Kokkos::deep_copy(exec, sc.colIdx, Sc::paddingColumn);
  for (const ScCsrRange& range : plan) {
    Impl::forEachRowEntry("araios::sccsr::scatter", exec, range.numRows, Impl::scCsrRangeSpans(csr.rowPtr, sc, range),
                          Impl::ScCsrScatterEntry<CsrMatrix<Value, Ordinal, Offset, Device>, Sc>{
                              csr, sc, {range.firstRow, range.firstMergedRow, range.mergeFactor}});
  }
  // The host mirrors above must outlive the asynchronous copies from them.
  exec.fence();
  return sc;
}

/// CSR from SC-CSR: each row's entries in their original order, padding left out. Gives back
/// exactly the CSR that scCsrFromCsr was given.
template <class ExecSpace, class Value, class Ordinal, class Offset, class Device>
CsrMatrix<Value, Ordinal, Offset, Device> csrFromScCsr(const ExecSpace& exec,
                                                       const ScCsrMatrix<Value, Ordinal, Offset, Device>& sc) {
  using Csr = CsrMatrix<Value, Ordinal, Offset, Device>;
  using Sc = ScCsrMatrix<Value, Ordinal, Offset, Device>;
  using PtrView = decltype(Csr::rowPtr);
  using Policy = Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>;
  // Rows come in ranges of different merge factors: one launch per range in each pass.
  return Impl::csrFromRowPasses<Csr>(
      exec, sc.numRows, sc.numCols, "araios::sccsr::toCsr",
      [&](const PtrView& rowPtr) {
        for (std::size_t k = 0; k < sc.ranges.extent(0); ++k) {
          const ScCsrRange& range = sc.ranges(k);
          Kokkos::parallel_for("araios::sccsr::toCsr::lengths", Policy(exec, 0, range.numRows),
                               Impl::ScCsrRowLengths<Sc, PtrView>{
                                   sc, rowPtr, {range.firstRow, range.firstMergedRow, range.mergeFactor}});
        }
      },
      [&](const Csr& csr) {
        for (std::size_t k = 0; k < sc.ranges.extent(0); ++k) {
          const ScCsrRange& range = sc.ranges(k);
          Impl::forEachRowEntry(
              "araios::sccsr::toCsr::gather", exec, range.numRows, Impl::scCsrRangeSpans(csr.rowPtr, sc, range),
              Impl::ScCsrGatherEntry<Sc, Csr>{sc, csr, {range.firstRow, range.firstMergedRow, range.mergeFactor}});
        }
      });
}

}  // namespace araios
