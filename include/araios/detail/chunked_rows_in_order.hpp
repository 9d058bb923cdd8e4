#pragma once
// Deterministic mode's rows of a few chunks on a GPU, for the formats that walk rows in CSR
// order (COO, CSC, HYB: detail/rows_in_order.hpp): rows of more than one chunk of the blocked
// CSR order (detail/blocked_sum.hpp) and too short to be summed by groups
// (long_rows_in_order.hpp).
//
// Walked by a thread per row, such a row is a chain of loads and additions as long as the row,
// and a warp waits for its longest row: on a power-law graph of 16.6 million entries, where
// rows of 33 to 512 entries abound, COO took 589 us in Deterministic mode on an H100 and 166
// in Fast mode. The order fixes each chunk's sum and nothing fixes who computes it: so the
// chunks of all these rows are summed at once, a thread per chunk over products its team
// staged, into a workspace, and then a thread per row adds its chunks' sums through
// BlockedSums, as the sequential walk would, and stores the row. The same roundings in the same order: the same
// bits.
#include <araios/detail/blocked_sum.hpp>
#include <araios/detail/long_row_list.hpp>
#include <araios/detail/long_rows_in_order.hpp>
#include <araios/detail/spmv_dispatch.hpp>
#include <araios/detail/team_parallel_for.hpp>
#include <araios/detail/team_scratch.hpp>

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <string>
#include <type_traits>
#include <utility>

namespace araios::Impl {

/// Rows summed by chunks: the list of rows with their first chunks, and each chunk's position
/// in that list (a thread per chunk would otherwise search for its row).
template <class Device>
struct ChunkedRowList {
  LongRowList<std::int64_t, Device> list;
  Kokkos::View<std::int64_t*, Device> rowOfChunk;

  KOKKOS_INLINE_FUNCTION std::int64_t count() const { return list.count; }
  KOKKOS_INLINE_FUNCTION std::int64_t chunks() const { return list.pieces; }
  std::int64_t bytes() const {
    return list.bytes() + static_cast<std::int64_t>(rowOfChunk.span() * sizeof(std::int64_t));
  }
};

/// The lengths that list the rows summed by chunks: more than `longerThan` staged entries and
/// at most `upTo` (the longer ones are summed by groups), cut into chunks over all of a row's
/// entries.
template <class Rows>
struct ChunkedRowLengths {
  Rows rows;
  std::int64_t numRows;
  std::int64_t upTo;
  KOKKOS_INLINE_FUNCTION std::int64_t longLength(std::int64_t i) const {
    const auto staged = static_cast<std::int64_t>(rows.end(i) - rows.begin(i));
    return staged <= upTo ? staged : 0;
  }
  KOKKOS_INLINE_FUNCTION std::int64_t pieceLength(std::int64_t i) const {
    return rowHeadLength(rows, i) + static_cast<std::int64_t>(rows.end(i) - rows.begin(i));
  }
};

template <class Device>
struct MarkRowOfChunks {
  ChunkedRowList<Device> chunked;
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t r) const {
    for (std::int64_t p = chunked.list.firstPiece(r); p < chunked.list.firstPiece(r + 1); ++p) {
      chunked.rowOfChunk(p) = r;
    }
  }
};

/// The rows of `rows` with more than `longerThan` and at most `upTo` staged entries, and their
/// chunks, on `exec` (it waits for `exec`).
template <class Device, class ExecSpace, class Rows>
ChunkedRowList<Device> listChunkedRowsInOrder(const ExecSpace& exec, const Rows& rows, std::int64_t longerThan,
                                              std::int64_t upTo) {
  ChunkedRowList<Device> chunked;
  if (upTo <= longerThan) return chunked;
  chunked.list = listLongRows<std::int64_t, Device>(
      exec, ChunkedRowLengths<Rows>{rows, static_cast<std::int64_t>(rows.numRows), upTo}, longerThan, kChunkEntries,
      "araios::spmv::chunked_rows");
  if (chunked.list.count == 0) return chunked;
  chunked.rowOfChunk = Kokkos::View<std::int64_t*, Device>(
      Kokkos::view_alloc(Kokkos::WithoutInitializing, "araios::spmv::chunked_rows::row_of_chunk"), chunked.chunks());
  Kokkos::parallel_for("araios::spmv::chunked_rows::row_of_chunk",
                       Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>(exec, 0, chunked.count()),
                       MarkRowOfChunks<Device>{chunked});
  exec.fence();
  return chunked;
}

