// Matrix Market reader. The whole file is loaded into memory first (text_source.cpp), then
// parsed with std::from_chars on string_views: iostreams are several times slower on the
// largest test matrices (15 MB of text, about a million entries).
#include <araios/error.hpp>
#include <araios/io/matrix_market.hpp>

#include "text_source.hpp"

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <limits>
#include <string>
#include <string_view>
#include <vector>

namespace araios::io {

const char* toString(MatrixMarketFormat format) {
  switch (format) {
    case MatrixMarketFormat::Coordinate: return "coordinate";
    case MatrixMarketFormat::Array: return "array";
  }
  return "unknown format";
}

const char* toString(MatrixMarketField field) {
  switch (field) {
    case MatrixMarketField::Real: return "real";
    case MatrixMarketField::Integer: return "integer";
    case MatrixMarketField::Pattern: return "pattern";
  }
  return "unknown field";
}

const char* toString(MatrixMarketSymmetry symmetry) {
  switch (symmetry) {
    case MatrixMarketSymmetry::General: return "general";
    case MatrixMarketSymmetry::Symmetric: return "symmetric";
    case MatrixMarketSymmetry::SkewSymmetric: return "skew-symmetric";
  }
  return "unknown symmetry";
}

namespace {

// ---------------------------------------------------------------------------------------------
// Text helpers

bool isBlank(char c) { return c == ' ' || c == '\t' || c == '\v' || c == '\f'; }

// The line and token readers below work on raw pointers: the test suite runs this code
// unoptimized under sanitizers, where every string_view call costs a real function call.

/// Splits text into lines. LF, CRLF and a lone CR (old Mac files) each end one line, so line
/// numbers match what an editor shows whatever the file's origin.
class LineReader {
 public:
  explicit LineReader(std::string_view text) : next_(text.data()), end_(text.data() + text.size()) {}

  /// The next line without its ending; false once the text is exhausted. A final ending does
  /// not start an extra empty line.
  bool next(std::string_view& line) {
    if (next_ == end_) return false;
    const char* stop = next_;
    while (stop != end_ && *stop != '\n' && *stop != '\r') ++stop;
    line = std::string_view(next_, static_cast<std::size_t>(stop - next_));
    next_ = stop;
    if (next_ != end_) {
      if (*next_ == '\r' && next_ + 1 != end_ && next_[1] == '\n') ++next_;
      ++next_;
    }
    ++lineNumber_;
    return true;
  }

  /// Number of the line last returned by next(): after the end, the file's last line.
  std::int64_t lineNumber() const { return lineNumber_; }

 private:
  const char* next_;
  const char* end_;
  std::int64_t lineNumber_ = 0;
};

/// Reads whitespace-separated tokens from one line.
class Tokens {
 public:
  explicit Tokens(std::string_view line) : next_(line.data()), end_(line.data() + line.size()) {}

  bool next(std::string_view& token) {
    const char* begin = next_;
    while (begin != end_ && isBlank(*begin)) ++begin;
    const char* stop = begin;
    while (stop != end_ && !isBlank(*stop)) ++stop;
    next_ = stop;
    if (begin == stop) return false;
    token = std::string_view(begin, static_cast<std::size_t>(stop - begin));
    return true;
  }

  std::vector<std::string_view> all() {
    std::vector<std::string_view> tokens;
    std::string_view token;
    while (next(token)) tokens.push_back(token);
    return tokens;
  }

 private:
  const char* next_;
  const char* end_;
};

/// Blank lines and `%` comments may appear anywhere after the banner; data lines are the rest.
bool isDataLine(std::string_view line) {
  for (char c : line) {
    if (!isBlank(c)) return c != '%';
  }
  return false;
}

std::string lowercase(std::string_view word) {
  std::string lower(word);
  for (char& c : lower) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  return lower;
}

bool startsWithNoCase(std::string_view text, std::string_view prefix) {
  return text.size() >= prefix.size() && lowercase(text.substr(0, prefix.size())) == lowercase(prefix);
}

/// Quotes text from the file for a message: shortened, with control bytes escaped, so that a
/// binary or huge line cannot garble the message.
std::string quoted(std::string_view text) {
  constexpr std::size_t kMaxShown = 60;
  std::string out = "'";
  for (std::size_t i = 0; i < text.size() && i < kMaxShown; ++i) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c >= 0x20 && c < 0x7f) {
      out += static_cast<char>(c);
    } else {
      const char* hex = "0123456789abcdef";
      out += "\\x";
      out += hex[c >> 4];
      out += hex[c & 15];
    }
  }
  if (text.size() > kMaxShown) out += "...";
  return out + "'";
}

