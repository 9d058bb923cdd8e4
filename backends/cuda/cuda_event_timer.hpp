#pragma once
// CUDA runtime error checks and a CUDA-event timer, for code that calls the runtime directly
// (the benchmark's GPU timing and its cuSPARSE baseline). Only for builds with Kokkos CUDA.
//
// Events time what runs on one stream between two points, on the GPU's own clock: unlike a
// host timer around a fence, they leave out the launch latency the host sees and the fence's
// own cost, which for kernels of a few microseconds would otherwise dominate.
#include <araios/error.hpp>

#include <cuda_runtime.h>

#include <string>

namespace araios::cuda {

/// Throws araios::RuntimeError naming the call and CUDA's message when `status` is an error.
inline void checkCuda(cudaError_t status, const char* call) {
  if (status != cudaSuccess) {
    throw RuntimeError(std::string(call) + " failed: " + cudaGetErrorName(status) + ": " + cudaGetErrorString(status));
  }
}

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
