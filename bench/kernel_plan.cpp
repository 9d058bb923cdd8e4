#include "kernel_plan.hpp"

#include <araios/kernel_registry.hpp>

#include <Kokkos_Core.hpp>

#ifdef KOKKOS_ENABLE_CUDA
#include "cuda/cusparse_spmv.hpp"
#endif

namespace araios::bench {

std::vector<PlannedKernel> kernelPlan(const std::string& backend, const BenchOptions& options) {
  std::vector<PlannedKernel> plan;
  for (const KernelEntry& k : kernelRegistry())
    for (const auto& mode : options.modes)
      plan.push_back({std::string(k.name), std::string(formatName(k.format)), "araios", mode});
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
