#pragma once
// The CUDA device's description (detail/device_description.hpp's DeviceQuery), from
// cudaGetDeviceProperties for the device Kokkos selected; every call is checked.
#include <araios/backends/cuda/check_cuda.hpp>
#include <araios/detail/backend_kernel.hpp>
#include <araios/detail/device_description.hpp>

#include <Kokkos_Core.hpp>
#include <cuda_runtime.h>

namespace araios::Impl {

template <>
struct BackendKernel<DeviceQuery, Kokkos::Cuda> {
  static constexpr bool specialised = true;
  static DeviceDescription describe(const Kokkos::Cuda& exec) {
    cudaDeviceProp prop{};
    cuda::checkCuda(cudaGetDeviceProperties(&prop, exec.cuda_device()), "cudaGetDeviceProperties");
    int clockKHz = 0, memoryClockKHz = 0;
    // The clocks left cudaDeviceProp in CUDA 13; the attributes hold them in every version.
    cuda::checkCuda(cudaDeviceGetAttribute(&clockKHz, cudaDevAttrClockRate, exec.cuda_device()),
                    "cudaDeviceGetAttribute(cudaDevAttrClockRate)");
    cuda::checkCuda(cudaDeviceGetAttribute(&memoryClockKHz, cudaDevAttrMemoryClockRate, exec.cuda_device()),
                    "cudaDeviceGetAttribute(cudaDevAttrMemoryClockRate)");
    DeviceDescription d;
    d.backend = "cuda";
    d.name = prop.name;
    d.multiprocessors = prop.multiProcessorCount;
    d.threadsPerMultiprocessor = prop.maxThreadsPerMultiProcessor;
    d.warpsPerMultiprocessor = prop.maxThreadsPerMultiProcessor / prop.warpSize;
    d.threads = prop.multiProcessorCount * prop.maxThreadsPerMultiProcessor;
    d.cacheBytes = prop.l2CacheSize;
    d.clockMHz = clockKHz / 1000.0;
    d.memoryClockMHz = memoryClockKHz / 1000.0;
    d.memoryBytes = static_cast<std::int64_t>(prop.totalGlobalMem);
    return d;
  }
};

}  // namespace araios::Impl
