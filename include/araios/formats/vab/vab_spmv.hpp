#pragma once
// VAB SpMV (Liang, HUST 2012), two phases:
//   1. one thread per block: the block's (up to) 4 products, added in order, into the
//      workspace (one value per block, owned by the caller);
//      32 consecutive threads read 32 consecutive slots for each element k (vab.hpp);
//   2. one thread per row: the partials of the row's blocks, added in block order, into y.
// Every addition happens in a fixed order, from -0.0, each product and sum rounded on its own:
// the same bits on every backend, in every mode but Accurate (Fast runs this kernel too).
// Accurate: one thread per row walks its blocks with the Accurate accumulators (row_sum.hpp).
// An operator runs the CSR Accurate product on the CSR matrix it was built from instead
// (csr_accurate.hpp): the same bits, and a long row is no longer one thread's walk.
#include <araios/detail/row_sum.hpp>
#include <araios/detail/spmv_dispatch.hpp>
#include <araios/formats/vab/vab.hpp>

namespace araios::Impl {

template <class Vab, class XView>
struct VabBlockPartials {
  using Value = typename Vab::value_type;
  Vab A;
  XView x;
  Kokkos::View<Value*, typename Vab::device_type> partials;  ///< one per block
  KOKKOS_INLINE_FUNCTION void operator()(typename Vab::size_type block) const {
    Value sum = sumIdentity<Value>();
    for (int k = 0; k < kVabBlockWidth; ++k) {
      const auto slot = Vab::slot(block, k);
      const auto col = A.colIdx(slot);
      // Padding ends the row's last block; skipping it keeps x's Inf or NaN out of the rows
      // that do not use them (0 * Inf would be NaN).
      if (col == Vab::paddingColumn) break;
      accumulateProduct(sum, A.values(slot), x(col));
    }
    partials(block) = sum;
  }
};

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

  /// Phase 1's block sums, one per block.
  static std::int64_t workspaceValues(const Vab& A) { return static_cast<std::int64_t>(A.numBlocks); }

  template <class XView, class YView>
  static void apply(const ExecSpace& exec, const Vab& A, const XView& x, const YView& y, Value alpha, Value beta,
                    const SpmvOptions& options,
                    const Kokkos::View<Value*, Device>& work) {
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
    checkWorkspace(work, workspaceValues(A), "VAB");
    Kokkos::parallel_for("araios::spmv::vab::blocks",
                         Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<Offset>>(exec, 0, A.numBlocks),
                         VabBlockPartials<Vab, XView>{A, x, work});
    Kokkos::parallel_for("araios::spmv::vab::rows",
                         Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<Ordinal>>(exec, 0, A.numRows),
                         VabRowSums<Vab, YView>{A, y, alpha, beta, work});
  }
};

}  // namespace araios::Impl
