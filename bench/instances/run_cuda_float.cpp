// runMatrix for the cuda backend in float (see run_matrix.hpp): one instantiation per file, so
// the builds of the backends and precisions run in parallel.
#include "../run_matrix_impl.hpp"

#ifdef KOKKOS_ENABLE_CUDA
namespace araios::bench {
template void runMatrix<Kokkos::Cuda, float>(const Kokkos::Cuda&, const MatrixCase&, const BackendInfo&, RunContext&);
}  // namespace araios::bench
#endif
