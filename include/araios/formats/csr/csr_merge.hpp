#pragma once
// csr-merge: CSR SpMV with the same work for every thread whatever the row lengths, after
// Merrill and Garland's merge-based SpMV. A product walks the merge path of the row ends and
// the entries: rows + nnz items, where an item is either an entry (a product added into the
// current row) or the end of a row. The path is cut into segments of kMergeSegmentItems items,
// so a row of a million entries is spread over 62,500 segments and a thousand empty rows over
// 63, and no thread waits for a long row.
//
// The order of the sums, which fixes the bits in Fast and Deterministic modes (Fast runs the
// same kernel):
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
// Three launches or more: one thread per group of segments finds where the group starts on the path
// (an operator finds these bounds once, when it is built: CsrMergeBounds); one team per group
// stages its entries' products in scratch (coalesced), sums each segment, writes the rows that end
// in the segment they start in, and reduces its segments by the tree; then the groups' records (two
// open rows each) are joined by the rest of the tree, 128 records per team and a launch per level
// (one level up to 128 groups, two up to 16,384). The groups' first rows and partial sums live in
// the caller's workspace (csrMergeWorkspaceValues). On a CPU a team is one thread, which walks its
// group's segments straight from CSR instead of staging them (walkSegmentsInPlace): the same sums,
// at about csr-scalar's speed instead of three times its time. A GPU's team whose part of the
// path lies inside one row, as most of a long row's teams do, finds no rows: its segments are
// runs of consecutive entries and its record holds that one row (sumTeamInOneRow).
//
// Short rows apart (an operator's plan, made once by csrMergeBounds): where no row is longer
// than kMergeShortRowEntries and the rows are short or gather x from near columns
// (csrMergeShortRowsGoApart), one thread per row sums it (csr_merge_short_rows.hpp: the same
// bits) and no team runs. The plan can also be forced where
// some rows are long, for tests and comparisons: the short rows' pass runs first, then only the
// teams that hold a long row's items, storing only the long rows; the tree above the teams reads
// the other teams' records as holding nothing. A product on a bare matrix walks the whole path.
// The environment variable ARAIOS_CSR_MERGE_SHORT_ROWS=path keeps every operator on the whole
// path, so that one program can time both plans.
//
#include <araios/detail/row_sum.hpp>
#include <araios/detail/spmv_dispatch.hpp>
#include <araios/detail/team_parallel_for.hpp>
#include <araios/detail/team_scratch.hpp>
#include <araios/formats/csr/csr.hpp>
#include <araios/formats/csr/csr_merge_path.hpp>
#include <araios/formats/csr/csr_merge_short_rows.hpp>
#include <araios/formats/csr/csr_merge_sums.hpp>

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>

