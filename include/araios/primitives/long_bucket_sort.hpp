#pragma once
// Orders the long buckets of the counting sort (primitives/bucket_sort.hpp) with every thread.
//
// The counting sort scatters items into their buckets with atomic cursors, so a bucket's order
// is arbitrary until it is sorted by (secondary key, position). One thread heap-sorting each
// bucket is right for rows and columns of tens of entries, but a full row of COO (10^6
// entries) or a dense column for CSC kept one GPU thread busy for seconds. Buckets longer than
// kBucketSortedAlone are merge-sorted instead, in passes of doubling run width: every item of
// every long bucket finds its place in the merge of its run with the neighbouring one by a
// binary search of that run, one launch per pass. (secondary key, position) is a strict total
// order, so the result is the heap sort's, whatever the schedule.
#include <araios/detail/device_memory.hpp>

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <string>

namespace araios::Impl {

/// Buckets of up to this many items are heap-sorted by one thread; longer ones are merge-sorted.
constexpr std::int64_t kBucketSortedAlone = 512;

/// Whether item a precedes item b in a sorted bucket: by secondary key, then by position.
template <class SecondaryView, class Index>
KOKKOS_INLINE_FUNCTION bool bucketItemBefore(const SecondaryView& secondary, Index a, Index b) {
  const auto ka = secondary(a), kb = secondary(b);
  return ka < kb || (ka == kb && a < b);
}

template <class PtrView>
KOKKOS_INLINE_FUNCTION bool isLongBucket(const PtrView& ptr, std::int64_t b) {
  return static_cast<std::int64_t>(ptr(b + 1) - ptr(b)) > kBucketSortedAlone;
}

template <class Offset, class PtrView>
struct CountLongBuckets {
  PtrView ptr;
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t b, Offset& count) const {
    if (isLongBucket(ptr, b)) ++count;
  }
};

/// longBucket[i] = the i-th long bucket, in bucket order.
template <class Offset, class PtrView, class ListView>
struct ListLongBuckets {
  PtrView ptr;
  ListView longBucket;
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t b, Offset& index, bool final) const {
    if (!isLongBucket(ptr, b)) return;
    if (final) longBucket(index) = static_cast<Offset>(b);
    ++index;
  }
};

/// Where flat item f lies: its long bucket's first position in perm and in the flat buffer,
/// and the bucket's length.
template <class Offset>
struct LongBucketSpan {
  Offset first, flatFirst, length;
};

/// The long buckets, in bucket order: longBucket[i] is the i-th, and longStart[i] the items of
/// those before it (numLong + 1 entries, the last the total) once LongBucketStarts has run.
template <class Offset, class PtrView, class ListView>
struct LongBuckets {
  PtrView ptr;
  ListView longBucket, longStart;
  Offset numLong;

  /// The length of the i-th long bucket (0 past the last).
  KOKKOS_INLINE_FUNCTION Offset length(Offset i) const {
    return i < numLong ? ptr(longBucket(i) + 1) - ptr(longBucket(i)) : Offset(0);
  }
  KOKKOS_INLINE_FUNCTION LongBucketSpan<Offset> spanOf(Offset f) const {
    Offset lo = 0, hi = numLong;  // the last i with longStart(i) <= f
    while (hi - lo > 1) {
      const Offset mid = lo + (hi - lo) / 2;
      if (longStart(mid) <= f) lo = mid;
      else hi = mid;
    }
    return {ptr(longBucket(lo)), longStart(lo), longStart(lo + 1) - longStart(lo)};
  }
};

/// longStart[i] = the items of the long buckets before the i-th: an exclusive scan of their
/// lengths, whose entry numLong holds the total.
template <class Offset, class Buckets>
struct LongBucketStarts {
  Buckets buckets;
  KOKKOS_INLINE_FUNCTION void operator()(Offset i, Offset& sum, bool final) const {
    const Offset len = buckets.length(i);
    if (final) buckets.longStart(i) = sum;
    sum += len;
  }
};

template <class Offset, class Buckets>
struct LongestLongBucket {
  Buckets buckets;
  KOKKOS_INLINE_FUNCTION void operator()(Offset i, Offset& longest) const {
    if (buckets.length(i) > longest) longest = buckets.length(i);
  }
};

/// One merge pass over the long buckets' items, from perm (bucket positions) to the flat
/// buffer (FromBuckets) or back. Runs of `width` items are sorted; each pair of neighbouring
/// runs becomes one sorted run of 2 * width.
template <class Offset, class Buckets, class PermView, class SecondaryView, bool FromBuckets>
struct MergeLongBucketRuns {
  Buckets buckets;
  PermView perm, flat;
  SecondaryView secondary;
  Offset width;

  KOKKOS_INLINE_FUNCTION Offset source(const LongBucketSpan<Offset>& s, Offset q) const {
    if constexpr (FromBuckets) return perm(s.first + q);
    else return flat(s.flatFirst + q);
  }

