#pragma once
// Private to the Matrix Market readers: parses one chunk of data lines (whole lines, cut from
// the text after the size line) on its own, so that chunks can be parsed on several threads
// and put together in file order afterwards (matrix_market_reader.cpp; the distributed reader,
// src/distributed/, does the same with each process's share of the file).
#include <araios/io/matrix_market.hpp>

#include "matrix_market_header.hpp"
#include "text_source.hpp"

#include <cstdint>
#include <functional>
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

/// The line, counted from the source's first line (1), of its `k`-th data line; past the end,
/// the source's last line. Reads the source to that line.
std::int64_t lineOfDataLine(ChunkSource& source, std::int64_t k);

/// Threads that parse: ReadOptions::threads, or one per hardware thread when it is 0.
int parserThreads(const ReadOptions& options);

/// Takes each parsed chunk with its text, in file order, one at a time; returns false to stop
/// the reading there (the chunks after it are not handed over).
using ChunkCommit = std::function<bool(const TextChunk& chunk, ParsedChunk& parsed)>;

/// Reads the chunks of `source`, after `first` when there is one (the data lines that share the
/// header's last chunk), parses them on parserThreads(options) threads, the caller's among them,
/// and hands them to `commit` in file order. The text in memory is a few chunks per thread. The
/// first exception of the source, the parser or `commit` is rethrown once every thread has stopped.
void parseChunksInOrder(ChunkSource& source, std::optional<TextChunk> first, const MatrixMarketHeader& header,
                        const ReadOptions& options, const ChunkCommit& commit);

/// The checks a sequential read makes on reaching a run of data lines (a chunk, or a process's
/// share of the file) after `found` data lines and `linesBefore` lines of the file: throws the
/// ParseError it reports there, for the first data line past the size line's count or else for
/// the run's own failure. `lineOfDataLine(k)` gives the line, counted from the run's first (1),
/// of its k-th data line; it is called only to place the first of those errors.
void checkDataRun(const ParsedChunk& run, std::int64_t found, std::int64_t linesBefore, const HeaderInfo& info,
                  const std::string& name, const std::function<std::int64_t(std::int64_t)>& lineOfDataLine);

/// The error of a file that ends, at its line `lastLine`, after `found` of the data lines the
/// size line announces.
[[noreturn]] void refuseTruncation(const HeaderInfo& info, const std::string& name, std::int64_t lastLine,
                                   std::int64_t found);

}  // namespace araios::io::detail
