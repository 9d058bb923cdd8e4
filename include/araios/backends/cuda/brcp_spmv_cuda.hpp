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
// It replaces the block pass only (BackendKernel<BrcpBlockPass, Kokkos::Cuda>): the modes, the
// split rows' second pass and SpmvOptions::portableOnly stay in formats/brcp/brcp_spmv.hpp;
// the tests compare the two kernels bit for bit.
#include <araios/backends/cuda/check_cuda.hpp>
#include <araios/detail/backend_kernel.hpp>
#include <araios/detail/spmv_dispatch.hpp>
#include <araios/error.hpp>
#include <araios/types.hpp>
#include <araios/formats/brcp/brcp.hpp>
#include <araios/formats/brcp/brcp_kernel_parts.hpp>

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

template <class Brcp, class XView, class Store>
struct BrcpWarpArguments {
  Brcp A;
  XView x;
  Store store;
};

template <class Brcp, class XView, class Store>
__global__ void __launch_bounds__(kBrcpWarpsPerCudaBlock* Brcp::blockRows)
    brcpWarpKernel(const BrcpWarpArguments<Brcp, XView, Store> args) {
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

template <>
struct BackendKernel<BrcpBlockPass, Kokkos::Cuda> {
  static constexpr bool specialised = true;

  template <bool AtomicSplit, class Brcp, class XView, class Store>
  static void launch(const Kokkos::Cuda& exec, const Brcp& A, const XView& x, const Store& store) {
    const std::int64_t numBlocks = A.numBlocks();
    const int grid =
        checkedNarrow<int>((numBlocks + kBrcpWarpsPerCudaBlock - 1) / kBrcpWarpsPerCudaBlock, "BRCP CUDA grid size");
    brcpWarpKernel<Brcp, XView, Store>
        <<<grid, kBrcpWarpsPerCudaBlock * Brcp::blockRows, 0, exec.cuda_stream()>>>(
            BrcpWarpArguments<Brcp, XView, Store>{A, x, store});
    cuda::checkCuda(cudaGetLastError(), "BRCP CUDA kernel launch");
  }
};

}  // namespace araios::Impl

#endif  // KOKKOS_ENABLE_CUDA
