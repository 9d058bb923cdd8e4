#pragma once
// A CSR operator whose row sums are explicit fma chains: bitwise identical on CPU and GPU (the
// product of each row is one fma chain from zero, in CSR order), so a host loop reproduces its
// bits exactly. It also shows that the solvers take any operator with value_type, device_type,
// numRows(), numCols() and apply(exec, x, y).
#include <araios/primitives/fp.hpp>

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

namespace araios::test {

template <class Csr, class XView, class YView>
struct FmaCsrKernel {
  using Value = typename Csr::value_type;
  Csr A;
  XView x;
  YView y;
  Value alpha, beta;
  KOKKOS_INLINE_FUNCTION void operator()(typename Csr::ordinal_type i) const {
    Value sum = 0;
    for (auto k = A.rowPtr(i); k < A.rowPtr(i + 1); ++k) sum = fp::fma(A.values(k), x(A.colIdx(k)), sum);
    y(i) = beta == Value(0) ? alpha * sum : fp::fma(alpha, sum, beta * y(i));
  }
};

/// A user's own operator: what the solvers need of one (value_type, device_type, numRows(),
/// numCols(), apply(exec, x, y)); the diagonal is passed to the solver.
template <class Csr>
struct FmaCsrOperator {
  using value_type = typename Csr::value_type;
  using device_type = typename Csr::device_type;
  Csr csr;
  std::int64_t numRows() const { return csr.numRows; }
  std::int64_t numCols() const { return csr.numCols; }
  template <class ExecSpace, class XView, class YView>
  void apply(const ExecSpace& exec, const XView& x, const YView& y) const {
    Kokkos::parallel_for("test::fma_csr",
                         Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<typename Csr::ordinal_type>>(exec, 0, csr.numRows),
                         FmaCsrKernel<Csr, XView, YView>{csr, x, y, value_type(1), value_type(0)});
  }
};

/// y = A x as the operator forms it, on the host: one fma chain from zero per row, in CSR order
/// (`HostMatrix` sorted by row, then column, as the readers and generators leave it).
template <class HostMatrix>
void hostFmaProduct(const HostMatrix& A, const std::vector<double>& x, std::vector<double>& y) {
  std::fill(y.begin(), y.end(), 0.0);
  for (std::int64_t k = 0; k < A.nnz(); ++k) y[A.row[k]] = std::fma(A.value[k], x[A.col[k]], y[A.row[k]]);
}

}  // namespace araios::test
