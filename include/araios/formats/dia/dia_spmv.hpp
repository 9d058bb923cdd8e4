#pragma once
// DIA SpMV: one thread per row (Bell & Garland, SC '09, section "Diagonal format"). Thread r
// reads its slot of diagonal d at d*numRows + r and x at r + offsets(d): neighbouring threads
// read neighbouring addresses of both, and no column index is loaded at all. Slots whose bit
// in `present` is clear (padding) are skipped, so x is read only where A has an entry.
//
// Modes: a row's entries are summed in diagonal order (increasing column: the CSR order of a
// column-sorted matrix) from -0.0, each product and sum rounded (RoundedRowSum):
// deterministic, so Fast runs it too. Accurate: the Accurate accumulators (row_sum.hpp).
#include <araios/detail/row_sum.hpp>
#include <araios/detail/spmv_dispatch.hpp>
#include <araios/formats/dia/dia.hpp>

namespace araios::Impl {

template <class Dia, class XView, class YView, class Acc>
struct DiaRowKernel {
  using Value = typename Dia::value_type;
  using Ordinal = typename Dia::ordinal_type;
  Dia A;
  XView x;
  YView y;
  Value alpha, beta;
  KOKKOS_INLINE_FUNCTION void operator()(Ordinal r) const {
    Acc acc;
    for (Ordinal d = 0; d < A.numDiags; ++d) {
      const auto s = A.slot(r, d);
      if (A.isPresent(s)) acc.add(A.data(s), x(r + A.offsets(d)));
    }
    acc.store(y, r, alpha, beta);
  }
};

template <class ExecSpace, class Value, class Ordinal, class Offset, class Device>
struct Spmv<ExecSpace, DiaMatrix<Value, Ordinal, Offset, Device>> {
  using Dia = DiaMatrix<Value, Ordinal, Offset, Device>;
  template <class XView, class YView>
  static void apply(const ExecSpace& exec, const Dia& A, const XView& x, const YView& y, Value alpha, Value beta,
                    const SpmvOptions& options,
                    const Kokkos::View<Value*, Device>& /*work*/) {
    if (options.algorithm != SpmvAlgorithm::Auto) refuseAlgorithm(options.algorithm, "DIA");
    withRowAccumulator<Value>(exec, options.mode, y, beta, [&](auto tag, const auto& yv) {
      using Acc = typename decltype(tag)::type;
      Kokkos::parallel_for("araios::spmv::dia",
                           Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<Ordinal>>(exec, 0, A.numRows),
                           DiaRowKernel<Dia, XView, std::decay_t<decltype(yv)>, Acc>{A, x, yv, alpha, beta});
    });
  }
};

}  // namespace araios::Impl
