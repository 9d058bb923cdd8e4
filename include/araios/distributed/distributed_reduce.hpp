#pragma once
// Dot products and norms of row-distributed vectors whose bits do not depend on the number of
// ranks: each rank holds the entries [offset, offset + n_local) of vectors of n entries.
//
//   araios::DistributedReduction<double, Device> ws(comm, partition);
//   araios::dot(exec, x, y, target, araios::ReductionMode::Deterministic, ws);   // collective
//
// The three modes give what one process gives (primitives/deterministic_reduce.hpp):
//   Fast           each rank's fast sum, added by MPI_Allreduce: the bits depend on the ranks.
//   Deterministic  the one-process order exactly: chunks of kDotChunk entries at fixed global
//                  positions, each summed by 32 lanes, then a pairwise tree over the chunk
//                  index. Each rank sums the chunks that start in its block, and the largest
//                  subtrees of the global tree that its chunks complete; the at most
//                  2 (ceil(log2 chunks) + 1) + 1 subtree values of every rank are exchanged with one
//                  MPI_Allgather and every rank finishes the same tree. A chunk cut by a block
//                  boundary is summed by the rank where it starts, which receives the entries
//                  of the chunk's rest (fewer than kDotChunk) from the ranks that hold them.
//   Accurate       each rank's exact fixed-point sum (normalized limbs), added limb by limb
//                  with MPI_Allreduce(MPI_SUM) on 64-bit integers, which is exact and
//                  associative, then rounded once: correctly rounded, as on one process.
// Every call synchronises `exec` and the ranks (the result is needed everywhere).
#include <araios/distributed/mpi_check.hpp>
#include <araios/distributed/row_partition.hpp>
#include <araios/error.hpp>
#include <araios/primitives/chunked_dots.hpp>
#include <araios/primitives/deterministic_reduce.hpp>

