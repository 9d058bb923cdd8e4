#pragma once
// Error-free transformations of doubles: a sum or a product as its rounded value plus the exact
// rest, for the floating-point expansions of Accurate mode (detail/expansion_row_sum.hpp, the
// rows of a product; primitives/exact_dot.hpp, the dot products). Each operation is rounded on
// its own (unfusedSum, unfusedProduct), so no backend can fuse or reorder them.
#include <araios/detail/spmv_dispatch.hpp>
#include <araios/primitives/fp.hpp>

#include <Kokkos_Core.hpp>

namespace araios::Impl {

/// Products below this magnitude may lose bits in TwoProduct (its error term could underflow),
/// and sums of a few thousand terms above the upper limit could overflow: the callers treat such
/// products apart (the row sum bounds the first kind's error and sends the second to its exact
/// path; the dot adds both as integers).
constexpr double kExpansionMinProduct = 0x1p-968;
constexpr double kExpansionMaxMagnitude = 0x1p+1000;

/// a + b == s + e exactly (Knuth's TwoSum: no precondition on the magnitudes, as long as no sum overflows).
KOKKOS_INLINE_FUNCTION void twoSum(double a, double b, double& s, double& e) {
  s = unfusedSum(a, b);
  const double bb = unfusedSum(s, -a);
  e = unfusedSum(unfusedSum(a, -unfusedSum(s, -bb)), unfusedSum(b, -bb));
}

/// a*b == p + q exactly, provided a*b is finite and not near underflow (kExpansionMinProduct).
KOKKOS_INLINE_FUNCTION void twoProduct(double a, double b, double& p, double& q) {
  p = unfusedProduct(a, b);
  q = fp::fma(a, b, -p);
}

}  // namespace araios::Impl