// ---------------------------------------------------------------------------------------------
// Numbers

enum class NumberStatus { Ok, NotANumber, OutOfRange };

/// std::from_chars refuses a leading '+', which some Matrix Market writers emit. Strips one
/// '+' unless another sign follows it, so that "+-1" and "++1" stay invalid.
std::string_view withoutPlusSign(std::string_view token) {
  if (token.size() > 1 && token[0] == '+' && token[1] != '+' && token[1] != '-') {
    token.remove_prefix(1);
  }
  return token;
}

NumberStatus parseInt64(std::string_view token, std::int64_t& value) {
  token = withoutPlusSign(token);
  const char* end = token.data() + token.size();
  const auto [stop, error] = std::from_chars(token.data(), end, value);
  if (stop != end || error == std::errc::invalid_argument) return NumberStatus::NotANumber;
  if (error == std::errc::result_out_of_range) return NumberStatus::OutOfRange;
  return NumberStatus::Ok;
}

/// For a valid decimal that std::from_chars found out of double's range: true when its
/// magnitude is huge (it overflows to infinity) rather than tiny (it underflows to zero).
/// Any such value is above 1e308 or below 1e-323, so the sign of the decimal exponent of its
/// first significant digit tells the two apart.
bool overflowsRatherThanUnderflows(std::string_view token) {
  std::size_t i = (token[0] == '-') ? 1 : 0;
  auto isDigit = [&](std::size_t k) { return k < token.size() && token[k] >= '0' && token[k] <= '9'; };
  std::int64_t significantIntegerDigits = 0;  // digits from the first nonzero one up to '.'
  std::int64_t zerosAfterPoint = 0;           // zeros after '.' before the first nonzero digit
  bool seenNonzero = false;
  for (; isDigit(i); ++i) {
    if (seenNonzero || token[i] != '0') {
      seenNonzero = true;
      ++significantIntegerDigits;
    }
  }
  if (i < token.size() && token[i] == '.') {
    for (++i; isDigit(i); ++i) {
      if (seenNonzero) continue;
      if (token[i] == '0') ++zerosAfterPoint;
      else seenNonzero = true;
    }
  }
  std::int64_t exponent = 0;
  if (i < token.size() && (token[i] == 'e' || token[i] == 'E')) {
    ++i;
    const bool negative = i < token.size() && token[i] == '-';
    if (i < token.size() && (token[i] == '-' || token[i] == '+')) ++i;
    // Saturate: an exponent of a trillion decides the question as well as a longer one.
    for (; isDigit(i); ++i) exponent = std::min<std::int64_t>(exponent * 10 + (token[i] - '0'), 1'000'000'000'000);
    if (negative) exponent = -exponent;
  }
  const std::int64_t leadingDigitExponent =
      significantIntegerDigits > 0 ? significantIntegerDigits - 1 : -(zerosAfterPoint + 1);
  return leadingDigitExponent + exponent > 0;
}

/// Parses a real value: decimals, and nan/inf/infinity in any case, with an optional sign.
/// Values beyond double's range round to +-inf or +-0 as strtod would.
NumberStatus parseReal(std::string_view token, double& value) {
  token = withoutPlusSign(token);
  const char* end = token.data() + token.size();
  const auto [stop, error] = std::from_chars(token.data(), end, value, std::chars_format::general);
  if (stop != end || error == std::errc::invalid_argument) return NumberStatus::NotANumber;
  if (error == std::errc::result_out_of_range) {
    const bool negative = token[0] == '-';
    const double magnitude = overflowsRatherThanUnderflows(token) ? std::numeric_limits<double>::infinity() : 0.0;
    value = negative ? -magnitude : magnitude;
  }
  return NumberStatus::Ok;
}

