#pragma once
// The arithmetic of csr-merge (csr_merge.hpp), apart from the path and the tree it walks:
//   RoundedMergeSum    Fast and Deterministic: a segment stages each entry's rounded product,
//                      sums them from -0.0 and the tree adds the parts, each sum rounded. These
//                      operations are the definition of csr-merge's bits.
// Accurate mode does not walk the merge path: it runs the CSR Accurate product
// (csr_accurate.hpp). An arithmetic gives: Partial (a part of a row's sum), Staged (what staging keeps per entry),
// identity(), stage(a, x), add(partial, staged), join(left, right) and store(y, i, partial,
// alpha, beta), plus kTeamsPerSm, the occupancy the team kernel's launch bounds ask for.
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
  /// took 94, which let five teams share an H100 SM, 31 % occupancy). Ten an SM (48 registers) run
  /// 1.27 to 1.43x slower on an H100; twelve no longer fit a 128-thread team; four teams of 256
  /// threads run 1.02 to 1.13x slower (bench/results/nvidia-h100/merge_one_launch).
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

}  // namespace araios::Impl
