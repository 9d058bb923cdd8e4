// Matrix Market writer. The text goes to a temporary file beside the target (AtomicFile), which
// is renamed over the target only once everything is written and synced: a reader (or a crash)
// never sees a half-written matrix, and a failed write leaves the old file untouched. Chunks of
// entries are formatted (and, for .gz, compressed) on several threads, each written at its
// place in the file, so the text is the same whatever the number of threads.
#include <araios/error.hpp>
#include <araios/io/atomic_file.hpp>
#include <araios/io/matrix_market.hpp>

#include <zlib.h>

#include <algorithm>
#include <charconv>
#include <climits>
#include <cmath>
#include <condition_variable>
#include <cstring>
#include <exception>
#include <mutex>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

namespace araios::io {
namespace {

/// A failure while writing; turned into an InputError naming the target by writeMatrixMarket.
struct WriteFailure {
  std::string reason;
};

bool endsWith(const std::string& text, std::string_view suffix) {
  return text.size() >= suffix.size() && text.compare(text.size() - suffix.size(), suffix.size(), suffix) == 0;
}

/// One gzip member holding `text`. A .gz file is written as a series of members, one per
/// chunk, so that chunks can be compressed on several threads; gzip readers (zlib's gzread,
/// gzip -d, Python's gzip) read a series of members as one text.
std::string gzipMember(std::string_view text) {
  z_stream stream{};
  // windowBits 15 + 16: a gzip header and trailer around the deflate data.
  constexpr int kGzipWindowBits = 15 + 16;
  constexpr int kMemLevel = 8;  // zlib's default
  // The default level, as gzopen's "wb" used before: files as small as they were.
  if (deflateInit2(&stream, Z_DEFAULT_COMPRESSION, Z_DEFLATED, kGzipWindowBits, kMemLevel, Z_DEFAULT_STRATEGY) != Z_OK) {
    throw WriteFailure{"deflateInit2 failed (out of memory?)"};
  }
  std::string out(deflateBound(&stream, static_cast<uLong>(text.size())), '\0');
  stream.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(text.data()));
  stream.avail_in = static_cast<uInt>(text.size());
  stream.next_out = reinterpret_cast<Bytef*>(out.data());
  stream.avail_out = static_cast<uInt>(out.size());
  const int status = deflate(&stream, Z_FINISH);
  const std::size_t produced = out.size() - stream.avail_out;
  deflateEnd(&stream);
  if (status != Z_STREAM_END) throw WriteFailure{"deflate failed (zlib error " + std::to_string(status) + ")"};
  out.resize(produced);
  return out;
}

/// The longest line: two int64 indices (20 characters each), a double in its shortest form
/// (at most 24), two spaces and a newline.
constexpr std::size_t kMaxLineBytes = 20 + 1 + 20 + 1 + 24 + 1;

/// Writes a value in the shortest form that reads back to the same double. NaN and the
/// infinities get the spellings the reader accepts (to_chars's "-nan" would keep a sign bit
/// that nothing else in Araios preserves).
char* putValue(char* out, double value) {
  if (std::isnan(value)) {
    std::memcpy(out, "nan", 3);
    return out + 3;
  }
  if (std::isinf(value)) {
    if (value > 0) {
      std::memcpy(out, "inf", 3);
      return out + 3;
    }
    std::memcpy(out, "-inf", 4);
    return out + 4;
  }
  return std::to_chars(out, out + 24, value).ptr;  // 24 characters hold any double's shortest form
}

char* putInteger(char* out, std::int64_t value) {
  return std::to_chars(out, out + 20, value).ptr;  // 20 characters hold any int64
}

/// Refuses a matrix whose arrays disagree or whose indices lie outside it: its file could not
/// be read back.
void checkWritable(const HostMatrix& matrix) {
  const std::size_t count = matrix.value.size();
  if (matrix.row.size() != count || matrix.col.size() != count) {
    throw WriteFailure{"the matrix has " + std::to_string(matrix.row.size()) + " row indices, " +
                       std::to_string(matrix.col.size()) + " column indices and " + std::to_string(count) +
                       " values; expected the same number of each"};
  }
  if (matrix.numRows < 0 || matrix.numCols < 0) {
    throw WriteFailure{"negative matrix size; expected non-negative numRows and numCols"};
  }
  for (std::size_t k = 0; k < count; ++k) {
    if (matrix.row[k] < 0 || matrix.row[k] >= matrix.numRows || matrix.col[k] < 0 || matrix.col[k] >= matrix.numCols) {
      throw WriteFailure{"entry " + std::to_string(k) + " at (" + std::to_string(matrix.row[k]) + ", " +
                         std::to_string(matrix.col[k]) + ") is outside the " + std::to_string(matrix.numRows) + " x " +
                         std::to_string(matrix.numCols) + " matrix; expected 0-based indices inside it"};
    }
  }
}

/// Entries per chunk: about 4 MB of text, enough that handing chunks between threads costs
/// nothing, few enough that the chunks in flight stay a few tens of MB.
constexpr std::size_t kEntriesPerChunk = std::size_t{1} << 17;
std::string headerText(const HostMatrix& matrix) {
  std::string text = "%%MatrixMarket matrix coordinate real general\n% written by Araios\n";
  char line[kMaxLineBytes];
  char* end = putInteger(line, matrix.numRows);
  *end++ = ' ';
  end = putInteger(end, matrix.numCols);
  *end++ = ' ';
  end = putInteger(end, matrix.nnz());
  *end++ = '\n';
  return text.append(line, end);
}

/// Entries [first, last) as text, 1-based.
std::string entriesText(const HostMatrix& matrix, std::size_t first, std::size_t last) {
  std::string text((last - first) * kMaxLineBytes, '\0');
  char* out = text.data();
  for (std::size_t k = first; k < last; ++k) {
    out = putInteger(out, matrix.row[k] + 1);
    *out++ = ' ';
    out = putInteger(out, matrix.col[k] + 1);
    *out++ = ' ';
    out = putValue(out, matrix.value[k]);
    *out++ = '\n';
  }
  text.resize(static_cast<std::size_t>(out - text.data()));
  return text;
}

/// Each thread takes the next chunk, formats (and compresses) it, waits until the chunks
/// before it are formatted, so that its place in the file is known, and writes it there. A
/// thread holds one chunk at a time, so at most `threads` chunks are in memory.
class ChunkWriter {
 public:
  ChunkWriter(AtomicFile& file, const HostMatrix& matrix, bool compress)
      : file_(file), matrix_(matrix), compress_(compress),
        chunks_((matrix.value.size() + kEntriesPerChunk - 1) / kEntriesPerChunk) {}

