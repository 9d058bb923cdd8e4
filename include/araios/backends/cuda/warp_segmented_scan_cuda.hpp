#pragma once
// Segmented inclusive scan over a logical warp of LogicalWarpSize lanes (2..32, a power of two)
// with warp shuffles: the chunk step of the canonical order (segmented_scan_order.hpp). The
// logical warp width is a template parameter, like CUB's WarpReduce/WarpScan, so one physical
// warp may hold 32 / LogicalWarpSize independent scans; logical warps are aligned groups of
// consecutive lanes (lanes [k*W, (k+1)*W) of the physical warp).
//
// Bits: the steps and operands are exactly those of Impl::hillisSteeleInThread: for
// d = 1, 2, ..., W/2, lane l >= d without a head so far becomes lane[l - d] + lane[l]; so a
// logical warp gives the bits of the portable code with Width = LogicalWarpSize.
//
// Every lane of the physical warp that exists in the thread block must make each call (the
// shuffles name them all in their mask); lanes with no data take part with value 0 and no head,
// placed after the lanes that have data, which they cannot affect.
#include <araios/primitives/segmented_scan_order.hpp>

#include <type_traits>

#if defined(__CUDACC__)

namespace araios {

template <int LogicalWarpSize>
struct WarpSegmentedScan {
  static_assert(kIsSegmentedScanWidth<LogicalWarpSize>, "the logical warp size must be a power of two in [2, 32]");
  static constexpr int width = LogicalWarpSize;
  static constexpr unsigned kLogicalLanes = LogicalWarpSize == 32 ? 0xffffffffu : (1u << LogicalWarpSize) - 1u;

  /// The lanes of this thread's physical warp that exist: all 32 unless the block is smaller
  /// than a warp or its size is not a multiple of 32.
  __device__ static unsigned physicalWarpMask() {
    const unsigned threads = blockDim.x * blockDim.y * blockDim.z;
    const unsigned warpBase = linearThread() & ~31u;
    const unsigned present = threads - warpBase;
    return present >= 32 ? 0xffffffffu : (1u << present) - 1u;
  }
  __device__ static unsigned physicalLane() { return linearThread() & 31u; }
  /// This thread's lane within its logical warp.
  __device__ static int lane() { return static_cast<int>(physicalLane() & (LogicalWarpSize - 1)); }

  /// The lanes that make every call: by default every lane of the physical warp that exists.
  unsigned memberMask;
  __device__ WarpSegmentedScan() : memberMask(physicalWarpMask()) {}
  __device__ explicit WarpSegmentedScan(unsigned members) : memberMask(members) {}

  /// On entry, this lane's element and whether it starts a segment; on exit, the segmented
  /// inclusive scan of the logical warp up to this lane, and whether a head lies at or before
  /// it (lane 0 counts as the start of the scan: nothing from another logical warp is added).
  template <class Value>
  __device__ void inclusiveScan(Value& value, bool& head) const {
    static_assert(std::is_arithmetic_v<Value>, "warp shuffles move arithmetic values only");
    const int me = lane();
#pragma unroll
    for (int d = 1; d < LogicalWarpSize; d *= 2) {
      const Value up = __shfl_up_sync(memberMask, value, static_cast<unsigned>(d), LogicalWarpSize);
      const int upHead = __shfl_up_sync(memberMask, head ? 1 : 0, static_cast<unsigned>(d), LogicalWarpSize);
      if (me >= d && !head) {
        value = up + value;
        head = upHead != 0;
      }
    }
  }

  /// The segmented exclusive scan within the logical warp: +0 at a head and at lane 0.
  template <class Value>
  __device__ Value exclusiveScan(Value value, bool head) const {
    bool seen = head;
    inclusiveScan(value, seen);
    const Value previous = __shfl_up_sync(memberMask, value, 1u, LogicalWarpSize);
    return head || lane() == 0 ? Value(0) : previous;
  }

  /// Bit l set when lane l of this logical warp has pred true.
  __device__ unsigned ballot(bool pred) const {
    const unsigned bits = __ballot_sync(memberMask, pred);
    return (bits >> (physicalLane() & ~static_cast<unsigned>(LogicalWarpSize - 1))) & kLogicalLanes;
  }

 private:
  __device__ static unsigned linearThread() {
    return threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
  }
};

}  // namespace araios

#endif  // __CUDACC__
