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

#include <algorithm>
#include <condition_variable>
#include <exception>
#include <map>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

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

/// Chunks a thread may have parsed ahead of the one that is put in place next. Two keep every
/// thread busy while one waits for a slow chunk; the text in memory is at most about
/// (kChunksAheadPerThread * threads + 1) chunks.
constexpr std::size_t kChunksAheadPerThread = 2;

int threadCount(const ReadOptions& options) {
  if (options.threads > 0) return options.threads;
  return static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
}

struct Job {
  TextChunk chunk;
  ParsedChunk parsed;
};

/// Parses the data lines after the header on `threads` threads (the caller's among them) and
/// puts the chunks in order: line numbers, entry counts and errors are decided in that order.
class DataReader {
 public:
  DataReader(ChunkSource& source, const detail::HeaderInfo& info, const std::string& name, const ReadOptions& options)
      : source_(source),
        info_(info),
        name_(name),
        options_(options),
        window_(kChunksAheadPerThread * static_cast<std::size_t>(threadCount(options)) + 1),
        assembler_(info.header, source.textBytesBound(), source.textBytesBoundIsExact()),
        linesBefore_(info.sizeLineNumber) {}

  HostMatrix read(TextChunk firstData) {
    pendingFirst_ = std::move(firstData);
    const int threads = threadCount(options_);
    std::vector<std::thread> helpers;
    helpers.reserve(static_cast<std::size_t>(threads - 1));
    for (int t = 1; t < threads; ++t) helpers.emplace_back([this] { work(); });
    work();
    for (std::thread& helper : helpers) helper.join();
    if (error_) std::rethrow_exception(error_);
    if (found_ < info_.header.storedEntries) refuseTruncation();
    HostMatrix matrix = assembler_.finish(threads);
    matrix.droppedEntries = dropped_;
    return matrix;
  }

 private:
  void work() {
    for (;;) {
      Job job;
      std::size_t index = 0;
      if (!takeChunk(job.chunk, index)) return;
      try {
        detail::parseChunk(job.chunk.text(), info_.header, options_, job.parsed);
        commitInOrder(index, std::move(job));
      } catch (...) {  // out of memory: nothing may escape a thread
        fail(std::current_exception());
        return;
      }
    }
  }

  /// The next chunk of text and its place in the file; false when there is none left or the
  /// read has failed. Waits while the thread would run too far ahead of the chunks in place.
  bool takeChunk(TextChunk& chunk, std::size_t& index) {
    std::lock_guard<std::mutex> reading(sourceMutex_);  // the text is read in order
    {
      std::unique_lock<std::mutex> lock(mutex_);
      progress_.wait(lock, [&] { return failed_ || handedOut_ < committed_ + window_; });
      if (failed_ || sourceDone_) return false;
      index = handedOut_;
    }
    bool got = false;
    try {
      if (pendingFirst_) {
        chunk = std::move(*pendingFirst_);
        pendingFirst_.reset();
        got = true;
      } else {
        got = source_.next(chunk);
      }
    } catch (...) {
      fail(std::current_exception());
      return false;
    }
    std::lock_guard<std::mutex> lock(mutex_);
    if (!got) {
      sourceDone_ = true;
      return false;
    }
    ++handedOut_;
    return true;
  }

  /// Files the parsed chunk; the thread that finds the next chunk in line puts it (and any
  /// that follow it, ready) in place. Only one thread does so at a time.
  void commitInOrder(std::size_t index, Job job) {
    std::unique_lock<std::mutex> lock(mutex_);
    ready_.emplace(index, std::move(job));
    if (committing_) return;
    committing_ = true;
    while (!failed_ && !ready_.empty() && ready_.begin()->first == committed_) {
      Job next = std::move(ready_.begin()->second);
      ready_.erase(ready_.begin());
      lock.unlock();
      try {
        commit(next);
      } catch (...) {
        lock.lock();
        failed_ = true;
        if (!error_) error_ = std::current_exception();
        break;
      }
      lock.lock();
      ++committed_;
      progress_.notify_all();
    }
    committing_ = false;
    progress_.notify_all();
  }

