#pragma once
// csr-merge with its short rows apart: the plan an operator takes where no row is long and the
// rows are short or their columns near (csr_merge.hpp, csrMergeShortRowsGoApart), and one that
// tests can force where some rows are long (CsrMergeBounds). The bits stay the merge path's.
//
// A row of at most kMergeShortRowEntries (49) entries lies in at most four segments of the path
// (kMergeShortRowSegments). Under the path's definition its sum is the aligned binary tree over
// absolute segment indices, restricted to the row's segments, of the sums of its entries in each
// segment (in CSR order from -0.0): a node adds its halves' sums, left first, where both hold
// some of the row. That tree does not depend on how the path is cut into teams and launches,
// because teams and level groups are aligned powers of two. So one thread per row gives these
// rows their bits (CsrMergeShortRowsKernel):
//   - in one segment: its entries summed in CSR order from -0.0, which is csr-scalar's sum;
//   - across two segments: the sum of its entries in the first plus the sum of those in the
//     second, left first (the tree meets them only at their lowest common ancestor);
//   - across three or four: each segment's sum in a register, then the tree's joins.
// With long rows, the team kernel then visits only the teams that hold some item of a longer row
// and stores only the longer rows. On the rows of stencils and uniform graphs, csr-scalar took 0.4
// to 0.7 times csr-merge's team kernel's time on an H200 (bench/results/nvidia-h200/team_carveout).
// The bound of 49 entries (bench/results/nvidia-h200/merge_plans, H200): 33 keeps a drawn
// rectangle with rows of up to 49 on the path (0.76 of its time apart); 81 and 113 took 2 to 7 %
// longer than 49 on the two matrices whose plan changed, and 33 4 % less on one of them.
#include <araios/detail/rows_in_order.hpp>
#include <araios/formats/csr/csr.hpp>
#include <araios/formats/csr/csr_merge_path.hpp>

#include <Kokkos_Core.hpp>

#include <cstdint>

namespace araios::Impl {

/// Rows of at most this many entries are short: they lie in at most four segments (see above).
constexpr std::int64_t kMergeShortRowEntries = 49;

/// Whether a row of `length` entries is long: the team kernel's, not the short rows' pass's.
KOKKOS_INLINE_FUNCTION constexpr bool mergeRowIsLong(std::int64_t length) { return length > kMergeShortRowEntries; }

/// Which rows the team kernel and the tree store: all of them, or with the short rows apart only
/// the long ones (the short ones are CsrMergeShortRowsKernel's).
template <class RowPtr>
struct MergeStoredRows {
  RowPtr rowPtr;
  bool longOnly = false;
  /// Whether a row of `length` entries is stored by the team kernel and the tree.
  KOKKOS_INLINE_FUNCTION bool storesLength(std::int64_t length) const { return !longOnly || mergeRowIsLong(length); }
  /// The same for row i, its length read from the offsets only when the short rows are apart.
  /// Not storesLength(length of row i): its argument's two loads would then wait in every join of
  /// the tree that completes a row on the whole path too, which made the whole path 4 to 7 %
  /// slower on an H200 (bench/results/nvidia-h200/merge_plans).
  KOKKOS_INLINE_FUNCTION bool stores(std::int64_t i) const {
    return !longOnly || mergeRowIsLong(static_cast<std::int64_t>(rowPtr(i + 1) - rowPtr(i)));
  }
};

/// The most segments a short row's entries touch: its L entries are L consecutive items, the
/// first at most kMergeSegmentItems - 1 items into its segment.
constexpr int kMergeShortRowSegments =
    static_cast<int>((kMergeShortRowEntries + kMergeSegmentItems - 2) / kMergeSegmentItems) + 1;

/// The smallest power of two that is at least `segments`: the segments of a row that touches at
/// most that many lie in at most two aligned blocks of this many.
constexpr std::int64_t mergeSegmentBlock(std::int64_t segments, std::int64_t block = 1) {
  return block >= segments ? block : mergeSegmentBlock(segments, 2 * block);
}
/// The same as a constant that device code can read (a call from it would need relaxed constexpr).
template <int Segments>
constexpr std::int64_t kMergeSegmentBlock = mergeSegmentBlock(Segments);

/// One thread per short row: its merge-path sum (see above) stored; long rows are skipped.
/// Segments: the most segments a row of the matrix touches, 2 where no row is longer than
/// kMergeSegmentItems (fewer registers and no tree), kMergeShortRowSegments otherwise.
template <class Csr, class XView, class YView, class Sum, int Segments>
struct CsrMergeShortRowsKernel {
  using Value = typename Csr::value_type;
  using Partial = typename Sum::Partial;
  Csr A;
  XView x;
  YView y;
  Value alpha, beta;