/// A team per kTeamChunks consecutive chunks. Each chunk's place is found once (its row, where
/// its entries start, how many it has) and kept in scratch; then the team loads the chunks'
/// entries a warp per chunk (coalesced: a lane per entry), batched, and stores their products
/// in scratch, a chunk to a line; then a thread per chunk sums its line from -0.0. A thread that
/// read its chunk straight from memory read its entries alone, a cache line per load for its
/// warp: on rows of 20 to 400 entries COO then took 1.5 times Fast mode's time on an H100.
template <class ExecSpace, class Rows, class XView, class Value, class Device>
struct ChunkSumKernel {
  using Member = typename Kokkos::TeamPolicy<ExecSpace>::member_type;
  using Offset = std::decay_t<decltype(std::declval<const Rows&>().begin(std::int64_t(0)))>;
  Rows rows;
  XView x;
  ChunkedRowList<Device> chunked;
  Kokkos::View<Value*, Device, Kokkos::MemoryUnmanaged> chunkSums;

  static constexpr int kTeamChunks = 128;
  /// A chunk's line in scratch: one slot more than its entries, so that the threads summing
  /// neighbouring chunks read different banks.
  static constexpr int kLine = kChunkEntries + 1;
  /// Entries a thread loads before it stores their products: its loads in flight together.
  static constexpr int kBatch = 8;
  /// What a chunk's loads need: its row, the row's first staged position, its head's length,
  /// its first entry in the row and its number of entries.
  static constexpr int kPlace = 5;
  static std::size_t scratchBytes() {
    return scratchArrayBytes<Value>(kTeamChunks * kLine) + scratchArrayBytes<std::int64_t>(kPlace * kTeamChunks);
  }

  KOKKOS_INLINE_FUNCTION void operator()(const Member& team) const {
    Value* const products = scratchArray<Value>(team, kTeamChunks * kLine);
    std::int64_t* const place = scratchArray<std::int64_t>(team, kPlace * kTeamChunks);
    const int rank = team.team_rank(), size = team.team_size();
    const std::int64_t first = static_cast<std::int64_t>(team.league_rank()) * kTeamChunks;
    const int count = static_cast<int>(chunked.chunks() - first < kTeamChunks ? chunked.chunks() - first : kTeamChunks);
    for (int c = rank; c < count; c += size) {
      const std::int64_t p = first + c;
      const std::int64_t r = chunked.rowOfChunk(p);
      const std::int64_t row = chunked.list.rows(r);
      const auto begin = rows.begin(row);
      const std::int64_t head = rowHeadLength(rows, row);
      const std::int64_t length = head + static_cast<std::int64_t>(rows.end(row) - begin);
      const std::int64_t from = (p - chunked.list.firstPiece(r)) * kChunkEntries;
      std::int64_t* const at = place + kPlace * c;
      at[0] = row;
      at[1] = static_cast<std::int64_t>(begin);
      at[2] = head;
      at[3] = from;
      at[4] = length - from < kChunkEntries ? length - from : kChunkEntries;
    }
    team.team_barrier();
    const int entries = count * kChunkEntries;
    for (int k0 = rank; k0 < entries; k0 += kBatch * size) {
      Value a[kBatch] = {}, xe[kBatch] = {};
      std::int64_t column[kBatch] = {};
      bool load[kBatch] = {};
      for (int j = 0; j < kBatch; ++j) {
        const int k = k0 + j * size;
        if (k >= entries) break;
        const std::int64_t* const at = place + kPlace * (k / kChunkEntries);
        load[j] = k % kChunkEntries < at[4];
        if (load[j]) rowEntryAt(rows, at[0], at[3] + k % kChunkEntries, at[2], static_cast<Offset>(at[1]), a[j], column[j]);
      }
      for (int j = 0; j < kBatch; ++j) {
        if (load[j]) xe[j] = static_cast<Value>(x(column[j]));
      }
      for (int j = 0; j < kBatch; ++j) {
        const int k = k0 + j * size;
        if (load[j]) products[(k / kChunkEntries) * kLine + k % kChunkEntries] = unfusedProduct(a[j], xe[j]);
      }
    }
    team.team_barrier();
    for (int c = rank; c < count; c += size) {
      const int n = static_cast<int>(place[kPlace * c + 4]);
      Value sum = sumIdentity<Value>();
      for (int k = 0; k < n; ++k) sum = unfusedSum(sum, products[c * kLine + k]);
      chunkSums(first + c) = sum;
    }
  }
};

