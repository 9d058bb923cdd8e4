#pragma once
// An exact fixed-point accumulator for sums of products of doubles (a "superaccumulator",
// after Kulisch's long accumulator and Collange, Defour, Graillat and Iakymchuk, "Numerical
// reproducibility for the parallel reduction on multi- and many-core architectures",
// Parallel Computing 49, 2015). It covers every bit a product of two finite doubles can have,
// so sums are exact and the one rounding happens at the end: the result is correctly rounded
// whatever the order, the thread count or the backend.
//
// Layout: kLimbs signed 64-bit limbs; limb k holds a digit of weight 2^(kLowestBit + 32k).
// Digits are 32 bits wide in 64-bit limbs so that carries can wait: a limb absorbs 2^31
// deposits of one digit each before it could overflow, and carries are propagated only when a
// chunk is finished (normalize). A normalized accumulator has limbs 0..kLimbs-2 in [0, 2^32)
// and the sign in the top limb (two's complement over the digits).
//
// Products are split exactly without relying on fma: each finite double is m * 2^q with an
// integer m < 2^53 (frexp and ldexp are exact), and m_x * m_y is formed from 32-bit halves in
// 64-bit integers. That stays exact for subnormals and for products beyond the double range,
// where the classic two-product x*y - fma(x, y, -x*y) is not.
#include <araios/primitives/fp.hpp>

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <cstring>

// Loops over all limbs stay rolled on the device. Left to itself, nvcc unrolls each of them in
// full (140 iterations) in every kernel that holds an accumulator: about 37,000 PTX lines per
// accurate-mode kernel, most of the library's CUDA compile time, and no speed in return (the
// limbs are indexed at run time, so they live in local memory either way). Integer arithmetic:
// the bits do not depend on it.
#if defined(__CUDA_ARCH__)
#define ARAIOS_ROLLED_LOOP _Pragma("unroll 1")
#else
#define ARAIOS_ROLLED_LOOP
#endif

// The accumulator's long routines (carries, sign, rounding) run once per row or once per 2^k
// products; inlined into every kernel that holds an accumulator, they multiply its code and
// its compile time several times over for no speed. They stay out of line. Integer arithmetic
// and exact operations only, so where they are compiled does not change a bit.
#define ARAIOS_OUT_OF_LINE_FUNCTION KOKKOS_INLINE_FUNCTION __attribute__((noinline))