  KOKKOS_INLINE_FUNCTION void operator()(Offset f) const {
    // Positions inside the bucket in 64 bits: a partner run's end may pass a 32-bit offset's range.
    const LongBucketSpan<Offset> s = buckets.spanOf(f);
    const std::int64_t o = f - s.flatFirst, w = width, length = s.length;
    const Offset item = source(s, static_cast<Offset>(o));
    const std::int64_t run = o / w;
    const std::int64_t partnerFirst = (run ^ 1) * w;
    std::int64_t place = o;
    if (partnerFirst < length) {
      const std::int64_t partnerEnd = partnerFirst + w < length ? partnerFirst + w : length;
      std::int64_t a = partnerFirst, b = partnerEnd;  // the partner run's items that precede this one
      while (a < b) {
        const std::int64_t mid = a + (b - a) / 2;
        if (bucketItemBefore(secondary, source(s, static_cast<Offset>(mid)), item)) a = mid + 1;
        else b = mid;
      }
      place = (run & ~std::int64_t(1)) * w + (o - run * w) + (a - partnerFirst);
    }
    if constexpr (FromBuckets) flat(s.flatFirst + place) = item;
    else perm(s.first + place) = item;
  }
};

/// Copies the flat buffer back to the long buckets' positions in perm.
template <class Offset, class Buckets, class PermView>
struct PlaceLongBuckets {
  Buckets buckets;
  PermView perm, flat;
  KOKKOS_INLINE_FUNCTION void operator()(Offset f) const {
    const LongBucketSpan<Offset> s = buckets.spanOf(f);
    perm(s.first + f - s.flatFirst) = flat(f);
  }
};

/// Sorts every bucket of more than kBucketSortedAlone items by (secondary, position), in place
/// in perm; shorter buckets are left alone.
template <class ExecSpace, class PtrView, class PermView, class SecondaryView>
void sortLongBuckets(const ExecSpace& exec, std::int64_t numBuckets, const PtrView& ptr, const PermView& perm,
                     const SecondaryView& secondary) {
  using Offset = typename PtrView::value_type;
  using ListView = Kokkos::View<Offset*, typename PtrView::device_type>;
  using BucketPolicy = Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>;
  using ItemPolicy = Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<Offset>>;
  Offset numLong = 0;
  Kokkos::parallel_reduce("araios::bucketSort::countLong", BucketPolicy(exec, 0, numBuckets),
                          CountLongBuckets<Offset, PtrView>{ptr}, numLong);
  if (numLong == 0) return;

  ListView longBucket(Kokkos::view_alloc(Kokkos::WithoutInitializing, "araios::bucketSort::longBucket"), numLong);
  ListView longStart(Kokkos::view_alloc(Kokkos::WithoutInitializing, "araios::bucketSort::longStart"), numLong + 1);
  Kokkos::parallel_scan("araios::bucketSort::listLong", BucketPolicy(exec, 0, numBuckets),
                        ListLongBuckets<Offset, PtrView, ListView>{ptr, longBucket});
  using Buckets = LongBuckets<Offset, PtrView, ListView>;
  const Buckets buckets{ptr, longBucket, longStart, numLong};
  Kokkos::parallel_scan("araios::bucketSort::longStarts", ItemPolicy(exec, 0, numLong + 1),
                        LongBucketStarts<Offset, Buckets>{buckets});
  Offset longest = 0;
  Kokkos::parallel_reduce("araios::bucketSort::longest", ItemPolicy(exec, 0, numLong),
                          LongestLongBucket<Offset, Buckets>{buckets}, Kokkos::Max<Offset>(longest));
  Offset items = 0;
  Kokkos::deep_copy(items, Kokkos::subview(longStart, numLong));
  // The merge's second buffer can be as large as the permutation itself (one long row holding
  // every entry): refused with the bytes it needs rather than failing in the allocation.
  requireMemory(exec, static_cast<std::int64_t>(items) * static_cast<std::int64_t>(sizeof(Offset)),
                "sorting a counting sort's " + groupedDigits(numLong) + " buckets of more than " +
                    std::to_string(kBucketSortedAlone) + " items (" + groupedDigits(items) + " items in all)");

  PermView flat(Kokkos::view_alloc(Kokkos::WithoutInitializing, "araios::bucketSort::longItems"), items);
  bool inFlat = false;
  for (std::int64_t w = 1; w < longest; w *= 2, inFlat = !inFlat) {
    const Offset width = static_cast<Offset>(w);
    if (!inFlat) {
      Kokkos::parallel_for("araios::bucketSort::mergeLong", ItemPolicy(exec, 0, items),
                           MergeLongBucketRuns<Offset, Buckets, PermView, SecondaryView, true>{
                               buckets, perm, flat, secondary, width});
    } else {
      Kokkos::parallel_for("araios::bucketSort::mergeLong", ItemPolicy(exec, 0, items),
                           MergeLongBucketRuns<Offset, Buckets, PermView, SecondaryView, false>{
                               buckets, perm, flat, secondary, width});
    }
  }
  if (inFlat) {
    Kokkos::parallel_for("araios::bucketSort::placeLong", ItemPolicy(exec, 0, items),
                         PlaceLongBuckets<Offset, Buckets, PermView>{buckets, perm, flat});
  }
  exec.fence();  // the list of long buckets and the flat buffer die with this scope
}

}  // namespace araios::Impl
