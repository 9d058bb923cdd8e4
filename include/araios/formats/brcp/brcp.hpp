#pragma once
// BRCP: blocked row-column with partitioning (Yang et al., Computer Engineering 45(9), 2019),
// built on BRC (Ashari et al., ICS 2014). This is Araios's centrepiece format: SpMV on it is
// deterministic (the same bits on every run and every backend) for every row length.
//
// Layout (section 2 of the paper; the shared block storage is described in
// formats/brc/brc_slot_rows.hpp):
//   * The non-empty rows are sorted by length, longest first (equal lengths keep their order).
//     Empty rows occupy no slots; they are listed in emptyRow so that their y is still written.
//   * H = 32 slot rows per block, one per warp lane. A slot row is V slots wide, V being the
//     block's width, and holds entries of exactly one CSR row.
//   * Blocks are filled row-major: slot row s of the block takes the next V entries of the
//     current row (or all that remain of it, the rest of the slot row being padding); a row
//     moves on to the next only once all its entries are placed. A long row therefore fills
//     several consecutive slot rows, possibly of several consecutive blocks.
//   * V is chosen at the start of each block by eq. (3), with T = round(mean + std) of the row
//     lengths (all rows, empty ones included) and `rem` the entries of the current row not yet
//     placed:  V = ceil(rem / 64)                     if rem > 64*T,
//              V = min(T, max(rem, nnz of next row))  otherwise.
//     A row of L > 64*T entries thus spreads over several blocks of shrinking width: the first
//     takes about L/2 (32 slot rows of ceil(L/64)), the next about L/4, ... until at most 64*T
//     remain, which go in blocks of width T. Eq. (3) is evaluated afresh at the start of every
//     block, with nnz_row read as what remains of the current row: a row spanning blocks is
//     treated in each block like a row of its remaining length.
//   * Padding slots hold value -0.0 (the exact additive identity) and column paddingColumn;
//     padding always follows the real entries of a slot row, so a lane stops at the first one
//     and never reads x for it. Slot rows past the last row (end of the last block) have
//     rowPerm = paddingRow.
//   * rowPerm (one per slot row): the CSR row of the slot row.
//     rowSegLen (one per slot row): counted per block from rowPerm: at the first slot row of
//     each run of equal rowPerm inside a block (a "segment head"), the run's length; 0
//     elsewhere and on padding slot rows. Runs never cross a block boundary: a warp sees only
//     its own block.
//     blockPtr (numBlocks + 1): like CSR's rowPtr over blocks; block b is
//     (blockPtr[b+1] - blockPtr[b]) / H slots wide, so no blockBegin/width array is needed.
//   * SpMV (brcp_spmv.hpp; backends/cuda/brcp_spmv_cuda.hpp on NVIDIA GPUs): one warp per
//     block, one lane per slot row; each lane sums its slot row, the warp scans the lane sums
//     and each segment head stores its segment's sum. The scan is segmented (it restarts at
//     every segment head) instead of the paper's whole-warp scan and difference
//     scan[head+len-1] - scan[head] + in[head], which cancels and broke the error bound on
//     real matrices; brcp_kernel_parts.hpp defines the exact order of operations and why.
//   * Determinism (our addition; the paper completes rows that span blocks with atomicAdd):
//     splitRow/splitFirstBlock/splitLastBlock list the rows that span blocks, with the first
//     and last block each touches, planned on the host. The kernel writes the partial sum of
//     such a row's segment in block b to partial(2b) if the segment continues a row of block
//     b-1, else to partial(2b+1) (it continues into block b+1); a block has at most those two
//     boundary segments. A second kernel adds each split row's partials in block order.
//     `partial` is workspace owned by the caller (SpmvOperator, or araios::spmv for one
//     call), not by the matrix: products on one matrix may run concurrently.
//
// Example (written out in full by exact_layout_two_blocks in tests/formats/test_brcp.cpp):
// 40 rows of lengths 9, 4, 3, 2, 2, 2, thirty-two of 1 and two empty ones, so T = 3. Block 0:
// V = min(3, max(9, 4)) = 3; the row of 9 fills slot rows 0-2, the row of 4 slot rows 3-4
// (3 + 1 entries, then 2 padding slots), the row of 3 slot row 5, ...; rowSegLen begins
// [3, 0, 0, 2, 0, 1, ...]. Block 1 starts with a row of 1 entry followed by another:
// V = min(3, max(1, 1)) = 1.
#include <araios/formats/brc/brc_slot_rows.hpp>

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <type_traits>

namespace araios {

template <class Value, class Ordinal = std::int32_t, class Offset = std::int32_t,
          class Device = Kokkos::DefaultExecutionSpace::device_type>
struct BrcpMatrix {
  static_assert(std::is_signed_v<Ordinal>, "BRCP marks padding with a negative column and row");
  using value_type = Value;
  using ordinal_type = Ordinal;
  using size_type = Offset;
  using device_type = Device;
  using execution_space = typename Device::execution_space;
  using memory_space = typename Device::memory_space;

  /// H: slot rows per block, one per warp lane.
  static constexpr int blockRows = Impl::kSlotRowsPerBlock;
  /// The column of a padding slot and the rowPerm of a padding slot row.
  static constexpr Ordinal paddingColumn = static_cast<Ordinal>(Impl::kSlotPadding);
  static constexpr Ordinal paddingRow = static_cast<Ordinal>(Impl::kSlotPadding);

  Ordinal numRows = 0;
  Ordinal numCols = 0;
  Offset numEntries = 0;  ///< real entries (explicit zeros included), padding excluded
  Offset numSlots = 0;    ///< blockPtr[numBlocks]: every stored slot, padding included
  /// T = round(mean + std) of the row lengths, the threshold of eq. (3).
  std::int64_t lengthThreshold = 0;

  Kokkos::View<Offset*, Device> blockPtr;    ///< numBlocks + 1
  Kokkos::View<Ordinal*, Device> rowPerm;    ///< numBlocks * H
  Kokkos::View<Ordinal*, Device> rowSegLen;  ///< numBlocks * H
  Kokkos::View<Value*, Device> value;        ///< numSlots, column-major within each block
  Kokkos::View<Ordinal*, Device> col;        ///< numSlots, column-major within each block

  Kokkos::View<Ordinal*, Device> splitRow;        ///< rows that span more than one block
  Kokkos::View<Offset*, Device> splitFirstBlock;  ///< per split row: the first block it touches
  Kokkos::View<Offset*, Device> splitLastBlock;   ///< per split row: the last block it touches
  Kokkos::View<Ordinal*, Device> emptyRow;        ///< rows without entries, increasing

  Offset numBlocks() const { return blockPtr.extent(0) > 0 ? static_cast<Offset>(blockPtr.extent(0) - 1) : 0; }
  std::int64_t nnz() const { return numEntries; }
  std::int64_t storedSlots() const { return numSlots; }
  std::int64_t bytes() const {
    return static_cast<std::int64_t>(blockPtr.extent(0) + splitFirstBlock.extent(0) + splitLastBlock.extent(0)) *
               sizeof(Offset) +
           static_cast<std::int64_t>(rowPerm.extent(0) + rowSegLen.extent(0) + splitRow.extent(0) +
                                     emptyRow.extent(0)) *
               sizeof(Ordinal) +
           static_cast<std::int64_t>(numSlots) * (sizeof(Value) + sizeof(Ordinal));
  }
};

}  // namespace araios
