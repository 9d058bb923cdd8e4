#pragma once
// Kokkos Kernels 3.4.1's KokkosSparse::spmv, the CPU baseline of araios-bench, on the openmp backend.
// Built only when CMake found Kokkos Kernels (scripts/setup.sh --kokkos-kernels installs it into
// .deps/kokkos-kernels-openmp, with its ETI trimmed to <OpenMP, HostSpace>, double and float,
// int ordinals and offsets): then ARAIOS_BENCH_HAVE_KOKKOS_KERNELS is defined. Araios itself
// never depends on it.
//
// The KokkosSparse::CrsMatrix wraps the benchmark's own CSR Views (int32 row pointers, column
// indices and values, LayoutRight on the host as KokkosSparse::CrsMatrix wants them): no copy,
// so Kokkos Kernels reads the very arrays, first-touched the same way, that the Araios CSR
// kernels and the OpenMP loop read. convertSeconds() is the time to build the CrsMatrix.
#ifdef ARAIOS_BENCH_HAVE_KOKKOS_KERNELS

#include <araios/formats/csr/csr.hpp>

#include <KokkosSparse_CrsMatrix.hpp>
#include <KokkosSparse_spmv.hpp>

#include <Kokkos_Core.hpp>

#include <cstdint>

namespace araios::bench {

template <class Value, class Device>
class KokkosKernelsSpmv {
 public:
  /// int ordinals and offsets: the types the trimmed ETI instantiated.
  using Matrix = KokkosSparse::CrsMatrix<Value, int, Device, void, int>;
  using Csr = CsrMatrix<Value, std::int32_t, std::int32_t, Device>;

  explicit KokkosKernelsSpmv(const Csr& csr) {
    Kokkos::Timer timer;
    matrix_ = Matrix("araios::bench::kokkos-kernels", csr.numRows, csr.numCols, csr.nnz(), csr.values, csr.rowPtr,
                     csr.colIdx);
    typename Device::execution_space().fence();
    convertSeconds_ = timer.seconds();
  }

  /// y = alpha*A*x + beta*y through the library's public entry, with its default controls.
  template <class Vector>
  void run(const Vector& x, const Vector& y, Value alpha, Value beta) const {
    KokkosSparse::spmv("N", alpha, matrix_, x, beta, y);
  }

  double convertSeconds() const { return convertSeconds_; }

 private:
  Matrix matrix_;
  double convertSeconds_ = 0;
};

}  // namespace araios::bench

#endif  // ARAIOS_BENCH_HAVE_KOKKOS_KERNELS
