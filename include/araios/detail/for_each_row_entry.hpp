#pragma once
// forEachRowEntry: body(row, k, t) for every position k of every row, as the conversions fill
// and gather their index arrays. A row is a span [begin, end) of positions, t = k - begin.
//
// A thread per row is the natural loop, and on a GPU it is the wrong one for a long row: the
// row's thread walks it alone while the others are done. An H200 took 66 ms to fill the COO
// part of HYB of 111 rows of 250,911 entries that way. Here a team takes a block of rows: its
// threads walk the short rows, one each, then share every long row of the block, consecutive
// threads on consecutive positions. Each position is written by one thread, so the result is the
// one of the plain loop.
#include <araios/detail/host_space.hpp>
#include <araios/detail/team_scratch.hpp>

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <string>

namespace araios::Impl {

/// Rows per team, and a GPU team's threads.
constexpr int kRowEntriesTeamRows = 64;
/// Rows longer than this are shared by their team's threads.
constexpr std::int64_t kRowEntriesWalkedAlone = 64;

/// A row's positions [begin, end).
struct RowSpan {
  std::int64_t begin, end;
};

/// Row i spans [ptr(i), ptr(i + 1)): the rows of a compressed format.
template <class PtrView>
struct PtrRowSpans {
  PtrView ptr;
  KOKKOS_INLINE_FUNCTION RowSpan operator()(std::int64_t row) const {
    return {static_cast<std::int64_t>(ptr(row)), static_cast<std::int64_t>(ptr(row + 1))};
  }
};

/// Row i spans the entries of CSR row perm(i): rows taken in another order (JDS, SC-CSR).
template <class PtrView, class PermView>
struct PermutedRowSpans {
  PtrView ptr;
  PermView perm;
  std::int64_t firstPermuted;  // row i is perm(firstPermuted + i)
  KOKKOS_INLINE_FUNCTION RowSpan operator()(std::int64_t i) const {
    const auto row = perm(firstPermuted + i);
    return {static_cast<std::int64_t>(ptr(row)), static_cast<std::int64_t>(ptr(row + 1))};
  }
};

template <class ExecSpace, class Spans, class Body>
struct ForEachRowEntryKernel {
  using Member = typename Kokkos::TeamPolicy<ExecSpace>::member_type;
  Spans spans;
  std::int64_t numRows;
  Body body;

  static std::size_t scratchBytes() { return scratchArrayBytes<int>(1); }

  KOKKOS_INLINE_FUNCTION void operator()(const Member& team) const {
    const std::int64_t first = static_cast<std::int64_t>(team.league_rank()) * kRowEntriesTeamRows;
    const std::int64_t last = first + kRowEntriesTeamRows < numRows ? first + kRowEntriesTeamRows : numRows;
    // Whether the block holds a long row: most blocks hold none and skip the pass over the rows.
    int* const longRows = scratchArray<int>(team, 1);
    Kokkos::single(Kokkos::PerTeam(team), [&]() { *longRows = 0; });
    team.team_barrier();
    Kokkos::parallel_for(Kokkos::TeamThreadRange(team, static_cast<int>(last - first)), [&](const int j) {
      const std::int64_t row = first + j;
      const RowSpan span = spans(row);
      if (span.end - span.begin > kRowEntriesWalkedAlone) {
        Kokkos::atomic_add(longRows, 1);
        return;
      }
      for (std::int64_t k = span.begin; k < span.end; ++k) body(row, k, k - span.begin);
    });
    team.team_barrier();
    if (*longRows == 0) return;
    for (std::int64_t row = first; row < last; ++row) {
      const RowSpan span = spans(row);
      if (span.end - span.begin <= kRowEntriesWalkedAlone) continue;
      Kokkos::parallel_for(Kokkos::TeamThreadRange(team, span.end - span.begin),
                           [&](const std::int64_t t) { body(row, span.begin + t, t); });
    }
  }
};

/// body(row, k, t) for every row in [0, numRows) and every k of spans(row), t = k - its begin;
/// asynchronously on exec.
template <class ExecSpace, class Spans, class Body>
void forEachRowEntry(const std::string& label, const ExecSpace& exec, std::int64_t numRows, const Spans& spans,
                     const Body& body) {
  if (numRows <= 0) return;
  const std::int64_t teams = (numRows + kRowEntriesTeamRows - 1) / kRowEntriesTeamRows;
  using Kernel = ForEachRowEntryKernel<ExecSpace, Spans, Body>;
  Kokkos::parallel_for(label,
                       Kokkos::TeamPolicy<ExecSpace>(exec, static_cast<int>(teams),
                                                     isHostSpace<ExecSpace>() ? 1 : kRowEntriesTeamRows)
                           .set_scratch_size(0, Kokkos::PerTeam(Kernel::scratchBytes())),
                       Kernel{spans, numRows, body});
}

/// forEachRowEntry over the rows of a pointer array: ptr.extent(0) - 1 rows, row i spanning
/// [ptr(i), ptr(i + 1)).
template <class ExecSpace, class PtrView, class Body>
void forEachRowEntry(const std::string& label, const ExecSpace& exec, const PtrView& ptr, const Body& body) {
  const std::int64_t numRows = ptr.extent(0) > 0 ? static_cast<std::int64_t>(ptr.extent(0)) - 1 : 0;
  forEachRowEntry(label, exec, numRows, PtrRowSpans<PtrView>{ptr}, body);
}

}  // namespace araios::Impl
