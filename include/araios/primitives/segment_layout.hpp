#pragma once
// Conversions between the three ways of describing segments of an array of n elements:
//   lengths  (numSegments entries, >= 0, summing to n; empty segments allowed),
//   offsets  (numSegments + 1 entries: 0 = offsets(0) <= offsets(1) <= ... <= offsets(S) = n),
//   head flags (n entries: flags(i) != 0 where a segment starts; element 0 always starts one;
//               empty segments cannot be expressed).
// All on the device, with exact integer scans, so no result depends on the launch. Functions
// that return a count, or check their input, wait for the device.
#include <araios/error.hpp>
#include <araios/types.hpp>

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <string>
#include <type_traits>

namespace araios {
namespace Impl {

template <class ExecSpace>
using SegmentRange = Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>;

template <class LengthView>
struct SumLengths {
  LengthView lengths;
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t s, std::int64_t& total) const {
    total += static_cast<std::int64_t>(lengths(s));
  }
};

template <class LengthView>
struct CountNegativeLengths {
  LengthView lengths;
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t s, std::int64_t& negative) const {
    if constexpr (std::is_signed_v<typename LengthView::non_const_value_type>) {
      if (lengths(s) < 0) ++negative;
    } else {
      (void)s;
      (void)negative;
    }
  }
};

template <class LengthView, class OffsetView>
struct ScanLengths {
  LengthView lengths;
  OffsetView offsets;
  std::int64_t numSegments;
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t s, std::int64_t& sum, bool final) const {
    if (final) offsets(s) = static_cast<typename OffsetView::non_const_value_type>(sum);
    if (s < numSegments) sum += static_cast<std::int64_t>(lengths(s));
  }
};

template <class OffsetView>
struct CountDecreases {
  OffsetView offsets;
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t s, std::int64_t& decreases) const {
    if (offsets(s + 1) < offsets(s)) ++decreases;
  }
};

template <class OffsetView, class FlagView>
struct MarkSegmentStarts {
  OffsetView offsets;
  FlagView flags;
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t s) const {
    if (offsets(s) < offsets(s + 1)) flags(offsets(s)) = typename FlagView::non_const_value_type(1);
  }
};

template <class FlagView>
struct CountHeads {
  FlagView flags;
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t i, std::int64_t& heads) const {
    if (i == 0 || flags(i) != 0) ++heads;
  }
};

template <class FlagView, class OffsetView>
struct ScanHeads {
  FlagView flags;
  OffsetView offsets;
  std::int64_t n;
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t i, std::int64_t& heads, bool final) const {
    if (i == n) {
      if (final) offsets(heads) = static_cast<typename OffsetView::non_const_value_type>(n);
    } else if (i == 0 || flags(i) != 0) {
      if (final) offsets(heads) = static_cast<typename OffsetView::non_const_value_type>(i);
      ++heads;
    }
  }
};

template <class View>
std::int64_t readEntry(const View& view, std::int64_t i) {
  typename View::non_const_value_type value{};
  Kokkos::deep_copy(Kokkos::View<typename View::non_const_value_type, Kokkos::HostSpace>(&value),
                    Kokkos::subview(view, i));
  return static_cast<std::int64_t>(value);
}

/// Throws InputError unless offsets describe segments of an array of n elements.
template <class ExecSpace, class OffsetView>
void checkOffsets(const ExecSpace& exec, const OffsetView& offsets, std::int64_t n, const char* what) {
  if (offsets.extent(0) == 0) {
    throw InputError(std::string(what) + ": the offsets are empty; expected numSegments + 1 entries starting at 0");
  }
  const std::int64_t numSegments = static_cast<std::int64_t>(offsets.extent(0)) - 1;
  std::int64_t decreases = 0;
  Kokkos::parallel_reduce("araios::segments::checkOffsets", SegmentRange<ExecSpace>(exec, 0, numSegments),
                          CountDecreases<OffsetView>{offsets}, decreases);
  exec.fence();
  const std::int64_t first = readEntry(offsets, 0), last = readEntry(offsets, numSegments);
  if (first != 0 || last != n || decreases != 0) {
    throw InputError(std::string(what) + ": the offsets run from " + std::to_string(first) + " to " +
                     std::to_string(last) + " and decrease " + std::to_string(decreases) +
                     " times; expected them to run from 0 to " + std::to_string(n) + " without decreasing");
  }
}

}  // namespace Impl

