#pragma once
// BRC SpMV (Ashari et al., ICS 2014), by mode:
//   Fast           the paper's: y = beta*y, then one thread per slot row adds alpha times its
//                  piece's sum into y[rowPerm] atomically. Consecutive slot rows are the lanes
//                  of one block, so on a GPU a warp runs one block and its 32 lanes read 32
//                  consecutive slots at each step. Non-deterministic (see brc.hpp).
//   Deterministic  no atomics (a sorted segmented reduction): the same slot row threads write
//                  their piece sums to the workspace; then one thread per row adds its pieces' sums
//                  in slot row order (rowPiecePtr/rowPiece, planned on the host) from -0.0 and
//                  stores the row. Each piece is summed in entry order from -0.0; every product
//                  and sum is rounded on its own.
//   Accurate       one thread per row walks its pieces' entries with the Accurate accumulators.
//                  An operator runs the CSR Accurate product on the CSR matrix it was built
//                  from instead (csr_accurate.hpp): the same bits, and a long row is no
//                  longer one thread's walk.
#include <araios/detail/row_sum.hpp>
#include <araios/detail/spmv_dispatch.hpp>
#include <araios/formats/brc/brc.hpp>

#include <Kokkos_Core.hpp>

namespace araios::Impl {

/// Adds the entries of slot row p (one piece of a row) to `acc`, in order, stopping at the
/// first padding slot (x is never read for padding).
template <class Brc, class XView, class Acc>
KOKKOS_INLINE_FUNCTION void brcAddPiece(const Brc& A, const XView& x, typename Brc::size_type p, Acc& acc) {
  using Offset = typename Brc::size_type;
  using Ordinal = typename Brc::ordinal_type;
  constexpr int H = Brc::blockRows;
  const Offset b = p / H;
  const Offset begin = A.blockBegin(b) + (p - b * H);
  const Offset width = A.nzPerBlock(b) / H;
  for (Offset j = 0; j < width; ++j) {
    const Ordinal c = A.col(begin + j * H);
    if (c == Brc::paddingColumn) break;  // padding follows the real entries
    acc.add(A.value(begin + j * H), x(c));
  }
}

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
    RoundedRowSum<Value> piece;
    brcAddPiece(A, x, p, piece);
    Kokkos::atomic_add(&y(row), alpha * piece.value());
  }
};

/// Deterministic, first pass: each slot row's piece sum, no atomics.
template <class Brc, class XView>
struct BrcPieceSums {
  using Offset = typename Brc::size_type;
  Brc A;
  XView x;
  Kokkos::View<typename Brc::value_type*, typename Brc::device_type> pieceSum;  ///< one per slot row
  KOKKOS_INLINE_FUNCTION void operator()(Offset p) const {
    if (A.rowPerm(p) == Brc::paddingRow) return;
    RoundedRowSum<typename Brc::value_type> piece;
    brcAddPiece(A, x, p, piece);
    pieceSum(p) = piece.value();
  }
};

/// Deterministic, second pass: row i adds its pieces' sums in slot row order.
template <class Brc, class YView>
struct BrcRowSums {
  using Value = typename Brc::value_type;
  Brc A;
  YView y;
  Value alpha, beta;
  Kokkos::View<Value*, typename Brc::device_type> pieceSum;
  KOKKOS_INLINE_FUNCTION void operator()(typename Brc::ordinal_type i) const {
    Value sum = sumIdentity<Value>();
    for (auto q = A.rowPiecePtr(i); q < A.rowPiecePtr(i + 1); ++q) sum = unfusedSum(sum, pieceSum(A.rowPiece(q)));
    storeRow(y, i, sum, alpha, beta);
  }
};

/// Accurate: row i's pieces' entries into one accumulator of the Accurate mode.
template <class Brc, class XView, class YView, class Acc>
struct BrcAccurateRows {
  using Value = typename Brc::value_type;
  Brc A;
  XView x;
  YView y;
  Value alpha, beta;
  KOKKOS_INLINE_FUNCTION void operator()(typename Brc::ordinal_type i) const {
    Acc acc;
    for (auto q = A.rowPiecePtr(i); q < A.rowPiecePtr(i + 1); ++q) brcAddPiece(A, x, A.rowPiece(q), acc);
    acc.store(y, i, alpha, beta);
  }
};

template <class ExecSpace, class Value, class Ordinal, class Offset, class Device>
struct Spmv<ExecSpace, BrcMatrix<Value, Ordinal, Offset, Device>> {
  using Brc = BrcMatrix<Value, Ordinal, Offset, Device>;

  /// Deterministic mode's piece sums, one per slot row.
  static std::int64_t workspaceValues(const Brc& A) { return static_cast<std::int64_t>(A.rowPerm.extent(0)); }

  template <class XView, class YView>
  static void apply(const ExecSpace& exec, const Brc& A, const XView& x, const YView& y, Value alpha, Value beta,
                    const SpmvOptions& options,
                    const Kokkos::View<Value*, Device>& work) {
    if (options.algorithm != SpmvAlgorithm::Auto) refuseAlgorithm(options.algorithm, "BRC");
    using SlotRows = Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<Offset>>;
    using Rows = Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<Ordinal>>;
    const Offset numSlotRows = static_cast<Offset>(A.rowPerm.extent(0));
    if (options.mode == Mode::Fast && fastModeScattersAtomically<ExecSpace>()) {
      scaleByBeta(exec, y, beta);
      Kokkos::parallel_for("araios::spmv::brc", SlotRows(exec, 0, numSlotRows),
                           BrcSlotRowKernel<Brc, XView, YView>{A, x, y, alpha});
    } else if (options.mode != Mode::Accurate) {
      checkWorkspace(work, workspaceValues(A), "BRC");
      Kokkos::parallel_for("araios::spmv::brc::pieces", SlotRows(exec, 0, numSlotRows),
                           BrcPieceSums<Brc, XView>{A, x, work});
      Kokkos::parallel_for("araios::spmv::brc::rows", Rows(exec, 0, A.numRows),
                           BrcRowSums<Brc, YView>{A, y, alpha, beta, work});
    } else {
      withRowAccumulator<Value>(exec, Mode::Accurate, y, beta, [&](auto tag, const auto& yv) {
        using Acc = typename decltype(tag)::type;
        Kokkos::parallel_for("araios::spmv::brc::accurate_rows", Rows(exec, 0, A.numRows),
                             BrcAccurateRows<Brc, XView, std::decay_t<decltype(yv)>, Acc>{A, x, yv, alpha, beta});
      });
    }
  }
};

}  // namespace araios::Impl
