// Matrix Market writer. The text goes to a temporary file beside the target, which is renamed
// over the target only once everything is written and synced: a reader (or a crash) never
// sees a half-written matrix, and a failed write leaves the old file untouched.
#include <araios/error.hpp>
#include <araios/io/matrix_market.hpp>

#include <zlib.h>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <random>
#include <string>
#include <string_view>

namespace araios::io {
namespace {

/// A failure while writing; turned into an InputError naming the target by writeMatrixMarket.
struct WriteFailure {
  std::string reason;
};

std::string systemError(const std::string& what) { return what + ": " + std::strerror(errno); }

bool endsWith(const std::string& text, std::string_view suffix) {
  return text.size() >= suffix.size() && text.compare(text.size() - suffix.size(), suffix.size(), suffix) == 0;
}

/// A new file `<target>.tmp-XXXXXX`, removed again unless commit() renamed it onto the target.
/// It is created with open(O_EXCL) and mode 0666 rather than mkstemp, so that the umask applies
/// and the final file gets the permissions of any newly created file (mkstemp forces 0600).
class TemporaryFile {
 public:
  explicit TemporaryFile(const std::string& target) : target_(target) {
    std::random_device seed;
    std::mt19937_64 random(seed());
    const char* alphabet = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
    for (int attempt = 0; attempt < 100; ++attempt) {
      path_ = target + ".tmp-";
      for (int k = 0; k < 6; ++k) path_ += alphabet[random() % 62];
      fd_ = ::open(path_.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
      if (fd_ >= 0 || errno != EEXIST) break;
    }
    if (fd_ < 0) throw WriteFailure{systemError("cannot create the temporary file " + path_)};
  }
  TemporaryFile(const TemporaryFile&) = delete;
  TemporaryFile& operator=(const TemporaryFile&) = delete;

  ~TemporaryFile() {
    if (fd_ >= 0) ::close(fd_);
    if (!committed_) ::unlink(path_.c_str());
  }

  int fd() const { return fd_; }
  const std::string& path() const { return path_; }

  /// Flushes the data to disk, closes the file and renames it onto the target.
  void commit() {
    if (::fsync(fd_) != 0) throw WriteFailure{systemError("fsync of " + path_ + " failed")};
    const int fd = fd_;
    fd_ = -1;
    if (::close(fd) != 0) throw WriteFailure{systemError("closing " + path_ + " failed")};
    if (std::rename(path_.c_str(), target_.c_str()) != 0) {
      throw WriteFailure{systemError("cannot rename " + path_ + " to " + target_)};
    }
    committed_ = true;
  }

 private:
  std::string target_;
  std::string path_;
  int fd_ = -1;
  bool committed_ = false;
};

/// Where the text goes: the temporary file directly, or through gzip.
class Output {
 public:
  Output(TemporaryFile& file, bool compress) : file_(file) {
    if (!compress) return;
    // gzclose closes the descriptor it was given; a duplicate keeps ours open for fsync.
    const int duplicate = ::dup(file.fd());
    if (duplicate < 0) throw WriteFailure{systemError("dup failed")};
    gz_ = gzdopen(duplicate, "wb");
    if (!gz_) {
      ::close(duplicate);
      throw WriteFailure{"gzdopen failed (out of memory?)"};
    }
  }
  Output(const Output&) = delete;
  Output& operator=(const Output&) = delete;
  ~Output() {
    if (gz_) gzclose_w(gz_);  // only after a failure: finish() clears gz_
  }

  void write(std::string_view data) {
    if (gz_) {
      writeCompressed(data);
    } else {
      writePlain(data);
    }
  }

  /// Ends the gzip stream (a no-op for plain text); the caller then commits the file.
  void finish() {
    if (!gz_) return;
    gzFile gz = gz_;
    gz_ = nullptr;
    const int status = gzclose_w(gz);
    if (status == Z_ERRNO) throw WriteFailure{systemError("gzclose of " + file_.path() + " failed")};
    if (status != Z_OK) throw WriteFailure{"gzclose of " + file_.path() + " failed (zlib error " + std::to_string(status) + ")"};
  }

 private:
  void writePlain(std::string_view data) {
    while (!data.empty()) {
      const ssize_t written = ::write(file_.fd(), data.data(), data.size());
      if (written < 0 && errno == EINTR) continue;
      if (written <= 0) throw WriteFailure{systemError("writing " + file_.path() + " failed")};
      data.remove_prefix(static_cast<std::size_t>(written));
    }
  }

  void writeCompressed(std::string_view data) {
    // gzwrite takes an unsigned count; the chunks written here are far below its limit.
    const int written = gzwrite(gz_, data.data(), static_cast<unsigned>(data.size()));
    if (written != static_cast<int>(data.size())) {
      int code = Z_OK;
      const char* message = gzerror(gz_, &code);
      const std::string why = code == Z_ERRNO ? std::strerror(errno) : (message ? message : "unknown zlib error");
      throw WriteFailure{"writing " + file_.path() + " failed: " + why};
    }
  }

  TemporaryFile& file_;
  gzFile gz_ = nullptr;
};

/// Appends a value in the shortest form that reads back to the same double. NaN and the
/// infinities get the spellings the reader accepts (to_chars's "-nan" would keep a sign bit
/// that nothing else in Araios preserves).
void appendValue(std::string& out, double value) {
  if (std::isnan(value)) {
    out += "nan";
    return;
  }
  if (std::isinf(value)) {
    out += value > 0 ? "inf" : "-inf";
    return;
  }
  char buffer[32];
  const auto [end, error] = std::to_chars(buffer, buffer + sizeof buffer, value);
  (void)error;  // 32 characters hold any double's shortest form (at most 24)
  out.append(buffer, end);
}

void appendInteger(std::string& out, std::int64_t value) {
  char buffer[24];
  const auto [end, error] = std::to_chars(buffer, buffer + sizeof buffer, value);
  (void)error;  // 24 characters hold any int64
  out.append(buffer, end);
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

void writeText(Output& output, const HostMatrix& matrix) {
  constexpr std::size_t kFlushBytes = 1 << 20;
  std::string text = "%%MatrixMarket matrix coordinate real general\n% written by Araios\n";
  appendInteger(text, matrix.numRows);
  text += ' ';
  appendInteger(text, matrix.numCols);
  text += ' ';
  appendInteger(text, matrix.nnz());
  text += '\n';
  for (std::size_t k = 0; k < matrix.value.size(); ++k) {
    appendInteger(text, matrix.row[k] + 1);
    text += ' ';
    appendInteger(text, matrix.col[k] + 1);
    text += ' ';
    appendValue(text, matrix.value[k]);
    text += '\n';
    if (text.size() >= kFlushBytes) {
      output.write(text);
      text.clear();
    }
  }
  output.write(text);
}

}  // namespace

void writeMatrixMarket(const std::string& path, const HostMatrix& matrix) {
  try {
    checkWritable(matrix);
    TemporaryFile file(path);
    {
      Output output(file, endsWith(path, ".gz"));
      writeText(output, matrix);
      output.finish();
    }
    file.commit();
  } catch (const WriteFailure& failure) {
    throw InputError("cannot write " + path + ": " + failure.reason);
  }
}

}  // namespace araios::io
