// Inputs on which the fuzzer (fuzz/) found the reader misbehaving, kept in io/fuzz_regressions/
// with the outcome each must have: the exact error, or the exact matrix. Each is read from its
// file and from memory at 1 and 3 threads in small chunks, as the fuzzer reads it; built with
// the sanitizers (the debug preset), this also catches the undefined behaviour that was fixed.
#define BOOST_TEST_MODULE fuzz_regressions
#include <boost/test/unit_test.hpp>

#include "test_paths.hpp"

#include <araios/error.hpp>
#include <araios/io/matrix_market.hpp>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace {

namespace fs = std::filesystem;
using araios::io::HostMatrix;
using araios::io::ReadOptions;

/// What reading a file must give: the ParseError at `line` whose message, after "FILE:LINE: ",
/// is `message`; or, when `line` is 0, a matrix with these 0-based entries.
struct Expected {
  std::int64_t line = 0;
  std::string message;
  std::int64_t rows = 0;
  std::int64_t cols = 0;
  std::vector<std::int64_t> row;
  std::vector<std::int64_t> col;
  std::vector<double> value;
};

Expected refusal(std::int64_t line, std::string message) {
  Expected expected;
  expected.line = line;
  expected.message = std::move(message);
  return expected;
}

const std::map<std::string, Expected>& cases() {
  static const std::map<std::string, Expected> table = {
      // A row index of 20 digits took the fast path for plain digits, which multiplied every
      // digit in before checking the count: signed overflow (UBSan, in the shared parser file
      // fmm/overflow_index_gt_int64.mtx.gz). It must be read by the general path and refused.
      {"index_past_int64_fast_path.mtx",
       refusal(3, "row index '19223372036854775808' does not fit in a 64-bit integer; expected an integer from 1 to 3")},
  };
  return table;
}

fs::path regressionsDir() { return fs::path(ARAIOS_TEST_SOURCE_DIR) / "io" / "fuzz_regressions"; }

std::string contentOf(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

void check(const std::function<HostMatrix()>& read, const std::string& name, const Expected& expected) {
  std::optional<HostMatrix> matrix;
  try {
    matrix = read();
  } catch (const araios::ParseError& error) {
    BOOST_TEST(expected.line != 0, "refused: " << error.what());
    if (expected.line == 0) return;
    BOOST_TEST(error.file() == name);
    BOOST_TEST(error.line() == expected.line);
    BOOST_TEST(std::string(error.what()) == name + ":" + std::to_string(expected.line) + ": " + expected.message);
    return;
  }
  BOOST_TEST_REQUIRE(expected.line == 0, "read without error; expected a ParseError at line " << expected.line);
  BOOST_TEST(matrix->numRows == expected.rows);
  BOOST_TEST(matrix->numCols == expected.cols);
  BOOST_TEST(matrix->row == expected.row);
  BOOST_TEST(matrix->col == expected.col);
  BOOST_TEST(matrix->value == expected.value);
}

}  // namespace

BOOST_AUTO_TEST_CASE(every_regression_file_has_a_case) {
  std::set<std::string> files;
  for (const auto& entry : fs::directory_iterator(regressionsDir())) files.insert(entry.path().filename().string());
  for (const std::string& file : files) BOOST_TEST(cases().count(file) == 1u, file << " has no case in cases()");
  for (const auto& [file, expected] : cases()) BOOST_TEST(files.count(file) == 1u, "case " << file << " has no file");
}

BOOST_AUTO_TEST_CASE(regression_files_read_as_expected) {
  for (const auto& [file, expected] : cases()) {
    BOOST_TEST_CONTEXT(file) {
      const std::string path = (regressionsDir() / file).string();
      check([&] { return araios::io::readMatrixMarket(path); }, path, expected);
      const std::string text = contentOf(path);
      const bool gzip = text.size() >= 2 && text[0] == '\x1f' && text[1] == '\x8b';
      if (gzip) continue;  // only a file is decompressed
      for (const int threads : {1, 3}) {
        ReadOptions options;
        options.threads = threads;
        options.chunkBytes = 7;
        BOOST_TEST_CONTEXT(threads << " threads, chunks of 7 bytes, in memory") {
          check([&] { return araios::io::parseMatrixMarket(text, "regression", options); }, "regression", expected);
        }
      }
    }
  }
}