// ---------------------------------------------------------------------------------------------
// The parser

constexpr const char* kBannerExample = "'%%MatrixMarket matrix coordinate real general'";
constexpr const char* kAllowedFormats = "'coordinate' or 'array'";
constexpr const char* kAllowedFields = "'real' (or 'double'), 'integer' or 'pattern'";
constexpr const char* kAllowedSymmetries = "'general', 'symmetric' or 'skew-symmetric'";

struct Entry {
  std::int64_t row;
  std::int64_t col;
  double value;
};

/// Moves `from` into `to` ordered by key(entry), which lies in [0, keyCount), keeping the
/// order of entries with equal keys: a stable counting sort, O(n + keyCount).
template <class Key>
void countingSortInto(const std::vector<Entry>& from, std::vector<Entry>& to, std::int64_t keyCount, Key key) {
  std::vector<std::size_t> starts(static_cast<std::size_t>(keyCount) + 1, 0);
  std::size_t* start = starts.data();
  const Entry* source = from.data();
  const std::size_t count = from.size();
  for (std::size_t k = 0; k < count; ++k) ++start[key(source[k]) + 1];
  for (std::int64_t k = 0; k < keyCount; ++k) start[k + 1] += start[k];
  to.resize(count);
  Entry* target = to.data();
  for (std::size_t k = 0; k < count; ++k) target[start[key(source[k])]++] = source[k];
}

bool isSortedByPosition(const std::vector<Entry>& entries) {
  const Entry* entry = entries.data();
  for (std::size_t k = 1; k < entries.size(); ++k) {
    if (entry[k].row < entry[k - 1].row || (entry[k].row == entry[k - 1].row && entry[k].col < entry[k - 1].col)) {
      return false;
    }
  }
  return true;
}

/// Sorts by (row, column) and keeps entries at the same position in file order, so that
/// duplicates are later summed in that order. Two counting-sort passes (by column, then by
/// row) when the dimensions are not much larger than the entry count; a comparison sort for
/// hypersparse matrices, whose counting arrays would dwarf the entries.
void sortEntriesStably(std::vector<Entry>& entries, std::int64_t rows, std::int64_t cols) {
  if (isSortedByPosition(entries)) return;
  const auto count = static_cast<std::int64_t>(entries.size());
  if (rows > 2 * count + 4096 || cols > 2 * count + 4096) {
    std::stable_sort(entries.begin(), entries.end(), [](const Entry& a, const Entry& b) {
      return a.row != b.row ? a.row < b.row : a.col < b.col;
    });
    return;
  }
  std::vector<Entry> byColumn;
  countingSortInto(entries, byColumn, cols, [](const Entry& e) { return e.col; });
  countingSortInto(byColumn, entries, rows, [](const Entry& e) { return e.row; });
}

/// Copies sorted entries into the matrix, adding each duplicate into the first entry at its
/// position.
void mergeDuplicates(const std::vector<Entry>& entries, HostMatrix& matrix) {
  const Entry* entry = entries.data();
  const std::size_t count = entries.size();
  std::size_t unique = 0;
  for (std::size_t k = 0; k < count; ++k) {
    if (k == 0 || entry[k].row != entry[k - 1].row || entry[k].col != entry[k - 1].col) ++unique;
  }
  matrix.row.resize(unique);
  matrix.col.resize(unique);
  matrix.value.resize(unique);
  std::int64_t* row = matrix.row.data();
  std::int64_t* col = matrix.col.data();
  double* value = matrix.value.data();
  std::size_t last = 0;
  for (std::size_t k = 0; k < count; ++k) {
    if (k > 0 && entry[k].row == row[last] && entry[k].col == col[last]) {
      value[last] += entry[k].value;
      continue;
    }
    if (k > 0) ++last;
    row[last] = entry[k].row;
    col[last] = entry[k].col;
    value[last] = entry[k].value;
  }
  matrix.duplicatesSummed = static_cast<std::int64_t>(count - unique);
}

class MatrixMarketParser {
 public:
  MatrixMarketParser(std::string_view text, const std::string& name, const ReadOptions& options)
      : lines_(text), name_(name), options_(options), textSize_(text.size()) {}

