#pragma once
// Private to the Matrix Market reader: lines, tokens, numbers and quoting, shared by the header
// parser (matrix_market_header.cpp) and the data-chunk parser (matrix_market_chunk.cpp).
//
// The line and token readers work on raw pointers: the test suite runs this code unoptimized
// under sanitizers, where every string_view call costs a real function call.
#include <algorithm>
#include <charconv>
#include <cstdint>
#include <limits>
#include <string>
#include <string_view>
#include <system_error>
#include <vector>

namespace araios::io::detail {

inline bool isBlank(char c) { return c == ' ' || c == '\t' || c == '\v' || c == '\f'; }
inline bool isLineEnd(char c) { return c == '\n' || c == '\r'; }

/// Splits text into lines. LF, CRLF and a lone CR (old Mac files) each end one line, so line
/// numbers match what an editor shows whatever the file's origin.
class LineReader {
 public:
  explicit LineReader(std::string_view text) : begin_(text.data()), next_(text.data()), end_(text.data() + text.size()) {}

  /// The next line without its ending; false once the text is exhausted. A final ending does
  /// not start an extra empty line.
  bool next(std::string_view& line) {
    if (next_ == end_) return false;
    const char* stop = next_;
    while (stop != end_ && !isLineEnd(*stop)) ++stop;
    line = std::string_view(next_, static_cast<std::size_t>(stop - next_));
    next_ = stop;
    if (next_ != end_) {
      if (*next_ == '\r' && next_ + 1 != end_ && next_[1] == '\n') ++next_;
      ++next_;
    }
    ++lineNumber_;
    return true;
  }

  /// Number of the line last returned by next(): after the end, the text's last line.
  std::int64_t lineNumber() const { return lineNumber_; }
  /// Bytes consumed so far: where the line after the last one returned starts.
  std::size_t offset() const { return static_cast<std::size_t>(next_ - begin_); }

 private:
  const char* begin_;
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
inline bool isDataLine(std::string_view line) {
  for (char c : line) {
    if (!isBlank(c)) return c != '%';
  }
  return false;
}

inline std::string lowercase(std::string_view word) {
  std::string lower(word);
  for (char& c : lower) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  return lower;
}

inline bool startsWithNoCase(std::string_view text, std::string_view prefix) {
  return text.size() >= prefix.size() && lowercase(text.substr(0, prefix.size())) == lowercase(prefix);
}

/// Quotes text from the file for a message: shortened, with control bytes escaped, so that a
/// binary or huge line cannot garble the message.
inline std::string quoted(std::string_view text) {
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
inline std::string_view withoutPlusSign(std::string_view token) {
  if (token.size() > 1 && token[0] == '+' && token[1] != '+' && token[1] != '-') {
    token.remove_prefix(1);
  }
  return token;
}

inline NumberStatus parseInt64(std::string_view token, std::int64_t& value) {
  // The common case, a short run of decimal digits, without from_chars' generality: up to 18
  // digits cannot overflow int64, so the result is the one from_chars gives.
  constexpr std::size_t kSafeDigits = 18;
  if (!token.empty() && token.size() <= kSafeDigits) {
    std::int64_t v = 0;
    std::size_t k = 0;
    for (; k < token.size(); ++k) {
      const unsigned digit = static_cast<unsigned char>(token[k]) - '0';
      if (digit > 9) break;
      v = v * 10 + digit;
    }
    if (k == token.size()) {
      value = v;
      return NumberStatus::Ok;
    }
  }
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
inline bool overflowsRatherThanUnderflows(std::string_view token) {
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
/// Values beyond double's range round to +-inf or +-0 as strtod would. std::from_chars rounds
/// correctly (to nearest), so every decimal gives the same double on every platform.
inline NumberStatus parseReal(std::string_view token, double& value) {
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

}  // namespace araios::io::detail