namespace araios::Impl {

/// The rows from firstRow to lastRow that a node of the tree touches, and its partial sums of
/// the first and the last of them (one row: both hold its sum). The rows in between are
/// complete and already written.
template <class Partial>
struct MergeRecord {
  std::int64_t firstRow;
  std::int64_t lastRow;
  Partial firstSum;
  Partial lastSum;
};

/// The tree's addition of two adjacent nodes (L's last row is R's first). The shared row's sum
/// is L's part plus R's part; it is written when it is complete, that is when it is neither the
/// first nor the last row of the joined node, and when `stored` keeps it.
template <class Sum, class YView, class Value, class Stored>
KOKKOS_INLINE_FUNCTION MergeRecord<typename Sum::Partial> joinMergeRecords(
    const MergeRecord<typename Sum::Partial>& left, const MergeRecord<typename Sum::Partial>& right, const YView& y,
    std::int64_t numRows, Value alpha, Value beta, const Stored& stored) {
  using Partial = typename Sum::Partial;
  const std::int64_t row = left.lastRow;
  const Partial sum = Sum::join(left.lastSum, right.firstSum);
  MergeRecord<Partial> joined{left.firstRow, right.lastRow, left.firstRow == row ? sum : left.firstSum,
                              right.lastRow == row ? sum : right.lastSum};
  if (left.firstRow != row && right.lastRow != row && row < numRows && stored.stores(row)) {
    Sum::store(y, row, sum, alpha, beta);
  }
  return joined;
}

/// The aligned tree over `present` adjacent records held in a team's scratch (record r covers
/// rows[r] to rows[r + 1], with partial sums firstSums[r] and lastSums[r]), `size` a power of
/// two at least `present`: level by level, node (width, m) joins its right child into its left
/// one, writing every row the join completes. The root is left in firstSums[0] and lastSums[0].
/// Used for the segments of a team and for each level of records above the teams.
template <class Sum, class Member, class Value, class YView, class Stored>
KOKKOS_INLINE_FUNCTION void joinRecordsByTree(const Member& team, int size, int present, const std::int64_t* rows,
                                              typename Sum::Partial* firstSums, typename Sum::Partial* lastSums,
                                              const YView& y, std::int64_t numRows, Value alpha, Value beta,
                                              const Stored& stored) {
  using Record = MergeRecord<typename Sum::Partial>;
  for (int width = 1; width < size; width *= 2) {
    Kokkos::parallel_for(Kokkos::TeamThreadRange(team, size / (2 * width)), [&](const int m) {
      const int left = 2 * width * m, right = left + width;
      if (right >= present) return;
      const int end = right + width < present ? right + width : present;
      const Record joined = joinMergeRecords<Sum>(Record{rows[left], rows[right], firstSums[left], lastSums[left]},
                                                  Record{rows[right], rows[end], firstSums[right], lastSums[right]}, y,
                                                  numRows, alpha, beta, stored);
      firstSums[left] = joined.firstSum;
      lastSums[left] = joined.lastSum;
    });
    team.team_barrier();
  }
}

/// Where a product on A keeps its teams' results: two partial sums per team, and the row where
/// each team's part of the path starts (and where the last one ends), each array aligned.
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
  /// Values of workspace with partial sums of type Partial.
  template <class Partial>
  std::int64_t workspaceValuesFor() const {
    if (teams == 0) return 0;
    const std::int64_t bytes = static_cast<std::int64_t>(alignof(Partial)) +
                               2 * teams * static_cast<std::int64_t>(sizeof(Partial)) +
                               static_cast<std::int64_t>(alignof(Ordinal)) +
                               (teams + 1) * static_cast<std::int64_t>(sizeof(Ordinal));
    return (bytes + static_cast<std::int64_t>(sizeof(Value)) - 1) / static_cast<std::int64_t>(sizeof(Value));
  }
  /// Values of workspace of a product (Fast or Deterministic mode; Accurate mode runs the CSR
  /// Accurate product, csr_accurate.hpp).
  std::int64_t workspaceValues() const { return workspaceValuesFor<typename RoundedMergeSum<Value>::Partial>(); }
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

/// Where each team's part of the path starts on `exec`'s layout: teams + 1 rows, found from
/// the row offsets alone; and, where the short rows go apart, the teams that then run (marked 1
/// in longRowTeams, longRowTeamCount of them; empty otherwise). An operator makes these once and keeps
/// them (Spmv<CSR>::State, its products' state); a product on a bare matrix searches the bounds
/// into its workspace on each call and walks the whole path.
template <class Ordinal, class Device>
struct CsrMergeBounds {
  Kokkos::View<Ordinal*, Device> teamRows;
  Kokkos::View<std::uint8_t*, Device> longRowTeams;
  std::int64_t longRowTeamCount = 0;
  /// No row longer than kMergeSegmentItems: the short rows' pass takes its two-segment kernel.
  bool shortRowsInTwoSegments = false;
  bool ready() const { return teamRows.extent(0) > 0; }
  bool shortRowsApart() const { return longRowTeams.extent(0) > 0; }
  std::int64_t bytes() const {
    return static_cast<std::int64_t>(teamRows.extent(0) * sizeof(Ordinal) + longRowTeams.extent(0));
  }
  /// The plan of csr-merge's products in words (nothing for another algorithm, which reads none).
  std::string describe(SpmvAlgorithm algorithm) const {
    if (algorithm != SpmvAlgorithm::CsrMerge || !ready()) return {};
    const std::string teams = std::to_string(teamRows.extent(0) - 1);
    return shortRowsApart() ? "csr-merge: short rows apart, then " + std::to_string(longRowTeamCount) + " of " +
                                  teams + " teams on the merge path"
                            : "csr-merge: the whole merge path, " + teams + " teams";
  }
};

/// How an operator's csr-merge treats its short rows: by the rule above (Auto), always apart, or
/// always on the path (the last two for tests and comparisons; the bits are the same).
enum class MergeShortRows { Auto, Apart, OnThePath };

/// Whether ARAIOS_CSR_MERGE_SHORT_ROWS=path asks every operator to keep its short rows on the path.
inline bool mergeShortRowsKeptOnPathByEnvironment() {
  const char* value = std::getenv("ARAIOS_CSR_MERGE_SHORT_ROWS");
  return value != nullptr && std::strcmp(value, "path") == 0;
}

template <class ExecSpace, class Csr, class TeamRows>
void searchCsrMergeBounds(const ExecSpace& exec, const Csr& A, std::int64_t items, std::int64_t teams,
                          const TeamRows& teamRows) {
  Kokkos::parallel_for("araios::spmv::csr_merge_bounds",
                       Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>(exec, 0, teams + 1),
                       CsrMergeBoundsKernel<Csr>{A, items, csrMergeTeamItems<ExecSpace>(), teamRows});
}

/// Rows that average at most this many entries go apart whatever their columns (the rule below).
constexpr std::int64_t kMergeApartMeanRowEntries = 8;

/// What the rule reads of a matrix; farRows only where the rule needs it (-1 otherwise).
struct MergeRowShape {
  std::int64_t rows = 0, entries = 0, longestRow = 0;
  std::int64_t farRows = -1;  ///< rows whose entries span more than kMergeNearColumns columns
  /// Whether the rule reads farRows.
  constexpr bool needsFarRows() const {
    return !mergeRowIsLong(longestRow) && longestRow > kMergeSegmentItems && entries > kMergeApartMeanRowEntries * rows;
  }
};

/// The rule of an operator's plan: the short rows go apart where no row is long (none longer
/// than kMergeShortRowEntries) and either no row is longer than kMergeSegmentItems, or the rows
/// average at most kMergeApartMeanRowEntries entries, or at most one row in 16 spans more than
/// kMergeNearColumns columns. The short rows' pass is then the whole product and no team runs.
///
/// Measured on an H200 (bench/results/nvidia-h200/merge_plans: both plans of one operator timed
/// in one process, 48 to 82 matrices per run and a sweep of the share of teams that hold a long
/// row's items), apart's time over the whole path's (the mean of two runs):
///   - no row longer than 16: 0.33 (20,000 rows of 3 to 5) to 0.80, in random columns too;
///   - no row longer than 49, rows of 4.7 to 8 entries on average in random columns: 0.76 (a
///     drawn rectangle) and 1.01 (1.5 x 10^6 rows of 1 to 15);
///   - no row longer than 49, near columns (a band of 129 columns, 27-point stencils, drawn FEM
///     matrices), rows of 8 to 26 entries on average: 0.44 to 0.91 on 10 matrices, 1.00 on one;
///   - no row longer than 49, random columns, rows of 12 to 26 entries on average: 1.15 to 1.50
///     on 6 matrices, 0.83 on a drawn one of 126,000 rows;
///   - long rows among 10^6 rows of 1 to 3: 1.03 to 1.11 with 4 to 57 % of the teams marked;
///   - long rows among rows of 5 to 12: 1.25 to 1.34 with 2 to 44 % marked;
///   - 25 other matrices with long rows: 1.07 to 1.85 on 23 of them; 0.98 on 11 rows of 2 x 10^6
///     among rows of 1, and 0.81 on one row of 2 x 10^6 among rows of 1 in random columns.
/// A thread per row reads its entries uncoalesced, and gathers from far columns evict those
/// lines before the row's next entries use them; near columns and short rows leave them. Where
/// some team holds a long row's items, those teams cost what they cost on the path, and the short
/// rows' pass most likely costs more than the part of the path it spares.
constexpr bool csrMergeShortRowsGoApart(const MergeRowShape& m) {
  if (mergeRowIsLong(m.longestRow)) return false;
  if (m.longestRow <= kMergeSegmentItems || m.entries <= kMergeApartMeanRowEntries * m.rows) return true;
  return m.farRows >= 0 && m.farRows * 16 <= m.rows;
}

/// The bounds and plan of A's products on ExecSpace, made once (an operator's state): the short
/// rows go apart by the rule above (Auto), always, or never.
template <class ExecSpace, class Csr>
CsrMergeBounds<typename Csr::ordinal_type, typename Csr::device_type> csrMergeBounds(
    const ExecSpace& exec, const Csr& A, MergeShortRows shortRows = MergeShortRows::Auto) {
  const CsrMergeLayout<ExecSpace, Csr> layout(A);
  CsrMergeBounds<typename Csr::ordinal_type, typename Csr::device_type> bounds;
  if (layout.teams == 0) return bounds;
  bounds.teamRows = decltype(bounds.teamRows)(
      Kokkos::view_alloc(Kokkos::WithoutInitializing, "araios::spmv::csr_merge::team_rows"), layout.teams + 1);
  searchCsrMergeBounds(exec, A, layout.items, layout.teams, bounds.teamRows);
  if (shortRows == MergeShortRows::Auto && mergeShortRowsKeptOnPathByEnvironment()) return bounds;
  if (shortRows == MergeShortRows::OnThePath) return bounds;
  MergeRowShape shape{A.numRows, static_cast<std::int64_t>(A.nnz()), csrLongestRow(exec, A)};
  if (shortRows == MergeShortRows::Auto && shape.needsFarRows()) shape.farRows = csrFarRows(exec, A);
  if (shortRows == MergeShortRows::Auto && !csrMergeShortRowsGoApart(shape)) return bounds;
  // Apart: the teams that hold a long row's items (none, unless the plan was forced).
  bounds.longRowTeams = decltype(bounds.longRowTeams)(
      Kokkos::view_alloc(Kokkos::WithoutInitializing, "araios::spmv::csr_merge::long_row_teams"), layout.teams);
  bounds.longRowTeamCount = markCsrMergeLongRowTeams(exec, A, bounds.teamRows, layout.teams, bounds.longRowTeams);
  bounds.shortRowsInTwoSegments = shape.longestRow <= kMergeSegmentItems;
  return bounds;
}

template <class ExecSpace, class Csr, class XView, class YView, class Sum>
struct CsrMergeTeamKernel {
  using Value = typename Csr::value_type;
  using Ordinal = typename Csr::ordinal_type;
  using Device = typename Csr::device_type;
  using Member = typename Kokkos::TeamPolicy<ExecSpace>::member_type;
  using Partial = typename Sum::Partial;
  using Staged = typename Sum::Staged;

