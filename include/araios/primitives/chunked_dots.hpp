#pragma once
// The two passes of the deterministic reduction order (deterministic_reduce.hpp), for K sums
// of products taken over the same vector length in one sweep:
//
//   chunk pass   sum_k over chunk c (kDotChunk elements, kDotLanes lanes, the lane tree) of
//                a_k(i) * b_k(i), written to partials[k](c);
//   tree pass    the pairwise tree over the chunk index, then finish(sums) on the K totals.
//
// The terms come from a functor, terms(i, a, b), called exactly once for every element i; it
// may also update vectors in passing, which is how a solver fuses its vector updates with the
// reductions that read them (CG's x, r and z updates with r.z and r.r), and the finish functor
// may go on to the scalar arithmetic that needs the totals (alpha = rho / p.Ap). The order of
// every sum is the one of the unfused dot, so fused and unfused give the same bits.
//
// On a GPU a 256-thread team takes a chunk (see ChunkedDotsKernel for how its threads share
// the sequential lane chains).
#include <araios/detail/host_space.hpp>
#include <araios/detail/team_scratch.hpp>
#include <araios/primitives/fp.hpp>

#include <Kokkos_Core.hpp>

#include <cstddef>
#include <cstdint>

namespace araios {

/// Elements per chunk of the deterministic order. Part of the definition of the result (a
/// different value changes the bits), so it is a constant, not a tuning knob. 1024 keeps a
/// GPU team's staged operands in scratch (16 KiB per sum in double) and the chunk sums few
/// (n / 1024) for the tree.
constexpr std::int64_t kDotChunk = 1024;
/// Lanes of a chunk: on a GPU one warp runs them, reading 32 consecutive staged operands per
/// step. Also part of the definition of the result.
constexpr int kDotLanes = 32;

namespace Impl {

/// Threads of a GPU team, which takes one chunk: four elements each. Not part of the result.
constexpr int kDotTeamThreads = 256;
/// Threads of the one team that walks the tree levels on a GPU.
constexpr int kDotTreeThreads = 256;
/// Values of the tree team's scratch (32 KiB in double), where the tree's last steps run
/// (pairwiseTreeLevels). Not part of the result: the same additions run either way.
constexpr std::int64_t kTreeScratchValues = 4096;

/// The lane tree of a chunk: lanes[i] += lanes[i + w] for w = 16, 8, 4, 2, 1, in that order;
/// the chunk's sum is what is left in lanes[0]. Part of the definition of the result.
template <class Value>
KOKKOS_INLINE_FUNCTION Value laneTree(Value* lanes) {
  for (int width = kDotLanes / 2; width >= 1; width /= 2) {
    for (int i = 0; i < width; ++i) lanes[i] = lanes[i] + lanes[i + width];
  }
  return lanes[0];
}

/// Chunk sums one thread adds in registers per step of the tree pass: an aligned block of this
/// many is a whole subtree of the pairwise tree (its levels 1, 2 and 4), so one barrier and one
/// round of independent loads stand for three levels. Not part of the result.
constexpr int kTreeBlock = 8;

/// The pairwise tree over one aligned block, of which the first `present` values exist: level s
/// adds v[i + s] into v[i] for i a multiple of 2s, where i + s < present. Part of the result.
template <class Value>
KOKKOS_INLINE_FUNCTION Value blockTree(Value (&v)[kTreeBlock], int present) {
  for (int s = 1; s < kTreeBlock; s *= 2) {
    for (int i = 0; i + s < kTreeBlock; i += 2 * s) {
      if (i + s < present) v[i] = v[i] + v[i + s];
    }
  }
  return v[0];
}

/// Blocks of kTreeBlock that cover `left` values.
KOKKOS_INLINE_FUNCTION std::int64_t treeBlocks(std::int64_t left) { return (left + kTreeBlock - 1) / kTreeBlock; }

/// One step of the tree, kTreeBlock levels' worth: for each of `sums` arrays and each aligned block
/// j of its `left` values, where value q of block j is load(k, j * kTreeBlock + q), store(k, j,
/// subtree sum). A thread takes a block; its loads are independent of each other.
template <class Member, class Load, class Store>
KOKKOS_INLINE_FUNCTION void treeStep(const Member& team, std::int64_t left, std::int64_t sums, const Load& load,
                                     const Store& store) {
  const std::int64_t blocks = treeBlocks(left);
  Kokkos::parallel_for(Kokkos::TeamThreadRange(team, blocks * sums), [&](const std::int64_t bk) {
    const std::int64_t k = bk / blocks, j = bk % blocks;  // consecutive threads on one array's blocks
    const std::int64_t first = j * kTreeBlock;
    const int present = static_cast<int>(left - first < kTreeBlock ? left - first : kTreeBlock);
    decltype(+load(k, first)) v[kTreeBlock];
    for (int q = 0; q < kTreeBlock; ++q) v[q] = q < present ? load(k, first + q) : 0;
    store(k, j, blockTree(v, present));
  });
  team.team_barrier();
}

/// The pairwise tree over the chunk index for `sums` arrays of `count` chunk sums each, where
/// at(k, i) is chunk sum i of array k (a reference): level s adds at(k, i + s) into at(k, i) for
/// i a multiple of 2s where i + s < count, and at(k, 0) ends as array k's total.
///
/// The team walks it kTreeBlock levels at a time (treeStep): the sum of an aligned subtree,
/// S(i, 2s) = S(i, s) + S(i + s, s) (the second term only where i + s < count), has the same
/// bits whichever thread adds it and however many levels it adds at once. The steps run in
/// place, in global memory (block sums at(k, j * stride)), while their sums would not fit in
/// `values`, the team's scratch (`entries` per array; 0 keeps every step in place); the rest
/// run in scratch.
template <class Member, class Value, class At>
KOKKOS_INLINE_FUNCTION void pairwiseTreeLevels(const Member& team, std::int64_t count, std::int64_t sums,
                                               std::int64_t entries, Value* values, const At& at) {
  std::int64_t stride = 1, left = count;
  for (; left > 1 && (entries == 0 || treeBlocks(left) > entries); left = treeBlocks(left), stride *= kTreeBlock) {
    treeStep(
        team, left, sums, [&](std::int64_t k, std::int64_t i) -> Value { return at(k, i * stride); },
        [&](std::int64_t k, std::int64_t j, Value sum) { at(k, j * kTreeBlock * stride) = sum; });
  }
  if (left <= 1) return;
  // The first step in scratch reads the sums left in place: values[k * entries + j].
  treeStep(
      team, left, sums, [&](std::int64_t k, std::int64_t i) -> Value { return at(k, i * stride); },
      [&](std::int64_t k, std::int64_t j, Value sum) { values[k * entries + j] = sum; });
  left = treeBlocks(left);
  for (std::int64_t width = 1; left > 1; left = treeBlocks(left), width *= kTreeBlock) {
    treeStep(
        team, left, sums, [&](std::int64_t k, std::int64_t i) -> Value { return values[k * entries + i * width]; },
        [&](std::int64_t k, std::int64_t j, Value sum) { values[k * entries + j * kTreeBlock * width] = sum; });
  }
  Kokkos::parallel_for(Kokkos::TeamThreadRange(team, sums), [&](const std::int64_t k) { at(k, 0) = values[k * entries]; });
  team.team_barrier();
}

/// A CPU's walk of one chunk: element e goes to lane e % kDotLanes, each lane's fma chain in
/// its order. Part of the definition of the result. Forced inline: inside the FMA variant below
/// it is compiled for that CPU.
template <class Value, std::size_t K, class Terms>
KOKKOS_FORCEINLINE_FUNCTION void walkChunkInOrder(const Terms& terms, std::int64_t begin, int length,
                                             Value (&acc)[K][kDotLanes]) {
  for (int e = 0; e < length; ++e) {
    Value a[K], b[K];
    terms(begin + e, a, b);
    for (std::size_t k = 0; k < K; ++k) acc[k][e % kDotLanes] = fp::fma(a[k], b[k], acc[k][e % kDotLanes]);
  }
}

// Baseline x86-64 has no FMA instruction, so fp::fma is a call into libm for every element, and
// the walk above ran 2.5 to 2.8 times slower than Fast mode's unordered sum on a 2-core Xeon. The
// same walk compiled for a CPU with FMA (GCC and Clang expand fma inline there) is chosen at run
// time where the CPU has it. fma is correctly rounded either way: the bits are the same.
// ARAIOS_HOST_FMA_TARGET marks such a variant; where there is none to compile (another CPU, a
// GPU's pass) it is a plain inline function and hostWalksWithFma() is false.
#if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__)) && !defined(__CUDA_ARCH__)
#define ARAIOS_HOST_FMA_DISPATCH 1
#define ARAIOS_HOST_FMA_TARGET __attribute__((target("fma")))
#else
#define ARAIOS_HOST_FMA_TARGET KOKKOS_INLINE_FUNCTION
#endif

/// Whether this CPU runs the walk with the FMA instruction (asked once).
inline bool hostWalksWithFma() {
#ifdef ARAIOS_HOST_FMA_DISPATCH
  static const bool has = __builtin_cpu_supports("fma");
  return has;
#else
  return false;
#endif
}

template <class Value, std::size_t K, class Terms>
ARAIOS_HOST_FMA_TARGET void walkChunkInOrderWithFma(const Terms& terms, std::int64_t begin, int length,
                                                    Value (&acc)[K][kDotLanes]) {
  walkChunkInOrder<Value, K>(terms, begin, length, acc);
}

/// K arrays of chunk sums, one per reduction.
template <class Value, class Device, std::size_t K>
using PartialSums = Kokkos::Array<Kokkos::View<Value*, Device>, K>;

/// The chunk pass: partials[k](c) = the ordered sum of chunk c's products a_k(i) * b_k(i).
///
/// On a GPU a team takes one chunk in three steps. Its threads first call terms(i) for the chunk's
/// elements, consecutive threads on consecutive elements, and stage the operands in scratch;
/// then one thread per lane and sum runs the lane's fma chain over the staged operands; then
/// one thread per sum adds the lanes by the tree. Staging lets a whole 256-thread block load
/// and update the chunk at once, with eight times the loads in flight of a warp that walks
/// its lanes' chains itself (the chains are sequential; the loads need not be).
template <class ExecSpace, class Value, class Device, std::size_t K, class Terms>
struct ChunkedDotsKernel {
  using Member = typename Kokkos::TeamPolicy<ExecSpace>::member_type;
  static constexpr int kSums = static_cast<int>(K);
  static constexpr int kChunk = static_cast<int>(kDotChunk);
  static constexpr bool kHost = isHostSpace<ExecSpace>();
  Terms terms;
  PartialSums<Value, Device, K> partials;
  std::int64_t n;
  bool hostFma = false;  ///< a CPU's walk with the FMA instruction (hostWalksWithFma)

