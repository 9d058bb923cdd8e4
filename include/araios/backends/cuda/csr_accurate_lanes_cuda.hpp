#pragma once
// Accurate mode's lanes kernel on NVIDIA GPUs (formats/csr/csr_accurate_lanes.hpp): a group of
// V lanes per row of a set (V = 1 to 32, as the caller asks), lane p summing the row's
// entries p, p + V, ... into an ExpansionRowSum, and the group's expansions joined by
// __shfl_down_sync, in registers, where the portable kernel goes through team scratch and a
// __syncwarp per level. The join cannot change a decided value (ExpansionRowSum::join), so the
// stored bits are every other kernel's Accurate bits. Rows longer than kAccurateLanesLongestRow
// take part in the shuffles as empty rows and are not stored: csr_long_rows.hpp sums them.
// The bins kernel (csr_row_bins.hpp) launches it once per bin. In one launch, every bin's
// blocks picking their lanes by their index, it took 247 against 216 us on a circuit matrix and
// 95 against 61 on a row of 10^6 among a million rows of one entry (H100, double).
#include <araios/backends/cuda/check_cuda.hpp>
#include <araios/backends/cuda/csr_lanes_cuda.hpp>
#include <araios/detail/backend_kernel.hpp>
#include <araios/detail/expansion_row_sum.hpp>
#include <araios/formats/csr/csr_strided_expansion.hpp>
#include <araios/error.hpp>
#include <araios/formats/csr/csr_accurate_lanes.hpp>
#include <araios/formats/csr/csr_lanes.hpp>

#ifdef KOKKOS_ENABLE_CUDA

#include <Kokkos_Core.hpp>

#include <cstdint>

namespace araios::Impl {

template <int V, class Csr, class XView, class YView>
__global__ void __launch_bounds__(kCsrLanesThreadsPerCudaBlock)
    csrAccurateLanesWarpKernel(const CsrLanesArguments<Csr, XView, YView> args, const CsrRowSet<Csr> set) {
  using Value = typename Csr::value_type;
  using Offset = typename Csr::size_type;
  using Partial = ExpansionRowSum<Value>;
  constexpr int kBatch = 4;  // entries a lane loads before it adds any of them
  const Csr& A = args.A;
  const std::int64_t thread = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  const std::int64_t k = thread / V;
  const int p = static_cast<int>(thread % V);
  // Rows past the end and long rows take part in the shuffles as empty rows: every lane of the
  // warp must.
  const bool inRange = k < set.count;
  const std::int64_t row = inRange ? static_cast<std::int64_t>(set.row(k)) : 0;
  const Offset begin = inRange ? A.rowPtr(row) : Offset(0);
  Offset end = inRange ? A.rowPtr(row + 1) : Offset(0);
  const bool stored = inRange && static_cast<std::int64_t>(end - begin) <= kAccurateLanesLongestRow;
  if (!stored) end = begin;

  Partial sum = stridedExpansion<kBatch>(A, args.x, static_cast<std::int64_t>(begin) + p, static_cast<std::int64_t>(end), V);
#pragma unroll
  for (int w = V / 2; w >= 1; w /= 2) {
    Partial other;
    other.hi = __shfl_down_sync(0xffffffffu, sum.hi, w, V);
    other.lo = __shfl_down_sync(0xffffffffu, sum.lo, w, V);
    other.err = __shfl_down_sync(0xffffffffu, sum.err, w, V);
    const int flags =
        __shfl_down_sync(0xffffffffu, (sum.undecided ? 1 : 0) | (sum.onlyNegativeZeros ? 2 : 0), w, V);
    other.undecided = (flags & 1) != 0;
    other.onlyNegativeZeros = (flags & 2) != 0;
    if (p < w) sum.join(other);
  }
  if (stored && p == 0) sum.store(args.y, row, args.alpha, args.beta);
}

template <>
struct BackendKernel<CsrAccurateLanesPass, Kokkos::Cuda> {
  static constexpr bool specialised = true;

  template <class Csr, class XView, class YView>
  static void apply(const Kokkos::Cuda& exec, const Csr& A, const CsrRowSet<Csr>& set, const XView& x,
                    const YView& y, typename Csr::value_type alpha, typename Csr::value_type beta, int lanes) {
    if (set.count == 0) return;
    switch (lanes) {
      case 1: return launch<1>(exec, A, set, x, y, alpha, beta);
      case 2: return launch<2>(exec, A, set, x, y, alpha, beta);
      case 4: return launch<4>(exec, A, set, x, y, alpha, beta);
      case 8: return launch<8>(exec, A, set, x, y, alpha, beta);
      case 16: return launch<16>(exec, A, set, x, y, alpha, beta);
      default: return launch<32>(exec, A, set, x, y, alpha, beta);
    }
  }

 private:
  template <int V, class Csr, class XView, class YView>
  static void launch(const Kokkos::Cuda& exec, const Csr& A, const CsrRowSet<Csr>& set, const XView& x,
                     const YView& y, typename Csr::value_type alpha, typename Csr::value_type beta) {
    const std::int64_t threads = set.count * V;
    const int grid = checkedNarrow<int>((threads + kCsrLanesThreadsPerCudaBlock - 1) / kCsrLanesThreadsPerCudaBlock,
                                        "Accurate lanes CUDA grid size");
    csrAccurateLanesWarpKernel<V, Csr, XView, YView><<<grid, kCsrLanesThreadsPerCudaBlock, 0, exec.cuda_stream()>>>(
        CsrLanesArguments<Csr, XView, YView>{A, x, y, alpha, beta}, set);
    cuda::checkCuda(cudaGetLastError(), "Accurate lanes CUDA kernel launch");
  }
};

}  // namespace araios::Impl

#endif  // KOKKOS_ENABLE_CUDA
