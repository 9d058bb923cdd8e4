#pragma once
// The combinations compiled into the Araios library: double and float values, 32-bit ordinals
// and offsets or 64-bit ones, on each enabled backend (Serial, OpenMP, CUDA). For these the
// library holds, compiled once with floating-point contraction off:
//   * the SpMV of every format (Impl::spmvCanonical), given the state an operator prepared for
//     it or none (detail/spmv_state.hpp);
//   * the operator's format builders (Impl::buildPreparedKernel), the conversions between CSR
//     and every format, CSR from a host matrix, and the features Kernel::Auto computes;
//   * Jacobi, CG, GMRES and PageRank on the operator, with b, x and the diagonal in Views of
//     the operator's device.
// The declarations keep them out of the caller's translation unit: a program built with
// -ffp-contract=fast or -march=native gets the library's bits, and compiles in seconds.
//
// araios/spmv.hpp, araios/kernel_builders.hpp, araios/araios.hpp (the conversions),
// solvers/diagonal.hpp and each solver's header declare them at their
// end when ARAIOS_COMPILED_INSTANTIATIONS is defined, as Araios::araios does; src/eti/ defines
// them. Other combinations (float values with 64-bit offsets and 32-bit ordinals, say, or a
// right-hand side in a View of const values) are instantiated from the headers in the caller's
// translation unit, which must then be compiled without contraction: the target
// Araios::araios_header_only carries -ffp-contract=off for that (README, "Header-only use").
#include <araios/detail/spmv_dispatch.hpp>
#include <araios/detail/spmv_state.hpp>
#include <araios/mode.hpp>

#include <Kokkos_Core.hpp>

#include <cstdint>

// M(Value, Ordinal, Offset, ExecSpace) for every compiled combination of one backend.
#define ARAIOS_ETI_INDEX_TYPES(M, V, E) M(V, std::int32_t, std::int32_t, E) M(V, std::int64_t, std::int64_t, E)
#define ARAIOS_ETI_BACKEND(M, E) ARAIOS_ETI_INDEX_TYPES(M, double, E) ARAIOS_ETI_INDEX_TYPES(M, float, E)
#ifdef KOKKOS_ENABLE_SERIAL
#define ARAIOS_ETI_SERIAL(M) ARAIOS_ETI_BACKEND(M, Kokkos::Serial)
#else
#define ARAIOS_ETI_SERIAL(M)
#endif
#ifdef KOKKOS_ENABLE_OPENMP
#define ARAIOS_ETI_OPENMP(M) ARAIOS_ETI_BACKEND(M, Kokkos::OpenMP)
#else
#define ARAIOS_ETI_OPENMP(M)
#endif
#ifdef KOKKOS_ENABLE_CUDA
#define ARAIOS_ETI_CUDA(M) ARAIOS_ETI_BACKEND(M, Kokkos::Cuda)
#else
#define ARAIOS_ETI_CUDA(M)
#endif
#define ARAIOS_ETI_FOR_EACH(M) ARAIOS_ETI_SERIAL(M) ARAIOS_ETI_OPENMP(M) ARAIOS_ETI_CUDA(M)

// The SpMV of one format for one combination; PREFIX is `extern` for the declaration.
#define ARAIOS_ETI_SPMV(PREFIX, FORMAT, V, O, S, E)                                                           \
  PREFIX template void araios::Impl::spmvCanonical<E, araios::FORMAT<V, O, S, E::device_type>>(             \
      const E&, const araios::FORMAT<V, O, S, E::device_type>&, const Kokkos::View<const V*, E::device_type>&, \
      const Kokkos::View<V*, E::device_type>&, V, V, const araios::SpmvOptions&,                             \
      const Kokkos::View<V*, E::device_type>&,                                                              \
      const araios::Impl::SpmvState<E, araios::FORMAT<V, O, S, E::device_type>>&);