  /// Operands a_k then b_k of each sum, kDotChunk each, then the lanes' sums.
  static std::size_t scratchBytes() { return scratchArrayBytes<Value>((2 * kChunk + kDotLanes) * K); }

  KOKKOS_INLINE_FUNCTION void operator()(const Member& team) const {
    Value* const operands = scratchArray<Value>(team, (2 * kChunk + kDotLanes) * K);
    Value* const lanes = operands + 2 * kChunk * kSums;  // lanes[k * kDotLanes + lane]
    const std::int64_t chunk = team.league_rank();
    const std::int64_t begin = chunk * kDotChunk;
    const int length = static_cast<int>(begin + kDotChunk < n ? kDotChunk : n - begin);
    if constexpr (kHost) {
      // A team is one thread: it walks the chunk in order, element e going to lane e % kDotLanes,
      // which runs every lane's chain in its order without staging the operands (1.4x faster
      // on a 2-core CPU than the three steps below).
      Value acc[K][kDotLanes] = {};
      if (hostFma) {
        walkChunkInOrderWithFma<Value, K>(terms, begin, length, acc);
      } else {
        walkChunkInOrder<Value, K>(terms, begin, length, acc);
      }
      for (int k = 0; k < kSums; ++k) partials[k](chunk) = laneTree(acc[k]);
      return;
    }
    Kokkos::parallel_for(Kokkos::TeamThreadRange(team, length), [&](const int e) {
      Value a[K], b[K];
      terms(begin + e, a, b);
      for (int k = 0; k < kSums; ++k) {
        operands[(2 * k) * kChunk + e] = a[k];
        operands[(2 * k + 1) * kChunk + e] = b[k];
      }
    });
    team.team_barrier();
    Kokkos::parallel_for(Kokkos::TeamThreadRange(team, kDotLanes * kSums), [&](const int t) {
      const int k = t / kDotLanes, lane = t % kDotLanes;
      const Value* const a = operands + (2 * k) * kChunk;
      const Value* const b = operands + (2 * k + 1) * kChunk;
      Value acc = 0;
      for (int e = lane; e < length; e += kDotLanes) acc = fp::fma(a[e], b[e], acc);
      lanes[k * kDotLanes + lane] = acc;
    });
    team.team_barrier();
    Kokkos::parallel_for(Kokkos::TeamThreadRange(team, kSums), [&](const int k) {
      partials[k](chunk) = laneTree(lanes + k * kDotLanes);
    });
  }
};

/// The tree pass: each partials[k] summed by the pairwise tree over the chunk index (level s
/// adds partial i + s into i for i a multiple of 2s: pairwiseTreeLevels, its last steps in
/// scratch once the blocks of the sums left fit kEntries per array), then finish(totals) once.
template <class ExecSpace, class Value, class Device, std::size_t K, class Finish>
struct PairwiseTreesKernel {
  using Member = typename Kokkos::TeamPolicy<ExecSpace>::member_type;
  static constexpr std::int64_t kSums = static_cast<std::int64_t>(K);
  PartialSums<Value, Device, K> partials;
  std::int64_t count;
  Finish finish;

