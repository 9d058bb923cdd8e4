#pragma once
// VAB SpMV (Liang, HUST 2012). Each block's (up to) 4 products added in slot order, then each
// row's block sums added in block order, every addition from -0.0 and rounded on its own: the
// same bits on every backend, in every mode but Accurate (Fast runs this order too).
//   On a GPU one kernel, a team per run of blocks (vab_team_sums.hpp).
//   On a CPU the thesis's two phases: a thread per block writes its sum to the workspace, then a
//   thread per row adds its blocks' sums. The one-kernel form with a team of one thread took
//   1.09x their time (geomean over 29 matrices on a 2-core EPYC, bench/results/nvidia-h200/
//   vab_one_kernel/README.md), up to 1.96x (bayer10).
// Accurate: one thread per row walks its blocks with the Accurate accumulators (row_sum.hpp).
// An operator runs the CSR Accurate product on the CSR matrix it was built from instead
// (csr_accurate.hpp): the same bits, and a long row is no longer one thread's walk.
#include <araios/detail/row_sum.hpp>
#include <araios/detail/spmv_dispatch.hpp>
#include <araios/formats/vab/vab.hpp>
#include <araios/formats/vab/vab_team_sums.hpp>

namespace araios::Impl {

/// Phase 1 on a CPU: the sum of each block, in the workspace.
template <class Vab, class XView>
struct VabBlockPartials {
  using Value = typename Vab::value_type;
  Vab A;
  XView x;
  Kokkos::View<Value*, typename Vab::device_type> partials;  ///< one per block
  KOKKOS_INLINE_FUNCTION void operator()(typename Vab::size_type block) const {
    // As timed on a CPU: stopping at the first padding slot (the row's last block) instead of
    // testing every slot as vabBlockSum does; the same sum.
    Value sum = sumIdentity<Value>();
    for (int k = 0; k < kVabBlockWidth; ++k) {
      const auto slot = Vab::slot(block, k);
      const auto col = A.colIdx(slot);
      if (col == Vab::paddingColumn) break;
      accumulateProduct(sum, A.values(slot), x(col));
    }
    partials(block) = sum;
  }
};

/// Phase 2 on a CPU: each row's block sums in block order.
template <class Vab, class YView>
struct VabRowSums {
  using Value = typename Vab::value_type;
  Vab A;
  YView y;
  Value alpha, beta;
  Kokkos::View<Value*, typename Vab::device_type> partials;
  KOKKOS_INLINE_FUNCTION void operator()(typename Vab::ordinal_type row) const {
    Value sum = sumIdentity<Value>();
    for (auto block = A.rowBlockPtr(row); block < A.rowBlockPtr(row + 1); ++block) {
      sum = unfusedSum(sum, partials(block));
    }
    storeRow(y, row, sum, alpha, beta);
  }
};

/// Accurate mode: every entry of the row's blocks into one accumulator of the Accurate mode.
template <class Vab, class XView, class YView, class Acc>
struct VabAccurateRows {
  using Value = typename Vab::value_type;
  Vab A;
  XView x;
  YView y;
  Value alpha, beta;
  KOKKOS_INLINE_FUNCTION void operator()(typename Vab::ordinal_type row) const {
    Acc acc;
    for (auto block = A.rowBlockPtr(row); block < A.rowBlockPtr(row + 1); ++block) {
      for (int k = 0; k < kVabBlockWidth; ++k) {
        const auto slot = Vab::slot(block, k);
        const auto col = A.colIdx(slot);
        if (col == Vab::paddingColumn) break;
        acc.add(A.values(slot), x(col));
      }
    }
    acc.store(y, row, alpha, beta);
  }
};

template <class ExecSpace, class Value, class Ordinal, class Offset, class Device>
struct Spmv<ExecSpace, VabMatrix<Value, Ordinal, Offset, Device>> {
  using Vab = VabMatrix<Value, Ordinal, Offset, Device>;
  /// Where each team's rows begin (vab_team_sums.hpp), on a GPU.
  using State = VabTeamPlan<Ordinal, Device>;

  /// On a CPU, phase 1's block sums, one per block; on a GPU none.
  static std::int64_t workspaceValues(const Vab& A) {
    return isHostSpace<ExecSpace>() ? static_cast<std::int64_t>(A.numBlocks) : 0;
  }

  template <class Csr>
  static State prepare(const ExecSpace& exec, const Vab& A, const Csr& /*source*/, Mode mode) {
    if (mode == Mode::Accurate || isHostSpace<ExecSpace>()) return State();  // walks that need no plan
    return vabTeamPlan(exec, A, vabTeamBlocks<ExecSpace>());
  }

  template <class XView, class YView>
  static void apply(const ExecSpace& exec, const Vab& A, const XView& x, const YView& y, Value alpha, Value beta,
                    const SpmvOptions& options, const Kokkos::View<Value*, Device>& work,
                    const State& plan = State()) {
    if (options.algorithm != SpmvAlgorithm::Auto) refuseAlgorithm(options.algorithm, "VAB");
    if (options.mode == Mode::Accurate) {
      withRowAccumulator<Value>(exec, Mode::Accurate, y, beta, [&](auto tag, const auto& yv) {
        using Acc = typename decltype(tag)::type;
        Kokkos::parallel_for("araios::spmv::vab::accurate_rows",
                             Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<Ordinal>>(exec, 0, A.numRows),
                             VabAccurateRows<Vab, XView, std::decay_t<decltype(yv)>, Acc>{A, x, yv, alpha, beta});
      });
      return;
    }
    if constexpr (isHostSpace<ExecSpace>()) {
      checkWorkspace(work, workspaceValues(A), "VAB");
      Kokkos::parallel_for("araios::spmv::vab::blocks",
                           Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<Offset>>(exec, 0, A.numBlocks),
                           VabBlockPartials<Vab, XView>{A, x, work});
      Kokkos::parallel_for("araios::spmv::vab::rows",
                           Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<Ordinal>>(exec, 0, A.numRows),
                           VabRowSums<Vab, YView>{A, y, alpha, beta, work});
      return;
    }
    if (plan.ready()) {
      vabTeamProduct(exec, A, x, y, alpha, beta, plan, vabTeamThreads<ExecSpace>());
      return;
    }
    vabTeamProduct(exec, A, x, y, alpha, beta, vabTeamPlan(exec, A, vabTeamBlocks<ExecSpace>()),
                   vabTeamThreads<ExecSpace>());
    exec.fence();  // the plan made for this call dies with this scope
  }
};

}  // namespace araios::Impl