  Csr A;
  XView x;
  YView y;
  Value alpha, beta;
  std::int64_t items, segments;
  int segmentsPerTeam;
  Kokkos::View<Partial*, Device, Kokkos::MemoryUnmanaged> teamSums;  // first, last per team
  Kokkos::View<Ordinal*, Device, Kokkos::MemoryUnmanaged> teamRows;
  /// With the short rows apart: the teams that run (1) and the rows they store.
  Kokkos::View<const std::uint8_t*, Device, Kokkos::MemoryUnmanaged> longRowTeams;
  MergeStoredRows<decltype(Csr::rowPtr)> stored;

  /// Scratch slots per segment: its at most kMergeSegmentItems products and one slot of
  /// padding. An odd stride puts the 32 segments a warp sums at once in 32 different banks,
  /// whatever the row lengths (without the padding, segments of 16 entries each, a long row's,
  /// would all start in one bank and serialise the warp's loads 16 ways).
  static constexpr int kSlots = kMergeSegmentItems + 1;
  /// Entries a thread loads before it uses any of them.
  static constexpr int kStageBatch = 4;
  /// Teams an SM should hold at once (the launch bounds' second argument).
  static constexpr int kTeamsPerSm = Sum::kTeamsPerSm;

  /// The staged products are a GPU's: a CPU's one thread walks the segments where they lie
  /// (walkSegmentsInPlace).
  static constexpr bool kStages = !isHostSpace<ExecSpace>();