  KOKKOS_INLINE_FUNCTION void operator()(typename Csr::ordinal_type row) const {
    const std::int64_t i = row;
    const std::int64_t begin = A.rowPtr(i), end = A.rowPtr(i + 1);
    if (mergeRowIsLong(end - begin)) return;
    const auto add = [&](Partial& sum, std::int64_t k) {
      Sum::add(sum, Sum::stage(A.values(k), static_cast<Value>(x(A.colIdx(k)))));
    };
    constexpr std::int64_t W = kMergeSegmentItems;
    if constexpr (Segments == 2) {
      // Rows that touch at most two segments: no tree, and 2 to 4 % faster than the general code
      // below with two segments on stencils (H200). The entries in the row's first segment, then
      // those in the next, joined.
      const std::int64_t nextSegment = ((begin + i) / W + 1) * W - i;
      Partial sum = Sum::identity();
      std::int64_t k = begin;
      for (; k < end && k < nextSegment; ++k) add(sum, k);
      if (k < end) {
        Partial second = Sum::identity();
        for (; k < end; ++k) add(second, k);
        sum = Sum::join(sum, second);
      }
      Sum::store(y, i, sum, alpha, beta);
      return;
    }
    constexpr int S = Segments;
    constexpr std::int64_t block = kMergeSegmentBlock<S>;
    // Entry k is item k + i; segment s holds items s * W to (s + 1) * W - 1.
    const std::int64_t s0 = (begin + i) / W, s1 = end > begin ? (end - 1 + i) / W : s0;
    Partial parts[S];
    std::int64_t k = begin;
    for (int j = 0; j < S; ++j) {
      parts[j] = Sum::identity();
      const std::int64_t segmentEnd = (s0 + j + 1) * W - i;
      for (; k < end && k < segmentEnd; ++k) add(parts[j], k);
    }
    // The aligned tree over absolute segment indices, restricted to s0..s1: a node of 2w
    // segments from a multiple of 2w joins its halves where both hold some of the row. parts[j]
    // holds the sum of the node that starts at segment s0 + j (or holds s0, for j = 0). Its right
    // half starts at j + w, or for the node that holds s0 somewhere in 1..w. Levels up to blocks
    // of `block` segments, then the one join of the two blocks, if the row has two.
    for (std::int64_t w = 1; w < block; w *= 2) {
      for (int j = 1; j < S; ++j) {
        if (j + w < S && (s0 + j) % (2 * w) == 0 && s0 + j + w <= s1) parts[j] = Sum::join(parts[j], parts[j + w]);
      }
      const std::int64_t right = s0 / (2 * w) * (2 * w) + w - s0;
      for (int j = 1; j < S; ++j) {
        if (j == right && s0 + j <= s1) parts[0] = Sum::join(parts[0], parts[j]);
      }
    }
    const std::int64_t secondBlock = s1 / block * block - s0;
    for (int j = 1; j < S; ++j) {
      if (j == secondBlock) parts[0] = Sum::join(parts[0], parts[j]);
    }
    Sum::store(y, i, parts[0], alpha, beta);
  }
};

/// The short rows' pass; twoSegments where no row of A is longer than kMergeSegmentItems.
template <class Sum, class ExecSpace, class Csr, class XView, class YView>
void csrMergeShortRowsPass(const ExecSpace& exec, const Csr& A, const XView& x, const YView& y,
                           typename Csr::value_type alpha, typename Csr::value_type beta, bool twoSegments) {
  const Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<typename Csr::ordinal_type>> rows(exec, 0, A.numRows);
  if (twoSegments) {
    Kokkos::parallel_for("araios::spmv::csr_merge_short_rows", rows,
                         CsrMergeShortRowsKernel<Csr, XView, YView, Sum, 2>{A, x, y, alpha, beta});
  } else {
    Kokkos::parallel_for("araios::spmv::csr_merge_short_rows", rows,
                         CsrMergeShortRowsKernel<Csr, XView, YView, Sum, kMergeShortRowSegments>{A, x, y, alpha, beta});
  }
}

/// A's rows as longestStagedRow reads them.
template <class RowPtr>
struct CsrRowSpans {
  RowPtr rowPtr;
  std::int64_t numRows;
  KOKKOS_INLINE_FUNCTION auto begin(std::int64_t i) const { return rowPtr(i); }
  KOKKOS_INLINE_FUNCTION auto end(std::int64_t i) const { return rowPtr(i + 1); }
};

/// The most entries of any row of A, by a reduction on `exec`, read back (it waits for `exec`).
template <class ExecSpace, class Csr>
std::int64_t csrLongestRow(const ExecSpace& exec, const Csr& A) {
  return longestStagedRow(exec, CsrRowSpans<decltype(A.rowPtr)>{A.rowPtr, A.numRows});
}

/// A row whose entries span more than this many columns gathers x from far apart: a thread per
/// such row loses to the path where rows average more than kMergeApartMeanRowEntries (csr_merge.hpp).
constexpr std::int64_t kMergeNearColumns = std::int64_t(1) << 15;

/// Counts the rows whose entries span more than kMergeNearColumns columns.
template <class Csr>
struct CsrFarRowsKernel {
  Csr A;
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t i, std::int64_t& far) const {
    const std::int64_t begin = A.rowPtr(i), end = A.rowPtr(i + 1);
    if (end - begin < 2) return;
    std::int64_t lowest = A.colIdx(begin), highest = lowest;
    for (std::int64_t k = begin + 1; k < end; ++k) {
      const std::int64_t c = A.colIdx(k);
      lowest = c < lowest ? c : lowest;
      highest = c > highest ? c : highest;
    }
    far += highest - lowest > kMergeNearColumns ? 1 : 0;
  }
};

