#pragma once
// csr-merge with its short rows apart: the plan an operator takes where no row is long, and one
// that tests can force where some are (csr_merge.hpp, CsrMergeBounds). The bits stay the merge
// path's.
//
// A row of at most kMergeShortRowEntries entries covers at most 17 items of the path (its
// entries and its end), so it lies in one segment or in two adjacent ones. Under the path's
// definition its sum is then
//   - in one segment: its entries summed in CSR order from -0.0, which is csr-scalar's sum;
//   - across two segments: the sum of its entries in the first plus the sum of those in the
//     second, left first. Whatever the two segments' alignment, the aligned tree meets them only
//     at their lowest common ancestor, and every node below it holds one of them alone (a child
//     without the row adds nothing).
// So one thread per row gives these rows their bits at csr-scalar's pace (CsrMergeShortRowsKernel);
// with long rows, the team kernel then visits only the teams that hold some item of a longer row
// and stores only the longer rows. On the rows of stencils and uniform graphs, csr-scalar took 0.4
// to 0.7 times csr-merge's team kernel's time on an H200 (bench/results/nvidia-h200/team_carveout).
#include <araios/formats/csr/csr.hpp>
#include <araios/formats/csr/csr_merge_path.hpp>

#include <Kokkos_Core.hpp>

#include <cstdint>

namespace araios::Impl {

/// Rows of at most this many entries are short: they lie in at most two segments (see above).
constexpr std::int64_t kMergeShortRowEntries = kMergeSegmentItems;

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

/// One thread per short row: its merge-path sum (see above) stored; long rows are skipped.
template <class Csr, class XView, class YView, class Sum>
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
    // The first entry that lies in the next segment (entry k is item k + i).
    const std::int64_t nextSegment = ((begin + i) / kMergeSegmentItems + 1) * kMergeSegmentItems - i;
    Partial sum = Sum::identity();
    std::int64_t k = begin;
    for (; k < end && k < nextSegment; ++k) add(sum, k);
    if (k < end) {
      Partial second = Sum::identity();
      for (; k < end; ++k) add(second, k);
      sum = Sum::join(sum, second);
    }
    Sum::store(y, i, sum, alpha, beta);
  }
};

template <class Sum, class ExecSpace, class Csr, class XView, class YView>
void csrMergeShortRowsPass(const ExecSpace& exec, const Csr& A, const XView& x, const YView& y,
                           typename Csr::value_type alpha, typename Csr::value_type beta) {
  Kokkos::parallel_for("araios::spmv::csr_merge_short_rows",
                       Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<typename Csr::ordinal_type>>(exec, 0, A.numRows),
                       CsrMergeShortRowsKernel<Csr, XView, YView, Sum>{A, x, y, alpha, beta});
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
