#pragma once
// The row walk in CSR order that COO, CSC and HYB run outside Fast mode: each row's entries
// summed one after the other, in the format's canonical order, into one accumulator (row_sum.hpp).
// The order is a chain of dependent additions, so a row cannot be split; what can be shared is
// the reading. One thread per row reads a long row alone: on a GPU each entry then waits on its
// own loads (a row of 2,000,000 entries took 0.2 s on an H200), while the rest of the GPU idles.
//
// So on a GPU the rows are walked by teams of kRowTeamSize threads, a thread per row of the
// team's block, and a row of more than kLongRowEntries staged entries is left to the whole team
// once the short ones are done: the team's threads load the row in chunks of kLongRowChunk
// entries into scratch (coalesced, many loads in flight), and thread 0 adds them in order, into
// the one accumulator, while the other warps load the next chunk. The same operations in the
// same order as the thread's walk, so the same bits; only who loads changes. On a CPU a thread
// per row reads its row at memory speed, and the walk stays one thread per row.
//
// The team walk is chosen only where some row is long (RowWalkPlan). Where none is, it took 1.05
// to 3.0x the time of a thread per row on an H200 (stencil, FEM, uniform and rectangular
// matrices: bench/results/nvidia-h200/rows_in_order), while on matrices with long rows it was
// 1.7 to 24x faster. Those runs launched the team kernel with Kokkos 3.x's preference for shared
// memory over L1. With the carveout of detail/team_parallel_for.hpp, the team walk gained up to
// 1.6x more on power-law and R-MAT graphs, and nothing on matrices of a few very long rows
// (bench/results/nvidia-h200/team_carveout). The short-row comparison has not been run again.
//
// A format describes its rows by a Rows type with
//   numRows                       the number of rows;
//   head(acc, i, x)               entries of row i added before the staged ones, by the row's
//                                 one thread (HYB's ELL slots; nothing for COO and CSC);
//   begin(i), end(i)              the positions of row i's other entries, in order;
//   entry(q, a, column)           the value and column at position q.
#include <araios/detail/host_space.hpp>
#include <araios/detail/team_parallel_for.hpp>
#include <araios/detail/team_scratch.hpp>
#include <araios/spmv_options.hpp>

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <string>

namespace araios::Impl {

/// Rows of a GPU team's block: one per thread.
constexpr int kRowTeamSize = 256;
/// Staged entries above which a row is read by its whole team instead of its own thread.
constexpr std::int64_t kLongRowEntries = 256;
/// Entries of a long row staged at once (two such buffers per team).
constexpr int kLongRowChunk = 512;

/// How a matrix's rows are walked, chosen once from their lengths: on a GPU, by teams where some
/// row has more than kLongRowEntries staged entries; otherwise, and always on a CPU, a thread
/// per row. An operator keeps its plan (detail/spmv_state.hpp); a bare product plans on the call.
struct RowWalkPlan {
  bool planned = false;
  bool byTeams = false;
  bool ready() const { return planned; }
  std::int64_t bytes() const { return 0; }
  /// The plan in words, whatever the algorithm (the walk serves the modes that keep CSR's order).
  std::string describe(SpmvAlgorithm /*algorithm*/) const {
    if (!planned) return {};
    return byTeams ? "rows in CSR order: by teams (some row is long)" : "rows in CSR order: a thread per row";
  }
};

/// The most staged entries of any row.
template <class Rows>
struct LongestStagedRow {
  Rows rows;
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t i, std::int64_t& longest) const {
    const auto n = static_cast<std::int64_t>(rows.end(i) - rows.begin(i));
    if (n > longest) longest = n;
  }
};

/// The most entries any row of `rows` stages (begin(i) to end(i)), by a reduction on `exec`, read
/// back: it waits for `exec`.
template <class ExecSpace, class Rows>
std::int64_t longestStagedRow(const ExecSpace& exec, const Rows& rows) {
  std::int64_t longest = 0;
  if (rows.numRows > 0) {
    Kokkos::parallel_reduce("araios::spmv::longest_row",
                            Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>(exec, 0, rows.numRows),
                            LongestStagedRow<Rows>{rows}, Kokkos::Max<std::int64_t>(longest));
  }
  return longest;
}

