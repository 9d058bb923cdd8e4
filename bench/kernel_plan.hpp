#pragma once
// The kernels measured on one backend: every Araios kernel of the format registry
// (tools/format_registry.hpp: new formats appear here without any change), then the baselines
// of that backend: cuSPARSE's four algorithms on CUDA, the plain OpenMP CSR loop on OpenMP.
// --kernels filters all of them.
#include "bench_options.hpp"

#include <string>
#include <vector>

namespace araios::bench {

struct PlannedKernel {
  std::string name;
  std::string format;
  std::string library;  ///< araios, cusparse, openmp-loop
};

/// Name of the OpenMP CSR loop baseline.
inline const char* kOpenMpLoopKernel = "openmp-csr-loop";

std::vector<PlannedKernel> kernelPlan(const std::string& backend, const BenchOptions& options);

}  // namespace araios::bench
