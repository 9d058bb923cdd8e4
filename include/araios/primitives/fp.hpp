#pragma once
// Floating-point building blocks that give the same bits on every backend.
//
// Why explicit fma: nvcc fuses a*b + c into one fused multiply-add by default, while g++ for
// baseline x86-64 rounds the product and the sum separately (and g++ with -march=native fuses
// again). An expression written as a*b + c therefore has no fixed result across backends.
// Every multiply-add in the reductions, vector primitives and solvers of Araios is written as
// fp::fma(a, b, c), which is one correctly rounded operation on the CPU (glibc uses the FMA
// instruction where the CPU has one and an exact software path otherwise) and on the GPU. No
// product is ever an operand of a plain addition, so no compiler has anything left to fuse.
// Besides fma, the reproducible paths use only +, -, *, / and sqrt, which IEEE 754 rounds
// correctly on every backend (nvcc's defaults -prec-div=true -prec-sqrt=true; Araios is never
// built with fast-math). Library functions such as hypot or exp are not correctly rounded
// and differ between glibc and CUDA, so reproducible code does not call them.
#include <Kokkos_Core.hpp>

#include <cfloat>
#include <cmath>

namespace araios::fp {

KOKKOS_INLINE_FUNCTION double fma(double a, double b, double c) { return ::fma(a, b, c); }
KOKKOS_INLINE_FUNCTION float fma(float a, float b, float c) { return ::fmaf(a, b, c); }
KOKKOS_INLINE_FUNCTION double sqrt(double a) { return ::sqrt(a); }
KOKKOS_INLINE_FUNCTION float sqrt(float a) { return ::sqrtf(a); }
KOKKOS_INLINE_FUNCTION double abs(double a) { return ::fabs(a); }
KOKKOS_INLINE_FUNCTION float abs(float a) { return ::fabsf(a); }

/// The constants of a binary floating-point type that the exact accumulator and the solvers
/// need, usable in device code (std::numeric_limits is not, without relaxed constexpr).
template <class Value>
struct Traits;

template <>
struct Traits<double> {
  static constexpr int digits = 53;            ///< significand bits, the hidden bit included
  static constexpr int minUlpExponent = -1074; ///< exponent of the smallest subnormal
  static constexpr int maxExponent = 1024;     ///< every finite value is below 2^maxExponent
  static constexpr double maxFinite = DBL_MAX;
  static constexpr double epsilon = DBL_EPSILON;
};

template <>
struct Traits<float> {
  static constexpr int digits = 24;
  static constexpr int minUlpExponent = -149;
  static constexpr int maxExponent = 128;
  static constexpr float maxFinite = FLT_MAX;
  static constexpr float epsilon = FLT_EPSILON;
};

/// True for every value except NaN and +-Inf; independent of -ffinite-math style assumptions
/// about std::isfinite.
template <class Value>
KOKKOS_INLINE_FUNCTION bool isFinite(Value a) {
  return abs(a) <= Traits<Value>::maxFinite;
}

template <class Value>
KOKKOS_INLINE_FUNCTION Value infinity() {
  return Value(HUGE_VAL);
}

template <class Value>
KOKKOS_INLINE_FUNCTION Value quietNaN() {
  const Value inf = infinity<Value>();
  return inf - inf;
}

}  // namespace araios::fp