#define ARAIOS_ETI_SPMV_ALL_FORMATS(PREFIX, V, O, S, E) \
  ARAIOS_ETI_SPMV(PREFIX, CooMatrix, V, O, S, E)        \
  ARAIOS_ETI_SPMV(PREFIX, CsrMatrix, V, O, S, E)        \
  ARAIOS_ETI_SPMV(PREFIX, CscMatrix, V, O, S, E)        \
  ARAIOS_ETI_SPMV(PREFIX, EllMatrix, V, O, S, E)        \
  ARAIOS_ETI_SPMV(PREFIX, HybMatrix, V, O, S, E)        \
  ARAIOS_ETI_SPMV(PREFIX, DiaMatrix, V, O, S, E)        \
  ARAIOS_ETI_SPMV(PREFIX, JdsMatrix, V, O, S, E)        \
  ARAIOS_ETI_SPMV(PREFIX, SellMatrix, V, O, S, E)       \
  ARAIOS_ETI_SPMV(PREFIX, BrcMatrix, V, O, S, E)        \
  ARAIOS_ETI_SPMV(PREFIX, BrcpMatrix, V, O, S, E)       \
  ARAIOS_ETI_SPMV(PREFIX, ScCsrMatrix, V, O, S, E)      \
  ARAIOS_ETI_SPMV(PREFIX, VabMatrix, V, O, S, E)
#define ARAIOS_ETI_DECLARE_SPMV(V, O, S, E) ARAIOS_ETI_SPMV_ALL_FORMATS(extern, V, O, S, E)
#define ARAIOS_ETI_DEFINE_SPMV(V, O, S, E) ARAIOS_ETI_SPMV_ALL_FORMATS(, V, O, S, E)

// The operator's builder of every format for one combination.
#define ARAIOS_ETI_BUILDER(PREFIX, V, O, S, E)                                                             \
  PREFIX template std::shared_ptr<const araios::Impl::PreparedKernel<V, E>>                               \
  araios::Impl::buildPreparedKernel<E, araios::CsrMatrix<V, O, S, E::device_type>>(                       \
      const E&, araios::FormatId, const araios::CsrMatrix<V, O, S, E::device_type>&, const araios::FormatOptions&, \
      araios::Mode);
#define ARAIOS_ETI_DECLARE_BUILDER(V, O, S, E) ARAIOS_ETI_BUILDER(extern, V, O, S, E)
// Kernel::Auto's features of a CSR matrix (model/compute_features.hpp), in the builder's unit.
#define ARAIOS_ETI_FEATURES(PREFIX, V, O, S, E)                                                      \
  PREFIX template araios::MatrixFeatures araios::computeFeatures<E, araios::CsrMatrix<V, O, S, E::device_type>>( \
      const E&, const araios::CsrMatrix<V, O, S, E::device_type>&);
#define ARAIOS_ETI_DECLARE_FEATURES(V, O, S, E) ARAIOS_ETI_FEATURES(extern, V, O, S, E)
// The builder's translation unit (src/eti, part BUILDER) also defines the conversions, which the
// builders instantiate there anyway.
#define ARAIOS_ETI_DEFINE_BUILDER(V, O, S, E) \
  ARAIOS_ETI_BUILDER(, V, O, S, E) ARAIOS_ETI_FEATURES(, V, O, S, E) ARAIOS_ETI_DEFINE_CONVERSIONS(V, O, S, E)

// The solvers on the operator, with b, x and the diagonal in Views of the operator's device:
// for each solver, the overload that is given the diagonal and the one that finds it.
#define ARAIOS_ETI_VECTOR(V, E) Kokkos::View<V*, E::device_type>
#define ARAIOS_ETI_SOLVER(PREFIX, SOLVER, V, O, S, E)                                                            \
  PREFIX template araios::SolveResult araios::SOLVER<E, araios::SpmvOperator<V, O, S, E>, ARAIOS_ETI_VECTOR(V, E), \
                                                     ARAIOS_ETI_VECTOR(V, E), ARAIOS_ETI_VECTOR(V, E)>(          \
      const E&, const araios::SpmvOperator<V, O, S, E>&, const ARAIOS_ETI_VECTOR(V, E)&,                          \
      const ARAIOS_ETI_VECTOR(V, E)&, const araios::SolverOptions&, const ARAIOS_ETI_VECTOR(V, E)&);              \
  PREFIX template araios::SolveResult                                                                           \
  araios::SOLVER<E, araios::SpmvOperator<V, O, S, E>, ARAIOS_ETI_VECTOR(V, E), ARAIOS_ETI_VECTOR(V, E)>(         \
      const E&, const araios::SpmvOperator<V, O, S, E>&, const ARAIOS_ETI_VECTOR(V, E)&,                          \
      const ARAIOS_ETI_VECTOR(V, E)&, const araios::SolverOptions&);
