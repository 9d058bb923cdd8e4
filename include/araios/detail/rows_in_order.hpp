#pragma once
// The row walk in CSR order that COO, CSC and HYB run outside Fast mode: each row's entries
// summed in the format's canonical order, into one accumulator (row_sum.hpp; in Deterministic
// mode the blocked CSR order of blocked_sum.hpp). Within a chunk of 32 entries the order is a
// chain of dependent additions; what can be shared is the reading, and, in Deterministic mode,
// the chunks of a long row. One thread per row reads a long row alone: on a GPU each entry then
// waits on its own loads (a row of 2,000,000 entries took 0.2 s on an H200), while the rest of
// the GPU idles.
//
// So on a GPU the rows are walked by teams of kRowTeamSize threads, a thread per row of the
// team's block, and a row of more than kLongRowEntries staged entries is left to the whole team
// once the short ones are done: the team's threads load the row in chunks of kLongRowChunk
// entries into scratch (coalesced, many loads in flight), and thread 0 adds them in order, into
// the one accumulator, while the other warps load the next chunk. The same operations in the
// same order as the thread's walk, so the same bits; only who loads changes. In Deterministic
// mode a row of more than one chunk of the blocked order is summed apart instead (RowsApart):
// up to kRowApartEntries staged entries by a thread per chunk (chunked_rows_in_order.hpp),
// longer ones by a team per group (long_rows_in_order.hpp). Thread 0's chain of additions was
// the bound on long rows (9.6 ms for two rows of 1.36 million entries on an H200), and a
// thread's chain on rows of a few hundred entries where they abound. On a CPU a thread per row
// reads its row at memory speed, and the walk stays one thread per row.
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
//   entry(q, a, column)           the value and column at position q;
// and, where it has a head, headLength(i) and headEntry(i, k, a, column) for the rows summed by
// groups (long_rows_in_order.hpp).
#include <araios/detail/chunked_rows_in_order.hpp>
#include <araios/detail/host_space.hpp>
#include <araios/detail/long_rows_in_order.hpp>
#include <araios/detail/row_sum.hpp>
#include <araios/detail/team_parallel_for.hpp>
#include <araios/detail/team_scratch.hpp>
#include <araios/spmv_options.hpp>

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <limits>
#include <string>
#include <type_traits>

namespace araios::Impl {

/// Rows of a GPU team's block: one per thread.
constexpr int kRowTeamSize = 256;
/// Staged entries above which a row is read by its whole team instead of its own thread.
constexpr std::int64_t kLongRowEntries = 256;
/// Entries of a long row staged at once (two such buffers per team).
constexpr int kLongRowChunk = 512;
/// Staged entries above which Deterministic mode sums a row by chunks of the blocked order, many
/// threads at once (chunked_rows_in_order.hpp), instead of by its own thread.
constexpr std::int64_t kRowChunkedEntries = kChunkEntries;
/// Staged entries above which Deterministic mode sums a row by groups of the blocked order, many
/// teams at once (long_rows_in_order.hpp), instead of by chunks.
constexpr std::int64_t kRowApartEntries = 512;
/// No row apart.
constexpr std::int64_t kNoRowsApart = std::numeric_limits<std::int64_t>::max();

/// Deterministic mode's rows summed apart from the team walk: those of more than chunkedPast
/// staged entries, up to groupedPast, by chunks; the longer ones by groups. Their sums take
/// workspaceValues() values of the product's workspace: the groups' first, then the chunks'.
template <class Device>
struct RowsApart {
  std::int64_t chunkedPast = kNoRowsApart;
  std::int64_t groupedPast = kNoRowsApart;
  ChunkedRowList<Device> chunked;
  LongRowList<std::int64_t, Device> grouped;

