#pragma once
// JDS SpMV: one thread per sorted row walks the jagged diagonals (Kirk & Hwu, PMPP section
// 14.6). Thread k reads slot jdPtr[t] + k of diagonal t, so a warp's loads of one diagonal are
// contiguous. It sums its row's entries in their CSR order, the order of the CSR scalar
// kernel, so the result does not depend on scheduling.
//
// Modes: that sum starts from -0.0 and rounds each product and sum (RoundedRowSum), the bits
// of csr-scalar on every backend; Fast runs it too. Accurate: the expansion, then the exact accumulator where it cannot decide (row_sum.hpp).
#include <araios/detail/row_sum.hpp>
#include <araios/detail/spmv_dispatch.hpp>
#include <araios/formats/jds/jds.hpp>

namespace araios::Impl {

template <class Jds, class XView, class YView, class Acc>
struct JdsRowKernel {
  using Value = typename Jds::value_type;
  using Ordinal = typename Jds::ordinal_type;
  using Offset = typename Jds::size_type;
  Jds A;
  XView x;
  YView y;
  Value alpha, beta;
  Offset numDiagonals;

  KOKKOS_INLINE_FUNCTION void operator()(Ordinal k) const {
    const Offset position = static_cast<Offset>(k);
    Acc acc;
    // Diagonal t reaches sorted row k while it holds more than k entries; the diagonals only
    // shrink, so the first one that does not reach row k ends the row.
    for (Offset t = 0; t < numDiagonals; ++t) {
      const Offset begin = A.jdPtr(t);
      if (position >= A.jdPtr(t + 1) - begin) break;
      acc.add(A.values(begin + position), x(A.colIdx(begin + position)));
    }
    acc.store(y, A.perm(k), alpha, beta);
  }
};

template <class ExecSpace, class Value, class Ordinal, class Offset, class Device>
struct Spmv<ExecSpace, JdsMatrix<Value, Ordinal, Offset, Device>> {
  using Jds = JdsMatrix<Value, Ordinal, Offset, Device>;

  template <class XView, class YView>
  static void apply(const ExecSpace& exec, const Jds& A, const XView& x, const YView& y, Value alpha, Value beta,
                    const SpmvOptions& options,
                    const Kokkos::View<Value*, Device>& /*work*/) {
    if (options.algorithm != SpmvAlgorithm::Auto) refuseAlgorithm(options.algorithm, "JDS");
    withRowAccumulator<Value>(exec, options.mode, y, beta, [&](auto tag, const auto& yv) {
      using Acc = typename decltype(tag)::type;
      Kokkos::parallel_for("araios::spmv::jds",
                           Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<Ordinal>>(exec, 0, A.numRows),
                           JdsRowKernel<Jds, XView, std::decay_t<decltype(yv)>, Acc>{A, x, yv, alpha, beta,
                                                                static_cast<Offset>(A.numDiagonals())});
    });
  }
};

}  // namespace araios::Impl
