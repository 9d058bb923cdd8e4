// One chunk of Matrix Market data lines, parsed on its own. The messages are those of a
// sequential read; only the line numbers are relative to the chunk (ParsedChunk::failure).
#include "matrix_market_chunk.hpp"

#include "mm_text.hpp"

#include <algorithm>
#include <charconv>
#include <system_error>

namespace araios::io::detail {
namespace {

/// A guess of the bytes one data line takes ("123456 654321 -1.2345678901234567e-01\n" is 40),
/// to reserve the entry arrays once instead of growing them a dozen times per chunk.
constexpr std::size_t kTypicalLineBytes = 32;

/// Past the line that `p` is in, ending included.
const char* pastLineEnd(const char* p, const char* end) {
  while (p != end && !isLineEnd(*p)) ++p;
  if (p != end) {
    if (*p == '\r' && p + 1 != end && p[1] == '\n') ++p;
    ++p;
  }
  return p;
}

const char* skipBlanks(const char* p, const char* end) {
  while (p != end && isBlank(*p)) ++p;
  return p;
}

const char* tokenEnd(const char* p, const char* end) {
  while (p != end && !isBlank(*p) && !isLineEnd(*p)) ++p;
  return p;
}

std::string_view between(const char* begin, const char* end) {
  return std::string_view(begin, static_cast<std::size_t>(end - begin));
}

class ChunkParser {
 public:
  ChunkParser(const MatrixMarketHeader& header, const ReadOptions& options, ParsedChunk& out)
      : header_(header), options_(options), out_(out) {}

  void run(std::string_view text) {
    const char* p = text.data();
    const char* end = p + text.size();
    reserve(text.size());
    const bool coordinate = header_.format == MatrixMarketFormat::Coordinate;
    while (p != end) {
      ++out_.lines;
      const char* q = skipBlanks(p, end);
      if (q == end || isLineEnd(*q) || *q == '%') {  // a blank line or a comment
        p = pastLineEnd(q, end);
        continue;
      }
      const bool ok = coordinate ? parseCoordinateLine(q, end) : parseArrayLine(q, end);
      if (!ok) return;
      ++out_.dataLines;
      p = pastLineEnd(q, end);
    }
  }

 private:
  bool fail(const std::string& problem, const std::string& expected) {
    out_.failure = ChunkFailure{out_.lines, problem, expected};
    return false;
  }

  void reserve(std::size_t bytes) {
    const std::size_t lines = bytes / kTypicalLineBytes + 1;
    if (header_.format == MatrixMarketFormat::Array) {
      out_.value.reserve(lines);
      return;
    }
    const std::size_t entries = header_.symmetry == MatrixMarketSymmetry::General ? lines : 2 * lines;
    out_.row.reserve(entries);
    out_.col.reserve(entries);
    out_.value.reserve(entries);
  }

  std::string entryForm() const {
    return header_.field == MatrixMarketField::Pattern ? "'ROW COL'" : "'ROW COL VALUE'";
  }

  /// `q` is at the line's first token; on return it is somewhere in the same line.
  bool parseCoordinateLine(const char*& q, const char* end) {
    std::int64_t row = 0, col = 0;
    double value = 1.0;
    const char* lineStart = q;
    // A nonzero skew-symmetric diagonal is refused quoting the value's text: the token path keeps it.
    if (scanPlainEntry(q, end, row, col, value) && !isNonzeroSkewDiagonal(row, col, value)) {
      return acceptEntry(row, col, value, std::string_view());
    }
    q = lineStart;
    return parseCoordinateTokens(q, end);
  }

  /// The common line, "ROW COL VALUE" with plain digits for the indices and a value that
  /// from_chars takes whole, scanned and converted in one pass. Returns false, having changed
  /// nothing, on anything else (a sign, a huge index, a value out of range, a missing or extra
  /// token, an integer field): parseCoordinateTokens then reads the line the general way, which
  /// finds the same numbers for every line this accepts.
  bool scanPlainEntry(const char*& q, const char* end, std::int64_t& row, std::int64_t& col, double& value) const {
    if (!scanDigits(q, end, row)) return false;
    q = skipBlanks(q, end);
    if (!scanDigits(q, end, col)) return false;
    if (header_.field == MatrixMarketField::Real) {
      q = skipBlanks(q, end);
      if (q == end || *q == '+') return false;
      const auto [stop, error] = std::from_chars(q, end, value, std::chars_format::general);
      if (error != std::errc() || stop == q || (stop != end && !isBlank(*stop) && !isLineEnd(*stop))) return false;
      q = stop;
    } else if (header_.field != MatrixMarketField::Pattern) {
      return false;
    }
    q = skipBlanks(q, end);
    return q == end || isLineEnd(*q);
  }