/// The plan for walking the rows that `makeRows()` gives on `exec`: on a GPU from the longest
/// row (so it waits for `exec`); on a CPU a thread per row, with nothing to measure, so the rows
/// are not even made (a COO without row offsets would sort its entries for them).
template <class ExecSpace, class MakeRows>
RowWalkPlan planRowWalkOf(const ExecSpace& exec, const MakeRows& makeRows) {
  RowWalkPlan plan;
  plan.planned = true;
  if constexpr (!isHostSpace<ExecSpace>()) {
    plan.byTeams = longestStagedRow(exec, makeRows()) > kLongRowEntries;
  } else {
    (void)exec, (void)makeRows;
  }
  return plan;
}

/// The plan for walking `rows` on `exec` (planRowWalkOf).
template <class ExecSpace, class Rows>
RowWalkPlan planRowWalk(const ExecSpace& exec, const Rows& rows) {
  return planRowWalkOf(exec, [&rows]() -> const Rows& { return rows; });
}

/// One thread per row: the walk itself.
template <class Rows, class XView, class YView, class Acc>
struct RowsInOrderKernel {
  using Value = typename YView::non_const_value_type;
  Rows rows;
  XView x;
  YView y;
  Value alpha, beta;
  template <class Ordinal>
  KOKKOS_INLINE_FUNCTION void operator()(Ordinal i) const {
    Acc acc;
    rows.head(acc, i, x);
    for (auto q = rows.begin(i); q < rows.end(i); ++q) {
      Value a;
      std::int64_t column;
      rows.entry(q, a, column);
      acc.add(a, static_cast<Value>(x(column)));
    }
    acc.store(y, i, alpha, beta);
  }
};

/// A team per block of rows: a thread per short row, then the whole team per long row.
template <class ExecSpace, class Rows, class XView, class YView, class Acc>
struct RowsInOrderTeamKernel {
  using Value = typename YView::non_const_value_type;
  using Member = typename Kokkos::TeamPolicy<ExecSpace>::member_type;
  Rows rows;
  XView x;
  YView y;
  Value alpha, beta;
  std::int64_t longRowEntries;  ///< kLongRowEntries, or less to test the team's reading on small matrices

  static std::size_t scratchBytes(int teamSize) {
    return scratchArrayBytes<Value>(4 * kLongRowChunk) + scratchArrayBytes<std::int64_t>(teamSize) +
           scratchArrayBytes<int>(1);
  }

  KOKKOS_INLINE_FUNCTION void operator()(const Member& team) const {
    const int rank = team.team_rank(), size = team.team_size();
    // Two buffers, each a chunk's values then its x values (one array: an array of pointers
    // indexed at run time would live in local memory).
    Value* staged = scratchArray<Value>(team, 4 * kLongRowChunk);
    std::int64_t* longRows = scratchArray<std::int64_t>(team, size);
    int* longCount = scratchArray<int>(team, 1);
    if (rank == 0) *longCount = 0;
    team.team_barrier();

    const std::int64_t i = static_cast<std::int64_t>(team.league_rank()) * size + rank;
    if (i < static_cast<std::int64_t>(rows.numRows)) {
      if (static_cast<std::int64_t>(rows.end(i) - rows.begin(i)) > longRowEntries) {
        longRows[Kokkos::atomic_fetch_add(longCount, 1)] = i;  // which slot does not matter: rows are independent
      } else {
        RowsInOrderKernel<Rows, XView, YView, Acc>{rows, x, y, alpha, beta}(i);
      }
    }
    team.team_barrier();
    const int count = *longCount;
    for (int l = 0; l < count; ++l) longRow(team, rank, size, longRows[l], staged);
  }