  static std::size_t scratchBytes(int segmentsPerTeam) {
    return (kStages ? scratchArrayBytes<Staged>(static_cast<std::size_t>(segmentsPerTeam) * kSlots) : 0) +
           scratchArrayBytes<std::int64_t>(segmentsPerTeam + 1) + 2 * scratchArrayBytes<Partial>(segmentsPerTeam);
  }

  /// A CPU's team (one thread): the same segments, rows and sums as stageAndSumSegments, in
  /// one pass over the team's part of the path. Entries are read where CSR stores them, each
  /// once, in order; staging them first (a GPU's way to coalesce a warp's loads) only copied
  /// them once more. Segment s's first row is the first row whose end lies at or after the
  /// segment's start: the row the walk is in when it reaches the segment.
  KOKKOS_INLINE_FUNCTION void walkSegmentsInPlace(std::int64_t rowBegin, std::int64_t firstDiagonal, int present,
                                                  std::int64_t* segmentRows, Partial* firstSums,
                                                  Partial* lastSums) const {
    const std::int64_t numRows = A.numRows;
    const auto add = [&](Partial& sum, std::int64_t k) {
      Sum::add(sum, Sum::stage(A.values(k), static_cast<Value>(x(A.colIdx(k)))));
    };
    std::int64_t i = rowBegin;
    std::int64_t k = firstDiagonal - rowBegin;
    for (int s = 0; s < present; ++s) {
      const std::int64_t segmentEnd = firstDiagonal + static_cast<std::int64_t>(s + 1) * kMergeSegmentItems;
      const std::int64_t end = segmentEnd < items ? segmentEnd : items;  // the next segment's start
      const std::int64_t firstRow = i;
      segmentRows[s] = firstRow;
      Partial sum = Sum::identity();
      // The rows whose end item (after their entries and the ends of the rows before) lies in
      // the segment.
      for (; i < numRows && static_cast<std::int64_t>(A.rowPtr(i + 1)) + i < end; ++i) {
        const std::int64_t rowEntriesEnd = A.rowPtr(i + 1);
        const std::int64_t rowStart = k;  // row i's first entry, unless it is the segment's first row
        for (; k < rowEntriesEnd; ++k) add(sum, k);
        if (i == firstRow) {
          firstSums[s] = sum;
        } else if (stored.storesLength(rowEntriesEnd - rowStart)) {
          Sum::store(y, i, sum, alpha, beta);
        }
        sum = Sum::identity();
      }
      // The segment's part of the row it ends in.
      for (const std::int64_t kEnd = end - i; k < kEnd; ++k) add(sum, k);
      lastSums[s] = sum;
      if (firstRow == i) firstSums[s] = sum;
    }
    segmentRows[present] = i;
  }

