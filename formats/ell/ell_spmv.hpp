#pragma once
// ELL SpMV: one thread per row (Bell & Garland, SC '09, section "ELL format"). Thread r reads
// slot t of its row at t*numRows + r, next to slot t of rows r-1 and r+1, so a warp's loads of
// values and column indices coalesce. A row stops at its first padding slot: x is never read
// for padding, and a warp runs only as many steps as its longest row.
#include <araios/detail/spmv_dispatch.hpp>
#include <formats/ell/ell.hpp>

namespace araios::Impl {

template <class Ell, class XView, class YView>
struct EllRowKernel {
  using Value = typename Ell::value_type;
  using Ordinal = typename Ell::ordinal_type;
  Ell A;
  XView x;
  YView y;
  Value alpha, beta;
  KOKKOS_INLINE_FUNCTION void operator()(Ordinal r) const {
    Value sum = 0;
    for (Ordinal t = 0; t < A.width; ++t) {
      const auto s = A.slot(r, t);
      const Ordinal c = A.colIdx(s);
      if (c == Ell::paddingColumn) break;  // the rest of the row is padding
      sum += A.values(s) * x(c);
    }
    storeRow(y, r, sum, alpha, beta);
  }
};

/// Launches the one-thread-per-row kernel; HYB runs it on its ELL part.
template <class ExecSpace, class Ell, class XView, class YView>
void ellRowSpmv(const ExecSpace& exec, const Ell& A, const XView& x, const YView& y, typename Ell::value_type alpha,
                typename Ell::value_type beta, const char* label) {
  Kokkos::parallel_for(label, Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<typename Ell::ordinal_type>>(exec, 0, A.numRows),
                       EllRowKernel<Ell, XView, YView>{A, x, y, alpha, beta});
}

template <class ExecSpace, class Value, class Ordinal, class Offset, class Device>
struct Spmv<ExecSpace, EllMatrix<Value, Ordinal, Offset, Device>> {
  using Ell = EllMatrix<Value, Ordinal, Offset, Device>;
  template <class XView, class YView>
  static void apply(const ExecSpace& exec, const Ell& A, const XView& x, const YView& y, Value alpha, Value beta,
                    const SpmvOptions& options) {
    if (options.algorithm != SpmvAlgorithm::Auto) refuseAlgorithm(options.algorithm, "ELL");
    ellRowSpmv(exec, A, x, y, alpha, beta, "araios::spmv::ell");
  }
};

}  // namespace araios::Impl
