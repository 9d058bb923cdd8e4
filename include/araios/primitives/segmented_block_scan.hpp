#pragma once
// The device-array segmented inclusive scan in three kernels, following the canonical order of
// segmented_scan_order.hpp:
//   1. blocks:  one team per block computes inner(i) (steps 1-2) into out, plus the block's
//               inner() at its last element and the offset of its first head;
//   2. chains:  the block carries K_b, sequentially along each run of blocks that a single
//               segment spans (a block holding a head starts a new run), runs in parallel;
//   3. carries: out(i) = K_b + out(i) for the elements before the first head of block b.
// Step 1 has a portable version (PortableBlockInnerScan) and a backend may write it by hand
// (BackendKernel<BlockInnerScanPass<Width>, Kokkos::Cuda> in backends/cuda/ does it with warp
// shuffles; detail/backend_kernel.hpp); every version must produce the same bits.
#include <araios/detail/backend_kernel.hpp>
#include <araios/primitives/segment_heads.hpp>
#include <araios/primitives/segmented_scan_order.hpp>
#include <araios/primitives/team_segmented_scan.hpp>

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <string>

namespace araios {

struct SegmentedScanOptions {
  /// Threads per team in the block kernel; 0 lets Araios choose. It never changes the result
  /// (the tests vary it to prove so).
  int teamSize = 0;
  /// Run the portable Kokkos kernel even where a backend has a specialisation (backends/). The
  /// tests use it to check each specialisation against the portable kernel.
  bool portableOnly = false;
};

namespace Impl {

/// The per-block outputs of kernel 1, read by kernels 2 and 3.
template <class Value, class Device>
struct BlockResults {
  Kokkos::View<Value*, Device> innerLast;  ///< inner() at each block's last element
  Kokkos::View<int*, Device> firstHead;    ///< offset of each block's first head; Width*Width if none
  Kokkos::View<Value*, Device> carry;      ///< K_b (meaningless for block 0)
};

template <int Width, class InView, class FlagView, class OutView, class Results, class ExecSpace>
struct PortableBlockInnerKernel {
  using Value = typename OutView::non_const_value_type;
  using Member = typename Kokkos::TeamPolicy<ExecSpace>::member_type;
  using Scratch = TeamSegmentedScanScratch<Value, ExecSpace, Width>;
  static constexpr std::int64_t kBlock = std::int64_t(Width) * Width;
  InView in;
  FlagView flags;
  OutView out;
  Results results;
  std::int64_t n;

  KOKKOS_INLINE_FUNCTION void operator()(const Member& team) const {
    const Scratch scratch(team);
    const std::int64_t block = team.league_rank();
    const std::int64_t blockStart = block * kBlock;
    const std::int64_t length = n - blockStart < kBlock ? n - blockStart : kBlock;
    const BlockSummary<Value> summary = teamBlockPass<Width>(
        team, blockStart, length, [&](std::int64_t i) { return Value(in(i)); }, FlagSegments<FlagView>{flags},
        scratch, [&](std::int64_t i, const SegmentedPartial<Value>& inner, const SegmentedPartial<Value>&, bool,
                     auto&) { out(i) = inner.value; });
    Kokkos::single(Kokkos::PerTeam(team), [&]() {
      results.innerLast(block) = summary.innerLast.value;
      results.firstHead(block) = summary.firstHead;
    });
  }
};

/// Kernel 1, portable: one team per block, its threads sharing the block's chunks.
template <class ExecSpace, int Width>
struct PortableBlockInnerScan {
  template <class InView, class FlagView, class OutView, class Results>
  static void run(const ExecSpace& exec, const InView& in, const FlagView& flags, const OutView& out,
                  const Results& results, std::int64_t numBlocks, const SegmentedScanOptions& options) {
    using Kernel = PortableBlockInnerKernel<Width, InView, FlagView, OutView, Results, ExecSpace>;
    const Kernel kernel{in, flags, out, results, static_cast<std::int64_t>(in.extent(0))};
    // A GPU gives each chunk of a block its own thread; a CPU thread takes whole blocks, which
    // are plentiful, so teams of one avoid the barriers' cost.
    const int wanted = options.teamSize > 0 ? options.teamSize : (isHostExecutionSpace() ? 1 : Width);
    Kokkos::TeamPolicy<ExecSpace> policy(exec, static_cast<int>(numBlocks), 1, 1);
    policy.set_scratch_size(0, Kokkos::PerTeam(Kernel::Scratch::bytes()));
    const int maxTeam = policy.team_size_max(kernel, Kokkos::ParallelForTag());
    const int teamSize = wanted < maxTeam ? wanted : maxTeam;
    Kokkos::TeamPolicy<ExecSpace> sized(exec, static_cast<int>(numBlocks), teamSize, 1);
    sized.set_scratch_size(0, Kokkos::PerTeam(Kernel::Scratch::bytes()));
    Kokkos::parallel_for("araios::segmentedScan::blocks", sized, kernel);
  }