  HostMatrix parse() {
    parseBanner();
    parseSizeLine();
    if (header_.format == MatrixMarketFormat::Coordinate) {
      parseCoordinateEntries();
    } else {
      parseArrayValues();
    }
    return assembleSortedMatrix();
  }

 private:
  [[noreturn]] void fail(std::int64_t line, const std::string& problem, const std::string& expected) const {
    throw ParseError(name_, line, problem, expected);
  }
  [[noreturn]] void failHere(const std::string& problem, const std::string& expected) const {
    fail(lines_.lineNumber(), problem, expected);
  }

  bool isSymmetric() const { return header_.symmetry != MatrixMarketSymmetry::General; }

  // --- banner ---

  void parseBanner() {
    std::string_view line;
    if (!lines_.next(line)) fail(1, "the file is empty", "a first line like " + std::string(kBannerExample));
    Tokens tokens(line);
    const std::vector<std::string_view> words = tokens.all();
    if (words.empty() || lowercase(words[0]) != "%%matrixmarket") refuseMissingBanner(line);
    if (words.size() != 5) {
      failHere("the banner has " + std::to_string(words.size() - 1) + " words after '%%MatrixMarket'",
               "4: the object 'matrix', a format (" + std::string(kAllowedFormats) + "), a field (" +
                   kAllowedFields + ") and a symmetry (" + kAllowedSymmetries + "), as in " + kBannerExample);
    }
    parseObjectWord(lowercase(words[1]));
    header_.format = parseFormatWord(lowercase(words[2]));
    header_.field = parseFieldWord(lowercase(words[3]));
    header_.symmetry = parseSymmetryWord(lowercase(words[4]));
    refuseInvalidCombinations();
  }

  [[noreturn]] void refuseMissingBanner(std::string_view line) const {
    const std::string expected = "a first line like " + std::string(kBannerExample);
    std::string_view trimmed = line;
    while (!trimmed.empty() && isBlank(trimmed.front())) trimmed.remove_prefix(1);
    if (startsWithNoCase(trimmed, "%MatrixMarket")) {
      fail(1, "the first line " + quoted(line) + " looks like a banner with one '%'", expected + ", with two '%'");
    }
    fail(1, "the first line " + quoted(line) + " is not a '%%MatrixMarket' banner", expected);
  }

  void parseObjectWord(const std::string& word) const {
    if (word == "matrix") return;
    if (word == "vector") failHere("'vector' objects are not supported", "'matrix'");
    failHere("unknown object " + quoted(word) + " in the banner", "'matrix'");
  }

  MatrixMarketFormat parseFormatWord(const std::string& word) const {
    if (word == "coordinate") return MatrixMarketFormat::Coordinate;
    if (word == "array") return MatrixMarketFormat::Array;
    failHere("unknown format " + quoted(word) + " in the banner", kAllowedFormats);
  }

  MatrixMarketField parseFieldWord(const std::string& word) const {
    if (word == "real" || word == "double") return MatrixMarketField::Real;
    if (word == "integer") return MatrixMarketField::Integer;
    if (word == "pattern") return MatrixMarketField::Pattern;
    if (word == "complex") failHere("complex matrices are not supported", std::string("a field ") + kAllowedFields);
    failHere("unknown field " + quoted(word) + " in the banner", kAllowedFields);
  }

  MatrixMarketSymmetry parseSymmetryWord(const std::string& word) const {
    if (word == "general") return MatrixMarketSymmetry::General;
    if (word == "symmetric") return MatrixMarketSymmetry::Symmetric;
    if (word == "skew-symmetric") return MatrixMarketSymmetry::SkewSymmetric;
    if (word == "hermitian") {
      if (header_.field == MatrixMarketField::Pattern) {
        failHere("'pattern hermitian' is invalid: hermitian needs complex values", kAllowedSymmetries);
      }
      failHere("hermitian matrices are not supported (they are complex)", kAllowedSymmetries);
    }
    failHere("unknown symmetry " + quoted(word) + " in the banner", kAllowedSymmetries);
  }

