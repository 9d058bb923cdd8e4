#pragma once
// The host reference for SpMV: a plain loop in long double over the matrix as read, with the
// values and x first rounded to the kernel's value type (so the reference sees exactly the
// numbers the kernel sees). Independent of every kernel and format.
#include <araios/io/matrix_market.hpp>

#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

namespace araios {

struct ReferenceSpmv {
  std::vector<long double> y;          ///< alpha*A*x + beta*y0, in long double
  std::vector<long double> magnitude;  ///< |alpha|*sum_j |a_ij x_j| + |beta y0_i|: the scale of row i's rounding error
  std::vector<std::int64_t> rowLength;
};

template <class Value>
ReferenceSpmv referenceSpmv(const io::HostMatrix& A, const std::vector<Value>& x, Value alpha, Value beta,
                            const std::vector<Value>& y0) {
  ReferenceSpmv ref;
  ref.y.assign(A.numRows, 0.0L);
  ref.magnitude.assign(A.numRows, 0.0L);
  ref.rowLength.assign(A.numRows, 0);
  for (std::int64_t k = 0; k < A.nnz(); ++k) {
    const long double product =
        static_cast<long double>(static_cast<Value>(A.value[k])) * static_cast<long double>(x[A.col[k]]);
    ref.y[A.row[k]] += product;
    ref.magnitude[A.row[k]] += std::fabs(product);
    ref.rowLength[A.row[k]] += 1;
  }
  for (std::int64_t i = 0; i < A.numRows; ++i) {
    const long double yOld = beta == Value(0) ? 0.0L : static_cast<long double>(y0[i]);
    ref.y[i] = static_cast<long double>(alpha) * ref.y[i] + static_cast<long double>(beta) * yOld;
    ref.magnitude[i] = std::fabs(static_cast<long double>(alpha)) * ref.magnitude[i] +
                       std::fabs(static_cast<long double>(beta) * yOld);
  }
  return ref;
}

/// The rounding-error bound every kernel must meet, whatever its summation order: n products
/// summed in any order, scaled by alpha and added to beta*y, with at most three roundings
/// besides the n of the sum, lie within gamma_(n+3) * magnitude of the exact value, where
/// gamma_k = k*u / (1 - k*u) and u is the unit roundoff (Higham, Accuracy and Stability of
/// Numerical Algorithms, 2nd ed., section 3.1). The k * denorm_min term covers underflow.
template <class Value>
long double spmvErrorBound(std::int64_t rowLength, long double magnitude) {
  const long double u = std::numeric_limits<Value>::epsilon() / 2;
  const long double k = static_cast<long double>(rowLength + 3);
  return k * u / (1 - k * u) * magnitude + k * std::numeric_limits<Value>::denorm_min();
}

}  // namespace araios