  /// A GPU's team: finds each segment's first row, stages the segments' products in scratch
  /// and sums each segment from there, in the order the head of this file defines.
  KOKKOS_INLINE_FUNCTION void stageAndSumSegments(const Member& team, std::int64_t rowBegin, std::int64_t rowEnd,
                                                  std::int64_t firstDiagonal, int present, Staged* products,
                                                  std::int64_t* segmentRows, Partial* firstSums,
                                                  Partial* lastSums) const {
    const auto diagonalOf = [&](int s) {
      const std::int64_t d = firstDiagonal + static_cast<std::int64_t>(s) * kMergeSegmentItems;
      return d < items ? d : items;
    };
    // Where row i's end lies on the path: after its entries and the ends of the rows before it.
    const auto endItem = [&](std::int64_t i) { return static_cast<std::int64_t>(A.rowPtr(i + 1)) + i; };

    Kokkos::single(Kokkos::PerTeam(team), [&]() {
      segmentRows[0] = rowBegin;
      segmentRows[present] = rowEnd;
    });

    // Each inner segment's first row: the first row whose end lies at or after the segment's
    // start. Row i is that row for the segments starting in (end of row i - 1, end of row i];
    // one pass over the team's row ends, read coalesced, sets them all (the team's last row,
    // which may end beyond the team, takes every segment after the row before it).
    {
      const std::int64_t count = rowEnd - rowBegin + 1, threads = team.team_size();
      for (std::int64_t first = team.team_rank(); first < count; first += kStageBatch * threads) {
        std::int64_t after[kStageBatch], through[kStageBatch];  // the diagonals row i may own
        for (int u = 0; u < kStageBatch; ++u) {
          const std::int64_t j = first + u * threads, i = rowBegin + j;
          after[u] = j == 0 || j >= count ? firstDiagonal : endItem(i - 1) + 1;
          through[u] = j < count && i < rowEnd ? endItem(i) : items;
        }
        for (int u = 0; u < kStageBatch; ++u) {
          const std::int64_t j = first + u * threads;
          if (j >= count) break;
          std::int64_t s = (after[u] - firstDiagonal + kMergeSegmentItems - 1) / kMergeSegmentItems;
          const std::int64_t last = (through[u] - firstDiagonal) / kMergeSegmentItems;
          for (s = s < 1 ? 1 : s; s <= last && s < present; ++s) segmentRows[s] = rowBegin + j;
        }
      }
    }
    team.team_barrier();

    // Stage each segment's products at its own stride, the matrix read once: consecutive
    // threads take consecutive entries of one segment and then of the next, so a warp's loads
    // stay coalesced. Each thread first loads kStageBatch entries and their columns, then
    // gathers their x: the loads of a batch are in flight together, where a plain loop would
    // wait for each column before the next entry (the gathers' latency, not the bandwidth,
    // would then bound the kernel).
    {
      const int total = present * kMergeSegmentItems, threads = team.team_size();
      for (int first = team.team_rank(); first < total; first += kStageBatch * threads) {
        std::int64_t entry[kStageBatch];
        Value value[kStageBatch];
        Ordinal column[kStageBatch];
        for (int u = 0; u < kStageBatch; ++u) {
          const int t = first + u * threads;
          entry[u] = -1;
          if (t >= total) continue;
          const int seg = t / kMergeSegmentItems, e = t % kMergeSegmentItems;
          const std::int64_t k = diagonalOf(seg) - segmentRows[seg] + e;
          if (k >= diagonalOf(seg + 1) - segmentRows[seg + 1]) continue;
          entry[u] = k;
          value[u] = A.values(k);
          column[u] = A.colIdx(k);
        }
        for (int u = 0; u < kStageBatch; ++u) {
          if (entry[u] < 0) continue;
          const int t = first + u * threads;
          products[t / kMergeSegmentItems * kSlots + t % kMergeSegmentItems] =
              Sum::stage(value[u], static_cast<Value>(x(column[u])));
        }
      }
    }
    team.team_barrier();
    // The row ends are read where they are: the team's few hundred of them stay in L1, and
    // leaving them out of scratch lets more teams share an SM.
    const auto localRowEnd = [&](std::int64_t i) { return A.rowPtr(i + 1); };

    // Each segment: its rows in CSR order; rows that start and end here are complete.
    Kokkos::parallel_for(Kokkos::TeamThreadRange(team, present), [&](const int s) {
      const std::int64_t firstRow = segmentRows[s], lastRow = segmentRows[s + 1];
      const std::int64_t kBegin = diagonalOf(s) - firstRow;
      const std::int64_t kEnd = diagonalOf(s + 1) - lastRow;
      const Staged* const staged = products + s * kSlots;  // staged[k - kBegin]: entry k's
      std::int64_t k = kBegin;
      Partial sum = Sum::identity();
      for (std::int64_t i = firstRow; i < lastRow; ++i) {
        const std::int64_t end = localRowEnd(i);
        const std::int64_t rowStart = k;  // row i's first entry, unless it is the segment's first row
        for (; k < end; ++k) Sum::add(sum, staged[k - kBegin]);
        if (i == firstRow) {
          firstSums[s] = sum;
        } else if (stored.storesLength(end - rowStart)) {
          Sum::store(y, i, sum, alpha, beta);
        }
        sum = Sum::identity();
      }
      for (; k < kEnd; ++k) Sum::add(sum, staged[k - kBegin]);
      lastSums[s] = sum;
      if (firstRow == lastRow) firstSums[s] = sum;
    });
    team.team_barrier();
  }

