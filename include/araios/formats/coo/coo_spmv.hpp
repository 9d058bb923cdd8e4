#pragma once
// COO SpMV, by mode:
//   Fast           after y = beta*y, the entries' alpha*a_ij*x_j are added into y atomically,
//                  a sum per run of entries of one row (coo_run_scatter.hpp). The order of the
//                  additions depends on scheduling, so the low bits of y can differ from run to
//                  run. On a CPU, where atomic additions cost
//                  more than the row walk (fastModeScattersAtomically), a COO with row offsets
//                  runs the Deterministic walk instead.
//   Deterministic  no atomics: a sorted segmented reduction. Each row's entries are taken in
//                  the canonical order of coo_row_order.hpp (storage order within the row) and
//                  summed in the blocked CSR order (chunks of 32 from -0.0, each product and
//                  sum rounded on its own, then the chunks' sums: RoundedRowSum), then stored
//                  through storeRow (the walk of detail/rows_in_order.hpp: on a GPU a long
//                  row's entries are read by a whole team, or its chunks summed by many). For
//                  a COO made from CSR (or read from a sorted file) that is CSR order: the bits
//                  of csr-scalar.
//   Accurate       the same walk with the Accurate accumulators (row_sum.hpp): correctly rounded.
//                  An operator runs the CSR Accurate product on the CSR matrix it was built
//                  from instead (csr_accurate.hpp): the same bits, and a long row is no
//                  longer one thread's walk.
// Without CooMatrix::rowPtr, the deterministic and accurate modes sort the entries by row on
// every call (a bucket sort; allocates and costs several products).
#include <araios/detail/row_sum.hpp>
#include <araios/detail/rows_in_order.hpp>
#include <araios/detail/spmv_dispatch.hpp>
#include <araios/formats/coo/coo.hpp>
#include <araios/formats/coo/coo_row_order.hpp>
#include <araios/formats/coo/coo_run_scatter.hpp>

#include <cstdint>

namespace araios::Impl {

/// The rows of a COO structure in the canonical order, for the walk in CSR order (sorted on the
/// call where the COO has no row offsets). Also the tail of a HYB row.
template <class ExecSpace, class Coo>
auto cooRowWalk(const ExecSpace& exec, const Coo& A) {
  using Offset = typename Coo::size_type;
  auto order = rowOrder<Offset>(exec, A.numRows, A.rowIdx, A.rowPtr, "araios::spmv::coo::rowOrder");
  return rowOrderWalk<ColumnsAt::Entry>(A.values, A.colIdx, order, A.numRows);
}

template <class ExecSpace, class Value, class Ordinal, class Offset, class Device>
struct Spmv<ExecSpace, CooMatrix<Value, Ordinal, Offset, Device>> {
  using Coo = CooMatrix<Value, Ordinal, Offset, Device>;
  /// How the rows are walked (detail/rows_in_order.hpp), planned once for an operator whatever
  /// its mode: one reduction over the rows, where apply may walk them in any mode.
  using State = RowWalkPlan<Device>;

  template <class Csr>
  static State prepare(const ExecSpace& exec, const Coo& A, const Csr& /*source*/, Mode /*mode*/) {
    const State plan = planRowWalkOf<Device>(exec, [&] { return cooRowWalk(exec, A); });
    exec.fence();  // a row order sorted for the plan (on a GPU) dies with this scope
    return plan;
  }

  template <class XView, class YView>
  static void apply(const ExecSpace& exec, const Coo& A, const XView& x, const YView& y, Value alpha, Value beta,
                    const SpmvOptions& options, const Kokkos::View<Value*, Device>& work,
                    const State& plan = State()) {
    if (options.algorithm != SpmvAlgorithm::Auto) refuseAlgorithm(options.algorithm, "COO");
    // On a CPU Fast mode walks the rows as Deterministic mode does, where the entries are
    // sorted by row; without row offsets that walk would sort first, and the scatter is cheaper.
    if (options.mode == Mode::Fast && (fastModeScattersAtomically<ExecSpace>() || !hasRowOffsets(A.numRows, A.rowPtr))) {
      scaleByBeta(exec, y, beta);
      scatterCooRuns(exec, A, x, y, alpha, "araios::spmv::coo");
      return;
    }
    const auto rows = cooRowWalk(exec, A);
    const State walk = plan.ready() ? plan : planRowWalk<Device>(exec, rows);
    withRowAccumulator<Value>(exec, options.mode, y, beta, [&](auto tag, const auto& yv) {
      walkRowsInOrder<typename decltype(tag)::type, Ordinal>(exec, rows, x, yv, alpha, beta, "araios::spmv::coo_rows",
                                                             walk, work);
    });
    if (!rows.order.identity) exec.fence();  // the sorted order dies with this scope
  }
};

}  // namespace araios::Impl
