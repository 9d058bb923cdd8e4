// AtomicFile: a temporary file beside the target, renamed onto it when complete.
#include <araios/io/atomic_file.hpp>

#include <araios/error.hpp>

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <random>
#include <utility>

namespace araios::io {
namespace {

/// Random names to try before giving up: a clash with an existing file is already unlikely
/// with 62^6 names, a hundred in a row means something else is wrong.
constexpr int kNameAttempts = 100;
constexpr int kRandomCharacters = 6;

std::string withErrno(const std::string& what, int errorNumber) { return what + ": " + std::strerror(errorNumber); }

/// The folder holding `path`, for syncing the rename: "." for a bare file name.
std::string folderOf(const std::string& path) {
  const std::size_t slash = path.find_last_of('/');
  if (slash == std::string::npos) return ".";
  if (slash == 0) return "/";
  return path.substr(0, slash);
}

}  // namespace

AtomicFile::AtomicFile(std::string path) : path_(std::move(path)) {
  std::random_device seed;
  std::mt19937_64 random(seed());
  const char* alphabet = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
  int errorNumber = 0;
  for (int attempt = 0; attempt < kNameAttempts; ++attempt) {
    temporaryPath_ = path_ + ".tmp-";
    for (int k = 0; k < kRandomCharacters; ++k) temporaryPath_ += alphabet[random() % 62];
    // open(O_EXCL) with 0666 rather than mkstemp, so that the umask applies: mkstemp forces 0600.
    fd_ = ::open(temporaryPath_.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    errorNumber = errno;
    if (fd_ >= 0 || errorNumber != EEXIST) break;
  }
  if (fd_ < 0) fail(withErrno("cannot create the temporary file " + temporaryPath_, errorNumber));
}

AtomicFile::~AtomicFile() {
  if (fd_ >= 0) ::close(fd_);
  if (!committed_) ::unlink(temporaryPath_.c_str());
}

void AtomicFile::fail(const std::string& what) const { throw InputError("cannot write " + path_ + ": " + what); }

void AtomicFile::write(std::string_view data) {
  if (fd_ < 0) fail("the file is already closed");
  while (!data.empty()) {
    const ssize_t written = ::write(fd_, data.data(), data.size());
    if (written < 0 && errno == EINTR) continue;
    if (written <= 0) fail(withErrno("writing " + temporaryPath_ + " failed", written < 0 ? errno : EIO));
    data.remove_prefix(static_cast<std::size_t>(written));
  }
}

void AtomicFile::writeAt(std::string_view data, std::uint64_t offset) {
  if (fd_ < 0) fail("the file is already closed");
  while (!data.empty()) {
    const ssize_t written = ::pwrite(fd_, data.data(), data.size(), static_cast<off_t>(offset));
    if (written < 0 && errno == EINTR) continue;
    if (written <= 0) fail(withErrno("writing " + temporaryPath_ + " failed", written < 0 ? errno : EIO));
    data.remove_prefix(static_cast<std::size_t>(written));
    offset += static_cast<std::uint64_t>(written);
  }
}

void AtomicFile::commit() {
  if (fd_ < 0) fail("the file is already closed");
  // Synced before the rename: otherwise a crash soon after could leave the new name pointing
  // at a file whose data never reached the disk.
  if (::fsync(fd_) != 0) fail(withErrno("fsync of " + temporaryPath_ + " failed", errno));
  const int fd = std::exchange(fd_, -1);
  if (::close(fd) != 0) fail(withErrno("closing " + temporaryPath_ + " failed", errno));
  if (std::rename(temporaryPath_.c_str(), path_.c_str()) != 0) {
    fail(withErrno("cannot rename " + temporaryPath_ + " to " + path_, errno));
  }
  committed_ = true;
  // Syncing the folder makes the rename itself survive a power loss. The file is complete and
  // in place already, so a folder that cannot be opened or synced is not a failed write.
  const int folder = ::open(folderOf(path_).c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (folder >= 0) {
    ::fsync(folder);
    ::close(folder);
  }
}

void writeFileAtomically(const std::string& path, std::string_view text) {
  AtomicFile file(path);
  file.write(text);
  file.commit();
}

}  // namespace araios::io
