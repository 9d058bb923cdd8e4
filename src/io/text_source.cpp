// Matrix Market text in chunks of whole lines, from a plain file, a gzip file (decompressed on
// a thread of its own, so that decompression overlaps the parsing) or a string in memory.
#include "text_source.hpp"

#include <araios/error.hpp>

#include <zlib.h>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <condition_variable>
#include <cstring>
#include <deque>
#include <mutex>
#include <thread>

namespace araios::io::detail {
namespace {

/// Decompressed text per block handed from the decompression thread to the reader: large
/// enough that the hand-over costs nothing, small enough to keep the first chunk's wait short.
constexpr std::size_t kGzipBlockBytes = std::size_t{1} << 20;
/// The first block's size; each next one doubles up to kGzipBlockBytes. A small file (most
/// test and parser files) then costs a block of this size, not 2 MiB of zeroed memory.
constexpr std::size_t kGzipFirstBlockBytes = std::size_t{64} << 10;
/// Blocks the decompression thread may run ahead of the reader; with the reader's own window
/// of chunks, this bounds the text in memory.
constexpr std::size_t kGzipBlocksAhead = 8;
/// zlib's input buffer: a few hundred KB saves read calls without costing anything.
constexpr unsigned kGzipInputBuffer = 256 * 1024;
/// Deflate never compresses better than about 1032:1, so a gzip file of N bytes holds at most
/// 1032 N bytes of text.
constexpr std::uint64_t kMaxDeflateRatio = 1032;

[[noreturn]] void throwCannotOpen(const std::string& path, int errorNumber) {
  throw InputError("cannot open " + path + ": " + std::strerror(errorNumber));
}

[[noreturn]] void throwCannotRead(const std::string& path, int errorNumber) {
  throw InputError("cannot read " + path + ": " + std::strerror(errorNumber));
}

/// Bytes of a file, in order.
class ByteStream {
 public:
  virtual ~ByteStream() = default;
  /// Fills `to` with up to `count` bytes; returns how many, 0 only at the end.
  virtual std::size_t read(char* to, std::size_t count) = 0;
};

/// A file from where its descriptor stands, up to `limit` bytes (all of it by default).
class PlainFile : public ByteStream {
 public:
  PlainFile(int fd, const std::string& path, std::uint64_t limit = UINT64_MAX) : fd_(fd), path_(path), left_(limit) {
    // The text is read once, front to back: let the kernel read ahead.
    ::posix_fadvise(fd_, 0, 0, POSIX_FADV_SEQUENTIAL);
  }
  ~PlainFile() override { ::close(fd_); }

  std::size_t read(char* to, std::size_t count) override {
    count = static_cast<std::size_t>(std::min<std::uint64_t>(count, left_));
    if (count == 0) return 0;
    for (;;) {
      const ssize_t got = ::read(fd_, to, count);
      if (got >= 0) {
        left_ -= static_cast<std::uint64_t>(got);
        return static_cast<std::size_t>(got);
      }
      if (errno != EINTR) throwCannotRead(path_, errno);
    }
  }

 private:
  int fd_;
  std::string path_;
  std::uint64_t left_;
};

/// zlib's description of the stream's error state, or an empty string when there is none.
/// Z_BUF_ERROR after the last read means the compressed data ended early (a truncated file).
std::string gzipErrorOf(gzFile file, const std::string& path) {
  int code = Z_OK;
  const char* message = gzerror(file, &code);
  if (code == Z_OK || code == Z_STREAM_END) return {};
  if (code == Z_ERRNO) return std::strerror(errno);
  if (!message || !*message) return "zlib error " + std::to_string(code);
  // zlib starts its messages with "PATH: "; the caller names the file already.
  std::string text = message;
  const std::string prefix = path + ": ";
  if (text.compare(0, prefix.size(), prefix) == 0) text.erase(0, prefix.size());
  return text;
}

/// A gzip file decompressed by a thread of its own into a queue of blocks, a few blocks ahead
/// of the reader: decompression, the slowest step for a .gz file, then runs beside the parsing.
class GzipFile : public ByteStream {
 public:
  explicit GzipFile(const std::string& path) : path_(path) {
    file_ = gzopen(path.c_str(), "rb");
    // gzopen leaves errno set when opening failed, and 0 when zlib could not allocate memory.
    if (!file_) throwCannotOpen(path, errno ? errno : ENOMEM);
    if (gzbuffer(file_, kGzipInputBuffer) != 0) {
      gzclose_r(file_);
      throw InputError("cannot decompress " + path + ": gzbuffer failed");
    }
    thread_ = std::thread([this] { decompress(); });
  }
  ~GzipFile() override {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      stop_ = true;
    }
    changed_.notify_all();
    thread_.join();
    if (file_) gzclose_r(file_);
  }

