#pragma once
// Matrix Market texts of a few MB, generated from a seed, that exercise what a chunked,
// parallel reader could get wrong: entries out of order, duplicates far apart, comments and
// blank lines anywhere, LF and CRLF endings, blanks and tabs around tokens, signs, leading
// zeros, exponents, decimals with more digits than a double holds, values beyond double's
// range, nan and inf. Each entry's value is also kept as strtod reads its text, so that a test
// can build the expected matrix without the reader under test.
#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

namespace araios::test {

struct GeneratedEntry {
  std::int64_t row;  // 1-based, as written
  std::int64_t col;
  double value;      // strtod of the written text
};

struct GeneratedText {
  std::string text;
  std::int64_t rows = 0;
  std::vector<GeneratedEntry> entries;  // in file order, as written (one triangle if symmetric)
};

enum class GeneratedKind { General, Symmetric };

namespace detail {

inline std::string valueText(std::mt19937_64& random) {
  char buffer[64];
  const auto pick = random() % 16;
  std::uniform_real_distribution<double> unit(-1.0, 1.0);
  switch (pick) {
    case 0: return "nan";
    case 1: return random() % 2 ? "-inf" : "+Infinity";
    case 2: return "1e400";                        // overflows to inf
    case 3: return "-2.5e-400";                    // underflows to -0
    case 4: return "4.9406564584124654e-324";      // the smallest subnormal
    case 5: return "0.1000000000000000055511151231257827021181583404541015625";  // exactly 0.1's double
    case 6: return "+" + std::to_string(random() % 1000);
    case 7: return "-0";
    case 8: return std::to_string(static_cast<std::int64_t>(random() % 2000001) - 1000000);
    case 9: std::snprintf(buffer, sizeof buffer, "%.3E", unit(random) * 1e5); return buffer;
    case 10: std::snprintf(buffer, sizeof buffer, ".%06d", static_cast<int>(random() % 1000000)); return buffer;
    case 11: std::snprintf(buffer, sizeof buffer, "%.25g", unit(random)); return buffer;  // more digits than a double
    default: {
      const double mantissa = unit(random);
      const double scale = std::pow(10.0, static_cast<int>(random() % 40) - 20);
      const auto end = std::to_chars(buffer, buffer + sizeof buffer, mantissa * scale).ptr;
      return std::string(buffer, end);
    }
  }
}

inline std::string indexText(std::mt19937_64& random, std::int64_t index) {
  const auto pick = random() % 32;
  if (pick == 0) return "+" + std::to_string(index);
  if (pick == 1) return "00" + std::to_string(index);
  return std::to_string(index);
}

inline const char* blanks(std::mt19937_64& random) {
  static const char* const kBlanks[] = {" ", " ", " ", " ", "  ", "\t", " \t "};
  return kBlanks[random() % 7];
}

}  // namespace detail

/// About `lines` data lines over a rows x rows matrix (rows = lines / 20, so rows hold about 20
/// entries and duplicates are common). Symmetric texts hold entries of both triangles.
inline GeneratedText generatedText(GeneratedKind kind, std::uint64_t seed, std::int64_t lines) {
  std::mt19937_64 random(seed);
  GeneratedText out;
  out.rows = std::max<std::int64_t>(lines / 20, 1);
  const char* symmetry = kind == GeneratedKind::General ? "general" : "symmetric";
  out.text = std::string("%%MatrixMarket matrix coordinate real ") + symmetry + "\n% generated\n\n% size line next\n";
  out.text += std::to_string(out.rows) + " " + std::to_string(out.rows) + " " + std::to_string(lines) + "\r\n";
  for (std::int64_t k = 0; k < lines; ++k) {
    const auto extra = random() % 64;
    if (extra == 0) out.text += "% a comment between entries\n";
    if (extra == 1) out.text += "\n";
    if (extra == 2) out.text += " \t \r\n";
    GeneratedEntry entry{};
    if (!out.entries.empty() && random() % 10 == 0) {  // a duplicate of an earlier position
      const GeneratedEntry& earlier = out.entries[random() % out.entries.size()];
      entry.row = earlier.row;
      entry.col = earlier.col;
    } else {
      entry.row = static_cast<std::int64_t>(random() % static_cast<std::uint64_t>(out.rows)) + 1;
      entry.col = static_cast<std::int64_t>(random() % static_cast<std::uint64_t>(out.rows)) + 1;
    }
    const std::string value = detail::valueText(random);
    entry.value = std::strtod(value.c_str(), nullptr);
    if (random() % 8 == 0) out.text += detail::blanks(random);
    // One draw per statement: the order of the draws must not depend on the compiler.
    out.text += detail::indexText(random, entry.row);
    out.text += detail::blanks(random);
    out.text += detail::indexText(random, entry.col);
    out.text += detail::blanks(random);
    out.text += value;
    if (random() % 8 == 0) out.text += detail::blanks(random);
    out.text += random() % 5 == 0 ? "\r\n" : "\n";
    out.entries.push_back(entry);
  }
  return out;
}

}  // namespace araios::test
