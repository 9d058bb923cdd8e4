#pragma once
// CSC SpMV, by mode:
//   Fast           one thread per column scatters alpha*a_ij*x_j into y atomically, after
//                  y = beta*y: the order of the additions into a row depends on scheduling.
//   Deterministic  no atomics: the entries are grouped by row on the call (a bucket sort, ties
//                  by storage position, which is increasing column order), and one thread per
//                  row sums its entries in that order from -0.0, each product and sum rounded
//                  (RoundedRowSum): the order, and so the bits, of csr-scalar on the same
//                  (column-sorted) matrix.
//   Accurate       the same walk with the Accurate accumulators (row_sum.hpp): correctly rounded.
// The deterministic and accurate modes allocate and sort on every call: CSC is a column
// format, and a row-wise product on it costs a transpose.
#include <araios/detail/compress.hpp>
#include <araios/detail/row_sum.hpp>
#include <araios/detail/spmv_dispatch.hpp>
#include <araios/formats/coo/coo_row_order.hpp>
#include <araios/formats/csc/csc.hpp>

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

template <class ExecSpace, class Value, class Ordinal, class Offset, class Device>
struct Spmv<ExecSpace, CscMatrix<Value, Ordinal, Offset, Device>> {
  using Csc = CscMatrix<Value, Ordinal, Offset, Device>;
  template <class XView, class YView>
  static void apply(const ExecSpace& exec, const Csc& A, const XView& x, const YView& y, Value alpha, Value beta,
                    const SpmvOptions& options,
                    const Kokkos::View<Value*, Device>& /*work*/) {
    if (options.algorithm != SpmvAlgorithm::Auto) refuseAlgorithm(options.algorithm, "CSC");
    if (options.mode == Mode::Fast) {
      scaleByBeta(exec, y, beta);
      Kokkos::parallel_for("araios::spmv::csc",
                           Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<Ordinal>>(exec, 0, A.numCols),
                           CscAtomicKernel<Csc, XView, YView>{A, x, y, alpha});
      return;
    }
    const auto colOfEntry = expand<Ordinal>(exec, A.colPtr, A.nnz(), "araios::spmv::csc::colOfEntry");
    const auto order =
        rowOrder<Offset>(exec, A.numRows, A.rowIdx, Kokkos::View<Offset*, Device>(), "araios::spmv::csc::rowOrder");
    withRowAccumulator<Value>(exec, options.mode, y, beta, [&](auto tag, const auto& yv) {
      using Acc = typename decltype(tag)::type;
      Kokkos::parallel_for(
          "araios::spmv::csc_rows", Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<Ordinal>>(exec, 0, A.numRows),
          CscRowKernel<Csc, decltype(order), decltype(colOfEntry), XView, std::decay_t<decltype(yv)>, Acc>{A, order, colOfEntry, x, yv,
                                                                                       alpha, beta});
    });
    exec.fence();  // the row order dies with this scope
  }
};

}  // namespace araios::Impl
