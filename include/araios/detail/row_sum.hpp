#pragma once
// The per-row accumulators that the row-wise SpMV kernels are written over, one per mode:
//
//   RoundedRowSum  Fast and Deterministic: the entries in the kernel's order summed in the
//                  blocked CSR order (blocked_sum.hpp: chunks of 32 entries, each from -0.0
//                  with the product and the sum rounded, then the chunks' sums in levels of
//                  256), then y_i = storeRow(sum). A row of up to 32 entries is summed
//                  plainly, left to right.
//   ExpansionRowSum  Accurate, first pass: a floating-point expansion that proves the
//                  correctly rounded result or marks the row undecided (expansion_row_sum.hpp).
//   ExactRowSum    Accurate, for the undecided rows: every product a*x is added exactly into a long fixed-point
//                  accumulator (primitives/exact_accumulator.hpp) and y_i is the correctly
//                  rounded value of alpha*S + beta*y_i, S being the exact sum (store() says how,
//                  and where the rule has an edge). The order of the entries cannot matter, so
//                  every format gives the same bits.
//
// A kernel takes the accumulator as a template parameter and does
//   Acc acc;  for (each entry of row i) acc.add(a, x);  acc.store(y, i, alpha, beta);
// withRowAccumulator() picks the type from the mode and, for Accurate, runs the two passes.
#include <araios/detail/blocked_sum.hpp>
#include <araios/detail/expansion_row_sum.hpp>
#include <araios/detail/spmv_dispatch.hpp>
#include <araios/mode.hpp>
#include <araios/primitives/exact_accumulator.hpp>
#include <araios/primitives/fp.hpp>

#include <Kokkos_Core.hpp>

#include <cstdint>

namespace araios::Impl {

/// The blocked sum (add, value) with the store of a row accumulator.
template <class Value>
struct RoundedRowSum : BlockedRowSum<Value> {
  template <class YView, class Index>
  KOKKOS_INLINE_FUNCTION void store(const YView& y, Index i, Value alpha, Value beta) const {
    storeRow(y, i, this->value(), alpha, beta);
  }
};

/// Deposits per limb before carries must be propagated: each deposit adds less than 2^32 to a
/// limb, and a limb holds 2^63, so 2^30 deposits leave room to spare.
constexpr std::int64_t kExactDepositsBeforeNormalize = std::int64_t(1) << 30;

/// The Accurate mode's second accumulator holds alpha*S + beta*y_i times 2^kExactTotalShift
/// (a multiple of the digit width): alpha*S reaches down to 2^-3326, and the shift brings that
/// above the accumulator's floor of 2^-2272. Terms whose top bit would pass kExactTotalMaxBit
/// (after the shift) do not fit: those rows (|alpha*S| or |beta*y_i| beyond about 2^990) fall
/// back on IEEE arithmetic.
constexpr int kExactTotalShift = 1152;
constexpr int kExactTotalMaxBit = 2150;

/// roundSignedToNearest for an accumulator that holds a value times 2^shift: the rounding
/// (subnormals and overflow included) is that of the unscaled value.
template <class Value>
ARAIOS_OUT_OF_LINE_FUNCTION double roundShiftedToNearest(std::int64_t* limbs, int shift) {
  using T = fp::Traits<Value>;
  const int sign = signOf(limbs);
  if (sign == 0) return 0.0;
  if (sign < 0) negate(limbs);
  const int top = topBit(limbs) - shift;  // of the unscaled value
  double result = 0;
  if (top >= T::maxExponent) {
    result = HUGE_VAL;
  } else {
    const int low = top - (T::digits - 1) > T::minUlpExponent ? top - (T::digits - 1) : T::minUlpExponent;
    std::uint64_t mantissa = 0;
    for (int b = top; b >= low; --b) mantissa = (mantissa << 1) | static_cast<std::uint64_t>(bitAt(limbs, b + shift));
    const int roundBit = bitAt(limbs, low - 1 + shift);
    const bool sticky = anyBitAtOrBelow(limbs, low - 2 + shift);
    if (roundBit && (sticky || (mantissa & 1))) ++mantissa;
    result = ::ldexp(static_cast<double>(mantissa), low);
    if (result >= ::ldexp(1.0, T::maxExponent)) result = HUGE_VAL;
  }
  return sign < 0 ? -result : result;
}

template <class Value>
struct ExactRowSum {
  using L = ExactAccumulatorLayout;
  std::int64_t limbs[L::kLimbs];
  std::int64_t deposits;
  bool nan, posInf, negInf;
  /// Every product so far was -0.0 (true for no products): an exactly zero S is then -0.0,
  /// as an IEEE sum of those terms would be; otherwise +0.0.
  bool onlyNegativeZeros;

  KOKKOS_INLINE_FUNCTION ExactRowSum() : deposits(0), nan(false), posInf(false), negInf(false), onlyNegativeZeros(true) {
    clear(limbs);
  }

