#pragma once
// BRC SpMV (Ashari et al., ICS 2014): y = beta*y, then one thread per slot row adds alpha times
// its piece's sum into y[rowPerm] atomically. Consecutive slot rows are the lanes of one block,
// so on a GPU a warp runs one block and its 32 lanes read 32 consecutive slots at each step.
// Non-deterministic by design (see brc.hpp); BRCP is the deterministic version.
#include <araios/detail/spmv_dispatch.hpp>
#include <formats/brc/brc.hpp>

#include <Kokkos_Core.hpp>

namespace araios::Impl {

template <class Brc, class XView, class YView>
struct BrcSlotRowKernel {
  using Value = typename Brc::value_type;
  using Offset = typename Brc::size_type;
  using Ordinal = typename Brc::ordinal_type;
  Brc A;
  XView x;
  YView y;
  Value alpha;

  KOKKOS_INLINE_FUNCTION void operator()(Offset p) const {
    const Ordinal row = A.rowPerm(p);
    if (row == Brc::paddingRow) return;
    constexpr int H = Brc::blockRows;
    const Offset b = p / H;
    const Offset begin = A.blockBegin(b) + (p - b * H);
    const Offset width = A.nzPerBlock(b) / H;
    Value sum = 0;
    for (Offset j = 0; j < width; ++j) {
      const Ordinal c = A.col(begin + j * H);
      if (c == Brc::paddingColumn) break;  // padding follows the real entries: x is never read for it
      sum += A.value(begin + j * H) * x(c);
    }
    Kokkos::atomic_add(&y(row), alpha * sum);
  }
};

template <class ExecSpace, class Value, class Ordinal, class Offset, class Device>
struct Spmv<ExecSpace, BrcMatrix<Value, Ordinal, Offset, Device>> {
  using Brc = BrcMatrix<Value, Ordinal, Offset, Device>;
  template <class XView, class YView>
  static void apply(const ExecSpace& exec, const Brc& A, const XView& x, const YView& y, Value alpha, Value beta,
                    const SpmvOptions& options) {
    if (options.algorithm != SpmvAlgorithm::Auto) refuseAlgorithm(options.algorithm, "BRC");
    scaleByBeta(exec, y, beta);
    Kokkos::parallel_for("araios::spmv::brc",
                         Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<Offset>>(
                             exec, 0, static_cast<Offset>(A.rowPerm.extent(0))),
                         BrcSlotRowKernel<Brc, XView, YView>{A, x, y, alpha});
  }
};

}  // namespace araios::Impl
