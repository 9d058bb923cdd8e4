#pragma once
// The free memory of the CUDA device (detail/device_memory.hpp's FreeMemoryQuery): what
// cudaMemGetInfo reports for the current device, which Kokkos selected at initialisation.
// The call is checked; a failure is a RuntimeError naming cudaMemGetInfo.
#include <araios/backends/cuda/check_cuda.hpp>
#include <araios/detail/backend_kernel.hpp>
#include <araios/detail/device_memory.hpp>

#include <Kokkos_Core.hpp>
#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

namespace araios::Impl {

template <>
struct BackendKernel<FreeMemoryQuery, Kokkos::Cuda> {
  static constexpr bool specialised = true;
  static std::int64_t freeBytes(const Kokkos::Cuda& /*exec*/) {
    std::size_t free = 0, total = 0;
    cuda::checkCuda(cudaMemGetInfo(&free, &total), "cudaMemGetInfo");
    return static_cast<std::int64_t>(free);
  }
};

}  // namespace araios::Impl
