// runMatrix for the host backends (serial, openmp) in float (see run_matrix.hpp). The two share a
// file: under nvcc each file pays seconds of front end and device pass before its own code.
#include "../run_matrix_impl.hpp"

namespace araios::bench {
#ifdef KOKKOS_ENABLE_SERIAL
template void runMatrix<Kokkos::Serial, float>(const Kokkos::Serial&, const MatrixCase&, const BackendInfo&, RunContext&);
#endif
#ifdef KOKKOS_ENABLE_OPENMP
template void runMatrix<Kokkos::OpenMP, float>(const Kokkos::OpenMP&, const MatrixCase&, const BackendInfo&, RunContext&);
#endif
}  // namespace araios::bench
