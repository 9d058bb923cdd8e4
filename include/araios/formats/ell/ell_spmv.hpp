#pragma once
// ELL SpMV: one thread per row (Bell & Garland, SC '09, section "ELL format"). Thread r reads
// slot t of its row at t*numRows + r, next to slot t of rows r-1 and r+1, so a warp's loads of
// values and column indices coalesce. A row stops at its first padding slot: x is never read
// for padding, and a warp runs only as many steps as its longest row.
//
// Modes: the row's slots are summed in order from -0.0, each product and sum rounded
// (RoundedRowSum): deterministic, in CSR order, so Fast runs it too. Accurate: the Accurate
// accumulators (row_sum.hpp).
#include <araios/detail/row_sum.hpp>
#include <araios/detail/spmv_dispatch.hpp>
#include <araios/formats/ell/ell.hpp>

namespace araios::Impl {

/// Adds row r's ELL slots to an accumulator, up to its first padding slot: the whole row of
/// ELL, the head of a HYB row.
template <class Ell, class Acc, class XView>
KOKKOS_INLINE_FUNCTION void addEllSlots(const Ell& A, Acc& acc, typename Ell::ordinal_type r, const XView& x) {
  using Ordinal = typename Ell::ordinal_type;
  for (Ordinal t = 0; t < A.width; ++t) {
    const auto s = A.slot(r, t);
    const Ordinal c = A.colIdx(s);
    if (c == Ell::paddingColumn) break;  // the rest of the row is padding
    acc.add(A.values(s), x(c));
  }
}

template <class Ell, class XView, class YView, class Acc>
struct EllRowKernel {
  using Value = typename Ell::value_type;
  using Ordinal = typename Ell::ordinal_type;
  Ell A;
  XView x;
  YView y;
  Value alpha, beta;
  KOKKOS_INLINE_FUNCTION void operator()(Ordinal r) const {
    Acc acc;
    addEllSlots(A, acc, r, x);
    acc.store(y, r, alpha, beta);
  }
};

/// Launches the one-thread-per-row kernel in the accumulator of `mode`.
template <class ExecSpace, class Ell, class XView, class YView>
void ellRowSpmv(const ExecSpace& exec, const Ell& A, const XView& x, const YView& y, typename Ell::value_type alpha,
                typename Ell::value_type beta, Mode mode, const char* label) {
  withRowAccumulator<typename Ell::value_type>(exec, mode, y, beta, [&](auto tag, const auto& yv) {
    using Acc = typename decltype(tag)::type;
    Kokkos::parallel_for(label,
                         Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<typename Ell::ordinal_type>>(exec, 0, A.numRows),
                         EllRowKernel<Ell, XView, std::decay_t<decltype(yv)>, Acc>{A, x, yv, alpha, beta});
  });
}

template <class ExecSpace, class Value, class Ordinal, class Offset, class Device>
struct Spmv<ExecSpace, EllMatrix<Value, Ordinal, Offset, Device>> {
  using Ell = EllMatrix<Value, Ordinal, Offset, Device>;
  template <class XView, class YView>
  static void apply(const ExecSpace& exec, const Ell& A, const XView& x, const YView& y, Value alpha, Value beta,
                    const SpmvOptions& options,
                    const Kokkos::View<Value*, Device>& /*work*/) {
    if (options.algorithm != SpmvAlgorithm::Auto) refuseAlgorithm(options.algorithm, "ELL");
    ellRowSpmv(exec, A, x, y, alpha, beta, options.mode, "araios::spmv::ell");
  }
};

}  // namespace araios::Impl
