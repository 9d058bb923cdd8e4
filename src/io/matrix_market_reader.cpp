// Matrix Market reader. The banner and size line are read first; the data lines are then cut
// into chunks of whole lines (text_source.cpp), parsed on several threads with std::from_chars
// (matrix_market_chunk.cpp), and put together in file order (matrix_market_assembly.cpp), so
// that the result and every message are those of a sequential read, whatever the threads.
#include <araios/error.hpp>
#include <araios/io/matrix_market.hpp>

#include "matrix_market_assembly.hpp"
#include "matrix_market_chunk.hpp"
#include "matrix_market_header.hpp"
#include "text_source.hpp"

#include <cstdint>
#include <memory>
#include <string>
#include <utility>

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

using detail::ChunkSource;
using detail::ParsedChunk;
using detail::TextChunk;

/// Takes the parsed chunks in file order (detail::parseChunksInOrder) and puts them together:
/// line numbers, entry counts and errors are decided in that order.
class DataReader {
 public:
  DataReader(ChunkSource& source, const detail::HeaderInfo& info, const std::string& name, const ReadOptions& options)
      : source_(source),
        info_(info),
        name_(name),
        options_(options),
        assembler_(info.header, source.textBytesBound(), source.textBytesBoundIsExact()),
        linesBefore_(info.sizeLineNumber) {}

  HostMatrix read(TextChunk firstData) {
    detail::parseChunksInOrder(source_, std::move(firstData), info_.header, options_,
                               [this](const TextChunk& chunk, ParsedChunk& parsed) {
                                 commit(chunk, parsed);
                                 return true;
                               });
    if (found_ < info_.header.storedEntries) detail::refuseTruncation(info_, name_, linesBefore_, found_);
    HostMatrix matrix = assembler_.finish(detail::parserThreads(options_));
    matrix.droppedEntries = dropped_;
    return matrix;
  }

 private:
  /// Puts one chunk in place: the checks that need the lines and entries before it, then its
  /// entries. Throws ParseError with the file's line numbers.
  void commit(const TextChunk& chunk, ParsedChunk& parsed) {
    detail::checkDataRun(parsed, found_, linesBefore_, info_, name_,
                         [&](std::int64_t k) { return detail::lineOfDataLine(chunk.text(), k); });
    found_ += parsed.dataLines;
    dropped_ += parsed.dropped;
    linesBefore_ += parsed.lines;
    assembler_.append(parsed, chunk.size);
  }

  ChunkSource& source_;
  const detail::HeaderInfo& info_;
  const std::string& name_;
  const ReadOptions& options_;
  detail::EntryAssembler assembler_;
  std::int64_t linesBefore_;  // lines of the file before the next chunk to commit
  std::int64_t found_ = 0;    // data lines before it
  std::int64_t dropped_ = 0;
};

/// Reads the header from the first chunks, then the data.
HostMatrix readFromSource(ChunkSource& source, const std::string& name, const ReadOptions& options) {
  TextChunk firstData;
  const detail::HeaderInfo info = detail::readHeader(source, name, firstData);
  return DataReader(source, info, name, options).read(std::move(firstData));
}

HostMatrix readReportingDamageFirst(ChunkSource& source, const std::string& name, const ReadOptions& options) {
  try {
    return readFromSource(source, name, options);
  } catch (const ParseError&) {
    // A damaged file is reported as damaged, even when the text before the damage already
    // failed to parse: drain() throws the read or decompression error, if there is one.
    source.drain();
    throw;
  }
}

std::size_t chunkBytesOf(const ReadOptions& options) {
  return options.chunkBytes > 0 ? options.chunkBytes : detail::kDefaultChunkBytes;
}

}  // namespace

HostMatrix parseMatrixMarket(const std::string& text, const std::string& name, const ReadOptions& options) {
  const std::unique_ptr<ChunkSource> source = ChunkSource::fromMemory(text, chunkBytesOf(options));
  return readReportingDamageFirst(*source, name, options);
}

HostMatrix readMatrixMarket(const std::string& path, const ReadOptions& options) {
  const std::unique_ptr<ChunkSource> source = ChunkSource::openFile(path, chunkBytesOf(options));
  return readReportingDamageFirst(*source, path, options);
}

}  // namespace araios::io
