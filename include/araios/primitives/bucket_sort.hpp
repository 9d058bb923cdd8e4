#pragma once
// Groups n items into buckets by an integer key and orders each bucket by a secondary key,
// on the device. This is the counting sort behind COO->CSR and CSR->CSC.
//
// The result does not depend on scheduling: items are scattered into their buckets with
// atomic counters (so the order inside a bucket is arbitrary), then each bucket is sorted by
// (secondary key, original position), which is a total order: by one thread where it is
// short, by all of them where it is long (primitives/long_bucket_sort.hpp).
#include <araios/primitives/integer_atomics.hpp>
#include <araios/primitives/long_bucket_sort.hpp>

#include <Kokkos_Core.hpp>

namespace araios::Impl {

/// Sorts perm[begin, end) by (secondary[perm[k]], perm[k]) with a heap sort: O(n log n) in the
/// worst case and no extra memory, for the short buckets one thread sorts alone.
template <class PermView, class SecondaryView>
struct SegmentHeapSort {
  using Index = typename PermView::value_type;
  PermView perm;
  SecondaryView secondary;
  Index begin;

  KOKKOS_INLINE_FUNCTION bool less(Index a, Index b) const { return bucketItemBefore(secondary, a, b); }
  KOKKOS_INLINE_FUNCTION void swap(Index a, Index b) const {
    const Index tmp = perm(begin + a);
    perm(begin + a) = perm(begin + b);
    perm(begin + b) = tmp;
  }
  KOKKOS_INLINE_FUNCTION void siftDown(Index root, Index size) const {
    while (true) {
      Index child = 2 * root + 1;
      if (child >= size) return;
      if (child + 1 < size && less(perm(begin + child), perm(begin + child + 1))) ++child;
      if (!less(perm(begin + root), perm(begin + child))) return;
      swap(root, child);
      root = child;
    }
  }
  KOKKOS_INLINE_FUNCTION void run(Index n) const {
    for (Index start = n / 2; start-- > 0;) siftDown(start, n);
    for (Index size = n; size-- > 1;) {
      swap(0, size);
      siftDown(0, size);
    }
  }
};

template <class Offset, class KeyView, class CountView>
struct CountKeys {
  KeyView key;
  CountView count;
  // An addition of one rather than an increment: the name that exists in Kokkos 3.4 and 4.x alike
  // (4.x dropped atomic_increment, 3.4 has no atomic_inc), at native speed for 64-bit counts too.
  KOKKOS_INLINE_FUNCTION void operator()(Offset i) const {
    atomicFetchAddInteger(&count(key(i)), typename CountView::value_type(1));
  }
};

template <class Offset, class PtrView>
struct ExclusiveScan {
  PtrView ptr;
  KOKKOS_INLINE_FUNCTION void operator()(Offset i, Offset& sum, bool final) const {
    const Offset c = ptr(i);
    if (final) ptr(i) = sum;
    sum += c;
  }
};

template <class Offset, class KeyView, class CursorView, class PermView>
struct ScatterIntoBuckets {
  KeyView key;
  CursorView cursor;
  PermView perm;
  KOKKOS_INLINE_FUNCTION void operator()(Offset i) const {
    perm(atomicFetchAddInteger(&cursor(key(i)), Offset(1))) = i;
  }
};

template <class Offset, class PtrView, class PermView, class SecondaryView>
struct SortBuckets {
  PtrView ptr;
  PermView perm;
  SecondaryView secondary;
  template <class Bucket>
  KOKKOS_INLINE_FUNCTION void operator()(Bucket b) const {
    if (isLongBucket(ptr, b)) return;  // sortLongBuckets
    SegmentHeapSort<PermView, SecondaryView>{perm, secondary, ptr(b)}.run(ptr(b + 1) - ptr(b));
  }
};

/// Fills ptr (numBuckets + 1 entries, like CSR's rowPtr) and perm (key.extent(0) entries):
/// bucket b holds the items perm[ptr[b]], ..., perm[ptr[b+1]-1], in increasing
/// (secondary, position) order. Every key must lie in [0, numBuckets).
template <class ExecSpace, class KeyView, class SecondaryView, class PtrView, class PermView>
void bucketSort(const ExecSpace& exec, std::int64_t numBuckets, const KeyView& key,
                const SecondaryView& secondary, const PtrView& ptr, const PermView& perm) {
  using Offset = typename PtrView::value_type;
  static_assert(std::is_same_v<Offset, typename PermView::value_type>,
                "ptr and perm must share the offset type");
  const Offset n = static_cast<Offset>(key.extent(0));
  Kokkos::deep_copy(exec, ptr, Offset(0));
  Kokkos::parallel_for("araios::bucketSort::count", Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<Offset>>(exec, 0, n),
                       CountKeys<Offset, KeyView, PtrView>{key, ptr});
  Kokkos::parallel_scan("araios::bucketSort::scan",
                        Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<Offset>>(exec, 0, Offset(numBuckets + 1)),
                        ExclusiveScan<Offset, PtrView>{ptr});
  PtrView cursor(Kokkos::view_alloc(Kokkos::WithoutInitializing, "araios::bucketSort::cursor"),
                 ptr.extent(0));
  Kokkos::deep_copy(exec, cursor, ptr);
  Kokkos::parallel_for("araios::bucketSort::scatter",
                       Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<Offset>>(exec, 0, n),
                       ScatterIntoBuckets<Offset, KeyView, PtrView, PermView>{key, cursor, perm});
  Kokkos::parallel_for("araios::bucketSort::sort",
                       Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>(exec, 0, numBuckets),
                       SortBuckets<Offset, PtrView, PermView, SecondaryView>{ptr, perm, secondary});
  sortLongBuckets(exec, numBuckets, ptr, perm, secondary);
}

}  // namespace araios::Impl