  std::size_t read(char* to, std::size_t count) override {
    std::size_t done = 0;
    while (done < count) {
      if (position_ == current_.size() && !nextBlock()) break;
      const std::size_t take = std::min(count - done, current_.size() - position_);
      std::memcpy(to + done, current_.data() + position_, take);
      position_ += take;
      done += take;
    }
    return done;
  }

 private:
  /// Waits for the next block; false at the end. Throws the decompression error, if any, once
  /// every block before it has been read.
  bool nextBlock() {
    std::unique_lock<std::mutex> lock(mutex_);
    changed_.wait(lock, [&] { return !blocks_.empty() || finished_; });
    if (blocks_.empty()) {
      if (!error_.empty()) throw InputError("cannot decompress " + path_ + ": " + error_);
      return false;
    }
    current_ = std::move(blocks_.front());
    blocks_.pop_front();
    position_ = 0;
    changed_.notify_all();
    return true;
  }

  void decompress() {
    std::size_t blockBytes = kGzipFirstBlockBytes;
    for (;;) {
      std::string block(blockBytes, '\0');
      blockBytes = std::min(2 * blockBytes, kGzipBlockBytes);
      const int got = gzread(file_, block.data(), static_cast<unsigned>(block.size()));
      std::string error;
      if (got <= 0) {
        // A truncated stream makes the last gzread return 0 with the error only in the state.
        error = gzipErrorOf(file_, path_);
        if (got < 0 && error.empty()) error = "gzread failed";
        if (error.empty()) error = closeFile();
      }
      std::unique_lock<std::mutex> lock(mutex_);
      changed_.wait(lock, [&] { return blocks_.size() < kGzipBlocksAhead || stop_; });
      if (stop_) return;
      if (got > 0) {
        block.resize(static_cast<std::size_t>(got));
        blocks_.push_back(std::move(block));
      } else {
        finished_ = true;
        error_ = error;
      }
      changed_.notify_all();
      if (finished_) return;
    }
  }

  /// Closes the file at its end; an error message, or an empty string when all is well.
  std::string closeFile() {
    const int closed = gzclose_r(file_);
    file_ = nullptr;
    if (closed == Z_OK) return {};
    return "gzclose failed (zlib error " + std::to_string(closed) + ")";
  }

  std::string path_;
  gzFile file_ = nullptr;
  std::thread thread_;
  std::mutex mutex_;
  std::condition_variable changed_;
  std::deque<std::string> blocks_;
  bool finished_ = false;
  bool stop_ = false;
  std::string error_;
  std::string current_;  // the block being read, owned by the reader's side
  std::size_t position_ = 0;
};

/// Chunks of whole lines from a byte stream.
class StreamChunks : public ChunkSource {
 public:
  StreamChunks(std::unique_ptr<ByteStream> stream, std::size_t chunkBytes, std::uint64_t bound, bool boundIsExact)
      : stream_(std::move(stream)), chunkBytes_(std::max<std::size_t>(chunkBytes, 1)), bound_(bound),
        boundIsExact_(boundIsExact) {}

  bool next(TextChunk& chunk) override {
    std::string buffer = std::move(carry_);
    carry_.clear();
    std::size_t target = std::max(chunkBytes_, buffer.size() + 1);
    for (;;) {
      std::size_t used = buffer.size();
      if (!atEnd_) {
        buffer.resize(target);
        while (used < buffer.size()) {
          const std::size_t got = stream_->read(buffer.data() + used, buffer.size() - used);
          if (got == 0) {
            atEnd_ = true;
            break;
          }
          used += got;
        }
        buffer.resize(used);
      }
      const std::size_t cut = atEnd_ ? buffer.size() : wholeLinesPrefix(buffer, false);
      if (cut > 0 || atEnd_) {
        carry_.assign(buffer, cut, std::string::npos);
        buffer.resize(cut);
        break;
      }
      target = 2 * buffer.size();  // a line longer than a chunk: read on until it ends
    }
    if (buffer.empty()) return false;
    chunk.storage = std::move(buffer);
    chunk.external = nullptr;
    chunk.begin = 0;
    chunk.size = chunk.storage.size();
    return true;
  }