  /// A GPU's team whose part of the path lies inside one row (rowBegin == rowEnd: the row's
  /// end is at or after the team's end), as most of a long row's teams are: every item is an
  /// entry of that row, so the segments are runs of kMergeSegmentItems consecutive entries, no
  /// row ends here, and the team's record holds that one row with its two sums equal. The same
  /// sums as stageAndSumSegments and joinRecordsByTree, without finding rows: each segment's
  /// entries from -0.0 in CSR order, then the aligned tree over the segments, left plus right.
  /// Returns the team's sum of the row. On an H200 this took the product on 99 rows of 270,000
  /// entries from 192 to 163 us and gained 1.02 to 1.06x on the other matrices with long or
  /// power-law rows (bench/results/nvidia-h200/merge_staging).
  KOKKOS_INLINE_FUNCTION Partial sumTeamInOneRow(const Member& team, std::int64_t firstEntry, int count,
                                                 Staged* products, Partial* sums) const {
    const int threads = team.team_size();
    const Value* const values = A.values.data() + firstEntry;
    const Ordinal* const columns = A.colIdx.data() + firstEntry;
    // Staged as in stageAndSumSegments: consecutive threads take consecutive entries, a batch of
    // loads in flight before their x is gathered. The team's entry j is item j of its part of the
    // path, so it goes to segment j / kMergeSegmentItems's slots.
    for (int first = team.team_rank(); first < count; first += kStageBatch * threads) {
      Value value[kStageBatch];
      Ordinal column[kStageBatch];
      for (int u = 0; u < kStageBatch; ++u) {
        const int j = first + u * threads;
        if (j < count) {
          value[u] = values[j];
          column[u] = columns[j];
        }
      }
      for (int u = 0; u < kStageBatch; ++u) {
        const int j = first + u * threads;
        if (j < count) {
          products[j / kMergeSegmentItems * kSlots + j % kMergeSegmentItems] =
              Sum::stage(value[u], static_cast<Value>(x(column[u])));
        }
      }
    }
    team.team_barrier();
    const int present = (count + kMergeSegmentItems - 1) / kMergeSegmentItems;
    Kokkos::parallel_for(Kokkos::TeamThreadRange(team, present), [&](const int s) {
      const Staged* const staged = products + s * kSlots;
      const int length = count - s * kMergeSegmentItems < kMergeSegmentItems ? count - s * kMergeSegmentItems
                                                                               : kMergeSegmentItems;
      Partial sum = Sum::identity();
      if (length == kMergeSegmentItems) {
        for (int e = 0; e < kMergeSegmentItems; ++e) Sum::add(sum, staged[e]);
      } else {
        for (int e = 0; e < length; ++e) Sum::add(sum, staged[e]);
      }
      sums[s] = sum;
    });
    team.team_barrier();
    for (int width = 1; width < segmentsPerTeam; width *= 2) {
      Kokkos::parallel_for(Kokkos::TeamThreadRange(team, segmentsPerTeam / (2 * width)), [&](const int m) {
        const int left = 2 * width * m, right = left + width;
        if (right < present) sums[left] = Sum::join(sums[left], sums[right]);
      });
      team.team_barrier();
    }
    return sums[0];
  }

