#pragma once
// VAB's product in one kernel. Each team takes a run of consecutive blocks: its threads sum the
// blocks into the team's scratch (32 consecutive blocks are 32 consecutive slots, vab.hpp), and
// then a thread per row adds the sums of the row's blocks in block order and stores the row.
// Before, a first kernel wrote every block's sum to memory and a second read them back per row:
// 16 bytes of traffic and a second launch for every 4 entries.
//
// A row whose blocks reach past its team's run is finished by the team that holds its last block.
// That team sums the row's earlier blocks again itself, a run at a time, instead of reading sums
// that other teams would leave in memory: nothing is shared between teams, so there is no
// workspace, no counter and no second launch, and products on one matrix can run at once. The
// cost is a second read of the entries of rows that cross a run, outside the run that finishes
// them: a few blocks per run on FEM-like rows, the whole row on a row of thousands of blocks.
//
// The bits are those of a CPU's row walk (vab_spmv.hpp): each block's sum from -0.0 in slot
// order, then the row's block sums from -0.0 in block order, each product and sum rounded.
#include <araios/detail/host_space.hpp>
#include <araios/detail/spmv_dispatch.hpp>
#include <araios/detail/team_parallel_for.hpp>
#include <araios/detail/team_scratch.hpp>
#include <araios/error.hpp>
#include <araios/formats/vab/vab.hpp>
#include <araios/spmv_options.hpp>

#include <Kokkos_Core.hpp>

#include <climits>
#include <cstdint>
#include <string>
#include <type_traits>

namespace araios::Impl {

/// Threads per team: a 256-thread block on a GPU, one thread on a CPU (where only tests run it).
template <class ExecSpace>
constexpr int vabTeamThreads() {
  return isHostSpace<ExecSpace>() ? 1 : 256;
}

/// Blocks per thread of a GPU team, each thread's loads of them in flight at once. Timed on an
/// H200 over 16 drawn matrices against 1, 2 and 8 (bench/results/nvidia-h200/vab_one_kernel/):
/// 4 and 2 came within 5 % of the fastest of the four on 11 of them, and 4 took at most 1.28x
/// the fastest time (a 27-point stencil, 24.4 against 19.1 us with 8), 2 at most 1.30x, 8 1.31x
/// and 1 1.81x (FEM rows of 36 entries: a run of 256 blocks holds about 28 rows, and the row
/// that enters it costs the team a second pass over its earlier blocks).
inline constexpr int kVabUnrolledBlocks = 4;

/// Blocks per team: 4 per thread of a 256-thread team on a GPU. A CPU's product does not run this
/// kernel (vab_spmv.hpp: it was slower there); its shape on a CPU, a team of one thread and 1,024
/// blocks, serves the tests that run the kernel on Serial and OpenMP.
template <class ExecSpace>
constexpr std::int64_t vabTeamBlocks() {
  return isHostSpace<ExecSpace>() ? 1024 : kVabUnrolledBlocks * vabTeamThreads<ExecSpace>();
}

/// What the product needs besides the matrix, made once for an operator (detail/spmv_state.hpp).
/// Read-only during a product: products at once may share it.
template <class Ordinal, class Device>
struct VabTeamPlan {
  /// numTeams + 1 entries: the first row whose first block lies in team k's run (a row without
  /// blocks counts as starting at the block after the previous row), and numRows at the end.
  Kokkos::View<Ordinal*, Device> teamFirstRow;
  std::int64_t teamBlocks = 0;

  bool ready() const { return teamBlocks > 0; }
  std::int64_t bytes() const { return static_cast<std::int64_t>(teamFirstRow.span() * sizeof(Ordinal)); }
  std::string describe(SpmvAlgorithm /*algorithm*/) const {
    if (!ready()) return {};
    return "teams of " + std::to_string(teamBlocks) + " blocks; a row across teams is finished by the team of its last";
  }
};

/// teamFirstRow(k): the lower bound of k * teamBlocks in rowBlockPtr.
template <class Vab, class RowView>
struct VabTeamFirstRows {
  Vab A;
  RowView teamFirstRow;
  std::int64_t teamBlocks;
  std::int64_t numTeams;
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t k) const {
    using Ordinal = typename Vab::ordinal_type;
    if (k == numTeams) {
      teamFirstRow(k) = A.numRows;
      return;
    }
    const std::int64_t target = k * teamBlocks;
    std::int64_t low = 0, high = A.numRows;
    while (low < high) {
      const std::int64_t mid = low + (high - low) / 2;
      if (static_cast<std::int64_t>(A.rowBlockPtr(mid)) < target) {
        low = mid + 1;
      } else {
        high = mid;
      }
    }
    teamFirstRow(k) = static_cast<Ordinal>(low);
  }
};

