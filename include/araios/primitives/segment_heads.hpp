#pragma once
// Where segments start, read chunk by chunk: from head flags or from segment offsets. The
// segmented-scan code walks each chunk from its first element to its last and asks, element
// by element, whether a segment starts there; with offsets it also learns which segment an
// element belongs to (for segmented sums).
#include <Kokkos_Core.hpp>

#include <cstdint>

namespace araios::Impl {

/// Head flags: element i starts a segment if flags(i) != 0. Element 0 (the start of the range)
/// always does.
template <class FlagView>
struct FlagSegments {
  FlagView flags;

  struct Walker {
    FlagView flags;
    KOKKOS_INLINE_FUNCTION bool head(std::int64_t i) const { return i == 0 || flags(i) != 0; }
  };
  /// A walker for elements first, first + 1, ...
  KOKKOS_INLINE_FUNCTION Walker walk(std::int64_t /*first*/) const { return Walker{flags}; }
};

/// Segment offsets (numSegments + 1 entries, offsets(0) = 0, offsets(numSegments) = the length
/// of the range, non-decreasing): segment s holds [offsets(s), offsets(s+1)); empty segments
/// hold nothing and start nothing.
template <class OffsetView>
struct OffsetSegments {
  OffsetView offsets;
  std::int64_t numSegments;

  struct Walker {
    OffsetView offsets;
    std::int64_t s;  // the (nonempty) segment holding the last element asked about
    /// Call with increasing i; each call moves to the segment holding i.
    KOKKOS_INLINE_FUNCTION bool head(std::int64_t i) {
      while (static_cast<std::int64_t>(offsets(s + 1)) <= i) ++s;
      return static_cast<std::int64_t>(offsets(s)) == i;
    }
    KOKKOS_INLINE_FUNCTION std::int64_t segment() const { return s; }
    KOKKOS_INLINE_FUNCTION bool endsAt(std::int64_t i) const {
      return static_cast<std::int64_t>(offsets(s + 1)) == i + 1;
    }
  };

  /// The walker starts at the segment holding `first`: the last s with offsets(s) <= first,
  /// found by binary search so each chunk starts in O(log numSegments).
  KOKKOS_INLINE_FUNCTION Walker walk(std::int64_t first) const {
    std::int64_t lo = 0, hi = numSegments;  // offsets(lo) <= first < offsets(hi)
    while (hi - lo > 1) {
      const std::int64_t mid = lo + (hi - lo) / 2;
      if (static_cast<std::int64_t>(offsets(mid)) <= first) lo = mid;
      else hi = mid;
    }
    return Walker{offsets, lo};
  }
};

}  // namespace araios::Impl