  /// Row r by the whole team. Thread 0 adds chunk c while threads from `loaders` up stage chunk
  /// c + 1 (on a GPU the warps after the first, so that thread 0's warp does not diverge).
  KOKKOS_INLINE_FUNCTION void longRow(const Member& team, int rank, int size, std::int64_t r, Value* staged) const {
    const std::int64_t begin = static_cast<std::int64_t>(rows.begin(r)), end = static_cast<std::int64_t>(rows.end(r));
    const std::int64_t chunks = (end - begin + kLongRowChunk - 1) / kLongRowChunk;
    // Chunk c's values, followed by its x values, in buffer c % 2.
    const auto buffer = [&](std::int64_t c) { return staged + (c % 2) * 2 * kLongRowChunk; };
    const auto stage = [&](std::int64_t c, int first) {
      if (rank < first) return;
      const std::int64_t from = begin + c * kLongRowChunk;
      const std::int64_t to = from + kLongRowChunk < end ? from + kLongRowChunk : end;
      Value* v = buffer(c);
      Value* xv = v + kLongRowChunk;
      for (std::int64_t q = from + (rank - first); q < to; q += size - first) {
        Value a;
        std::int64_t column;
        rows.entry(q, a, column);
        v[q - from] = a;
        xv[q - from] = static_cast<Value>(x(column));
      }
    };
    const int loaders = size >= 64 ? 32 : (size > 1 ? 1 : 0);
    Acc acc;
    if (rank == 0) rows.head(acc, r, x);
    stage(0, 0);
    team.team_barrier();
    for (std::int64_t c = 0; c < chunks; ++c) {
      if (rank == 0) {
        if (loaders == 0 && c > 0) stage(c, 0);  // a team of one thread loads and adds in turn
        const std::int64_t from = begin + c * kLongRowChunk;
        const int n = static_cast<int>(end - from < kLongRowChunk ? end - from : kLongRowChunk);
        const Value* v = buffer(c);
        const Value* xv = v + kLongRowChunk;
        for (int k = 0; k < n; ++k) acc.add(v[k], xv[k]);
      } else if (c + 1 < chunks) {
        stage(c + 1, loaders);
      }
      team.team_barrier();
    }
    if (rank == 0) acc.store(y, r, alpha, beta);
  }
};

/// The team walk on any backend, with teams of `teamSize` threads and rows of more than
/// `longRowEntries` staged entries read by the whole team (the GPU's walk; on a CPU for tests).
template <class Acc, class ExecSpace, class Rows, class XView, class YView>
void walkRowsInOrderByTeams(const ExecSpace& exec, const Rows& rows, const XView& x, const YView& y,
                            typename YView::non_const_value_type alpha, typename YView::non_const_value_type beta,
                            const char* label, int teamSize, std::int64_t longRowEntries) {
  using Kernel = RowsInOrderTeamKernel<ExecSpace, Rows, XView, YView, Acc>;
  if (rows.numRows <= 0) return;
  const Kernel kernel{rows, x, y, alpha, beta, longRowEntries};
  // The Accurate accumulators take many registers: the team may have to be smaller.
  const int largest = Kokkos::TeamPolicy<ExecSpace>(exec, 1, 1)
                          .set_scratch_size(0, Kokkos::PerTeam(Kernel::scratchBytes(teamSize)))
                          .team_size_max(kernel, Kokkos::ParallelForTag());
  const int size = teamSize < largest ? teamSize : largest;
  const std::int64_t teams = (static_cast<std::int64_t>(rows.numRows) + size - 1) / size;
  teamParallelFor(label,
                  Kokkos::TeamPolicy<ExecSpace>(exec, static_cast<int>(teams), size)
                      .set_scratch_size(0, Kokkos::PerTeam(Kernel::scratchBytes(size))),
                  kernel);
}

/// The walk of `rows` in accumulator Acc, as `plan` (from planRowWalk on these rows) says: by
/// teams, or a thread per row indexed by Index (the format's ordinal type).
template <class Acc, class Index, class ExecSpace, class Rows, class XView, class YView>
void walkRowsInOrder(const ExecSpace& exec, const Rows& rows, const XView& x, const YView& y,
                     typename YView::non_const_value_type alpha, typename YView::non_const_value_type beta,
                     const char* label, const RowWalkPlan& plan) {
  if (plan.byTeams) {
    walkRowsInOrderByTeams<Acc>(exec, rows, x, y, alpha, beta, label, kRowTeamSize, kLongRowEntries);
    return;
  }
  const Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<Index>> policy(exec, 0, static_cast<Index>(rows.numRows));
  Kokkos::parallel_for(label, policy, RowsInOrderKernel<Rows, XView, YView, Acc>{rows, x, y, alpha, beta});
}

}  // namespace araios::Impl