  void refuseInvalidCombinations() const {
    if (header_.format == MatrixMarketFormat::Array && header_.field == MatrixMarketField::Pattern) {
      failHere("'array pattern' is invalid: an array file lists every value",
               "'coordinate pattern', or an array with field 'real' or 'integer'");
    }
    // The Matrix Market definition allows pattern only with general and symmetric: the values
    // of a skew-symmetric pattern (+1 and -1) would be arbitrary.
    if (header_.field == MatrixMarketField::Pattern && header_.symmetry == MatrixMarketSymmetry::SkewSymmetric) {
      failHere("'pattern skew-symmetric' is invalid", "'pattern general' or 'pattern symmetric'");
    }
  }

  // --- size line ---

  /// Moves to the next line that is neither blank nor a comment; false at the end of the text.
  bool nextDataLine(std::string_view& line) {
    while (lines_.next(line)) {
      if (isDataLine(line)) return true;
    }
    return false;
  }

  void parseSizeLine() {
    const bool coordinate = header_.format == MatrixMarketFormat::Coordinate;
    const std::string expected = coordinate ? "'ROWS COLS ENTRIES' (3 non-negative integers) for a coordinate matrix"
                                            : "'ROWS COLS' (2 non-negative integers) for an array matrix";
    std::string_view line;
    if (!nextDataLine(line)) failHere("the file ends before the size line", expected);
    const std::vector<std::string_view> tokens = Tokens(line).all();
    const std::size_t wanted = coordinate ? 3 : 2;
    if (tokens.size() != wanted) {
      failHere("the size line " + quoted(line) + " has " + std::to_string(tokens.size()) + " numbers", expected);
    }
    std::int64_t sizes[3] = {0, 0, 0};
    for (std::size_t k = 0; k < wanted; ++k) sizes[k] = parseSize(tokens[k], expected);
    header_.rows = sizes[0];
    header_.cols = sizes[1];
    if (isSymmetric() && header_.rows != header_.cols) {
      failHere(std::string("a ") + toString(header_.symmetry) + " matrix of " + std::to_string(header_.rows) +
                   " rows and " + std::to_string(header_.cols) + " columns",
               "a square matrix (ROWS == COLS)");
    }
    header_.storedEntries = coordinate ? sizes[2] : arrayValueCount();
    sizeLineNumber_ = lines_.lineNumber();
  }

  std::int64_t parseSize(std::string_view token, const std::string& expected) const {
    std::int64_t value = 0;
    switch (parseInt64(token, value)) {
      case NumberStatus::NotANumber: failHere("size " + quoted(token) + " is not an integer", expected);
      case NumberStatus::OutOfRange: failHere("size " + quoted(token) + " does not fit in a 64-bit integer", expected);
      case NumberStatus::Ok: break;
    }
    if (value < 0) failHere("negative size " + std::to_string(value), expected);
    return value;
  }

  /// Values an array file holds: every value, one triangle with the diagonal when symmetric,
  /// the strict lower triangle when skew-symmetric.
  std::int64_t arrayValueCount() const {
    const std::int64_t rows = header_.rows;
    const std::int64_t cols = header_.cols;
    const std::int64_t limit = std::numeric_limits<std::int64_t>::max();
    if (cols != 0 && rows > limit / cols) {
      failHere("an array of " + std::to_string(rows) + " x " + std::to_string(cols) + " values",
               "at most 2^63 - 1 values");
    }
    switch (header_.symmetry) {
      case MatrixMarketSymmetry::General: return rows * cols;
      // n (n + 1) / 2 computed without overflowing: one of n, n + 1 is even.
      case MatrixMarketSymmetry::Symmetric: return rows % 2 == 0 ? rows / 2 * (rows + 1) : (rows + 1) / 2 * rows;
      case MatrixMarketSymmetry::SkewSymmetric:
        return rows == 0 ? 0 : (rows % 2 == 0 ? rows / 2 * (rows - 1) : (rows - 1) / 2 * rows);
    }
    return 0;
  }

  /// Capacity for the entries: the expected count, bounded by what the text can hold (every
  /// entry takes at least two bytes), so that a lying size line cannot exhaust memory.
  void reserveEntries() {
    const std::int64_t perStored = isSymmetric() ? 2 : 1;
    const auto bound = static_cast<std::int64_t>(textSize_ / 2 + 1);
    entries_.reserve(static_cast<std::size_t>(std::min(header_.storedEntries, bound) * perStored));
  }

