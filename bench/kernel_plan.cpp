#include "kernel_plan.hpp"

#include "cuda/cusparse_algorithms.hpp"

#include <araios/kernel_registry.hpp>
#include <enabled_backends.hpp>

namespace araios::bench {

std::vector<PlannedKernel> kernelPlan(const std::string& backend, const BenchOptions& options) {
  std::vector<PlannedKernel> plan;
  for (const KernelEntry& k : kernelRegistry())
    for (const auto& mode : options.modes) {
      plan.push_back({std::string(k.name), std::string(formatName(k.format)), "araios", mode});
      if (options.keepXInL2 && backend == "cuda")
        plan.push_back({std::string(k.name), std::string(formatName(k.format)), "araios", mode, true});
    }
#if ARAIOS_BUILD_HAS_CUDA
  if (backend == "cuda")
    for (const auto a : cuda::allCusparseAlgorithms()) plan.push_back({cuda::kernelName(a), cuda::formatName(a), "cusparse"});
#endif
#ifdef _OPENMP
  if (backend == "openmp") plan.push_back({kOpenMpLoopKernel, "csr", "openmp-loop"});
#endif
#if defined(ARAIOS_BENCH_HAVE_KOKKOS_KERNELS) && ARAIOS_BUILD_HAS_OPENMP
  if (backend == "openmp") plan.push_back({kKokkosKernelsSpmvKernel, "csr", "kokkos-kernels"});
#endif
  std::vector<PlannedKernel> selected;
  for (auto& k : plan)
    if (matchesAny(k.name, options.kernels)) selected.push_back(std::move(k));
  return selected;
}

}  // namespace araios::bench
