// AtomicFile (araios/io/atomic_file.hpp), through which every file Araios and its tools write
// goes: the final name holds the old file or the whole new one, never part of one, even when
// the writing process is killed midway.
#define BOOST_TEST_MODULE atomic_file
#include <boost/test/unit_test.hpp>

#include <araios/error.hpp>
#include <araios/io/atomic_file.hpp>
#include <araios/io/matrix_market.hpp>

#include "support/temporary_directory.hpp"

#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <functional>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

namespace {

namespace fs = std::filesystem;
using araios::InputError;
using araios::io::AtomicFile;
using araios::io::HostMatrix;
using araios::test::fileNamesIn;
using araios::test::TemporaryDirectory;

std::string contentOf(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

/// Runs `action`, expecting an InputError whose message holds every one of `parts`.
void checkInputError(const std::function<void()>& action, const std::vector<std::string>& parts) {
  try {
    action();
    BOOST_ERROR("no error; expected an InputError");
  } catch (const InputError& error) {
    const std::string message = error.what();
    for (const std::string& part : parts) {
      BOOST_TEST(contains(message, part), "\"" << message << "\" lacks \"" << part << "\"");
    }
  }
}

/// The temporary files a writer left for `target` in its folder.
std::vector<fs::path> temporariesOf(const std::string& target) {
  std::vector<fs::path> found;
  const fs::path path(target);
  const std::string prefix = path.filename().string() + ".tmp-";
  for (const auto& entry : fs::directory_iterator(path.parent_path())) {
    if (entry.path().filename().string().rfind(prefix, 0) == 0) found.push_back(entry.path());
  }
  return found;
}

}  // namespace

BOOST_AUTO_TEST_CASE(the_file_appears_whole_when_committed) {
  TemporaryDirectory dir("araios_atomic_");
  const std::string path = dir.file("out.txt");
  AtomicFile file(path);
  BOOST_TEST(file.path() == path);
  BOOST_TEST(file.temporaryPath().rfind(path + ".tmp-", 0) == 0u);
  BOOST_TEST(file.temporaryPath().size() == path.size() + 5 + 6);
  file.write("first line\n");
  file.write(std::string(100000, 'x'));
  BOOST_TEST(!fs::exists(path));
  BOOST_TEST(fs::exists(file.temporaryPath()));
  file.commit();
  BOOST_TEST(file.committed());
  BOOST_TEST(contentOf(path) == "first line\n" + std::string(100000, 'x'));
  BOOST_TEST(fileNamesIn(dir.path()) == (std::set<std::string>{"out.txt"}));
}

BOOST_AUTO_TEST_CASE(an_uncommitted_file_is_removed_and_the_old_file_kept) {
  TemporaryDirectory dir("araios_atomic_");
  const std::string path = dir.file("out.json");
  araios::io::writeFileAtomically(path, "old\n");
  {
    AtomicFile file(path);
    file.write("new, but never committed");
  }
  BOOST_TEST(contentOf(path) == "old\n");
  try {
    AtomicFile file(path);
    file.write("new");
    throw std::runtime_error("a failure before the commit");
  } catch (const std::runtime_error&) {
  }
  BOOST_TEST(contentOf(path) == "old\n");
  BOOST_TEST(fileNamesIn(dir.path()) == (std::set<std::string>{"out.json"}));
  araios::io::writeFileAtomically(path, "replaced\n");
  BOOST_TEST(contentOf(path) == "replaced\n");
  BOOST_TEST(fileNamesIn(dir.path()) == (std::set<std::string>{"out.json"}));
}

BOOST_AUTO_TEST_CASE(pieces_written_at_their_offsets_by_several_threads) {
  TemporaryDirectory dir("araios_atomic_");
  const std::string path = dir.file("pieces.bin");
  constexpr int kPieces = 8;
  constexpr std::size_t kPieceBytes = 50000;
  AtomicFile file(path);
  std::vector<std::thread> threads;
  // Written back to front, so that the offsets, not the order, place them.
  for (int k = kPieces - 1; k >= 0; --k) {
    threads.emplace_back([&file, k] {
      file.writeAt(std::string(kPieceBytes, static_cast<char>('a' + k)), static_cast<std::uint64_t>(k) * kPieceBytes);
    });
  }
  for (std::thread& t : threads) t.join();
  file.commit();
  std::string expected;
  for (int k = 0; k < kPieces; ++k) expected += std::string(kPieceBytes, static_cast<char>('a' + k));
  BOOST_TEST(contentOf(path) == expected);
}

BOOST_AUTO_TEST_CASE(the_new_file_gets_the_permissions_of_any_new_file) {
  TemporaryDirectory dir("araios_atomic_");
  const mode_t previous = ::umask(022);
  araios::io::writeFileAtomically(dir.file("mode.txt"), "x");
  ::umask(previous);
  struct stat status {};
  BOOST_TEST_REQUIRE(::stat(dir.file("mode.txt").c_str(), &status) == 0);
  BOOST_TEST((status.st_mode & 0777) == 0644u);
}

BOOST_AUTO_TEST_CASE(failures_name_the_file_and_leave_nothing_behind) {
  TemporaryDirectory dir("araios_atomic_");
  const std::string inMissingFolder = dir.file("missing/out.txt");
  checkInputError([&] { araios::io::writeFileAtomically(inMissingFolder, "x"); },
                  {"cannot write " + inMissingFolder + ": cannot create the temporary file " + inMissingFolder + ".tmp-",
                   "No such file or directory"});

  // The final name is a folder: everything is written, then the rename fails.
  const std::string folder = dir.file("folder");
  fs::create_directory(folder);
  checkInputError([&] { araios::io::writeFileAtomically(folder, "x"); },
                  {"cannot write " + folder + ": cannot rename " + folder + ".tmp-", " to " + folder + ": "});
  BOOST_TEST(fs::is_directory(folder));

  AtomicFile file(dir.file("done.txt"));
  file.commit();
  checkInputError([&] { file.write("late"); }, {"cannot write " + dir.file("done.txt") + ": the file is already closed"});
  checkInputError([&] { file.commit(); }, {"the file is already closed"});
  BOOST_TEST(fileNamesIn(dir.path()) == (std::set<std::string>{"done.txt", "folder"}));
}

// =============================================================================================
// Killed writers

namespace {

/// Forks a child that runs `write` and exits; returns its process id.
pid_t startWriter(const std::function<void()>& write) {
  const pid_t child = ::fork();
  BOOST_TEST_REQUIRE(child >= 0);
  if (child == 0) {
    // _exit: the child must not run the test framework's exit handlers.
    try {
      write();
    } catch (...) {
      ::_exit(1);
    }
    ::_exit(0);
  }
  return child;
}

/// Kills `child` with SIGKILL and checks that the signal, not a normal exit, ended it.
void killWriter(pid_t child) {
  BOOST_TEST_REQUIRE(::kill(child, SIGKILL) == 0);
  int status = 0;
  BOOST_TEST_REQUIRE(::waitpid(child, &status, 0) == child);
  BOOST_TEST((WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL), "the writer ended by itself before it was killed");
}

/// Waits until a temporary file of `target` holds at least `bytes`: the writer is then midway.
/// False if the child ended first or nothing came within a minute.
bool waitUntilMidway(pid_t child, const std::string& target, std::uintmax_t bytes) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::minutes(1);
  while (std::chrono::steady_clock::now() < deadline) {
    for (const fs::path& temporary : temporariesOf(target)) {
      std::error_code error;
      if (fs::file_size(temporary, error) >= bytes && !error) return true;
    }
    int status = 0;
    if (::waitpid(child, &status, WNOHANG) == child) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  return false;
}

/// About `entries` entries, ten per row, in row order.
HostMatrix largeMatrix(std::int64_t entries) {
  HostMatrix matrix;
  matrix.numRows = matrix.numCols = entries / 10;
  for (std::int64_t k = 0; k < entries; ++k) {
    matrix.row.push_back(k / 10);
    matrix.col.push_back((k * 7919) % matrix.numCols);
    matrix.value.push_back(1.0 / static_cast<double>(k + 3));
  }
  return matrix;
}

}  // namespace

BOOST_AUTO_TEST_CASE(a_killed_streaming_writer_leaves_the_old_file) {
  // A writer that appends as it goes (as araios-bench writes its rows), killed after its first
  // piece: the final name keeps the old content; the rows written stay in the temporary file.
  TemporaryDirectory dir("araios_atomic_");
  const std::string path = dir.file("rows.jsonl");
  araios::io::writeFileAtomically(path, "old rows\n");
  int ready[2];
  BOOST_TEST_REQUIRE(::pipe(ready) == 0);
  const pid_t child = startWriter([&] {
    AtomicFile file(path);
    file.write("{\"row\": 1}\n");
    const char byte = 1;
    if (::write(ready[1], &byte, 1) != 1) ::_exit(2);
    for (;;) ::pause();  // until killed
  });
  char byte = 0;
  BOOST_TEST_REQUIRE(::read(ready[0], &byte, 1) == 1);
  killWriter(child);
  ::close(ready[0]);
  ::close(ready[1]);
  BOOST_TEST(contentOf(path) == "old rows\n");
  const std::vector<fs::path> left = temporariesOf(path);
  BOOST_TEST_REQUIRE(left.size() == 1u);
  BOOST_TEST(contentOf(left[0].string()) == "{\"row\": 1}\n");
}

BOOST_AUTO_TEST_CASE(a_matrix_writer_killed_midway_leaves_no_partial_file) {
  // About 1e6 entries, gzip, one thread: seconds of work, killed once the first chunk of
  // entries is in the temporary file.
  const HostMatrix matrix = largeMatrix(1000000);
  araios::io::WriteOptions oneThread;
  oneThread.threads = 1;
  constexpr std::uintmax_t kMidway = 64 * 1024;
  TemporaryDirectory dir("araios_atomic_");
  for (const bool oldFile : {false, true}) {
    BOOST_TEST_CONTEXT((oldFile ? "replacing an older file" : "a new file")) {
      const std::string path = dir.file(oldFile ? "replaced.mtx.gz" : "new.mtx.gz");
      HostMatrix small;
      small.numRows = small.numCols = 1;
      small.row = {0};
      small.col = {0};
      small.value = {42};
      if (oldFile) araios::io::writeMatrixMarket(path, small);
      const pid_t child = startWriter([&] { araios::io::writeMatrixMarket(path, matrix, oneThread); });
      if (!waitUntilMidway(child, path, kMidway)) {
        ::kill(child, SIGKILL);
        ::waitpid(child, nullptr, 0);
        BOOST_FAIL("the writer finished, or wrote nothing within a minute, before it could be killed");
      }
      killWriter(child);
      if (oldFile) {
        const HostMatrix read = araios::io::readMatrixMarket(path);
        BOOST_TEST(read.value == small.value);
      } else {
        BOOST_TEST(!fs::exists(path));
      }
      BOOST_TEST(temporariesOf(path).size() == 1u);
    }
  }
}