  KOKKOS_INLINE_FUNCTION void operator()(const Member& team) const {
    // With the short rows apart, a team without a long row's item has nothing to store, and the
    // tree above reads its record as holding nothing.
    if (stored.longOnly && longRowTeams(team.league_rank()) == 0) return;
    Staged* const products =
        kStages ? scratchArray<Staged>(team, static_cast<std::size_t>(segmentsPerTeam) * kSlots) : nullptr;
    std::int64_t* const segmentRows = scratchArray<std::int64_t>(team, segmentsPerTeam + 1);
    Partial* const firstSums = scratchArray<Partial>(team, segmentsPerTeam);
    Partial* const lastSums = scratchArray<Partial>(team, segmentsPerTeam);

    const std::int64_t numRows = A.numRows;
    const std::int64_t firstSegment = static_cast<std::int64_t>(team.league_rank()) * segmentsPerTeam;
    const int present = static_cast<int>(segments - firstSegment < segmentsPerTeam ? segments - firstSegment
                                                                                    : segmentsPerTeam);
    const std::int64_t firstDiagonal = firstSegment * kMergeSegmentItems;
    // The team's two ends on the whole path, found by CsrMergeBoundsKernel.
    const std::int64_t rowBegin = teamRows(team.league_rank()), rowEnd = teamRows(team.league_rank() + 1);
    if constexpr (kStages) {
      if (rowBegin == rowEnd) {
        const std::int64_t lastDiagonal = firstDiagonal + static_cast<std::int64_t>(present) * kMergeSegmentItems;
        const int count = static_cast<int>((lastDiagonal < items ? lastDiagonal : items) - firstDiagonal);
        const Partial sum = sumTeamInOneRow(team, firstDiagonal - rowBegin, count, products, firstSums);
        Kokkos::single(Kokkos::PerTeam(team), [&]() {
          const std::int64_t t = team.league_rank();
          teamSums(2 * t) = sum;
          teamSums(2 * t + 1) = sum;
        });
        return;
      }
      stageAndSumSegments(team, rowBegin, rowEnd, firstDiagonal, present, products, segmentRows, firstSums, lastSums);
    } else {
      walkSegmentsInPlace(rowBegin, firstDiagonal, present, segmentRows, firstSums, lastSums);
    }

    // The tree over the team's segments.
    joinRecordsByTree<Sum>(team, segmentsPerTeam, present, segmentRows, firstSums, lastSums, y, numRows, alpha, beta,
                           stored);
    Kokkos::single(Kokkos::PerTeam(team), [&]() {
      const std::int64_t t = team.league_rank();
      teamSums(2 * t) = firstSums[0];
      teamSums(2 * t + 1) = lastSums[0];
    });
  }
};

/// Records joined by one team of a level of the rest of the tree (a power of two).
constexpr int kMergeRecordsPerGroup = 128;

/// One level of the rest of the tree, over the teams' records: each team joins an aligned group
/// of kMergeRecordsPerGroup records by the tree's levels in scratch and leaves the group's
/// record in place of its first one. Record j of the level stands for teams [j stride,
/// (j + 1) stride), so its rows are teamRows(j stride) and teamRows((j + 1) stride) and only
/// its two sums are stored. The last level (one group) completes the root's two open rows.
/// Levels run as separate launches, each on as many teams as it has groups: a long row's
/// parts are joined by many SMs at once, and no thread walks a chain of records.
template <class ExecSpace, class Csr, class YView, class Sum>
struct CsrMergeLevelKernel {
  using Value = typename Csr::value_type;
  using Ordinal = typename Csr::ordinal_type;
  using Device = typename Csr::device_type;
  using Member = typename Kokkos::TeamPolicy<ExecSpace>::member_type;
  using Partial = typename Sum::Partial;

  YView y;
  Value alpha, beta;
  std::int64_t numRows, teams;
  std::int64_t stride;  ///< teams per record of this level
  std::int64_t count;   ///< records of this level
  Kokkos::View<Partial*, Device, Kokkos::MemoryUnmanaged> teamSums;
  Kokkos::View<Ordinal*, Device, Kokkos::MemoryUnmanaged> teamRows;
  Kokkos::View<const std::uint8_t*, Device, Kokkos::MemoryUnmanaged> longRowTeams;
  MergeStoredRows<decltype(Csr::rowPtr)> stored;

  static std::size_t scratchBytes() {
    return 2 * scratchArrayBytes<Partial>(kMergeRecordsPerGroup) +
           scratchArrayBytes<std::int64_t>(kMergeRecordsPerGroup + 1);
  }

