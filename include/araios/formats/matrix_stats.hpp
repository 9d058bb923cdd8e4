#pragma once
// Row-length statistics of a CSR matrix, computed on the device. They drive format choices
// (ELL width, HYB split, BRCP block width) and are printed by `araios info`.
#include <araios/formats/csr/csr.hpp>

#include <Kokkos_Core.hpp>

#include <cmath>
#include <cstdint>

namespace araios {

struct MatrixStats {
  std::int64_t rows = 0;
  std::int64_t cols = 0;
  std::int64_t nnz = 0;
  std::int64_t minRowLength = 0;
  std::int64_t maxRowLength = 0;
  double meanRowLength = 0;
  /// Population standard deviation of the row lengths.
  double stdRowLength = 0;
  std::int64_t emptyRows = 0;
  /// max |i - j| over the stored entries (0 for an empty or diagonal matrix).
  std::int64_t bandwidth = 0;
};

namespace Impl {

template <class PtrView>
struct RowLengthSquares {
  PtrView ptr;
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t i, std::int64_t& squares) const {
    const std::int64_t len = ptr(i + 1) - ptr(i);
    squares += len * len;
  }
};

template <class PtrView>
struct EmptyRows {
  PtrView ptr;
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t i, std::int64_t& empty) const {
    empty += ptr(i + 1) == ptr(i) ? 1 : 0;
  }
};

template <class PtrView>
struct RowLengthMin {
  PtrView ptr;
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t i, std::int64_t& lo) const {
    const std::int64_t len = ptr(i + 1) - ptr(i);
    if (len < lo) lo = len;
  }
};

template <class PtrView>
struct RowLengthMax {
  PtrView ptr;
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t i, std::int64_t& hi) const {
    const std::int64_t len = ptr(i + 1) - ptr(i);
    if (len > hi) hi = len;
  }
};

template <class PtrView, class IndexView>
struct RowBandwidth {
  PtrView ptr;
  IndexView col;
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t i, std::int64_t& band) const {
    for (auto k = ptr(i); k < ptr(i + 1); ++k) {
      const std::int64_t d = col(k) > i ? col(k) - i : i - col(k);
      if (d > band) band = d;
    }
  }
};

}  // namespace Impl

/// Statistics of a CSR matrix. All sums are exact integer sums, so the result does not depend
/// on the backend or the thread count.
template <class ExecSpace, class Csr>
MatrixStats computeStats(const ExecSpace& exec, const Csr& A) {
  MatrixStats s;
  s.rows = A.numRows;
  s.cols = A.numCols;
  s.nnz = A.nnz();
  if (s.rows == 0) return s;
  using Policy = Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>;
  std::int64_t squares = 0, empty = 0, lo = 0, hi = 0, band = 0;
  Kokkos::parallel_reduce("araios::stats::squares", Policy(exec, 0, s.rows),
                          Impl::RowLengthSquares<decltype(A.rowPtr)>{A.rowPtr}, squares);
  Kokkos::parallel_reduce("araios::stats::empty", Policy(exec, 0, s.rows), Impl::EmptyRows<decltype(A.rowPtr)>{A.rowPtr},
                          empty);
  Kokkos::parallel_reduce("araios::stats::min", Policy(exec, 0, s.rows),
                          Impl::RowLengthMin<decltype(A.rowPtr)>{A.rowPtr}, Kokkos::Min<std::int64_t>(lo));
  Kokkos::parallel_reduce("araios::stats::max", Policy(exec, 0, s.rows),
                          Impl::RowLengthMax<decltype(A.rowPtr)>{A.rowPtr}, Kokkos::Max<std::int64_t>(hi));
  Kokkos::parallel_reduce("araios::stats::bandwidth", Policy(exec, 0, s.rows),
                          Impl::RowBandwidth<decltype(A.rowPtr), decltype(A.colIdx)>{A.rowPtr, A.colIdx},
                          Kokkos::Max<std::int64_t>(band));
  exec.fence();
  s.minRowLength = lo;
  s.maxRowLength = hi;
  s.emptyRows = empty;
  s.bandwidth = band > 0 ? band : 0;  // the Max reduction starts from the lowest int64 when there are no entries
  s.meanRowLength = static_cast<double>(s.nnz) / static_cast<double>(s.rows);
  // Var = E[len^2] - E[len]^2, from exact integer sums; long double keeps the difference exact
  // enough for any realistic matrix.
  const long double meanSq = static_cast<long double>(squares) / s.rows;
  const long double mean = static_cast<long double>(s.nnz) / s.rows;
  const long double var = meanSq - mean * mean;
  s.stdRowLength = var > 0 ? static_cast<double>(std::sqrt(var)) : 0.0;
  return s;
}

}  // namespace araios
