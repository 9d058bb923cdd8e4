#pragma once
// A CUDA-event timer, for the benchmark's GPU timing and its cuSPARSE baseline (with the runtime
// error check of check_cuda.hpp). Only for builds with Kokkos CUDA.
//
// Events time what runs on one stream between two points, on the GPU's own clock: unlike a
// host timer around a fence, they leave out the launch latency the host sees and the fence's
// own cost, which for kernels of a few microseconds would otherwise dominate.
#include <araios/backends/cuda/check_cuda.hpp>

#include <cuda_runtime.h>

namespace araios::cuda {

/// Elapsed GPU time on one stream between start() and stop().
class CudaEventTimer {
 public:
  explicit CudaEventTimer(cudaStream_t stream) : stream_(stream) {
    checkCuda(cudaEventCreate(&start_), "cudaEventCreate");
    const cudaError_t second = cudaEventCreate(&stop_);
    if (second != cudaSuccess) {
      cudaEventDestroy(start_);
      checkCuda(second, "cudaEventCreate");
    }
  }
  ~CudaEventTimer() {
    // Destruction must not throw; a failure here would only leak an event.
    cudaEventDestroy(start_);
    cudaEventDestroy(stop_);
  }
  CudaEventTimer(const CudaEventTimer&) = delete;
  CudaEventTimer& operator=(const CudaEventTimer&) = delete;

  void start() { checkCuda(cudaEventRecord(start_, stream_), "cudaEventRecord"); }

  /// Records the stop event, waits for it, and returns the seconds since start().
  double stop() {
    checkCuda(cudaEventRecord(stop_, stream_), "cudaEventRecord");
    checkCuda(cudaEventSynchronize(stop_), "cudaEventSynchronize");
    float milliseconds = 0;
    checkCuda(cudaEventElapsedTime(&milliseconds, start_, stop_), "cudaEventElapsedTime");
    return 1e-3 * static_cast<double>(milliseconds);
  }

 private:
  cudaStream_t stream_;
  cudaEvent_t start_ = nullptr;
  cudaEvent_t stop_ = nullptr;
};

}  // namespace araios::cuda
