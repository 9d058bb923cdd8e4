#pragma once
// forEachRowEntry: body(row, k, t) for every position k of every row, as the conversions fill
// and gather their index arrays. A row is a span [begin, end) of positions, t = k - begin.
//
// A thread per row is the natural loop, and on a GPU it is the wrong one for a long row: the
// row's thread walks it alone while the others are done. An H200 took 66 ms to fill the COO
// part of HYB of 111 rows of 250,911 entries that way. So the rows are walked in two passes:
//   1. a thread per row walks the short rows (at most kRowEntriesWalkedAlone entries), and an
//      exclusive scan counts the long rows' chunks of kRowEntriesChunk positions;
//   2. a team per chunk, which finds its row by bisection of the scan.
// Long rows are often next to each other (sorted by length in JDS and SC-CSR, hubs numbered
// first in a graph), so sharing each among the threads of the team that met it was not enough:
// the 111 long rows of JDS's sorted order fell to two teams. Each position is written by one
// thread, so the result is the one of the plain loop; no atomic is needed.
#include <araios/detail/host_space.hpp>
#include <araios/detail/light_parallel_for.hpp>

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <string>

namespace araios::Impl {

/// Rows longer than this are cut into chunks shared by a team's threads.
constexpr std::int64_t kRowEntriesWalkedAlone = 64;
/// Positions of a long row per team, and a GPU team's threads.
constexpr std::int64_t kRowEntriesChunk = 4096;
constexpr int kRowEntriesTeamSize = 128;

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

/// Pass 1: row i's positions if it is short (at most kRowEntriesWalkedAlone).
template <class Spans, class Body>
struct WalkShortRows {
  Spans spans;
  Body body;
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t row) const {
    const RowSpan span = spans(row);
    if (span.end - span.begin > kRowEntriesWalkedAlone) return;
    for (std::int64_t k = span.begin; k < span.end; ++k) body(row, k, k - span.begin);
  }
};

/// chunkStart(i) = the chunks of the long rows before row i; chunkStart(numRows) = all of them.
template <class Spans, class StartView>
struct CountLongRowChunks {
  Spans spans;
  StartView chunkStart;
  std::int64_t numRows;
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t i, std::int64_t& partial, const bool final) const {
    const RowSpan span = spans(i);
    const std::int64_t length = span.end - span.begin;
    const std::int64_t chunks = length > kRowEntriesWalkedAlone ? (length + kRowEntriesChunk - 1) / kRowEntriesChunk : 0;
    if (final) {
      chunkStart(i) = partial;
      if (i + 1 == numRows) chunkStart(numRows) = partial + chunks;
    }
    partial += chunks;
  }
};

/// Pass 2: a team per chunk of a long row; the team finds its row by bisection of chunkStart.
template <class ExecSpace, class Spans, class Body, class StartView>
struct WalkLongRowChunks {
  using Member = typename Kokkos::TeamPolicy<ExecSpace>::member_type;
  Spans spans;
  Body body;
  StartView chunkStart;
  std::int64_t numRows;
  KOKKOS_INLINE_FUNCTION void operator()(const Member& team) const {
    const std::int64_t chunk = team.league_rank();
    std::int64_t low = 0, high = numRows - 1;  // the last row whose chunkStart is at most chunk
    while (low < high) {
      const std::int64_t mid = low + (high - low + 1) / 2;
      if (chunkStart(mid) <= chunk)
        low = mid;
      else
        high = mid - 1;
    }
    const std::int64_t row = low;
    const RowSpan span = spans(row);
    const std::int64_t first = (chunk - chunkStart(row)) * kRowEntriesChunk;
    const std::int64_t length = span.end - span.begin;
    const std::int64_t last = first + kRowEntriesChunk < length ? first + kRowEntriesChunk : length;
    Kokkos::parallel_for(Kokkos::TeamThreadRange(team, first, last),
                         [&](const std::int64_t t) { body(row, span.begin + t, t); });
  }
};

/// body(row, k, t) for every row in [0, numRows) and every k of spans(row), t = k - its begin.
/// Waits for the work on exec to finish (the host reads how many chunks the long rows make).
template <class ExecSpace, class Spans, class Body>
void forEachRowEntry(const std::string& label, const ExecSpace& exec, std::int64_t numRows, const Spans& spans,
                     const Body& body) {
  if (numRows <= 0) return;
  using Device = Kokkos::Device<ExecSpace, typename ExecSpace::memory_space>;
  using Starts = Kokkos::View<std::int64_t*, Device>;
  lightParallelFor((label + "::shortRows").c_str(), exec, numRows, WalkShortRows<Spans, Body>{spans, body});
  const Starts chunkStart(Kokkos::view_alloc(Kokkos::WithoutInitializing, label + "::chunkStart"), numRows + 1);
  Kokkos::parallel_scan(label + "::longRowChunks",
                        Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>(exec, 0, numRows),
                        CountLongRowChunks<Spans, Starts>{spans, chunkStart, numRows});
  std::int64_t numChunks = 0;
  Kokkos::deep_copy(exec, numChunks, Kokkos::subview(chunkStart, numRows));
  exec.fence();
  if (numChunks == 0) return;
  Kokkos::parallel_for(label + "::longRows",
                       Kokkos::TeamPolicy<ExecSpace>(exec, static_cast<int>(numChunks),
                                                     isHostSpace<ExecSpace>() ? 1 : kRowEntriesTeamSize),
                       WalkLongRowChunks<ExecSpace, Spans, Body, Starts>{spans, body, chunkStart, numRows});
  exec.fence();  // chunkStart dies with this scope
}

/// forEachRowEntry over the rows of a pointer array: ptr.extent(0) - 1 rows, row i spanning
/// [ptr(i), ptr(i + 1)).
template <class ExecSpace, class PtrView, class Body>
void forEachRowEntry(const std::string& label, const ExecSpace& exec, const PtrView& ptr, const Body& body) {
  const std::int64_t numRows = ptr.extent(0) > 0 ? static_cast<std::int64_t>(ptr.extent(0)) - 1 : 0;
  forEachRowEntry(label, exec, numRows, PtrRowSpans<PtrView>{ptr}, body);
}

}  // namespace araios::Impl
