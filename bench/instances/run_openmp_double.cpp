// runMatrix for the openmp backend in double (see run_matrix.hpp): one instantiation per file, so
// the builds of the backends and precisions run in parallel.
#include "../run_matrix_impl.hpp"

#ifdef KOKKOS_ENABLE_OPENMP
namespace araios::bench {
template void runMatrix<Kokkos::OpenMP, double>(const Kokkos::OpenMP&, const MatrixCase&, const BackendInfo&, RunContext&);
}  // namespace araios::bench
#endif
