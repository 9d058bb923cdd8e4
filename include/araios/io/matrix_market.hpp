#pragma once
// Matrix Market reading and writing (https://math.nist.gov/MatrixMarket/formats.html).
//
// What the reader accepts:
//   - `.mtx` and gzip-compressed `.mtx.gz` files (detected from the content, not the name);
//   - `matrix coordinate` and `matrix array` objects;
//   - fields real (also spelled `double`), integer and pattern (pattern values are 1);
//   - symmetries general, symmetric and skew-symmetric, expanded to general without
//     duplicating the diagonal (skew-symmetric: a_ji = -a_ij);
//   - comments, blank lines, LF, CRLF and CR-only line endings, any case in the banner;
//   - NaN and Inf values (nan, inf, infinity in any case, with a sign), a leading '+' on
//     numbers; decimals beyond double's range round to +-inf or +-0 as strtod does.
// What it refuses, with "FILE:LINE: what is wrong; expected what":
//   complex and hermitian matrices, `vector` objects, `array pattern` and
//   `pattern skew-symmetric`, a missing or mangled banner (it must be the first line), a bad
//   size line, indices out of range (or past int64), entry counts that disagree with the size
//   line, tokens that are not numbers (integer fields take int64 integers only), missing values,
//   trailing tokens on a data line (a trailing `%` comment included; array files hold one value
//   per line), and nonzero diagonal entries in a skew-symmetric file. LINE counts every line of
//   the file from 1; a truncated file is reported at its last line.
// The size line is not trusted for memory: the entry arrays grow as entries are read, so a file
// announcing 10^12 entries and holding three is refused as truncated, having reserved little.
//
// Duplicate coordinate entries are summed, in file order, and counted in duplicatesSummed.
// A symmetric file may hold entries of either triangle: each is mirrored, so a file holding
// both (i, j) and (j, i) sums them at both positions (two duplicates). Array files keep every
// value, zeros included, as a stored entry (skew-symmetric arrays have no diagonal entries).
// Explicit zeros of coordinate files are kept. The entries come back sorted by row, then column.
#include <cstddef>
#include <cstdint>
#include <iosfwd>
#include <string>
#include <vector>

namespace araios::io {

enum class MatrixMarketFormat { Coordinate, Array };
enum class MatrixMarketField { Real, Integer, Pattern };
enum class MatrixMarketSymmetry { General, Symmetric, SkewSymmetric };

const char* toString(MatrixMarketFormat format);
const char* toString(MatrixMarketField field);
const char* toString(MatrixMarketSymmetry symmetry);

struct MatrixMarketHeader {
  MatrixMarketFormat format = MatrixMarketFormat::Coordinate;
  MatrixMarketField field = MatrixMarketField::Real;
  MatrixMarketSymmetry symmetry = MatrixMarketSymmetry::General;
  std::int64_t rows = 0;
  std::int64_t cols = 0;
  /// Entries stored in the file: the size line's third number for coordinate files,
  /// the number of values for array files (only one triangle when symmetric).
  std::int64_t storedEntries = 0;
};

struct ReadOptions {
  /// Skip coordinate entries whose row or column index is outside the matrix, and count them
  /// in HostMatrix::droppedEntries, instead of refusing the file. Skipped entries still count
  /// against the size line; indices that are not integers or overflow int64 are still refused.
  bool dropInvalid = false;
  /// Threads that parse the text, in chunks of whole lines put together in file order; 0 means
  /// std::thread::hardware_concurrency(). The result, and every error, is the same for any
  /// number of threads. A gzip file is decompressed on one more thread, ahead of the parsers.
  int threads = 0;
  /// Bytes of text per chunk; 0 means the default (4 MiB). The text in memory at any time is a
  /// few chunks per thread, never the whole file. Small values are for testing chunk borders.
  std::size_t chunkBytes = 0;
};

/// A sparse matrix on the host, as read: 0-based int64 indices, double values, sorted by
/// (row, column), duplicates summed, symmetry expanded.
struct HostMatrix {
  std::int64_t numRows = 0;
  std::int64_t numCols = 0;
  std::vector<std::int64_t> row;
  std::vector<std::int64_t> col;
  std::vector<double> value;
  MatrixMarketHeader header;
  /// Entries skipped by ReadOptions::dropInvalid.
  std::int64_t droppedEntries = 0;
  /// Entries that were merged into an earlier entry at the same position.
  std::int64_t duplicatesSummed = 0;

  std::int64_t nnz() const { return static_cast<std::int64_t>(value.size()); }
};

/// Reads a `.mtx` or `.mtx.gz` file. Throws araios::ParseError (bad content) or
/// araios::InputError (file cannot be opened or decompressed).
HostMatrix readMatrixMarket(const std::string& path, const ReadOptions& options = {});

/// Parses Matrix Market text already in memory; `name` stands for the file in messages.
HostMatrix parseMatrixMarket(const std::string& text, const std::string& name,
                             const ReadOptions& options = {});

struct WriteOptions {
  /// Threads that format (and, for .gz, compress) chunks of entries, written in order; 0 means
  /// std::thread::hardware_concurrency(). The text is the same for any number of threads.
  int threads = 0;
};

/// Writes `matrix coordinate real general` with 1-based indices and the shortest decimal that
/// reads back to the same double, so a write/read round trip is bit-exact (NaN payloads and
/// signs aside: every NaN is written `nan`). The entries are written in the matrix's order.
/// The file is written to a temporary file `PATH.tmp-XXXXXX` in the same folder, synced and
/// renamed at the end (AtomicFile, araios/io/atomic_file.hpp), so a reader never sees a
/// half-written file; on failure the temporary file is removed and the target left as it was. A path ending in `.gz` is gzip-compressed,
/// as a series of gzip members (one per chunk of entries, compressed in parallel), which gzip
/// readers read as one text.
/// Throws araios::InputError naming the path on any failure, and for a matrix whose arrays
/// differ in length or whose indices lie outside it.
void writeMatrixMarket(const std::string& path, const HostMatrix& matrix, const WriteOptions& options = {});

}  // namespace araios::io
