#pragma once
// csr-merge: CSR SpMV with the same work for every thread whatever the row lengths, after
// Merrill and Garland's merge-based SpMV. A product walks the merge path of the row ends and
// the entries: rows + nnz items, where an item is either an entry (a product added into the
// current row) or the end of a row. The path is cut into segments of kMergeSegmentItems items,
// so a row of a million entries is spread over 62,500 segments and a thousand empty rows over
// 63, and no thread waits for a long row.
//
// The order of the sums, which fixes the bits in every mode (Fast runs the same kernel):
//   1. Within a segment, each row's entries are summed in CSR order from -0.0, each product and
//      sum rounded. A row that lies in one segment therefore gets csr-scalar's bits.
//   2. The segments' partial sums of a row that crosses segment boundaries are combined by the
//      aligned binary tree over the segment index: node (level l, index m) covers segments
//      [m 2^l, (m+1) 2^l) and adds its left child's sum of the row to its right child's, left
//      first. A child that holds none of the row adds nothing.
// The segment length is part of that definition (another length changes the bits); how the
// tree is cut into launches is not: any aligned power-of-two grouping gives the same additions.
// So the bits depend on the matrix alone, not on the backend, the thread count or the team
// size. They do depend on where a row sits in the whole matrix, so a row block of the matrix
// (one rank's rows, say) can give other bits for a row that crosses a segment boundary.
//
// Three launches: one thread per group of segments finds where the group starts on the path;
// one team per group stages its entries' products in scratch (coalesced), sums
// each segment, writes the rows that end in the segment they start in, and reduces its segments
// by the tree; then one team joins the groups' two open rows each by the rest of the tree. The
// groups' first rows and partial sums live in the caller's workspace (csrMergeWorkspaceValues).
#include <araios/detail/row_sum.hpp>
#include <araios/detail/spmv_dispatch.hpp>
#include <araios/detail/team_scratch.hpp>
#include <araios/formats/csr/csr.hpp>

#include <Kokkos_Core.hpp>

#include <cstdint>

