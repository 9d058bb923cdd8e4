#pragma once
// Private to the Matrix Market I/O: the text of a file (plain or gzip) or of a string, handed
// out in chunks of whole lines, so that a reader can parse chunks while the next ones are read
// or decompressed, and never holds more of the text than a few chunks.
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

namespace araios::io::detail {

/// Text per chunk when the caller does not choose: large enough that the per-chunk work (a
/// hand-over between threads, a few allocations) is lost in the parsing, small enough that a
/// window of a few chunks per thread stays a few tens of MB.
constexpr std::size_t kDefaultChunkBytes = std::size_t{4} << 20;

/// A piece of text made of whole lines: every line ending it holds is complete, and it ends
/// with a line ending unless it is the end of the text. A CRLF is never split.
/// Kept as offsets rather than a view into `storage`, so that moving a chunk (whose short
/// string may live inside the object) cannot leave a dangling view.
struct TextChunk {
  std::string storage;             ///< owns the text when it was read from a file
  const char* external = nullptr;  ///< or: the caller's string, which holds the text
  std::size_t begin = 0;
  std::size_t size = 0;

  std::string_view text() const { return {(external ? external : storage.data()) + begin, size}; }
};

class ChunkSource {
 public:
  /// Opens `path`. Content that starts with the gzip magic bytes is decompressed (on a thread
  /// of its own, a few blocks ahead of the caller), whatever the file is called. Throws
  /// araios::InputError naming the file when it cannot be opened.
  static std::unique_ptr<ChunkSource> openFile(const std::string& path, std::size_t chunkBytes);
  /// The bytes [begin, end) of the plain (uncompressed) file `path`, where `begin` is the start
  /// of a line: one process's share of a file that several read at once. Throws like openFile.
  static std::unique_ptr<ChunkSource> openFileRange(const std::string& path, std::uint64_t begin, std::uint64_t end,
                                                    std::size_t chunkBytes);
  /// Chunks that point into `text`, which must outlive the source.
  static std::unique_ptr<ChunkSource> fromMemory(std::string_view text, std::size_t chunkBytes);

  virtual ~ChunkSource() = default;

  /// The next chunk (about chunkBytes, more when one line is longer); false at the end of the
  /// text. Throws araios::InputError when the file cannot be read or decompressed.
  virtual bool next(TextChunk& chunk) = 0;
  /// An upper bound of the text's size in bytes (for a gzip file, what its compressed size can
  /// hold), to cap what a size line may make the reader reserve.
  virtual std::uint64_t textBytesBound() const = 0;
  /// True when textBytesBound() is the text's size itself (plain files and text in memory), so
  /// that the reader may project the entry count from the share of the text read so far.
  virtual bool textBytesBoundIsExact() const = 0;
  /// Reads and discards the rest of the text. Throws like next() on a read or decompression
  /// failure, which a reader calls before reporting a parse error, so that a damaged file is
  /// reported as damaged wherever the damage lies.
  virtual void drain() = 0;
};

/// Returns the whole content of `path`, decompressed when it is gzip (by content, as above).
/// Throws araios::InputError naming the file when it cannot be opened, read or decompressed.
std::string readTextFile(const std::string& path);

/// The length of the longest prefix of `text` that ends at a line boundary, where the text
/// can be cut without splitting a line or a CRLF; 0 when there is none. A CR as the last byte
/// is a boundary only when `atEnd` (otherwise an LF may follow in the next piece).
std::size_t wholeLinesPrefix(std::string_view text, bool atEnd);

}  // namespace araios::io::detail
