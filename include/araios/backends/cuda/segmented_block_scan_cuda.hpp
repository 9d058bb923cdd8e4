#pragma once
// Kernel 1 of the device-array segmented scan (segmented_block_scan.hpp) on CUDA: one team per
// block of Width*Width elements, each chunk scanned by one logical warp of Width lanes with
// shuffles (WarpSegmentedScan<Width>) instead of one thread emulating the lanes, and the
// block's chunk totals scanned by one more logical warp. Same operations in the same order as
// PortableBlockInnerScan, hence the same bits; the summary of a block comes from the very same
// function (summarizeBlock) reading the same scratch.
//
// Launch shape: vector length = Width, so threadIdx.x is the lane of the logical warp (Kokkos
// puts the vector lanes of a team thread in threadIdx.x) and every logical warp is an aligned
// group of lanes of a physical warp.
#include <araios/primitives/segmented_block_scan.hpp>
#include <araios/primitives/team_segmented_scan.hpp>
#include <araios/backends/cuda/warp_segmented_scan_cuda.hpp>

#include <Kokkos_Core.hpp>

#include <cstdint>

#if defined(KOKKOS_ENABLE_CUDA)

namespace araios::Impl {

template <int Width, class InView, class FlagView, class OutView, class Results>
struct CudaBlockInnerKernel {
  using Value = typename OutView::non_const_value_type;
  using Member = typename Kokkos::TeamPolicy<Kokkos::Cuda>::member_type;
  using Scratch = TeamSegmentedScanScratch<Value, Kokkos::Cuda, Width>;
  static constexpr std::int64_t kBlock = std::int64_t(Width) * Width;
  InView in;
  FlagView flags;
  OutView out;
  Results results;
  std::int64_t n;

  KOKKOS_INLINE_FUNCTION void operator()(const Member& team) const {
#ifdef __CUDA_ARCH__
    scanBlock(team);
#else
    (void)team;
#endif
  }

#ifdef __CUDA_ARCH__
  __device__ void scanBlock(const Member& team) const {
    using Partial = SegmentedPartial<Value>;
    const Scratch scratch(team);
    const WarpSegmentedScan<Width> warp;
    const int lane = static_cast<int>(threadIdx.x);
    const std::int64_t block = team.league_rank();
    const std::int64_t blockStart = block * kBlock;
    const std::int64_t blockEnd = n - blockStart < kBlock ? n : blockStart + kBlock;
    const int numChunks = static_cast<int>((blockEnd - blockStart + Width - 1) / Width);
    // The same number of rounds on every thread, so all lanes make the same shuffles even when
    // the team has more threads than the block has chunks.
    const int rounds = (Width + team.team_size() - 1) / team.team_size();

    // Step 1: chunk totals and first heads.
    for (int r = 0; r < rounds; ++r) {
      const int c = r * team.team_size() + team.team_rank();
      const std::int64_t i = blockStart + std::int64_t(c) * Width + lane;
      const bool valid = c < numChunks && i < blockEnd;
      Value value = valid ? Value(in(i)) : Value(0);
      bool head = valid && (i == 0 || flags(i) != 0);
      const unsigned heads = warp.ballot(head);
      warp.inclusiveScan(value, head);
      const bool lastOfChunk = valid && (lane == Width - 1 || i + 1 == blockEnd);
      if (lastOfChunk) {
        scratch.totalValue(c) = value;
        scratch.chunkFirstHead(c) = heads != 0 ? __ffs(static_cast<int>(heads)) - 1 : Width;
      }
    }
    team.team_barrier();
    // Step 2: every logical warp scans the chunk totals (the same bits); the first one stores.
    {
      const bool valid = lane < numChunks;
      Value value = valid ? scratch.totalValue(lane) : Value(0);
      bool head = valid && scratch.chunkFirstHead(lane) < Width;
      warp.inclusiveScan(value, head);
      if (valid && team.team_rank() == 0) {
        scratch.carryValue(lane) = value;
        scratch.carryHead(lane) = head ? 1 : 0;
      }
    }
    team.team_barrier();
    if (team.team_rank() == 0 && lane == 0) {
      const BlockSummary<Value> summary = summarizeBlock<Width>(scratch, numChunks);
      results.innerLast(block) = summary.innerLast.value;
      results.firstHead(block) = summary.firstHead;
    }
    // The chunk scans again, now with their carries.
    for (int r = 0; r < rounds; ++r) {
      const int c = r * team.team_size() + team.team_rank();
      const std::int64_t i = blockStart + std::int64_t(c) * Width + lane;
      const bool valid = c < numChunks && i < blockEnd;
      Value value = valid ? Value(in(i)) : Value(0);
      bool head = valid && (i == 0 || flags(i) != 0);
      warp.inclusiveScan(value, head);
      if (valid) {
        const Partial own{value, head};
        out(i) = c > 0 ? combine(Partial{scratch.carryValue(c - 1), scratch.carryHead(c - 1) != 0}, own).value
                       : value;
      }
    }
  }
#endif
};

template <int Width>
struct BackendKernel<BlockInnerScanPass<Width>, Kokkos::Cuda> {
  static constexpr bool specialised = true;

  template <class InView, class FlagView, class OutView, class Results>
  static void run(const Kokkos::Cuda& exec, const InView& in, const FlagView& flags, const OutView& out,
                  const Results& results, std::int64_t numBlocks, const SegmentedScanOptions& options) {
    using Kernel = CudaBlockInnerKernel<Width, InView, FlagView, OutView, Results>;
    const Kernel kernel{in, flags, out, results, static_cast<std::int64_t>(in.extent(0))};
    // 256 threads per team (8 logical warps of 32) keeps several teams resident per SM while
    // each thread scans Width / teamSize chunks; more threads than chunks would only idle.
    constexpr int kThreadsPerTeam = 256;
    int teamSize = options.teamSize > 0 ? options.teamSize : kThreadsPerTeam / Width;
    if (teamSize > Width) teamSize = Width;
    Kokkos::TeamPolicy<Kokkos::Cuda> probe(exec, static_cast<int>(numBlocks), 1, Width);
    probe.set_scratch_size(0, Kokkos::PerTeam(Kernel::Scratch::bytes()));
    const int maxTeam = probe.team_size_max(kernel, Kokkos::ParallelForTag());
    if (teamSize > maxTeam) teamSize = maxTeam;
    Kokkos::TeamPolicy<Kokkos::Cuda> policy(exec, static_cast<int>(numBlocks), teamSize, Width);
    policy.set_scratch_size(0, Kokkos::PerTeam(Kernel::Scratch::bytes()));
    Kokkos::parallel_for("araios::segmentedScan::blocks_cuda", policy, kernel);
  }
};

}  // namespace araios::Impl

#endif  // KOKKOS_ENABLE_CUDA