namespace araios::Impl {

/// Items (entries and row ends) per segment of the merge path: part of the definition of the
/// result, not a tuning knob.
constexpr int kMergeSegmentItems = 16;

/// Segments one team takes (a power of two): on a GPU one per thread of a 128-thread team,
/// whose scratch (2,048 products: 19 KB in all for double) leaves room for many teams per SM;
/// on a CPU one thread takes 256 segments, enough work to amortise scheduling. Either gives the
/// same bits (see above).
template <class ExecSpace>
constexpr int csrMergeSegmentsPerTeam() {
  return isHostSpace<ExecSpace>() ? 256 : 128;
}

/// The rows from firstRow to lastRow that a node of the tree touches, and its partial sums of
/// the first and the last of them (one row: both hold its sum). The rows in between are
/// complete and already written.
template <class Value>
struct MergeRecord {
  std::int64_t firstRow;
  std::int64_t lastRow;
  Value firstSum;
  Value lastSum;
};

/// The tree's addition of two adjacent nodes (L's last row is R's first). The shared row's sum
/// is L's part plus R's part; it is written when it is complete, that is when it is neither the
/// first nor the last row of the joined node.
template <class Value, class YView>
KOKKOS_INLINE_FUNCTION MergeRecord<Value> joinMergeRecords(const MergeRecord<Value>& left,
                                                            const MergeRecord<Value>& right, const YView& y,
                                                            std::int64_t numRows, Value alpha, Value beta) {
  const std::int64_t row = left.lastRow;
  const Value sum = unfusedSum(left.lastSum, right.firstSum);
  MergeRecord<Value> joined{left.firstRow, right.lastRow, left.firstRow == row ? sum : left.firstSum,
                            right.lastRow == row ? sum : right.lastSum};
  if (left.firstRow != row && right.lastRow != row && row < numRows) storeRow(y, row, sum, alpha, beta);
  return joined;
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

/// Where a product on A keeps its teams' results: two partial sums per team, and the row where
/// each team's part of the path starts (and where the last one ends).
template <class ExecSpace, class Csr>
struct CsrMergeLayout {
  using Value = typename Csr::value_type;
  using Ordinal = typename Csr::ordinal_type;
  std::int64_t items = 0;     ///< rows + nnz
  std::int64_t segments = 0;  ///< ceil(items / kMergeSegmentItems)
  std::int64_t teams = 0;

  explicit CsrMergeLayout(const Csr& A) {
    items = static_cast<std::int64_t>(A.numRows) + static_cast<std::int64_t>(A.nnz());
    segments = (items + kMergeSegmentItems - 1) / kMergeSegmentItems;
    const int perTeam = csrMergeSegmentsPerTeam<ExecSpace>();
    teams = (segments + perTeam - 1) / perTeam;
  }
  /// Values of workspace: the sums, then the rows (Ordinals) aligned after them.
  std::int64_t workspaceValues() const {
    if (teams == 0) return 0;
    const std::int64_t rowBytes = (teams + 1) * static_cast<std::int64_t>(sizeof(Ordinal)) + alignof(Ordinal);
    return 2 * teams + (rowBytes + static_cast<std::int64_t>(sizeof(Value)) - 1) / static_cast<std::int64_t>(sizeof(Value));
  }
};

template <class ExecSpace, class Csr>
std::int64_t csrMergeWorkspaceValues(const Csr& A) {
  return CsrMergeLayout<ExecSpace, Csr>(A).workspaceValues();
}

/// Where each team's part of the path starts, all searched at once before the teams run (a
/// search inside each team would hold its threads for the search's chain of dependent loads).
template <class Csr>
struct CsrMergeBoundsKernel {
  using Ordinal = typename Csr::ordinal_type;
  Csr A;
  std::int64_t items;
  std::int64_t teamItems;
  Kokkos::View<Ordinal*, typename Csr::device_type, Kokkos::MemoryUnmanaged> teamRows;

  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t t) const {
    const std::int64_t numRows = A.numRows, nnz = static_cast<std::int64_t>(A.nnz());
    const std::int64_t d = t * teamItems < items ? t * teamItems : items;
    teamRows(t) = static_cast<Ordinal>(mergePathRow(d, d > nnz ? d - nnz : 0, d < numRows ? d : numRows,
                                                    [&](std::int64_t i) { return A.rowPtr(i + 1); }));
  }
};

template <class ExecSpace, class Csr, class XView, class YView>
struct CsrMergeTeamKernel {
  using Value = typename Csr::value_type;
  using Ordinal = typename Csr::ordinal_type;
  using Device = typename Csr::device_type;
  using Member = typename Kokkos::TeamPolicy<ExecSpace>::member_type;

  Csr A;
  XView x;
  YView y;
  Value alpha, beta;
  std::int64_t items, segments;
  int segmentsPerTeam;
  Kokkos::View<Value*, Device, Kokkos::MemoryUnmanaged> teamSums;  // first, last per team
  Kokkos::View<Ordinal*, Device, Kokkos::MemoryUnmanaged> teamRows;

  static std::size_t scratchBytes(int segmentsPerTeam) {
    const std::size_t teamItems = static_cast<std::size_t>(segmentsPerTeam) * kMergeSegmentItems;
    return scratchArrayBytes<Value>(teamItems) + scratchArrayBytes<std::int64_t>(segmentsPerTeam + 1) +
           2 * scratchArrayBytes<Value>(segmentsPerTeam);
  }

