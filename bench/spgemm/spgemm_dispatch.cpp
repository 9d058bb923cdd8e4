// Backend and precision names to the instantiated runSpgemmProduct (spgemm/instances/), and
// each backend's device and plan.
#include "spgemm/spgemm_run.hpp"
#include "spgemm/spgemm_suite.hpp"

#include <backend.hpp>

#include <araios/model/describe_device.hpp>

#include <Kokkos_Core.hpp>

#include <type_traits>

namespace araios::bench {

#ifdef KOKKOS_ENABLE_SERIAL
extern template void runSpgemmProduct<Kokkos::Serial, double>(const Kokkos::Serial&, const SpgemmCase&, const SpgemmBackend&, SpgemmContext&);
extern template void runSpgemmProduct<Kokkos::Serial, float>(const Kokkos::Serial&, const SpgemmCase&, const SpgemmBackend&, SpgemmContext&);
#endif
#ifdef KOKKOS_ENABLE_OPENMP
extern template void runSpgemmProduct<Kokkos::OpenMP, double>(const Kokkos::OpenMP&, const SpgemmCase&, const SpgemmBackend&, SpgemmContext&);
extern template void runSpgemmProduct<Kokkos::OpenMP, float>(const Kokkos::OpenMP&, const SpgemmCase&, const SpgemmBackend&, SpgemmContext&);
#endif
#ifdef KOKKOS_ENABLE_CUDA
extern template void runSpgemmProduct<Kokkos::Cuda, double>(const Kokkos::Cuda&, const SpgemmCase&, const SpgemmBackend&, SpgemmContext&);
extern template void runSpgemmProduct<Kokkos::Cuda, float>(const Kokkos::Cuda&, const SpgemmCase&, const SpgemmBackend&, SpgemmContext&);
#endif

SpgemmBackend startSpgemmBackend(const std::string& backend, const BenchOptions& options) {
  SpgemmBackend info;
  info.backend = backend;
  cli::withBackend(backend, [&](auto exec) {
    using ExecSpace = decltype(exec);
    const DeviceDescription device = describeDevice(exec);
    info.device = device.name;
    if (std::is_same_v<typename ExecSpace::memory_space, Kokkos::HostSpace>) info.threads = exec.concurrency();
  });
  info.plan = spgemmPlan(backend, options);
  return info;
}

void runSpgemmOn(const std::string& precision, const SpgemmCase& product, const SpgemmBackend& backend,
                 SpgemmContext& ctx) {
  cli::withBackend(backend.backend, [&](auto exec) {
    using ExecSpace = decltype(exec);
    if (precision == "float") {
      runSpgemmProduct<ExecSpace, float>(exec, product, backend, ctx);
    } else {
      runSpgemmProduct<ExecSpace, double>(exec, product, backend, ctx);
    }
  });
}

}  // namespace araios::bench