/// The plan of A's product on `exec` with teams of `teamBlocks` blocks. Asynchronous on `exec`.
template <class ExecSpace, class Vab>
VabTeamPlan<typename Vab::ordinal_type, typename Vab::device_type> vabTeamPlan(const ExecSpace& exec, const Vab& A,
                                                                                std::int64_t teamBlocks) {
  using Plan = VabTeamPlan<typename Vab::ordinal_type, typename Vab::device_type>;
  const std::int64_t blocks = static_cast<std::int64_t>(A.numBlocks);
  const std::int64_t numTeams = blocks == 0 ? 1 : (blocks - 1) / teamBlocks + 1;
  if (numTeams > INT_MAX) {
    throw UnsupportedError("VAB SpMV: " + std::to_string(blocks) + " blocks make " + std::to_string(numTeams) +
                           " teams of " + std::to_string(teamBlocks) + "; expected at most " + std::to_string(INT_MAX));
  }
  Plan plan;
  plan.teamBlocks = teamBlocks;
  plan.teamFirstRow = decltype(plan.teamFirstRow)(
      Kokkos::view_alloc(Kokkos::WithoutInitializing, "araios::vab::teamFirstRow"), numTeams + 1);
  Kokkos::parallel_for("araios::vab::plan_teams",
                       Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>(exec, 0, numTeams + 1),
                       VabTeamFirstRows<Vab, decltype(plan.teamFirstRow)>{A, plan.teamFirstRow, teamBlocks, numTeams});
  return plan;
}

/// The sum of block b's entries in slot order, from -0.0. Padding slots (only ever at the end of a
/// row's last block) add nothing and read no x, which keeps x's Inf or NaN out of rows that do not
/// use them (0 * Inf would be NaN). Testing each slot instead of stopping at the first padding
/// leaves the four loads independent, so that they are in flight together.
template <class Vab, class XView>
KOKKOS_INLINE_FUNCTION typename Vab::value_type vabBlockSum(const Vab& A, const XView& x, typename Vab::size_type b) {
  auto sum = sumIdentity<typename Vab::value_type>();
  for (int k = 0; k < kVabBlockWidth; ++k) {
    const auto slot = Vab::slot(b, k);
    const auto col = A.colIdx(slot);
    if (col != Vab::paddingColumn) accumulateProduct(sum, A.values(slot), x(col));
  }
  return sum;
}

/// PerThread: blocks per thread of a full run, unrolled so that a thread's loads of all its blocks
/// are in flight at once (a GPU's product); 0 for a loop over the run (other run lengths, which
/// the tests use, and a CPU's team of one thread).
template <class Vab, class XView, class YView, class Member, int PerThread>
struct VabTeamSums {
  using Value = typename Vab::value_type;
  using Ordinal = typename Vab::ordinal_type;
  using Offset = typename Vab::size_type;
  using Device = typename Vab::device_type;
  Vab A;
  XView x;
  YView y;
  Value alpha, beta;
  Kokkos::View<const Ordinal*, Device> teamFirstRow;
  std::int64_t teamBlocks;

  /// The row that enters the run at `first` and ends in it: its blocks before the run summed again
  /// here, a run at a time into `earlier`, added in block order by one thread, then its blocks in
  /// the run from `sums`. Every thread of the team calls it.
  KOKKOS_INLINE_FUNCTION void finishEnteringRow(const Member& team, Ordinal r, Offset first, const Value* sums,
                                                Value* earlier) const {
    Value sum = sumIdentity<Value>();  // meaningful in the thread that runs the singles
    for (Offset chunk = A.rowBlockPtr(r); chunk < first;) {
      const Offset chunkEnd = first - chunk < teamBlocks ? first : static_cast<Offset>(chunk + teamBlocks);
      Kokkos::parallel_for(Kokkos::TeamThreadRange(team, Offset(0), static_cast<Offset>(chunkEnd - chunk)),
                           [&](Offset j) { earlier[j] = vabBlockSum(A, x, static_cast<Offset>(chunk + j)); });
      team.team_barrier();
      Kokkos::single(Kokkos::PerTeam(team), [&]() {
        for (Offset j = 0; j < chunkEnd - chunk; ++j) sum = unfusedSum(sum, earlier[j]);
      });
      team.team_barrier();  // before the next run overwrites `earlier`
      chunk = chunkEnd;
    }
    Kokkos::single(Kokkos::PerTeam(team), [&]() {
      for (Offset b = first; b < A.rowBlockPtr(r + 1); ++b) sum = unfusedSum(sum, sums[b - first]);
      storeRow(y, r, sum, alpha, beta);
    });
  }