  KOKKOS_INLINE_FUNCTION void operator()(const Member& team) const {
    const std::size_t teamItems = static_cast<std::size_t>(segmentsPerTeam) * kMergeSegmentItems;
    Value* const products = scratchArray<Value>(team, teamItems);
    std::int64_t* const segmentRows = scratchArray<std::int64_t>(team, segmentsPerTeam + 1);
    Value* const firstSums = scratchArray<Value>(team, segmentsPerTeam);
    Value* const lastSums = scratchArray<Value>(team, segmentsPerTeam);

    const std::int64_t numRows = A.numRows;
    const std::int64_t firstSegment = static_cast<std::int64_t>(team.league_rank()) * segmentsPerTeam;
    const int present = static_cast<int>(segments - firstSegment < segmentsPerTeam ? segments - firstSegment
                                                                                    : segmentsPerTeam);
    const auto diagonalOf = [&](int s) {
      const std::int64_t d = (firstSegment + s) * kMergeSegmentItems;
      return d < items ? d : items;
    };

    // The team's two ends on the whole path, found by CsrMergeBoundsKernel.
    const std::int64_t rowBegin = teamRows(team.league_rank()), rowEnd = teamRows(team.league_rank() + 1);
    Kokkos::single(Kokkos::PerTeam(team), [&]() {
      segmentRows[0] = rowBegin;
      segmentRows[present] = rowEnd;
    });
    const std::int64_t entryBegin = diagonalOf(0) - rowBegin, entryEnd = diagonalOf(present) - rowEnd;

    // Stage the products the team adds, the matrix read once and coalesced.
    Kokkos::parallel_for(Kokkos::TeamThreadRange(team, entryEnd - entryBegin), [&](const std::int64_t j) {
      const std::int64_t k = entryBegin + j;
      products[j] = unfusedProduct(A.values(k), static_cast<Value>(x(A.colIdx(k))));
    });
    team.team_barrier();
    // The row ends are read where they are: the team's few hundred of them stay in L1, and
    // leaving them out of scratch lets more teams share an SM.
    const auto localRowEnd = [&](std::int64_t i) { return A.rowPtr(i + 1); };

    // Each segment's start on the path, searched within the team's rows.
    Kokkos::parallel_for(Kokkos::TeamThreadRange(team, 1, present), [&](const int s) {
      const std::int64_t d = diagonalOf(s);
      const std::int64_t lo = d - entryEnd > rowBegin ? d - entryEnd : rowBegin;
      segmentRows[s] = mergePathRow(d, lo, d - entryBegin < rowEnd ? d - entryBegin : rowEnd, localRowEnd);
    });
    team.team_barrier();

    // Each segment: its rows in CSR order; rows that start and end here are complete.
    Kokkos::parallel_for(Kokkos::TeamThreadRange(team, present), [&](const int s) {
      const std::int64_t firstRow = segmentRows[s], lastRow = segmentRows[s + 1];
      std::int64_t k = diagonalOf(s) - firstRow;
      const std::int64_t kEnd = diagonalOf(s + 1) - lastRow;
      Value sum = sumIdentity<Value>();
      for (std::int64_t i = firstRow; i < lastRow; ++i) {
        const std::int64_t end = localRowEnd(i);
        for (; k < end; ++k) sum = unfusedSum(sum, products[k - entryBegin]);
        if (i == firstRow) {
          firstSums[s] = sum;
        } else {
          storeRow(y, i, sum, alpha, beta);
        }
        sum = sumIdentity<Value>();
      }
      for (; k < kEnd; ++k) sum = unfusedSum(sum, products[k - entryBegin]);
      lastSums[s] = sum;
      if (firstRow == lastRow) firstSums[s] = sum;
    });
    team.team_barrier();

    // The tree over the team's segments, level by level.
    for (int width = 1; width < segmentsPerTeam; width *= 2) {
      Kokkos::parallel_for(Kokkos::TeamThreadRange(team, segmentsPerTeam / (2 * width)), [&](const int m) {
        const int left = 2 * width * m, right = left + width;
        if (right >= present) return;
        const int end = right + width < present ? right + width : present;
        const MergeRecord<Value> joined = joinMergeRecords(
            MergeRecord<Value>{segmentRows[left], segmentRows[right], firstSums[left], lastSums[left]},
            MergeRecord<Value>{segmentRows[right], segmentRows[end], firstSums[right], lastSums[right]}, y, numRows,
            alpha, beta);
        firstSums[left] = joined.firstSum;
        lastSums[left] = joined.lastSum;
      });
      team.team_barrier();
    }
    Kokkos::single(Kokkos::PerTeam(team), [&]() {
      const std::int64_t t = team.league_rank();
      teamSums(2 * t) = firstSums[0];
      teamSums(2 * t + 1) = lastSums[0];
    });
  }
};

/// The rest of the tree, over the teams' records, in one team: each thread joins an aligned
/// run of records in order (a binary counter, which performs the tree's additions of that run),
/// then the runs are joined level by level; the root's two open rows are complete.
template <class ExecSpace, class Csr, class YView>
struct CsrMergeRootKernel {
  using Value = typename Csr::value_type;
  using Ordinal = typename Csr::ordinal_type;
  using Device = typename Csr::device_type;
  using Member = typename Kokkos::TeamPolicy<ExecSpace>::member_type;
  using Record = MergeRecord<Value>;
  static constexpr int kMaxDepth = 64;

