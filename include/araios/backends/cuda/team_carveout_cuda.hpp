#pragma once
// The L1 / shared-memory split of the SpMV team kernels on CUDA with Kokkos 3.x
// (detail/team_parallel_for.hpp's TeamCacheCarveout): after each launch, the kernel Kokkos
// launched gets the smallest carveout that still holds as many of its blocks per SM as its
// threads and registers allow, so it loses no occupancy and keeps the rest of the SM's memory as
// L1. Kokkos 4.0 and later compute this carveout themselves; there this file specialises nothing.
//
// The kernel is the one Kokkos 3.x instantiates for parallel_for(policy, Functor):
// CudaParallelLaunch<ParallelFor<Functor, Policy>, Policy::launch_bounds>::get_kernel_func(),
// with the dynamic shared memory Kokkos 3.x gives a team (a double per thread of the team and
// two more, for its reductions, plus the policy's level-0 scratch). Kokkos sets its own
// preference (cudaFuncCachePreferShared) once per kernel, at the first launch; this one is set
// after that launch and again whenever the team's shape changes, and from then on it holds.
//
// ARAIOS_CUDA_TEAM_CARVEOUT=kokkos in the environment leaves Kokkos's preference in place, to
// measure the difference.
#include <araios/backends/cuda/check_cuda.hpp>
#include <araios/detail/backend_kernel.hpp>
#include <araios/detail/team_parallel_for.hpp>

#include <Kokkos_Core.hpp>
#include <cuda_runtime.h>

#if KOKKOS_VERSION < 40000

#include <cstddef>
#include <cstdlib>
#include <cstring>
#include <mutex>

namespace araios::Impl {

/// Whether ARAIOS_CUDA_TEAM_CARVEOUT=kokkos asks to keep Kokkos's own preference (read once).
inline bool keepKokkosTeamCarveout() {
  static const bool keep = [] {
    const char* value = std::getenv("ARAIOS_CUDA_TEAM_CARVEOUT");
    return value != nullptr && std::strcmp(value, "kokkos") == 0;
  }();
  return keep;
}

/// The carveout, in percent of the SM's shared memory, that holds as many blocks of
/// `blockThreads` threads and `dynamicBytes` of dynamic shared memory as the kernel's threads,
/// registers and shared memory allow on the current device.
inline int fullOccupancyCarveout(const void* kernel, int blockThreads, std::size_t dynamicBytes) {
  int device = 0;
  cuda::checkCuda(cudaGetDevice(&device), "cudaGetDevice");
  int sharedPerSm = 0, reservedPerBlock = 0;
  cuda::checkCuda(cudaDeviceGetAttribute(&sharedPerSm, cudaDevAttrMaxSharedMemoryPerMultiprocessor, device),
                  "cudaDeviceGetAttribute(cudaDevAttrMaxSharedMemoryPerMultiprocessor)");
  cuda::checkCuda(cudaDeviceGetAttribute(&reservedPerBlock, cudaDevAttrReservedSharedMemoryPerBlock, device),
                  "cudaDeviceGetAttribute(cudaDevAttrReservedSharedMemoryPerBlock)");
  cudaFuncAttributes attributes{};
  cuda::checkCuda(cudaFuncGetAttributes(&attributes, kernel), "cudaFuncGetAttributes");
  // The occupancy is asked under the largest carveout: the answer can follow the kernel's own
  // preference, which an earlier call may have lowered for another team shape.
  cuda::checkCuda(cudaFuncSetAttribute(kernel, cudaFuncAttributePreferredSharedMemoryCarveout, 100),
                  "cudaFuncSetAttribute(cudaFuncAttributePreferredSharedMemoryCarveout)");
  int blocks = 0;
  cuda::checkCuda(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, kernel, blockThreads, dynamicBytes),
                  "cudaOccupancyMaxActiveBlocksPerMultiprocessor");
  if (sharedPerSm <= 0 || blocks <= 0) return 100;
  const std::size_t perBlock = dynamicBytes + attributes.sharedSizeBytes + static_cast<std::size_t>(reservedPerBlock);
  const std::size_t needed = static_cast<std::size_t>(blocks) * perBlock;
  const std::size_t percent = (100 * needed + static_cast<std::size_t>(sharedPerSm) - 1) / static_cast<std::size_t>(sharedPerSm);
  return percent > 100 ? 100 : static_cast<int>(percent);
}

template <>
struct BackendKernel<TeamCacheCarveout, Kokkos::Cuda> {
  static constexpr bool specialised = true;

  template <class Functor, class Policy>
  static void afterLaunch(const Policy& policy) {
    if (keepKokkosTeamCarveout()) return;
    const int teamSize = policy.team_size();
    const int blockThreads = teamSize * policy.impl_vector_length();
    if (teamSize <= 0 || policy.league_size() <= 0) return;  // nothing launched, or Kokkos chose the size
    using Driver = Kokkos::Impl::ParallelFor<Functor, Policy, Kokkos::Cuda>;
    using Launch = Kokkos::Impl::CudaParallelLaunch<Driver, typename Policy::launch_bounds>;
    const void* kernel = reinterpret_cast<const void*>(Launch::get_kernel_func());
    const std::size_t dynamicBytes = sizeof(double) * static_cast<std::size_t>(teamSize + 2) +
                                     static_cast<std::size_t>(policy.scratch_size(0, teamSize));

    // One record per kernel: the shape its carveout was computed for. Kokkos launches a kernel
    // under a lock of its own; this one keeps two threads from setting it at once.
    static std::mutex mutex;
    static int lastThreads = -1;
    static std::size_t lastBytes = 0;
    std::lock_guard<std::mutex> lock(mutex);
    if (blockThreads == lastThreads && dynamicBytes == lastBytes) return;
    const int carveout = fullOccupancyCarveout(kernel, blockThreads, dynamicBytes);
    // No cache preference left to compete with the carveout: Kokkos's PreferShared asks for the
    // largest one.
    cuda::checkCuda(cudaFuncSetCacheConfig(kernel, cudaFuncCachePreferNone), "cudaFuncSetCacheConfig");
    cuda::checkCuda(cudaFuncSetAttribute(kernel, cudaFuncAttributePreferredSharedMemoryCarveout, carveout),
                    "cudaFuncSetAttribute(cudaFuncAttributePreferredSharedMemoryCarveout)");
    lastThreads = blockThreads;
    lastBytes = dynamicBytes;
  }
};

}  // namespace araios::Impl

#endif  // KOKKOS_VERSION < 40000
