// runMatrix for the serial backend in float (see run_matrix.hpp): one instantiation per file, so
// the builds of the backends and precisions run in parallel.
#include "../run_matrix_impl.hpp"

#ifdef KOKKOS_ENABLE_SERIAL
namespace araios::bench {
template void runMatrix<Kokkos::Serial, float>(const Kokkos::Serial&, const MatrixCase&, const BackendInfo&, RunContext&);
}  // namespace araios::bench
#endif
