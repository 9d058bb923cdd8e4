#pragma once
// Kokkos Kernels 3.4.1's SpGEMM (KokkosSparse::Experimental::spgemm_symbolic / spgemm_numeric,
// algorithm SPGEMM_KK), the CPU baseline of araios-bench --spgemm on the openmp backend. Built
// only when CMake found Kokkos Kernels (ARAIOS_BENCH_HAVE_KOKKOS_KERNELS; see
// kokkos_kernels_spmv.hpp and bench/README.md for how it is installed). Araios never depends on it.
//
// It runs on the benchmark's own CSR Views of A and B (int32 row offsets and columns, the
// offset and ordinal types of the trimmed ETI), with a KokkosKernelsHandle at its default
// settings, as Kokkos Kernels' own example calls it:
//   constructor  the symbolic phase: spgemm_symbolic fills C's row offsets, then C's column and
//                value arrays are allocated at the size it reports (as KokkosSparse::spgemm_symbolic
//                on CrsMatrix does);
//   numeric()    spgemm_numeric: C's columns and values. Callable again for new values of A and
//                B with the same patterns, on the same handle.
// C's columns are not sorted within rows (SPGEMM_KK accumulates in hash maps); the benchmark's
// check sorts them on the host before comparing.
#ifdef ARAIOS_BENCH_HAVE_KOKKOS_KERNELS

#include <araios/formats/csr/csr.hpp>

#include <KokkosKernels_Handle.hpp>
#include <KokkosSparse_spgemm.hpp>

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <string>
#include <type_traits>

namespace araios::bench {

template <class Value, class ExecSpace>
class KokkosKernelsSpgemm {
  static_assert(std::is_same_v<std::int32_t, int>, "the Kokkos Kernels baseline runs on int offsets and ordinals");

 public:
  using Device = typename ExecSpace::device_type;
  using MemorySpace = typename Device::memory_space;
  using Csr = CsrMatrix<Value, std::int32_t, std::int32_t, Device>;
  /// Offsets, ordinals and values of the trimmed ETI; temporary and persistent memory in the
  /// execution space's own memory.
  using Handle = KokkosKernels::Experimental::KokkosKernelsHandle<int, int, Value, ExecSpace, MemorySpace, MemorySpace>;

  KokkosKernelsSpgemm(const Csr& A, const Csr& B) {
    handle_.create_spgemm_handle(KokkosSparse::SPGEMM_KK);
    c_.numRows = A.numRows;
    c_.numCols = B.numCols;
    c_.rowPtr = Ints(uninitialized("araios::kk::rowPtrC"), A.numRows + 1);
    KokkosSparse::Experimental::spgemm_symbolic(&handle_, A.numRows, A.numCols, B.numCols, A.rowPtr, A.colIdx, false,
                                                B.rowPtr, B.colIdx, false, c_.rowPtr);
    const auto nnz = static_cast<std::int64_t>(handle_.get_spgemm_handle()->get_c_nnz());
    c_.colIdx = Ints(uninitialized("araios::kk::colIdxC"), nnz);
    c_.values = Kokkos::View<Value*, Device>(uninitialized("araios::kk::valuesC"), nnz);
    ExecSpace().fence();
  }
  KokkosKernelsSpgemm(const KokkosKernelsSpgemm&) = delete;
  KokkosKernelsSpgemm& operator=(const KokkosKernelsSpgemm&) = delete;

  /// C's columns and values for the current values of A and B.
  void numeric(const Csr& A, const Csr& B) {
    KokkosSparse::Experimental::spgemm_numeric(&handle_, A.numRows, A.numCols, B.numCols, A.rowPtr, A.colIdx, A.values,
                                               false, B.rowPtr, B.colIdx, B.values, false, c_.rowPtr, c_.colIdx,
                                               c_.values);
    ExecSpace().fence();
  }

  const Csr& result() const { return c_; }

 private:
  using Ints = Kokkos::View<int*, Device>;
  static auto uninitialized(const char* label) {
    return Kokkos::view_alloc(Kokkos::WithoutInitializing, std::string(label));
  }

  Handle handle_;
  Csr c_;
};

}  // namespace araios::bench

#endif  // ARAIOS_BENCH_HAVE_KOKKOS_KERNELS
