#pragma once
// Rows with few products on CUDA: one thread per row, everything in the thread's own small
// arrays. A team per row would leave most of its threads idle and launch a
// block per row; a 7-point stencil's A*A has 49 products and 25 entries per row, and millions of
// rows.
//
//   symbolic  the sorted rows of B that the row reads are merged (at most kTinyLists of them,
//             at most 2 * kTinyProducts products), repeats skipped, and the columns counted or
//             written;
//   numeric   C's row (at most kTinyProducts entries, from at most twice as many products) is loaded, and the products are added in
//             A's order, one thread doing them all: the deterministic order as it is defined.
// Fast and Deterministic run the same code; Accurate rows keep the team kernels.
#include <araios/detail/spmv_dispatch.hpp>
#include <araios/spgemm/spgemm_views.hpp>

#include <Kokkos_Core.hpp>

#include <cstdint>

namespace araios::Impl {

/// The most products of a row counted by one thread, and the most entries of a row of C
/// summed by one thread (whose products may be twice as many).
constexpr int kTinyProducts = 32;
/// The most rows of B a row counted by one thread may read (the merge scans their heads).
constexpr int kTinyLists = 16;

template <class Value, class Ordinal, class Offset, class ExecSpace, bool Fill>
struct TinySymbolicRows {
  using Device = typename ExecSpace::device_type;
  SpgemmViews<Value, Ordinal, Offset, Device> v;
  Kokkos::View<const Ordinal*, Device> rows;
  Kokkos::View<std::int64_t*, Device> counts;  ///< counting: row i's count goes to counts(i + 1)

  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t r) const {
    const Ordinal i = rows(r);
    // The rows of B that row i reads are sorted: merge them, the smallest head first, and
    // skip repeats. (At most kTinyLists rows of B, so each step scans a few heads.)
    Offset at[kTinyLists], end[kTinyLists];
    Ordinal head[kTinyLists];  // bCol(at[l]), or none past the end of the list
    int lists = 0;
    for (Offset p = v.aPtr(i); p < v.aPtr(i + 1); ++p) {
      const Ordinal k = v.aCol(p);
      if (v.bPtr(k) == v.bPtr(k + 1)) continue;
      at[lists] = v.bPtr(k);
      end[lists] = v.bPtr(k + 1);
      head[lists] = v.bCol(at[lists]);
      ++lists;
    }
    const Offset base = Fill ? v.cPtr(i) : Offset(0);
    std::int64_t n = 0;
    Ordinal last = 0;
    while (lists > 0) {
      int smallest = 0;
      for (int l = 1; l < lists; ++l) {
        if (head[l] < head[smallest]) smallest = l;
      }
      const Ordinal j = head[smallest];
      if (++at[smallest] < end[smallest]) {
        head[smallest] = v.bCol(at[smallest]);
      } else {  // the list is done: the last one takes its place
        --lists;
        at[smallest] = at[lists];
        end[smallest] = end[lists];
        head[smallest] = head[lists];
      }
      if (n > 0 && j == last) continue;
      if constexpr (Fill) v.cCol(base + n) = j;
      last = j;
      ++n;
    }
    if constexpr (!Fill) counts(static_cast<std::int64_t>(i) + 1) = n;
  }
};

template <class Value, class Ordinal, class Offset, class ExecSpace>
struct TinyNumericRows {
  using Device = typename ExecSpace::device_type;
  SpgemmViews<Value, Ordinal, Offset, Device> v;
  Kokkos::View<const Ordinal*, Device> rows;

  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t r) const {
    const Ordinal i = rows(r);
    Ordinal cols[kTinyProducts];
    Value sums[kTinyProducts];
    const Offset base = v.cPtr(i);
    const int n = static_cast<int>(v.cPtr(i + 1) - base);
    for (int s = 0; s < n; ++s) {
      cols[s] = v.cCol(base + s);
      sums[s] = sumIdentity<Value>();
    }
    for (Offset p = v.aPtr(i); p < v.aPtr(i + 1); ++p) {
      const Ordinal k = v.aCol(p);
      const Value a = v.aVal(p);
      for (Offset q = v.bPtr(k); q < v.bPtr(k + 1); ++q) {
        const int s = lowerBound(cols, n, v.bCol(q));
        accumulateProduct(sums[s], a, v.bVal(q));
      }
    }
    for (int s = 0; s < n; ++s) v.cVal(base + s) = sums[s];
  }
};

}  // namespace araios::Impl