namespace araios::Impl {

struct ExactAccumulatorLayout {
  static constexpr int kDigitBits = 32;
  /// The smallest double is 2^-1074, so a product of two splits (splitDouble) has its lowest
  /// bit at -2148 or above; -2272 is a multiple of the digit width below it, with room to spare.
  static constexpr int kLowestBit = -2272;
  /// Products stay below 2^2048 and a sum of at most 2^63 of them below 2^2111; 140 limbs
  /// reach bit 2208, which leaves room for the carries out of the top digit.
  static constexpr int kLimbs = 140;
};

/// An integer significand and a binary exponent: value = mantissa * 2^exponent.
struct ScaledInteger {
  std::uint64_t mantissa;
  int exponent;
};

/// The bits of a double.
KOKKOS_INLINE_FUNCTION std::uint64_t doubleBits(double a) {
#if defined(__CUDA_ARCH__)
  return static_cast<std::uint64_t>(__double_as_longlong(a));
#else
  std::uint64_t bits;
  std::memcpy(&bits, &a, sizeof bits);
  return bits;
#endif
}

/// |a| as m * 2^q with m < 2^53, for a finite double a, read from its bits: a normal double's
/// significand with its hidden bit and its unbiased exponent, a subnormal's significand at
/// 2^-1074 (zero gives m = 0). Exact, and a few integer operations where frexp and ldexp are
/// library calls on a CPU. (The pair differs from frexp's for subnormals, whose m frexp shifts
/// up; the value, all the accumulator sees, is the same.)
KOKKOS_INLINE_FUNCTION ScaledInteger splitDouble(double a) {
  constexpr std::uint64_t kFraction = (std::uint64_t(1) << 52) - 1;
  const std::uint64_t bits = doubleBits(a);
  const int biased = static_cast<int>((bits >> 52) & 0x7ff);
  const std::uint64_t fraction = bits & kFraction;
  if (biased == 0) return {fraction, -1074};
  return {fraction | (std::uint64_t(1) << 52), biased - 1075};
}

/// The integer v * 2^bit, v < 2^64, as digits of three consecutive limbs (limb, limb + 1 and
/// limb + 2), each below 2^32.
struct LimbDigits {
  int limb;
  std::int64_t digits[3];
};

KOKKOS_INLINE_FUNCTION LimbDigits limbDigits(std::uint64_t v, int bit) {
  using L = ExactAccumulatorLayout;
  const int rel = bit - L::kLowestBit;
  const int r = rel % L::kDigitBits;
  const std::uint64_t low = v << r;
  const std::uint64_t high = r == 0 ? 0 : v >> (64 - r);
  const std::uint64_t mask = 0xffffffffull;
  return {rel / L::kDigitBits,
          {static_cast<std::int64_t>(low & mask), static_cast<std::int64_t>(low >> 32), static_cast<std::int64_t>(high)}};
}

/// Adds (or subtracts) the integer v * 2^bit, v < 2^64, into three consecutive limbs.
KOKKOS_INLINE_FUNCTION void depositBits(std::int64_t* limbs, std::uint64_t v, int bit, bool negative) {
  const LimbDigits d = limbDigits(v, bit);
  for (int j = 0; j < 3; ++j) limbs[d.limb + j] += negative ? -d.digits[j] : d.digits[j];
}

/// The product (a * 2^qa) * (b * 2^qb), for integers a, b < 2^55 (the square root's midpoint
/// test squares 55-bit integers; products of doubles need 53), as three integers below 2^64 at
/// their bit positions: deposit(v, bit) is called for each, v * 2^bit.
template <class Deposit>
KOKKOS_INLINE_FUNCTION void splitProduct(ScaledInteger a, ScaledInteger b, const Deposit& deposit) {
  const std::uint64_t mask = 0xffffffffull;
  const std::uint64_t a0 = a.mantissa & mask, a1 = a.mantissa >> 32;  // a1 < 2^23
  const std::uint64_t b0 = b.mantissa & mask, b1 = b.mantissa >> 32;
  const int q = a.exponent + b.exponent;
  deposit(a0 * b0, q);                  // < 2^64
  deposit(a0 * b1 + a1 * b0, q + 32);   // < 2^56
  deposit(a1 * b1, q + 64);             // < 2^46
}

/// Adds +-(a * 2^qa) * (b * 2^qb) exactly, for integers a, b < 2^55.
KOKKOS_INLINE_FUNCTION void depositProduct(std::int64_t* limbs, ScaledInteger a, ScaledInteger b, bool negative) {
  if (a.mantissa == 0 || b.mantissa == 0) return;
  splitProduct(a, b, [&](std::uint64_t v, int bit) { depositBits(limbs, v, bit, negative); });
}

/// v as carry * 2^32 + digit with the digit in [0, 2^32): floor division by the digit base
/// without shifting a negative number (implementation-defined before C++20).
struct CarryAndDigit {
  std::int64_t carry;
  std::int64_t digit;
};

KOKKOS_INLINE_FUNCTION CarryAndDigit splitDigit(std::int64_t v) {
  constexpr std::int64_t kBase = std::int64_t(1) << ExactAccumulatorLayout::kDigitBits;
  std::int64_t c = v / kBase;
  std::int64_t digit = v - c * kBase;
  if (digit < 0) {
    digit += kBase;
    c -= 1;
  }
  return {c, digit};
}

/// Propagates carries so that limbs 0..kLimbs-2 hold digits in [0, 2^32) and the top limb
/// the signed rest.
ARAIOS_OUT_OF_LINE_FUNCTION void normalize(std::int64_t* limbs) {
  using L = ExactAccumulatorLayout;
  std::int64_t carry = 0;
  ARAIOS_ROLLED_LOOP
  for (int k = 0; k < L::kLimbs - 1; ++k) {
    const CarryAndDigit split = splitDigit(limbs[k] + carry);
    limbs[k] = split.digit;
    carry = split.carry;
  }
  limbs[L::kLimbs - 1] += carry;
}

KOKKOS_INLINE_FUNCTION void clear(std::int64_t* limbs) {
  ARAIOS_ROLLED_LOOP
  for (int k = 0; k < ExactAccumulatorLayout::kLimbs; ++k) limbs[k] = 0;
}

/// Bit `bit` (an absolute binary exponent) of a normalized, non-negative accumulator.
KOKKOS_INLINE_FUNCTION int bitAt(const std::int64_t* limbs, int bit) {
  using L = ExactAccumulatorLayout;
  const int rel = bit - L::kLowestBit;
  if (rel < 0 || rel >= L::kLimbs * L::kDigitBits) return 0;
  return static_cast<int>((limbs[rel / L::kDigitBits] >> (rel % L::kDigitBits)) & 1);
}

/// Whether any bit at or below `bit` is set, in a normalized, non-negative accumulator.
ARAIOS_OUT_OF_LINE_FUNCTION bool anyBitAtOrBelow(const std::int64_t* limbs, int bit) {
  using L = ExactAccumulatorLayout;
  const int rel = bit - L::kLowestBit;
  if (rel < 0) return false;
  const int full = rel / L::kDigitBits;  // limbs entirely below the limb holding `bit`
  for (int k = 0; k < full && k < L::kLimbs; ++k) {
    if (limbs[k] != 0) return true;
  }
  if (full >= L::kLimbs) return false;
  const int r = rel % L::kDigitBits;
  const std::uint64_t mask = (std::uint64_t(2) << r) - 1;  // bits 0..r
  return (static_cast<std::uint64_t>(limbs[full]) & mask) != 0;
}

/// Sign of a normalized accumulator: -1, 0 or +1.
ARAIOS_OUT_OF_LINE_FUNCTION int signOf(const std::int64_t* limbs) {
  using L = ExactAccumulatorLayout;
  if (limbs[L::kLimbs - 1] < 0) return -1;
  ARAIOS_ROLLED_LOOP
  for (int k = L::kLimbs - 1; k >= 0; --k) {
    if (limbs[k] != 0) return 1;
  }
  return 0;
}

/// Negates a normalized accumulator in place and normalizes it again.
ARAIOS_OUT_OF_LINE_FUNCTION void negate(std::int64_t* limbs) {
  ARAIOS_ROLLED_LOOP
  for (int k = 0; k < ExactAccumulatorLayout::kLimbs; ++k) limbs[k] = -limbs[k];
  normalize(limbs);
}

/// Position of the most significant set bit of a normalized, positive accumulator.
ARAIOS_OUT_OF_LINE_FUNCTION int topBit(const std::int64_t* limbs) {
  using L = ExactAccumulatorLayout;
  ARAIOS_ROLLED_LOOP
  for (int k = L::kLimbs - 1; k >= 0; --k) {
    if (limbs[k] != 0) {
      std::uint64_t d = static_cast<std::uint64_t>(limbs[k]);
      int b = -1;
      while (d != 0) {
        d >>= 1;
        ++b;
      }
      return L::kLowestBit + k * L::kDigitBits + b;
    }
  }
  return L::kLowestBit - 1;
}

/// Rounds a normalized, non-negative accumulator to the nearest value of the format `Value`
/// (ties to even), subnormals and overflow to infinity included. The result is exact in a
/// double (at most 24 or 53 significant bits), returned as double so that the caller's
/// conversion to float cannot round again.
template <class Value>
ARAIOS_OUT_OF_LINE_FUNCTION double roundToNearest(const std::int64_t* limbs) {
  using T = fp::Traits<Value>;
  if (signOf(limbs) == 0) return 0.0;
  const int top = topBit(limbs);
  if (top >= T::maxExponent) return HUGE_VAL;
  const int low = top - (T::digits - 1) > T::minUlpExponent ? top - (T::digits - 1) : T::minUlpExponent;
  std::uint64_t mantissa = 0;
  for (int b = top; b >= low; --b) mantissa = (mantissa << 1) | static_cast<std::uint64_t>(bitAt(limbs, b));
  const int roundBit = bitAt(limbs, low - 1);
  const bool sticky = anyBitAtOrBelow(limbs, low - 2);
  if (roundBit && (sticky || (mantissa & 1))) ++mantissa;
  const double result = ::ldexp(static_cast<double>(mantissa), low);  // exact: <= 2^digits * 2^low
  return result >= ::ldexp(1.0, T::maxExponent) ? HUGE_VAL : result;
}

/// Rounds the signed value of a normalized accumulator (destroyed) to nearest.
template <class Value>
ARAIOS_OUT_OF_LINE_FUNCTION double roundSignedToNearest(std::int64_t* limbs) {
  if (signOf(limbs) < 0) {
    negate(limbs);
    return -roundToNearest<Value>(limbs);
  }
  return roundToNearest<Value>(limbs);
}

/// A non-negative value of the format `Value` (held in a double) as m * 2^q with q its ulp
/// exponent, so that the neighbours are (m +- 1) * 2^q within a binade.
template <class Value>
KOKKOS_INLINE_FUNCTION ScaledInteger ulpSplit(double r) {
  using T = fp::Traits<Value>;
  if (r == 0) return {0, T::minUlpExponent};
  int e = 0;
  ::frexp(r, &e);  // r in [2^(e-1), 2^e)
  const int q = e - T::digits > T::minUlpExponent ? e - T::digits : T::minUlpExponent;
  return {static_cast<std::uint64_t>(::ldexp(r, -q)), q};
}

/// Sign of S - m^2 for the exact sum S in `limbs` (not modified) and m = mid.mantissa *
/// 2^mid.exponent; `work` is scratch of kLimbs limbs.
ARAIOS_OUT_OF_LINE_FUNCTION int compareWithSquare(const std::int64_t* limbs, ScaledInteger mid, std::int64_t* work) {
  ARAIOS_ROLLED_LOOP
  for (int k = 0; k < ExactAccumulatorLayout::kLimbs; ++k) work[k] = limbs[k];
  depositProduct(work, mid, mid, true);
  normalize(work);
  return signOf(work);
}

/// The correctly rounded square root of the exact, normalized, non-negative sum S in `limbs`,
/// in the format `Value` (held in a double). A first approximation comes from the square root
/// of S rounded at a scale where it cannot overflow or underflow; it lies within two ulps, and
/// is then moved to the neighbour that the exact comparisons of S with the squared midpoints
/// (m^2, exact in the accumulator) select. `work` is scratch of kLimbs limbs.
template <class Value>
ARAIOS_OUT_OF_LINE_FUNCTION double sqrtRoundToNearest(const std::int64_t* limbs, std::int64_t* work) {
  using T = fp::Traits<Value>;
  if (signOf(limbs) == 0) return 0.0;
  // S * 2^-shift lies in [1, 4) for an even shift, so its root is S's root * 2^(-shift/2).
  const int top = topBit(limbs);
  const int shift = top >= 0 ? top - top % 2 : top - ((top % 2) + 2) % 2;
  std::uint64_t head = 0;
  for (int b = top; b >= top - 60; --b) head = (head << 1) | static_cast<std::uint64_t>(bitAt(limbs, b));
  const double scaled = ::ldexp(static_cast<double>(head), top - 60 - shift);  // S * 2^-shift, ~1e-16 relative
  double r = ::ldexp(::sqrt(scaled), shift / 2);
  if (r > static_cast<double>(T::maxFinite)) r = static_cast<double>(T::maxFinite);
  r = static_cast<double>(static_cast<Value>(r));  // onto the format's grid, within an ulp or two
  const double limit = ::ldexp(1.0, T::maxExponent);
  // Each step moves one ulp towards the answer; the approximation is at most a few ulps off.
  constexpr int kMaxSteps = 16;
  for (int step = 0; step < kMaxSteps; ++step) {
    const ScaledInteger rs = ulpSplit<Value>(r);
    // Midpoint above r: (2m + 1) * 2^(q - 1); the next value up is (m + 1) * 2^q.
    const int above = compareWithSquare(limbs, {2 * rs.mantissa + 1, rs.exponent - 1}, work);
    if (above > 0 || (above == 0 && (rs.mantissa & 1))) {
      const double up = ::ldexp(static_cast<double>(rs.mantissa + 1), rs.exponent);
      if (up >= limit) return HUGE_VAL;
      if (above == 0) return up;  // a tie goes to the even neighbour
      r = up;
      continue;
    }
    if (above == 0 || r == 0) return r;
    // The value below r and the midpoint between it and r.
    const double down = static_cast<double>(r == ::ldexp(1.0, rs.exponent + T::digits - 1) && rs.exponent > T::minUlpExponent
                                                ? ::ldexp(static_cast<double>(2 * rs.mantissa - 1), rs.exponent - 1)
                                                : ::ldexp(static_cast<double>(rs.mantissa - 1), rs.exponent));
    const ScaledInteger ds = ulpSplit<Value>(down);
    const int below = compareWithSquare(limbs, {2 * ds.mantissa + 1, ds.exponent - 1}, work);
    if (below < 0 || (below == 0 && !(ds.mantissa & 1))) {
      r = down;
      if (below == 0) return r;
      continue;
    }
    return r;
  }
  return r;
}

}  // namespace araios::Impl