  YView y;
  Value alpha, beta;
  std::int64_t numRows, teams;
  Kokkos::View<Value*, Device, Kokkos::MemoryUnmanaged> teamSums;
  Kokkos::View<Ordinal*, Device, Kokkos::MemoryUnmanaged> teamRows;

  static std::size_t scratchBytes(int threads) {
    return 2 * scratchArrayBytes<Value>(threads) + 2 * scratchArrayBytes<std::int64_t>(threads) +
           scratchArrayBytes<int>(threads);
  }

  KOKKOS_INLINE_FUNCTION Record teamRecord(std::int64_t t) const {
    return Record{static_cast<std::int64_t>(teamRows(t)), static_cast<std::int64_t>(teamRows(t + 1)), teamSums(2 * t),
                  teamSums(2 * t + 1)};
  }

  KOKKOS_INLINE_FUNCTION void operator()(const Member& team) const {
    const int threads = team.team_size();
    Value* const firstSums = scratchArray<Value>(team, threads);
    Value* const lastSums = scratchArray<Value>(team, threads);
    std::int64_t* const firstRows = scratchArray<std::int64_t>(team, threads);
    std::int64_t* const lastRows = scratchArray<std::int64_t>(team, threads);
    int* const present = scratchArray<int>(team, threads);
    std::int64_t run = 1;
    while (run * threads < teams) run *= 2;

    Kokkos::parallel_for(Kokkos::TeamThreadRange(team, threads), [&](const int t) {
      const std::int64_t begin = t * run;
      present[t] = begin < teams ? 1 : 0;
      if (begin >= teams) return;
      const std::int64_t end = begin + run < teams ? begin + run : teams;
      Record stack[kMaxDepth];
      int depth = 0;
      for (std::int64_t j = begin; j < end; ++j) {
        Record node = teamRecord(j);
        for (std::int64_t n = j - begin; n & 1; n >>= 1) node = joinMergeRecords(stack[--depth], node, y, numRows, alpha, beta);
        stack[depth++] = node;
      }
      Record node = stack[--depth];
      while (depth > 0) node = joinMergeRecords(stack[--depth], node, y, numRows, alpha, beta);
      firstRows[t] = node.firstRow;
      lastRows[t] = node.lastRow;
      firstSums[t] = node.firstSum;
      lastSums[t] = node.lastSum;
    });
    team.team_barrier();
    for (int width = 1; width < threads; width *= 2) {
      Kokkos::parallel_for(Kokkos::TeamThreadRange(team, (threads + 2 * width - 1) / (2 * width)), [&](const int m) {
        const int left = 2 * width * m, right = left + width;
        if (right >= threads || !present[right]) return;
        const Record joined =
            joinMergeRecords(Record{firstRows[left], lastRows[left], firstSums[left], lastSums[left]},
                             Record{firstRows[right], lastRows[right], firstSums[right], lastSums[right]}, y,
                             numRows, alpha, beta);
        lastRows[left] = joined.lastRow;
        firstSums[left] = joined.firstSum;
        lastSums[left] = joined.lastSum;
      });
      team.team_barrier();
    }
    Kokkos::single(Kokkos::PerTeam(team), [&]() {
      if (firstRows[0] < numRows) storeRow(y, firstRows[0], firstSums[0], alpha, beta);
      if (lastRows[0] != firstRows[0] && lastRows[0] < numRows) storeRow(y, lastRows[0], lastSums[0], alpha, beta);
    });
  }
};

/// y = alpha*A*x + beta*y by the merge path, with `work` of csrMergeWorkspaceValues(A) values.
template <class ExecSpace, class Csr, class XView, class YView>
void csrMergeSpmv(const ExecSpace& exec, const Csr& A, const XView& x, const YView& y, typename Csr::value_type alpha,
                  typename Csr::value_type beta, const Kokkos::View<typename Csr::value_type*, typename Csr::device_type>& work) {
  using Value = typename Csr::value_type;
  using Ordinal = typename Csr::ordinal_type;
  using Device = typename Csr::device_type;
  const CsrMergeLayout<ExecSpace, Csr> layout(A);
  if (layout.teams == 0) return;
  checkWorkspace(work, layout.workspaceValues(), "CSR merge");
  const Kokkos::View<Value*, Device, Kokkos::MemoryUnmanaged> teamSums(work.data(), 2 * layout.teams);
  auto rowsAddress = reinterpret_cast<std::uintptr_t>(work.data() + 2 * layout.teams);
  rowsAddress = (rowsAddress + alignof(Ordinal) - 1) / alignof(Ordinal) * alignof(Ordinal);
  const Kokkos::View<Ordinal*, Device, Kokkos::MemoryUnmanaged> teamRows(reinterpret_cast<Ordinal*>(rowsAddress),
                                                                         layout.teams + 1);

  using TeamKernel = CsrMergeTeamKernel<ExecSpace, Csr, XView, YView>;
  const int perTeam = csrMergeSegmentsPerTeam<ExecSpace>();
  Kokkos::parallel_for("araios::spmv::csr_merge_bounds",
                       Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>(exec, 0, layout.teams + 1),
                       CsrMergeBoundsKernel<Csr>{A, layout.items, static_cast<std::int64_t>(perTeam) * kMergeSegmentItems,
                                                 teamRows});
  const int teamSize = isHostSpace<ExecSpace>() ? 1 : perTeam;
  Kokkos::parallel_for("araios::spmv::csr_merge",
                       Kokkos::TeamPolicy<ExecSpace>(exec, static_cast<int>(layout.teams), teamSize)
                           .set_scratch_size(0, Kokkos::PerTeam(TeamKernel::scratchBytes(perTeam))),
                       TeamKernel{A, x, y, alpha, beta, layout.items, layout.segments, perTeam, teamSums, teamRows});

  using RootKernel = CsrMergeRootKernel<ExecSpace, Csr, YView>;
  // On a GPU each thread joins a run of records one after the other, then the threads' results
  // are joined by levels: up to 1,024 threads, enough for runs of at most 8 records, and no more
  // (each doubling adds a level; a small matrix gets one warp).
  int rootThreads = 1;
  if constexpr (!isHostSpace<ExecSpace>()) {
    rootThreads = 32;
    while (rootThreads < 1024 && 8 * static_cast<std::int64_t>(rootThreads) < layout.teams) rootThreads *= 2;
  }
  Kokkos::parallel_for("araios::spmv::csr_merge_root",
                       Kokkos::TeamPolicy<ExecSpace>(exec, 1, rootThreads)
                           .set_scratch_size(0, Kokkos::PerTeam(RootKernel::scratchBytes(rootThreads))),
                       RootKernel{y, alpha, beta, static_cast<std::int64_t>(A.numRows), layout.teams, teamSums, teamRows});
}

}  // namespace araios::Impl