  KOKKOS_INLINE_FUNCTION void operator()(const Member& team) const {
    Partial* const firstSums = scratchArray<Partial>(team, kMergeRecordsPerGroup);
    Partial* const lastSums = scratchArray<Partial>(team, kMergeRecordsPerGroup);
    std::int64_t* const rows = scratchArray<std::int64_t>(team, kMergeRecordsPerGroup + 1);  // record r: rows r, r + 1
    const std::int64_t first = static_cast<std::int64_t>(team.league_rank()) * kMergeRecordsPerGroup;
    const int present = static_cast<int>(count - first < kMergeRecordsPerGroup ? count - first : kMergeRecordsPerGroup);
    const auto teamOf = [&](std::int64_t record) { return record * stride < teams ? record * stride : teams; };

    Kokkos::parallel_for(Kokkos::TeamThreadRange(team, present + 1), [&](const int r) {
      rows[r] = teamRows(teamOf(first + r));
      if (r == present) return;
      const std::int64_t t = teamOf(first + r);
      // The first level reads the teams' records; a team that did not run (short rows apart)
      // holds nothing of a long row.
      const bool ran = stride > 1 || !stored.longOnly || longRowTeams(t) != 0;
      firstSums[r] = ran ? teamSums(2 * t) : Sum::identity();
      lastSums[r] = ran ? teamSums(2 * t + 1) : Sum::identity();
    });
    team.team_barrier();
    joinRecordsByTree<Sum>(team, kMergeRecordsPerGroup, present, rows, firstSums, lastSums, y, numRows, alpha, beta,
                           stored);
    Kokkos::single(Kokkos::PerTeam(team), [&]() {
      if (count <= kMergeRecordsPerGroup) {  // the root: its first and last rows are complete
        if (rows[0] < numRows && stored.stores(rows[0])) Sum::store(y, rows[0], firstSums[0], alpha, beta);
        if (rows[present] != rows[0] && rows[present] < numRows && stored.stores(rows[present])) {
          Sum::store(y, rows[present], lastSums[0], alpha, beta);
        }
      } else {
        const std::int64_t t = teamOf(first);
        teamSums(2 * t) = firstSums[0];
        teamSums(2 * t + 1) = lastSums[0];
      }
    });
  }
};

/// One pass of the merge path in the arithmetic Sum (csr_merge_sums.hpp), with `work` of
/// csrMergeWorkspaceValues(A) values, and the teams' bounds and plan from `bounds` where it is
/// ready (an operator's, from csrMergeBounds on A), else the bounds searched into `work` and the
/// whole path walked.
template <class Sum, class ExecSpace, class Csr, class XView, class YView>
void csrMergePass(const ExecSpace& exec, const Csr& A, const XView& x, const YView& y, typename Csr::value_type alpha,
                  typename Csr::value_type beta, const Kokkos::View<typename Csr::value_type*, typename Csr::device_type>& work,
                  const CsrMergeBounds<typename Csr::ordinal_type, typename Csr::device_type>& bounds = {}) {
  using Ordinal = typename Csr::ordinal_type;
  using Device = typename Csr::device_type;
  using Partial = typename Sum::Partial;
  const CsrMergeLayout<ExecSpace, Csr> layout(A);
  if (layout.teams == 0) return;
  checkWorkspace(work, layout.workspaceValues(), "CSR merge");
  const auto alignUp = [](std::uintptr_t address, std::size_t alignment) {
    return (address + alignment - 1) / alignment * alignment;
  };
  const std::uintptr_t sumsAddress = alignUp(reinterpret_cast<std::uintptr_t>(work.data()), alignof(Partial));
  const std::uintptr_t rowsAddress = alignUp(sumsAddress + 2 * layout.teams * sizeof(Partial), alignof(Ordinal));
  const Kokkos::View<Partial*, Device, Kokkos::MemoryUnmanaged> teamSums(reinterpret_cast<Partial*>(sumsAddress),
                                                                         2 * layout.teams);
  Kokkos::View<Ordinal*, Device, Kokkos::MemoryUnmanaged> teamRows(reinterpret_cast<Ordinal*>(rowsAddress),
                                                                   layout.teams + 1);
  if (bounds.ready()) {
    if (static_cast<std::int64_t>(bounds.teamRows.extent(0)) != layout.teams + 1) {
      throw InputError("CSR merge SpMV: the team bounds hold " + std::to_string(bounds.teamRows.extent(0)) +
                       " rows; expected " + std::to_string(layout.teams + 1) +
                       " for this matrix (csrMergeBounds on the same matrix and execution space gives them)");
    }
    teamRows = bounds.teamRows;
  } else {
    searchCsrMergeBounds(exec, A, layout.items, layout.teams, teamRows);
  }
  const bool apart = bounds.shortRowsApart();
  if (apart) {
    csrMergeShortRowsPass<Sum>(exec, A, x, y, alpha, beta, bounds.shortRowsInTwoSegments);
    if (bounds.longRowTeamCount == 0) return;
  }
  const MergeStoredRows<decltype(Csr::rowPtr)> stored{A.rowPtr, apart};
  const Kokkos::View<const std::uint8_t*, Device, Kokkos::MemoryUnmanaged> longRowTeams = bounds.longRowTeams;

  using TeamKernel = CsrMergeTeamKernel<ExecSpace, Csr, XView, YView, Sum>;
  const int perTeam = csrMergeSegmentsPerTeam<ExecSpace>();
  const int teamSize = isHostSpace<ExecSpace>() ? 1 : perTeam;
  teamParallelFor("araios::spmv::csr_merge",
                  Kokkos::TeamPolicy<ExecSpace, Kokkos::LaunchBounds<csrMergeSegmentsPerTeam<ExecSpace>(),
                                                                     TeamKernel::kTeamsPerSm>>(
                      exec, static_cast<int>(layout.teams), teamSize)
                      .set_scratch_size(0, Kokkos::PerTeam(TeamKernel::scratchBytes(perTeam))),
                  TeamKernel{A, x, y, alpha, beta, layout.items, layout.segments, perTeam, teamSums, teamRows,
                             longRowTeams, stored});

  // The rest of the tree, a level of groups per launch until one record is left.
  using LevelKernel = CsrMergeLevelKernel<ExecSpace, Csr, YView, Sum>;
  const int groupThreads = isHostSpace<ExecSpace>() ? 1 : kMergeRecordsPerGroup;
  std::int64_t stride = 1, count = layout.teams;
  while (true) {
    const std::int64_t groups = (count + kMergeRecordsPerGroup - 1) / kMergeRecordsPerGroup;
    teamParallelFor("araios::spmv::csr_merge_level",
                    Kokkos::TeamPolicy<ExecSpace>(exec, static_cast<int>(groups), groupThreads)
                        .set_scratch_size(0, Kokkos::PerTeam(LevelKernel::scratchBytes())),
                    LevelKernel{y, alpha, beta, static_cast<std::int64_t>(A.numRows), layout.teams, stride, count,
                                teamSums, teamRows, longRowTeams, stored});
    if (groups == 1) break;
    stride *= kMergeRecordsPerGroup;
    count = groups;
  }
}

}  // namespace araios::Impl
