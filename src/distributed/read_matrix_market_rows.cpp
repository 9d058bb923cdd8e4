// The distributed Matrix Market reader. Each rank parses its own byte range of the file with the
// serial reader's chunk parser (src/io), and the entries travel to the ranks that own their
// rows. What makes the result, and every error, that of one process reading the whole file:
//  - the ranges are cut at line starts and laid end to end, so every line is parsed once; the
//    ranges' counts of lines and data lines, summed in rank order, give each rank the file's
//    line numbers and the size line's checks (io::detail::checkDataRun), and the lowest rank
//    that fails holds the first failure of the file;
//  - every entry carries its place in the file's sequence of entries (a symmetric entry's
//    mirror right after it, as the serial reader stores them), so the owner sorts by (row,
//    column, place) and sums duplicates in the order the serial reader's stable sort gives;
//  - without a partition, the rows are balanced, as distributeRows balances them, over the
//    summed matrix: the entries first go to a partition balanced over the counts before
//    summing, and move once more only if summing duplicates changed the balance.
#include <araios/distributed/read_matrix_market_rows.hpp>

#include <araios/distributed/collective_errors.hpp>
#include <araios/distributed/mpi_check.hpp>
#include <araios/error.hpp>

#include "../io/matrix_market_chunk.hpp"
#include "../io/matrix_market_header.hpp"
#include "../io/mm_text.hpp"
#include "../io/text_source.hpp"

#include <algorithm>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>
#include <utility>
#include <vector>

