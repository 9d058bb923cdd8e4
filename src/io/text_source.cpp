#include "text_source.hpp"

#include <araios/error.hpp>

#include <zlib.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>

namespace araios::io::detail {
namespace {

// Big enough that a 15 MB matrix takes a handful of calls, small enough to stay cheap for the
// tiny parser test files.
constexpr std::size_t kChunkBytes = 1 << 20;

struct FileCloser {
  void operator()(std::FILE* file) const { std::fclose(file); }
};
using FilePtr = std::unique_ptr<std::FILE, FileCloser>;

[[noreturn]] void throwCannotOpen(const std::string& path, int errorNumber) {
  throw InputError("cannot open " + path + ": " + std::strerror(errorNumber));
}

bool startsWithGzipMagic(const std::string& path) {
  FilePtr file(std::fopen(path.c_str(), "rb"));
  if (!file) throwCannotOpen(path, errno);
  unsigned char magic[2] = {0, 0};
  const std::size_t got = std::fread(magic, 1, sizeof magic, file.get());
  if (got < sizeof magic && std::ferror(file.get())) {
    throw InputError("cannot read " + path + ": " + std::strerror(errno));
  }
  return got == sizeof magic && magic[0] == 0x1f && magic[1] == 0x8b;
}

std::string readPlainFile(const std::string& path) {
  FilePtr file(std::fopen(path.c_str(), "rb"));
  if (!file) throwCannotOpen(path, errno);
  std::string text;
  std::size_t used = 0;
  for (;;) {
    text.resize(used + kChunkBytes);
    const std::size_t got = std::fread(text.data() + used, 1, kChunkBytes, file.get());
    used += got;
    if (got < kChunkBytes) break;
  }
  if (std::ferror(file.get())) throw InputError("cannot read " + path + ": " + std::strerror(errno));
  text.resize(used);
  return text;
}

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

std::string readGzipFile(const std::string& path) {
  gzFile file = gzopen(path.c_str(), "rb");
  // gzopen leaves errno set when opening failed, and 0 when zlib could not allocate memory.
  if (!file) throwCannotOpen(path, errno ? errno : ENOMEM);
  auto failure = [&](const std::string& why) {
    gzclose_r(file);
    return InputError("cannot decompress " + path + ": " + why);
  };
  if (gzbuffer(file, 256 * 1024) != 0) throw failure("gzbuffer failed");
  std::string text;
  std::size_t used = 0;
  for (;;) {
    text.resize(used + kChunkBytes);
    const int got = gzread(file, text.data() + used, static_cast<unsigned>(kChunkBytes));
    if (got < 0) throw failure(gzipErrorOf(file, path));
    used += static_cast<std::size_t>(got);
    if (got == 0) break;
  }
  // A truncated stream makes the last gzread return 0 with the error only recorded in the state.
  if (std::string why = gzipErrorOf(file, path); !why.empty()) throw failure(why);
  const int closed = gzclose_r(file);
  if (closed != Z_OK) {
    throw InputError("cannot decompress " + path + ": gzclose failed (zlib error " +
                     std::to_string(closed) + ")");
  }
  text.resize(used);
  return text;
}

}  // namespace

std::string readTextFile(const std::string& path) {
  return startsWithGzipMagic(path) ? readGzipFile(path) : readPlainFile(path);
}

}  // namespace araios::io::detail
