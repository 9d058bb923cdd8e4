#pragma once
// VAB (vertical aligned blocks) storage, after Liang, "Research on GPU-based sparse
// matrix-vector multiplication", HUST master's thesis, 2012 (the VAB chapter).
//
// Each row's entries, in CSR order, are cut into blocks of kVabBlockWidth = 4; the row's last
// block is padded with slots of value 0 and column paddingColumn. Blocks are numbered in row
// order, and rowBlockPtr[r] is the first block of row r (an empty row has no block).
//
// "Physically horizontal, logically vertical": every 32 consecutive blocks (one per lane of a
// warp) form a group, stored as a 4 x 32 tile in which each block is a column. The tile is
// stored line by line, so element k of block b lives at
//
//     slot(b, k) = (b / 32 * 4 + k) * 32 + b % 32
//
// and when the 32 threads of a warp each read element k of their own block, they read 32
// consecutive slots. For rows a (6 entries), an empty row, and b (3 entries):
//
//   logical blocks                 physical group 0 (blocks 0..31), one line per k
//     block 0: a0 a1 a2 a3           k = 0, slots   0.. 31:  a0 a4 b0  .  .  .
//     block 1: a4 a5  -  -           k = 1, slots  32.. 63:  a1 a5 b1  .  .  .
//     block 2: b0 b1 b2  -           k = 2, slots  64.. 95:  a2  -  b2 .  .  .
//                                    k = 3, slots  96..127:  a3  -  -  .  .  .
//   rowBlockPtr = [0, 2, 2, 3]       group 1 (blocks 32..63) starts at slot 128
//
// ('-' is padding; '.' the lanes of blocks 3..31, which this matrix does not have.)
#include <Kokkos_Core.hpp>

#include <cstdint>

namespace araios {

/// Entries per block. Four entries give each thread of the first SpMV phase enough work to
/// hide a load while padding a row by at most three slots.
inline constexpr int kVabBlockWidth = 4;
/// Blocks per group: one per lane of a warp, so that a warp's loads are consecutive.
inline constexpr int kVabBlocksPerGroup = 32;

template <class Value, class Ordinal = std::int32_t, class Offset = std::int32_t,
          class Device = Kokkos::DefaultExecutionSpace::device_type>
struct VabMatrix {
  using value_type = Value;
  using ordinal_type = Ordinal;
  using size_type = Offset;
  using device_type = Device;
  using execution_space = typename Device::execution_space;
  using memory_space = typename Device::memory_space;

  /// The column of a padding slot. Negative, so it can never be a real column.
  static constexpr Ordinal paddingColumn = -1;

  Ordinal numRows = 0;
  Ordinal numCols = 0;
  Offset numEntries = 0;  // real entries (explicit zeros included), padding excluded
  Offset numBlocks = 0;
  Kokkos::View<Offset*, Device> rowBlockPtr;  // numRows + 1 entries
  Kokkos::View<Ordinal*, Device> colIdx;      // 4 x 32 slots per group of 32 blocks
  Kokkos::View<Value*, Device> values;

  /// Position of element k of block b in colIdx and values.
  KOKKOS_INLINE_FUNCTION static Offset slot(Offset block, int k) {
    return (block / kVabBlocksPerGroup * kVabBlockWidth + k) * kVabBlocksPerGroup + block % kVabBlocksPerGroup;
  }

  std::int64_t nnz() const { return numEntries; }
  /// The slots of the blocks, real or padding: what the SpMV reads. The unused lanes of the
  /// last group (fewer than 128 slots, allocated but never read) are not counted.
  std::int64_t storedSlots() const { return static_cast<std::int64_t>(numBlocks) * kVabBlockWidth; }
  std::int64_t bytes() const {
    return static_cast<std::int64_t>(rowBlockPtr.extent(0)) * sizeof(Offset) +
           static_cast<std::int64_t>(values.extent(0)) * (sizeof(Ordinal) + sizeof(Value));
  }
};

}  // namespace araios