  KOKKOS_INLINE_FUNCTION void add(Value a, Value x) {
    const double da = static_cast<double>(a), dx = static_cast<double>(x);
    if (!fp::isFinite(da) || !fp::isFinite(dx)) {
      const double p = da * dx;  // Inf or NaN: exact in IEEE arithmetic
      onlyNegativeZeros = false;
      if (p != p) {
        nan = true;
      } else if (p > 0) {
        posInf = true;
      } else {
        negInf = true;
      }
      return;
    }
    const bool negative = (da < 0) != (dx < 0);
    if (da == 0 || dx == 0) {
      // A zero product: it adds nothing, only its sign can show (in an exactly zero S).
      const bool negativeZero = (::copysign(1.0, da) < 0) != (::copysign(1.0, dx) < 0);
      if (!negativeZero) onlyNegativeZeros = false;
      return;
    }
    onlyNegativeZeros = false;
    depositProduct(limbs, splitDouble(da), splitDouble(dx), negative);
    if (++deposits == kExactDepositsBeforeNormalize) {
      normalize(limbs);
      deposits = 0;
    }
  }

  /// y_i = the correctly rounded value of alpha*S + beta*y_i (alpha*S when beta == 0; y_i is
  /// then not read). How:
  ///   * alpha == 1: beta*y_i, a product of two floating-point numbers, is added exactly to S
  ///     and the total rounded once.
  ///   * otherwise S is cut exactly into chunks of 53 bits, s_1 + s_2 + ... + s_k (k is
  ///     about the bit span of S over 53: one to three for most rows), the products alpha*s_j
  ///     and beta*y_i are added exactly into a second accumulator (scaled by
  ///     2^kExactTotalShift), and that is rounded once.
  ///   * alpha == 0: y_i = beta*y_i rounded, through storeRow.
  /// Edges, where the IEEE operations are applied to the rounded S instead (so the result is
  /// then not always correctly rounded): a NaN or Inf among the products (S is then NaN or
  /// +-Inf), a non-finite alpha, beta or y_i, and |alpha*S| or |beta*y_i| of 2^990 or more.
  /// An exactly zero result is +0.0, except that an exactly zero S from -0.0 products only
  /// (or none) is -0.0 and gives y_i = alpha*(-0.0) + beta*y_i, as in the other modes.
  template <class YView, class Index>
  ARAIOS_OUT_OF_LINE_FUNCTION void store(const YView& y, Index i, Value alpha, Value beta) {
    if (nan || (posInf && negInf)) {
      storeRow(y, i, fp::quietNaN<Value>(), alpha, beta);
      return;
    }
    if (posInf || negInf) {
      storeRow(y, i, posInf ? fp::infinity<Value>() : -fp::infinity<Value>(), alpha, beta);
      return;
    }
    normalize(limbs);
    if (signOf(limbs) == 0) {
      storeRow(y, i, onlyNegativeZeros ? sumIdentity<Value>() : Value(0), alpha, beta);
      return;
    }
    const double yOld = beta == Value(0) ? 0.0 : static_cast<double>(y(i));
    const double da = static_cast<double>(alpha), db = static_cast<double>(beta);
    if (da == 0 || !fp::isFinite(da) || !fp::isFinite(db) || !fp::isFinite(yOld)) {
      // alpha == 0: y_i = round(beta*y_i), which storeRow computes exactly so.
      storeRow(y, i, static_cast<Value>(roundSignedToNearest<Value>(limbs)), alpha, beta);
      return;
    }
    if (da == 1.0) {
      if (db != 0 && yOld != 0) depositProduct(limbs, splitDouble(db), splitDouble(yOld), (db < 0) != (yOld < 0));
      normalize(limbs);
      y(i) = static_cast<Value>(roundSignedToNearest<Value>(limbs));
      return;
    }
    // alpha*S + beta*y_i exactly, in a second accumulator holding the total times
    // 2^kExactTotalShift: alpha*S reaches 2^-3326 (alpha's lowest bit times S's), below the
    // accumulator's floor, and the shift lifts it into range. S is cut into chunks of 53 bits
    // (exact, truncated from the top), each multiplied by alpha exactly.
    const bool negativeSum = signOf(limbs) < 0;
    if (negativeSum) negate(limbs);
    const int sumTop = topBit(limbs);
    const ScaledInteger alphaSplit = splitDouble(da);
    const bool withBeta = db != 0 && yOld != 0;
    int alphaTop = 0, betaTop = 0, yTop = 0;  // |v| < 2^top
    ::frexp(::fabs(da), &alphaTop);
    if (withBeta) {
      ::frexp(::fabs(db), &betaTop);
      ::frexp(::fabs(yOld), &yTop);
    }
    if (sumTop + 1 + alphaTop + kExactTotalShift >= kExactTotalMaxBit ||
        (withBeta && betaTop + yTop + kExactTotalShift >= kExactTotalMaxBit)) {
      // alpha*S or beta*y_i near or past the double range: IEEE arithmetic on the rounded S.
      if (negativeSum) negate(limbs);
      storeRow(y, i, static_cast<Value>(roundSignedToNearest<Value>(limbs)), alpha, beta);
      return;
    }
    std::int64_t total[L::kLimbs];
    clear(total);
    const ScaledInteger one{1, 0};
    while (signOf(limbs) != 0) {
      const int top = topBit(limbs);
      const int low = top - 52 > L::kLowestBit ? top - 52 : L::kLowestBit;
      std::uint64_t chunk = 0;
      for (int b = top; b >= low; --b) chunk = (chunk << 1) | static_cast<std::uint64_t>(bitAt(limbs, b));
      depositProduct(limbs, {chunk, low}, one, true);  // the remainder keeps the bits below `low`
      normalize(limbs);
      depositProduct(total, alphaSplit, {chunk, low + kExactTotalShift}, (da < 0) != negativeSum);
    }
    if (withBeta) {
      ScaledInteger ys = splitDouble(yOld);
      ys.exponent += kExactTotalShift;
      depositProduct(total, splitDouble(db), ys, (db < 0) != (yOld < 0));
    }
    normalize(total);
    // An exactly zero alpha*S + beta*y_i (S is not zero here) is +0.0, the IEEE sign of an
    // exact cancellation.
    y(i) = static_cast<Value>(roundShiftedToNearest<Value>(total, kExactTotalShift));
  }
};

/// The accumulator type for a mode: exact for Accurate, rounded otherwise.
template <class Acc>
struct RowAccumulatorTag {
  using type = Acc;
};

template <class YView>
using AccurateScratch = Kokkos::View<typename YView::non_const_value_type*, typename YView::memory_space>;

/// dst(i) = src(i), for views of any layout.
template <class Dst, class Src>
struct CopyEntries {
  Dst dst;
  Src src;
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t i) const { dst(i) = src(i); }
};