  /// Values of the scratch per sum.
  static constexpr std::int64_t kEntries = kTreeScratchValues / kSums;
  static std::size_t scratchBytes() { return scratchArrayBytes<Value>(kTreeScratchValues); }

  KOKKOS_INLINE_FUNCTION void operator()(const Member& team) const {
    pairwiseTreeLevels(team, count, kSums, kEntries, scratchArray<Value>(team, kTreeScratchValues),
                       [&](const std::int64_t k, const std::int64_t i) -> Value& {
                         return partials[static_cast<std::size_t>(k)](i);
                       });
    Kokkos::single(Kokkos::PerTeam(team), [&]() {
      Value totals[K];
      for (std::size_t k = 0; k < K; ++k) totals[k] = count > 0 ? partials[k](0) : Value(0);
      finish(totals);
    });
  }
};

/// Chunks of the deterministic order for n elements.
inline std::int64_t dotChunks(std::int64_t n) { return (n + kDotChunk - 1) / kDotChunk; }

/// The chunk pass on `exec`, asynchronously: every partials[k] needs dotChunks(n) entries.
template <class ExecSpace, class Value, class Device, std::size_t K, class Terms>
void chunkPass(const char* label, const ExecSpace& exec, std::int64_t n, const Terms& terms,
               const PartialSums<Value, Device, K>& partials) {
  const std::int64_t chunks = dotChunks(n);
  if (chunks == 0) return;
  using Kernel = ChunkedDotsKernel<ExecSpace, Value, Device, K, Terms>;
  // On a CPU a team is one thread, which walks its chunk in order and stages nothing.
  Kokkos::TeamPolicy<ExecSpace> policy(exec, static_cast<int>(chunks), Kernel::kHost ? 1 : kDotTeamThreads);
  const bool hostFma = Kernel::kHost && hostWalksWithFma();
  Kokkos::parallel_for(label, policy.set_scratch_size(0, Kokkos::PerTeam(Kernel::kHost ? 0 : Kernel::scratchBytes())),
                       Kernel{terms, partials, n, hostFma});
}

/// The tree pass over `chunks` partial sums per array, then finish(totals), asynchronously.
template <class ExecSpace, class Value, class Device, std::size_t K, class Finish>
void treePass(const char* label, const ExecSpace& exec, std::int64_t chunks, const PartialSums<Value, Device, K>& partials,
              const Finish& finish) {
  using Kernel = PairwiseTreesKernel<ExecSpace, Value, Device, K, Finish>;
  Kokkos::TeamPolicy<ExecSpace> policy(exec, 1, isHostSpace<ExecSpace>() ? 1 : kDotTreeThreads);
  Kokkos::parallel_for(label, policy.set_scratch_size(0, Kokkos::PerTeam(Kernel::scratchBytes())),
                       Kernel{partials, chunks, finish});
}

/// Both passes, asynchronously.
template <class ExecSpace, class Value, class Device, std::size_t K, class Terms, class Finish>
void chunkedDots(const char* label, const ExecSpace& exec, std::int64_t n, const Terms& terms,
                 const PartialSums<Value, Device, K>& partials, const Finish& finish) {
  chunkPass(label, exec, n, terms, partials);
  treePass(label, exec, dotChunks(n), partials, finish);
}

/// The terms of one dot product x . y (x . x for a norm).
template <class XView, class YView, class Value>
struct DotTerms {
  XView x;
  YView y;
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t i, Value (&a)[1], Value (&b)[1]) const {
    a[0] = static_cast<Value>(x(i));
    b[0] = static_cast<Value>(y(i));
  }
};

}  // namespace Impl
}  // namespace araios
