#pragma once
// CSC SpMV: one thread per column scatters alpha*a_ij*x_j into y atomically.
#include <araios/detail/spmv_dispatch.hpp>
#include <formats/csc/csc.hpp>

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

template <class ExecSpace, class Value, class Ordinal, class Offset, class Device>
struct Spmv<ExecSpace, CscMatrix<Value, Ordinal, Offset, Device>> {
  using Csc = CscMatrix<Value, Ordinal, Offset, Device>;
  template <class XView, class YView>
  static void apply(const ExecSpace& exec, const Csc& A, const XView& x, const YView& y, Value alpha, Value beta,
                    const SpmvOptions& options) {
    if (options.algorithm != SpmvAlgorithm::Auto) refuseAlgorithm(options.algorithm, "CSC");
    scaleByBeta(exec, y, beta);
    Kokkos::parallel_for("araios::spmv::csc",
                         Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<Ordinal>>(exec, 0, A.numCols),
                         CscAtomicKernel<Csc, XView, YView>{A, x, y, alpha});
  }
};

}  // namespace araios::Impl