#define ARAIOS_ETI_PAGERANK(PREFIX, V, O, S, E)                                                                    \
  PREFIX template araios::PageRankResult                                                                          \
  araios::pagerank<E, araios::SpmvOperator<V, O, S, E>, ARAIOS_ETI_VECTOR(V, E), ARAIOS_ETI_VECTOR(V, E)>(       \
      const E&, const araios::SpmvOperator<V, O, S, E>&, const ARAIOS_ETI_VECTOR(V, E)&,                          \
      const ARAIOS_ETI_VECTOR(V, E)&, const araios::PageRankOptions&);
#define ARAIOS_ETI_DECLARE_JACOBI(V, O, S, E) ARAIOS_ETI_SOLVER(extern, jacobi, V, O, S, E)
#define ARAIOS_ETI_DECLARE_CG(V, O, S, E) ARAIOS_ETI_SOLVER(extern, cg, V, O, S, E)
#define ARAIOS_ETI_DECLARE_GMRES(V, O, S, E) ARAIOS_ETI_SOLVER(extern, gmres, V, O, S, E)
#define ARAIOS_ETI_DECLARE_PAGERANK(V, O, S, E) ARAIOS_ETI_PAGERANK(extern, V, O, S, E)
#define ARAIOS_ETI_DEFINE_SOLVERS(V, O, S, E) \
  ARAIOS_ETI_DIAGONAL(, V, O, S, E)           \
  ARAIOS_ETI_SOLVER(, jacobi, V, O, S, E)     \
  ARAIOS_ETI_SOLVER(, cg, V, O, S, E)         \
  ARAIOS_ETI_SOLVER(, gmres, V, O, S, E)      \
  ARAIOS_ETI_PAGERANK(, V, O, S, E)

// The conversions between CSR and every format, and CSR from a host matrix. They move data and
// do no arithmetic, so they are compiled once for build time alone; araios/araios.hpp declares
// them.
#define ARAIOS_ETI_MATRIX(FORMAT, V, O, S, E) araios::FORMAT<V, O, S, E::device_type>
#define ARAIOS_ETI_FROM_CSR(PREFIX, NAME, FORMAT, V, O, S, E)                                              \
  PREFIX template ARAIOS_ETI_MATRIX(FORMAT, V, O, S, E) araios::NAME<E, V, O, S, E::device_type>(         \
      const E&, const ARAIOS_ETI_MATRIX(CsrMatrix, V, O, S, E)&, const araios::FormatOptions&);
#define ARAIOS_ETI_TO_CSR(PREFIX, NAME, FORMAT, V, O, S, E)                                                \
  PREFIX template ARAIOS_ETI_MATRIX(CsrMatrix, V, O, S, E) araios::NAME<E, V, O, S, E::device_type>(      \
      const E&, const ARAIOS_ETI_MATRIX(FORMAT, V, O, S, E)&);
