#pragma once
// Deterministic mode's long rows on a GPU for the formats that walk rows in CSR order (COO,
// CSC, HYB: detail/rows_in_order.hpp), spread over as many teams as the rows have groups of the
// blocked CSR order (detail/blocked_sum.hpp).
//
// The order fixes the sum of each chunk of 32 entries and of each group of 256 chunks, and
// nothing fixes who computes them. So a team per group sums the group's chunks, a thread per
// chunk over products the team staged in scratch, and then the chunks' sums one after the other
// into the group's sum, stored in a workspace; a thread per long row then adds its groups' sums through
// BlockedSums, as a sequential walk would, and stores the row. The same roundings in the same
// order as one thread walking the row: the same bits. A row of 1.36 million entries has 167
// groups and 42,565 chunks, summed at once; walked by one thread it was a chain of 1.36 million
// additions, each waiting on its loads.
//
// A Rows type (rows_in_order.hpp) may have a head, entries summed before its staged ones (HYB's
// ELL slots); for this walk it tells their number and reads them one by one:
//   headLength(i)                 the head's entries of a row with staged entries;
//   headEntry(i, k, a, column)    the head's entry k.
#include <araios/detail/blocked_sum.hpp>
#include <araios/detail/host_space.hpp>
#include <araios/detail/long_row_list.hpp>
#include <araios/detail/spmv_dispatch.hpp>
#include <araios/detail/team_parallel_for.hpp>
#include <araios/detail/team_scratch.hpp>

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <limits>
#include <type_traits>
#include <utility>

namespace araios::Impl {

template <class Rows, class = void>
struct HasRowHead : std::false_type {};
template <class Rows>
struct HasRowHead<Rows, std::void_t<decltype(std::declval<const Rows&>().headLength(std::int64_t(0)))>>
    : std::true_type {};

/// The entries of row i summed before its staged ones (none unless Rows has a head).
template <class Rows>
KOKKOS_INLINE_FUNCTION std::int64_t rowHeadLength(const Rows& rows, std::int64_t i) {
  if constexpr (HasRowHead<Rows>::value) {
    return static_cast<std::int64_t>(rows.headLength(i));
  } else {
    (void)rows, (void)i;
    return 0;
  }
}

/// Entry e of row i in CSR order: the head's first, then the staged ones from `begin`.
template <class Rows, class Value, class Offset>
KOKKOS_INLINE_FUNCTION void rowEntryAt(const Rows& rows, std::int64_t i, std::int64_t e, std::int64_t head,
                                       Offset begin, Value& a, std::int64_t& column) {
  if constexpr (HasRowHead<Rows>::value) {
    if (e < head) {
      rows.headEntry(i, e, a, column);
      return;
    }
  }
  rows.entry(static_cast<Offset>(begin + (e - head)), a, column);
}

/// The lengths that list a format's rows apart (long_row_list.hpp): by staged entries (the team
/// walk's test), those past `upTo` left out (they go to another list), cut into pieces over all
/// of the row's entries.
template <class Rows>
struct RowsInOrderLengths {
  Rows rows;
  std::int64_t numRows;
  std::int64_t upTo = std::numeric_limits<std::int64_t>::max();
  KOKKOS_INLINE_FUNCTION std::int64_t stagedLength(std::int64_t i) const {
    return static_cast<std::int64_t>(rows.end(i) - rows.begin(i));
  }
  KOKKOS_INLINE_FUNCTION std::int64_t longLength(std::int64_t i) const {
    const std::int64_t staged = stagedLength(i);
    return staged <= upTo ? staged : 0;
  }
  KOKKOS_INLINE_FUNCTION std::int64_t pieceLength(std::int64_t i) const {
    return rowHeadLength(rows, i) + stagedLength(i);
  }
};

/// The long rows of `rows` (more than `longerThan` staged entries) and their groups, on `exec`.
template <class Device, class ExecSpace, class Rows>
LongRowList<std::int64_t, Device> listLongRowsInOrder(const ExecSpace& exec, const Rows& rows,
                                                      std::int64_t longerThan) {
  return listLongRows<std::int64_t, Device>(exec,
                                            RowsInOrderLengths<Rows>{rows, static_cast<std::int64_t>(rows.numRows)},
                                            longerThan, kGroupEntries, "araios::spmv::rows_in_order");
}

/// Threads of a group's team: a chunk each on a GPU; a CPU (tests) runs teams of one.
template <class ExecSpace>
constexpr int longRowGroupTeamSize() {
  return isHostSpace<ExecSpace>() ? 1 : kBlockFanIn;
}

/// A team per group. The group's entries are staged in rounds of kRoundChunks chunks: the team
/// loads a round's entries side by side (coalesced: neighbouring threads, neighbouring
/// entries) and stores their products in scratch, a chunk to a line; then a thread per chunk
/// sums its line from -0.0. Last, thread 0 adds the chunks' sums one after the other from -0.0
/// into the group's sum. A thread that summed a chunk straight from memory read its 32 entries
/// alone, 256 bytes apart from its neighbours' (804 us on a circuit-like matrix of 42.9 million
/// entries on an H100, where Fast mode took 388).
template <class ExecSpace, class Rows, class XView, class Value, class Device>
struct LongRowGroupKernel {
  using Member = typename Kokkos::TeamPolicy<ExecSpace>::member_type;
  Rows rows;
  XView x;
  LongRowList<std::int64_t, Device> list;
  Kokkos::View<Value*, Device, Kokkos::MemoryUnmanaged> groupSums;

