#pragma once
// The diagonal of A, which Jacobi iterates with and the Jacobi preconditioner divides by.
//
// SpMV cannot give the diagonal cheaply, so each format that wants to serve as a Jacobi
// operator without help specialises Impl::ExtractDiagonal (CSR, COO and CSC do, here). For any
// other format, pass the diagonal to the solver yourself: extract it from the CSR matrix the
// format was built from (what the command line does).
#include <araios/detail/light_parallel_for.hpp>
#include <araios/error.hpp>
#include <araios/formats/coo/coo.hpp>
#include <araios/formats/csc/csc.hpp>
#include <araios/formats/csr/csr.hpp>

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <sstream>
#include <string>
#include <type_traits>

namespace araios {
namespace Impl {

template <class Matrix>
struct ExtractDiagonal {
  static constexpr bool available = false;
};

/// Row i's diagonal entry, found by scanning its (sorted) columns; 0 when the row has none.
/// Duplicate diagonal entries (Araios never builds them) are added in storage order.
template <class Csr, class DView>
struct CsrDiagonalKernel {
  Csr A;
  DView d;
  KOKKOS_INLINE_FUNCTION void operator()(typename Csr::ordinal_type i) const {
    typename Csr::value_type sum = 0;
    for (auto k = A.rowPtr(i); k < A.rowPtr(i + 1); ++k) {
      if (A.colIdx(k) == i) sum += A.values(k);
    }
    d(i) = sum;
  }
};

template <class Csc, class DView>
struct CscDiagonalKernel {
  Csc A;
  DView d;
  KOKKOS_INLINE_FUNCTION void operator()(typename Csc::ordinal_type j) const {
    if (j >= A.numRows) return;
    typename Csc::value_type sum = 0;
    for (auto k = A.colPtr(j); k < A.colPtr(j + 1); ++k) {
      if (A.rowIdx(k) == j) sum += A.values(k);
    }
    d(j) = sum;
  }
};

/// COO entries are scattered: each diagonal entry is added atomically into a zeroed d. With
/// one entry per position (as Araios builds COO) that addition is exact, so d is reproducible.
template <class Coo, class DView>
struct CooDiagonalKernel {
  Coo A;
  DView d;
  KOKKOS_INLINE_FUNCTION void operator()(typename Coo::size_type k) const {
    if (A.rowIdx(k) == A.colIdx(k)) Kokkos::atomic_add(&d(A.rowIdx(k)), A.values(k));
  }
};

template <class V, class O, class S, class D>
struct ExtractDiagonal<CsrMatrix<V, O, S, D>> {
  static constexpr bool available = true;
  template <class ExecSpace, class DView>
  static void apply(const ExecSpace& exec, const CsrMatrix<V, O, S, D>& A, const DView& d) {
    Kokkos::parallel_for("araios::diagonal::csr", Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<O>>(exec, 0, A.numRows),
                         CsrDiagonalKernel<CsrMatrix<V, O, S, D>, DView>{A, d});
  }
};

template <class V, class O, class S, class D>
struct ExtractDiagonal<CscMatrix<V, O, S, D>> {
  static constexpr bool available = true;
  template <class ExecSpace, class DView>
  static void apply(const ExecSpace& exec, const CscMatrix<V, O, S, D>& A, const DView& d) {
    Kokkos::deep_copy(exec, d, V(0));
    Kokkos::parallel_for("araios::diagonal::csc", Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<O>>(exec, 0, A.numCols),
                         CscDiagonalKernel<CscMatrix<V, O, S, D>, DView>{A, d});
  }
};

template <class V, class O, class S, class D>
struct ExtractDiagonal<CooMatrix<V, O, S, D>> {
  static constexpr bool available = true;
  template <class ExecSpace, class DView>
  static void apply(const ExecSpace& exec, const CooMatrix<V, O, S, D>& A, const DView& d) {
    Kokkos::deep_copy(exec, d, V(0));
    lightParallelFor("araios::diagonal::coo", exec, static_cast<std::int64_t>(A.nnz()),
                     CooDiagonalKernel<CooMatrix<V, O, S, D>, DView>{A, d});
  }
};

template <class DView>
struct FirstBadDiagonal {
  DView d;
  bool requirePositive;
  KOKKOS_INLINE_FUNCTION bool bad(std::int64_t i) const {
    const auto v = d(i);
    // Not "v <= 0": a NaN must count as bad too.
    return requirePositive ? !(v > 0) : !(v < 0 || v > 0) || !(v - v == 0);
  }
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t i, std::int64_t& first) const {
    if (bad(i) && i < first) first = i;
  }
};

template <class DView>
struct CountBadDiagonal {
  FirstBadDiagonal<DView> test;
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t i, std::int64_t& count) const {
    if (test.bad(i)) ++count;
  }
};

}  // namespace Impl