  KOKKOS_INLINE_FUNCTION void operator()(const Member& team) const {
    const std::int64_t rank = team.league_rank();
    const Offset first = static_cast<Offset>(rank * teamBlocks);
    const Offset end = static_cast<Offset>(
        static_cast<std::int64_t>(A.numBlocks) - rank * teamBlocks < teamBlocks ? A.numBlocks
                                                                                : rank * teamBlocks + teamBlocks);
    const Ordinal rowBegin = teamFirstRow(rank), rowEnd = teamFirstRow(rank + 1);
    // The first blocks of the run's rows are read beside the entries, into `starts`, so that the
    // row sums after the barrier wait on no load from memory. A run holds at most teamBlocks rows
    // with blocks; rows past those (empty ones) read rowBlockPtr.
    const std::int64_t rows = static_cast<std::int64_t>(rowEnd) - rowBegin;
    const std::int64_t staged = (rows < teamBlocks ? rows : teamBlocks) + 1;
    Value* sums = scratchArray<Value>(team, static_cast<std::size_t>(teamBlocks));
    Offset* starts = scratchArray<Offset>(team, static_cast<std::size_t>(teamBlocks + 1));
    const std::int64_t blocks = static_cast<std::int64_t>(end - first);
    if constexpr (PerThread > 0) {
      Value own[PerThread];
      for (int i = 0; i < PerThread; ++i) {
        const std::int64_t j = team.team_rank() + static_cast<std::int64_t>(i) * team.team_size();
        if (j < blocks) own[i] = vabBlockSum(A, x, static_cast<Offset>(first + j));
      }
      for (std::int64_t j = team.team_rank(); j < staged; j += team.team_size()) starts[j] = A.rowBlockPtr(rowBegin + j);
      for (int i = 0; i < PerThread; ++i) {
        const std::int64_t j = team.team_rank() + static_cast<std::int64_t>(i) * team.team_size();
        if (j < blocks) sums[j] = own[i];
      }
    } else {
      Kokkos::parallel_for(Kokkos::TeamThreadRange(team, std::int64_t(0), blocks > staged ? blocks : staged),
                           [&](std::int64_t j) {
                             if (j < staged) starts[j] = A.rowBlockPtr(rowBegin + j);
                             if (j < blocks) sums[j] = vabBlockSum(A, x, static_cast<Offset>(first + j));
                           });
    }
    team.team_barrier();
    const auto rowStart = [&](std::int64_t r) {
      return r - rowBegin < staged ? starts[r - rowBegin] : A.rowBlockPtr(r);
    };
    // Row rowBegin - 1 enters the run when the run's first block is not its own first; it ends here
    // unless it also leaves. Row rowEnd - 1 leaves when its blocks reach past the run's end; the
    // team of its last block finishes it.
    const bool leaves = rowStart(rowEnd) > end;
    const bool entering = starts[0] > first;
    const bool enteringEndsHere = entering && !(leaves && rowEnd == rowBegin);
    const Ordinal ownRowsEnd = leaves && rowEnd > rowBegin ? rowEnd - 1 : rowEnd;
    Kokkos::parallel_for(Kokkos::TeamThreadRange(team, rowBegin, ownRowsEnd), [&](Ordinal r) {
      Value sum = sumIdentity<Value>();
      const Offset rowEndBlock = rowStart(r + 1);
      for (Offset b = rowStart(r); b < rowEndBlock; ++b) sum = unfusedSum(sum, sums[b - first]);
      storeRow(y, r, sum, alpha, beta);
    });
    if (enteringEndsHere) {
      Value* earlier = scratchArray<Value>(team, static_cast<std::size_t>(teamBlocks));
      finishEnteringRow(team, rowBegin - 1, first, sums, earlier);
    }
  }
};

/// y = alpha*A*x + beta*y in one kernel, with the plan made for `teamBlocks` (vabTeamPlan).
/// Asynchronous on `exec`.
template <class ExecSpace, class Vab, class XView, class YView, class Plan>
void vabTeamProduct(const ExecSpace& exec, const Vab& A, const XView& x, const YView& y,
                    typename Vab::value_type alpha, typename Vab::value_type beta, const Plan& plan,
                    int teamThreads) {
  using Value = typename Vab::value_type;
  using Policy = Kokkos::TeamPolicy<ExecSpace>;
  using Member = typename Policy::member_type;
  const auto teams = static_cast<int>(plan.teamFirstRow.extent(0) - 1);
  // Two arrays of teamBlocks sums (the run's own, and a run of an entering row's earlier blocks)
  // and the first blocks of the run's rows.
  const auto n = static_cast<std::size_t>(plan.teamBlocks);
  const std::size_t scratch =
      2 * scratchArrayBytes<Value>(n) + scratchArrayBytes<typename Vab::size_type>(n + 1);
  const auto policy = Policy(exec, teams, teamThreads).set_scratch_size(0, Kokkos::PerTeam(scratch));
  const auto launch = [&](auto perThread) {
    using Kernel = VabTeamSums<Vab, XView, YView, Member, decltype(perThread)::value>;
    teamParallelFor("araios::spmv::vab::teams", policy,
                    Kernel{A, x, y, alpha, beta, plan.teamFirstRow, plan.teamBlocks});
  };
  if constexpr (!isHostSpace<ExecSpace>()) {
    if (plan.teamBlocks == kVabUnrolledBlocks * teamThreads) {
      launch(std::integral_constant<int, kVabUnrolledBlocks>());
      return;
    }
  }
  launch(std::integral_constant<int, 0>());
}

}  // namespace araios::Impl
