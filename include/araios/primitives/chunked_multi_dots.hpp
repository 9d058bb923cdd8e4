#pragma once
// Dot products of one vector w with the leading `count` columns of a basis V (a LayoutLeft
// n x columns View), count known at run time only, in one sweep over V:
//
//   chunk pass   partials(c, j) = the ordered sum over chunk c of w(i) * V(i, j), for every
//                j < count, with w(i) taken from entry(i), which is called exactly once for
//                every element and may update vectors in passing (GMRES subtracts its
//                projection from w there and dots the result);
//   tree pass    every column of partials summed by the pairwise tree over the chunk index,
//                then finish(totals) once, totals(j) the j-th sum.
//
// Sum j is taken in the deterministic order of deterministic_reduce.hpp (chunks of kDotChunk,
// kDotLanes fma chains from zero, the lane tree, the chunk tree), so it has the bits of
// araios::dot(exec, w, column j) in Deterministic mode, whatever count is. chunked_dots.hpp
// does the same for a number of sums fixed at compile time; GMRES's classical Gram-Schmidt
// needs k + 1 of them at its step k, hence this variant.
//
// On a GPU a 256-thread team takes a chunk: its threads first stage w's chunk in scratch
// (consecutive threads on consecutive elements, the entry's work done once per element), then
// eight columns at a time one warp per column runs the 32 lane chains, lane l reading
// V(begin + l + 32 s, j), so a warp's loads are 32 consecutive entries of the column. Staging
// the basis itself would take count x 8 KiB of scratch per team; it is read where it lies.
#include <araios/detail/host_space.hpp>
#include <araios/detail/team_scratch.hpp>
#include <araios/error.hpp>
#include <araios/primitives/chunked_dots.hpp>
#include <araios/primitives/fp.hpp>

#include <Kokkos_Core.hpp>

#include <cstddef>
#include <cstdint>
#include <string>
#include <type_traits>

namespace araios::Impl {

/// Columns whose lane chains a GPU team runs at once: one warp of lanes per column, so a team
/// needs scratch for only this many columns' lanes, whatever count is.
constexpr int kMultiDotRoundColumns = kDotTeamThreads / kDotLanes;

/// The chunk sums of every column: chunks x columns, the chunk index fastest (the tree pass
/// adds neighbours of one column).
template <class Value, class Device>
using MultiPartials = Kokkos::View<Value**, Kokkos::LayoutLeft, Device>;

/// Room for the chunk sums of `columns` dot products over vectors of n entries.
template <class Value, class Device>
MultiPartials<Value, Device> allocateMultiPartials(std::int64_t n, int columns, const std::string& label) {
  const std::int64_t chunks = dotChunks(n);
  return MultiPartials<Value, Device>(Kokkos::view_alloc(Kokkos::WithoutInitializing, label), chunks > 0 ? chunks : 1,
                                      columns > 0 ? columns : 1);
}

/// The sums as the tree pass's finish sees them: totals(j), zero for an empty vector.
template <class Value, class Device>
struct MultiDotTotals {
  MultiPartials<Value, Device> partials;
  std::int64_t chunks;
  KOKKOS_INLINE_FUNCTION Value operator()(int j) const { return chunks > 0 ? partials(0, j) : Value(0); }
};

/// The plain entry: w(i) as it is.
template <class WView, class Value>
struct VectorEntry {
  WView w;
  KOKKOS_INLINE_FUNCTION Value operator()(std::int64_t i) const { return static_cast<Value>(w(i)); }
};

/// A finish that stores the sums: out(first + j) = totals(j) for j < count.
template <class Value, class Device>
struct StoreMultiTotals {
  Kokkos::View<Value*, Device> out;
  int first;
  int count;
  KOKKOS_INLINE_FUNCTION void operator()(const MultiDotTotals<Value, Device>& totals) const {
    for (int j = 0; j < count; ++j) out(first + j) = totals(j);
  }
};

/// A CPU's lane chains of one column j over a staged chunk: lane l sums staged[e] * V(begin + e, j)
/// for e = l, l + 32, ... in order from 0, into lanes[l]. Forced inline: inside the FMA variant below it
/// is compiled for that CPU (chunked_dots.hpp says why).
template <class Value, class Basis>
KOKKOS_FORCEINLINE_FUNCTION void columnLaneChains(const Value* staged, const Basis& V, std::int64_t begin, int length,
                                                  int j, Value* lanes) {
  // The column is read once, in order, a step of the 32 chains per 32 entries: each chain still
  // adds its entries in increasing order, and the 32 of a step are independent (vectorisable).
  for (int lane = 0; lane < kDotLanes; ++lane) lanes[lane] = 0;
  int base = 0;
  for (; base + kDotLanes <= length; base += kDotLanes) {
    for (int lane = 0; lane < kDotLanes; ++lane) {
      lanes[lane] = fp::fma(staged[base + lane], static_cast<Value>(V(begin + base + lane, j)), lanes[lane]);
    }
  }
  for (int lane = 0; base + lane < length; ++lane) {
    lanes[lane] = fp::fma(staged[base + lane], static_cast<Value>(V(begin + base + lane, j)), lanes[lane]);
  }
}

template <class Value, class Basis>
ARAIOS_HOST_FMA_TARGET void columnLaneChainsWithFma(const Value* staged, const Basis& V, std::int64_t begin,
                                                    int length, int j, Value* lanes) {
  columnLaneChains(staged, V, begin, length, j, lanes);
}

/// The chunk pass (see the top of this file for how a team shares the work).
template <class ExecSpace, class Value, class Device, class Basis, class Entry>
struct ChunkedMultiDotsKernel {
  using Member = typename Kokkos::TeamPolicy<ExecSpace>::member_type;
  static constexpr int kChunk = static_cast<int>(kDotChunk);
  static constexpr int kRound = kMultiDotRoundColumns;
  static constexpr bool kHost = isHostSpace<ExecSpace>();
  Entry entry;
  Basis V;
  MultiPartials<Value, Device> partials;
  int count;
  std::int64_t n;
  bool hostFma = false;  ///< a CPU's chains with the FMA instruction (hostWalksWithFma)

