#pragma once
// COO SpMV: one thread per stored entry, adding into y atomically. The order of the additions
// depends on scheduling, so the low bits of y can differ from run to run.
#include <araios/detail/spmv_dispatch.hpp>
#include <formats/coo/coo.hpp>

namespace araios::Impl {

template <class Coo, class XView, class YView>
struct CooAtomicKernel {
  Coo A;
  XView x;
  YView y;
  typename Coo::value_type alpha;
  KOKKOS_INLINE_FUNCTION void operator()(typename Coo::size_type k) const {
    Kokkos::atomic_add(&y(A.rowIdx(k)), alpha * (A.values(k) * x(A.colIdx(k))));
  }
};

template <class ExecSpace, class Value, class Ordinal, class Offset, class Device>
struct Spmv<ExecSpace, CooMatrix<Value, Ordinal, Offset, Device>> {
  using Coo = CooMatrix<Value, Ordinal, Offset, Device>;
  template <class XView, class YView>
  static void apply(const ExecSpace& exec, const Coo& A, const XView& x, const YView& y, Value alpha, Value beta,
                    const SpmvOptions& options) {
    if (options.algorithm != SpmvAlgorithm::Auto) refuseAlgorithm(options.algorithm, "COO");
    scaleByBeta(exec, y, beta);
    Kokkos::parallel_for("araios::spmv::coo",
                         Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<Offset>>(exec, 0, A.nnz()),
                         CooAtomicKernel<Coo, XView, YView>{A, x, y, alpha});
  }
};

}  // namespace araios::Impl
