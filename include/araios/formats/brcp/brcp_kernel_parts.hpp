#pragma once
// The arithmetic that BRCP's portable kernel (brcp_spmv.hpp) and its CUDA warp-shuffle
// specialisation (backends/cuda/brcp_spmv_cuda.hpp) share. Both evaluate the same operations
// in the same order, so they give the same bits; so do the Serial and OpenMP backends, which
// run the portable kernel. The order, for block b of width V (Algorithms 2 and 3 of Yang et
// al., 2019):
//   1. lane s sums its slot row: sum = -0.0, then sum += value*x over slots j = 0, 1, ..., V-1,
//      stopping at the first padding slot; every product and sum is rounded on its own
//      (accumulateProduct, detail/spmv_dispatch.hpp);
//   2. a segmented inclusive Hillis-Steele scan over the 32 lane sums, steps d = 1, 2, 4, 8,
//      16: lane s becomes scan[s-d] + scan[s] when lane s-d holds the same row (rowPerm) as
//      lane s, else stays scan[s];
//   3. the head lane of each segment (rowSegLen != 0) takes scan[head + len - 1], the sum of
//      its segment, and stores it (BrcpSegmentStore).
//
// Why a segmented scan and not the paper's scan difference. The paper scans the whole warp
// and takes a segment's sum as scan[head + len - 1] - scan[head] + in[head]. That subtraction
// cancels: a row whose sum is small, after rows whose sums are large, loses its digits to
// the rounding error of the large prefix, and an Inf or NaN in one row turns every later row
// of the block into NaN. Implemented as published, it broke the rounding-error bound that
// every Araios kernel meets (spmvErrorBound) on 10 of the 21 real test matrices, by up to a
// factor 2 (bcsstk13, ct2010, vt2010, ...); the test paper_scan_difference_cancels in
// tests/formats/test_brcp.cpp shows the cancellation on a hand-made block. The segmented scan
// resets at each segment head, so a segment's sum depends on its own lanes only and is a
// tree sum of them: it meets the bound, costs the same 5 shuffle steps, and the head lane
// still finds its segment's end from rowSegLen, as in the paper. Both are deterministic; the
// deviation is about accuracy only.
#include <araios/detail/spmv_dispatch.hpp>
#include <araios/formats/brcp/brcp.hpp>

#include <Kokkos_Core.hpp>

#include <type_traits>

namespace araios::Impl {

/// Step 1: the sum of lane `lane`'s slot row in the block that starts at `begin` and is
/// `width` slots wide.
template <class Brcp, class XView>
KOKKOS_INLINE_FUNCTION typename Brcp::value_type brcpLaneSum(const Brcp& A, const XView& x,
                                                            typename Brcp::size_type begin,
                                                            typename Brcp::size_type width, int lane) {
  using Offset = typename Brcp::size_type;
  using Ordinal = typename Brcp::ordinal_type;
  auto sum = sumIdentity<typename Brcp::value_type>();
  for (Offset j = 0; j < width; ++j) {
    const Offset k = begin + j * Brcp::blockRows + lane;
    const Ordinal c = A.col(k);
    if (c == Brcp::paddingColumn) break;  // padding follows the real entries: x is never read for it
    accumulateProduct(sum, A.value(k), x(c));
  }
  return sum;
}

/// Step 3: what the head lane of a segment does with the segment's sum. A segment that
/// continues a row from the previous block, or into the next, holds only part of its row:
/// the deterministic kernel leaves its sum in `partial` (the caller's workspace, 2 values per
/// block, SpmvWorkspace) for BrcpFinishRows (partial(2b) for
/// the segment that continues from block b-1, partial(2b+1) for one that only continues into
/// block b+1); the paper's variant (AtomicSplit) adds alpha*sum to y atomically, y having
/// been scaled by beta beforehand (BrcpPrepareRows). Every other segment is a whole row.
template <class Brcp, class YView, bool AtomicSplit>
struct BrcpSegmentStore {
  using y_view = YView;
  using Value = typename Brcp::value_type;
  using Offset = typename Brcp::size_type;
  using Ordinal = typename Brcp::ordinal_type;
  Brcp A;
  YView y;
  Value alpha, beta;
  Offset numBlocks;
  Kokkos::View<Value*, typename Brcp::device_type> partial;  ///< 2 * numBlocks when a row is split

