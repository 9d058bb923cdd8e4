#pragma once
// SELL-C-sigma SpMV: one thread per slice row (Kreutzer et al. 2014, section 3). The threads
// of a slice are consecutive, so at every step they read C consecutive slots: with C = 32 a
// warp's loads of values and columns are each one coalesced transaction. Each thread sums its
// row's entries in their CSR order, so the result does not depend on scheduling.
//
// Modes: that sum starts from -0.0 and rounds each product and sum (RoundedRowSum), the bits
// of csr-scalar on every backend; Fast runs it too. Accurate: the expansion, then the exact accumulator where it cannot decide (row_sum.hpp).
#include <araios/detail/row_sum.hpp>
#include <araios/detail/spmv_dispatch.hpp>
#include <araios/formats/sell/sell.hpp>

namespace araios::Impl {

template <class Sell, class XView, class YView, class Acc>
struct SellRowKernel {
  using Value = typename Sell::value_type;
  using Ordinal = typename Sell::ordinal_type;
  using Offset = typename Sell::size_type;
  Sell A;
  XView x;
  YView y;
  Value alpha, beta;

  KOKKOS_INLINE_FUNCTION void operator()(Ordinal p) const {
    const Ordinal s = p / A.sliceHeight;
    const Offset C = static_cast<Offset>(A.sliceHeight);
    const Offset first = A.slicePtr(s);
    const Offset width = (A.slicePtr(s + 1) - first) / C;
    Offset slot = first + static_cast<Offset>(p - s * A.sliceHeight);
    Acc acc;
    for (Offset t = 0; t < width; ++t, slot += C) {
      const Ordinal col = A.colIdx(slot);
      // A row's padding follows all its entries: the first padding slot ends the row. Stopping
      // (rather than multiplying the padding's 0 by x) keeps a NaN or Inf in x out of rows that
      // do not reference it, and saves the rest of the row's loads.
      if (col == Sell::paddingColumn) break;
      acc.add(A.values(slot), x(col));
    }
    acc.store(y, A.perm(p), alpha, beta);
  }
};

template <class ExecSpace, class Value, class Ordinal, class Offset, class Device>
struct Spmv<ExecSpace, SellMatrix<Value, Ordinal, Offset, Device>> {
  using Sell = SellMatrix<Value, Ordinal, Offset, Device>;

  template <class XView, class YView>
  static void apply(const ExecSpace& exec, const Sell& A, const XView& x, const YView& y, Value alpha, Value beta,
                    const SpmvOptions& options,
                    const Kokkos::View<Value*, Device>& /*work*/) {
    if (options.algorithm != SpmvAlgorithm::Auto) refuseAlgorithm(options.algorithm, "SELL");
    // The empty rows that complete the last slice own no y entry: only real rows get a thread.
    withRowAccumulator<Value>(exec, options.mode, y, beta, [&](auto tag, const auto& yv) {
      using Acc = typename decltype(tag)::type;
      Kokkos::parallel_for("araios::spmv::sell",
                           Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<Ordinal>>(exec, 0, A.numRows),
                           SellRowKernel<Sell, XView, std::decay_t<decltype(yv)>, Acc>{A, x, yv, alpha, beta});
    });
  }
};

}  // namespace araios::Impl