  // --- data ---

  std::string entryForm() const {
    return header_.field == MatrixMarketField::Pattern ? "'ROW COL'" : "'ROW COL VALUE'";
  }

  /// What the data lines hold, for messages.
  const char* itemsName() const { return header_.format == MatrixMarketFormat::Coordinate ? "entries" : "values"; }

  [[noreturn]] void refuseExtraEntry() const {
    const std::string count = std::to_string(header_.storedEntries);
    failHere(std::string("more ") + itemsName() + " than the " + count + " that the size line (line " +
                 std::to_string(sizeLineNumber_) + ") announces",
             count + " " + itemsName());
  }

  [[noreturn]] void refuseTruncation(std::int64_t found) const {
    const std::string count = std::to_string(header_.storedEntries);
    failHere("the file ends after " + std::to_string(found) + " of " + count + " " + itemsName(),
             count + " " + itemsName() + ", as the size line (line " + std::to_string(sizeLineNumber_) + ") says");
  }

  void parseCoordinateEntries() {
    reserveEntries();
    std::int64_t found = 0;
    std::string_view line;
    while (nextDataLine(line)) {
      if (found == header_.storedEntries) refuseExtraEntry();
      ++found;
      parseCoordinateLine(line);
    }
    if (found < header_.storedEntries) refuseTruncation(found);
  }

  void parseCoordinateLine(std::string_view line) {
    Tokens tokens(line);
    std::string_view rowToken, colToken, valueToken, extraToken;
    tokens.next(rowToken);  // a data line has at least one token
    if (!tokens.next(colToken)) failHere("missing column index", entryForm());
    const bool hasValue = header_.field != MatrixMarketField::Pattern;
    if (hasValue && !tokens.next(valueToken)) failHere("missing value", entryForm());
    if (tokens.next(extraToken)) failHere("extra token " + quoted(extraToken) + " after the entry", entryForm());

    const std::int64_t row = parseIndex(rowToken, "row", header_.rows);
    const std::int64_t col = parseIndex(colToken, "column", header_.cols);
    const double value = hasValue ? parseValue(valueToken) : 1.0;
    if (!isInRange(row, header_.rows) || !isInRange(col, header_.cols)) {
      if (options_.dropInvalid) {
        ++dropped_;
        return;
      }
      refuseOutOfRange(row, col);
    }
    if (header_.symmetry == MatrixMarketSymmetry::SkewSymmetric && row == col && !(value == 0.0)) {
      failHere("diagonal entry (" + std::to_string(row) + ", " + std::to_string(col) + ") = " + std::string(valueToken) +
                   " in a skew-symmetric matrix",
               "no diagonal entries, or zeros (a skew-symmetric matrix has a zero diagonal)");
    }
    addEntry(row - 1, col - 1, value);
  }

  static bool isInRange(std::int64_t index, std::int64_t size) { return index >= 1 && index <= size; }

  /// Parses a 1-based index; the range is checked by the caller (dropInvalid may skip it), but
  /// tokens that are not integers at all are always refused.
  std::int64_t parseIndex(std::string_view token, const char* which, std::int64_t size) const {
    std::int64_t index = 0;
    const NumberStatus status = parseInt64(token, index);
    if (status != NumberStatus::Ok) {
      const char* problem = status == NumberStatus::NotANumber ? " is not an integer" : " does not fit in a 64-bit integer";
      failHere(std::string(which) + " index " + quoted(token) + problem, "an integer from 1 to " + std::to_string(size));
    }
    return index;
  }

  [[noreturn]] void refuseOutOfRange(std::int64_t row, std::int64_t col) const {
    const bool rowBad = !isInRange(row, header_.rows);
    const std::int64_t index = rowBad ? row : col;
    const std::int64_t size = rowBad ? header_.rows : header_.cols;
    const std::string which = rowBad ? "row" : "column";
    failHere(which + " index " + std::to_string(index) + " is out of range" +
                 (index == 0 ? " (indices are 1-based)" : ""),
             "1 to " + std::to_string(size) + " (the matrix has " + std::to_string(size) + " " + which + "s)");
  }