  KOKKOS_INLINE_FUNCTION void operator()(Offset block, int head, Ordinal length, Value sum) const {
    constexpr int H = Brcp::blockRows;
    const Offset slotRow = block * H + head;
    const Ordinal row = A.rowPerm(slotRow);
    const bool fromPrevious = head == 0 && block > 0 && A.rowPerm(slotRow - 1) == row;
    const bool intoNext = head + length == H && block + 1 < numBlocks && A.rowPerm(slotRow + length) == row;
    if (!fromPrevious && !intoNext) {
      storeRow(y, row, sum, alpha, beta);
    } else if constexpr (AtomicSplit) {
      Kokkos::atomic_add(&y(row), alpha * sum);
    } else {
      partial(2 * block + (fromPrevious ? 0 : 1)) = sum;
    }
  }
};

/// The deterministic second pass, one thread per split row and then one per empty row: a
/// split row's partials are added in block order (first block's tail segment, then the
/// leading segment of each later block) and stored; an empty row stores a sum of -0.0 (the
/// sum of no terms, as in every deterministic kernel).
template <class Brcp, class YView>
struct BrcpFinishRows {
  using Value = typename Brcp::value_type;
  using Offset = typename Brcp::size_type;
  Brcp A;
  YView y;
  Value alpha, beta;
  Offset numSplit;
  Kokkos::View<Value*, typename Brcp::device_type> partial;
  KOKKOS_INLINE_FUNCTION void operator()(Offset i) const {
    if (i >= numSplit) {
      storeRow(y, A.emptyRow(i - numSplit), sumIdentity<Value>(), alpha, beta);
      return;
    }
    const Offset first = A.splitFirstBlock(i), last = A.splitLastBlock(i);
    Value sum = partial(2 * first + 1);
    for (Offset b = first + 1; b <= last; ++b) sum = unfusedSum(sum, partial(2 * b));
    storeRow(y, A.splitRow(i), sum, alpha, beta);
  }
};

/// The first pass of the paper's atomic variant: split rows get y = beta*y (0 when beta is 0,
/// as scaleByBeta), so that their segments can be added atomically; empty rows are stored.
template <class Brcp, class YView>
struct BrcpPrepareRows {
  using Value = typename Brcp::value_type;
  using Offset = typename Brcp::size_type;
  Brcp A;
  YView y;
  Value alpha, beta;
  Offset numSplit;
  KOKKOS_INLINE_FUNCTION void operator()(Offset i) const {
    if (i >= numSplit) {
      storeRow(y, A.emptyRow(i - numSplit), sumIdentity<Value>(), alpha, beta);
    } else {
      const auto row = A.splitRow(i);
      y(row) = beta == Value(0) ? Value(0) : beta * y(row);
    }
  }
};

/// The rows that are not in any block's whole segments: split rows and empty rows. The
/// deterministic variant finishes them after the block kernel, the atomic one prepares them
/// before it.
template <class ExecSpace, class Brcp, class YView>
void brcpOutsideRows(const ExecSpace& exec, const Brcp& A, const YView& y, typename Brcp::value_type alpha,
                     typename Brcp::value_type beta, bool atomicSplit,
                     const Kokkos::View<typename Brcp::value_type*, typename Brcp::device_type>& partial) {
  using Offset = typename Brcp::size_type;
  const Offset numSplit = static_cast<Offset>(A.splitRow.extent(0));
  const Offset n = numSplit + static_cast<Offset>(A.emptyRow.extent(0));
  if (n == 0) return;
  using Policy = Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<Offset>>;
  if (atomicSplit) {
    Kokkos::parallel_for("araios::spmv::brcp_prepare_rows", Policy(exec, 0, n),
                         BrcpPrepareRows<Brcp, YView>{A, y, alpha, beta, numSplit});
  } else {
    Kokkos::parallel_for("araios::spmv::brcp_finish_rows", Policy(exec, 0, n),
                         BrcpFinishRows<Brcp, YView>{A, y, alpha, beta, numSplit, partial});
  }
}

/// Resolves the algorithm: auto is the deterministic kernel, brcp-atomic the paper's. The
/// paper's atomics run only in Fast mode: in the other modes brcp-atomic completes its split
/// rows by the deterministic second pass, and gives the bits of auto.
inline bool brcpAtomicSplit(const SpmvOptions& options) {
  if (options.algorithm == SpmvAlgorithm::Auto) return false;
  if (options.algorithm == SpmvAlgorithm::BrcpAtomic) return options.mode == Mode::Fast;
  refuseAlgorithm(options.algorithm, "BRCP");
  return false;
}

/// Values of workspace the deterministic second pass needs: two partial sums per block, when
/// some row spans blocks.
template <class Brcp>
std::int64_t brcpWorkspaceValues(const Brcp& A) {
  return A.splitRow.extent(0) > 0 ? 2 * static_cast<std::int64_t>(A.numBlocks()) : 0;
}

/// The block pass (steps 1-3 over every block), the part of BRCP SpMV a backend may write by
/// hand: BackendKernel<BrcpBlockPass, ExecSpace> (detail/backend_kernel.hpp) with
///   template <bool AtomicSplit, class Brcp, class XView, class Store>
///   static void launch(const ExecSpace&, const Brcp&, const XView&, const Store&);
struct BrcpBlockPass {};

}  // namespace araios::Impl
