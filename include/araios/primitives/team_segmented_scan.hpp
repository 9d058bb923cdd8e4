#pragma once
// Segmented scans and sums at team level: called by every thread of a Kokkos team (inside a
// TeamPolicy functor), over one range of values that the team owns.
//
//   using Scratch = araios::TeamSegmentedScanScratch<double, ExecSpace>;
//   policy.set_scratch_size(0, Kokkos::PerTeam(Scratch::bytes()));
//   ... in operator()(const member_type& team):
//   Scratch scratch(team);                                    // once per operator() call
//   araios::teamSegmentedInclusiveScan(team, valuesOfMyRange, flagsOfMyRange, scratch);
//
// Contract: the result over a range is bit for bit the result of the device-array functions
// (segmented_scan.hpp, segmented_sum.hpp) on that range as a standalone array with the same
// width: the canonical order of segmented_scan_order.hpp, aligned to the start of the range.
// The first element of the range always starts a segment. Team size and vector length do not
// change the bits. The team walks its range one block (Width*Width elements) at a time, the
// threads of the team sharing the Width chunks of a block; vector lanes beyond the first are
// not used (the portable code has no way to shuffle between them in a fixed order).
#include <araios/primitives/segment_heads.hpp>
#include <araios/primitives/segmented_scan_order.hpp>

#include <Kokkos_Core.hpp>

#include <cstddef>
#include <cstdint>

namespace araios {

/// Team scratch (level 0) of the team-level functions: a block's chunk totals and their scan,
/// 2*Width values and 2*Width ints. Request Scratch::bytes() per team; construct it once per
/// operator() call (every construction takes new scratch memory) and reuse it.
template <class Value, class ExecSpace, int Width = kSegmentedScanWidth>
struct TeamSegmentedScanScratch {
  static_assert(kIsSegmentedScanWidth<Width>, "the width must be a power of two in [2, 32]");
  static constexpr int width = Width;
  using value_type = Value;
  using ScratchSpace = typename ExecSpace::scratch_memory_space;
  template <class T>
  using ScratchView = Kokkos::View<T*, ScratchSpace, Kokkos::MemoryUnmanaged>;

  ScratchView<Value> totalValue;   ///< chunk scan at each chunk's last element
  ScratchView<int> chunkFirstHead; ///< lane of each chunk's first head; Width if it has none
  ScratchView<Value> carryValue;   ///< Hillis-Steele scan of the chunk totals
  ScratchView<int> carryHead;

  static std::size_t bytes() {
    return 2 * ScratchView<Value>::shmem_size(Width) + 2 * ScratchView<int>::shmem_size(Width);
  }