  std::uint64_t textBytesBound() const override { return bound_; }
  bool textBytesBoundIsExact() const override { return boundIsExact_; }

  void drain() override {
    std::string sink(chunkBytes_, '\0');
    while (!atEnd_) {
      if (stream_->read(sink.data(), sink.size()) == 0) atEnd_ = true;
    }
    carry_.clear();
  }

 private:
  std::unique_ptr<ByteStream> stream_;
  std::size_t chunkBytes_;
  std::uint64_t bound_;
  bool boundIsExact_;
  std::string carry_;  // read past the last chunk's end: the start of a line
  bool atEnd_ = false;
};

class MemoryChunks : public ChunkSource {
 public:
  MemoryChunks(std::string_view text, std::size_t chunkBytes)
      : text_(text), chunkBytes_(std::max<std::size_t>(chunkBytes, 1)) {}

  bool next(TextChunk& chunk) override {
    const std::size_t left = text_.size() - position_;
    if (left == 0) return false;
    std::size_t length = std::min(chunkBytes_, left);
    std::size_t cut = 0;
    for (;;) {
      const bool atEnd = length == left;
      cut = wholeLinesPrefix(text_.substr(position_, length), atEnd);
      if (cut > 0) break;
      length = std::min(2 * length, left);
    }
    chunk.storage.clear();
    chunk.external = text_.data();
    chunk.begin = position_;
    chunk.size = cut;
    position_ += cut;
    return true;
  }

  std::uint64_t textBytesBound() const override { return text_.size(); }
  bool textBytesBoundIsExact() const override { return true; }
  void drain() override { position_ = text_.size(); }

 private:
  std::string_view text_;
  std::size_t chunkBytes_;
  std::size_t position_ = 0;
};

}  // namespace

std::size_t wholeLinesPrefix(std::string_view text, bool atEnd) {
  if (atEnd) return text.size();
  for (std::size_t i = text.size(); i-- > 0;) {
    if (text[i] == '\n') return i + 1;
    // A CR before the last byte is not followed by an LF (the loop would have stopped there).
    if (text[i] == '\r' && i + 1 < text.size()) return i + 1;
  }
  return 0;
}

std::unique_ptr<ChunkSource> ChunkSource::openFile(const std::string& path, std::size_t chunkBytes) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) throwCannotOpen(path, errno);
  struct stat status {};
  unsigned char magic[2] = {0, 0};
  ssize_t got = -1;
  if (::fstat(fd, &status) == 0) {
    do {
      got = ::pread(fd, magic, sizeof magic, 0);
    } while (got < 0 && errno == EINTR);
  }
  if (got < 0) {
    const int error = errno;
    ::close(fd);
    throwCannotRead(path, error);
  }
  const auto fileBytes = static_cast<std::uint64_t>(status.st_size);
  const bool gzip = got == 2 && magic[0] == 0x1f && magic[1] == 0x8b;
  if (!gzip) return std::make_unique<StreamChunks>(std::make_unique<PlainFile>(fd, path), chunkBytes, fileBytes, true);
  ::close(fd);
  return std::make_unique<StreamChunks>(std::make_unique<GzipFile>(path), chunkBytes, fileBytes * kMaxDeflateRatio,
                                        false);
}

std::unique_ptr<ChunkSource> ChunkSource::openFileRange(const std::string& path, std::uint64_t begin,
                                                        std::uint64_t end, std::size_t chunkBytes) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) throwCannotOpen(path, errno);
  if (::lseek(fd, static_cast<off_t>(begin), SEEK_SET) < 0) {
    const int error = errno;
    ::close(fd);
    throwCannotRead(path, error);
  }
  const std::uint64_t bytes = end > begin ? end - begin : 0;
  return std::make_unique<StreamChunks>(std::make_unique<PlainFile>(fd, path, bytes), chunkBytes, bytes, true);
}

std::unique_ptr<ChunkSource> ChunkSource::fromMemory(std::string_view text, std::size_t chunkBytes) {
  return std::make_unique<MemoryChunks>(text, chunkBytes);
}

std::string readTextFile(const std::string& path) {
  const std::unique_ptr<ChunkSource> source = ChunkSource::openFile(path, kDefaultChunkBytes);
  std::string text;
  TextChunk chunk;
  while (source->next(chunk)) text.append(chunk.text());
  return text;
}

}  // namespace araios::io::detail
