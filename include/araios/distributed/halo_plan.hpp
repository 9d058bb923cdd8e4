#pragma once
// HaloPlan: which entries of x each rank needs from the others for y = A x, and where they go.
//
// Rank r owns the entries [cb, ce) of x (its block of the column partition). Its rows also
// reach other columns, its ghosts. The rank's local copy of x, the extended vector, is laid out
//   [ ghosts below cb | owned entries | ghosts at or above ce ]
// with the ghosts in global column order. That numbering is monotone in the global column, so a
// local row lists its columns in the same order as the global row: every kernel that sums a row
// in its stored order sums it as the one-process kernel does. The ghosts that one rank owns are
// consecutive in this layout, so each neighbour's message lands in one contiguous segment.
#include <araios/distributed/mpi_check.hpp>
#include <araios/distributed/row_partition.hpp>

#include <mpi.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

namespace araios {

struct HaloPlan {
  std::int64_t ownedBegin = 0, ownedEnd = 0;  ///< [cb, ce): x entries this rank owns
  std::vector<std::int64_t> ghosts;           ///< global columns, ascending
  std::int64_t ghostsBelow = 0;               ///< ghosts before the owned block
  /// Messages in: rank, first slot in the extended vector, count.
  struct Message {
    int rank;
    std::int64_t first;
    std::int64_t count;
  };
  std::vector<Message> receives;
  /// Messages out: rank, first slot in sendIndex, count.
  std::vector<Message> sends;
  std::vector<std::int64_t> sendIndex;        ///< owned entries (0-based in the block) to send, by message

  std::int64_t owned() const { return ownedEnd - ownedBegin; }
  std::int64_t extendedLength() const { return owned() + static_cast<std::int64_t>(ghosts.size()); }
  /// The slot of global column `col` in the extended vector (col must be owned or a ghost).
  std::int64_t slotOf(std::int64_t col) const {
    if (col >= ownedBegin && col < ownedEnd) return ghostsBelow + (col - ownedBegin);
    const std::int64_t g = std::lower_bound(ghosts.begin(), ghosts.end(), col) - ghosts.begin();
    return g < ghostsBelow ? g : g + owned();
  }
  std::int64_t ghostEntries() const { return static_cast<std::int64_t>(ghosts.size()); }
  std::int64_t sentEntries() const { return static_cast<std::int64_t>(sendIndex.size()); }
};

/// Builds the plan from this rank's column indices (global; any order, repeats allowed).
/// Collective over `comm`.
inline HaloPlan makeHaloPlan(MPI_Comm comm, const RowPartition& columns, std::vector<std::int64_t> cols) {
  const int rank = commRank(comm), ranks = commSize(comm);
  HaloPlan plan;
  plan.ownedBegin = columns.begin(rank);
  plan.ownedEnd = columns.end(rank);
  std::sort(cols.begin(), cols.end());
  cols.erase(std::unique(cols.begin(), cols.end()), cols.end());
  for (std::int64_t c : cols) {
    if (c < plan.ownedBegin || c >= plan.ownedEnd) plan.ghosts.push_back(c);
  }
  plan.ghostsBelow = std::lower_bound(plan.ghosts.begin(), plan.ghosts.end(), plan.ownedBegin) - plan.ghosts.begin();

  // What this rank needs from each owner; the owners learn it through one all-to-all.
  std::vector<int> need(ranks, 0), give(ranks, 0);
  for (std::int64_t c : plan.ghosts) ++need[columns.owner(c)];
  ARAIOS_MPI_CHECK(MPI_Alltoall(need.data(), 1, MPI_INT, give.data(), 1, MPI_INT, comm));
  std::vector<int> needAt(ranks, 0), giveAt(ranks, 0);
  for (int s = 1; s < ranks; ++s) {
    needAt[s] = needAt[s - 1] + need[s - 1];
    giveAt[s] = giveAt[s - 1] + give[s - 1];
  }
  std::vector<std::int64_t> asked(giveAt[ranks - 1] + give[ranks - 1]);
  ARAIOS_MPI_CHECK(MPI_Alltoallv(plan.ghosts.data(), need.data(), needAt.data(), MPI_INT64_T, asked.data(), give.data(),
                                 giveAt.data(), MPI_INT64_T, comm));
  for (int s = 0; s < ranks; ++s) {
    if (need[s] > 0) {
      // The ghosts of rank s sit below the owned block when s < rank, above it otherwise.
      const std::int64_t first = s < rank ? needAt[s] : needAt[s] + plan.owned();
      plan.receives.push_back({s, first, need[s]});
    }
    if (give[s] > 0) plan.sends.push_back({s, giveAt[s], give[s]});
  }
  plan.sendIndex.resize(asked.size());
  for (std::size_t k = 0; k < asked.size(); ++k) plan.sendIndex[k] = asked[k] - plan.ownedBegin;
  return plan;
}

}  // namespace araios
