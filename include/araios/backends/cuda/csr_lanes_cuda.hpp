#pragma once
// Deterministic csr-vector on NVIDIA GPUs: the canonical 32-lane order of
// formats/csr/csr_spmv.hpp with the lane sums in registers and the last levels of the tree in
// warp shuffles, instead of the portable kernel's trip through team scratch and a __syncwarp
// per tree level.
//
// A row has a group of V physical lanes (V = 4, 8, 16 or 32, from the mean row length), and
// physical lane p holds the G = 32/V virtual lanes p, p+V, ..., p+(G-1)V in registers. The tree
// `lane l += lane l+w`, w = 16, ..., 1, is the same tree: for w >= V both lanes of a pair live in
// one physical lane (a register addition), for w < V the partner is w physical lanes further
// (__shfl_down_sync within the group). Every addition and product is rounded on its own
// (unfusedSum, accumulateProduct), so the bits equal the portable kernel's and the host
// evaluation of test_canonical_orders. It replaces only the lanes pass
// (BackendKernel<CsrLanesPass, Kokkos::Cuda>); SpmvOptions::portableOnly runs the portable one.
#include <araios/backends/cuda/check_cuda.hpp>
#include <araios/detail/backend_kernel.hpp>
#include <araios/detail/spmv_dispatch.hpp>
#include <araios/error.hpp>
#include <araios/types.hpp>
#include <araios/formats/csr/csr_lanes.hpp>

#ifdef KOKKOS_ENABLE_CUDA

#include <Kokkos_Core.hpp>

#include <cstdint>

namespace araios::Impl {

/// Threads per CUDA block of the lanes kernel: as the portable kernel's 256-thread teams.
constexpr int kCsrLanesThreadsPerCudaBlock = 256;

template <class Csr, class XView, class YView>
struct CsrLanesArguments {
  Csr A;
  XView x;
  YView y;
  typename Csr::value_type alpha, beta;
};

template <int V, class Csr, class XView, class YView>
__global__ void __launch_bounds__(kCsrLanesThreadsPerCudaBlock)
    csrLanesWarpKernel(const CsrLanesArguments<Csr, XView, YView> args) {
  using Value = typename Csr::value_type;
  using Offset = typename Csr::size_type;
  constexpr int G = kCanonicalLanes / V;  // virtual lanes per physical lane
  const Csr& A = args.A;
  const std::int64_t thread = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  const std::int64_t row = thread / V;
  const int p = static_cast<int>(thread % V);
  // Rows past the end take part in the shuffles as empty rows: every lane of the warp must.
  const bool inRange = row < static_cast<std::int64_t>(A.numRows);
  const Offset begin = inRange ? A.rowPtr(row) : Offset(0);
  const Offset end = inRange ? A.rowPtr(row + 1) : Offset(0);

  Value lane[G];
  for (int j = 0; j < G; ++j) lane[j] = sumIdentity<Value>();
  // Virtual lane p + jV sums the entries p + jV, p + jV + 32, ... in order; walking t (the
  // stride of 32) outside and j inside keeps each lane's order and makes the V lanes of a group
  // read V consecutive entries at a time.
  for (Offset base = begin; base < end; base += kCanonicalLanes) {
#pragma unroll
    for (int j = 0; j < G; ++j) {
      const Offset k = base + j * V + p;
      if (k < end) accumulateProduct(lane[j], A.values(k), args.x(A.colIdx(k)));
    }
  }
  // Tree levels w >= V: lane l and lane l + w share a physical lane (w / V registers apart).
#pragma unroll
  for (int w = kCanonicalLanes / 2; w >= V; w /= 2) {
#pragma unroll
    for (int j = 0; j < w / V; ++j) lane[j] = unfusedSum(lane[j], lane[j + w / V]);
  }
  // Levels w < V: virtual lane p is lane[0] of physical lane p; its partner is w lanes down.
#pragma unroll
  for (int w = V / 2; w >= 1; w /= 2) {
    const Value partner = __shfl_down_sync(0xffffffffu, lane[0], w, V);
    if (p < w) lane[0] = unfusedSum(lane[0], partner);
  }
  if (inRange && p == 0) storeRow(args.y, row, lane[0], args.alpha, args.beta);
}

template <>
struct BackendKernel<CsrLanesPass, Kokkos::Cuda> {
  static constexpr bool specialised = true;

  template <class Csr, class XView, class YView>
  static void apply(const Kokkos::Cuda& exec, const Csr& A, const XView& x, const YView& y,
                    typename Csr::value_type alpha, typename Csr::value_type beta, double meanRowLength) {
    if (A.numRows == 0) return;
    const int lanes = csrLanesShape<Kokkos::Cuda>(meanRowLength).vectorLength;
    switch (lanes) {
      case 4: return launch<4>(exec, A, x, y, alpha, beta);
      case 8: return launch<8>(exec, A, x, y, alpha, beta);
      case 16: return launch<16>(exec, A, x, y, alpha, beta);
      default: return launch<32>(exec, A, x, y, alpha, beta);
    }
  }

 private:
  template <int V, class Csr, class XView, class YView>
  static void launch(const Kokkos::Cuda& exec, const Csr& A, const XView& x, const YView& y,
                     typename Csr::value_type alpha, typename Csr::value_type beta) {
    const std::int64_t threads = static_cast<std::int64_t>(A.numRows) * V;
    const int grid = checkedNarrow<int>((threads + kCsrLanesThreadsPerCudaBlock - 1) / kCsrLanesThreadsPerCudaBlock,
                                        "csr-vector CUDA grid size");
    csrLanesWarpKernel<V, Csr, XView, YView>
        <<<grid, kCsrLanesThreadsPerCudaBlock, 0, exec.cuda_stream()>>>(CsrLanesArguments<Csr, XView, YView>{A, x, y, alpha, beta});
    cuda::checkCuda(cudaGetLastError(), "csr-vector CUDA kernel launch");
  }
};

}  // namespace araios::Impl

#endif  // KOKKOS_ENABLE_CUDA