 private:
  static constexpr bool isHostExecutionSpace() {
    return Kokkos::SpaceAccessibility<ExecSpace, Kokkos::HostSpace>::accessible;
  }
};

/// Step 1 as a backend's hook: BackendKernel<BlockInnerScanPass<Width>, ExecSpace> with the
/// static run(...) of PortableBlockInnerScan.
template <int Width>
struct BlockInnerScanPass {};

template <int Width, class Results>
struct ChainBlockCarries {
  static constexpr int kBlock = Width * Width;
  Results results;
  std::int64_t numBlocks;
  KOKKOS_INLINE_FUNCTION bool hasHead(std::int64_t b) const { return results.firstHead(b) < kBlock; }
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t b) const {
    // Block 0 has no carry and always a head (element 0), so every run starts after a block
    // with a head; this thread owns the run starting at b.
    if (b == 0 || !hasHead(b - 1)) return;
    auto carry = results.innerLast(b - 1);
    results.carry(b) = carry;
    for (std::int64_t next = b + 1; next < numBlocks && !hasHead(next - 1); ++next) {
      carry = carry + results.innerLast(next - 1);
      results.carry(next) = carry;
    }
  }
};

template <int Width, class OutView, class Results>
struct ApplyBlockCarries {
  static constexpr std::int64_t kBlock = std::int64_t(Width) * Width;
  OutView out;
  Results results;
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t i) const {
    const std::int64_t b = i / kBlock;
    if (i - b * kBlock < results.firstHead(b)) out(i) = results.carry(b) + out(i);
  }
};

/// out = segmented inclusive scan of in (the canonical order); out may be in.
template <int Width, class ExecSpace, class InView, class FlagView, class OutView>
void segmentedInclusiveScanKernels(const ExecSpace& exec, const InView& in, const FlagView& flags, const OutView& out,
                                   const SegmentedScanOptions& options) {
  using Value = typename OutView::non_const_value_type;
  using Device = typename ExecSpace::device_type;
  using Results = BlockResults<Value, Device>;
  constexpr std::int64_t kBlock = std::int64_t(Width) * Width;
  const std::int64_t n = static_cast<std::int64_t>(in.extent(0));
  if (n == 0) return;
  const std::int64_t numBlocks = (n + kBlock - 1) / kBlock;
  const Results results{
      Kokkos::View<Value*, Device>(Kokkos::view_alloc(Kokkos::WithoutInitializing, "araios::segmentedScan::innerLast"),
                                   numBlocks),
      Kokkos::View<int*, Device>(Kokkos::view_alloc(Kokkos::WithoutInitializing, "araios::segmentedScan::firstHead"),
                                 numBlocks),
      Kokkos::View<Value*, Device>(Kokkos::view_alloc(Kokkos::WithoutInitializing, "araios::segmentedScan::carry"),
                                   numBlocks)};
  bool done = false;
  if constexpr (hasBackendKernel<BlockInnerScanPass<Width>, ExecSpace>) {
    if (!options.portableOnly) {
      BackendKernel<BlockInnerScanPass<Width>, ExecSpace>::run(exec, in, flags, out, results, numBlocks, options);
      done = true;
    }
  }
  if (!done) PortableBlockInnerScan<ExecSpace, Width>::run(exec, in, flags, out, results, numBlocks, options);
  if (numBlocks == 1) return;  // block 0 never needs a carry
  Kokkos::parallel_for("araios::segmentedScan::chains",
                       Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>(exec, 0, numBlocks),
                       ChainBlockCarries<Width, Results>{results, numBlocks});
  Kokkos::parallel_for("araios::segmentedScan::carries",
                       Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>(exec, kBlock, n),
                       ApplyBlockCarries<Width, OutView, Results>{out, results});
}

}  // namespace Impl
}  // namespace araios