  /// w's chunk, then the lanes of one round of columns.
  static std::size_t scratchBytes() { return scratchArrayBytes<Value>(kChunk + kRound * kDotLanes); }

  KOKKOS_INLINE_FUNCTION void operator()(const Member& team) const {
    Value* const staged = scratchArray<Value>(team, kChunk + kRound * kDotLanes);
    Value* const lanes = staged + kChunk;  // lanes[c * kDotLanes + lane] for the round's column c
    const std::int64_t chunk = team.league_rank();
    const std::int64_t begin = chunk * kDotChunk;
    const int length = static_cast<int>(begin + kDotChunk < n ? kDotChunk : n - begin);
    Kokkos::parallel_for(Kokkos::TeamThreadRange(team, length), [&](const int e) { staged[e] = entry(begin + e); });
    team.team_barrier();
    if constexpr (kHost) {
      // A team is one thread: each column's chains, then its lane tree.
      for (int j = 0; j < count; ++j) {
        if (hostFma) {
          columnLaneChainsWithFma(staged, V, begin, length, j, lanes);
        } else {
          columnLaneChains(staged, V, begin, length, j, lanes);
        }
        partials(chunk, j) = laneTree(lanes);
      }
    } else {
      for (int first = 0; first < count; first += kRound) {
        const int columns = count - first < kRound ? count - first : kRound;
        Kokkos::parallel_for(Kokkos::TeamThreadRange(team, columns * kDotLanes), [&](const int t) {
          const int j = first + t / kDotLanes, lane = t % kDotLanes;
          Value acc = 0;
          for (int e = lane; e < length; e += kDotLanes) {
            acc = fp::fma(staged[e], static_cast<Value>(V(begin + e, j)), acc);
          }
          lanes[t] = acc;
        });
        team.team_barrier();
        Kokkos::parallel_for(Kokkos::TeamThreadRange(team, columns), [&](const int c) {
          partials(chunk, first + c) = laneTree(lanes + c * kDotLanes);
        });
        team.team_barrier();  // the next round reuses the lanes
      }
    }
  }
};

/// The tree pass: the first `count` columns of partials summed by the pairwise tree over the
/// chunk index (level s adds partial i + s into i for i a multiple of 2s), then finish once.
template <class ExecSpace, class Value, class Device, class Finish>
struct MultiTreesKernel {
  using Member = typename Kokkos::TeamPolicy<ExecSpace>::member_type;
  MultiPartials<Value, Device> partials;
  std::int64_t chunks;
  int count;
  Finish finish;

  static std::size_t scratchBytes() { return scratchArrayBytes<Value>(kTreeScratchValues); }

