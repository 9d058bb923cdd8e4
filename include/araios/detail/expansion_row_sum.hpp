#pragma once
// The fast path of the Accurate mode: a row sum kept as a two-term floating-point expansion
// with error-free transformations (the approach of ExBLAS and ReproBLAS), which either proves
// its rounded result to be the correctly rounded one or gives up on the row.
//
//   add(a, x)   p + q = a*x exactly (TwoProduct through an FMA); hi + e = hi + p, then
//               e + q and lo + (e + q) by TwoSum as well. What the last two drop is known
//               exactly, and only its magnitude is kept (err), so a row whose arithmetic was
//               exact has err == 0 and its exact sum is hi + lo.
//   store(...)  alpha*(hi + lo) + beta*y_i by the same transformations, down to s + t and a
//               bound E on the distance to the exact value V (E == 0 when nothing was dropped).
//               s + t rounds to r; V rounds to r as well when |s + t - r| + E stays below half
//               an ulp of r (a quarter where r is a power of two and V lies below it in
//               magnitude). Then y_i = r, the correctly rounded value, whatever the order of the
//               additions was. With E == 0 in double, s is already V rounded to nearest (ties
//               to even), exact ties included.
//
// Otherwise (cancellation down to the error bound, a result near underflow or a product or
// result near overflow, a NaN or Inf anywhere, alpha == 0, an exactly zero sum with rounding on the way)
// store() writes NaN to y_i: the caller (accurateSpmv in detail/row_sum.hpp) finds those rows
// and computes them again with the exact accumulator (ExactRowSum). A row whose correctly
// rounded value is NaN is always one of them, so a NaN left by this pass always means "undecided".
//
// The bound holds for any order of the additions and whether or not a compiler fuses a*b + c
// (a fused result is only closer), so every backend accepts or rejects rows on its own and
// still writes the same bits.
#include <araios/detail/spmv_dispatch.hpp>
#include <araios/primitives/error_free.hpp>
#include <araios/primitives/fp.hpp>

#include <Kokkos_Core.hpp>

#include <cmath>

namespace araios::Impl {

/// Half the distance from r to its neighbour on the side of `towards` (a nonzero double that
/// says which side): the rounding boundary of r in Value's precision. r must be normal.
template <class Value>
KOKKOS_INLINE_FUNCTION double halfGapTowards(double r, double towards) {
  int exponent = 0;
  const double mantissa = ::frexp(r, &exponent);  // |mantissa| in [0.5, 1)
  const double ulp = ::ldexp(1.0, exponent - fp::Traits<Value>::digits);
  const bool powerOfTwo = ::fabs(mantissa) == 0.5;
  const bool downInMagnitude = (towards < 0) != (r < 0);
  return (powerOfTwo && downInMagnitude) ? ulp / 4 : ulp / 2;
}

template <class Value>
struct ExpansionRowSum {
  /// The row's sum is hi + lo + (at most err in magnitude, dropped on the way).
  double hi = 0, lo = 0, err = 0;
  bool undecided = false;
  /// Every product so far was -0.0 (true for none): an exactly zero sum is then -0.0, as in
  /// ExactRowSum and the IEEE sum of those terms.
  bool onlyNegativeZeros = true;

  KOKKOS_INLINE_FUNCTION void add(Value a, Value x) {
    const double da = static_cast<double>(a), dx = static_cast<double>(x);
    if (da == 0 || dx == 0) {
      if ((::copysign(1.0, da) < 0) == (::copysign(1.0, dx) < 0)) onlyNegativeZeros = false;
      if (!fp::isFinite(da) || !fp::isFinite(dx)) undecided = true;  // 0 * Inf
      return;
    }
    onlyNegativeZeros = false;
    double p, q;
    twoProduct(da, dx, p, q);
    const double magnitude = ::fabs(p);
    if (!(magnitude <= kExpansionMaxMagnitude)) {  // also NaN and Inf inputs
      undecided = true;
      return;
    }
    if (magnitude < kExpansionMinProduct) {
      // Near underflow q is not exact: keep p alone and count its whole rounding error,
      // relative and absolute (it matters only to a result near underflow, which the exact
      // path decides anyway).
      q = 0;
      err = unfusedSum(err, unfusedSum(magnitude * 0x1p-52, 0x1p-1074));
    }
    addPair(p, q);
  }

  /// Adds another part of the same row's sum (its other entries): other.hi and other.lo enter
  /// as p and q do in add(), other.err and the parts dropped here join err. The invariant holds
  /// for the joined sum, so a row may be cut into parts summed apart and joined in any order;
  /// only which rows stay undecided can depend on the cut, never a decided value.
  KOKKOS_INLINE_FUNCTION void join(const ExpansionRowSum& other) {
    undecided = undecided || other.undecided;
    onlyNegativeZeros = onlyNegativeZeros && other.onlyNegativeZeros;
    err = unfusedSum(err, other.err);
    addPair(other.hi, other.lo);
  }

