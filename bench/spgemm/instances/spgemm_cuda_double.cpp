// runSpgemmProduct for the cuda backend in double (see spgemm/spgemm_run.hpp): one instantiation per
// file, so the builds of the backends and precisions run in parallel.
#include "../spgemm_run_impl.hpp"

#ifdef KOKKOS_ENABLE_CUDA
namespace araios::bench {
template void runSpgemmProduct<Kokkos::Cuda, double>(const Kokkos::Cuda&, const SpgemmCase&, const SpgemmBackend&, SpgemmContext&);
}  // namespace araios::bench
#endif
