#pragma once
// Fast mode's scatter of COO entries into y (COO, and HYB's COO part): after y = beta*y, every
// entry's alpha*a_ij*x_j is added into y_i atomically.
//
// One atomic addition per entry serialises on a long row: every entry of the row goes to the
// same y_i, one addition after the other at the cache, while the rest of the GPU waits. On an
// H200 a COO product with a row of a million entries took 1.8 ms that way; summed by runs, as
// below, it takes 0.035 ms (bench/results/nvidia-h200/coo_run_scatter). So the entries are
// summed by runs first:
//   - a team takes kTeamEntries consecutive entries; on a GPU it stages their products and
//     rows in scratch (read coalesced), and each thread then walks kPieceEntries consecutive
//     ones;
//   - a thread sums each run of entries of one row in a register and adds the run's sum once;
//   - the run a thread ends on may go on in the next threads. Where some row's runs span three
//     threads or more, the threads' last runs are joined by a segmented scan over the team,
//     and the thread that ends the row's run adds it; otherwise each thread adds its own.
// A row of a million entries then takes two atomic additions per team of 1,024 entries, and a
// row of 5 one or two. The grouping only changes which partial sums are added, not what is
// added: the order of the additions into y_i depends on scheduling, as with one entry per
// thread, and the entries need not be sorted (runs are just shorter where they are not).
#include <araios/detail/host_space.hpp>
#include <araios/detail/team_parallel_for.hpp>
#include <araios/detail/team_scratch.hpp>
#include <araios/formats/coo/coo.hpp>

#include <Kokkos_Core.hpp>

#include <cstdint>

namespace araios::Impl {

/// Threads of a team of the run scatter: a block of 128 on a GPU, one thread on a CPU.
template <class ExecSpace>
constexpr int cooRunTeamSize() {
  return isHostSpace<ExecSpace>() ? 1 : 128;
}
/// Consecutive entries one thread walks: on a GPU 8 staged ones (a team of 1,024 entries), on a
/// CPU a run long enough that the team's start costs nothing.
template <class ExecSpace>
constexpr int cooRunPieceEntries() {
  return isHostSpace<ExecSpace>() ? 4096 : 8;
}

template <class ExecSpace, class Coo, class XView, class YView>
struct CooRunScatterKernel {
  using Value = typename Coo::value_type;
  using Ordinal = typename Coo::ordinal_type;
  using Member = typename Kokkos::TeamPolicy<ExecSpace>::member_type;
  static constexpr bool kOnHost = isHostSpace<ExecSpace>();
  static constexpr int kTeamSize = cooRunTeamSize<ExecSpace>();
  static constexpr int kPieceEntries = cooRunPieceEntries<ExecSpace>();
  static constexpr std::int64_t kTeamEntries = static_cast<std::int64_t>(kTeamSize) * kPieceEntries;
  /// A staged entry's slot: one slot of padding after each thread's piece, so that the threads
  /// of a warp, walking their pieces side by side, read from different banks.
  static constexpr std::int64_t kStagedSlots = kTeamEntries + kTeamSize;
  KOKKOS_INLINE_FUNCTION static int stagedSlot(int p) { return p + p / kPieceEntries; }

  Coo A;
  XView x;
  YView y;
  Value alpha;

  static std::size_t scratchBytes() {
    if constexpr (kOnHost) {
      return 0;
    } else {
      return scratchArrayBytes<Value>(kStagedSlots) + scratchArrayBytes<Ordinal>(kStagedSlots) +
             2 * scratchArrayBytes<Value>(kTeamSize) + scratchArrayBytes<std::int64_t>(kTeamSize) +
             2 * scratchArrayBytes<int>(kTeamSize) + scratchArrayBytes<int>(1);
    }
  }

  KOKKOS_INLINE_FUNCTION void add(std::int64_t row, Value sum) const { Kokkos::atomic_add(&y(row), alpha * sum); }

  /// Walks the entries [begin, end) given by entry(p, row, product): every run but the last
  /// is added; the last run's row and sum are left in tailRow and tailSum (tailRow -1 where
  /// there is no entry).
  template <class Entry>
  KOKKOS_INLINE_FUNCTION void sumRuns(std::int64_t begin, std::int64_t end, const Entry& entry, std::int64_t& tailRow,
                                      Value& tailSum) const {
    tailRow = -1;
    tailSum = Value(0);
    for (std::int64_t p = begin; p < end; ++p) {
      std::int64_t row;
      Value product;
      entry(p, row, product);
      if (row != tailRow) {
        if (tailRow >= 0) add(tailRow, tailSum);
        tailRow = row;
        tailSum = product;
      } else {
        tailSum += product;
      }
    }
  }

  /// Stages the team's entries first + p, p < count, in scratch: thread t takes p = t + j
  /// kTeamSize (read coalesced), issuing all its loads before it gathers x and stores, so that
  /// they are in flight together.
  KOKKOS_INLINE_FUNCTION void stage(std::int64_t first, int count, int t, Ordinal* rows, Value* products) const {
    Ordinal row[kPieceEntries], column[kPieceEntries];
    Value value[kPieceEntries];
    for (int j = 0; j < kPieceEntries; ++j) {
      const int p = t + j * kTeamSize;
      if (p < count) {
        row[j] = A.rowIdx(first + p);
        column[j] = A.colIdx(first + p);
        value[j] = A.values(first + p);
      }
    }
    for (int j = 0; j < kPieceEntries; ++j) {
      const int p = t + j * kTeamSize;
      if (p < count) {
        rows[stagedSlot(p)] = row[j];
        products[stagedSlot(p)] = value[j] * static_cast<Value>(x(column[j]));
      }
    }
  }

