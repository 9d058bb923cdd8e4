#pragma once
// The correctly rounded y = alpha*A*x + beta*y0, computed on the host with MPFR at a precision
// wide enough for every operation to be exact: the independent reference of the Accurate mode.
// Each product of two floats or doubles is exact in 2*53 bits; a row's sum is exact once the
// precision spans from its largest product's top bit to its smallest product's lowest bit
// (plus 64 bits of carries); alpha*S and beta*y0 are then exact too, and so is their sum at
// the precision that spans both. The one rounding is MPFR's conversion to Value (mpfr_get_d /
// mpfr_get_flt, round to nearest even, subnormals included).
//
// Signed zeros follow IEEE 754 addition: the sum starts at -0.0 (the sum of no terms), so a row
// whose products are all -0.0 (or that has none) sums to -0.0, and an exact cancellation gives
// +0.0.
#include <araios/io/matrix_market.hpp>

#include <mpfr.h>

#include <algorithm>
#include <cstdint>
#include <memory>
#include <type_traits>
#include <vector>

namespace araios::test {

/// Holds an mpfr_t of a given precision (MPFR objects are not copyable).
class MpfrNumber {
 public:
  explicit MpfrNumber(mpfr_prec_t precision) { mpfr_init2(value_, precision); }
  ~MpfrNumber() { mpfr_clear(value_); }
  MpfrNumber(const MpfrNumber&) = delete;
  MpfrNumber& operator=(const MpfrNumber&) = delete;
  mpfr_ptr get() { return value_; }

 private:
  mpfr_t value_;
};

/// Bits from the top bit of a nonzero finite MPFR number down to its lowest possible bit.
inline void widenSpan(mpfr_srcptr v, mpfr_exp_t& top, mpfr_exp_t& low, bool& any) {
  if (!mpfr_regular_p(v)) return;
  const mpfr_exp_t e = mpfr_get_exp(v);
  const mpfr_exp_t l = e - static_cast<mpfr_exp_t>(mpfr_get_prec(v));
  top = any ? std::max(top, e) : e;
  low = any ? std::min(low, l) : l;
  any = true;
}

template <class Value>
Value roundTo(mpfr_srcptr v) {
  if constexpr (std::is_same_v<Value, float>) {
    return mpfr_get_flt(v, MPFR_RNDN);
  } else {
    return static_cast<Value>(mpfr_get_d(v, MPFR_RNDN));
  }
}

template <class Value>
std::vector<Value> mpfrSpmv(const io::HostMatrix& A, const std::vector<Value>& x, Value alpha, Value beta,
                            const std::vector<Value>& y0) {
  constexpr mpfr_prec_t kProductBits = 2 * 53;
  constexpr mpfr_prec_t kCarryBits = 64;
  // Entries grouped by row, in file order within a row (the order cannot matter: all is exact).
  std::vector<std::int64_t> ptr(A.numRows + 1, 0), order(A.nnz());
  for (std::int64_t k = 0; k < A.nnz(); ++k) ++ptr[A.row[k] + 1];
  for (std::int64_t i = 0; i < A.numRows; ++i) ptr[i + 1] += ptr[i];
  std::vector<std::int64_t> cursor(ptr.begin(), ptr.end() - 1);
  for (std::int64_t k = 0; k < A.nnz(); ++k) order[cursor[A.row[k]]++] = k;

  std::vector<Value> y(A.numRows);
  for (std::int64_t i = 0; i < A.numRows; ++i) {
    // The products, and the span of their bits.
    std::vector<std::unique_ptr<MpfrNumber>> products;
    mpfr_exp_t top = 0, low = 0;
    bool any = false;
    for (std::int64_t q = ptr[i]; q < ptr[i + 1]; ++q) {
      const std::int64_t k = order[q];
      auto p = std::make_unique<MpfrNumber>(kProductBits);
      mpfr_set_d(p->get(), static_cast<double>(static_cast<Value>(A.value[k])), MPFR_RNDN);
      mpfr_mul_d(p->get(), p->get(), static_cast<double>(x[A.col[k]]), MPFR_RNDN);  // exact
      widenSpan(p->get(), top, low, any);
      products.push_back(std::move(p));
    }
    const mpfr_prec_t sumBits = any ? static_cast<mpfr_prec_t>(top - low) + kCarryBits : kProductBits;
    MpfrNumber sum(sumBits);
    mpfr_set_zero(sum.get(), -1);
    for (const auto& p : products) mpfr_add(sum.get(), sum.get(), p->get(), MPFR_RNDN);  // exact here
    MpfrNumber scaled(sumBits + 53);
    mpfr_mul_d(scaled.get(), sum.get(), static_cast<double>(alpha), MPFR_RNDN);  // exact
    if (beta == Value(0)) {
      y[i] = roundTo<Value>(scaled.get());
      continue;
    }
    MpfrNumber old(kProductBits);
    mpfr_set_d(old.get(), static_cast<double>(beta), MPFR_RNDN);
    mpfr_mul_d(old.get(), old.get(), static_cast<double>(y0[i]), MPFR_RNDN);  // exact
    mpfr_exp_t t = 0, l = 0;
    bool anyTerm = false;
    widenSpan(scaled.get(), t, l, anyTerm);
    widenSpan(old.get(), t, l, anyTerm);
    MpfrNumber total(anyTerm ? static_cast<mpfr_prec_t>(t - l) + 2 : kProductBits);
    mpfr_add(total.get(), scaled.get(), old.get(), MPFR_RNDN);  // exact
    y[i] = roundTo<Value>(total.get());
  }
  return y;
}

}  // namespace araios::test
