#pragma once
// The CSR row kernel: one thread per row, summing the row's entries in CSR order with a row
// accumulator (detail/row_sum.hpp). csr-scalar in every mode, and the Accurate mode of every
// CSR algorithm on matrices of short rows (csr_accurate.hpp).
#include <araios/detail/row_sum.hpp>
#include <araios/formats/csr/csr.hpp>
#include <araios/mode.hpp>

#include <Kokkos_Core.hpp>

namespace araios::Impl {

template <class Csr, class XView, class YView, class Acc>
struct CsrScalarKernel {
  using Value = typename Csr::value_type;
  Csr A;
  XView x;
  YView y;
  Value alpha, beta;
  KOKKOS_INLINE_FUNCTION void operator()(typename Csr::ordinal_type i) const {
    Acc acc;
    for (auto k = A.rowPtr(i); k < A.rowPtr(i + 1); ++k) acc.add(A.values(k), x(A.colIdx(k)));
    acc.store(y, i, alpha, beta);
  }
};

/// One launch of the CSR row kernel with the row accumulator Acc.
template <class Acc, class ExecSpace, class Csr, class XView, class YView>
void csrScalarPass(const ExecSpace& exec, const Csr& A, const XView& x, const YView& y, typename Csr::value_type alpha,
                   typename Csr::value_type beta, const char* label) {
  Kokkos::parallel_for(label,
                       Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<typename Csr::ordinal_type>>(exec, 0, A.numRows),
                       CsrScalarKernel<Csr, XView, YView, Acc>{A, x, y, alpha, beta});
}

/// The CSR row kernel in the row accumulator of `mode`.
template <class ExecSpace, class Csr, class XView, class YView>
void csrRowSpmv(const ExecSpace& exec, const Csr& A, const XView& x, const YView& y, typename Csr::value_type alpha,
                typename Csr::value_type beta, Mode mode, const char* label) {
  using Value = typename Csr::value_type;
  withRowAccumulator<Value>(exec, mode, y, beta, [&](auto tag, const auto& yv) {
    csrScalarPass<typename decltype(tag)::type>(exec, A, x, yv, alpha, beta, label);
  });
}

}  // namespace araios::Impl
