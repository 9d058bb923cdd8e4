#pragma once
// BRC: blocked row-column storage (Ashari et al., "An efficient two-dimensional blocking
// strategy for sparse matrix-vector multiplication on GPUs", ICS 2014; JPDC 2015). The
// baseline that BRCP (formats/brcp) makes deterministic.
//
// Layout (the shared block storage is described in formats/brc/brc_slot_rows.hpp):
//   * Column blocking: every row is cut into pieces of at most W consecutive entries, W =
//     pieceWidth = round(mean + std) of the row lengths (at least 1). Rows up to W long are
//     one piece; a longer row becomes ceil(L/W) pieces, W entries each but the last, and
//     these may land in different blocks. W is the width past which a row is "long" in the
//     row-length distribution, the same statistic BRCP calls T, so that no block is wider
//     than W and blocks do comparable work.
//   * Row blocking: the pieces are sorted by length, longest first (pieces of equal length
//     keep the order of their rows, themselves sorted by length, and their order within a
//     row), and taken 32 at a time: one block per warp, one piece (slot row) per lane. A
//     block is as wide as its first, longest piece; shorter pieces are padded.
//   * Arrays: rowPerm (one per slot row: the row of its piece, paddingRow for the slot rows
//     that complete the last block), blockBegin (where each block starts in value/col),
//     nzPerBlock (each block's slots, H times its width), value and col (column-major within
//     each block; padding holds -0.0 and paddingColumn, after the real entries of a piece).
//     Empty rows have no piece.
//   * SpMV, Fast mode (the paper's): y = beta*y first, then every lane adds alpha times its
//     piece's sum into y[rowPerm] atomically. The order of those additions depends on
//     scheduling whenever a row has several pieces (or beta != 0 and a row has two), so it is
//     non-deterministic: the baseline that BRCP fixes.
//   * Deterministic mode (ours): a sorted segmented reduction. rowPiecePtr/rowPiece list each
//     row's slot rows in slot row order (which is the order of the row's entries), planned on
//     the host; every lane writes its piece's sum to the workspace, then one thread per row adds
//     its pieces' sums in that order and stores the row once. The piece sums are
//     workspace owned by the caller (SpmvOperator, or araios::spmv for one call), not by the
//     matrix: products on one matrix may run concurrently.
#include <araios/formats/brc/brc_slot_rows.hpp>

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <type_traits>

namespace araios {

template <class Value, class Ordinal = std::int32_t, class Offset = std::int32_t,
          class Device = Kokkos::DefaultExecutionSpace::device_type>
struct BrcMatrix {
  static_assert(std::is_signed_v<Ordinal>, "BRC marks padding with a negative column and row");
  using value_type = Value;
  using ordinal_type = Ordinal;
  using size_type = Offset;
  using device_type = Device;
  using execution_space = typename Device::execution_space;
  using memory_space = typename Device::memory_space;

  /// H: slot rows (pieces) per block, one per warp lane.
  static constexpr int blockRows = Impl::kSlotRowsPerBlock;
  static constexpr Ordinal paddingColumn = static_cast<Ordinal>(Impl::kSlotPadding);
  static constexpr Ordinal paddingRow = static_cast<Ordinal>(Impl::kSlotPadding);

  Ordinal numRows = 0;
  Ordinal numCols = 0;
  Offset numEntries = 0;  ///< real entries (explicit zeros included), padding excluded
  Offset numSlots = 0;    ///< every stored slot, padding included
  /// W = round(mean + std) of the row lengths: the longest a piece may be.
  std::int64_t pieceWidth = 0;

  Kokkos::View<Ordinal*, Device> rowPerm;    ///< numBlocks * H
  Kokkos::View<Offset*, Device> blockBegin;  ///< numBlocks
  Kokkos::View<Offset*, Device> nzPerBlock;  ///< numBlocks: H * the block's width
  Kokkos::View<Value*, Device> value;        ///< numSlots
  Kokkos::View<Ordinal*, Device> col;        ///< numSlots
  Kokkos::View<Offset*, Device> rowPiecePtr;  ///< numRows + 1: row i's pieces are rowPiece[rowPiecePtr[i]..]
  Kokkos::View<Offset*, Device> rowPiece;     ///< one per piece: its slot row, grouped by row, in slot row order

  Offset numBlocks() const { return static_cast<Offset>(blockBegin.extent(0)); }
  std::int64_t nnz() const { return numEntries; }
  std::int64_t storedSlots() const { return numSlots; }
  std::int64_t bytes() const {
    return static_cast<std::int64_t>(rowPerm.extent(0)) * sizeof(Ordinal) +
           static_cast<std::int64_t>(blockBegin.extent(0) + nzPerBlock.extent(0) + rowPiecePtr.extent(0) +
                                     rowPiece.extent(0)) *
               sizeof(Offset) +
           static_cast<std::int64_t>(numSlots) * (sizeof(Value) + sizeof(Ordinal));
  }
};

}  // namespace araios