/// A thread per row: its chunks' sums through the levels above them, then the store. A last,
/// partial chunk added as if whole gives the same bits: it ends the row, and what it closes
/// early holds the same sums (as for a partial group in BlockedSums::addGroup).
template <class YView, class Value, class Device>
struct ChunkedRowStoreKernel {
  ChunkedRowList<Device> chunked;
  Kokkos::View<Value*, Device, Kokkos::MemoryUnmanaged> chunkSums;
  YView y;
  Value alpha, beta;
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t r) const {
    BlockedSums<Value> above;
    for (std::int64_t p = chunked.list.firstPiece(r); p < chunked.list.firstPiece(r + 1); ++p) {
      above.addChunk(chunkSums(p));
    }
    storeRow(y, chunked.list.rows(r), above.total(sumIdentity<Value>()), alpha, beta);
  }
};

/// Stores the rows of `chunked` in Deterministic mode's order, `chunkSums` holding
/// chunked.chunks() values. The other rows are the caller's.
template <class ExecSpace, class Rows, class XView, class YView, class Device>
void sumChunkedRowsInOrder(const ExecSpace& exec, const Rows& rows, const ChunkedRowList<Device>& chunked,
                           const XView& x, const YView& y, typename YView::non_const_value_type alpha,
                           typename YView::non_const_value_type beta,
                           const Kokkos::View<typename YView::non_const_value_type*, Device,
                                              Kokkos::MemoryUnmanaged>& chunkSums) {
  using Value = typename YView::non_const_value_type;
  using Range = Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>;
  if (chunked.count() == 0) return;
  checkWorkspace(chunkSums, chunked.chunks(), "The chunked rows' chunks");
  using ChunkKernel = ChunkSumKernel<ExecSpace, Rows, XView, Value, Device>;
  const std::int64_t teams = (chunked.chunks() + ChunkKernel::kTeamChunks - 1) / ChunkKernel::kTeamChunks;
  teamParallelFor("araios::spmv::chunked_rows::chunks",
                  Kokkos::TeamPolicy<ExecSpace, Kokkos::LaunchBounds<longRowGroupTeamSize<ExecSpace>(), 1>>(
                      exec, static_cast<int>(teams), longRowGroupTeamSize<ExecSpace>())
                      .set_scratch_size(0, Kokkos::PerTeam(ChunkKernel::scratchBytes())),
                  ChunkKernel{rows, x, chunked, chunkSums});
  Kokkos::parallel_for("araios::spmv::chunked_rows::store", Range(exec, 0, chunked.count()),
                       ChunkedRowStoreKernel<YView, Value, Device>{chunked, chunkSums, y, alpha, beta});
}

}  // namespace araios::Impl