  KOKKOS_INLINE_FUNCTION void operator()(const Member& team) const {
    const std::int64_t nnz = static_cast<std::int64_t>(A.values.extent(0));
    const std::int64_t first = static_cast<std::int64_t>(team.league_rank()) * kTeamEntries;
    const std::int64_t last = first + kTeamEntries < nnz ? first + kTeamEntries : nnz;
    std::int64_t tailRow;
    Value tailSum;
    if constexpr (kOnHost) {
      sumRuns(first, last, [&](std::int64_t k, std::int64_t& row, Value& product) {
        row = static_cast<std::int64_t>(A.rowIdx(k));
        product = A.values(k) * static_cast<Value>(x(A.colIdx(k)));
      }, tailRow, tailSum);
      if (tailRow >= 0) add(tailRow, tailSum);
    } else {
      Value* products = scratchArray<Value>(team, kStagedSlots);
      Ordinal* rows = scratchArray<Ordinal>(team, kStagedSlots);
      Value* sums[2] = {scratchArray<Value>(team, kTeamSize), scratchArray<Value>(team, kTeamSize)};
      std::int64_t* keys = scratchArray<std::int64_t>(team, kTeamSize);
      int* heads[2] = {scratchArray<int>(team, kTeamSize), scratchArray<int>(team, kTeamSize)};
      int* spread = scratchArray<int>(team, 1);
      const int count = static_cast<int>(last - first);
      const int t = team.team_rank();
      if (t == 0) *spread = 0;
      stage(first, count, t, rows, products);
      team.team_barrier();
      const int begin = t * kPieceEntries < count ? t * kPieceEntries : count;
      const int end = begin + kPieceEntries < count ? begin + kPieceEntries : count;
      sumRuns(begin, end, [&](std::int64_t p, std::int64_t& row, Value& product) {
        row = static_cast<std::int64_t>(rows[stagedSlot(static_cast<int>(p))]);
        product = products[stagedSlot(static_cast<int>(p))];
      }, tailRow, tailSum);
      keys[t] = tailRow;
      team.team_barrier();
      // A run shared by two threads costs two additions; only a row whose last run spans three
      // threads or more is worth the scan.
      const bool middle = tailRow >= 0 && t > 0 && t + 1 < kTeamSize && keys[t - 1] == tailRow && keys[t + 1] == tailRow;
      if (middle) *spread = 1;
      team.team_barrier();
      if (!*spread) {
        if (tailRow >= 0) add(tailRow, tailSum);
        return;
      }
      // The segmented scan of the threads' last runs: a thread heads a segment where its row
      // differs from the previous thread's; after log2(kTeamSize) steps each thread holds the
      // sum of its segment up to itself, and the segment's last thread adds it. Values and heads
      // in arrays of their own, not SegmentedPartial (primitives/segmented_scan_order.hpp): that
      // form, the same additions, made the kernel 1.0 to 1.65x slower on an H200 on every
      // matrix, where the scan does not run as well (bench/results/nvidia-h200/coo_run_scatter).
      sums[0][t] = tailSum;
      heads[0][t] = t == 0 || keys[t - 1] != tailRow;
      team.team_barrier();
      int from = 0;
      for (int d = 1; d < kTeamSize; d *= 2) {
        const int to = 1 - from;
        const bool reach = t >= d && !heads[from][t];
        sums[to][t] = reach ? sums[from][t - d] + sums[from][t] : sums[from][t];
        heads[to][t] = reach ? heads[from][t - d] : heads[from][t];
        team.team_barrier();
        from = to;
      }
      const std::int64_t next = t + 1 < kTeamSize ? keys[t + 1] : -1;
      if (tailRow >= 0 && next != tailRow) add(tailRow, sums[from][t]);
    }
  }
};

/// y += alpha * A * x over COO entries, by runs (above), on exec; y must already hold beta*y.
template <class ExecSpace, class Coo, class XView, class YView>
void scatterCooRuns(const ExecSpace& exec, const Coo& A, const XView& x, const YView& y,
                    typename Coo::value_type alpha, const char* label) {
  using Kernel = CooRunScatterKernel<ExecSpace, Coo, XView, YView>;
  const std::int64_t nnz = static_cast<std::int64_t>(A.values.extent(0));
  if (nnz == 0) return;
  const std::int64_t teams = (nnz + Kernel::kTeamEntries - 1) / Kernel::kTeamEntries;
  teamParallelFor(label,
                  Kokkos::TeamPolicy<ExecSpace>(exec, static_cast<int>(teams), Kernel::kTeamSize)
                      .set_scratch_size(0, Kokkos::PerTeam(static_cast<int>(Kernel::scratchBytes()))),
                  Kernel{A, x, y, alpha});
}

}  // namespace araios::Impl
