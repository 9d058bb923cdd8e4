#pragma once
// Private to the Matrix Market reader: the banner and the size line, which must be read in
// order before the data lines can be split among threads.
#include <araios/io/matrix_market.hpp>

#include "text_source.hpp"

#include <cstdint>
#include <string>
#include <string_view>

namespace araios::io::detail {

struct HeaderInfo {
  MatrixMarketHeader header;
  /// Line number of the size line, which is also the number of lines the header takes.
  std::int64_t sizeLineNumber = 0;
  /// Where the line after the size line starts, counted from the start of the text.
  std::size_t dataOffset = 0;
};

/// Parses the banner and the size line at the start of `text`, which holds whole lines. When
/// the text ends before the size line, returns false if `complete` is false (the caller adds
/// more text and calls again) and throws ParseError if it is true. Every other problem throws
/// ParseError ("NAME:LINE: what is wrong; expected what").
bool parseHeader(std::string_view text, bool complete, const std::string& name, HeaderInfo& info);

/// Reads the banner and the size line from the first chunks of `source` (as many as the comments
/// before the size line take). `data` gets the rest of the last chunk read: the first data lines.
/// Throws ParseError as parseHeader does, the text being complete at the source's end.
HeaderInfo readHeader(ChunkSource& source, const std::string& name, TextChunk& data);

}  // namespace araios::io::detail
