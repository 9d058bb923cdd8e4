#pragma once
// The two arithmetics of csr-merge (csr_merge.hpp), which walks the same path and the same tree
// with either:
//   RoundedMergeSum    Fast and Deterministic: a segment stages each entry's rounded product,
//                      sums them from -0.0 and the tree adds the parts, each sum rounded. These
//                      operations are the definition of csr-merge's bits.
//   ExpansionMergeSum  Accurate, first pass: a segment stages each entry's value and x, sums
//                      them as an ExpansionRowSum, and the tree joins the parts' expansions; the
//                      row is stored correctly rounded, or NaN where the expansion cannot prove
//                      it (the exact pass then computes it). The cut into segments cannot change
//                      a decided value, so the bits are every other kernel's Accurate bits, and
//                      a row of a million entries is summed by its 62,500 segments instead of
//                      one thread.
// Each gives: Partial (a part of a row's sum), Staged (what staging keeps per entry),
// identity(), stage(a, x), add(partial, staged), join(left, right) and store(y, i, partial,
// alpha, beta), plus kTeamsPerSm, the occupancy the team kernel's launch bounds ask for.
#include <araios/detail/expansion_row_sum.hpp>
#include <araios/detail/spmv_dispatch.hpp>
#include <araios/primitives/fp.hpp>

#include <Kokkos_Core.hpp>

#include <cstdint>

namespace araios::Impl {

template <class Value>
struct RoundedMergeSum {
  using Partial = Value;
  using Staged = Value;
  /// The compiler keeps to 64 registers a thread for eight 128-thread teams an SM (left alone it
  /// took 94, which let five teams share an H100 SM, 31 % occupancy).
  static constexpr int kTeamsPerSm = 8;

  KOKKOS_INLINE_FUNCTION static Partial identity() { return sumIdentity<Value>(); }
  KOKKOS_INLINE_FUNCTION static Staged stage(Value a, Value x) { return unfusedProduct(a, x); }
  KOKKOS_INLINE_FUNCTION static void add(Partial& sum, const Staged& product) { sum = unfusedSum(sum, product); }
  KOKKOS_INLINE_FUNCTION static Partial join(const Partial& left, const Partial& right) {
    return unfusedSum(left, right);
  }
  template <class YView>
  KOKKOS_INLINE_FUNCTION static void store(const YView& y, std::int64_t i, const Partial& sum, Value alpha,
                                           Value beta) {
    storeRow(y, i, sum, alpha, beta);
  }
};

/// An entry as the Accurate pass stages it: the exact product needs both factors.
template <class Value>
struct MergeFactors {
  Value a;
  Value x;
};

template <class Value>
struct ExpansionMergeSum {
  using Partial = ExpansionRowSum<Value>;
  using Staged = MergeFactors<Value>;
  /// The expansion's registers and twice the staging leave room for four teams an SM.
  static constexpr int kTeamsPerSm = 4;

  KOKKOS_INLINE_FUNCTION static Partial identity() { return Partial(); }
  KOKKOS_INLINE_FUNCTION static Staged stage(Value a, Value x) { return Staged{a, x}; }
  KOKKOS_INLINE_FUNCTION static void add(Partial& sum, const Staged& entry) { sum.add(entry.a, entry.x); }
  KOKKOS_INLINE_FUNCTION static Partial join(const Partial& left, const Partial& right) {
    Partial joined = left;
    joined.join(right);
    return joined;
  }
  template <class YView>
  KOKKOS_INLINE_FUNCTION static void store(const YView& y, std::int64_t i, const Partial& sum, Value alpha,
                                           Value beta) {
    sum.store(y, i, alpha, beta);
  }
};

}  // namespace araios::Impl