  /// y_i = the correctly rounded alpha*S + beta*y_i when the expansion can prove it, else NaN
  /// (the row is then computed again exactly).
  template <class YView, class Index>
  KOKKOS_INLINE_FUNCTION void store(const YView& y, Index i, Value alpha, Value beta) const {
    if (hi == 0 && lo == 0 && err == 0 && !undecided) {
      // S is exactly zero: the rule of ExactRowSum (signed zero, then storeRow).
      storeRow(y, i, onlyNegativeZeros ? sumIdentity<Value>() : Value(0), alpha, beta);
      return;
    }
    const double da = static_cast<double>(alpha), db = static_cast<double>(beta);
    const double yOld = beta == Value(0) ? 0.0 : static_cast<double>(y(i));
    double result;
    if (undecided || da == 0 || !decide(da, db, yOld, result)) {
      y(i) = fp::quietNaN<Value>();
      return;
    }
    y(i) = static_cast<Value>(result);
  }

 private:
  /// hi + lo += p + q: p joins hi by TwoSum, the rest joins lo, and what the last two sums drop
  /// is kept in magnitude in err.
  KOKKOS_INLINE_FUNCTION void addPair(double p, double q) {
    double e, small, dropSmall, dropLo;
    twoSum(hi, p, hi, e);
    twoSum(e, q, small, dropSmall);
    twoSum(lo, small, lo, dropLo);
    err = unfusedSum(err, unfusedSum(::fabs(dropSmall), ::fabs(dropLo)));
  }

  KOKKOS_INLINE_FUNCTION static bool inRange(double v) {
    return ::fabs(v) <= kExpansionMaxMagnitude;  // false for NaN and Inf
  }
  KOKKOS_INLINE_FUNCTION static bool productInRange(double p) {
    const double m = ::fabs(p);
    return m == 0 || (m >= kExpansionMinProduct && m <= kExpansionMaxMagnitude);
  }

  /// The correctly rounded alpha*(hi + lo + d) + beta*yOld, |d| <= err (up to the rounding of
  /// err itself), into `result`, or false.
  KOKKOS_INLINE_FUNCTION bool decide(double da, double db, double yOld, double& result) const {
    if (!inRange(hi) || !inRange(lo) || !inRange(err) || !inRange(da) || !inRange(db) || !inRange(yOld)) return false;
    double sh, sl;
    twoSum(hi, lo, sh, sl);
    double p1, q1, p2, q2, p3 = 0, q3 = 0;
    twoProduct(da, sh, p1, q1);
    twoProduct(da, sl, p2, q2);
    if (!productInRange(p1) || !productInRange(p2)) return false;
    if (db != 0 && yOld != 0) {
      twoProduct(db, yOld, p3, q3);
      if (!productInRange(p3)) return false;
    }
    // V = p1 + p3 + (q1 + q3 + p2 + q2) + alpha*d: the small terms joined by TwoSum, their
    // dropped parts kept in magnitude.
    double s0, t0, a1, a2, a3, tail, f1, f2, f3, f4;
    twoSum(p1, p3, s0, t0);
    twoSum(t0, q1, a1, f1);
    twoSum(a1, q3, a2, f2);
    twoSum(a2, p2, a3, f3);
    twoSum(a3, q2, tail, f4);
    double s, t;
    twoSum(s0, tail, s, t);
    // Twice the computed magnitudes: the sums of magnitudes are themselves rounded.
    const double dropped = unfusedSum(unfusedSum(::fabs(f1), ::fabs(f2)), unfusedSum(::fabs(f3), ::fabs(f4)));
    // 2|alpha|err, plus a slack above what its product can lose to underflow.
    const double rowBound = err == 0 ? 0.0 : unfusedSum(2 * unfusedProduct(::fabs(da), err), 0x1p-1070);
    double bound = 2 * unfusedSum(rowBound, dropped);
    if (!inRange(s) || !inRange(bound)) return false;

    const double r = static_cast<double>(static_cast<Value>(s));
    if (::fabs(r) < ::ldexp(1.0, -fp::Traits<Value>::maxExponent + 4) ||
        ::fabs(r) > ::ldexp(1.0, fp::Traits<Value>::maxExponent - 2))
      return false;  // near underflow (subnormal gaps) or overflow: the exact path decides
    if (bound == 0 && (fp::Traits<Value>::digits == 53 || t == 0)) {
      // V == s + t exactly: in double s = RN(V); for float, V == s and r = RN(V) (one
      // rounding, ties to even included).
      result = r;
      return true;
    }
    // d = (s + t) - r: s - r is exact (Sterbenz), the sum with t by TwoSum.
    double d, fd;
    twoSum(unfusedSum(s, -r), t, d, fd);
    bound = unfusedSum(bound, 2 * ::fabs(fd));
    // The whole interval [r + d - bound, r + d + bound] must round to r, strictly inside (a
    // tie is left to the exact path).
    const double towards = d != 0 ? d : 1.0;
    if (!(unfusedSum(::fabs(d), bound) < halfGapTowards<Value>(r, towards))) return false;
    if (bound > ::fabs(d) && !(unfusedSum(bound, -::fabs(d)) < halfGapTowards<Value>(r, -towards))) return false;
    result = r;
    return true;
  }
};

}  // namespace araios::Impl
