#pragma once
// The inner walk of Accurate mode's split rows (csr_accurate_lanes.hpp, csr_long_rows.hpp and
// the CUDA lanes kernel): one thread's share of a run of CSR entries, every `stride`-th from
// `first`, summed into an ExpansionRowSum. Batch entries are loaded, with their x, before any
// is added, so their loads are in flight together where a plain loop would wait for each
// column before the next entry.
#include <araios/detail/expansion_row_sum.hpp>

#include <Kokkos_Core.hpp>

#include <cstdint>

namespace araios::Impl {

/// The expansion of A's entries first, first + stride, ... below end, Batch at a time.
template <int Batch, class Csr, class XView>
KOKKOS_INLINE_FUNCTION ExpansionRowSum<typename Csr::value_type> stridedExpansion(const Csr& A, const XView& x,
                                                                                   std::int64_t first, std::int64_t end,
                                                                                   std::int64_t stride) {
  using Value = typename Csr::value_type;
  ExpansionRowSum<Value> sum;
  std::int64_t k = first;
  for (; k + (Batch - 1) * stride < end; k += Batch * stride) {
    Value a[Batch], b[Batch];
    for (int u = 0; u < Batch; ++u) a[u] = A.values(k + u * stride);
    for (int u = 0; u < Batch; ++u) b[u] = x(A.colIdx(k + u * stride));
    for (int u = 0; u < Batch; ++u) sum.add(a[u], b[u]);
  }
  for (; k < end; k += stride) sum.add(A.values(k), x(A.colIdx(k)));
  return sum;
}

}  // namespace araios::Impl
