#pragma once
// The one way the SpMV kernels launch a TeamPolicy kernel: Kokkos::parallel_for, then the
// backend's split of the SM's on-chip memory between L1 and shared memory for that kernel.
//
// Why: Kokkos before 4.0 launches every TeamPolicy kernel on CUDA with cudaFuncCachePreferShared,
// the largest shared-memory carveout. On a Hopper GPU that leaves 28 KiB of L1 beside 228 KiB of
// shared memory, while the SpMV team kernels use a few KiB of scratch per team. They gather x and
// read a thread's own row through L1, and with 28 KiB the lines are gone before their reuse. With
// the carveout below, on an H200, csr-merge ran up to 1.50x faster and the deterministic CSC up
// to 1.60x on power-law and R-MAT graphs, with the same bits (bench/results/nvidia-h200/
// team_carveout). Kokkos 4.0 computes the carveout from the kernel's shared memory and occupancy
// itself.
//
// A backend whose Kokkos needs the correction specialises BackendKernel<TeamCacheCarveout,
// ItsExecSpace> (detail/backend_kernel.hpp) with
//   template <class Functor, class Policy>
//   static void afterLaunch(const Policy& policy);   // sets the split of the kernel that
//                                                    // parallel_for(policy, Functor) launches
// For CUDA with Kokkos 3.x: backends/cuda/team_carveout_cuda.hpp. The split applies from the next
// launch of the same kernel on (Kokkos sets its own once, at the first launch). Only the split
// changes, never the work or its order: the bits are the same.
#include <araios/detail/backend_kernel.hpp>

#include <Kokkos_Core.hpp>

namespace araios::Impl {

/// BackendKernel tag: see above.
struct TeamCacheCarveout {};

/// Kokkos::parallel_for(label, policy, functor) for a TeamPolicy, with the backend's cache split.
template <class Policy, class Functor>
void teamParallelFor(const char* label, const Policy& policy, const Functor& functor) {
  Kokkos::parallel_for(label, policy, functor);
  if constexpr (hasBackendKernel<TeamCacheCarveout, typename Policy::execution_space>) {
    BackendKernel<TeamCacheCarveout, typename Policy::execution_space>::template afterLaunch<Functor>(policy);
  }
}

}  // namespace araios::Impl