#include <Kokkos_Core.hpp>
#include <mpi.h>

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace araios {
namespace Impl {

/// One node of the global pairwise tree: the sum of chunks [index, min(index + 2^level, C)).
struct TreeNode {
  std::int64_t index = 0;
  std::int64_t level = -1;  ///< -1: an unused slot
  double value = 0;         ///< exact for float and double values
};

/// Who sums which chunk, for one partition: fixed when the reduction is built.
struct ChunkPlan {
  std::int64_t n = 0;             ///< global length
  std::int64_t chunks = 0;        ///< C, global chunk count
  std::int64_t offset = 0;        ///< first global entry of this rank
  std::int64_t localLength = 0;
  std::int64_t headLength = 0;    ///< leading entries that belong to a chunk started on another rank
  int headOwner = -1;             ///< the rank that sums that chunk
  std::int64_t firstChunk = 0;    ///< c0: the first chunk that starts in this block
  std::int64_t completeChunks = 0;///< chunks c0 .. c0 + k - 1 lie wholly in this block
  bool openChunk = false;         ///< chunk c0 + k starts here and ends on later ranks
  std::int64_t openLocalBegin = 0;
  std::vector<std::pair<int, std::int64_t>> fragments;  ///< (rank, entries) that complete it, in order
  std::vector<TreeNode> nodes;    ///< subtrees this rank's complete chunks make, index and level only
  int slots = 0;                  ///< nodes per rank in the exchange (the same on every rank)
};

inline std::int64_t chunkStartAtOrAfter(std::int64_t i) { return (i + kDotChunk - 1) / kDotChunk; }

/// The largest subtrees that tile chunks [begin, end) of a tree over `chunks` leaves.
inline std::vector<TreeNode> tileWithSubtrees(std::int64_t begin, std::int64_t end, std::int64_t chunks) {
  std::vector<TreeNode> nodes;
  for (std::int64_t i = begin; i < end;) {
    std::int64_t level = 0;
    while ((std::int64_t(1) << level) < chunks && i % (std::int64_t(2) << level) == 0 &&
           std::min(i + (std::int64_t(2) << level), chunks) <= end) {
      ++level;
    }
    nodes.push_back({i, level, 0});
    i = std::min(i + (std::int64_t(1) << level), chunks);
  }
  return nodes;
}

inline ChunkPlan chunkPlan(const RowPartition& partition, int rank) {
  ChunkPlan p;
  p.n = partition.numRows();
  p.chunks = (p.n + kDotChunk - 1) / kDotChunk;
  p.offset = partition.begin(rank);
  p.localLength = partition.rows(rank);
  const std::int64_t end = p.offset + p.localLength;
  const std::int64_t firstStart = chunkStartAtOrAfter(p.offset) * kDotChunk;
  p.headLength = std::min(end, firstStart) - p.offset;
  if (p.headLength > 0) p.headOwner = partition.owner(p.offset / kDotChunk * kDotChunk);
  p.firstChunk = chunkStartAtOrAfter(p.offset);
  if (firstStart < end) {
    std::int64_t c = p.firstChunk;
    while (c < p.chunks && std::min((c + 1) * kDotChunk, p.n) <= end) ++c;
    p.completeChunks = c - p.firstChunk;
    p.openChunk = c * kDotChunk < end;
    p.openLocalBegin = c * kDotChunk - p.offset;
  }
  for (int s = rank + 1; s < partition.ranks() && p.openChunk; ++s) {
    const ChunkPlan other = [&] {
      ChunkPlan q;
      q.offset = partition.begin(s);
      const std::int64_t qEnd = q.offset + partition.rows(s);
      q.headLength = std::min(qEnd, chunkStartAtOrAfter(q.offset) * kDotChunk) - q.offset;
      return q;
    }();
    if (other.headLength <= 0) continue;
    if (partition.owner(other.offset / kDotChunk * kDotChunk) != rank) break;
    p.fragments.emplace_back(s, other.headLength);
  }
  p.nodes = tileWithSubtrees(p.firstChunk, p.firstChunk + p.completeChunks, p.chunks);
  // Tiling a range takes at most two subtrees per level, plus the open chunk's leaf.
  int levels = 0;
  while ((std::int64_t(1) << levels) < p.chunks) ++levels;
  p.slots = 2 * (levels + 1) + 1;
  return p;
}

/// Sums the complete chunks' subtrees in place (the global tree's levels, restricted to the
/// subtrees that lie in this block), then copies each tile's value to `tiles`.
template <class ExecSpace, class Value, class Device>
struct LocalSubtreesKernel {
  using Member = typename Kokkos::TeamPolicy<ExecSpace>::member_type;
  Kokkos::View<Value*, Device> partials;   ///< chunk c0 + j at j
  Kokkos::View<const std::int64_t*, Device> tileIndex;
  Kokkos::View<Value*, Device> tiles;
  std::int64_t firstChunk, endChunk, chunks;

  KOKKOS_INLINE_FUNCTION void operator()(const Member& team) const {
    for (std::int64_t stride = 1; stride < chunks; stride *= 2) {
      // Parents at global multiples of 2*stride, whose span lies in [firstChunk, endChunk).
      const std::int64_t firstParent = (firstChunk + 2 * stride - 1) / (2 * stride);
      const std::int64_t lastParent = endChunk / (2 * stride) + 1;
      Kokkos::parallel_for(Kokkos::TeamThreadRange(team, firstParent, lastParent), [&](const std::int64_t p) {
        const std::int64_t g = p * 2 * stride;
        const std::int64_t spanEnd = g + 2 * stride < chunks ? g + 2 * stride : chunks;
        if (g >= firstChunk && spanEnd <= endChunk && g + stride < chunks) {
          partials(g - firstChunk) = partials(g - firstChunk) + partials(g + stride - firstChunk);
        }
      });
      team.team_barrier();
    }
    Kokkos::parallel_for(Kokkos::TeamThreadRange(team, static_cast<std::int64_t>(tiles.extent(0))),
                         [&](const std::int64_t t) { tiles(t) = partials(tileIndex(t) - firstChunk); });
  }
};

/// The 32-lane sum of one chunk on the host, in the device's order (ChunkedDotsKernel).
template <class Value>
Value chunkSum(const std::vector<Value>& x, const std::vector<Value>& y) {
  Value lanes[kDotLanes] = {};
  for (std::size_t i = 0; i < x.size(); ++i) lanes[i % kDotLanes] = fp::fma(x[i], y[i], lanes[i % kDotLanes]);
  return laneTree(lanes);
}

/// Finishes the global tree from every rank's tiles (which together tile [0, C)).
template <class Value>
Value finishTree(const std::vector<TreeNode>& all, std::int64_t chunks) {
  if (chunks == 0) return Value(0);
  std::map<std::pair<std::int64_t, std::int64_t>, Value> known;
  for (const TreeNode& t : all) {
    if (t.level >= 0) known[{t.level, t.index}] = static_cast<Value>(t.value);
  }
  std::int64_t top = 0;
  while ((std::int64_t(1) << top) < chunks) ++top;
  // Depth-first, left before right: Value + Value in the device tree's order.
  struct Walker {
    const std::map<std::pair<std::int64_t, std::int64_t>, Value>& known;
    std::int64_t chunks;
    Value operator()(std::int64_t level, std::int64_t index) const {
      const auto it = known.find({level, index});
      if (it != known.end()) return it->second;
      if (level == 0) {
        throw RuntimeError("araios::dot (distributed): no rank summed chunk " + std::to_string(index) +
                           "; the ranks disagree on the partition");
      }
      const Value left = (*this)(level - 1, index);
      const std::int64_t right = index + (std::int64_t(1) << (level - 1));
      return right < chunks ? left + (*this)(level - 1, right) : left;
    }
  };
  return Walker{known, chunks}(top, 0);
}

}  // namespace Impl

/// The state of the rank-independent reductions over one partition: the chunk plan, the local
/// workspace and the host buffers. Built once per solver (collective use only).
template <class Value, class Device>
class DistributedReduction {
 public:
  DistributedReduction(MPI_Comm comm, const RowPartition& partition)
      : comm_(comm), rank_(commRank(comm)), plan_(Impl::chunkPlan(partition, rank_)) {
    if (partition.ranks() != commSize(comm)) {
      throw InputError("araios::DistributedReduction: the partition has " + std::to_string(partition.ranks()) +
                       " blocks; expected one per rank (" + std::to_string(commSize(comm)) + ")");
    }
    local_.reserve(plan_.localLength);
    std::vector<std::int64_t> index;
    for (const Impl::TreeNode& t : plan_.nodes) index.push_back(t.index);
    tileIndex_ = Kokkos::View<std::int64_t*, Device>("araios::dot::tile_index", index.size());
    auto indexHost = Kokkos::create_mirror_view(tileIndex_);
    for (std::size_t t = 0; t < index.size(); ++t) indexHost(t) = index[t];
    Kokkos::deep_copy(tileIndex_, indexHost);
    tiles_ = Kokkos::View<Value*, Device>("araios::dot::tiles", index.size());
    slot_ = Kokkos::View<Value*, Device>("araios::dot::distributed_result", 1);
  }

  MPI_Comm comm() const { return comm_; }
  std::int64_t localLength() const { return plan_.localLength; }
  std::int64_t globalLength() const { return plan_.n; }
  /// Seconds spent in MPI calls by the reductions so far.
  double commSeconds() const { return commSeconds_; }

  template <class ExecSpace, class XView, class YView>
  void reduce(const ExecSpace& exec, const XView& x, const YView& y, const DeviceScalar<Value, Device>& target,
              ReductionMode mode, Impl::ReduceTransform transform) {
    if (static_cast<std::int64_t>(x.extent(0)) != plan_.localLength ||
        static_cast<std::int64_t>(y.extent(0)) != plan_.localLength) {
      throw InputError("araios::dot (distributed): this rank holds " + std::to_string(x.extent(0)) + " and " +
                       std::to_string(y.extent(0)) + " entries; expected " + std::to_string(plan_.localLength) +
                       " (its block of the partition)");
    }
    if (mode == ReductionMode::Fast) {
      reduceFast(exec, x, y, target, transform);
    } else if (mode == ReductionMode::Deterministic) {
      reduceDeterministic(exec, x, y, target, transform);
    } else {
      reduceExact(exec, x, y, target, transform);
    }
  }

  /// The maximum over the ranks (exact, so the same on any number of ranks).
  template <class T>
  T allMax(T value) {
    T result = value;
    timed([&] { ARAIOS_MPI_CHECK(MPI_Allreduce(&value, &result, 1, Impl::mpiType<T>(), MPI_MAX, comm_)); });
    return result;
  }

 private:
  template <class F>
  void timed(F&& f) {
    Kokkos::Timer timer;
    f();
    commSeconds_ += timer.seconds();
  }

  template <class ExecSpace>
  void store(const ExecSpace& exec, Value value, const DeviceScalar<Value, Device>& target,
             Impl::ReduceTransform transform) {
    Kokkos::View<Value, Device> source = local_.fastResult;
    Kokkos::deep_copy(exec, source, value);
    Impl::runOnce("araios::dot::distributed_store", exec, Impl::StoreTransformed<Value, Device>{source, target, transform});
  }

  template <class ExecSpace, class XView, class YView>
  void reduceFast(const ExecSpace& exec, const XView& x, const YView& y, const DeviceScalar<Value, Device>& target,
                  Impl::ReduceTransform transform) {
    const DeviceScalar<Value, Device> partial{slot_, 0};
    Impl::reduceProducts(exec, x, y, partial, ReductionMode::Fast, local_, Impl::ReduceTransform::Identity);
    Value mine = 0, sum = 0;
    exec.fence();
    Kokkos::deep_copy(mine, Kokkos::subview(slot_, 0));
    timed([&] { ARAIOS_MPI_CHECK(MPI_Allreduce(&mine, &sum, 1, Impl::mpiType<Value>(), MPI_SUM, comm_)); });
    store(exec, sum, target, transform);
  }

  template <class ExecSpace, class XView, class YView>
  void reduceExact(const ExecSpace& exec, const XView& x, const YView& y, const DeviceScalar<Value, Device>& target,
                   Impl::ReduceTransform transform) {
    using L = Impl::ExactAccumulatorLayout;
    constexpr int kWords = L::kLimbs + Impl::kSpecialCount;
    Kokkos::deep_copy(exec, local_.exact, std::int64_t(0));
    const std::int64_t n = plan_.localLength;
    Impl::addExactDot(exec, x, y, local_.exact, n);
    auto limbs = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), local_.exact);
    // Normalized, each limb is below 2^32 in magnitude: the sum over any number of ranks fits.
    Impl::normalize(limbs.data());
    std::vector<std::int64_t> total(kWords);
    timed([&] { ARAIOS_MPI_CHECK(MPI_Allreduce(limbs.data(), total.data(), kWords, MPI_INT64_T, MPI_SUM, comm_)); });
    for (int k = 0; k < kWords; ++k) limbs(k) = total[k];
    Kokkos::deep_copy(exec, local_.exact, limbs);
    Impl::runOnce("araios::dot::exact_round", exec, Impl::ExactFinalize<Value, Device>{local_.exact, target, transform});
  }

  template <class ExecSpace, class XView, class YView>
  void reduceDeterministic(const ExecSpace& exec, const XView& x, const YView& y,
                           const DeviceScalar<Value, Device>& target, Impl::ReduceTransform transform) {
    const Impl::ChunkPlan& p = plan_;
    // Complete chunks: the one-process chunk kernel on the block's aligned part.
    if (p.completeChunks > 0) {
      const std::int64_t begin = p.headLength;
      const std::int64_t end = std::min((p.firstChunk + p.completeChunks) * kDotChunk, p.n) - p.offset;
      const auto xs = Kokkos::subview(x, std::make_pair(begin, end));
      const auto ys = Kokkos::subview(y, std::make_pair(begin, end));
      Impl::chunkPass("araios::dot::chunks", exec, end - begin, Impl::DotTerms<decltype(xs), decltype(ys), Value>{xs, ys},
                      Impl::PartialSums<Value, Device, 1>{local_.partials});
      Kokkos::parallel_for("araios::dot::subtrees",
                           Kokkos::TeamPolicy<ExecSpace>(exec, 1, Impl::isHostSpace<ExecSpace>() ? 1 : Impl::kDotTreeThreads),
                           Impl::LocalSubtreesKernel<ExecSpace, Value, Device>{
                               local_.partials, tileIndex_, tiles_, p.firstChunk, p.firstChunk + p.completeChunks,
                               p.chunks});
    }
    // The entries that cross a block boundary, on the host.
    auto toHost = [&](const auto& v, std::int64_t begin, std::int64_t end) {
      std::vector<Value> out(end - begin);
      if (end > begin) {
        Kokkos::View<Value*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged> h(out.data(), out.size());
        Kokkos::deep_copy(exec, h, Kokkos::subview(v, std::make_pair(begin, end)));
      }
      return out;
    };
    std::vector<Value> headX = toHost(x, 0, p.headLength), headY = toHost(y, 0, p.headLength);
    std::vector<Value> openX, openY;
    if (p.openChunk) {
      openX = toHost(x, p.openLocalBegin, p.localLength);
      openY = toHost(y, p.openLocalBegin, p.localLength);
    }
    auto tilesHost = Kokkos::create_mirror_view(tiles_);
    Kokkos::deep_copy(exec, tilesHost, tiles_);
    exec.fence();

    std::vector<Impl::TreeNode> mine(p.slots), all(static_cast<std::size_t>(p.slots) * commSize(comm_));
    timed([&] {
      std::vector<MPI_Request> requests;
      std::vector<std::vector<Value>> fragments(p.fragments.size());
      constexpr int kTag = 7301;
      for (std::size_t f = 0; f < p.fragments.size(); ++f) {
        fragments[f].resize(2 * p.fragments[f].second);
        requests.emplace_back();
        ARAIOS_MPI_CHECK(MPI_Irecv(fragments[f].data(), static_cast<int>(fragments[f].size()), Impl::mpiType<Value>(),
                                   p.fragments[f].first, kTag, comm_, &requests.back()));
      }
      std::vector<Value> head(headX);
      head.insert(head.end(), headY.begin(), headY.end());
      if (p.headLength > 0) {
        requests.emplace_back();
        ARAIOS_MPI_CHECK(MPI_Isend(head.data(), static_cast<int>(head.size()), Impl::mpiType<Value>(), p.headOwner, kTag,
                                   comm_, &requests.back()));
      }
      ARAIOS_MPI_CHECK(MPI_Waitall(static_cast<int>(requests.size()), requests.data(), MPI_STATUSES_IGNORE));
      for (std::size_t f = 0; f < fragments.size(); ++f) {
        const std::size_t half = fragments[f].size() / 2;
        openX.insert(openX.end(), fragments[f].begin(), fragments[f].begin() + half);
        openY.insert(openY.end(), fragments[f].begin() + half, fragments[f].end());
      }
      std::size_t t = 0;
      for (; t < p.nodes.size(); ++t) mine[t] = {p.nodes[t].index, p.nodes[t].level, static_cast<double>(tilesHost(t))};
      if (p.openChunk) mine[t] = {p.firstChunk + p.completeChunks, 0, static_cast<double>(Impl::chunkSum(openX, openY))};
      const int bytes = static_cast<int>(sizeof(Impl::TreeNode)) * p.slots;
      ARAIOS_MPI_CHECK(MPI_Allgather(mine.data(), bytes, MPI_BYTE, all.data(), bytes, MPI_BYTE, comm_));
    });
    store(exec, Impl::finishTree<Value>(all, p.chunks), target, transform);
  }

  MPI_Comm comm_;
  int rank_;
  Impl::ChunkPlan plan_;
  ReductionWorkspace<Value, Device> local_;
  Kokkos::View<std::int64_t*, Device> tileIndex_;
  Kokkos::View<Value*, Device> tiles_;
  Kokkos::View<Value*, Device> slot_;
  double commSeconds_ = 0;
};

/// target = x . y over the ranks (see DistributedReduction). Collective; synchronises.
template <class ExecSpace, class XView, class YView, class Value, class Device>
void dot(const ExecSpace& exec, const XView& x, const YView& y, const DeviceScalar<Value, Device>& target,
         ReductionMode mode, DistributedReduction<Value, Device>& ws) {
  ws.reduce(exec, x, y, target, mode, Impl::ReduceTransform::Identity);
}

/// target = ||x||_2 over the ranks. Collective; synchronises.
template <class ExecSpace, class XView, class Value, class Device>
void norm2(const ExecSpace& exec, const XView& x, const DeviceScalar<Value, Device>& target, ReductionMode mode,
           DistributedReduction<Value, Device>& ws) {
  ws.reduce(exec, x, x, target, mode, Impl::ReduceTransform::Sqrt);
}

}  // namespace araios
