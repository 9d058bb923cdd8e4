// A size line may announce far more entries (or a far larger array) than the file holds. The
// reader must not allocate for what is announced before it has read it: such a file is refused
// as truncated, promptly and with little memory. This executable replaces the global operator
// new to record the largest single allocation made while a file is read.
#define BOOST_TEST_MODULE reader_limits
#include <boost/test/unit_test.hpp>

#include <araios/error.hpp>
#include <araios/io/matrix_market.hpp>

#include "support/temporary_directory.hpp"

#include <zlib.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <new>
#include <string>

namespace {

std::atomic<std::size_t> largestAllocation{0};

void* allocate(std::size_t size) {
  std::size_t seen = largestAllocation.load(std::memory_order_relaxed);
  while (size > seen && !largestAllocation.compare_exchange_weak(seen, size, std::memory_order_relaxed)) {
  }
  return std::malloc(size == 0 ? 1 : size);
}

}  // namespace

// Every allocation of the process goes through these (the library's vectors and strings too).
void* operator new(std::size_t size) {
  if (void* p = allocate(size)) return p;
  throw std::bad_alloc();
}
void* operator new[](std::size_t size) {
  if (void* p = allocate(size)) return p;
  throw std::bad_alloc();
}
void* operator new(std::size_t size, const std::nothrow_t&) noexcept { return allocate(size); }
void* operator new[](std::size_t size, const std::nothrow_t&) noexcept { return allocate(size); }
void operator delete(void* p) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t) noexcept { std::free(p); }
void operator delete(void* p, const std::nothrow_t&) noexcept { std::free(p); }
void operator delete[](void* p, const std::nothrow_t&) noexcept { std::free(p); }

namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;
using araios::test::TemporaryDirectory;

/// The most one allocation may take while such a file is read: the reader's own buffers (text
/// chunks of 4 MiB, gzip blocks of 1 MiB) and the first reservation of entries (512 KiB per
/// array), with room to spare, and far below what the size lines below announce (terabytes).
constexpr std::size_t kMaxAllocationBytes = std::size_t{16} << 20;
/// "Promptly": reading these files takes milliseconds; the limit leaves room for a loaded
/// machine and a sanitizer build.
constexpr double kMaxSeconds = 5.0;

/// Bytes of comment lines that pad each file: with stored (uncompressed) gzip blocks, a
/// gzip file of this size may hold, as far as its size tells, 1032 times as much text, so a
/// reader that trusted the size line up to that bound would reserve gigabytes.
constexpr std::size_t kPaddingBytes = std::size_t{256} << 10;

std::string padding() {
  std::string text;
  const std::string line = "% " + std::string(97, '.') + "\n";
  while (text.size() < kPaddingBytes) text += line;
  return text;
}

/// `text` as a gzip file of stored blocks (zlib level 0): as large as the text itself.
void writeStoredGzip(const fs::path& path, const std::string& text) {
  gzFile file = gzopen(path.c_str(), "wb0");
  BOOST_TEST_REQUIRE(file != nullptr);
  BOOST_TEST_REQUIRE(gzwrite(file, text.data(), static_cast<unsigned>(text.size())) == static_cast<int>(text.size()));
  BOOST_TEST_REQUIRE(gzclose(file) == Z_OK);
}

void writePlain(const fs::path& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary);
  out << text;
  BOOST_TEST_REQUIRE(out.good());
}

/// Reads `path`, expecting the ParseError "PATH:LINE: <problem>", and checks the largest
/// allocation and the time taken.
void checkRefusedPromptly(const fs::path& path, std::int64_t line, const std::string& problem) {
  const std::string name = path.string();
  largestAllocation = 0;
  const auto start = Clock::now();
  try {
    araios::io::readMatrixMarket(name);
    BOOST_ERROR(name << " was read; expected a ParseError at line " << line);
  } catch (const araios::ParseError& error) {
    BOOST_TEST(error.file() == name);
    BOOST_TEST(error.line() == line);
    BOOST_TEST(std::string(error.what()).rfind(name + ":" + std::to_string(line) + ": " + problem, 0) == 0u,
               "message: " << error.what());
  }
  const double seconds = std::chrono::duration<double>(Clock::now() - start).count();
  const std::size_t largest = largestAllocation;
  BOOST_TEST(largest <= kMaxAllocationBytes, "largest allocation " << largest << " bytes");
  BOOST_TEST_MESSAGE(name << ": largest allocation " << largest << " bytes, " << seconds << " s");
  BOOST_TEST(seconds <= kMaxSeconds, "took " << seconds << " s");
}

std::int64_t linesOf(const std::string& text) {
  std::int64_t lines = 0;
  for (const char c : text) lines += c == '\n';
  return lines;
}

}  // namespace

BOOST_AUTO_TEST_CASE(a_trillion_announced_entries_are_not_reserved) {
  TemporaryDirectory dir("araios_limits_");
  const std::string text = "%%MatrixMarket matrix coordinate real symmetric\n"
                           "1000000 1000000 1000000000000\n"
                           "1 1 1.5\n2 1 -2\n3 2 4\n" +
                           padding();
  const std::string problem = "the file ends after 3 of 1000000000000 entries; expected 1000000000000 entries";
  writeStoredGzip(dir.file("trillion.mtx.gz"), text);
  checkRefusedPromptly(dir.file("trillion.mtx.gz"), linesOf(text), problem);
  writePlain(dir.file("trillion.mtx"), text);
  checkRefusedPromptly(dir.file("trillion.mtx"), linesOf(text), problem);
}

BOOST_AUTO_TEST_CASE(a_trillion_value_array_is_not_reserved) {
  TemporaryDirectory dir("araios_limits_");
  const std::string text = "%%MatrixMarket matrix array real general\n1000000 1000000\n1\n2\n3\n" + padding();
  writeStoredGzip(dir.file("array.mtx.gz"), text);
  checkRefusedPromptly(dir.file("array.mtx.gz"), linesOf(text),
                       "the file ends after 3 of 1000000000000 values; expected 1000000000000 values");
}

BOOST_AUTO_TEST_CASE(huge_dimensions_with_few_entries_read_in_little_memory) {
  // 2^62 rows, entries out of order: sorting them must not take an array per row.
  TemporaryDirectory dir("araios_limits_");
  const std::string text = "%%MatrixMarket matrix coordinate real general\n"
                           "4611686018427387904 4611686018427387904 3\n"
                           "4611686018427387904 1 3\n2 4611686018427387904 2\n1 1 1\n" +
                           padding();
  writeStoredGzip(dir.file("huge.mtx.gz"), text);
  largestAllocation = 0;
  const auto start = Clock::now();
  const araios::io::HostMatrix matrix = araios::io::readMatrixMarket(dir.file("huge.mtx.gz"));
  const double seconds = std::chrono::duration<double>(Clock::now() - start).count();
  BOOST_TEST(largestAllocation.load() <= kMaxAllocationBytes, "largest allocation " << largestAllocation.load());
  BOOST_TEST(seconds <= kMaxSeconds);
  BOOST_TEST(matrix.numRows == 4611686018427387904);
  BOOST_TEST(matrix.row == (std::vector<std::int64_t>{0, 1, 4611686018427387903}));
  BOOST_TEST(matrix.col == (std::vector<std::int64_t>{0, 4611686018427387903, 0}));
  BOOST_TEST(matrix.value == (std::vector<double>{1, 2, 3}));
}
