#pragma once
// Reading a Matrix Market file straight into a row-distributed matrix: every rank parses its own
// share of the file and ends up with the rows it owns, without any rank holding the whole file
// or all of its entries.
//
//   araios::DistributedHostMatrix a = araios::readMatrixMarketRows(comm, "big.mtx");
//
// The result is, bit for bit, what io::readMatrixMarket(path) followed by
// araios::distributeRows(comm, matrix, partition) gives, on any number of ranks; so is every
// error message.
#include <araios/distributed/distributed_matrix.hpp>
#include <araios/distributed/row_partition.hpp>
#include <araios/io/matrix_market.hpp>

#include <mpi.h>

#include <string>

namespace araios {

struct DistributedReadOptions {
  /// The rows each rank owns; the same on every rank. Null: RowPartition::balanced over the
  /// row counts of the matrix as read (symmetry expanded, duplicates summed), as distributeRows.
  const RowPartition* partition = nullptr;
  /// As for io::readMatrixMarket: dropInvalid, chunkBytes, and `threads`, which parse on each
  /// rank (0: one per hardware thread, on every rank; give fewer when ranks share a node).
  io::ReadOptions read;
};

/// Reads the Matrix Market file `path`, which every rank must be able to open. Collective.
///
/// Every rank returns the rows it owns (DistributedHostMatrix: global indices, sorted by row,
/// then column, duplicates summed in file order, symmetry expanded): the same entries and
/// values, bit for bit, and the same header, as io::readMatrixMarket(path, options.read)
/// followed by distributeRows(comm, matrix, options.partition). local.droppedEntries and
/// local.duplicatesSummed are the whole file's counts, the same on every rank.
///
/// How, for a plain (uncompressed) `coordinate` file: rank 0 reads the banner and the size line;
/// the data lines are cut into one byte range per rank, at line starts; each rank parses its
/// range with the serial reader's chunk parser (on options.read.threads threads) and sends
/// every entry to the rank that owns its row, with its place in the file, so that duplicates
/// are summed in the serial reader's order. Memory per rank: about 100 bytes per entry of its
/// share at the peak (entries travel as 32-byte records, then are sorted and summed), a few
/// chunks of text per parsing thread, at most 64 MiB of staging for the exchange and, without
/// an explicit partition, one 8-byte count per row of the matrix (to balance the rows as
/// distributeRows does). A size line's entry count is never used to allocate.
///
/// gzip-compressed files and `array` files are read by rank 0 alone (io::readMatrixMarket) and
/// scattered (scatterRows): that path holds the whole matrix on rank 0 and is not
/// memory-bounded.
///
/// Errors: any problem (a missing or unreadable file, a bad banner or size line, a bad data
/// line, an index out of range, more or fewer entries than the size line says, a partition
/// that does not fit) throws on every rank, with the serial reader's message, line numbers of
/// the whole file included: "FILE:LINE: what is wrong; expected what". The rank where it was
/// found throws the serial reader's exception (ParseError, InputError); the others throw
/// RemoteError with the same message (agreeOnErrors). When several ranks find a problem, the
/// one reported is the first in the file, as a sequential read would report it. Failing MPI
/// calls throw MpiError where `comm` returns error codes (useReturnedErrors).
DistributedHostMatrix readMatrixMarketRows(MPI_Comm comm, const std::string& path,
                                           const DistributedReadOptions& options = {});

}  // namespace araios