  template <class Member>
  KOKKOS_INLINE_FUNCTION explicit TeamSegmentedScanScratch(const Member& team)
      : totalValue(team.team_scratch(0), Width),
        chunkFirstHead(team.team_scratch(0), Width),
        carryValue(team.team_scratch(0), Width),
        carryHead(team.team_scratch(0), Width) {}
};

namespace Impl {

/// What the rest of the range needs to know about a block once its inner scan is done.
template <class Value>
struct BlockSummary {
  SegmentedPartial<Value> innerLast;  ///< inner scan at the block's last element
  int firstHead;                      ///< offset of the block's first head; Width*Width if none
};

/// inner() at the last element of chunk c, from the scratch of a finished block pass: exactly
/// what the chunk's own thread computes for that element (same operands, same bracketing).
template <int Width, class Scratch>
KOKKOS_INLINE_FUNCTION SegmentedPartial<typename Scratch::value_type> chunkInnerLast(const Scratch& s, int c) {
  using Value = typename Scratch::value_type;
  const SegmentedPartial<Value> total{s.totalValue(c), s.chunkFirstHead(c) < Width};
  if (c == 0) return total;
  return combine(SegmentedPartial<Value>{s.carryValue(c - 1), s.carryHead(c - 1) != 0}, total);
}

template <int Width, class Scratch>
KOKKOS_INLINE_FUNCTION BlockSummary<typename Scratch::value_type> summarizeBlock(const Scratch& s, int numChunks) {
  int firstHead = Width * Width;
  for (int c = numChunks - 1; c >= 0; --c)
    if (s.chunkFirstHead(c) < Width) firstHead = c * Width + s.chunkFirstHead(c);
  return {chunkInnerLast<Width>(s, numChunks - 1), firstHead};
}

/// Step 2 of the canonical order on the chunk totals held in scratch, by one thread.
template <int Width, class Scratch>
KOKKOS_INLINE_FUNCTION void scanChunkTotals(const Scratch& s, int numChunks) {
  typename Scratch::value_type value[Width];
  bool head[Width];
  for (int c = 0; c < numChunks; ++c) {
    value[c] = s.totalValue(c);
    head[c] = s.chunkFirstHead(c) < Width;
  }
  hillisSteeleInThread<Width>(value, head, numChunks);
  for (int c = 0; c < numChunks; ++c) {
    s.carryValue(c) = value[c];
    s.carryHead(c) = head[c] ? 1 : 0;
  }
}

/// Loads chunk [chunkStart, chunkStart + count) and runs step 1 on it; returns the lane of its
/// first head (Width if none).
template <int Width, class Value, class Load, class Segments>
KOKKOS_INLINE_FUNCTION int scanChunkInThread(const Load& load, const Segments& segments, std::int64_t chunkStart,
                                             int count, Value* value, bool* head) {
  auto walker = segments.walk(chunkStart);
  int firstHead = Width;
  for (int l = 0; l < count; ++l) {
    value[l] = load(chunkStart + l);
    head[l] = walker.head(chunkStart + l);
    if (head[l] && firstHead == Width) firstHead = l;
  }
  hillisSteeleInThread<Width>(value, head, count);
  return firstHead;
}

/// Steps 1 and 2 of the canonical order over one block [blockStart, blockStart + blockLength)
/// of a range, by the whole team. For every element, in order within each chunk, calls
///   emit(i, inner(i), inner(i - 1), head(i), walker)
/// where inner(i - 1) is meaningless when i == blockStart and `walker` is the segment walker
/// positioned at i. emit may overwrite element i of the input (inputs of a chunk are read
/// before any of its outputs are written, and each chunk only reads its own inputs).
/// Returns the block summary (to every thread). Contains team barriers: call it from every
/// thread of the team.
template <int Width, class Member, class Load, class Segments, class Scratch, class Emit>
KOKKOS_INLINE_FUNCTION BlockSummary<typename Scratch::value_type> teamBlockPass(
    const Member& team, std::int64_t blockStart, std::int64_t blockLength, const Load& load, const Segments& segments,
    const Scratch& scratch, const Emit& emit) {
  using Value = typename Scratch::value_type;
  using Partial = SegmentedPartial<Value>;
  const int numChunks = static_cast<int>((blockLength + Width - 1) / Width);
  auto chunkCount = [&](int c) {
    const std::int64_t left = blockLength - static_cast<std::int64_t>(c) * Width;
    return left < Width ? static_cast<int>(left) : Width;
  };

  // Step 1: chunk totals.
  Kokkos::parallel_for(Kokkos::TeamThreadRange(team, numChunks), [&](const int c) {
    Kokkos::single(Kokkos::PerThread(team), [&]() {
      Value value[Width];
      bool head[Width];
      const int count = chunkCount(c);
      const int firstHead = scanChunkInThread<Width>(load, segments, blockStart + std::int64_t(c) * Width, count,
                                                     value, head);
      scratch.totalValue(c) = value[count - 1];
      scratch.chunkFirstHead(c) = firstHead;
    });
  });
  team.team_barrier();
  // Step 2: chunk carries.
  Kokkos::single(Kokkos::PerTeam(team), [&]() { scanChunkTotals<Width>(scratch, numChunks); });
  team.team_barrier();
  const BlockSummary<Value> summary = summarizeBlock<Width>(scratch, numChunks);

  // The chunk scans again (recomputing is cheaper than a round trip through memory, and keeps
  // the input readable when emit overwrites it), now with their carries.
  Kokkos::parallel_for(Kokkos::TeamThreadRange(team, numChunks), [&](const int c) {
    Kokkos::single(Kokkos::PerThread(team), [&]() {
      Value value[Width];
      bool head[Width];
      const std::int64_t chunkStart = blockStart + std::int64_t(c) * Width;
      const int count = chunkCount(c);
      scanChunkInThread<Width>(load, segments, chunkStart, count, value, head);
      const Partial carry = c > 0 ? Partial{scratch.carryValue(c - 1), scratch.carryHead(c - 1) != 0}
                                  : Partial{Value(0), false};
      Partial previous = c > 0 ? chunkInnerLast<Width>(scratch, c - 1) : Partial{Value(0), false};
      auto walker = segments.walk(chunkStart);
      for (int l = 0; l < count; ++l) {
        const std::int64_t i = chunkStart + l;
        const bool isHead = walker.head(i);
        const Partial own{value[l], head[l]};
        const Partial inner = c > 0 ? combine(carry, own) : own;
        emit(i, inner, previous, isHead, walker);
        previous = inner;
      }
    });
  });
  team.team_barrier();
  return summary;
}

/// Step 3 over a whole range, by one team: blocks in order, each finished with the carry of
/// the blocks before it. emit(i, final(i), final(i - 1), head(i), walker) as in teamBlockPass
/// (final(i - 1) meaningless for i == 0, which is always a head).
template <int Width, class Member, class Load, class Segments, class Scratch, class Emit>
KOKKOS_INLINE_FUNCTION void teamRangePass(const Member& team, std::int64_t n, const Load& load,
                                          const Segments& segments, const Scratch& scratch, const Emit& emit) {
  using Value = typename Scratch::value_type;
  using Partial = SegmentedPartial<Value>;
  constexpr std::int64_t kBlock = std::int64_t(Width) * Width;
  // K_b. In block 0 every inner() already has a head (element 0), so K_0 is never added.
  Partial carry{Value(0), true};
  for (std::int64_t blockStart = 0; blockStart < n; blockStart += kBlock) {
    const std::int64_t length = n - blockStart < kBlock ? n - blockStart : kBlock;
    const BlockSummary<Value> summary = teamBlockPass<Width>(
        team, blockStart, length, load, segments, scratch,
        [&](std::int64_t i, const Partial& inner, const Partial& previousInner, bool head, auto& walker) {
          const Partial previous = i == blockStart ? carry : combine(carry, previousInner);
          emit(i, combine(carry, inner).value, previous.value, head, walker);
        });
    carry = combine(carry, summary.innerLast);
  }
}

}  // namespace Impl

/// In place: values(i) becomes the sum of values(s..i), s the start of i's segment. Segments
/// start where headFlags(i) != 0, and at element 0. All threads of the team must call it.
template <class Member, class ValueView, class FlagView, class Scratch>
KOKKOS_INLINE_FUNCTION void teamSegmentedInclusiveScan(const Member& team, const ValueView& values,
                                                       const FlagView& headFlags, const Scratch& scratch) {
  using Value = typename Scratch::value_type;
  Impl::teamRangePass<Scratch::width>(
      team, static_cast<std::int64_t>(values.extent(0)), [&](std::int64_t i) { return Value(values(i)); },
      Impl::FlagSegments<FlagView>{headFlags}, scratch,
      [&](std::int64_t i, Value result, Value, bool, auto&) { values(i) = result; });
}

/// In place: values(i) becomes the sum of values(s..i-1), s the start of i's segment (+0 at a
/// head). All threads of the team must call it.
template <class Member, class ValueView, class FlagView, class Scratch>
KOKKOS_INLINE_FUNCTION void teamSegmentedExclusiveScan(const Member& team, const ValueView& values,
                                                       const FlagView& headFlags, const Scratch& scratch) {
  using Value = typename Scratch::value_type;
  Impl::teamRangePass<Scratch::width>(
      team, static_cast<std::int64_t>(values.extent(0)), [&](std::int64_t i) { return Value(values(i)); },
      Impl::FlagSegments<FlagView>{headFlags}, scratch,
      [&](std::int64_t i, Value, Value previous, bool head, auto&) { values(i) = head ? Value(0) : previous; });
}

/// sums(s) = sum of values(offsets(s) .. offsets(s+1)-1), +0 for an empty segment. offsets has
/// numSegments + 1 entries, starts at 0, ends at values.extent(0) and never decreases (rowPtr
/// of a CSR row block, relative to the block's first entry). For segment lengths, build
/// offsets once with offsetsFromLengths. All threads of the team must call it.
template <class Member, class ValueView, class OffsetView, class SumView, class Scratch>
KOKKOS_INLINE_FUNCTION void teamSegmentedSum(const Member& team, const ValueView& values, const OffsetView& offsets,
                                             const SumView& sums, const Scratch& scratch) {
  using Value = typename Scratch::value_type;
  const std::int64_t numSegments = offsets.extent(0) > 0 ? static_cast<std::int64_t>(offsets.extent(0)) - 1 : 0;
  Kokkos::parallel_for(Kokkos::TeamThreadRange(team, numSegments), [&](const std::int64_t s) {
    Kokkos::single(Kokkos::PerThread(team), [&]() {
      if (offsets(s) == offsets(s + 1)) sums(s) = Value(0);
    });
  });
  Impl::teamRangePass<Scratch::width>(
      team, static_cast<std::int64_t>(values.extent(0)), [&](std::int64_t i) { return Value(values(i)); },
      Impl::OffsetSegments<OffsetView>{offsets, numSegments}, scratch,
      [&](std::int64_t i, Value result, Value, bool, auto& walker) {
        if (walker.endsAt(i)) sums(walker.segment()) = result;
      });
}

}  // namespace araios
