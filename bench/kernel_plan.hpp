#pragma once
// The kernels measured on one backend: every Araios kernel of the registry
// (araios/kernel_registry.hpp: new kernels appear here without any change), then the baselines
// of that backend: cuSPARSE's four algorithms on CUDA, the plain OpenMP CSR loop and (when the
// build found Kokkos Kernels) KokkosSparse::spmv on OpenMP.
// --kernels filters all of them; each Araios kernel is planned once per mode of --modes, and on
// cuda with --keep-x-in-l2 once more per mode with x kept in L2 (the option does nothing on the
// host backends, so it is not measured there).
#include "bench_options.hpp"

#include <string>
#include <vector>

namespace araios::bench {

struct PlannedKernel {
  std::string name;
  std::string format;
  std::string library;  ///< araios, cusparse, openmp-loop, kokkos-kernels
  std::string mode = "fast";  ///< the Araios kernels run in each mode of --modes
  bool keepXInL2 = false;     ///< --keep-x-in-l2: the product with x kept in L2 (Araios kernels, cuda)
};

/// Name of the OpenMP CSR loop baseline.
inline const char* kOpenMpLoopKernel = "openmp-csr-loop";
/// Name of the Kokkos Kernels baseline (KokkosSparse::spmv, kokkos_kernels_spmv.hpp).
inline const char* kKokkosKernelsSpmvKernel = "kokkos-kernels-spmv";

std::vector<PlannedKernel> kernelPlan(const std::string& backend, const BenchOptions& options);

}  // namespace araios::bench
