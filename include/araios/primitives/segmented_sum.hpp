#pragma once
// Segmented sums over a whole device array: one sum per segment, segments given as offsets,
// lengths or head flags.
//
//   araios::segmentedSum(exec, values, offsets, sums);            // offsets: numSegments + 1
//   araios::segmentedSumByLengths(exec, values, lengths, sums);
//   araios::segmentedSumByHeadFlags(exec, values, headFlags, sums);
//
// The sum of a segment is the segmented inclusive scan (segmented_scan.hpp) at its last
// element: the same canonical order, hence the same bits on every backend and launch, and the
// same as teamSegmentedSum over the same range. An empty segment sums to +0 (Value(0)); a
// nonempty one never has the identity added, so a segment of -0.0 sums to -0.0. The inputs are
// checked (InputError), which waits for the device.
#include <araios/error.hpp>
#include <araios/primitives/segment_layout.hpp>
#include <araios/primitives/segmented_scan.hpp>

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <string>

namespace araios {
namespace Impl {

template <class OffsetView, class InclusiveView, class SumView>
struct GatherSegmentSums {
  OffsetView offsets;
  InclusiveView inclusive;
  SumView sums;
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t s) const {
    using Value = typename SumView::non_const_value_type;
    sums(s) = offsets(s) == offsets(s + 1) ? Value(0) : inclusive(offsets(s + 1) - 1);
  }
};

/// Sums from offsets that are already known to be valid, and head flags that match them.
template <int Width, class ExecSpace, class ValueView, class OffsetView, class FlagView, class SumView>
void segmentedSumKernels(const ExecSpace& exec, const ValueView& values, const OffsetView& offsets,
                         const FlagView& flags, const SumView& sums, const SegmentedScanOptions& options) {
  using Value = typename SumView::non_const_value_type;
  Kokkos::View<Value*, typename ExecSpace::device_type> inclusive(
      Kokkos::view_alloc(Kokkos::WithoutInitializing, "araios::segmentedSum::inclusive"), values.extent(0));
  segmentedInclusiveScanKernels<Width>(exec, values, flags, inclusive, options);
  Kokkos::parallel_for("araios::segmentedSum::gather",
                       SegmentRange<ExecSpace>(exec, 0, static_cast<std::int64_t>(sums.extent(0))),
                       GatherSegmentSums<OffsetView, decltype(inclusive), SumView>{offsets, inclusive, sums});
}

template <class SumView>
void checkSumCount(const char* what, const SumView& sums, std::int64_t numSegments) {
  static_assert(Kokkos::is_view<SumView>::value && SumView::rank == 1, "the sums must be a rank-1 Kokkos::View");
  if (static_cast<std::int64_t>(sums.extent(0)) != numSegments) {
    throw InputError(std::string(what) + ": " + std::to_string(numSegments) + " segments but room for " +
                     std::to_string(sums.extent(0)) + " sums; expected " + std::to_string(numSegments));
  }
}

}  // namespace Impl

/// sums(s) = values(offsets(s)) + ... + values(offsets(s+1) - 1). offsets: numSegments + 1
/// entries from 0 to values.extent(0), never decreasing (a CSR rowPtr).
template <int Width = kSegmentedScanWidth, class ExecSpace, class ValueView, class OffsetView, class SumView>
void segmentedSum(const ExecSpace& exec, const ValueView& values, const OffsetView& offsets, const SumView& sums,
                  const SegmentedScanOptions& options = {}) {
  static_assert(kIsSegmentedScanWidth<Width>, "the width must be a power of two in [2, 32]");
  Impl::FlagsOnDevice<ExecSpace> flags(Kokkos::view_alloc(Kokkos::WithoutInitializing, "araios::segmentedSum::flags"),
                                       values.extent(0));
  headFlagsFromOffsets(exec, offsets, flags);  // checks the offsets
  Impl::checkSumCount("segmentedSum", sums, static_cast<std::int64_t>(offsets.extent(0)) - 1);
  Impl::segmentedSumKernels<Width>(exec, values, offsets, flags, sums, options);
}

/// sums(s) = the sum of segment s, segments given by their lengths (>= 0, summing to
/// values.extent(0)).
template <int Width = kSegmentedScanWidth, class ExecSpace, class ValueView, class LengthView, class SumView>
void segmentedSumByLengths(const ExecSpace& exec, const ValueView& values, const LengthView& lengths,
                           const SumView& sums, const SegmentedScanOptions& options = {}) {
  static_assert(kIsSegmentedScanWidth<Width>, "the width must be a power of two in [2, 32]");
  Impl::checkSumCount("segmentedSumByLengths", sums, static_cast<std::int64_t>(lengths.extent(0)));
  Kokkos::View<std::int64_t*, typename ExecSpace::device_type> offsets(
      Kokkos::view_alloc(Kokkos::WithoutInitializing, "araios::segmentedSum::offsets"), lengths.extent(0) + 1);
  const std::int64_t total = offsetsFromLengths(exec, lengths, offsets);
  if (total != static_cast<std::int64_t>(values.extent(0))) {
    throw InputError("segmentedSumByLengths: the segment lengths sum to " + std::to_string(total) + " but there are " +
                     std::to_string(values.extent(0)) + " values; expected equal");
  }
  Impl::FlagsOnDevice<ExecSpace> flags(Kokkos::view_alloc(Kokkos::WithoutInitializing, "araios::segmentedSum::flags"),
                                       values.extent(0));
  headFlagsFromOffsets(exec, offsets, flags);
  Impl::segmentedSumKernels<Width>(exec, values, offsets, flags, sums, options);
}

/// sums(k) = the sum of the k-th segment, segments starting where headFlags != 0 and at
/// element 0; sums must have countSegments(exec, headFlags) entries.
template <int Width = kSegmentedScanWidth, class ExecSpace, class ValueView, class FlagView, class SumView>
void segmentedSumByHeadFlags(const ExecSpace& exec, const ValueView& values, const FlagView& headFlags,
                             const SumView& sums, const SegmentedScanOptions& options = {}) {
  static_assert(kIsSegmentedScanWidth<Width>, "the width must be a power of two in [2, 32]");
  if (headFlags.extent(0) != values.extent(0)) {
    throw InputError("segmentedSumByHeadFlags: " + std::to_string(values.extent(0)) + " values but " +
                     std::to_string(headFlags.extent(0)) + " head flags; expected equal");
  }
  const std::int64_t numSegments = countSegments(exec, headFlags);
  Impl::checkSumCount("segmentedSumByHeadFlags", sums, numSegments);
  Kokkos::View<std::int64_t*, typename ExecSpace::device_type> offsets(
      Kokkos::view_alloc(Kokkos::WithoutInitializing, "araios::segmentedSum::offsets"), numSegments + 1);
  offsetsFromHeadFlags(exec, headFlags, offsets);
  Impl::segmentedSumKernels<Width>(exec, values, offsets, headFlags, sums, options);
}

}  // namespace araios
