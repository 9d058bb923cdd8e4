#pragma once
// The CUDA runtime error check of the code that calls the runtime directly: the hand-written
// kernels' launches (backends/cuda) and the benchmark's timing and cuSPARSE baseline. Only for
// builds with Kokkos CUDA.
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

}  // namespace araios::cuda