/// Counts the rows the expansion pass left undecided (NaN).
template <class YView>
struct CountUndecided {
  YView y;
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t i, std::int64_t& count) const {
    const auto v = y(i);
    if (v != v) ++count;
  }
};

/// y(i) = exact(i) where the expansion pass left y(i) undecided.
template <class YView, class Exact>
struct MergeUndecided {
  YView y;
  Exact exact;
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t i) const {
    const auto v = y(i);
    if (v != v) y(i) = exact(i);
  }
};

/// Accurate mode of a row-wise kernel, in two passes:
///   1. launch(ExpansionRowSum, y): each row's correctly rounded value where the floating-point
///      expansion proves it, NaN where it cannot (detail/expansion_row_sum.hpp);
///   2. only if some row is NaN: launch(ExactRowSum, scratch) on a copy of the old y, and the
///      undecided rows take their values from it.
/// Either way every y_i is the correctly rounded value. Pass 2 costs a full exact product; on
/// ordinary data few rows, usually none, need it (cancellation down to the rounding errors of
/// the row, products near underflow, NaN or Inf). The count of undecided rows is the one
/// value that returns to the host.
template <class Value, class ExecSpace, class YView, class Launch>
void accurateSpmv(const ExecSpace& exec, const YView& y, Value beta, const Launch& launch) {
  using Range = Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>;
  using Scratch = AccurateScratch<YView>;
  const std::int64_t n = static_cast<std::int64_t>(y.extent(0));
  Scratch yOld;
  if (beta != Value(0)) {
    yOld = Scratch(Kokkos::view_alloc(Kokkos::WithoutInitializing, "araios::spmv::accurate::y_old"), n);
    Kokkos::parallel_for("araios::spmv::accurate::save_y", Range(exec, 0, n), CopyEntries<Scratch, YView>{yOld, y});
  }
  launch(RowAccumulatorTag<ExpansionRowSum<Value>>{}, y);
  std::int64_t undecided = 0;
  Kokkos::parallel_reduce("araios::spmv::accurate::count_undecided", Range(exec, 0, n), CountUndecided<YView>{y},
                          undecided);
  if (undecided == 0) return;
  Scratch exact(Kokkos::view_alloc(Kokkos::WithoutInitializing, "araios::spmv::accurate::exact"), n);
  if (beta != Value(0))
    Kokkos::parallel_for("araios::spmv::accurate::restore_y", Range(exec, 0, n), CopyEntries<Scratch, Scratch>{exact, yOld});
  launch(RowAccumulatorTag<ExactRowSum<Value>>{}, exact);
  Kokkos::parallel_for("araios::spmv::accurate::merge", Range(exec, 0, n), MergeUndecided<YView, Scratch>{y, exact});
}

/// Launches a row-wise kernel with the accumulator of `mode`: launch(tag, yTarget) runs the
/// kernel with `typename decltype(tag)::type` into yTarget (y itself, or for the Accurate
/// mode's exact pass a scratch vector holding the old y).
template <class Value, class ExecSpace, class YView, class Launch>
void withRowAccumulator(const ExecSpace& exec, Mode mode, const YView& y, Value beta, const Launch& launch) {
  if (mode == Mode::Accurate) {
    accurateSpmv<Value>(exec, y, beta, launch);
  } else {
    launch(RowAccumulatorTag<RoundedRowSum<Value>>{}, y);
  }
}

}  // namespace araios::Impl