namespace araios {
namespace {

namespace mm = io::detail;

/// Chunk size for reading the banner and size line on rank 0: they and a few comments fit; a
/// longer header takes more chunks.
constexpr std::size_t kHeaderChunkBytes = std::size_t{64} << 10;
/// Chunk size for finding the first line start of a range: one typical line fits; a longer
/// line makes the source read on until it ends.
constexpr std::size_t kProbeBytes = 4096;
/// Entries a rank sends in one round of the exchange, to all ranks together: 32 MiB of staging
/// each way, enough that a round's latency is lost in its transfer, and MPI counts (three
/// int64 per entry) far below 2^31.
constexpr std::int64_t kRoundEntries = std::int64_t{1} << 20;
/// Rows beyond twice the entries, past which a rank's block of rows is sorted by comparison
/// rather than counted: as the serial reader decides (src/io/matrix_market_assembly.cpp).
constexpr std::uint64_t kHypersparseSlack = 4096;
/// The margin on a range's projected entry count: lines that get shorter further on still fit
/// in the first reservation, as in the serial reader (src/io/matrix_market_assembly.cpp).
constexpr long double kProjectionMargin = 1.25L;
/// Row counts per MPI reduction: MPI counts are int.
constexpr std::int64_t kMaxReduceCount = std::int64_t{1} << 30;

/// An entry on its way to the rank that owns its row. `place` is its index in the file's
/// sequence of entries, symmetry expanded: it orders duplicates as the serial reader sums them.
struct Entry {
  std::int64_t row;
  std::int64_t col;
  std::int64_t place;
  double value;
};

/// What rank 0 learns from the banner and the size line, and every rank needs.
struct FileLayout {
  /// A plain coordinate file, read in ranges by every rank; otherwise rank 0 reads it all.
  bool readByRanks = false;
  mm::HeaderInfo info;  // dataOffset: where the data lines start in the file
  std::int64_t fileBytes = 0;
};

std::size_t chunkBytesOf(const io::ReadOptions& options) {
  return options.chunkBytes > 0 ? options.chunkBytes : mm::kDefaultChunkBytes;
}

// ---------------------------------------------------------------------------------------------
// The header, on rank 0

FileLayout readLayout(const std::string& path) {
  const std::unique_ptr<mm::ChunkSource> source = mm::ChunkSource::openFile(path, kHeaderChunkBytes);
  FileLayout layout;
  mm::TextChunk data;
  try {
    layout.info = mm::readHeader(*source, path, data);
  } catch (const ParseError&) {
    source->drain();  // as the serial reader: a damaged file is reported as damaged
    throw;
  }
  // Only a plain file's size is exact (a gzip file's bound is what it could expand to); one
  // that is not a regular file (a pipe) has no size to cut into ranges.
  const bool plain = source->textBytesBoundIsExact();
  layout.fileBytes = plain ? static_cast<std::int64_t>(source->textBytesBound()) : 0;
  layout.readByRanks = plain && layout.info.header.format == io::MatrixMarketFormat::Coordinate &&
                       layout.fileBytes >= static_cast<std::int64_t>(layout.info.dataOffset);
  return layout;
}

void broadcastLayout(MPI_Comm comm, FileLayout& layout) {
  io::MatrixMarketHeader& h = layout.info.header;
  std::int64_t fields[10] = {layout.readByRanks,
                             static_cast<std::int64_t>(h.format),
                             static_cast<std::int64_t>(h.field),
                             static_cast<std::int64_t>(h.symmetry),
                             h.rows,
                             h.cols,
                             h.storedEntries,
                             layout.info.sizeLineNumber,
                             static_cast<std::int64_t>(layout.info.dataOffset),
                             layout.fileBytes};
  ARAIOS_MPI_CHECK(MPI_Bcast(fields, 10, MPI_INT64_T, 0, comm));
  layout.readByRanks = fields[0] != 0;
  h.format = static_cast<io::MatrixMarketFormat>(fields[1]);
  h.field = static_cast<io::MatrixMarketField>(fields[2]);
  h.symmetry = static_cast<io::MatrixMarketSymmetry>(fields[3]);
  h.rows = fields[4];
  h.cols = fields[5];
  h.storedEntries = fields[6];
  layout.info.sizeLineNumber = fields[7];
  layout.info.dataOffset = static_cast<std::size_t>(fields[8]);
  layout.fileBytes = fields[9];
}

// ---------------------------------------------------------------------------------------------
// The byte ranges

/// The first line start at or after byte `at` of the data lines.
std::int64_t lineStartFrom(const std::string& path, const FileLayout& layout, std::int64_t at) {
  const auto dataOffset = static_cast<std::int64_t>(layout.info.dataOffset);
  if (at <= dataOffset) return dataOffset;
  if (at >= layout.fileBytes) return layout.fileBytes;
  // The byte before `at` decides: either a line ends there (a CRLF may end at `at` + 1), or the
  // line it is in ends further on. Read from it to the end of that first line.
  const std::unique_ptr<mm::ChunkSource> source = mm::ChunkSource::openFileRange(
      path, static_cast<std::uint64_t>(at - 1), static_cast<std::uint64_t>(layout.fileBytes), kProbeBytes);
  mm::TextChunk chunk;
  if (!source->next(chunk)) return layout.fileBytes;  // the file shrank: nothing left to read
  mm::LineReader lines(chunk.text());
  std::string_view line;
  lines.next(line);
  return at - 1 + static_cast<std::int64_t>(lines.offset());
}

/// Where each rank's range starts, and the end of the file last: equal byte ranges of the data
/// lines, each moved on to the next line start. A line longer than a range leaves ranks empty.
std::vector<std::int64_t> rangeStarts(MPI_Comm comm, const std::string& path, const FileLayout& layout) {
  const int ranks = commSize(comm), rank = commRank(comm);
  const auto dataOffset = static_cast<std::int64_t>(layout.info.dataOffset);
  const std::int64_t bytes = layout.fileBytes - dataOffset;
  const std::int64_t nominal = dataOffset + bytes / ranks * rank + std::min<std::int64_t>(rank, bytes % ranks);
  std::int64_t mine = 0;
  agreeOnErrors(comm, [&] { mine = lineStartFrom(path, layout, nominal); });
  std::vector<std::int64_t> starts(static_cast<std::size_t>(ranks) + 1);
  ARAIOS_MPI_CHECK(MPI_Allgather(&mine, 1, MPI_INT64_T, starts.data(), 1, MPI_INT64_T, comm));
  starts[static_cast<std::size_t>(ranks)] = layout.fileBytes;
  return starts;
}

// ---------------------------------------------------------------------------------------------
// Parsing a range

/// One rank's range, parsed: its entries in file order (places counted from the range's first
/// entry), and in `run` what the order checks need: its lines, data lines, dropped entries and
/// first failure (its line counted from the range's first line).
struct Range {
  std::int64_t begin = 0;
  std::int64_t end = 0;
  std::int64_t textSeen = 0;  // bytes of the chunks appended so far
  mm::ParsedChunk run;
  std::vector<Entry> entries;
};

/// Makes room for `more` entries, growing the array to the count projected from the share of
/// the range read so far (with a margin), so that it is copied once or twice rather than at
/// every doubling: the text, never the size line, decides.
void reserveFor(Range& range, std::size_t more) {
  const std::size_t needed = range.entries.size() + more;
  if (needed <= range.entries.capacity()) return;
  const long double projected = static_cast<long double>(needed) * kProjectionMargin *
                                static_cast<long double>(range.end - range.begin) /
                                static_cast<long double>(std::max<std::int64_t>(range.textSeen, 1));
  range.entries.reserve(std::max({needed, 2 * range.entries.capacity(), static_cast<std::size_t>(projected)}));
}

void appendChunk(Range& range, const mm::TextChunk& chunk, const mm::ParsedChunk& parsed) {
  range.textSeen += static_cast<std::int64_t>(chunk.size);
  reserveFor(range, parsed.value.size());
  if (parsed.failure) {
    range.run.failure = parsed.failure;
    range.run.failure->line += range.run.lines;
  }
  range.run.lines += parsed.lines;
  range.run.dataLines += parsed.dataLines;
  range.run.dropped += parsed.dropped;
  const auto first = static_cast<std::int64_t>(range.entries.size());
  for (std::size_t k = 0; k < parsed.value.size(); ++k) {
    range.entries.push_back({parsed.row[k], parsed.col[k], first + static_cast<std::int64_t>(k), parsed.value[k]});
  }
}

/// Parses the range up to its end or its first bad line.
void parseRange(const std::string& path, const io::MatrixMarketHeader& header, const io::ReadOptions& options,
                Range& range) {
  if (range.begin == range.end) return;
  const std::unique_ptr<mm::ChunkSource> source =
      mm::ChunkSource::openFileRange(path, static_cast<std::uint64_t>(range.begin),
                                     static_cast<std::uint64_t>(range.end), chunkBytesOf(options));
  mm::parseChunksInOrder(*source, std::nullopt, header, options,
                         [&](const mm::TextChunk& chunk, mm::ParsedChunk& parsed) {
                           appendChunk(range, chunk, parsed);
                           return !parsed.failure;
                         });
  // As the serial reader, read on past a bad line: a damaged file is reported as damaged.
  if (range.run.failure) source->drain();
}

/// Lines, data lines, entries and dropped entries: of the ranges before this rank's, and of all.
struct Counts {
  std::int64_t lines = 0;
  std::int64_t dataLines = 0;
  std::int64_t entries = 0;
  std::int64_t dropped = 0;
};

std::pair<Counts, Counts> countRanges(MPI_Comm comm, const Range& range) {
  const int ranks = commSize(comm), rank = commRank(comm);
  std::int64_t mine[4] = {range.run.lines, range.run.dataLines, static_cast<std::int64_t>(range.entries.size()),
                          range.run.dropped};
  std::vector<std::int64_t> every(4 * static_cast<std::size_t>(ranks));
  ARAIOS_MPI_CHECK(MPI_Allgather(mine, 4, MPI_INT64_T, every.data(), 4, MPI_INT64_T, comm));
  Counts before, all;
  for (int r = 0; r < ranks; ++r) {
    const std::int64_t* c = every.data() + 4 * static_cast<std::size_t>(r);
    for (Counts* sum : {&before, &all}) {
      if (sum == &before && r >= rank) continue;
      sum->lines += c[0];
      sum->dataLines += c[1];
      sum->entries += c[2];
      sum->dropped += c[3];
    }
  }
  return {before, all};
}

/// Throws what a sequential read reports in this rank's range, and, on the last rank, the
/// error of a file that ends before the size line's count (which a sequential read reports
/// only after every line). Run by all ranks in agreeOnErrors: the lowest rank that throws holds
/// the first error of the file.
void checkRange(const std::string& path, const FileLayout& layout, const io::ReadOptions& options, const Range& range,
                const Counts& before, const Counts& all, bool lastRank) {
  const mm::HeaderInfo& info = layout.info;
  mm::checkDataRun(range.run, before.dataLines, info.sizeLineNumber + before.lines, info, path, [&](std::int64_t k) {
    // Only to place an error: the range is read again up to its k-th data line.
    const std::unique_ptr<mm::ChunkSource> source = mm::ChunkSource::openFileRange(
        path, static_cast<std::uint64_t>(range.begin), static_cast<std::uint64_t>(range.end), chunkBytesOf(options));
    return mm::lineOfDataLine(*source, k);
  });
  if (lastRank && all.dataLines < info.header.storedEntries) {
    mm::refuseTruncation(info, path, info.sizeLineNumber + all.lines, all.dataLines);
  }
}

// ---------------------------------------------------------------------------------------------
// Partitions

void requireFits(MPI_Comm comm, const RowPartition& partition, std::int64_t numRows) {
  if (partition.ranks() != commSize(comm) || partition.numRows() != numRows) {
    throw InputError("araios::readMatrixMarketRows: the partition has " + std::to_string(partition.ranks()) +
                     " blocks over " + std::to_string(partition.numRows()) + " rows; expected " +
                     std::to_string(commSize(comm)) + " blocks (one per rank) over " + std::to_string(numRows));
  }
}

/// RowPartition::balanced over the sums, over all ranks, of `counts` (one count per row).
RowPartition balancedOverRanks(MPI_Comm comm, std::vector<std::int64_t>& counts) {
  const auto total = static_cast<std::int64_t>(counts.size());
  for (std::int64_t done = 0; done < total; done += kMaxReduceCount) {
    const int piece = static_cast<int>(std::min(kMaxReduceCount, total - done));
    ARAIOS_MPI_CHECK(MPI_Allreduce(MPI_IN_PLACE, counts.data() + done, piece, MPI_INT64_T, MPI_SUM, comm));
  }
  return RowPartition::balanced(counts, commSize(comm));
}

/// Balanced over the entries of every rank, as they are before duplicates are summed.
RowPartition balancedOverEntries(MPI_Comm comm, std::int64_t numRows, const std::vector<Entry>& entries) {
  std::vector<std::int64_t> counts;
  agreeOnErrors(comm, [&] {
    counts.assign(static_cast<std::size_t>(numRows), 0);
    for (const Entry& e : entries) ++counts[static_cast<std::size_t>(e.row)];
  });
  return balancedOverRanks(comm, counts);
}

/// Balanced over the rows every rank owns, once duplicates are summed: distributeRows's partition.
RowPartition balancedOverOwnedRows(MPI_Comm comm, const io::HostMatrix& local) {
  std::vector<std::int64_t> counts;
  agreeOnErrors(comm, [&] {
    counts.assign(static_cast<std::size_t>(local.numRows), 0);
    for (const std::int64_t r : local.row) ++counts[static_cast<std::size_t>(r)];
  });
  return balancedOverRanks(comm, counts);
}

// ---------------------------------------------------------------------------------------------
// Moving entries to their owners

/// Orders `entries` by the rank that owns their row, keeping their order within each rank (a
/// counting sort), and returns how many go to each rank.
std::vector<std::int64_t> groupByOwner(std::vector<Entry>& entries, const RowPartition& partition) {
  const auto ranks = static_cast<std::size_t>(partition.ranks());
  std::vector<std::int64_t> counts(ranks, 0);
  // Entries are often grouped already: on one rank, in a file sorted by row, in a second move.
  bool grouped = true;
  int last = 0;
  for (const Entry& e : entries) {
    const int owner = partition.owner(e.row);
    grouped = grouped && owner >= last;
    last = owner;
    ++counts[static_cast<std::size_t>(owner)];
  }
  if (grouped) return counts;
  std::vector<std::int64_t> next(ranks, 0);
  for (std::size_t r = 1; r < ranks; ++r) next[r] = next[r - 1] + counts[r - 1];
  std::vector<Entry> byOwner(entries.size());
  for (const Entry& e : entries) {
    std::int64_t& at = next[static_cast<std::size_t>(partition.owner(e.row))];
    byOwner[static_cast<std::size_t>(at++)] = e;
  }
  entries = std::move(byOwner);
  return counts;
}

/// The staging buffers of one round: an entry's row, column and place as three int64 and its
/// value as a double, so that both travel as MPI's own types.
struct RoundBuffers {
  std::vector<std::int64_t> sendIndices, recvIndices;
  std::vector<double> sendValues, recvValues;
  std::vector<int> sendCounts, sendDispls, recvCounts, recvDispls;
};

/// Sets the counts and displacements (in entries, times `width`) of one round, in which each
/// pair of ranks moves at most `piece` of what it has left.
void roundCounts(const std::vector<std::int64_t>& totals, std::int64_t round, std::int64_t piece, int width,
                 std::vector<int>& counts, std::vector<int>& displs) {
  int at = 0;
  for (std::size_t r = 0; r < totals.size(); ++r) {
    const std::int64_t left = std::max<std::int64_t>(0, totals[r] - round * piece);
    counts[r] = static_cast<int>(std::min(left, piece)) * width;
    displs[r] = at;
    at += counts[r];
  }
}

/// Sends each rank its group of `grouped` (sendTotals[r] entries for rank r, in rank order) and
/// returns what this rank receives, in no particular order (the places order it). In rounds,
/// each pair of ranks moving at most kRoundEntries / ranks entries per round, so that every MPI
/// count fits an int and the staging stays small.
std::vector<Entry> exchange(MPI_Comm comm, const std::vector<Entry>& grouped, std::vector<std::int64_t> sendTotals) {
  const int ranks = commSize(comm), rank = commRank(comm);
  const auto n = static_cast<std::size_t>(ranks);
  const auto self = static_cast<std::size_t>(rank);
  std::vector<std::int64_t> recvTotals(n);
  ARAIOS_MPI_CHECK(MPI_Alltoall(sendTotals.data(), 1, MPI_INT64_T, recvTotals.data(), 1, MPI_INT64_T, comm));
  std::vector<std::int64_t> sendFirst(n, 0);
  for (std::size_t r = 1; r < n; ++r) sendFirst[r] = sendFirst[r - 1] + sendTotals[r - 1];
  std::int64_t received = 0;
  for (const std::int64_t c : recvTotals) received += c;
  // The entries that stay on this rank skip the staging and MPI.
  const std::int64_t kept = sendTotals[self];
  sendTotals[self] = recvTotals[self] = 0;
  const std::int64_t piece = std::max<std::int64_t>(1, kRoundEntries / ranks);
  std::int64_t rounds = 0;
  for (const std::int64_t c : sendTotals) rounds = std::max(rounds, (c + piece - 1) / piece);
  ARAIOS_MPI_CHECK(MPI_Allreduce(MPI_IN_PLACE, &rounds, 1, MPI_INT64_T, MPI_MAX, comm));

  // Every allocation up front, where a failure can be agreed on: none in the rounds.
  std::vector<Entry> out;
  RoundBuffers b;
  agreeOnErrors(comm, [&] {
    const std::int64_t perRound = piece * ranks;
    const auto sendMost = static_cast<std::size_t>(std::min(perRound, static_cast<std::int64_t>(grouped.size())));
    const auto recvMost = static_cast<std::size_t>(std::min(perRound, received));
    out.reserve(static_cast<std::size_t>(received));
    b.sendIndices.reserve(3 * sendMost);
    b.sendValues.reserve(sendMost);
    b.recvIndices.resize(3 * recvMost);
    b.recvValues.resize(recvMost);
    for (std::vector<int>* v : {&b.sendCounts, &b.sendDispls, &b.recvCounts, &b.recvDispls}) v->resize(n);
  });
  const auto keptFirst = grouped.begin() + static_cast<std::ptrdiff_t>(sendFirst[self]);
  out.insert(out.end(), keptFirst, keptFirst + static_cast<std::ptrdiff_t>(kept));
  for (std::int64_t round = 0; round < rounds; ++round) {
    b.sendIndices.clear();
    b.sendValues.clear();
    for (std::size_t r = 0; r < n; ++r) {
      const std::int64_t first = sendFirst[r] + round * piece;
      const std::int64_t last = sendFirst[r] + std::min(sendTotals[r], (round + 1) * piece);
      for (std::int64_t k = first; k < last; ++k) {
        const Entry& e = grouped[static_cast<std::size_t>(k)];
        b.sendIndices.push_back(e.row);
        b.sendIndices.push_back(e.col);
        b.sendIndices.push_back(e.place);
        b.sendValues.push_back(e.value);
      }
    }
    roundCounts(sendTotals, round, piece, 3, b.sendCounts, b.sendDispls);
    roundCounts(recvTotals, round, piece, 3, b.recvCounts, b.recvDispls);
    ARAIOS_MPI_CHECK(MPI_Alltoallv(b.sendIndices.data(), b.sendCounts.data(), b.sendDispls.data(), MPI_INT64_T,
                                   b.recvIndices.data(), b.recvCounts.data(), b.recvDispls.data(), MPI_INT64_T, comm));
    roundCounts(sendTotals, round, piece, 1, b.sendCounts, b.sendDispls);
    roundCounts(recvTotals, round, piece, 1, b.recvCounts, b.recvDispls);
    ARAIOS_MPI_CHECK(MPI_Alltoallv(b.sendValues.data(), b.sendCounts.data(), b.sendDispls.data(), MPI_DOUBLE,
                                   b.recvValues.data(), b.recvCounts.data(), b.recvDispls.data(), MPI_DOUBLE, comm));
    const std::size_t got = static_cast<std::size_t>(b.recvDispls[n - 1] + b.recvCounts[n - 1]);
    for (std::size_t k = 0; k < got; ++k) {
      out.push_back({b.recvIndices[3 * k], b.recvIndices[3 * k + 1], b.recvIndices[3 * k + 2], b.recvValues[k]});
    }
  }
  return out;
}

bool inFileOrder(const Entry& a, const Entry& b) {
  if (a.row != b.row) return a.row < b.row;
  if (a.col != b.col) return a.col < b.col;
  return a.place < b.place;
}

/// Sorts the entries of the rows [firstRow, firstRow + rows) by (row, column, place): a counting
/// sort by row, then a sort of each row, which beats one comparison sort of all the entries
/// several times over; for hypersparse blocks, whose row counts would dwarf the entries, one
/// comparison sort.
void sortInFileOrder(std::vector<Entry>& entries, std::int64_t firstRow, std::int64_t rows) {
  if (std::is_sorted(entries.begin(), entries.end(), inFileOrder)) return;
  const std::size_t count = entries.size();
  if (static_cast<std::uint64_t>(rows) > 2 * count + kHypersparseSlack) {
    std::sort(entries.begin(), entries.end(), inFileOrder);
    return;
  }
  std::vector<std::size_t> start(static_cast<std::size_t>(rows) + 1, 0);
  for (const Entry& e : entries) ++start[static_cast<std::size_t>(e.row - firstRow) + 1];
  for (std::size_t r = 0; r < static_cast<std::size_t>(rows); ++r) start[r + 1] += start[r];
  std::vector<Entry> sorted(count);
  std::vector<std::size_t> next(start.begin(), start.end() - 1);
  for (const Entry& e : entries) sorted[next[static_cast<std::size_t>(e.row - firstRow)]++] = e;
  next = {};
  entries = {};
  for (std::size_t r = 0; r < static_cast<std::size_t>(rows); ++r) {
    std::sort(sorted.begin() + static_cast<std::ptrdiff_t>(start[r]),
              sorted.begin() + static_cast<std::ptrdiff_t>(start[r + 1]), inFileOrder);
  }
  entries = std::move(sorted);
}

/// The owned rows from the entries received: sorted by (row, column, place), and those at one
/// position added, in that order, into the first, as the serial reader's merge does. Returns
/// how many were merged.
std::int64_t sortAndSum(std::vector<Entry>& entries, std::int64_t firstRow, std::int64_t rows,
                        io::HostMatrix& local) {
  sortInFileOrder(entries, firstRow, rows);
  std::size_t distinct = 0;
  for (std::size_t k = 0; k < entries.size(); ++k) {
    if (k == 0 || entries[k].row != entries[k - 1].row || entries[k].col != entries[k - 1].col) ++distinct;
  }
  local.row.clear();
  local.col.clear();
  local.value.clear();
  local.row.reserve(distinct);
  local.col.reserve(distinct);
  local.value.reserve(distinct);
  for (std::size_t k = 0; k < entries.size(); ++k) {
    const Entry& e = entries[k];
    if (k > 0 && e.row == entries[k - 1].row && e.col == entries[k - 1].col) {
      local.value.back() += e.value;
      continue;
    }
    local.row.push_back(e.row);
    local.col.push_back(e.col);
    local.value.push_back(e.value);
  }
  return static_cast<std::int64_t>(entries.size() - distinct);
}

/// Moves the entries to the ranks that own their rows under `partition`, where they become
/// `local`'s rows. Returns the duplicates summed on this rank.
std::int64_t moveToOwners(MPI_Comm comm, std::vector<Entry> entries, const RowPartition& partition,
                          io::HostMatrix& local) {
  std::vector<std::int64_t> counts;
  agreeOnErrors(comm, [&] { counts = groupByOwner(entries, partition); });
  std::vector<Entry> received = exchange(comm, entries, counts);
  entries = {};
  std::int64_t summed = 0;
  const int rank = commRank(comm);
  agreeOnErrors(comm, [&] { summed = sortAndSum(received, partition.begin(rank), partition.rows(rank), local); });
  return summed;
}

/// `local`'s rows as entries again, for a second move; empties `local`.
std::vector<Entry> takeEntries(MPI_Comm comm, io::HostMatrix& local) {
  std::vector<Entry> entries;
  agreeOnErrors(comm, [&] {
    entries.resize(local.row.size());
    for (std::size_t k = 0; k < entries.size(); ++k) {
      entries[k] = {local.row[k], local.col[k], static_cast<std::int64_t>(k), local.value[k]};
    }
  });
  local.row = {};
  local.col = {};
  local.value = {};
  return entries;
}

// ---------------------------------------------------------------------------------------------
// The two paths

/// This rank's range of the file, parsed, with the places of its entries counted from the
/// file's first entry, once every rank has found the file sound. `all` gets the whole file's
/// counts.
Range readRange(MPI_Comm comm, const std::string& path, const io::ReadOptions& options, const FileLayout& layout,
                Counts& all) {
  const int rank = commRank(comm), ranks = commSize(comm);
  const std::vector<std::int64_t> starts = rangeStarts(comm, path, layout);
  Range range;
  range.begin = starts[static_cast<std::size_t>(rank)];
  range.end = starts[static_cast<std::size_t>(rank) + 1];
  agreeOnErrors(comm, [&] { parseRange(path, layout.info.header, options, range); });
  Counts before;
  std::tie(before, all) = countRanges(comm, range);
  agreeOnErrors(comm, [&] { checkRange(path, layout, options, range, before, all, rank == ranks - 1); });
  for (Entry& e : range.entries) e.place += before.entries;
  return range;
}

/// Gives `d` its partition and its rows from every rank's entries. Returns the duplicates
/// summed on this rank.
std::int64_t gatherRows(MPI_Comm comm, std::vector<Entry> entries, const RowPartition* partition,
                        DistributedHostMatrix& d) {
  if (partition) {
    agreeOnErrors(comm, [&] { requireFits(comm, *partition, d.local.numRows); });
    d.partition = *partition;
    return moveToOwners(comm, std::move(entries), d.partition, d.local);
  }
  d.partition = balancedOverEntries(comm, d.local.numRows, entries);
  std::int64_t summed = moveToOwners(comm, std::move(entries), d.partition, d.local);
  const RowPartition balanced = balancedOverOwnedRows(comm, d.local);
  if (!(balanced == d.partition)) {
    d.partition = balanced;
    summed += moveToOwners(comm, takeEntries(comm, d.local), d.partition, d.local);
  }
  return summed;
}

/// Plain coordinate files: every rank reads its range.
DistributedHostMatrix readByRanks(MPI_Comm comm, const std::string& path, const DistributedReadOptions& options,
                                  const FileLayout& layout) {
  Counts all;
  Range range = readRange(comm, path, options.read, layout, all);
  DistributedHostMatrix d;
  d.comm = comm;
  d.local.numRows = layout.info.header.rows;
  d.local.numCols = layout.info.header.cols;
  d.local.header = layout.info.header;
  d.local.droppedEntries = all.dropped;
  const std::int64_t summed = gatherRows(comm, std::move(range.entries), options.partition, d);
  ARAIOS_MPI_CHECK(MPI_Allreduce(&summed, &d.local.duplicatesSummed, 1, MPI_INT64_T, MPI_SUM, comm));
  return d;
}

/// gzip and array files: rank 0 reads the file and scatters the rows.
DistributedHostMatrix readOnRankZero(MPI_Comm comm, const std::string& path, const DistributedReadOptions& options,
                                     const FileLayout& layout) {
  io::HostMatrix global;
  agreeOnErrors(comm, [&] {
    if (commRank(comm) == 0) global = io::readMatrixMarket(path, options.read);
  });
  if (options.partition) agreeOnErrors(comm, [&] { requireFits(comm, *options.partition, layout.info.header.rows); });
  DistributedHostMatrix d = scatterRows(comm, global, options.partition);
  std::int64_t counts[2] = {global.droppedEntries, global.duplicatesSummed};
  ARAIOS_MPI_CHECK(MPI_Bcast(counts, 2, MPI_INT64_T, 0, comm));
  d.local.header = layout.info.header;
  d.local.droppedEntries = counts[0];
  d.local.duplicatesSummed = counts[1];
  return d;
}

}  // namespace

DistributedHostMatrix readMatrixMarketRows(MPI_Comm comm, const std::string& path,
                                           const DistributedReadOptions& options) {
  FileLayout layout;
  agreeOnErrors(comm, [&] {
    if (commRank(comm) == 0) layout = readLayout(path);
  });
  broadcastLayout(comm, layout);
  return layout.readByRanks ? readByRanks(comm, path, options, layout) : readOnRankZero(comm, path, options, layout);
}

}  // namespace araios
