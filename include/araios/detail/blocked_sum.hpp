#pragma once
// The CSR order of Deterministic mode, in blocks: the order in which csr-scalar, ELL, SELL,
// JDS, DIA, COO, CSC and HYB (and BRC's pieces) sum a row, so that they give the same bits.
//
//   entries  a row's entries in CSR order are cut into chunks of kChunkEntries (32); each chunk
//            is summed one entry after the other from -0.0 (accumulateProduct);
//   chunks   every kBlockFanIn (256) consecutive chunks form a group, summed one chunk sum after
//            the other from -0.0 (a group covers 8,192 entries);
//   groups   every kBlockFanIn consecutive groups form a block, summed the same way (2^21
//            entries);
//   blocks   the row's sum is its blocks' sums, one after the other from -0.0.
// A last, partial chunk, group or block is summed the same way over what it holds.
//
// Why blocks: a plain left-to-right sum is a chain of dependent additions as long as the row,
// so no backend can spread a long row: a row of 1.36 million entries took 9.6 ms on an H200,
// where the atomics of Fast mode took 0.043. In blocks, every chunk of a long row can be summed
// at once, by a thread whose 32 entries' loads go out in two batches, and what stays
// sequential is 32 additions, then 256 a level. A row of up to 32 entries is one chunk: its sum
// is the plain left-to-right sum. -0.0 is an exact identity of addition, so the levels above a
// lone chunk add nothing. (Chunks of 256 entries left the thread that sums one waiting on its
// loads: 49 us for a row of 20,000 entries on an H100, where Fast mode took 8.6.)
//
// A sequential walker keeps one partial sum per level (BlockedSums, below, for the levels
// above the entries); a parallel one sums chunks or groups apart and hands their sums to the
// level above (detail/long_rows_in_order.hpp). Both perform the same roundings.
#include <araios/detail/spmv_dispatch.hpp>

#include <Kokkos_Core.hpp>

#include <cstdint>

namespace araios::Impl {

/// Entries of a chunk: the length up to which a row is summed plainly, left to right.
constexpr int kChunkEntries = 32;
/// Chunks of a group, and groups of a block.
constexpr int kBlockFanIn = 256;
/// Entries of a group (kChunkEntries * kBlockFanIn).
constexpr std::int64_t kGroupEntries = std::int64_t(kChunkEntries) * kBlockFanIn;

/// The partial sums above a row's current chunk: the chunks of the current group, the groups
/// of the current block, and the blocks so far. A walker adds each complete chunk's sum
/// (addChunk) or, when it sums whole groups apart, each group's sum (addGroup); total() then
/// joins the partial levels with the last chunk's sum, as the order above says.
template <class Value>
struct BlockedSums {
  Value chunks, groups, blocks;
  std::int64_t chunkCount;  ///< chunks added so far, a group counting for kBlockFanIn

  KOKKOS_INLINE_FUNCTION BlockedSums()
      : chunks(sumIdentity<Value>()), groups(sumIdentity<Value>()), blocks(sumIdentity<Value>()), chunkCount(0) {}

  /// The next complete chunk's sum.
  KOKKOS_INLINE_FUNCTION void addChunk(Value chunk) {
    chunks = unfusedSum(chunks, chunk);
    if (++chunkCount % kBlockFanIn == 0) {
      closeGroup(chunks);
      chunks = sumIdentity<Value>();
    }
  }

  /// The next group's sum, complete or the row's last; only at a group's start (chunkCount a
  /// multiple of kBlockFanIn). A last, partial group ends the row, so counting it as whole
  /// changes nothing: the block it closes early holds the same sums.
  KOKKOS_INLINE_FUNCTION void addGroup(Value group) {
    chunkCount += kBlockFanIn;
    closeGroup(group);
  }

  /// The row's sum, `lastChunk` being the sum of the entries after the last complete chunk
  /// (-0.0 when there are none). A row of one chunk gives `lastChunk` itself.
  KOKKOS_INLINE_FUNCTION Value total(Value lastChunk) const {
    if (chunkCount == 0) return lastChunk;
    return unfusedSum(blocks, unfusedSum(groups, unfusedSum(chunks, lastChunk)));
  }

 private:
  KOKKOS_INLINE_FUNCTION void closeGroup(Value group) {
    groups = unfusedSum(groups, group);
    if (chunkCount % (std::int64_t(kBlockFanIn) * kBlockFanIn) == 0) {
      blocks = unfusedSum(blocks, groups);
      groups = sumIdentity<Value>();
    }
  }
};

/// A row's sum in the blocked CSR order, one entry at a time: Deterministic mode's row
/// accumulator (detail/row_sum.hpp), whatever the kernel that walks the row.
template <class Value>
struct BlockedRowSum {
  Value chunk;  ///< the current chunk's sum
  int inChunk;  ///< its entries so far
  BlockedSums<Value> above;

  KOKKOS_INLINE_FUNCTION BlockedRowSum() : chunk(sumIdentity<Value>()), inChunk(0) {}

  KOKKOS_INLINE_FUNCTION void add(Value a, Value x) {
    accumulateProduct(chunk, a, x);
    if (++inChunk == kChunkEntries) {
      above.addChunk(chunk);
      chunk = sumIdentity<Value>();
      inChunk = 0;
    }
  }

  KOKKOS_INLINE_FUNCTION Value value() const { return above.total(chunk); }
};

}  // namespace araios::Impl
