// The distributed Matrix Market reader (araios::readMatrixMarketRows) against the serial reader
// followed by araios::distributeRows, on every rank, at the rank counts CTest runs it on (1, 2
// and 3): the same partition, entries and value bits, or the same error message on every rank.
//
// Cases: real matrices (general, symmetric, skew-symmetric, pattern, integer, rectangular) as
// plain copies, read at the default chunk size and at chunks small enough to put chunk borders
// everywhere; every parser corner-case file of the collection (matrices and errors alike);
// gzip and array files (read on rank 0 and scattered); generated files, written to a shared
// temporary folder, with duplicates spread over the whole file (so over every rank) and values
// whose sums depend on their order, symmetric and skew-symmetric files holding both triangles,
// LF, CRLF and CR-only line endings, comments and blank lines, a comment longer than a rank's
// range, no final line ending, matrices with fewer rows than ranks and no rows at all, explicit
// partitions with empty ranks, dropInvalid; and errors: bad lines in the middle (two of them:
// the first is reported), entries past the size line's count, a truncated file, a file cut in
// a line, an index out of range, a bad banner, a missing file, a size line announcing 10^12
// entries, a partition that does not fit.
#define BOOST_TEST_MODULE read_matrix_market_rows
#include <boost/test/unit_test.hpp>

#include "support/matrices.hpp"

#include <araios/distributed/collective_errors.hpp>
#include <araios/distributed/distributed_matrix.hpp>
#include <araios/distributed/mpi_check.hpp>
#include <araios/distributed/read_matrix_market_rows.hpp>
#include <araios/distributed/row_partition.hpp>
#include <araios/error.hpp>
#include <araios/io/matrix_market.hpp>

#include "src/io/text_source.hpp"  // readTextFile: the plain copies of the collection's .mtx.gz

#include <mpi.h>

#include <stdlib.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <optional>
#include <random>
#include <sstream>
#include <stdexcept>
#include <string>
#include <system_error>
#include <utility>
#include <vector>

namespace fs = std::filesystem;
using araios::DistributedHostMatrix;
using araios::DistributedReadOptions;
using araios::RowPartition;
namespace io = araios::io;

