#pragma once
// Segmented inclusive and exclusive scans (sums) over a whole device array, with segments given
// as head flags or as lengths:
//
//   araios::segmentedInclusiveScan(exec, in, headFlags, out);        // out may be in
//   araios::segmentedExclusiveScanByLengths(exec, in, lengths, out);
//   araios::segmentedInclusiveScan<8>(exec, in, headFlags, out);     // chunks of 8 lanes
//
// The additions follow the canonical order of segmented_scan_order.hpp (chunks of Width
// lanes, blocks of Width*Width elements, both counted from element 0), so the result is bit
// for bit the same on every backend and launch configuration, and the same as the team-level
// functions of team_segmented_scan.hpp over the same range. Element 0 always starts a segment.
// The Width template argument (default kSegmentedScanWidth = 32) is part of the result's
// definition: arrays scanned with different widths may differ in the last bits.
//
// The calls are asynchronous like any Kokkos kernel on `exec`, except where lengths must be
// checked (the ByLengths variants wait for their sum).
#include <araios/error.hpp>
#include <araios/primitives/segment_layout.hpp>
#include <araios/primitives/segmented_block_scan.hpp>
#include <araios/primitives/segmented_scan_order.hpp>

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <string>
#include <type_traits>

namespace araios {
namespace Impl {

template <class ExecSpace, class InView, class OutView>
void checkScanViews(const char* what, const InView& in, const OutView& out, std::int64_t flagCount) {
  static_assert(Kokkos::is_view<InView>::value && InView::rank == 1, "the input must be a rank-1 Kokkos::View");
  static_assert(Kokkos::is_view<OutView>::value && OutView::rank == 1, "the output must be a rank-1 Kokkos::View");
  static_assert(std::is_same_v<typename OutView::value_type, typename OutView::non_const_value_type>,
                "the output must hold non-const values");
  static_assert(Kokkos::SpaceAccessibility<ExecSpace, typename InView::memory_space>::accessible,
                "the input lives in a memory space this execution space cannot access");
  static_assert(Kokkos::SpaceAccessibility<ExecSpace, typename OutView::memory_space>::accessible,
                "the output lives in a memory space this execution space cannot access");
  if (in.extent(0) != out.extent(0) || static_cast<std::int64_t>(in.extent(0)) != flagCount) {
    throw InputError(std::string(what) + ": the input has " + std::to_string(in.extent(0)) + " elements, the output " +
                     std::to_string(out.extent(0)) + " and the segments cover " + std::to_string(flagCount) +
                     "; expected the same number");
  }
}

template <class FlagView, class InclusiveView, class OutView>
struct ShiftToExclusive {
  FlagView flags;
  InclusiveView inclusive;
  OutView out;
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t i) const {
    using Value = typename OutView::non_const_value_type;
    out(i) = i == 0 || flags(i) != 0 ? Value(0) : inclusive(i - 1);
  }
};

template <class ExecSpace>
using FlagsOnDevice = Kokkos::View<std::uint8_t*, typename ExecSpace::device_type>;

}  // namespace Impl

/// out(i) = in(s) + ... + in(i), s the start of i's segment; segments start where
/// headFlags(i) != 0 (any integer or bool View) and at element 0. out may be in.
template <int Width = kSegmentedScanWidth, class ExecSpace, class InView, class FlagView, class OutView>
void segmentedInclusiveScan(const ExecSpace& exec, const InView& in, const FlagView& headFlags, const OutView& out,
                            const SegmentedScanOptions& options = {}) {
  static_assert(kIsSegmentedScanWidth<Width>, "the width must be a power of two in [2, 32]");
  Impl::checkScanViews<ExecSpace>("segmentedInclusiveScan", in, out, static_cast<std::int64_t>(headFlags.extent(0)));
  Impl::segmentedInclusiveScanKernels<Width>(exec, in, headFlags, out, options);
}

/// out(i) = in(s) + ... + in(i-1), +0 where a segment starts. out may be in.
template <int Width = kSegmentedScanWidth, class ExecSpace, class InView, class FlagView, class OutView>
void segmentedExclusiveScan(const ExecSpace& exec, const InView& in, const FlagView& headFlags, const OutView& out,
                            const SegmentedScanOptions& options = {}) {
  static_assert(kIsSegmentedScanWidth<Width>, "the width must be a power of two in [2, 32]");
  using Value = typename OutView::non_const_value_type;
  Impl::checkScanViews<ExecSpace>("segmentedExclusiveScan", in, out, static_cast<std::int64_t>(headFlags.extent(0)));
  const std::int64_t n = static_cast<std::int64_t>(in.extent(0));
  Kokkos::View<Value*, typename ExecSpace::device_type> inclusive(
      Kokkos::view_alloc(Kokkos::WithoutInitializing, "araios::segmentedScan::inclusive"), n);
  Impl::segmentedInclusiveScanKernels<Width>(exec, in, headFlags, inclusive, options);
  Kokkos::parallel_for("araios::segmentedScan::exclusive", Impl::SegmentRange<ExecSpace>(exec, 0, n),
                       Impl::ShiftToExclusive<FlagView, decltype(inclusive), OutView>{headFlags, inclusive, out});
}

/// segmentedInclusiveScan with segments given by their lengths (>= 0, summing to
/// in.extent(0); empty segments allowed).
template <int Width = kSegmentedScanWidth, class ExecSpace, class InView, class LengthView, class OutView>
void segmentedInclusiveScanByLengths(const ExecSpace& exec, const InView& in, const LengthView& lengths,
                                     const OutView& out, const SegmentedScanOptions& options = {}) {
  Impl::FlagsOnDevice<ExecSpace> flags(Kokkos::view_alloc(Kokkos::WithoutInitializing, "araios::segmentedScan::flags"),
                                       in.extent(0));
  headFlagsFromLengths(exec, lengths, flags);
  segmentedInclusiveScan<Width>(exec, in, flags, out, options);
}

/// segmentedExclusiveScan with segments given by their lengths.
template <int Width = kSegmentedScanWidth, class ExecSpace, class InView, class LengthView, class OutView>
void segmentedExclusiveScanByLengths(const ExecSpace& exec, const InView& in, const LengthView& lengths,
                                     const OutView& out, const SegmentedScanOptions& options = {}) {
  Impl::FlagsOnDevice<ExecSpace> flags(Kokkos::view_alloc(Kokkos::WithoutInitializing, "araios::segmentedScan::flags"),
                                       in.extent(0));
  headFlagsFromLengths(exec, lengths, flags);
  segmentedExclusiveScan<Width>(exec, in, flags, out, options);
}

}  // namespace araios
