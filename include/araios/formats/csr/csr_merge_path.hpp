#pragma once
// The merge path of csr-merge (csr_merge.hpp): its segment length, which is part of the
// definition of the result, how many segments a team takes, and the search for the row at a
// point of the path. Entry k of row i is item k + i of the path and row i's end is item
// rowPtr(i + 1) + i, so the path of an n-row matrix with nnz entries holds n + nnz items.
#include <araios/detail/host_space.hpp>

#include <Kokkos_Core.hpp>

#include <cstdint>

namespace araios::Impl {

/// Items (entries and row ends) per segment of the merge path: part of the definition of the
/// result, not a tuning knob.
constexpr int kMergeSegmentItems = 16;

/// Segments one team takes (a power of two): on a GPU one per thread of a 128-thread team,
/// whose scratch (2,048 products: 19 KB in all for double) leaves room for many teams per SM;
/// on a CPU one thread takes 256 segments, enough work to amortise scheduling. Either gives the
/// same bits (csr_merge.hpp).
template <class ExecSpace>
constexpr int csrMergeSegmentsPerTeam() {
  return isHostSpace<ExecSpace>() ? 256 : 128;
}

/// Items of the path one team takes on ExecSpace: team t takes items [t T, (t + 1) T).
template <class ExecSpace>
constexpr std::int64_t csrMergeTeamItems() {
  return static_cast<std::int64_t>(csrMergeSegmentsPerTeam<ExecSpace>()) * kMergeSegmentItems;
}

/// The row at diagonal `diagonal` of the merge path (the entry is diagonal - row), searched in
/// rows [lo, hi); rowEnd(i) is the offset one past row i's last entry.
template <class RowEnd>
KOKKOS_INLINE_FUNCTION std::int64_t mergePathRow(std::int64_t diagonal, std::int64_t lo, std::int64_t hi,
                                                 const RowEnd& rowEnd) {
  while (lo < hi) {
    const std::int64_t pivot = lo + (hi - lo) / 2;
    if (static_cast<std::int64_t>(rowEnd(pivot)) <= diagonal - pivot - 1) {
      lo = pivot + 1;
    } else {
      hi = pivot;
    }
  }
  return lo;
}

}  // namespace araios::Impl