  /// Up to 18 decimal digits (which cannot overflow int64) ending the token. A 19th digit
  /// stops the scan before it is multiplied in: longer numbers are the general path's to read
  /// or refuse, and accumulating them here would overflow.
  static bool scanDigits(const char*& q, const char* end, std::int64_t& value) {
    constexpr std::ptrdiff_t kSafeDigits = 18;
    const char* begin = q;
    std::int64_t v = 0;
    while (q != end) {
      const unsigned digit = static_cast<unsigned char>(*q) - '0';
      if (digit > 9) break;
      if (q - begin == kSafeDigits) return false;
      v = v * 10 + digit;
      ++q;
    }
    if (q == begin) return false;
    if (q != end && !isBlank(*q) && !isLineEnd(*q)) return false;
    value = v;
    return true;
  }

  bool parseCoordinateTokens(const char*& q, const char* end) {
    const char* rowBegin = q;
    q = tokenEnd(q, end);
    const std::string_view rowToken = between(rowBegin, q);
    q = skipBlanks(q, end);
    if (q == end || isLineEnd(*q)) return fail("missing column index", entryForm());
    const char* colBegin = q;
    q = tokenEnd(q, end);
    const std::string_view colToken = between(colBegin, q);
    std::string_view valueToken;
    const bool hasValue = header_.field != MatrixMarketField::Pattern;
    if (hasValue) {
      q = skipBlanks(q, end);
      if (q == end || isLineEnd(*q)) return fail("missing value", entryForm());
      const char* valueBegin = q;
      q = tokenEnd(q, end);
      valueToken = between(valueBegin, q);
    }
    q = skipBlanks(q, end);
    if (q != end && !isLineEnd(*q)) {
      return fail("extra token " + quoted(between(q, tokenEnd(q, end))) + " after the entry", entryForm());
    }

    std::int64_t row = 0, col = 0;
    double value = 1.0;
    if (!parseIndex(rowToken, "row", header_.rows, row)) return false;
    if (!parseIndex(colToken, "column", header_.cols, col)) return false;
    if (hasValue && !parseValue(valueToken, value)) return false;
    return acceptEntry(row, col, value, valueToken);
  }

  /// The checks on an entry's numbers, and its storing. `valueToken` is quoted when the entry
  /// is a nonzero skew-symmetric diagonal, which the fast path never passes on.
  bool acceptEntry(std::int64_t row, std::int64_t col, double value, std::string_view valueToken) {
    if (!isInRange(row, header_.rows) || !isInRange(col, header_.cols)) {
      if (options_.dropInvalid) {
        ++out_.dropped;
        return true;
      }
      return refuseOutOfRange(row, col);
    }
    if (isNonzeroSkewDiagonal(row, col, value)) {
      return fail("diagonal entry (" + std::to_string(row) + ", " + std::to_string(col) + ") = " +
                      std::string(valueToken) + " in a skew-symmetric matrix",
                  "no diagonal entries, or zeros (a skew-symmetric matrix has a zero diagonal)");
    }
    addEntry(row - 1, col - 1, value);
    return true;
  }

  bool isNonzeroSkewDiagonal(std::int64_t row, std::int64_t col, double value) const {
    return header_.symmetry == MatrixMarketSymmetry::SkewSymmetric && row == col && !(value == 0.0);
  }

  static bool isInRange(std::int64_t index, std::int64_t size) { return index >= 1 && index <= size; }

