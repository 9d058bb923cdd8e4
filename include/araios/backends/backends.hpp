#pragma once
// Every backend's hand-written kernel parts (BackendKernel specialisations, detail/
// backend_kernel.hpp), for the backends this Kokkos enables. Included by the entry headers
// (araios/spmv.hpp and what builds on it), so a product dispatched through them always sees
// the specialisations.
#include <Kokkos_Core.hpp>

#ifdef KOKKOS_ENABLE_CUDA
#include <araios/backends/cuda/brcp_spmv_cuda.hpp>
#include <araios/backends/cuda/csr_accurate_lanes_cuda.hpp>
#include <araios/backends/cuda/csr_lanes_cuda.hpp>
#include <araios/backends/cuda/device_description_cuda.hpp>
#include <araios/backends/cuda/free_memory_cuda.hpp>
#include <araios/backends/cuda/l2_window_cuda.hpp>
#include <araios/backends/cuda/segmented_block_scan_cuda.hpp>
#include <araios/backends/cuda/team_carveout_cuda.hpp>
#endif
