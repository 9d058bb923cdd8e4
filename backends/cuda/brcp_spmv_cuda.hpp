#pragma once
// BRCP SpMV on NVIDIA GPUs: Algorithms 2 and 3 of Yang et al. (2019) as a hand-written CUDA
// kernel, one warp per block and one lane per slot row, with the warp's scan in registers
// (__shfl_up_sync) instead of the portable kernel's trip through shared memory.
//
// It computes the same bits as the portable kernel (formats/brcp/brcp_spmv.hpp): it shares
// its lane sums and segment stores (formats/brcp/brcp_kernel_parts.hpp) and runs the same
// segmented Hillis-Steele steps, d = 1, 2, 4, 8, 16, lane s adding lane s-d's value in front
// of its own when both hold the same row. Here "same row" is read from a ballot of the lanes
// that start a run of equal rowPerm (lane s-d is in lane s's run exactly when it is at or
// after the run's start), which costs one ballot instead of a rowPerm load per step.
// SpmvOptions::portableOnly runs the portable kernel instead; the tests compare the two bit
// for bit.
#include <araios/detail/spmv_dispatch.hpp>
#include <backends/cuda/check_cuda.hpp>
#include <araios/error.hpp>
#include <araios/types.hpp>
#include <formats/brcp/brcp.hpp>
#include <formats/brcp/brcp_kernel_parts.hpp>
#include <formats/brcp/brcp_spmv.hpp>

#ifdef KOKKOS_ENABLE_CUDA

#include <Kokkos_Core.hpp>

#include <cstdint>

namespace araios::Impl {

/// Every lane of a warp takes part in each shuffle and ballot.
constexpr unsigned kBrcpFullWarp = 0xffffffffu;

/// Warps (BRCP blocks) per CUDA thread block: 128 threads, so the 32 resident thread blocks an
/// SM allows can fill all its 64 warp slots, while a small thread block keeps the tail of the
/// grid short.
constexpr int kBrcpWarpsPerCudaBlock = 4;

template <class Brcp, class XView, class YView, bool AtomicSplit>
struct BrcpWarpArguments {
  Brcp A;
  XView x;
  BrcpSegmentStore<Brcp, YView, AtomicSplit> store;
};

template <class Brcp, class XView, class YView, bool AtomicSplit>
__global__ void __launch_bounds__(kBrcpWarpsPerCudaBlock* Brcp::blockRows)
    brcpWarpKernel(const BrcpWarpArguments<Brcp, XView, YView, AtomicSplit> args) {
  using Value = typename Brcp::value_type;
  using Offset = typename Brcp::size_type;
  using Ordinal = typename Brcp::ordinal_type;
  constexpr int H = Brcp::blockRows;
  static_assert(H == 32, "one lane per slot row: a block is one warp");
  const int lane = static_cast<int>(threadIdx.x) % H;
  const Offset block = static_cast<Offset>(blockIdx.x) * kBrcpWarpsPerCudaBlock + static_cast<Offset>(threadIdx.x) / H;
  if (block >= args.store.numBlocks) return;  // the whole warp leaves: `block` is the same on all its lanes
  const Brcp& A = args.A;
  const Offset begin = A.blockPtr(block);
  const Offset width = (A.blockPtr(block + 1) - begin) / H;
  const Offset slotRow = block * H + lane;
  const Ordinal row = A.rowPerm(slotRow);
  const Ordinal length = A.rowSegLen(slotRow);

  Value scan = brcpLaneSum(A, args.x, begin, width, lane);
  const Ordinal rowBefore = __shfl_up_sync(kBrcpFullWarp, row, 1);
  const unsigned runStarts = __ballot_sync(kBrcpFullWarp, lane == 0 || rowBefore != row);
  const int runStart = 31 - __clz(runStarts & (kBrcpFullWarp >> (31 - lane)));  // last run start <= lane
  for (int d = 1; d < H; d *= 2) {
    const Value before = __shfl_up_sync(kBrcpFullWarp, scan, d);
    if (lane - d >= runStart) scan = unfusedSum(before, scan);
  }
  const Value segmentSum = __shfl_sync(kBrcpFullWarp, scan, length != 0 ? lane + static_cast<int>(length) - 1 : lane);
  if (length != 0) args.store(block, lane, length, segmentSum);
}

template <class Value, class Ordinal, class Offset, class Device>
struct Spmv<Kokkos::Cuda, BrcpMatrix<Value, Ordinal, Offset, Device>> {
  using Brcp = BrcpMatrix<Value, Ordinal, Offset, Device>;

  template <class XView, class YView>
  static void apply(const Kokkos::Cuda& exec, const Brcp& A, const XView& x, const YView& y, Value alpha, Value beta,
                    const SpmvOptions& options) {
    const bool atomicSplit = brcpAtomicSplit(options);
    if (options.mode == Mode::Accurate) {
      csrAccurateSpmv(exec, csrFromBrcp(exec, A), x, y, alpha, beta);
      return;
    }
    if (options.portableOnly) {
      BrcpPortableSpmv<Kokkos::Cuda>::apply(exec, A, x, y, alpha, beta, atomicSplit);
      return;
    }
    if (atomicSplit) {
      brcpOutsideRows(exec, A, y, alpha, beta, true);
      launch<true>(exec, A, x, y, alpha, beta);
    } else {
      launch<false>(exec, A, x, y, alpha, beta);
      brcpOutsideRows(exec, A, y, alpha, beta, false);
    }
  }

 private:
  template <bool AtomicSplit, class XView, class YView>
  static void launch(const Kokkos::Cuda& exec, const Brcp& A, const XView& x, const YView& y, Value alpha,
                     Value beta) {
    const std::int64_t numBlocks = A.numBlocks();
    if (numBlocks == 0) return;
    const int grid =
        checkedNarrow<int>((numBlocks + kBrcpWarpsPerCudaBlock - 1) / kBrcpWarpsPerCudaBlock, "BRCP CUDA grid size");
    const BrcpWarpArguments<Brcp, XView, YView, AtomicSplit> args{A, x, {A, y, alpha, beta, A.numBlocks()}};
    brcpWarpKernel<Brcp, XView, YView, AtomicSplit>
        <<<grid, kBrcpWarpsPerCudaBlock * Brcp::blockRows, 0, exec.cuda_stream()>>>(args);
    cuda::checkCuda(cudaGetLastError(), "BRCP CUDA kernel launch");
  }
};

}  // namespace araios::Impl

#endif  // KOKKOS_ENABLE_CUDA
