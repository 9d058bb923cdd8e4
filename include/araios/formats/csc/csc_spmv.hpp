#pragma once
// CSC SpMV, by mode:
//   Fast           one thread per column scatters alpha*a_ij*x_j into y atomically, after
//                  y = beta*y: the order of the additions into a row depends on scheduling.
//   Deterministic  no atomics: the entries are grouped by row (a bucket sort, ties by storage
//                  position, which is increasing column order), and one thread per row sums
//                  its entries in that order from -0.0, each product and sum rounded
//                  (RoundedRowSum): the order, and so the bits, of csr-scalar on the same
//                  (column-sorted) matrix.
//   Accurate       the same walk with the Accurate accumulators (row_sum.hpp): correctly rounded.
// The grouping by row (each entry's column and the row order) is a transpose of the index
// arrays, dearer than the product: an operator builds it once, as its state
// (detail/spmv_state.hpp), when its mode is not Fast; a bare matrix, or an operator built for
// Fast mode and applied in another, allocates and sorts it on every call.
#include <araios/detail/compress.hpp>
#include <araios/detail/device_memory.hpp>
#include <araios/detail/row_sum.hpp>
#include <araios/detail/spmv_dispatch.hpp>
#include <araios/formats/coo/coo_row_order.hpp>
#include <araios/formats/csc/csc.hpp>
#include <araios/formats/csr/csr.hpp>

#include <cstdint>
#include <string>

namespace araios::Impl {

template <class Csc, class XView, class YView>
struct CscAtomicKernel {
  Csc A;
  XView x;
  YView y;
  typename Csc::value_type alpha;
  KOKKOS_INLINE_FUNCTION void operator()(typename Csc::ordinal_type j) const {
    const typename Csc::value_type xj = x(j);
    for (auto k = A.colPtr(j); k < A.colPtr(j + 1); ++k) {
      Kokkos::atomic_add(&y(A.rowIdx(k)), alpha * (A.values(k) * xj));
    }
  }
};

template <class Csc, class Order, class ColView, class XView, class YView, class Acc>
struct CscRowKernel {
  using Value = typename Csc::value_type;
  Csc A;
  Order order;
  ColView colOfEntry;
  XView x;
  YView y;
  Value alpha, beta;
  KOKKOS_INLINE_FUNCTION void operator()(typename Csc::ordinal_type i) const {
    Acc acc;
    for (auto q = order.ptr(i); q < order.ptr(i + 1); ++q) {
      const auto k = order.entry(q);
      acc.add(A.values(k), x(colOfEntry(k)));
    }
    acc.store(y, i, alpha, beta);
  }
};

/// CSC's entries grouped by row: what the deterministic and accurate products walk.
template <class Ordinal, class Offset, class Device>
struct CscRows {
  Kokkos::View<Ordinal*, Device> colOfEntry;  ///< the column of each stored entry
  RowOrder<Offset, Device> order;              ///< the entries of each row, by increasing column

  /// Bytes of the grouping of nnz entries in `rows` rows: a column per entry, a permutation and
  /// the row offsets.
  static std::int64_t bytesFor(std::int64_t nnz, std::int64_t rows) {
    return nnz * static_cast<std::int64_t>(sizeof(Ordinal)) +
           (nnz + rows + 1) * static_cast<std::int64_t>(sizeof(Offset));
  }

  bool ready() const { return order.ptr.extent(0) != 0; }
  std::int64_t bytes() const {
    return ready() ? bytesFor(static_cast<std::int64_t>(colOfEntry.extent(0)),
                              static_cast<std::int64_t>(order.ptr.extent(0)) - 1)
                   : 0;
  }
};

template <class ExecSpace, class Value, class Ordinal, class Offset, class Device>
struct Spmv<ExecSpace, CscMatrix<Value, Ordinal, Offset, Device>> {
  using Csc = CscMatrix<Value, Ordinal, Offset, Device>;
  using State = CscRows<Ordinal, Offset, Device>;

  static State groupByRow(const ExecSpace& exec, const Csc& A, const std::string& label) {
    State rows;
    rows.colOfEntry = expand<Ordinal>(exec, A.colPtr, A.nnz(), label + "::colOfEntry");
    rows.order = rowOrder<Offset>(exec, A.numRows, A.rowIdx, Kokkos::View<Offset*, Device>(), label + "::rowOrder");
    return rows;
  }

  /// The grouping by row, for an operator whose mode reads it: not in Fast mode.
  static State prepare(const ExecSpace& exec, const Csc& A, const CsrMatrix<Value, Ordinal, Offset, Device>&,
                       Mode mode) {
    if (mode == Mode::Fast) return State();
    requireMemory(exec, State::bytesFor(static_cast<std::int64_t>(A.nnz()), static_cast<std::int64_t>(A.numRows)),
                  buildingWhat("CSC's row order", A.numRows, A.numCols));
    return groupByRow(exec, A, "araios::operator::csc");
  }

  template <class XView, class YView>
  static void apply(const ExecSpace& exec, const Csc& A, const XView& x, const YView& y, Value alpha, Value beta,
                    const SpmvOptions& options, const Kokkos::View<Value*, Device>& /*work*/, const State& state) {
    if (options.algorithm != SpmvAlgorithm::Auto) refuseAlgorithm(options.algorithm, "CSC");
    if (options.mode == Mode::Fast) {
      scaleByBeta(exec, y, beta);
      Kokkos::parallel_for("araios::spmv::csc",
                           Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<Ordinal>>(exec, 0, A.numCols),
                           CscAtomicKernel<Csc, XView, YView>{A, x, y, alpha});
      return;
    }
    const State rows = state.ready() ? state : groupByRow(exec, A, "araios::spmv::csc");
    withRowAccumulator<Value>(exec, options.mode, y, beta, [&](auto tag, const auto& yv) {
      using Acc = typename decltype(tag)::type;
      using Kernel = CscRowKernel<Csc, decltype(rows.order), decltype(rows.colOfEntry), XView,
                                  std::decay_t<decltype(yv)>, Acc>;
      Kokkos::parallel_for("araios::spmv::csc_rows",
                           Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<Ordinal>>(exec, 0, A.numRows),
                           Kernel{A, rows.order, rows.colOfEntry, x, yv, alpha, beta});
    });
    if (!state.ready()) exec.fence();  // the row order made for this call dies with this scope
  }
};

}  // namespace araios::Impl
