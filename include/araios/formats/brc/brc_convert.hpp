#pragma once
// CSR <-> BRC. The pieces and blocks are planned on the host from the row pointers
// (O(P + W) for P pieces, P <= nnz/W + numRows, by counting sorts); the entries and the
// padding are written on the device, one thread per slot row.
#include <araios/detail/device_memory.hpp>
#include <araios/error.hpp>
#include <araios/format_options.hpp>
#include <araios/formats/matrix_stats.hpp>
#include <araios/types.hpp>
#include <araios/formats/brc/brc.hpp>
#include <araios/formats/brc/brc_slot_rows.hpp>
#include <araios/formats/csr/csr.hpp>

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

namespace araios {
namespace Impl {

struct BrcPlan {
  std::vector<std::int64_t> blockBegin, nzPerBlock;
  SlotRowPlan slotRows;
};

/// The BRC layout of a matrix with row pointers rowPtr and piece width W (see brc.hpp): every
/// row cut into pieces of W entries (its last shorter), the rows longest first and a row's
/// pieces in entry order, then the pieces by length, longest first and stably, in blocks of H.
///
/// The stable order by length needs no sort of the pieces. A row of L entries makes L / W
/// pieces of W and, when L % W is not 0, one last piece of L % W. So the pieces of W come first,
/// row after row in the rows' order, and then, for each shorter length l, one piece per row
/// whose length leaves l, in the rows' order. Counting the pieces by length gives where each
/// length starts, and one pass over the rows puts every piece in its place. O(numRows + W).
inline BrcPlan planBrc(const std::vector<std::int64_t>& rowPtr, std::int64_t pieceWidth) {
  const std::int64_t H = kSlotRowsPerBlock, W = pieceWidth;
  const std::vector<std::int64_t> length = rowLengths(rowPtr);
  const std::vector<std::int64_t> rows = nonEmptyRowsLongestFirst(length);
  std::vector<std::int64_t> next(static_cast<std::size_t>(W) + 1, 0);  // then: the next place of a piece of l
  for (const std::int64_t r : rows) {
    next[static_cast<std::size_t>(W)] += length[r] / W;
    if (length[r] % W != 0) ++next[static_cast<std::size_t>(length[r] % W)];
  }
  std::int64_t numPieces = 0;
  for (std::int64_t l = W; l >= 1; --l) {
    const std::int64_t count = next[static_cast<std::size_t>(l)];
    next[static_cast<std::size_t>(l)] = numPieces;
    numPieces += count;
  }
  const std::int64_t numBlocks = (numPieces + H - 1) / H;

  BrcPlan plan;
  plan.slotRows.assignPadding(numBlocks * H);
  for (const std::int64_t r : rows) {
    std::int64_t placed = 0;
    for (; length[r] - placed >= W; placed += W) plan.slotRows.set(next[static_cast<std::size_t>(W)]++, r, rowPtr[r] + placed, W);
    if (placed < length[r]) {
      const std::int64_t rest = length[r] - placed;
      plan.slotRows.set(next[static_cast<std::size_t>(rest)]++, r, rowPtr[r] + placed, rest);
    }
  }

  plan.blockBegin.reserve(static_cast<std::size_t>(numBlocks));
  plan.nzPerBlock.reserve(static_cast<std::size_t>(numBlocks));
  std::int64_t slots = 0;
  for (std::int64_t first = 0; first < numPieces; first += H) {
    const std::int64_t width = plan.slotRows.count[static_cast<std::size_t>(first)];  // the block's longest piece
    if (width > (std::numeric_limits<std::int64_t>::max() - slots) / H) {
      throw InputError("BRC: the slot count overflows a 64-bit count; expected a matrix whose padded size fits 64 bits");
    }
    plan.blockBegin.push_back(slots);
    plan.nzPerBlock.push_back(H * width);
    slots += H * width;
  }
  return plan;
}

/// Where block b starts and how wide it is.
template <class OffsetView>
struct BrcBlockShape {
  using Offset = typename OffsetView::value_type;
  OffsetView blockBegin, nzPerBlock;
  KOKKOS_INLINE_FUNCTION Offset begin(Offset b) const { return blockBegin(b); }
  KOKKOS_INLINE_FUNCTION Offset width(Offset b) const { return nzPerBlock(b) / kSlotRowsPerBlock; }
};

}  // namespace Impl

/// CSR -> BRC. Refused with a PaddingError when storedSlots / nnz passes
/// options.maxPaddingRatio, unless options.force.
template <class ExecSpace, class Value, class Ordinal, class Offset, class Device>
BrcMatrix<Value, Ordinal, Offset, Device> brcFromCsr(const ExecSpace& exec,
                                                     const CsrMatrix<Value, Ordinal, Offset, Device>& csr,
                                                     const FormatOptions& options = {}) {
  using Brc = BrcMatrix<Value, Ordinal, Offset, Device>;
  const MatrixStats stats = computeStats(exec, csr);
  const std::int64_t pieceWidth = Impl::lengthThreshold(stats.meanRowLength, stats.stdRowLength);
  const Impl::BrcPlan plan = Impl::planBrc(Impl::hostRowPointers(csr.rowPtr), pieceWidth);
  const std::int64_t slots = plan.blockBegin.empty() ? 0 : plan.blockBegin.back() + plan.nzPerBlock.back();
  checkPadding("BRC", slots, stats.nnz, options,
               "each block of 32 row pieces (at most W = round(mean + std) = " + std::to_string(pieceWidth) +
                   " entries each) is as wide as its longest piece, and its shorter pieces are padded");

  Brc A;
  A.numRows = csr.numRows;
  A.numCols = csr.numCols;
  A.numEntries = csr.nnz();
  A.numSlots = checkedNarrow<Offset>(slots, "number of BRC slots");
  requireMemory(exec, slots * static_cast<std::int64_t>(sizeof(Ordinal) + sizeof(Value)),
                Impl::buildingWhat("BRC", csr.numRows, csr.numCols));
  A.pieceWidth = pieceWidth;
  using Impl::slotRowsToDevice;
  A.rowPerm = slotRowsToDevice<Ordinal, Device>(plan.slotRows.row, "araios::brc::rowPerm", "row index");
  A.blockBegin = slotRowsToDevice<Offset, Device>(plan.blockBegin, "araios::brc::blockBegin", "BRC slot offset");
  A.nzPerBlock = slotRowsToDevice<Offset, Device>(plan.nzPerBlock, "araios::brc::nzPerBlock", "BRC block size");
  A.value = decltype(A.value)(Kokkos::view_alloc(Kokkos::WithoutInitializing, "araios::brc::value"), slots);
  A.col = decltype(A.col)(Kokkos::view_alloc(Kokkos::WithoutInitializing, "araios::brc::col"), slots);
  Impl::fillSlotRows(exec, Impl::BrcBlockShape<decltype(A.blockBegin)>{A.blockBegin, A.nzPerBlock}, plan.slotRows,
                     csr, A.value, A.col, "araios::brc");
  // Each row's slot rows, in slot row order, for the deterministic SpMV (a counting sort).
  const std::vector<std::int64_t>& pieceRow = plan.slotRows.row;
  std::vector<std::int64_t> piecePtr(static_cast<std::size_t>(csr.numRows) + 1, 0);
  for (const std::int64_t r : pieceRow)
    if (r != Impl::kSlotPadding) ++piecePtr[r + 1];
  for (std::size_t i = 1; i < piecePtr.size(); ++i) piecePtr[i] += piecePtr[i - 1];
  std::vector<std::int64_t> cursor(piecePtr.begin(), piecePtr.end() - 1), piece(piecePtr.back());
  for (std::int64_t p = 0; p < static_cast<std::int64_t>(pieceRow.size()); ++p)
    if (pieceRow[p] != Impl::kSlotPadding) piece[cursor[pieceRow[p]]++] = p;
  A.rowPiecePtr = slotRowsToDevice<Offset, Device>(piecePtr, "araios::brc::rowPiecePtr", "BRC piece offset");
  A.rowPiece = slotRowsToDevice<Offset, Device>(piece, "araios::brc::rowPiece", "BRC slot row");
  return A;
}

/// BRC -> CSR: the original rows in their original order, padding dropped. A row's pieces
/// come in slot row order in the order of their entries (see brc.hpp), so appending them
/// rebuilds the row.
template <class ExecSpace, class Value, class Ordinal, class Offset, class Device>
CsrMatrix<Value, Ordinal, Offset, Device> csrFromBrc(const ExecSpace& exec,
                                                     const BrcMatrix<Value, Ordinal, Offset, Device>& A) {
  return Impl::csrFromSlotRows<CsrMatrix<Value, Ordinal, Offset, Device>>(
      exec, A.numRows, A.numCols, Impl::BrcBlockShape<decltype(A.blockBegin)>{A.blockBegin, A.nzPerBlock}, A.rowPerm,
      A.value, A.col, "araios::csrFromBrc");
}

}  // namespace araios