  KOKKOS_INLINE_FUNCTION void operator()(const Member& team) const {
    // Scratch for as many chunk sums per column as fit (none where the columns outnumber its
    // values: then every level runs in place).
    const std::int64_t entries = count > 0 ? kTreeScratchValues / count : 0;
    pairwiseTreeLevels(team, chunks, static_cast<std::int64_t>(count), entries,
                       scratchArray<Value>(team, kTreeScratchValues),
                       [&](const std::int64_t j, const std::int64_t i) -> Value& {
                         return partials(i, static_cast<int>(j));
                       });
    Kokkos::single(Kokkos::PerTeam(team), [&]() { finish(MultiDotTotals<Value, Device>{partials, chunks}); });
  }
};

template <class Basis, class Value, class Device>
void checkMultiDots(const Basis& V, std::int64_t n, int count, const MultiPartials<Value, Device>& partials) {
  static_assert(std::is_same_v<typename Basis::array_layout, Kokkos::LayoutLeft>,
                "the basis must be LayoutLeft: its columns contiguous");
  if (count < 0 || count > static_cast<int>(V.extent(1)) || count > static_cast<int>(partials.extent(1)) ||
      static_cast<std::int64_t>(V.extent(0)) != n || static_cast<std::int64_t>(partials.extent(0)) < dotChunks(n)) {
    throw InputError("araios::chunkedMultiDots: " + std::to_string(count) + " columns of a " +
                     std::to_string(V.extent(0)) + " x " + std::to_string(V.extent(1)) + " basis for " +
                     std::to_string(n) + " entries, with room for " + std::to_string(partials.extent(0)) + " x " +
                     std::to_string(partials.extent(1)) + " chunk sums; expected count <= both and a chunk sum per " +
                     std::to_string(kDotChunk) + " entries");
  }
}

/// The chunk pass on `exec`, asynchronously: partials(c, j) for every chunk c of n entries and
/// j < count. entry(i) is called once for every i < n.
template <class ExecSpace, class Value, class Device, class Basis, class Entry>
void multiDotChunkPass(const char* label, const ExecSpace& exec, std::int64_t n, const Entry& entry, const Basis& V,
                       int count, const MultiPartials<Value, Device>& partials) {
  checkMultiDots(V, n, count, partials);
  const std::int64_t chunks = dotChunks(n);
  if (chunks == 0) return;
  using Kernel = ChunkedMultiDotsKernel<ExecSpace, Value, Device, Basis, Entry>;
  // On a CPU a team is one thread: it stages w's chunk, then runs each column's chains in turn.
  Kokkos::TeamPolicy<ExecSpace> policy(exec, static_cast<int>(chunks), isHostSpace<ExecSpace>() ? 1 : kDotTeamThreads);
  Kokkos::parallel_for(label, policy.set_scratch_size(0, Kokkos::PerTeam(Kernel::scratchBytes())),
                       Kernel{entry, V, partials, count, n, Kernel::kHost && hostWalksWithFma()});
}

/// The tree pass over `chunks` chunk sums of `count` columns, then finish(totals), asynchronously.
template <class ExecSpace, class Value, class Device, class Finish>
void multiDotTreePass(const char* label, const ExecSpace& exec, std::int64_t chunks, int count,
                      const MultiPartials<Value, Device>& partials, const Finish& finish) {
  using Kernel = MultiTreesKernel<ExecSpace, Value, Device, Finish>;
  Kokkos::TeamPolicy<ExecSpace> policy(exec, 1, isHostSpace<ExecSpace>() ? 1 : kDotTreeThreads);
  Kokkos::parallel_for(label, policy.set_scratch_size(0, Kokkos::PerTeam(Kernel::scratchBytes())),
                       Kernel{partials, chunks, count, finish});
}

/// Both passes, asynchronously: finish sees totals(j) = entry . V(:, j) for j < count.
template <class ExecSpace, class Value, class Device, class Basis, class Entry, class Finish>
void chunkedMultiDots(const char* label, const ExecSpace& exec, std::int64_t n, const Entry& entry, const Basis& V,
                      int count, const MultiPartials<Value, Device>& partials, const Finish& finish) {
  multiDotChunkPass(label, exec, n, entry, V, count, partials);
  multiDotTreePass(label, exec, dotChunks(n), count, partials, finish);
}

}  // namespace araios::Impl
