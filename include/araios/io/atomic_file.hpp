#pragma once
// Output files that appear whole or not at all. Every file Araios and its tools write (the
// Matrix Market writer, `araios repro --save`, the benchmarks' result files) goes through
// AtomicFile, so that a reader, a crash or a killed process never leaves part of a file under
// its final name.
#include <cstdint>
#include <string>
#include <string_view>

namespace araios::io {

/// A file written under a temporary name, `PATH.tmp-XXXXXX` in the same folder (a rename is
/// atomic only within one file system), and renamed onto PATH by commit() once it is complete
/// and synced. Until then PATH is untouched: it does not exist, or it keeps its old content.
/// Destroying the object without commit() (an exception, an early return) removes the
/// temporary file; only a process killed outright can leave one behind, never under PATH.
/// Every failure throws araios::InputError "cannot write PATH: what failed".
class AtomicFile {
 public:
  /// Creates the temporary file. The final file gets the permissions of any new file (0666
  /// less the umask), not those of an older file it replaces.
  explicit AtomicFile(std::string path);
  ~AtomicFile();
  AtomicFile(const AtomicFile&) = delete;
  AtomicFile& operator=(const AtomicFile&) = delete;

  /// Appends `data` after what write() wrote before.
  void write(std::string_view data);
  /// Writes `data` at byte `offset`, for writers that place pieces themselves: several threads
  /// may call it at once on ranges that do not overlap. Not to be mixed with write().
  void writeAt(std::string_view data, std::uint64_t offset);
  /// Flushes the data to disk, closes the file and renames it onto the final path. Nothing may
  /// be written afterwards; the object then only remembers the paths.
  void commit();

  const std::string& path() const { return path_; }
  const std::string& temporaryPath() const { return temporaryPath_; }
  bool committed() const { return committed_; }

 private:
  [[noreturn]] void fail(const std::string& what) const;

  std::string path_;
  std::string temporaryPath_;
  int fd_ = -1;
  bool committed_ = false;
};

/// Writes `text` to `path` through an AtomicFile: all of it, or nothing under `path`.
void writeFileAtomically(const std::string& path, std::string_view text);

}  // namespace araios::io
