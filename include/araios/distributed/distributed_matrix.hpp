#pragma once
// DistributedHostMatrix: the rows of a row-distributed matrix that one rank owns, on the host,
// with global row and column indices. It is what the distributed readers return and what the
// distributed operator and product are built from.
//
//   // every rank holds the same global matrix (small problems, tests):
//   auto local = araios::distributeRows(comm, global);
//   // rank 0 holds it, the others pass an empty one; each rank receives only its rows:
//   auto local = araios::scatterRows(comm, global);
//
// Both partition by entries unless a partition is given. The entries of `local` keep the global
// order (by row, then column), so a row is summed in the same order on any number of ranks.
#include <araios/distributed/collective_errors.hpp>
#include <araios/distributed/mpi_check.hpp>
#include <araios/distributed/row_partition.hpp>
#include <araios/io/matrix_market.hpp>

#include <mpi.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

namespace araios {

struct DistributedHostMatrix {
  MPI_Comm comm = MPI_COMM_NULL;
  RowPartition partition;
  /// numRows and numCols are the global sizes; row, col and value hold this rank's rows only,
  /// sorted by (row, column), with global indices.
  io::HostMatrix local;

  std::int64_t numRows() const { return local.numRows; }
  std::int64_t numCols() const { return local.numCols; }
  std::int64_t firstRow() const { return partition.begin(commRank(comm)); }
  std::int64_t localRows() const { return partition.rows(commRank(comm)); }
};

/// Entries of each row of a matrix (what RowPartition::balanced takes).
inline std::vector<std::int64_t> rowCounts(const io::HostMatrix& m) {
  std::vector<std::int64_t> counts(m.numRows, 0);
  for (std::int64_t r : m.row) ++counts[r];
  return counts;
}

namespace Impl {

/// The first entry of each row boundary of `partition` in a matrix sorted by row.
inline std::vector<std::int64_t> entryStarts(const io::HostMatrix& m, const RowPartition& partition) {
  std::vector<std::int64_t> first(partition.ranks() + 1);
  for (int r = 0; r <= partition.ranks(); ++r) {
    const std::int64_t row = r < partition.ranks() ? partition.begin(r) : m.numRows;
    first[r] = std::lower_bound(m.row.begin(), m.row.end(), row) - m.row.begin();
  }
  return first;
}

inline void requireSortedByRow(const io::HostMatrix& m, const char* who) {
  for (std::size_t k = 1; k < m.row.size(); ++k) {
    if (m.row[k] < m.row[k - 1] || (m.row[k] == m.row[k - 1] && m.col[k] <= m.col[k - 1])) {
      throw InputError(std::string(who) + ": entry " + std::to_string(k) + " at (" + std::to_string(m.row[k]) + ", " +
                       std::to_string(m.col[k]) + ") follows (" + std::to_string(m.row[k - 1]) + ", " +
                       std::to_string(m.col[k - 1]) + "); expected entries sorted by row, then column, no duplicates");
    }
  }
}

inline io::HostMatrix sliceRows(const io::HostMatrix& m, std::int64_t first, std::int64_t last) {
  io::HostMatrix s;
  s.numRows = m.numRows;
  s.numCols = m.numCols;
  s.header = m.header;
  s.row.assign(m.row.begin() + first, m.row.begin() + last);
  s.col.assign(m.col.begin() + first, m.col.begin() + last);
  s.value.assign(m.value.begin() + first, m.value.begin() + last);
  return s;
}

}  // namespace Impl

/// Every rank holds the same global matrix: each keeps its own rows. With no partition given,
/// the rows are balanced by entries (RowPartition::balanced).
inline DistributedHostMatrix distributeRows(MPI_Comm comm, const io::HostMatrix& global,
                                            const RowPartition* partition = nullptr) {
  Impl::requireSortedByRow(global, "araios::distributeRows");
  DistributedHostMatrix d;
  d.comm = comm;
  d.partition = partition ? *partition : RowPartition::balanced(rowCounts(global), commSize(comm));
  if (d.partition.ranks() != commSize(comm) || d.partition.numRows() != global.numRows) {
    throw InputError("araios::distributeRows: the partition has " + std::to_string(d.partition.ranks()) +
                     " blocks over " + std::to_string(d.partition.numRows()) + " rows; expected " +
                     std::to_string(commSize(comm)) + " blocks (one per rank) over " + std::to_string(global.numRows));
  }
  const std::vector<std::int64_t> first = Impl::entryStarts(global, d.partition);
  const int rank = commRank(comm);
  d.local = Impl::sliceRows(global, first[rank], first[rank + 1]);
  return d;
}

/// Rank 0 holds the global matrix (the others' `global` is ignored): each rank receives its
/// rows. The partition, if given, must be the same on every rank.
inline DistributedHostMatrix scatterRows(MPI_Comm comm, const io::HostMatrix& global,
                                         const RowPartition* partition = nullptr) {
  const int rank = commRank(comm), ranks = commSize(comm);
  DistributedHostMatrix d;
  d.comm = comm;
  std::int64_t sizes[2] = {global.numRows, global.numCols};
  ARAIOS_MPI_CHECK(MPI_Bcast(sizes, 2, MPI_INT64_T, 0, comm));
  std::vector<std::int64_t> starts(ranks + 1), first(ranks + 1);
  agreeOnErrors(comm, [&] {
    if (rank != 0) return;
    Impl::requireSortedByRow(global, "araios::scatterRows");
    d.partition = partition ? *partition : RowPartition::balanced(rowCounts(global), ranks);
    if (d.partition.ranks() != ranks || d.partition.numRows() != global.numRows) {
      throw InputError("araios::scatterRows: the partition has " + std::to_string(d.partition.ranks()) +
                       " blocks over " + std::to_string(d.partition.numRows()) + " rows; expected " +
                       std::to_string(ranks) + " blocks (one per rank) over " + std::to_string(global.numRows));
    }
    starts = d.partition.starts();
    first = Impl::entryStarts(global, d.partition);
  });
  ARAIOS_MPI_CHECK(MPI_Bcast(starts.data(), ranks + 1, MPI_INT64_T, 0, comm));
  ARAIOS_MPI_CHECK(MPI_Bcast(first.data(), ranks + 1, MPI_INT64_T, 0, comm));
  if (rank != 0) d.partition = RowPartition::fromStarts(starts, sizes[0]);
  d.local.numRows = sizes[0];
  d.local.numCols = sizes[1];
  d.local.header = global.header;
  const std::int64_t mine = first[rank + 1] - first[rank];
  d.local.row.resize(mine);
  d.local.col.resize(mine);
  d.local.value.resize(mine);
  // Point to point, in pieces below 2^31 entries (MPI counts are int).
  constexpr std::int64_t kPiece = std::int64_t(1) << 28;
  auto transfer = [&](int peer, std::int64_t begin, std::int64_t count, bool send) {
    for (std::int64_t done = 0; done < count; done += kPiece) {
      const int c = static_cast<int>(std::min(kPiece, count - done));
      if (send) {
        ARAIOS_MPI_CHECK(MPI_Send(global.row.data() + begin + done, c, MPI_INT64_T, peer, 1, comm));
        ARAIOS_MPI_CHECK(MPI_Send(global.col.data() + begin + done, c, MPI_INT64_T, peer, 2, comm));
        ARAIOS_MPI_CHECK(MPI_Send(global.value.data() + begin + done, c, MPI_DOUBLE, peer, 3, comm));
      } else {
        ARAIOS_MPI_CHECK(MPI_Recv(d.local.row.data() + done, c, MPI_INT64_T, 0, 1, comm, MPI_STATUS_IGNORE));
        ARAIOS_MPI_CHECK(MPI_Recv(d.local.col.data() + done, c, MPI_INT64_T, 0, 2, comm, MPI_STATUS_IGNORE));
        ARAIOS_MPI_CHECK(MPI_Recv(d.local.value.data() + done, c, MPI_DOUBLE, 0, 3, comm, MPI_STATUS_IGNORE));
      }
    }
  };
  if (rank == 0) {
    for (int r = 1; r < ranks; ++r) transfer(r, first[r], first[r + 1] - first[r], true);
    d.local = Impl::sliceRows(global, first[0], first[1]);
  } else {
    transfer(0, 0, mine, false);
  }
  return d;
}

}  // namespace araios