#define ARAIOS_ETI_CONVERSIONS(PREFIX, V, O, S, E)                                                           \
  PREFIX template ARAIOS_ETI_MATRIX(CsrMatrix, V, O, S, E)                                                  \
  araios::csrFromHost<ARAIOS_ETI_MATRIX(CsrMatrix, V, O, S, E)>(const araios::io::HostMatrix&);            \
  PREFIX template ARAIOS_ETI_MATRIX(CooMatrix, V, O, S, E) araios::cooFromCsr<E, V, O, S, E::device_type>(   \
      const E&, const ARAIOS_ETI_MATRIX(CsrMatrix, V, O, S, E)&);                                           \
  PREFIX template ARAIOS_ETI_MATRIX(CscMatrix, V, O, S, E) araios::cscFromCsr<E, V, O, S, E::device_type>(   \
      const E&, const ARAIOS_ETI_MATRIX(CsrMatrix, V, O, S, E)&);                                           \
  PREFIX template ARAIOS_ETI_MATRIX(SellMatrix, V, O, S, E) araios::sellFromCsr<E, V, O, S, E::device_type>( \
      const E&, const ARAIOS_ETI_MATRIX(CsrMatrix, V, O, S, E)&, const araios::SellOptions&,                \
      const araios::FormatOptions&);                                                                         \
  PREFIX template ARAIOS_ETI_MATRIX(ScCsrMatrix, V, O, S, E)                                                \
  araios::scCsrFromCsr<E, V, O, S, E::device_type>(const E&, const ARAIOS_ETI_MATRIX(CsrMatrix, V, O, S, E)&, \
                                                   const araios::FormatOptions&, const araios::ScCsrOptions&); \
  ARAIOS_ETI_FROM_CSR(PREFIX, ellFromCsr, EllMatrix, V, O, S, E)                                             \
  ARAIOS_ETI_FROM_CSR(PREFIX, hybFromCsr, HybMatrix, V, O, S, E)                                             \
  ARAIOS_ETI_FROM_CSR(PREFIX, diaFromCsr, DiaMatrix, V, O, S, E)                                             \
  ARAIOS_ETI_FROM_CSR(PREFIX, jdsFromCsr, JdsMatrix, V, O, S, E)                                             \
  ARAIOS_ETI_FROM_CSR(PREFIX, sellFromCsr, SellMatrix, V, O, S, E)                                           \
  ARAIOS_ETI_FROM_CSR(PREFIX, brcFromCsr, BrcMatrix, V, O, S, E)                                             \
  ARAIOS_ETI_FROM_CSR(PREFIX, brcpFromCsr, BrcpMatrix, V, O, S, E)                                           \
  ARAIOS_ETI_FROM_CSR(PREFIX, vabFromCsr, VabMatrix, V, O, S, E)                                             \
  ARAIOS_ETI_TO_CSR(PREFIX, csrFromCoo, CooMatrix, V, O, S, E)                                               \
  ARAIOS_ETI_TO_CSR(PREFIX, csrFromCsc, CscMatrix, V, O, S, E)                                               \
  ARAIOS_ETI_TO_CSR(PREFIX, csrFromEll, EllMatrix, V, O, S, E)                                               \
  ARAIOS_ETI_TO_CSR(PREFIX, csrFromHyb, HybMatrix, V, O, S, E)                                               \
  ARAIOS_ETI_TO_CSR(PREFIX, csrFromDia, DiaMatrix, V, O, S, E)                                               \
  ARAIOS_ETI_TO_CSR(PREFIX, csrFromJds, JdsMatrix, V, O, S, E)                                               \
  ARAIOS_ETI_TO_CSR(PREFIX, csrFromSell, SellMatrix, V, O, S, E)                                             \
  ARAIOS_ETI_TO_CSR(PREFIX, csrFromBrc, BrcMatrix, V, O, S, E)                                               \
  ARAIOS_ETI_TO_CSR(PREFIX, csrFromBrcp, BrcpMatrix, V, O, S, E)                                             \
  ARAIOS_ETI_TO_CSR(PREFIX, csrFromScCsr, ScCsrMatrix, V, O, S, E)                                           \
  ARAIOS_ETI_TO_CSR(PREFIX, csrFromVab, VabMatrix, V, O, S, E)
#define ARAIOS_ETI_DECLARE_CONVERSIONS(V, O, S, E) ARAIOS_ETI_CONVERSIONS(extern, V, O, S, E)
#define ARAIOS_ETI_DEFINE_CONVERSIONS(V, O, S, E) ARAIOS_ETI_CONVERSIONS(, V, O, S, E)

// The diagonal of a CSR matrix, which the solvers divide by.
#define ARAIOS_ETI_DIAGONAL(PREFIX, V, O, S, E)                                                             \
  PREFIX template ARAIOS_ETI_VECTOR(V, E) araios::extractDiagonal<E, ARAIOS_ETI_MATRIX(CsrMatrix, V, O, S, E)>( \
      const E&, const ARAIOS_ETI_MATRIX(CsrMatrix, V, O, S, E)&);
#define ARAIOS_ETI_DECLARE_DIAGONAL(V, O, S, E) ARAIOS_ETI_DIAGONAL(extern, V, O, S, E)