  std::int64_t bytes() const { return chunked.bytes() + grouped.bytes(); }
  std::int64_t workspaceValues() const { return grouped.pieces + chunked.chunks(); }
  /// Staged entries above which the team walk leaves a row to these lists.
  std::int64_t past() const { return chunkedPast < groupedPast ? chunkedPast : groupedPast; }
};

/// The rows of `rows` that Deterministic mode sums apart, by chunks past `chunkedPast` staged
/// entries and by groups past `groupedPast`, listed on `exec` (it waits for `exec`).
template <class Device, class ExecSpace, class Rows>
RowsApart<Device> listRowsApart(const ExecSpace& exec, const Rows& rows, std::int64_t chunkedPast,
                                std::int64_t groupedPast) {
  RowsApart<Device> apart;
  apart.chunkedPast = chunkedPast;
  apart.groupedPast = groupedPast;
  apart.chunked = listChunkedRowsInOrder<Device>(exec, rows, chunkedPast, groupedPast);
  apart.grouped = listLongRowsInOrder<Device>(exec, rows, groupedPast);
  return apart;
}

/// How a matrix's rows are walked, chosen once from their lengths: on a GPU, by teams where some
/// row has more than kLongRowEntries staged entries; otherwise, and always on a CPU, a thread
/// per row. Where teams walk, Deterministic mode's rows of more than kRowChunkedEntries staged
/// entries are listed too: they are summed apart, by chunks or by groups of the blocked CSR
/// order, into a workspace of workspaceValues(). An operator keeps its plan
/// (detail/spmv_state.hpp); a bare product plans on the call.
template <class Device>
struct RowWalkPlan {
  bool planned = false;
  bool byTeams = false;
  RowsApart<Device> apart;
  bool ready() const { return planned; }
  std::int64_t bytes() const { return apart.bytes(); }
  /// Values of workspace a product needs: a sum per group and per chunk of the rows apart.
  std::int64_t workspaceValues() const { return apart.workspaceValues(); }
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
/// row, and the list of long rows where there are any (so it waits for `exec`); on a CPU a
/// thread per row, with nothing to measure, so the rows are not even made (a COO without row
/// offsets would sort its entries for them).
template <class Device, class ExecSpace, class MakeRows>
RowWalkPlan<Device> planRowWalkOf(const ExecSpace& exec, const MakeRows& makeRows) {
  RowWalkPlan<Device> plan;
  plan.planned = true;
  if constexpr (!isHostSpace<ExecSpace>()) {
    const auto& rows = makeRows();
    plan.byTeams = longestStagedRow(exec, rows) > kLongRowEntries;
    if (plan.byTeams) plan.apart = listRowsApart<Device>(exec, rows, kRowChunkedEntries, kRowApartEntries);
  } else {
    (void)exec, (void)makeRows;
  }
  return plan;
}

/// The plan for walking `rows` on `exec` (planRowWalkOf).
template <class Device, class ExecSpace, class Rows>
RowWalkPlan<Device> planRowWalk(const ExecSpace& exec, const Rows& rows) {
  return planRowWalkOf<Device>(exec, [&rows]() -> const Rows& { return rows; });
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
  std::int64_t apartEntries;    ///< rows of more staged entries are summed apart (RowsApart)

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
      const auto staged = static_cast<std::int64_t>(rows.end(i) - rows.begin(i));
      if (staged > apartEntries) {
        // Summed by chunks or groups, in other launches.
      } else if (staged > longRowEntries) {
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

/// The team kernel alone, with teams of `teamSize` threads; rows of more than `longRowEntries`
/// staged entries are read by the whole team, and those of more than `apartEntries` left alone.
template <class Acc, class ExecSpace, class Rows, class XView, class YView>
void launchRowTeams(const ExecSpace& exec, const Rows& rows, const XView& x, const YView& y,
                    typename YView::non_const_value_type alpha, typename YView::non_const_value_type beta,
                    const char* label, int teamSize, std::int64_t longRowEntries,
                    std::int64_t apartEntries = kNoRowsApart) {
  using Kernel = RowsInOrderTeamKernel<ExecSpace, Rows, XView, YView, Acc>;
  if (rows.numRows <= 0) return;
  const Kernel kernel{rows, x, y, alpha, beta, longRowEntries, apartEntries};
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

/// Deterministic mode's accumulator: the one whose rows can be summed apart, by chunks or groups.
template <class Acc>
struct SumsLongRowsApart : std::false_type {};
template <class Value>
struct SumsLongRowsApart<RoundedRowSum<Value>> : std::true_type {};
template <class Acc>
inline constexpr bool sumsLongRowsApart = SumsLongRowsApart<Acc>::value;

/// The team walk with the rows of `apart` summed apart, their sums in `work` where it holds
/// enough values, otherwise in an allocation of the call's.
template <class ExecSpace, class Rows, class XView, class YView, class Device, class Work>
void walkRowsWithRowsApart(const ExecSpace& exec, const Rows& rows, const XView& x, const YView& y,
                           typename YView::non_const_value_type alpha, typename YView::non_const_value_type beta,
                           const char* label, int teamSize, std::int64_t longRowEntries,
                           const RowsApart<Device>& apart, const Work& work) {
  using Value = typename YView::non_const_value_type;
  using Sums = Kokkos::View<Value*, Device, Kokkos::MemoryUnmanaged>;
  launchRowTeams<RoundedRowSum<Value>>(exec, rows, x, y, alpha, beta, label, teamSize, longRowEntries, apart.past());
  const std::int64_t needed = apart.workspaceValues();
  if (needed == 0) return;
  const bool fits = static_cast<std::int64_t>(work.extent(0)) >= needed;
  const Kokkos::View<Value*, Device> own =
      fits ? Kokkos::View<Value*, Device>()
           : Kokkos::View<Value*, Device>(
                 Kokkos::view_alloc(Kokkos::WithoutInitializing, "araios::spmv::rows_apart::sums"), needed);
  Value* const sums = fits ? work.data() : own.data();
  sumLongRowsInOrder(exec, rows, apart.grouped, x, y, alpha, beta, Sums(sums, apart.grouped.pieces));
  sumChunkedRowsInOrder(exec, rows, apart.chunked, x, y, alpha, beta,
                        Sums(sums + apart.grouped.pieces, apart.chunked.chunks()));
  if (!fits) exec.fence();  // the sums die with this scope
}

/// The team walk on any backend, with teams of `teamSize` threads, rows of more than
/// `longRowEntries` staged entries read by the whole team and, in Deterministic mode, rows of
/// more than `chunkedEntries` summed by chunks and of more than `apartEntries` by groups (the
/// GPU's walk; on a CPU for tests).
template <class Acc, class ExecSpace, class Rows, class XView, class YView>
void walkRowsInOrderByTeams(const ExecSpace& exec, const Rows& rows, const XView& x, const YView& y,
                            typename YView::non_const_value_type alpha, typename YView::non_const_value_type beta,
                            const char* label, int teamSize, std::int64_t longRowEntries,
                            std::int64_t apartEntries = kRowApartEntries,
                            std::int64_t chunkedEntries = kRowChunkedEntries) {
  using Device = typename ExecSpace::device_type;
  if constexpr (sumsLongRowsApart<Acc>) {
    walkRowsWithRowsApart(exec, rows, x, y, alpha, beta, label, teamSize, longRowEntries,
                          listRowsApart<Device>(exec, rows, chunkedEntries, apartEntries),
                          Kokkos::View<typename YView::non_const_value_type*, Device>());
  } else {
    launchRowTeams<Acc>(exec, rows, x, y, alpha, beta, label, teamSize, longRowEntries);
  }
}

/// The walk of `rows` in accumulator Acc, as `plan` (from planRowWalk on these rows) says: by
/// teams, or a thread per row indexed by Index (the format's ordinal type). `work`: the
/// product's workspace, at least plan.workspaceValues() values for an operator's plan (a bare
/// product's call allocates what it lacks).
template <class Acc, class Index, class ExecSpace, class Rows, class XView, class YView, class Device, class Work>
void walkRowsInOrder(const ExecSpace& exec, const Rows& rows, const XView& x, const YView& y,
                     typename YView::non_const_value_type alpha, typename YView::non_const_value_type beta,
                     const char* label, const RowWalkPlan<Device>& plan, const Work& work) {
  if (plan.byTeams) {
    if constexpr (sumsLongRowsApart<Acc>) {
      walkRowsWithRowsApart(exec, rows, x, y, alpha, beta, label, kRowTeamSize, kLongRowEntries, plan.apart, work);
    } else {
      launchRowTeams<Acc>(exec, rows, x, y, alpha, beta, label, kRowTeamSize, kLongRowEntries);
    }
    return;
  }
  const Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<Index>> policy(exec, 0, static_cast<Index>(rows.numRows));
  Kokkos::parallel_for(label, policy, RowsInOrderKernel<Rows, XView, YView, Acc>{rows, x, y, alpha, beta});
}

}  // namespace araios::Impl
