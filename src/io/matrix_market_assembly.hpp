#pragma once
// Private to the Matrix Market reader: collects the parsed chunks in file order and turns them
// into a HostMatrix sorted by (row, column) with duplicates summed in file order.
#include <araios/io/matrix_market.hpp>

#include "matrix_market_chunk.hpp"

#include <cstdint>
#include <vector>

namespace araios::io::detail {

class EntryAssembler {
 public:
  /// `textBytesBound` caps the entries reserved up front: every entry takes at least two bytes
  /// of text, so that a lying size line cannot exhaust memory.
  EntryAssembler(const MatrixMarketHeader& header, std::uint64_t textBytesBound);

  /// Takes the next chunk's entries, in file order (an array file's values get their positions
  /// here, from their place in the file). Empties the chunk's arrays.
  void append(ParsedChunk& chunk);

  /// The matrix: entries sorted by (row, column), those at the same position summed in file
  /// order into the first, exactly as a sequential read would, whatever `threads` sort them.
  HostMatrix finish(int threads);

 private:
  void appendCoordinate(ParsedChunk& chunk);
  void appendArray(const ParsedChunk& chunk);
  void push(std::int64_t row, std::int64_t col, double value);

  MatrixMarketHeader header_;
  std::vector<std::int64_t> row_;
  std::vector<std::int64_t> col_;
  std::vector<double> value_;
  bool sorted_ = true;
  // The next array position.
  std::int64_t arrayRow_ = 0;
  std::int64_t arrayCol_ = 0;
};

}  // namespace araios::io::detail
