#include "kernel_plan.hpp"

#include <format_registry.hpp>

#include <Kokkos_Core.hpp>

#ifdef KOKKOS_ENABLE_CUDA
#include <backends/cuda/cusparse_spmv.hpp>
#endif

namespace araios::bench {

std::vector<PlannedKernel> kernelPlan(const std::string& backend, const BenchOptions& options) {
  std::vector<PlannedKernel> plan;
  for (const auto& k : cli::kernelInfos())
    for (const auto& mode : options.modes) plan.push_back({k.name, k.format, "araios", mode});
#ifdef KOKKOS_ENABLE_CUDA
  if (backend == "cuda")
    for (const auto a : cuda::allCusparseAlgorithms()) plan.push_back({cuda::kernelName(a), cuda::formatName(a), "cusparse"});
#endif
#ifdef _OPENMP
  if (backend == "openmp") plan.push_back({kOpenMpLoopKernel, "csr", "openmp-loop"});
#endif
#if defined(ARAIOS_BENCH_HAVE_KOKKOS_KERNELS) && defined(KOKKOS_ENABLE_OPENMP)
  if (backend == "openmp") plan.push_back({kKokkosKernelsSpmvKernel, "csr", "kokkos-kernels"});
#endif
  std::vector<PlannedKernel> selected;
  for (auto& k : plan)
    if (matchesAny(k.name, options.kernels)) selected.push_back(std::move(k));
  return selected;
}

}  // namespace araios::bench
