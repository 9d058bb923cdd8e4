#pragma once
// Private to the Matrix Market reader: parses one chunk of data lines (whole lines, cut from
// the text after the size line) on its own, so that chunks can be parsed on several threads
// and put together in file order afterwards (matrix_market_reader.cpp).
#include <araios/io/matrix_market.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace araios::io::detail {

/// The first problem in a chunk. Its line is counted from the chunk's first line (1), since
/// the chunk does not know how many lines come before it; the caller adds them.
struct ChunkFailure {
  std::int64_t line = 0;
  std::string problem;
  std::string expected;
};

struct ParsedChunk {
  std::int64_t lines = 0;      ///< lines in the chunk, counted as LineReader counts them
  std::int64_t dataLines = 0;  ///< data lines read without error (dropped entries included)
  std::int64_t dropped = 0;    ///< entries skipped by ReadOptions::dropInvalid
  /// Coordinate files: 0-based entries in file order, each mirror right after its entry.
  /// Array files: `value` only, one per data line.
  std::vector<std::int64_t> row;
  std::vector<std::int64_t> col;
  std::vector<double> value;
  /// True when the entries are in (row, column) order (equal positions allowed).
  bool sorted = true;
  /// Set when a line could not be read; parsing stopped there.
  std::optional<ChunkFailure> failure;
};

/// Parses every line of `text` (blank lines and comments included) as a data line of a file
/// with `header`. A problem does not throw: it ends the chunk with `failure` set.
void parseChunk(std::string_view text, const MatrixMarketHeader& header, const ReadOptions& options,
                ParsedChunk& out);

/// The line, counted from the chunk's first line (1), of the chunk's `k`-th data line (1-based).
/// Used only to place the error of an entry beyond the size line's count.
std::int64_t lineOfDataLine(std::string_view text, std::int64_t k);

}  // namespace araios::io::detail
