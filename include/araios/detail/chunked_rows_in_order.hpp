#pragma once
// Deterministic mode's rows of a few chunks on a GPU, for the formats that walk rows in CSR
// order (COO, CSC, HYB: detail/rows_in_order.hpp): rows of more than one chunk of the blocked
// CSR order (detail/blocked_sum.hpp) and too short to be summed by groups
// (long_rows_in_order.hpp).
//
// Walked by a thread per row, such a row is a chain of loads and additions as long as the row,
// and a warp waits for its longest row: on a power-law graph of 16.6 million entries, where
// rows of 33 to 512 entries abound, COO took 589 us in Deterministic mode on an H100 and 166
// in Fast mode. The order fixes each chunk's sum and nothing fixes who computes it: so a thread
// per chunk (at most 32 entries, its loads batched) sums the chunks of all these rows at once,
// into a workspace, and then a thread per row adds its chunks' sums through BlockedSums, as the
// sequential walk would, and stores the row. The same roundings in the same order: the same
// bits. On an H100 (bench/results/nvidia-h100/rows_apart), COO's Deterministic product went from
// 300 to 174 us on a power-law graph of 8.3 million entries (Fast 98), and from 1,434 to 309 on
// rows of 20 to 400 entries (Fast 208). Each chunk's thread still reads its entries alone.
#include <araios/detail/blocked_sum.hpp>
#include <araios/detail/long_row_list.hpp>
#include <araios/detail/long_rows_in_order.hpp>
#include <araios/detail/spmv_dispatch.hpp>

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <string>

namespace araios::Impl {

/// Rows summed by chunks: the list of rows with their first chunks, and each chunk's position
/// in that list (a thread per chunk would otherwise search for its row).
template <class Device>
struct ChunkedRowList {
  LongRowList<std::int64_t, Device> list;
  Kokkos::View<std::int64_t*, Device> rowOfChunk;

  std::int64_t count() const { return list.count; }
  std::int64_t chunks() const { return list.pieces; }
  std::int64_t bytes() const {
    return list.bytes() + static_cast<std::int64_t>(rowOfChunk.span() * sizeof(std::int64_t));
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
      exec, RowsInOrderLengths<Rows>{rows, static_cast<std::int64_t>(rows.numRows), upTo}, longerThan, kChunkEntries,
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

/// Entries [from, to) of row `row` (at most a chunk), summed one after the other from -0.0,
/// their loads in batches: all of a batch in flight before the additions that wait on them.
template <class Rows, class XView, class Value, class Offset>
KOKKOS_INLINE_FUNCTION Value sumRowEntries(const Rows& rows, const XView& x, std::int64_t row, std::int64_t head,
                                           Offset begin, std::int64_t from, std::int64_t to) {
  constexpr int kBatch = 16;
  Value sum = sumIdentity<Value>();
  for (std::int64_t e = from; e < to; e += kBatch) {
    Value a[kBatch] = {}, xe[kBatch] = {};
    std::int64_t column[kBatch] = {};
    for (int j = 0; j < kBatch; ++j) {
      if (e + j < to) rowEntryAt(rows, row, e + j, head, begin, a[j], column[j]);
    }
    for (int j = 0; j < kBatch; ++j) {
      if (e + j < to) xe[j] = static_cast<Value>(x(column[j]));
    }
    for (int j = 0; j < kBatch; ++j) {
      if (e + j < to) accumulateProduct(sum, a[j], xe[j]);
    }
  }
  return sum;
}

/// A thread per chunk: its sum from -0.0.
template <class Rows, class XView, class Value, class Device>
struct ChunkSumKernel {
  Rows rows;
  XView x;
  ChunkedRowList<Device> chunked;
  Kokkos::View<Value*, Device, Kokkos::MemoryUnmanaged> chunkSums;
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t p) const {
    const std::int64_t r = chunked.rowOfChunk(p);
    const std::int64_t row = chunked.list.rows(r);
    const auto begin = rows.begin(row);
    const std::int64_t head = rowHeadLength(rows, row);
    const std::int64_t length = head + static_cast<std::int64_t>(rows.end(row) - begin);
    const std::int64_t from = (p - chunked.list.firstPiece(r)) * kChunkEntries;
    const std::int64_t to = from + kChunkEntries < length ? from + kChunkEntries : length;
    chunkSums(p) = sumRowEntries<Rows, XView, Value>(rows, x, row, head, begin, from, to);
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
  Kokkos::parallel_for("araios::spmv::chunked_rows::chunks", Range(exec, 0, chunked.chunks()),
                       ChunkSumKernel<Rows, XView, Value, Device>{rows, x, chunked, chunkSums});
  Kokkos::parallel_for("araios::spmv::chunked_rows::store", Range(exec, 0, chunked.count()),
                       ChunkedRowStoreKernel<YView, Value, Device>{chunked, chunkSums, y, alpha, beta});
}

}  // namespace araios::Impl
