#pragma once
// Private to the Matrix Market reader: collects the parsed chunks in file order and turns them
// into a HostMatrix sorted by (row, column) with duplicates summed in file order.
#include <araios/io/matrix_market.hpp>

#include "matrix_market_chunk.hpp"

#include <cstdint>
#include <vector>

namespace araios::io::detail {

/// The entry arrays are reserved in steps as the entries arrive, never past what the size line
/// announces, and before any entry is read only a little: a size line may claim 10^12 entries
/// in a file that holds three. `textBytes` is the text's size (`textBytesExact`) or an upper
/// bound of it (a gzip file's); every entry takes at least two bytes of it.
class EntryAssembler {
 public:
  EntryAssembler(const MatrixMarketHeader& header, std::uint64_t textBytes, bool textBytesExact);

  /// Takes the next chunk's entries, in file order (an array file's values get their positions
  /// here, from their place in the file), and the size of its text. Empties the chunk's arrays.
  void append(ParsedChunk& chunk, std::size_t chunkTextBytes);

  /// The matrix: entries sorted by (row, column), those at the same position summed in file
  /// order into the first, exactly as a sequential read would, whatever `threads` sort them.
  HostMatrix finish(int threads);

 private:
  void appendCoordinate(ParsedChunk& chunk);
  void appendArray(const ParsedChunk& chunk);
  void push(std::int64_t row, std::int64_t col, double value);
  /// Makes room for `entries` entries in all, in a step bounded by what has been read.
  void reserveFor(std::uint64_t entries);

  MatrixMarketHeader header_;
  std::uint64_t maxEntries_;  // the most the file can hold, by its size line and its size
  std::uint64_t textBytes_;
  bool textBytesExact_;
  std::uint64_t textSeen_ = 0;  // text bytes of the chunks appended so far
  std::vector<std::int64_t> row_;
  std::vector<std::int64_t> col_;
  std::vector<double> value_;
  bool sorted_ = true;
  // The next array position.
  std::int64_t arrayRow_ = 0;
  std::int64_t arrayCol_ = 0;
};

}  // namespace araios::io::detail