  double parseValue(std::string_view token) const {
    if (header_.field == MatrixMarketField::Integer) return parseIntegerValue(token);
    double value = 0;
    if (parseReal(token, value) != NumberStatus::Ok) {
      failHere("value " + quoted(token) + " is not a number", "a real number such as 1.5, -2e3, nan or inf");
    }
    return value;
  }

  /// The values of an `integer` matrix are read as int64, so that a value like 1.5 is caught,
  /// then stored as double (exactly up to 2^53).
  double parseIntegerValue(std::string_view token) const {
    std::int64_t value = 0;
    switch (parseInt64(token, value)) {
      case NumberStatus::NotANumber:
        failHere("value " + quoted(token) + " is not an integer", "an integer value (the banner says 'integer')");
      case NumberStatus::OutOfRange:
        failHere("value " + quoted(token) + " does not fit in a 64-bit integer", "an integer value of at most 2^63 - 1");
      case NumberStatus::Ok: break;
    }
    return static_cast<double>(value);
  }

  /// Stores a 0-based entry and, for a symmetric file, its mirror. Both triangles are accepted:
  /// if a symmetric file holds (i, j) and (j, i), each one's mirror lands on the other, and the
  /// duplicates are summed like any others.
  void addEntry(std::int64_t row, std::int64_t col, double value) {
    entries_.push_back({row, col, value});
    if (row == col) return;
    if (header_.symmetry == MatrixMarketSymmetry::Symmetric) entries_.push_back({col, row, value});
    if (header_.symmetry == MatrixMarketSymmetry::SkewSymmetric) entries_.push_back({col, row, -value});
  }

  /// Array values come column by column; a symmetric file holds the lower triangle with the
  /// diagonal, a skew-symmetric file the strict lower triangle.
  void parseArrayValues() {
    reserveEntries();
    const std::int64_t rows = header_.rows;
    auto firstRowOf = [&](std::int64_t col) {
      switch (header_.symmetry) {
        case MatrixMarketSymmetry::General: return std::int64_t{0};
        case MatrixMarketSymmetry::Symmetric: return col;
        case MatrixMarketSymmetry::SkewSymmetric: return col + 1;
      }
      return std::int64_t{0};
    };
    std::int64_t found = 0;
    std::int64_t col = 0;
    std::int64_t row = firstRowOf(col);
    std::string_view line;
    while (nextDataLine(line)) {
      if (found == header_.storedEntries) refuseExtraEntry();
      ++found;
      // Move on to the next column that holds a value; one exists since found <= storedEntries.
      while (row >= rows) row = firstRowOf(++col);
      addEntry(row, col, parseArrayLine(line));
      ++row;
    }
    if (found < header_.storedEntries) refuseTruncation(found);
  }

  double parseArrayLine(std::string_view line) const {
    Tokens tokens(line);
    std::string_view valueToken, extraToken;
    tokens.next(valueToken);
    if (tokens.next(extraToken)) {
      failHere("extra token " + quoted(extraToken) + " after the value", "one value per line in an array file");
    }
    return parseValue(valueToken);
  }

  // --- result ---

  HostMatrix assembleSortedMatrix() {
    sortEntriesStably(entries_, header_.rows, header_.cols);
    HostMatrix matrix;
    matrix.numRows = header_.rows;
    matrix.numCols = header_.cols;
    matrix.header = header_;
    matrix.droppedEntries = dropped_;
    mergeDuplicates(entries_, matrix);
    return matrix;
  }

  LineReader lines_;
  const std::string& name_;
  const ReadOptions& options_;
  std::size_t textSize_;
  MatrixMarketHeader header_;
  std::int64_t sizeLineNumber_ = 0;
  std::int64_t dropped_ = 0;
  std::vector<Entry> entries_;
};

}  // namespace

HostMatrix parseMatrixMarket(const std::string& text, const std::string& name, const ReadOptions& options) {
  return MatrixMarketParser(text, name, options).parse();
}

HostMatrix readMatrixMarket(const std::string& path, const ReadOptions& options) {
  return parseMatrixMarket(detail::readTextFile(path), path, options);
}

}  // namespace araios::io