  /// Parses a 1-based index; the range is checked by the caller (dropInvalid may skip it), but
  /// tokens that are not integers at all are always refused.
  bool parseIndex(std::string_view token, const char* which, std::int64_t size, std::int64_t& index) {
    const NumberStatus status = parseInt64(token, index);
    if (status == NumberStatus::Ok) return true;
    const char* problem = status == NumberStatus::NotANumber ? " is not an integer" : " does not fit in a 64-bit integer";
    return fail(std::string(which) + " index " + quoted(token) + problem, "an integer from 1 to " + std::to_string(size));
  }

  bool refuseOutOfRange(std::int64_t row, std::int64_t col) {
    const bool rowBad = !isInRange(row, header_.rows);
    const std::int64_t index = rowBad ? row : col;
    const std::int64_t size = rowBad ? header_.rows : header_.cols;
    const std::string which = rowBad ? "row" : "column";
    return fail(which + " index " + std::to_string(index) + " is out of range" +
                    (index == 0 ? " (indices are 1-based)" : ""),
                "1 to " + std::to_string(size) + " (the matrix has " + std::to_string(size) + " " + which + "s)");
  }

  bool parseValue(std::string_view token, double& value) {
    if (header_.field == MatrixMarketField::Integer) return parseIntegerValue(token, value);
    if (parseReal(token, value) == NumberStatus::Ok) return true;
    return fail("value " + quoted(token) + " is not a number", "a real number such as 1.5, -2e3, nan or inf");
  }

  /// The values of an `integer` matrix are read as int64, so that a value like 1.5 is caught,
  /// then stored as double (exactly up to 2^53).
  bool parseIntegerValue(std::string_view token, double& value) {
    std::int64_t integer = 0;
    switch (parseInt64(token, integer)) {
      case NumberStatus::NotANumber:
        return fail("value " + quoted(token) + " is not an integer", "an integer value (the banner says 'integer')");
      case NumberStatus::OutOfRange:
        return fail("value " + quoted(token) + " does not fit in a 64-bit integer",
                    "an integer value of at most 2^63 - 1");
      case NumberStatus::Ok: break;
    }
    value = static_cast<double>(integer);
    return true;
  }

  void push(std::int64_t row, std::int64_t col, double value) {
    if (!out_.row.empty()) {
      const std::int64_t lastRow = out_.row.back();
      if (row < lastRow || (row == lastRow && col < out_.col.back())) out_.sorted = false;
    }
    out_.row.push_back(row);
    out_.col.push_back(col);
    out_.value.push_back(value);
  }

  /// Stores a 0-based entry and, for a symmetric file, its mirror. Both triangles are accepted:
  /// if a symmetric file holds (i, j) and (j, i), each one's mirror lands on the other, and the
  /// duplicates are summed like any others.
  void addEntry(std::int64_t row, std::int64_t col, double value) {
    push(row, col, value);
    if (row == col) return;
    if (header_.symmetry == MatrixMarketSymmetry::Symmetric) push(col, row, value);
    if (header_.symmetry == MatrixMarketSymmetry::SkewSymmetric) push(col, row, -value);
  }

  /// An array file holds one value per line; its position comes from the line's place in the
  /// file, which the chunk does not know, so only the value is kept here.
  bool parseArrayLine(const char*& q, const char* end) {
    const char* valueBegin = q;
    q = tokenEnd(q, end);
    const std::string_view valueToken = between(valueBegin, q);
    q = skipBlanks(q, end);
    if (q != end && !isLineEnd(*q)) {
      return fail("extra token " + quoted(between(q, tokenEnd(q, end))) + " after the value",
                  "one value per line in an array file");
    }
    double value = 0;
    if (!parseValue(valueToken, value)) return false;
    out_.value.push_back(value);
    return true;
  }

  const MatrixMarketHeader& header_;
  const ReadOptions& options_;
  ParsedChunk& out_;
};

}  // namespace

void parseChunk(std::string_view text, const MatrixMarketHeader& header, const ReadOptions& options,
                ParsedChunk& out) {
  ChunkParser(header, options, out).run(text);
}

std::int64_t lineOfDataLine(std::string_view text, std::int64_t k) {
  LineReader lines(text);
  std::string_view line;
  std::int64_t seen = 0;
  while (lines.next(line)) {
    if (isDataLine(line) && ++seen == k) return lines.lineNumber();
  }
  return lines.lineNumber();
}

}  // namespace araios::io::detail
