#pragma once
// Matrix Market reading and writing (https://math.nist.gov/MatrixMarket/formats.html).
//
// What the reader accepts:
//   - `.mtx` and gzip-compressed `.mtx.gz` files (detected from the content, not the name);
//   - `matrix coordinate` and `matrix array` objects;
//   - fields real (also spelled `double`), integer and pattern (pattern values are 1);
//   - symmetries general, symmetric and skew-symmetric, expanded to general without
//     duplicating the diagonal;
//   - comments, blank lines, LF, CRLF and CR-only line endings, any case in the banner;
//   - NaN and Inf values.
// What it refuses, with "FILE:LINE: what is wrong; expected what":
//   complex and hermitian matrices, `vector` objects, a missing or mangled banner, indices out
//   of range (or past int64), entry counts that disagree with the size line, truncated files,
//   tokens that are not numbers, and trailing tokens on a data line.
//
// Duplicate coordinate entries are summed, in file order. Array files keep every value,
// zeros included, as a stored entry. Explicit zeros of coordinate files are kept.
// The entries come back sorted by row, then column.
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
  /// in HostMatrix::droppedEntries, instead of refusing the file.
  bool dropInvalid = false;
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

/// Writes `matrix coordinate real general` with 1-based indices and the shortest decimal that
/// reads back to the same double, so a write/read round trip is bit-exact (NaN payloads aside).
/// The file is written to a temporary file in the same folder and renamed at the end, so a
/// reader never sees a half-written file. A path ending in `.gz` is gzip-compressed.
void writeMatrixMarket(const std::string& path, const HostMatrix& matrix);

}  // namespace araios::io
