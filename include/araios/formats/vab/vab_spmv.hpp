#pragma once
// VAB SpMV (Liang, HUST 2012). Each block's (up to) 4 products added in slot order, then each
// row's block sums added in block order, every addition from -0.0 and rounded on its own: the
// same bits on every backend, in every mode but Accurate (Fast runs this order too). No product
// keeps a workspace.
//   On a GPU one kernel, a team per run of blocks (vab_team_sums.hpp).
//   On a CPU a thread per row walks its own blocks, under a dynamic schedule so that a long row
//   does not hold back one thread's share. The thesis's two kernels (block sums to a workspace,
//   then row sums) took 1.17-1.31x its time on rows of 8 to 27 and on a power-law matrix, and the
//   GPU's team form with a team of one thread 1.23-1.60x (2-core EPYC,
//   bench/results/cpu-2core-epyc/vab_cpu/).
// Accurate: one thread per row walks its blocks with the Accurate accumulators (row_sum.hpp).
// An operator runs the CSR Accurate product on the CSR matrix it was built from instead
// (csr_accurate.hpp): the same bits, and a long row is no longer one thread's walk.
#include <araios/detail/row_sum.hpp>
#include <araios/detail/spmv_dispatch.hpp>
#include <araios/formats/vab/vab.hpp>
#include <araios/formats/vab/vab_team_sums.hpp>

namespace araios::Impl {

/// A CPU's product: each row's blocks, each summed in slot order up to its first padding slot
/// (only a row's last block has padding; stopping there was about 10 % faster than testing every
/// slot as the GPU's vabBlockSum does, on the same EPYC), then the block sums in block order.
template <class Vab, class XView, class YView>
struct VabRowWalk {
  using Value = typename Vab::value_type;
  Vab A;
  XView x;
  YView y;
  Value alpha, beta;
  KOKKOS_INLINE_FUNCTION void operator()(typename Vab::ordinal_type row) const {
    Value sum = sumIdentity<Value>();
    for (auto block = A.rowBlockPtr(row); block < A.rowBlockPtr(row + 1); ++block) {
      Value blockSum = sumIdentity<Value>();
      for (int k = 0; k < kVabBlockWidth; ++k) {
        const auto slot = Vab::slot(block, k);
        const auto col = A.colIdx(slot);
        if (col == Vab::paddingColumn) break;
        accumulateProduct(blockSum, A.values(slot), x(col));
      }
      sum = unfusedSum(sum, blockSum);
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

  template <class Csr>
  static State prepare(const ExecSpace& exec, const Vab& A, const Csr& /*source*/, Mode mode) {
    if (mode == Mode::Accurate || isHostSpace<ExecSpace>()) return State();  // walks that need no plan
    return vabTeamPlan(exec, A, vabTeamBlocks<ExecSpace>());
  }

  template <class XView, class YView>
  static void apply(const ExecSpace& exec, const Vab& A, const XView& x, const YView& y, Value alpha, Value beta,
                    const SpmvOptions& options, const Kokkos::View<Value*, Device>& /*work*/,
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
      Kokkos::parallel_for(
          "araios::spmv::vab::row_walk",
          Kokkos::RangePolicy<ExecSpace, Kokkos::Schedule<Kokkos::Dynamic>, Kokkos::IndexType<Ordinal>>(exec, 0,
                                                                                                        A.numRows),
          VabRowWalk<Vab, XView, YView>{A, x, y, alpha, beta});
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
