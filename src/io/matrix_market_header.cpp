// The banner and the size line of a Matrix Market file.
#include "matrix_market_header.hpp"

#include <araios/error.hpp>

#include "mm_text.hpp"

#include <limits>
#include <utility>
#include <vector>

namespace araios::io::detail {
namespace {

constexpr const char* kBannerExample = "'%%MatrixMarket matrix coordinate real general'";
constexpr const char* kAllowedFormats = "'coordinate' or 'array'";
constexpr const char* kAllowedFields = "'real' (or 'double'), 'integer' or 'pattern'";
constexpr const char* kAllowedSymmetries = "'general', 'symmetric' or 'skew-symmetric'";

/// Signals that the text ended before the size line while more may follow.
struct NeedMoreText {};

class HeaderParser {
 public:
  HeaderParser(std::string_view text, bool complete, const std::string& name)
      : lines_(text), complete_(complete), name_(name) {}

  void parse(HeaderInfo& info) {
    parseBanner();
    parseSizeLine();
    info.header = header_;
    info.sizeLineNumber = lines_.lineNumber();
    info.dataOffset = lines_.offset();
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
    if (!lines_.next(line)) {
      if (!complete_) throw NeedMoreText{};
      fail(1, "the file is empty", "a first line like " + std::string(kBannerExample));
    }
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
    if (!nextDataLine(line)) {
      if (!complete_) throw NeedMoreText{};
      failHere("the file ends before the size line", expected);
    }
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

  LineReader lines_;
  bool complete_;
  const std::string& name_;
  MatrixMarketHeader header_;
};

}  // namespace

bool parseHeader(std::string_view text, bool complete, const std::string& name, HeaderInfo& info) {
  try {
    HeaderParser(text, complete, name).parse(info);
    return true;
  } catch (const NeedMoreText&) {
    return false;
  }
}

HeaderInfo readHeader(ChunkSource& source, const std::string& name, TextChunk& data) {
  TextChunk head;
  bool complete = !source.next(head);
  HeaderInfo info;
  while (!parseHeader(head.text(), complete, name, info)) {
    TextChunk more;
    if (!source.next(more)) {
      complete = true;
      continue;
    }
    std::string joined(head.text());
    joined.append(more.text());
    head = TextChunk{std::move(joined), nullptr, 0, 0};
    head.size = head.storage.size();
  }
  // The data starts in the same chunk, after the size line.
  data = std::move(head);
  data.begin += info.dataOffset;
  data.size -= info.dataOffset;
  return info;
}

}  // namespace araios::io::detail