/// Whether extractDiagonal works for this format (else the solvers need the diagonal passed).
template <class Matrix>
constexpr bool canExtractDiagonal = Impl::ExtractDiagonal<Matrix>::available;

/// The diagonal of a square matrix (zero where a row stores no diagonal entry).
template <class ExecSpace, class Matrix>
Kokkos::View<typename Matrix::value_type*, typename Matrix::device_type> extractDiagonal(const ExecSpace& exec,
                                                                                          const Matrix& A) {
  if (A.numRows != A.numCols) {
    throw InputError("the matrix is " + std::to_string(A.numRows) + " x " + std::to_string(A.numCols) +
                     "; expected a square matrix");
  }
  static_assert(canExtractDiagonal<Matrix>,
                "this format cannot give its diagonal; pass the diagonal to the solver explicitly "
                "(araios::extractDiagonal of the CSR matrix the format was built from)");
  Kokkos::View<typename Matrix::value_type*, typename Matrix::device_type> d("araios::diagonal", A.numRows);
  Impl::ExtractDiagonal<Matrix>::apply(exec, A, d);
  return d;
}

/// Refuses a diagonal that the method cannot divide by: a zero, missing or non-finite entry
/// (or, with requirePositive, one that is not positive, as SPD matrices have). The message
/// names the first such row (0-based, and 1-based as in the Matrix Market file), its value,
/// and how many rows are affected.
template <class ExecSpace, class DView>
void checkDiagonal(const ExecSpace& exec, const DView& d, bool requirePositive, const std::string& who) {
  const std::int64_t n = static_cast<std::int64_t>(d.extent(0));
  using Policy = Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>;
  const Impl::FirstBadDiagonal<DView> test{d, requirePositive};
  std::int64_t first = n;
  Kokkos::parallel_reduce("araios::diagonal::check", Policy(exec, 0, n), test, Kokkos::Min<std::int64_t>(first));
  if (first >= n) return;
  std::int64_t count = 0;
  Kokkos::parallel_reduce("araios::diagonal::count", Policy(exec, 0, n), Impl::CountBadDiagonal<DView>{test}, count);
  typename DView::non_const_value_type value;
  exec.fence();
  Kokkos::deep_copy(value, Kokkos::subview(d, first));
  std::ostringstream msg;
  msg << who << " needs " << (requirePositive ? "a positive diagonal" : "a nonzero, finite diagonal") << ", but row "
      << first << " (row " << first + 1 << " of the Matrix Market file) has "
      << (value == 0 ? "a zero or missing diagonal entry" : "the diagonal entry ");
  if (value != 0) msg << value;
  msg << " ("
      << count << (count == 1 ? " row" : " rows") << " in all); expected "
      << (requirePositive ? "a_ii > 0 on every row (as for a symmetric positive definite matrix)"
                          : "a_ii != 0 on every row");
  throw InputError(msg.str());
}

}  // namespace araios

// The compiled combinations (araios/instantiations.hpp) come from the library.
#ifdef ARAIOS_COMPILED_INSTANTIATIONS
#include <araios/instantiations.hpp>
ARAIOS_ETI_FOR_EACH(ARAIOS_ETI_DECLARE_DIAGONAL)
#endif