/// offsets(s) = lengths(0) + ... + lengths(s-1), for s = 0..numSegments; returns the total.
/// Throws InputError for a negative length, for offsets that are not numSegments + 1 long, or
/// for a total that the offset type cannot hold.
template <class ExecSpace, class LengthView, class OffsetView>
std::int64_t offsetsFromLengths(const ExecSpace& exec, const LengthView& lengths, const OffsetView& offsets) {
  using Offset = typename OffsetView::non_const_value_type;
  const std::int64_t numSegments = static_cast<std::int64_t>(lengths.extent(0));
  if (static_cast<std::int64_t>(offsets.extent(0)) != numSegments + 1) {
    throw InputError("offsetsFromLengths: " + std::to_string(numSegments) + " lengths but " +
                     std::to_string(offsets.extent(0)) + " offsets; expected " + std::to_string(numSegments + 1));
  }
  std::int64_t negative = 0;
  Kokkos::parallel_reduce("araios::segments::checkLengths", Impl::SegmentRange<ExecSpace>(exec, 0, numSegments),
                          Impl::CountNegativeLengths<LengthView>{lengths}, negative);
  exec.fence();
  if (negative != 0) {
    throw InputError("offsetsFromLengths: " + std::to_string(negative) +
                     " segment lengths are negative; expected lengths >= 0");
  }
  std::int64_t total = 0;
  Kokkos::parallel_reduce("araios::segments::sumLengths", Impl::SegmentRange<ExecSpace>(exec, 0, numSegments),
                          Impl::SumLengths<LengthView>{lengths}, total);
  exec.fence();
  checkedNarrow<Offset>(total, "the total of the segment lengths");
  Kokkos::parallel_scan("araios::segments::offsetsFromLengths",
                        Impl::SegmentRange<ExecSpace>(exec, 0, numSegments + 1),
                        Impl::ScanLengths<LengthView, OffsetView>{lengths, offsets, numSegments});
  return total;
}

/// flags(i) = 1 where a nonempty segment starts, 0 elsewhere. flags.extent(0) must be
/// offsets(numSegments); the offsets are checked (InputError).
template <class ExecSpace, class OffsetView, class FlagView>
void headFlagsFromOffsets(const ExecSpace& exec, const OffsetView& offsets, const FlagView& flags) {
  const std::int64_t n = static_cast<std::int64_t>(flags.extent(0));
  Impl::checkOffsets(exec, offsets, n, "headFlagsFromOffsets");
  Kokkos::deep_copy(exec, flags, typename FlagView::non_const_value_type(0));
  Kokkos::parallel_for("araios::segments::headFlagsFromOffsets",
                       Impl::SegmentRange<ExecSpace>(exec, 0, static_cast<std::int64_t>(offsets.extent(0)) - 1),
                       Impl::MarkSegmentStarts<OffsetView, FlagView>{offsets, flags});
}

/// flags(i) = 1 where a nonempty segment starts. The lengths must sum to flags.extent(0).
template <class ExecSpace, class LengthView, class FlagView>
void headFlagsFromLengths(const ExecSpace& exec, const LengthView& lengths, const FlagView& flags) {
  Kokkos::View<std::int64_t*, typename ExecSpace::device_type> offsets(
      Kokkos::view_alloc(Kokkos::WithoutInitializing, "araios::segments::offsets"), lengths.extent(0) + 1);
  const std::int64_t total = offsetsFromLengths(exec, lengths, offsets);
  if (total != static_cast<std::int64_t>(flags.extent(0))) {
    throw InputError("headFlagsFromLengths: the segment lengths sum to " + std::to_string(total) + " but there are " +
                     std::to_string(flags.extent(0)) + " flags; expected equal");
  }
  headFlagsFromOffsets(exec, offsets, flags);
}

/// The number of segments the head flags describe (element 0 always starts one; 0 if empty).
template <class ExecSpace, class FlagView>
std::int64_t countSegments(const ExecSpace& exec, const FlagView& flags) {
  std::int64_t heads = 0;
  Kokkos::parallel_reduce("araios::segments::countSegments",
                          Impl::SegmentRange<ExecSpace>(exec, 0, static_cast<std::int64_t>(flags.extent(0))),
                          Impl::CountHeads<FlagView>{flags}, heads);
  exec.fence();
  return heads;
}

/// Offsets of the segments the head flags describe; offsets must have countSegments + 1
/// entries (InputError otherwise).
template <class ExecSpace, class FlagView, class OffsetView>
void offsetsFromHeadFlags(const ExecSpace& exec, const FlagView& flags, const OffsetView& offsets) {
  using Offset = typename OffsetView::non_const_value_type;
  const std::int64_t n = static_cast<std::int64_t>(flags.extent(0));
  const std::int64_t numSegments = countSegments(exec, flags);
  if (static_cast<std::int64_t>(offsets.extent(0)) != numSegments + 1) {
    throw InputError("offsetsFromHeadFlags: the flags describe " + std::to_string(numSegments) + " segments but " +
                     std::to_string(offsets.extent(0)) + " offsets were given; expected " +
                     std::to_string(numSegments + 1));
  }
  checkedNarrow<Offset>(n, "the number of elements");
  Kokkos::parallel_scan("araios::segments::offsetsFromHeadFlags", Impl::SegmentRange<ExecSpace>(exec, 0, n + 1),
                        Impl::ScanHeads<FlagView, OffsetView>{flags, offsets, n});
}

}  // namespace araios
