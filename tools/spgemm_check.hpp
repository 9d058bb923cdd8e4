#pragma once
// The host side of `araios spgemm`: B's transpose, the count of intermediate products, and the
// check of a product against a reference of its own, a row-by-row Gustavson loop in long double
// on the host that shares no code with the library's product.
#include <araios/io/matrix_market.hpp>

#include <cstdint>

namespace araios::cli {

/// B^T, its entries sorted by row, then column (as the reader gives them).
io::HostMatrix hostTranspose(const io::HostMatrix& b);

struct ProductCount {
  std::int64_t products = 0;        ///< intermediate products a_ik*b_kj over all rows
  std::int64_t maxRowProducts = 0;  ///< the most of any one row
};

/// The intermediate products of A*B, or of A*B^T when `transposeB` (A's columns matching the rows
/// of B or B^T), from the patterns alone.
ProductCount countProducts(const io::HostMatrix& a, const io::HostMatrix& b, bool transposeB);

struct SpgemmCheck {
  /// max over C's entries of |c_ij - ref_ij| / |ref_ij|; where the reference is exactly zero
  /// (products that cancel), over sum_k |a_ik b_kj| instead, so cancellation does not divide by
  /// zero (and the plain difference where that is zero too).
  double maxRelError = 0;
  /// Whether C holds exactly the entries of the structural product (c_ij stored when some k has
  /// a_ik and b_kj stored).
  bool patternMatches = true;
  std::int64_t missingEntries = 0;  ///< in the structural product, not in C
  std::int64_t extraEntries = 0;    ///< in C, not in the structural product
  std::int64_t firstPatternRow = -1;
  /// Whether every entry lies within the rounding-error bound of a dot product of its length
  /// summed in any order: |c_ij - ref_ij| <= gamma_(n+1) * sum_k |a_ik b_kj|, n the products of
  /// the entry, gamma_k = k*u / (1 - k*u) (Higham, Accuracy and Stability of Numerical
  /// Algorithms, 2nd ed., section 3.1; the one step beyond n covers the reference's own
  /// rounding).
  bool withinBound = true;
  std::int64_t entriesOutsideBound = 0;
  std::int64_t firstOutsideRow = -1;
  double seconds = 0;
};

/// Compares C (entries sorted by row, then column) with A*B computed on the host in long double
/// from the values of A and B rounded to the product's value type (float when `singlePrecision`),
/// so that the reference sees exactly the numbers the product saw. Rows are shared among
/// `threads` host threads (0: every core); the result does not depend on their number.
SpgemmCheck checkSpgemm(const io::HostMatrix& a, const io::HostMatrix& b, const io::HostMatrix& c, bool singlePrecision,
                        int threads = 0);

}  // namespace araios::cli