  void run(int threads) {
    std::vector<std::thread> helpers;
    const auto pieces = static_cast<int>(std::min<std::size_t>(chunks_ + 1, static_cast<std::size_t>(INT32_MAX)));
    for (int t = 1; t < std::min(threads, pieces); ++t) helpers.emplace_back([this] { work(); });
    work();
    for (std::thread& helper : helpers) helper.join();
    if (error_) std::rethrow_exception(error_);
  }

 private:
  /// Piece 0 is the header, piece i > 0 the entries of chunk i - 1.
  std::string bytesOf(std::size_t piece) const {
    std::string text;
    if (piece == 0) {
      text = headerText(matrix_);
    } else {
      const std::size_t first = (piece - 1) * kEntriesPerChunk;
      text = entriesText(matrix_, first, std::min(matrix_.value.size(), first + kEntriesPerChunk));
    }
    return compress_ ? gzipMember(text) : text;
  }

  void work() {
    for (;;) {
      std::size_t piece = 0;
      {
        std::lock_guard<std::mutex> lock(mutex_);
        if (failed_ || next_ > chunks_) return;
        piece = next_++;
      }
      try {
        const std::string bytes = bytesOf(piece);
        std::uint64_t offset = 0;
        {
          std::unique_lock<std::mutex> lock(mutex_);
          placed_.wait(lock, [&] { return failed_ || placedPieces_ == piece; });
          if (failed_) return;
          offset = end_;
          end_ += bytes.size();
          ++placedPieces_;
        }
        placed_.notify_all();
        // Several threads write their chunks at once: on a fast disk, copying the text into
        // the kernel takes as long as formatting it.
        file_.writeAt(bytes, offset);
      } catch (...) {
        std::lock_guard<std::mutex> lock(mutex_);
        failed_ = true;
        if (!error_) error_ = std::current_exception();
        placed_.notify_all();
        return;
      }
    }
  }

  AtomicFile& file_;
  const HostMatrix& matrix_;
  const bool compress_;
  const std::size_t chunks_;
  std::mutex mutex_;
  std::condition_variable placed_;
  std::size_t next_ = 0;          // the next piece to format
  std::size_t placedPieces_ = 0;  // pieces whose place in the file is known
  std::uint64_t end_ = 0;         // where the next piece to be placed starts
  bool failed_ = false;
  std::exception_ptr error_;
};

}  // namespace

void writeMatrixMarket(const std::string& path, const HostMatrix& matrix, const WriteOptions& options) {
  const int threads =
      options.threads > 0 ? options.threads : static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  try {
    checkWritable(matrix);
    AtomicFile file(path);
    ChunkWriter(file, matrix, endsWith(path, ".gz")).run(threads);
    file.commit();
  } catch (const WriteFailure& failure) {
    throw InputError("cannot write " + path + ": " + failure.reason);
  }
}

}  // namespace araios::io
