// runSpgemmProduct for the host backends (serial, openmp) in float (see spgemm/spgemm_run.hpp).
#include "../spgemm_run_impl.hpp"

namespace araios::bench {
#ifdef KOKKOS_ENABLE_SERIAL
template void runSpgemmProduct<Kokkos::Serial, float>(const Kokkos::Serial&, const SpgemmCase&, const SpgemmBackend&, SpgemmContext&);
#endif
#ifdef KOKKOS_ENABLE_OPENMP
template void runSpgemmProduct<Kokkos::OpenMP, float>(const Kokkos::OpenMP&, const SpgemmCase&, const SpgemmBackend&, SpgemmContext&);
#endif
}  // namespace araios::bench
