#pragma once
// The canonical evaluation order of Araios's segmented scans and sums. Floating-point addition
// is not associative, so "the same bits whatever the launch" needs one order of additions that
// is fixed by the input alone. Every implementation (the portable team code, the portable
// device-array kernels, the CUDA warp-shuffle kernels) computes exactly this order.
//
// Segmented scan as a scan of pairs (Blelloch, "Prefix sums and their applications", 1990,
// section 1.5): each element is a pair (head, value) and
//     (h1, v1) (+) (h2, v2) = (h1 or h2, h2 ? v2 : v1 + v2),
// an associative operator whose floating-point evaluation depends only on how it is bracketed.
// The first element of the scanned range always starts a segment, whatever its flag says.
//
// The bracketing, for a logical width W (a power of two in [2, 32], kSegmentedScanWidth = 32
// unless a caller picks another one at compile time):
//   1. Chunks: the range is cut into chunks of W consecutive elements, counted from the start
//      of the range (never from the launch). Within a chunk, a Hillis-Steele scan ("Data
//      parallel algorithms", CACM 1986) of log2(W) steps: for d = 1, 2, 4, ..., W/2, every lane
//      l >= d at once becomes lane[l - d] (+) lane[l]. This is the shape of a warp-shuffle scan,
//      so a GPU warp runs it natively and a CPU thread emulates it lane by lane.
//   2. Blocks: W consecutive chunks (W*W elements) form a block. The chunk totals (the chunk
//      scan at each chunk's last element) are scanned with the same Hillis-Steele steps; the
//      result at chunk c-1 is the carry of chunk c, and inner(i) = carry (+) chunkScan(i)
//      (chunk 0 of a block has no carry).
//   3. Range: blocks are combined sequentially in block order: K_0 is empty,
//      final(i in block b) = K_b (+) inner(i), K_{b+1} = K_b (+) inner(last element of block b).
//      The chain is cut at every block that holds a segment head, so the device-array version
//      runs the chains in parallel; only one segment longer than a block is sequential, over
//      its blocks (1024 elements each for W = 32).
// A term is added only when it is an element of the segment: the identity is never added.
// In every (+) the left operand comes first (left + right); IEEE-754 addition is commutative,
// so a backend may swap the operands, never the bracketing.
//
// Derived results:
//   exclusive(i) = head(i) ? +0 : final(i - 1)
//   sum(segment) = final(last element of the segment); +0 for an empty segment.
// Empty segments and exclusive-scan heads give +0 (Value(0)), which is what users expect of an
// empty sum. -0 would be the true additive identity, but since the identity is never added
// to a nonempty segment, the choice only affects empty sums: a segment of -0.0 values still
// sums to -0.0, exactly as a sequential sum would.
//
// The order depends on the position of an element relative to the start of the range (chunks
// and blocks are aligned to it), so scanning a subrange gives the bits of scanning that
// subrange as a standalone array; results are bitwise identical across backends, team sizes,
// vector lengths and thread counts (given IEEE round-to-nearest and no flush-to-zero: a
// CUDA build with --use_fast_math flushes subnormals and breaks this).
#include <Kokkos_Core.hpp>

#include <cstdint>

namespace araios {

/// Lanes of one chunk, and chunks of one block. 32 is the CUDA warp width, so the CUDA kernel
/// scans a chunk with one warp's shuffles and a block's chunk totals with one more warp. It is
/// a compile-time constant, never derived from the launch, because it fixes the bracketing.
inline constexpr int kSegmentedScanWidth = 32;

/// Whether Width can be a chunk width: a power of two in [2, 32], so that a logical warp of
/// Width lanes is an aligned part of a CUDA warp. (A variable, not a function, so that device
/// code may use it without relaxed-constexpr.)
template <int Width>
inline constexpr bool kIsSegmentedScanWidth = Width >= 2 && Width <= 32 && (Width & (Width - 1)) == 0;

namespace Impl {

/// The pair of the segmented-scan operator: a partial sum and whether a segment head lies at
/// or before its last element (then nothing further left may be added to it).
template <class Value>
struct SegmentedPartial {
  Value value;
  bool head;
};

/// left (+) right, where left covers the elements just before those of right.
template <class Value>
KOKKOS_INLINE_FUNCTION SegmentedPartial<Value> combine(const SegmentedPartial<Value>& left,
                                                       const SegmentedPartial<Value>& right) {
  if (right.head) return right;
  return SegmentedPartial<Value>{left.value + right.value, left.head};
}

/// Step 1 (and 2) of the canonical order in one thread: the Hillis-Steele scan of `count`
/// (at most Width) lanes. Lanes >= count of a short last chunk would only read lanes below
/// them, so leaving them out changes nothing for the lanes that exist.
template <int Width, class Value>
KOKKOS_INLINE_FUNCTION void hillisSteeleInThread(Value* value, bool* head, int count) {
  static_assert(kIsSegmentedScanWidth<Width>, "the width must be a power of two in [2, 32]");
  for (int d = 1; d < Width; d *= 2) {
    // Descending, so lane l - d still holds the previous step's value when lane l reads it:
    // the in-place form of "every lane at once".
    for (int l = count - 1; l >= d; --l) {
      if (!head[l]) {
        value[l] = value[l - d] + value[l];
        head[l] = head[l - d];
      }
    }
  }
}

}  // namespace Impl
}  // namespace araios