namespace {

MPI_Comm world() { return MPI_COMM_WORLD; }
int rank() { return araios::commRank(world()); }
int ranks() { return araios::commSize(world()); }

/// A folder every rank sees (the ranks run on one host), made by rank 0, removed at the end.
std::string& sharedFolder() {
  static std::string folder;
  return folder;
}

/// MPI for the whole run, and the shared folder.
struct MpiFixture {
  void setup() {
    ARAIOS_MPI_CHECK(MPI_Init(nullptr, nullptr));
    araios::useReturnedErrors(world());
    std::vector<char> path(4096, '\0');
    if (rank() == 0) {
      const std::string pattern = (fs::temp_directory_path() / "araios_read_rows_XXXXXX").string();
      std::copy(pattern.begin(), pattern.end(), path.begin());
      if (::mkdtemp(path.data()) == nullptr) path[0] = '\0';
    }
    ARAIOS_MPI_CHECK(MPI_Bcast(path.data(), static_cast<int>(path.size()), MPI_CHAR, 0, world()));
    sharedFolder() = path.data();
    if (sharedFolder().empty()) throw std::runtime_error("cannot make a temporary folder");
  }
  void teardown() {
    ARAIOS_MPI_CHECK(MPI_Barrier(world()));
    if (rank() == 0) {
      std::error_code ignored;
      fs::remove_all(sharedFolder(), ignored);
    }
    ARAIOS_MPI_CHECK(MPI_Finalize());
  }
};
BOOST_TEST_GLOBAL_FIXTURE(MpiFixture);

/// Rank 0 writes `text` to `name` in the shared folder; returns its path once every rank can
/// read it.
std::string writeShared(const std::string& name, const std::string& text) {
  const std::string path = sharedFolder() + "/" + name;
  if (rank() == 0) {
    std::ofstream out(path, std::ios::binary);
    out << text;
  }
  ARAIOS_MPI_CHECK(MPI_Barrier(world()));
  return path;
}

/// A plain copy of one of the collection's gzip files (relative to the matrices folder).
std::string plainCopy(const std::string& relative) {
  std::string name = relative;
  std::replace(name.begin(), name.end(), '/', '_');
  name = name.substr(0, name.size() - 3);  // without ".gz"
  std::string text;
  if (rank() == 0) text = io::detail::readTextFile((araios::test::matricesDir() / relative).string());
  return writeShared(name, text);
}

DistributedReadOptions withChunks(std::size_t chunkBytes, int threads, const RowPartition* partition = nullptr) {
  DistributedReadOptions options;
  options.read.chunkBytes = chunkBytes;
  options.read.threads = threads;
  options.partition = partition;
  return options;
}

/// The default chunk size on one thread per rank (CTest runs the ranks on two cores).
DistributedReadOptions defaults() { return withChunks(0, 1); }

std::string firstDifference(const DistributedHostMatrix& got, const DistributedHostMatrix& expected) {
  const io::HostMatrix& g = got.local;
  const io::HostMatrix& e = expected.local;
  if (!(got.partition == expected.partition)) return "the partitions differ";
  if (g.numRows != e.numRows || g.numCols != e.numCols) return "the sizes differ";
  if (g.header.format != e.header.format || g.header.field != e.header.field ||
      g.header.symmetry != e.header.symmetry || g.header.rows != e.header.rows || g.header.cols != e.header.cols ||
      g.header.storedEntries != e.header.storedEntries) {
    return "the headers differ";
  }
  if (g.row.size() != e.row.size() || g.col.size() != e.col.size() || g.value.size() != e.value.size()) {
    return std::to_string(g.value.size()) + " entries instead of " + std::to_string(e.value.size());
  }
  for (std::size_t k = 0; k < e.value.size(); ++k) {
    std::uint64_t gotBits = 0, expectedBits = 0;
    std::memcpy(&gotBits, &g.value[k], sizeof gotBits);
    std::memcpy(&expectedBits, &e.value[k], sizeof expectedBits);
    if (g.row[k] != e.row[k] || g.col[k] != e.col[k] || gotBits != expectedBits) {
      std::ostringstream text;
      text.precision(17);
      text << "entry " << k << ": (" << g.row[k] << ", " << g.col[k] << ") = " << g.value[k] << " instead of ("
           << e.row[k] << ", " << e.col[k] << ") = " << e.value[k];
      return text.str();
    }
  }
  return {};
}

/// Reads `path` both ways on every rank and checks that they agree: the same matrix (and counts
/// of dropped and summed entries), or the same error. Returns the error message, empty when the
/// file was read.
std::string checkAsSerial(const std::string& path, const DistributedReadOptions& options = defaults()) {
  BOOST_TEST_CONTEXT(path << " on rank " << rank() << " of " << ranks() << ", chunks of " << options.read.chunkBytes
                          << " bytes, " << options.read.threads << " thread(s)") {
    std::optional<DistributedHostMatrix> expected;
    std::int64_t dropped = 0, summed = 0;
    std::string expectedError;
    try {
      const io::HostMatrix serial = io::readMatrixMarket(path, options.read);
      dropped = serial.droppedEntries;
      summed = serial.duplicatesSummed;
      expected = araios::distributeRows(world(), serial, options.partition);
    } catch (const araios::Error& e) {
      expectedError = e.what();
    }
    std::optional<DistributedHostMatrix> got;
    std::string error;
    try {
      got = araios::readMatrixMarketRows(world(), path, options);
    } catch (const araios::Error& e) {
      error = e.what();
    }
    BOOST_TEST(error == expectedError);
    if (got && expected) {
      const std::string difference = firstDifference(*got, *expected);
      BOOST_TEST(difference.empty(), difference);
      BOOST_TEST(got->local.droppedEntries == dropped);
      BOOST_TEST(got->local.duplicatesSummed == summed);
      BOOST_TEST(got->firstRow() == expected->firstRow());
    }
    return expectedError;
  }
  return {};
}

/// Partitions with empty ranks: every row on the last rank, every row on the first, and every
/// odd rank empty.
std::vector<RowPartition> partitionsWithEmptyRanks(std::int64_t rows) {
  const int n = ranks();
  std::vector<std::int64_t> last(n + 1, 0), first(n + 1, rows), odd(n + 1, 0);
  last[n] = rows;
  first[0] = 0;
  for (int r = 1; r <= n; ++r) odd[r] = r % 2 == 1 ? odd[r - 1] : rows * r / n;
  odd[n] = rows;
  return {RowPartition::fromStarts(last, rows), RowPartition::fromStarts(first, rows),
          RowPartition::fromStarts(odd, rows)};
}

// ---------------------------------------------------------------------------------------------
// Generated files

/// A value whose sums with others depend on their order: a random mantissa times a power of ten
/// from 1e-8 to 1e8, printed exactly.
std::string spreadValue(std::mt19937_64& random) {
  std::uniform_real_distribution<double> mantissa(-1.0, 1.0);
  std::uniform_int_distribution<int> exponent(-8, 8);
  char text[40];
  std::snprintf(text, sizeof text, "%.17g", mantissa(random) * std::pow(10.0, exponent(random)));
  return text;
}

struct TextOptions {
  const char* symmetry = "general";
  const char* field = "real";
  std::int64_t rows = 40;
  std::int64_t entries = 3000;
  const char* lineEnd = "\n";
  bool comments = true;     // comment and blank lines among the entries
  bool finalEnd = true;     // a line ending after the last line
  std::uint64_t seed = 1;
};

/// Lines of a coordinate file with random positions: on 40 rows, 3000 entries hit most positions
/// about twice, all over the file. Symmetric files hold both triangles; skew-symmetric ones no
/// diagonal.
std::vector<std::string> coordinateLines(const TextOptions& o) {
  std::mt19937_64 random(o.seed);
  std::uniform_int_distribution<std::int64_t> index(1, o.rows);
  std::vector<std::string> lines = {std::string("%%MatrixMarket matrix coordinate ") + o.field + " " + o.symmetry,
                                    "% generated by test_read_matrix_market_rows",
                                    std::to_string(o.rows) + " " + std::to_string(o.rows) + " " +
                                        std::to_string(o.entries)};
  const bool skew = std::string(o.symmetry) == "skew-symmetric";
  for (std::int64_t k = 0; k < o.entries; ++k) {
    std::int64_t i = index(random), j = index(random);
    while (skew && i == j) j = index(random);
    std::string line = std::to_string(i) + " " + std::to_string(j);
    if (std::string(o.field) == "real") line += " " + spreadValue(random);
    if (std::string(o.field) == "integer") line += " " + std::to_string(static_cast<int>(random() % 2001) - 1000);
    if (o.comments && k % 97 == 13) lines.push_back("% a comment among the entries");
    if (o.comments && k % 89 == 7) lines.push_back("   ");
    if (o.comments && k % 50 == 3) line = "  " + line + "  ";
    lines.push_back(line);
  }
  return lines;
}

std::string joinLines(const std::vector<std::string>& lines, const char* lineEnd, bool finalEnd = true) {
  std::string text;
  for (std::size_t k = 0; k < lines.size(); ++k) {
    text += lines[k];
    if (k + 1 < lines.size() || finalEnd) text += lineEnd;
  }
  return text;
}

std::string coordinateText(const TextOptions& o) { return joinLines(coordinateLines(o), o.lineEnd, o.finalEnd); }

// ---------------------------------------------------------------------------------------------
// Real matrices

BOOST_AUTO_TEST_CASE(real_matrices_as_plain_files) {
  // general, symmetric, pattern symmetric, integer (general rectangular and symmetric)
  const char* names[] = {"sherman3", "orsirr_2", "rajat19", "nos5", "bcsstk13", "Erdos971",
                         "bcspwr10", "Franz6_id1959_aug", "vt2010"};
  for (const char* name : names) {
    const std::string path = plainCopy(std::string(name) + ".mtx.gz");
    BOOST_TEST(checkAsSerial(path).empty());
  }
  // Chunk borders everywhere, two parsing threads per rank.
  for (const char* name : {"nos5", "orsirr_2", "Erdos971"}) {
    const std::string path = sharedFolder() + "/" + name + ".mtx";
    BOOST_TEST(checkAsSerial(path, withChunks(61, 2)).empty());
  }
}

BOOST_AUTO_TEST_CASE(every_parser_file) {
  std::vector<std::string> files;
  const fs::path parser = araios::test::matricesDir() / "parser";
  for (const auto& entry : fs::recursive_directory_iterator(parser)) {
    if (entry.is_regular_file()) files.push_back(fs::relative(entry.path(), araios::test::matricesDir()).string());
  }
  std::sort(files.begin(), files.end());
  BOOST_TEST_REQUIRE(files.size() >= 30u);
  int read = 0, refused = 0;
  for (const std::string& file : files) {
    const std::string path = plainCopy(file);
    const std::string error = checkAsSerial(path);
    checkAsSerial(path, withChunks(5, 2));
    (error.empty() ? read : refused)++;
  }
  // Both kinds are there: skew-symmetric, duplicates, CR-only and CRLF files, and mangled ones.
  BOOST_TEST(read >= 12);
  BOOST_TEST(refused >= 10);
}

BOOST_AUTO_TEST_CASE(gzip_and_array_files_are_read_on_rank_zero) {
  const fs::path dir = araios::test::matricesDir();
  for (const char* file : {"sherman3.mtx.gz", "nos5.mtx.gz", "parser/lagraph/skew_fp64.mtx.gz",
                           "commanche_dual_coord.mtx.gz"}) {
    BOOST_TEST(checkAsSerial((dir / file).string()).empty());
  }
  BOOST_TEST(!checkAsSerial((dir / "parser/lagraph/mangled12.mtx.gz").string()).empty());
  const std::string nos5 = (dir / "nos5.mtx.gz").string();
  for (const RowPartition& p : partitionsWithEmptyRanks(468)) {
    BOOST_TEST(checkAsSerial(nos5, withChunks(0, 1, &p)).empty());
  }
  // A plain array file takes the same path.
  BOOST_TEST(checkAsSerial(plainCopy("commanche_dual_coord.mtx.gz")).empty());
}

// ---------------------------------------------------------------------------------------------
// Generated files

BOOST_AUTO_TEST_CASE(duplicates_summed_in_file_order) {
  int count = 0;
  for (const char* symmetry : {"general", "symmetric", "skew-symmetric"}) {
    for (const char* lineEnd : {"\n", "\r\n", "\r"}) {
      TextOptions o;
      o.symmetry = symmetry;
      o.lineEnd = lineEnd;
      o.seed = static_cast<std::uint64_t>(++count);
      const std::string path = writeShared("dups_" + std::to_string(count) + ".mtx", coordinateText(o));
      BOOST_TEST(checkAsSerial(path).empty());
      BOOST_TEST(checkAsSerial(path, withChunks(37, 2)).empty());
    }
  }
  // Pattern and integer fields, without a final line ending.
  for (const char* field : {"pattern", "integer"}) {
    TextOptions o;
    o.field = field;
    o.symmetry = "symmetric";
    o.finalEnd = false;
    o.seed = static_cast<std::uint64_t>(++count);
    const std::string path = writeShared(std::string("dups_") + field + ".mtx", coordinateText(o));
    BOOST_TEST(checkAsSerial(path).empty());
    BOOST_TEST(checkAsSerial(path, withChunks(13, 1)).empty());
  }
}

BOOST_AUTO_TEST_CASE(one_byte_chunks) {
  TextOptions o;
  o.symmetry = "symmetric";
  o.entries = 300;
  o.lineEnd = "\r\n";
  const std::string path = writeShared("one_byte_chunks.mtx", coordinateText(o));
  BOOST_TEST(checkAsSerial(path, withChunks(1, 1)).empty());
  BOOST_TEST(checkAsSerial(path, withChunks(1, 3)).empty());
}

BOOST_AUTO_TEST_CASE(explicit_partitions_with_empty_ranks) {
  TextOptions o;
  o.symmetry = "symmetric";
  const std::string path = writeShared("partitions.mtx", coordinateText(o));
  for (const RowPartition& p : partitionsWithEmptyRanks(o.rows)) {
    BOOST_TEST(checkAsSerial(path, withChunks(0, 1, &p)).empty());
    BOOST_TEST(checkAsSerial(path, withChunks(29, 2, &p)).empty());
  }
  const RowPartition uniform = RowPartition::uniform(o.rows, ranks());
  BOOST_TEST(checkAsSerial(path, withChunks(0, 1, &uniform)).empty());
}

BOOST_AUTO_TEST_CASE(fewer_rows_than_ranks) {
  const std::string one = writeShared("one_row.mtx", "%%MatrixMarket matrix coordinate real general\n1 1 3\n1 1 0.1\n"
                                                     "1 1 0.2\n1 1 0.3\n");
  const std::string two = writeShared("two_rows.mtx", "%%MatrixMarket matrix coordinate real symmetric\n2 2 3\n"
                                                      "2 1 1e16\n1 2 1\n2 1 -1e16\n");
  const std::string none = writeShared("no_rows.mtx", "%%MatrixMarket matrix coordinate real general\n0 0 0\n");
  const std::string noEntries = writeShared("no_entries.mtx", "%%MatrixMarket matrix coordinate real general\n5 7 0");
  const std::string empty = writeShared("empty_rows.mtx", "%%MatrixMarket matrix coordinate pattern general\n"
                                                          "1000000 3 2\n999999 2\n3 1\n");
  for (const std::string& path : {one, two, none, noEntries, empty}) {
    BOOST_TEST(checkAsSerial(path).empty());
    BOOST_TEST(checkAsSerial(path, withChunks(1, 2)).empty());
  }
  const RowPartition lastHoldsAll = partitionsWithEmptyRanks(2).front();
  BOOST_TEST(checkAsSerial(two, withChunks(0, 1, &lastHoldsAll)).empty());
}

BOOST_AUTO_TEST_CASE(a_comment_longer_than_a_range) {
  std::vector<std::string> lines = coordinateLines(TextOptions{"general", "real", 30, 200});
  lines.insert(lines.begin() + 100, "%" + std::string(20000, 'x'));
  lines.insert(lines.begin() + 150, std::string(10000, ' '));
  const std::string path = writeShared("long_comment.mtx", joinLines(lines, "\n"));
  BOOST_TEST(checkAsSerial(path).empty());
  BOOST_TEST(checkAsSerial(path, withChunks(100, 2)).empty());
}

BOOST_AUTO_TEST_CASE(special_values) {
  const std::string path = writeShared("special.mtx", "%%MatrixMarket matrix coordinate real general\n3 3 8\n"
                                                      "1 1 nan\n2 2 -0\n2 2 -0.0\n3 1 +inf\n3 1 -INF\n"
                                                      "1 3 1e400\n1 3 -1e-400\n2 3 +1.5\n");
  BOOST_TEST(checkAsSerial(path).empty());
}

BOOST_AUTO_TEST_CASE(drop_invalid) {
  const std::string path = writeShared("out_of_range.mtx", "%%MatrixMarket matrix coordinate real general\n3 3 5\n"
                                                           "1 1 1\n4 1 2\n2 2 3\n2 0 4\n3 3 5\n");
  DistributedReadOptions options = defaults();
  options.read.dropInvalid = true;
  BOOST_TEST(checkAsSerial(path, options).empty());
  options.read.chunkBytes = 3;
  BOOST_TEST(checkAsSerial(path, options).empty());
  BOOST_TEST(checkAsSerial(path).find(":4: row index 4 is out of range") != std::string::npos);
}

// ---------------------------------------------------------------------------------------------
// Errors

/// The lines of a valid file with `bad` put at the given line indices (0-based, of the file).
std::string withBadLines(std::vector<std::pair<std::size_t, std::string>> bad) {
  std::vector<std::string> lines = coordinateLines(TextOptions{"symmetric", "real", 40, 2000, "\n", false});
  for (const auto& [at, text] : bad) lines[at] = text;
  return joinLines(lines, "\n");
}

BOOST_AUTO_TEST_CASE(a_bad_line_in_the_middle) {
  // At 70% of the file: on the last rank of 2 or 3.
  const std::string path = writeShared("bad_line.mtx", withBadLines({{1400, "5 x 1.0"}}));
  BOOST_TEST(checkAsSerial(path).find(":1401: column index 'x' is not an integer") != std::string::npos);
  BOOST_TEST(checkAsSerial(path, withChunks(7, 2)).find(":1401:") != std::string::npos);
  // Two bad lines: the first in the file is reported, whichever rank holds the other.
  const std::string two = writeShared("two_bad_lines.mtx", withBadLines({{900, "3 3 3 3"}, {1700, "1 2 y"}}));
  BOOST_TEST(checkAsSerial(two).find(":901: extra token '3' after the entry") != std::string::npos);
  const std::string late = writeShared("late_out_of_range.mtx", withBadLines({{1990, "41 1 1.0"}}));
  BOOST_TEST(checkAsSerial(late).find(":1991: row index 41 is out of range") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(entry_counts_that_disagree_with_the_size_line) {
  std::vector<std::string> lines = coordinateLines(TextOptions{"general", "real", 40, 2000, "\n", false});
  // Fewer entries than announced: reported at the last line.
  std::vector<std::string> fewer = lines;
  fewer[2] = "40 40 2500";
  const std::string truncated = writeShared("fewer.mtx", joinLines(fewer, "\n"));
  BOOST_TEST(checkAsSerial(truncated).find(":2003: the file ends after 2000 of 2500 entries") != std::string::npos);
  // More: reported at the first line too many, in the middle of the file, before a bad line
  // further on.
  std::vector<std::string> more = lines;
  more[2] = "40 40 1000";
  more[1500] = "not an entry";
  const std::string extra = writeShared("more.mtx", joinLines(more, "\n"));
  BOOST_TEST(checkAsSerial(extra).find(":1004: more entries than the 1000") != std::string::npos);
  BOOST_TEST(checkAsSerial(extra, withChunks(11, 2)).find(":1004:") != std::string::npos);
  // A file cut in the middle of its last line.
  std::vector<std::string> cut = lines;
  cut.back() = "7 8";
  const std::string cutPath = writeShared("cut.mtx", joinLines(cut, "\n", false));
  BOOST_TEST(checkAsSerial(cutPath).find(":2003: missing value") != std::string::npos);
  // A size line announcing 10^12 entries in a file of three: refused as truncated, having
  // allocated nothing for them.
  const std::string huge = writeShared("huge.mtx", "%%MatrixMarket matrix coordinate real general\n"
                                                   "3 3 1000000000000\n1 1 1\n2 2 2\n3 3 3\n");
  BOOST_TEST(checkAsSerial(huge).find(":5: the file ends after 3 of 1000000000000 entries") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(header_and_file_errors) {
  const std::string banner = writeShared("banner.mtx", "%MatrixMarket matrix coordinate real general\n1 1 1\n1 1 1\n");
  BOOST_TEST(checkAsSerial(banner).find(":1: the first line") != std::string::npos);
  const std::string size = writeShared("size.mtx", "%%MatrixMarket matrix coordinate real general\n% c\n2 2\n");
  BOOST_TEST(checkAsSerial(size).find(":3: the size line") != std::string::npos);
  const std::string empty = writeShared("empty.mtx", "");
  BOOST_TEST(checkAsSerial(empty).find(":1: the file is empty") != std::string::npos);
  const std::string missing = sharedFolder() + "/no_such_file.mtx";
  BOOST_TEST(checkAsSerial(missing).find("cannot open " + missing) != std::string::npos);
}

BOOST_AUTO_TEST_CASE(a_partition_that_does_not_fit) {
  const std::string plain = writeShared("small.mtx", "%%MatrixMarket matrix coordinate real general\n3 3 1\n1 1 1\n");
  const std::string array = writeShared("small_array.mtx", "%%MatrixMarket matrix array real general\n3 1\n1\n2\n3\n");
  const RowPartition wrongRows = RowPartition::uniform(4, ranks());
  const RowPartition wrongRanks = RowPartition::uniform(3, ranks() + 1);
  for (const std::string& path : {plain, array}) {
    for (const RowPartition* p : {&wrongRows, &wrongRanks}) {
      std::string error;
      try {
        araios::readMatrixMarketRows(world(), path, withChunks(0, 1, p));
      } catch (const araios::Error& e) {
        error = e.what();
      }
      BOOST_TEST(error.find("araios::readMatrixMarketRows: the partition has") != std::string::npos, error);
    }
  }
}

BOOST_AUTO_TEST_CASE(the_failing_rank_throws_the_readers_exception) {
  const std::string path = writeShared("typed.mtx", withBadLines({{1999, "1 1 x"}}));
  int parseErrors = 0, remoteErrors = 0;
  try {
    araios::readMatrixMarketRows(world(), path, defaults());
  } catch (const araios::ParseError& e) {
    ++parseErrors;
    BOOST_TEST(e.line() == 2000);
  } catch (const araios::RemoteError& e) {
    ++remoteErrors;
    BOOST_TEST(e.rank() == ranks() - 1);
  }
  BOOST_TEST(parseErrors + remoteErrors == 1);
  int all[2] = {parseErrors, remoteErrors};
  ARAIOS_MPI_CHECK(MPI_Allreduce(MPI_IN_PLACE, all, 2, MPI_INT, MPI_SUM, world()));
  BOOST_TEST(all[0] == 1);
  BOOST_TEST(all[1] == ranks() - 1);
}

}  // namespace