/// The rows of A whose entries span more than kMergeNearColumns columns, by a reduction on
/// `exec`, read back (it waits for `exec`).
template <class ExecSpace, class Csr>
std::int64_t csrFarRows(const ExecSpace& exec, const Csr& A) {
  std::int64_t far = 0;  // also the sum over no rows
  Kokkos::parallel_reduce("araios::spmv::csr_merge_far_rows",
                          Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>(exec, 0, A.numRows),
                          CsrFarRowsKernel<Csr>{A}, far);
  return far;
}

/// Marks the teams that hold some item of a long row: team t's rows run from teamRows(t) to
/// teamRows(t + 1) (the row the next team starts in, which may reach back into team t). Counts
/// the marked teams.
template <class Csr, class TeamRows, class Flags>
struct CsrMergeLongRowTeamsKernel {
  Csr A;
  TeamRows teamRows;
  Flags longRowTeams;

  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t t, std::int64_t& marked) const {
    const std::int64_t last = static_cast<std::int64_t>(teamRows(t + 1)) < A.numRows ? teamRows(t + 1) : A.numRows - 1;
    bool holds = false;
    for (std::int64_t i = teamRows(t); i <= last && !holds; ++i) {
      holds = mergeRowIsLong(static_cast<std::int64_t>(A.rowPtr(i + 1) - A.rowPtr(i)));
    }
    longRowTeams(t) = holds ? 1 : 0;
    marked += holds ? 1 : 0;
  }
};

/// The teams (of `teams`, bounds teamRows) that hold an item of a long row, marked 1 in
/// longRowTeams, and their count (read on the host: an operator's plan, made once).
template <class ExecSpace, class Csr, class TeamRows, class Flags>
std::int64_t markCsrMergeLongRowTeams(const ExecSpace& exec, const Csr& A, const TeamRows& teamRows,
                                      std::int64_t teams, const Flags& longRowTeams) {
  std::int64_t marked = 0;
  Kokkos::parallel_reduce("araios::spmv::csr_merge_long_row_teams",
                          Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>(exec, 0, teams),
                          CsrMergeLongRowTeamsKernel<Csr, TeamRows, Flags>{A, teamRows, longRowTeams}, marked);
  return marked;
}

}  // namespace araios::Impl