  void fail(std::exception_ptr error) {
    std::lock_guard<std::mutex> lock(mutex_);
    failed_ = true;
    if (!error_) error_ = error;
    progress_.notify_all();
  }

  /// Puts one chunk in place: the checks that need the lines and entries before it, then its
  /// entries. Throws ParseError with the file's line numbers.
  void commit(Job& job) {
    const ParsedChunk& parsed = job.parsed;
    const std::int64_t room = info_.header.storedEntries - found_;
    const std::int64_t reached = parsed.dataLines + (parsed.failure ? 1 : 0);
    // A sequential read refuses the first data line past the size line's count before looking
    // at what it holds: that refusal comes before any problem the line itself has.
    if (reached > room) {
      const std::int64_t k = room + 1;
      const std::int64_t line = (parsed.failure && k == reached) ? parsed.failure->line
                                                                  : detail::lineOfDataLine(job.chunk.text(), k);
      refuseExtraEntry(linesBefore_ + line);
    }
    if (parsed.failure) {
      throw ParseError(name_, linesBefore_ + parsed.failure->line, parsed.failure->problem, parsed.failure->expected);
    }
    found_ += parsed.dataLines;
    dropped_ += parsed.dropped;
    linesBefore_ += parsed.lines;
    assembler_.append(job.parsed, job.chunk.size);
  }

  const char* itemsName() const {
    return info_.header.format == MatrixMarketFormat::Coordinate ? "entries" : "values";
  }

  [[noreturn]] void refuseExtraEntry(std::int64_t line) const {
    const std::string count = std::to_string(info_.header.storedEntries);
    throw ParseError(name_, line,
                     std::string("more ") + itemsName() + " than the " + count + " that the size line (line " +
                         std::to_string(info_.sizeLineNumber) + ") announces",
                     count + " " + itemsName());
  }

  /// Reported at the file's last line, as a sequential read reaching the end would.
  [[noreturn]] void refuseTruncation() const {
    const std::string count = std::to_string(info_.header.storedEntries);
    throw ParseError(name_, linesBefore_,
                     "the file ends after " + std::to_string(found_) + " of " + count + " " + itemsName(),
                     count + " " + itemsName() + ", as the size line (line " + std::to_string(info_.sizeLineNumber) +
                         ") says");
  }

  ChunkSource& source_;
  const detail::HeaderInfo& info_;
  const std::string& name_;
  const ReadOptions& options_;
  const std::size_t window_;

  std::mutex sourceMutex_;
  std::optional<TextChunk> pendingFirst_;  // the data after the header, in the first chunk

  std::mutex mutex_;  // guards what follows, up to the commit state
  std::condition_variable progress_;
  std::size_t handedOut_ = 0;
  std::size_t committed_ = 0;
  bool sourceDone_ = false;
  bool failed_ = false;
  bool committing_ = false;
  std::exception_ptr error_;
  std::map<std::size_t, Job> ready_;

  // The commit state: touched only by the committing thread.
  detail::EntryAssembler assembler_;
  std::int64_t linesBefore_;  // lines of the file before the next chunk to commit
  std::int64_t found_ = 0;    // data lines before it
  std::int64_t dropped_ = 0;
};

/// Reads the header from the first chunks (as many as the comments before the size line take),
/// then the data.
HostMatrix readFromSource(ChunkSource& source, const std::string& name, const ReadOptions& options) {
  TextChunk head;
  bool complete = !source.next(head);
  detail::HeaderInfo info;
  while (!detail::parseHeader(head.text(), complete, name, info)) {
    TextChunk more;
    if (!source.next(more)) {
      complete = true;
      continue;
    }
    std::string joined(head.text());
    joined.append(more.text());
    head = TextChunk{std::move(joined), nullptr, 0, 0};
    head.size = head.storage.size();
  }
  // The data starts in the same chunk, after the size line.
  TextChunk firstData = std::move(head);
  firstData.begin += info.dataOffset;
  firstData.size -= info.dataOffset;
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
