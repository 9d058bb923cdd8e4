// Backend and precision names to the instantiated runMatrix, and the per-backend start: device
// name and copy ceiling.
#include "copy_bandwidth.hpp"
#include "model_columns.hpp"
#include "run_matrix.hpp"

#include <backend.hpp>

#include <araios/model/describe_device.hpp>
#include <araios/types.hpp>

#include <fmt/core.h>

#include <Kokkos_Core.hpp>

#ifdef KOKKOS_ENABLE_CUDA
#include "cuda/cuda_event_timer.hpp"
#endif

#include <algorithm>
#include <fstream>
#include <thread>

namespace araios::bench {

// Instantiated in instances/run_<backend>_<precision>.cpp.
#ifdef KOKKOS_ENABLE_SERIAL
extern template void runMatrix<Kokkos::Serial, double>(const Kokkos::Serial&, const MatrixCase&, const BackendInfo&, RunContext&);
extern template void runMatrix<Kokkos::Serial, float>(const Kokkos::Serial&, const MatrixCase&, const BackendInfo&, RunContext&);
#endif
#ifdef KOKKOS_ENABLE_OPENMP
extern template void runMatrix<Kokkos::OpenMP, double>(const Kokkos::OpenMP&, const MatrixCase&, const BackendInfo&, RunContext&);
extern template void runMatrix<Kokkos::OpenMP, float>(const Kokkos::OpenMP&, const MatrixCase&, const BackendInfo&, RunContext&);
#endif
#ifdef KOKKOS_ENABLE_CUDA
extern template void runMatrix<Kokkos::Cuda, double>(const Kokkos::Cuda&, const MatrixCase&, const BackendInfo&, RunContext&);
extern template void runMatrix<Kokkos::Cuda, float>(const Kokkos::Cuda&, const MatrixCase&, const BackendInfo&, RunContext&);
#endif

namespace {

/// The CPU's model name from /proc/cpuinfo, or "cpu" where there is none.
std::string cpuName() {
  std::ifstream in("/proc/cpuinfo");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("model name", 0) == 0) {
      const auto colon = line.find(':');
      if (colon != std::string::npos) return line.substr(line.find_first_not_of(" \t", colon + 1));
    }
  }
  return "cpu";
}

template <class ExecSpace>
std::string deviceName(const ExecSpace& exec) {
#ifdef KOKKOS_ENABLE_CUDA
  if constexpr (std::is_same_v<ExecSpace, Kokkos::Cuda>) {
    cudaDeviceProp properties;
    cuda::checkCuda(cudaGetDeviceProperties(&properties, exec.cuda_device()), "cudaGetDeviceProperties");
    return properties.name;
  }
#endif
  (void)exec;
  return cpuName();
}

template <class ExecSpace>
BackendInfo start(const ExecSpace& exec, const std::string& backend, RunContext& ctx) {
  BackendInfo info;
  info.backend = backend;
  info.device = deviceName(exec);
  const bool host = std::is_same_v<typename ExecSpace::memory_space, Kokkos::HostSpace>;
  info.threads = host ? exec.concurrency() : 0;
  const std::int64_t bytes = host ? ctx.options.copyBytesCpu : ctx.options.copyBytesGpu;
  fmt::print("backend {} on {}{}: measuring copy bandwidth ({} MiB per buffer)\n", backend, info.device,
             host ? fmt::format(" ({} threads)", info.threads) : std::string(), bytes >> 20);
  for (const auto& copy : measureCopyBandwidth(exec, bytes, ctx.options.reps)) {
    info.copyGbps = std::max(info.copyGbps, copy.gbps());
    ResultRow row;
    row.kernel = copy.kernel;
    row.library = "ceiling";
    row.backend = backend;
    row.device = info.device;
    if (info.threads > 0) row.threads = info.threads;
    row.reps = ctx.options.reps;
    row.warmups = kWarmups;
    row.timeSeconds = copy.timing.median;
    row.timeMinSeconds = copy.timing.min;
    row.timeMaxSeconds = copy.timing.max;
    row.bytes = copy.bytesMoved;
    row.gbps = copy.gbps();
    row.footprintBytes = copy.bytesMoved;
    row.commit = ctx.commit;
    row.date = ctx.date;
    ctx.sink.write(row);
    fmt::print("  {:<16} {:>9.1f} GB/s (read + write, median of {})\n", copy.kernel, copy.gbps(), ctx.options.reps);
  }
  fmt::print("  copy ceiling     {:>9.1f} GB/s\n", info.copyGbps);
  info.plan = kernelPlan(backend, ctx.options);
  if (ctx.options.model) {
    std::string warning;
    info.profile = modelProfile(describeDevice(exec), ctx.options.profile, &warning);
    if (!warning.empty()) fmt::print(stderr, "araios-bench: warning: {}\n", warning);
    fmt::print("  model profile    {} ({})\n", info.profile->device.name, info.profile->source);
  }
  return info;
}

}  // namespace

BackendInfo startBackend(const std::string& backend, RunContext& ctx) {
  BackendInfo info;
  cli::withBackend(backend, [&](auto exec) { info = start(exec, backend, ctx); });
  return info;
}

void runMatrixOn(const std::string& precision, const MatrixCase& matrix, const BackendInfo& backend, RunContext& ctx) {
  cli::withBackend(backend.backend, [&](auto exec) {
    using ExecSpace = decltype(exec);
    if (precision == "float") {
      runMatrix<ExecSpace, float>(exec, matrix, backend, ctx);
    } else {
      runMatrix<ExecSpace, double>(exec, matrix, backend, ctx);
    }
  });
}

}  // namespace araios::bench