  static constexpr int kRoundChunks = 64;
  static constexpr int kRoundEntries = kRoundChunks * kChunkEntries;
  /// A chunk's line in scratch: one slot more than its entries, so that the threads summing
  /// neighbouring chunks read different banks.
  static constexpr int kLine = kChunkEntries + 1;
  /// Entries a thread loads before it stores their products: its loads in flight together.
  static constexpr int kBatch = 8;
  static std::size_t scratchBytes() {
    return scratchArrayBytes<Value>(kRoundChunks * kLine) + scratchArrayBytes<Value>(kBlockFanIn);
  }

  KOKKOS_INLINE_FUNCTION void operator()(const Member& team) const {
    Value* const products = scratchArray<Value>(team, kRoundChunks * kLine);
    Value* const chunkSums = scratchArray<Value>(team, kBlockFanIn);
    const int rank = team.team_rank(), size = team.team_size();
    const std::int64_t g = team.league_rank();
    const std::int64_t r = list.rowOfPiece(g);
    const std::int64_t row = list.rows(r);
    const auto begin = rows.begin(row);
    const std::int64_t head = rowHeadLength(rows, row);
    const std::int64_t length = head + static_cast<std::int64_t>(rows.end(row) - begin);
    const std::int64_t first = (g - list.firstPiece(r)) * kGroupEntries;
    const std::int64_t last = first + kGroupEntries < length ? first + kGroupEntries : length;
    int chunks = 0;
    for (std::int64_t round = first; round < last; round += kRoundEntries) {
      const int n = static_cast<int>(last - round < kRoundEntries ? last - round : kRoundEntries);
      for (int k0 = rank; k0 < n; k0 += kBatch * size) {
        Value a[kBatch] = {}, xe[kBatch] = {};
        std::int64_t column[kBatch] = {};
        for (int j = 0; j < kBatch; ++j) {
          const int k = k0 + j * size;
          if (k < n) rowEntryAt(rows, row, round + k, head, begin, a[j], column[j]);
        }
        for (int j = 0; j < kBatch; ++j) {
          if (k0 + j * size < n) xe[j] = static_cast<Value>(x(column[j]));
        }
        for (int j = 0; j < kBatch; ++j) {
          const int k = k0 + j * size;
          if (k < n) products[(k / kChunkEntries) * kLine + k % kChunkEntries] = unfusedProduct(a[j], xe[j]);
        }
      }
      team.team_barrier();
      const int roundChunks = (n + kChunkEntries - 1) / kChunkEntries;
      for (int c = rank; c < roundChunks; c += size) {
        const int m = n - c * kChunkEntries < kChunkEntries ? n - c * kChunkEntries : kChunkEntries;
        Value sum = sumIdentity<Value>();
        for (int k = 0; k < m; ++k) sum = unfusedSum(sum, products[c * kLine + k]);
        chunkSums[chunks + c] = sum;
      }
      chunks += roundChunks;
      team.team_barrier();  // the products are read before the next round overwrites them
    }
    if (rank == 0) {
      Value group = sumIdentity<Value>();
      for (int c = 0; c < chunks; ++c) group = unfusedSum(group, chunkSums[c]);
      groupSums(g) = group;
    }
  }
};

/// A thread per long row: its groups' sums through the levels above them, then the store.
template <class YView, class Value, class Device>
struct LongRowStoreKernel {
  LongRowList<std::int64_t, Device> list;
  Kokkos::View<Value*, Device, Kokkos::MemoryUnmanaged> groupSums;
  YView y;
  Value alpha, beta;
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t r) const {
    BlockedSums<Value> above;
    for (std::int64_t g = list.firstPiece(r); g < list.firstPiece(r + 1); ++g) above.addGroup(groupSums(g));
    storeRow(y, list.rows(r), above.total(sumIdentity<Value>()), alpha, beta);
  }
};

/// Stores the rows of `list` in Deterministic mode's order, `groupSums` holding list.pieces
/// values. The other rows are the caller's.
template <class ExecSpace, class Rows, class XView, class YView, class Device>
void sumLongRowsInOrder(const ExecSpace& exec, const Rows& rows, const LongRowList<std::int64_t, Device>& list,
                        const XView& x, const YView& y, typename YView::non_const_value_type alpha,
                        typename YView::non_const_value_type beta,
                        const Kokkos::View<typename YView::non_const_value_type*, Device,
                                           Kokkos::MemoryUnmanaged>& groupSums) {
  using Value = typename YView::non_const_value_type;
  using GroupKernel = LongRowGroupKernel<ExecSpace, Rows, XView, Value, Device>;
  if (list.count == 0) return;
  checkWorkspace(groupSums, list.pieces, "The long rows' groups");
  teamParallelFor("araios::spmv::long_rows::groups",
                  Kokkos::TeamPolicy<ExecSpace, Kokkos::LaunchBounds<longRowGroupTeamSize<ExecSpace>(), 1>>(
                      exec, static_cast<int>(list.pieces), longRowGroupTeamSize<ExecSpace>())
                      .set_scratch_size(0, Kokkos::PerTeam(GroupKernel::scratchBytes())),
                  GroupKernel{rows, x, list, groupSums});
  Kokkos::parallel_for("araios::spmv::long_rows::store",
                       Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>(exec, 0, list.count),
                       LongRowStoreKernel<YView, Value, Device>{list, groupSums, y, alpha, beta});
}

}  // namespace araios::Impl
