// Tests of the Matrix Market reader and writer: every parser test file in the shared matrix
// folder, every real matrix there, synthesized texts for each kind of error, and write/read
// round trips.
#define BOOST_TEST_MODULE matrix_market
// No BOOST_TEST_DYN_LINK here: when CMake picks the shared Boost.Test library, the imported
// target defines BOOST_UNIT_TEST_FRAMEWORK_DYN_LINK, which Boost.Test turns into it; defining
// it ourselves would break a build against the static library.
#include <boost/test/unit_test.hpp>

#include <araios/error.hpp>
#include <araios/io/matrix_market.hpp>

#include "src/io/text_source.hpp"
#include "support/matrices.hpp"
#include "support/temporary_directory.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <limits>
#include <map>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace fs = std::filesystem;
using araios::InputError;
using araios::ParseError;
using araios::io::HostMatrix;
using araios::io::MatrixMarketField;
using araios::io::MatrixMarketFormat;
using araios::io::MatrixMarketSymmetry;
using araios::io::ReadOptions;
using araios::io::parseMatrixMarket;
using araios::io::readMatrixMarket;
using araios::io::writeMatrixMarket;
using araios::test::fileNamesIn;
using araios::test::TemporaryDirectory;

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
const std::string kSynthetic = "synthetic.mtx";

// ---------------------------------------------------------------------------------------------
// Helpers

/// An expected entry, 1-based as written in the files.
struct Expected {
  std::int64_t row;
  std::int64_t col;
  double value;
};

std::uint64_t bitsOf(double value) {
  std::uint64_t bits;
  std::memcpy(&bits, &value, sizeof bits);
  return bits;
}

double doubleOf(std::uint64_t bits) {
  double value;
  std::memcpy(&value, &bits, sizeof value);
  return value;
}

/// Bit-exact equality, except that any NaN matches any NaN (payloads are not kept).
bool sameValue(double a, double b) { return std::isnan(a) ? std::isnan(b) : bitsOf(a) == bitsOf(b); }

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

void checkEntries(const HostMatrix& matrix, const std::vector<Expected>& expected) {
  BOOST_TEST(matrix.nnz() == static_cast<std::int64_t>(expected.size()));
  BOOST_TEST(matrix.row.size() == matrix.value.size());
  BOOST_TEST(matrix.col.size() == matrix.value.size());
  const std::size_t common = std::min(expected.size(), matrix.value.size());
  for (std::size_t k = 0; k < common; ++k) {
    BOOST_TEST_CONTEXT("entry " << k << ", expected (" << expected[k].row << ", " << expected[k].col << ") = "
                                << expected[k].value) {
      BOOST_TEST(matrix.row[k] == expected[k].row - 1);
      BOOST_TEST(matrix.col[k] == expected[k].col - 1);
      BOOST_TEST(sameValue(matrix.value[k], expected[k].value), "value " << matrix.value[k]);
    }
  }
}

void checkMatrix(const HostMatrix& matrix, std::int64_t rows, std::int64_t cols, const std::vector<Expected>& expected) {
  BOOST_TEST(matrix.numRows == rows);
  BOOST_TEST(matrix.numCols == cols);
  BOOST_TEST(matrix.header.rows == rows);
  BOOST_TEST(matrix.header.cols == cols);
  checkEntries(matrix, expected);
}

/// Runs `read`, which must throw a ParseError at `line`: its message must start with
/// "NAME:LINE: " and contain every one of `words`.
void checkRefusal(const std::function<void()>& read, const std::string& name, std::int64_t line,
                  const std::vector<std::string>& words) {
  try {
    read();
    BOOST_ERROR("no error for " << name << "; expected a ParseError at line " << line);
  } catch (const ParseError& error) {
    const std::string message = error.what();
    BOOST_TEST_CONTEXT("message: " << message) {
      BOOST_TEST(error.file() == name);
      BOOST_TEST(error.line() == line);
      BOOST_TEST(message.rfind(name + ":" + std::to_string(line) + ": ", 0) == 0u);
      for (const std::string& word : words) BOOST_TEST(contains(message, word), "lacks \"" << word << "\"");
    }
  }
}

void checkTextRefused(const std::string& text, std::int64_t line, const std::vector<std::string>& words,
                      const ReadOptions& options = {}) {
  BOOST_TEST_CONTEXT("text: " << text) {
    checkRefusal([&] { parseMatrixMarket(text, kSynthetic, options); }, kSynthetic, line, words);
  }
}

/// Runs `action`, which must throw an InputError (not a ParseError) containing every word.
void checkInputError(const std::function<void()>& action, const std::vector<std::string>& words) {
  try {
    action();
    BOOST_ERROR("no error; expected an InputError");
  } catch (const ParseError& error) {
    BOOST_ERROR("a ParseError (" << error.what() << "); expected a plain InputError");
  } catch (const InputError& error) {
    const std::string message = error.what();
    BOOST_TEST_CONTEXT("message: " << message) {
      for (const std::string& word : words) BOOST_TEST(contains(message, word), "lacks \"" << word << "\"");
    }
  }
}

HostMatrix parseText(const std::string& text, const ReadOptions& options = {}) {
  return parseMatrixMarket(text, kSynthetic, options);
}

const std::string kRealGeneral = "%%MatrixMarket matrix coordinate real general\n";

void writeFile(const fs::path& path, const std::string& content) {
  std::ofstream out(path, std::ios::binary);
  out << content;
  BOOST_TEST_REQUIRE(out.good());
}

std::string readBinaryFile(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream content;
  content << in.rdbuf();
  return content.str();
}

// ---------------------------------------------------------------------------------------------
// Reference parsing, for files too long to write out by hand: deliberately naive (string
// streams and strtod), so that it shares nothing with the reader under test.

struct ReferenceMatrix {
  std::int64_t rows = 0;
  std::int64_t cols = 0;
  std::vector<Expected> entries;  // sorted by (row, col); only for general coordinate files
};

ReferenceMatrix referenceGeneralCoordinate(const std::string& path) {
  std::istringstream text(araios::io::detail::readTextFile(path));
  ReferenceMatrix reference;
  std::string line;
  bool sawSizeLine = false;
  std::getline(text, line);  // the banner
  while (std::getline(text, line)) {
    std::istringstream words(line);
    std::string first;
    if (!(words >> first) || first[0] == '%') continue;
    if (!sawSizeLine) {
      reference.rows = std::stoll(first);
      words >> reference.cols;
      sawSizeLine = true;
      continue;
    }
    std::string col, value;
    words >> col >> value;
    reference.entries.push_back({std::stoll(first), std::stoll(col), std::strtod(value.c_str(), nullptr)});
  }
  std::stable_sort(reference.entries.begin(), reference.entries.end(), [](const Expected& a, const Expected& b) {
    return a.row != b.row ? a.row < b.row : a.col < b.col;
  });
  return reference;
}

/// What a real matrix's file says about itself, found by a plain line scan.
struct FileSummary {
  std::string format, field, symmetry;
  std::int64_t rows = 0, cols = 0;
  std::int64_t storedEntries = 0;  // data lines
  std::int64_t diagonalEntries = 0;
  double absoluteSum = 0;  // of the stored values
  double diagonalAbsoluteSum = 0;
};

FileSummary summarize(const std::string& text) {
  FileSummary summary;
  std::size_t position = 0;
  bool sawBanner = false, sawSizeLine = false;
  while (position < text.size()) {
    std::size_t end = text.find('\n', position);
    if (end == std::string::npos) end = text.size();
    const std::string_view line(text.data() + position, end - position);
    const char* start = text.data() + position;
    position = end + 1;
    if (!sawBanner) {
      std::istringstream words{std::string(line)};
      std::string banner, object;
      words >> banner >> object >> summary.format >> summary.field >> summary.symmetry;
      for (std::string* word : {&summary.format, &summary.field, &summary.symmetry}) {
        for (char& c : *word) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
      }
      sawBanner = true;
      continue;
    }
    const std::size_t firstNonBlank = line.find_first_not_of(" \t\r");
    if (firstNonBlank == std::string_view::npos || line[firstNonBlank] == '%') continue;
    char* next = nullptr;
    if (!sawSizeLine) {
      summary.rows = std::strtoll(start, &next, 10);
      summary.cols = std::strtoll(next, &next, 10);
      sawSizeLine = true;
      continue;
    }
    ++summary.storedEntries;
    if (summary.format == "array") {
      summary.absoluteSum += std::fabs(std::strtod(start, nullptr));
      continue;
    }
    const long long row = std::strtoll(start, &next, 10);
    const long long col = std::strtoll(next, &next, 10);
    const double value = summary.field == "pattern" ? 1.0 : std::strtod(next, nullptr);
    summary.absoluteSum += std::fabs(value);
    if (row == col) {
      ++summary.diagonalEntries;
      summary.diagonalAbsoluteSum += std::fabs(value);
    }
  }
  return summary;
}

// ---------------------------------------------------------------------------------------------
// The parser test files: one case for each, by path relative to matricesDir()/parser.

using FileCheck = std::function<void(const std::string& path)>;

FileCheck reads(std::int64_t rows, std::int64_t cols, std::int64_t storedEntries, std::int64_t duplicates,
                std::vector<Expected> entries) {
  return [=](const std::string& path) {
    const HostMatrix matrix = readMatrixMarket(path);
    checkMatrix(matrix, rows, cols, entries);
    BOOST_TEST(matrix.header.storedEntries == storedEntries);
    BOOST_TEST(matrix.duplicatesSummed == duplicates);
    BOOST_TEST(matrix.droppedEntries == 0);
  };
}

FileCheck refused(std::int64_t line, std::vector<std::string> words) {
  return [=](const std::string& path) { checkRefusal([&] { readMatrixMarket(path); }, path, line, words); };
}

/// NIST example 1, as in nist_ex1.mtx and its free-format and CRLF variants.
const std::vector<Expected> kNistExample1 = {
    {1, 1, 1.0},   {1, 4, 6.0},    {2, 2, 10.5}, {3, 3, 0.015},
    {4, 2, 250.5}, {4, 4, -280.0}, {4, 5, 33.32}, {5, 5, 12.0},
};

void checkWest0067WithNan(const std::string& path) {
  const HostMatrix matrix = readMatrixMarket(path);
  const ReferenceMatrix reference = referenceGeneralCoordinate(path);
  BOOST_TEST(reference.entries.size() == 295u);
  checkMatrix(matrix, 67, 67, reference.entries);
  // Spot checks written from the file: its first value is nan, and values like -.2788416.
  BOOST_TEST_REQUIRE(matrix.nnz() == 295);
  BOOST_TEST((matrix.row[0] == 0 && matrix.col[0] == 0 && std::isnan(matrix.value[0])));
  BOOST_TEST((matrix.row[1] == 0 && matrix.col[1] == 7 && matrix.value[1] == -.8341818));  // "1 8 -.8341818"
  BOOST_TEST((matrix.row[294] == 66 && matrix.col[294] == 65 && matrix.value[294] == 1.0));  // "67 66 1"
  BOOST_TEST(matrix.duplicatesSummed == 0);
}

void checkWest0067Jumbled(const std::string& path) {
  const HostMatrix matrix = readMatrixMarket(path);
  checkMatrix(matrix, 67, 67, referenceGeneralCoordinate(path).entries);
  BOOST_TEST(matrix.nnz() == 294);
  // The README: same entries as west0067, out of order; comments_west0067 adds a (1,1) nan.
  const fs::path sibling = fs::path(path).parent_path() / "comments_west0067.mtx.gz";
  std::vector<Expected> withoutNan = referenceGeneralCoordinate(sibling.string()).entries;
  withoutNan.erase(withoutNan.begin());
  checkEntries(matrix, withoutNan);
}

void checkOutOfRangeFile(const std::string& path) {
  checkRefusal([&] { readMatrixMarket(path); }, path, 5, {"row index 5000 is out of range", "1 to 7"});
  ReadOptions dropping;
  dropping.dropInvalid = true;
  const HostMatrix matrix = readMatrixMarket(path, dropping);
  BOOST_TEST(matrix.droppedEntries == 1);
  checkMatrix(matrix, 7, 7,
              {{1, 4, 1}, {2, 1, 1}, {3, 4, 1}, {3, 6, 1}, {3, 7, 1}, {4, 1, 1},
               {4, 7, 1}, {5, 7, 1}, {6, 3, 1}, {6, 5, 1}, {7, 2, 1}});
}

std::map<std::string, FileCheck> parserFileCases() {
  std::map<std::string, FileCheck> cases;
  const std::string complexRefusal = "complex matrices are not supported";

  cases["cholmod/c.mtx.gz"] = refused(1, {complexRefusal});
  cases["cholmod/fullcsa.mtx.gz"] = refused(1, {complexRefusal});
  // array skew-symmetric 2x2: the single value is a21.
  cases["cholmod/fullrza.mtx.gz"] = reads(2, 2, 1, 0, {{1, 2, -3.4}, {2, 1, 3.4}});
  cases["cholmod/rza.mtx.gz"] =
      reads(3, 3, 3, 0, {{1, 2, 13}, {1, 3, 32}, {2, 1, -13}, {2, 3, 17}, {3, 1, -32}, {3, 2, -17}});

  // array skew-symmetric 3x3, values a21, a31, a32.
  cases["fmm/array_skew-symmetric.mtx.gz"] =
      reads(3, 3, 3, 0, {{1, 2, -22}, {1, 3, -33}, {2, 1, 22}, {2, 3, -44}, {3, 1, 33}, {3, 2, 44}});
  // Despite its name, this file holds no duplicate.
  cases["fmm/coordinate_pattern_symmetric_row_general_dup.mtx.gz"] =
      reads(3, 3, 4, 0, {{1, 3, 1}, {2, 3, 1}, {3, 1, 1}, {3, 2, 1}});
  cases["fmm/coordinate_skew_symmetric_row.mtx.gz"] =
      reads(3, 3, 2, 0, {{1, 3, -10}, {2, 3, -20}, {3, 1, 10}, {3, 2, 20}});
  cases["fmm/coordinate_symmetric_row_general_dup.mtx.gz"] =
      reads(3, 3, 6, 1, {{1, 3, 10}, {2, 3, 20}, {3, 1, 10}, {3, 2, 20}, {3, 3, 60}});
  cases["fmm/invalid_indices_out_of_range_1.mtx.gz"] = checkOutOfRangeFile;
  // Field 'double' is accepted: the refusal comes from the data, at the unterminated line 4.
  cases["fmm/invalid_truncated_lines.mtx.gz"] =
      refused(4, {"the file ends after 2 of 12 entries", "size line (line 2)"});
  cases["fmm/matrix_array_integer_general.mtx.gz"] =
      reads(3, 2, 6, 0, {{1, 1, 1}, {1, 2, 11}, {2, 1, 2}, {2, 2, 22}, {3, 1, 3}, {3, 2, 33}});
  cases["fmm/matrix_coordinate_complex_hermitian.mtx.gz"] = refused(1, {complexRefusal});
  cases["fmm/nist_ex1.mtx.gz"] = reads(5, 5, 8, 0, kNistExample1);
  cases["fmm/nist_ex1_more_freeformat.mtx.gz"] = reads(5, 5, 8, 0, kNistExample1);
  cases["fmm/overflow_index_gt_int64.mtx.gz"] =
      refused(6, {"row index '19223372036854775808' does not fit in a 64-bit integer"});
  cases["fmm/permissive_banner_one_percent_eye3.mtx.gz"] = refused(1, {"looks like a banner with one '%'"});
  cases["fmm/vector_coordinate_dupes.mtx.gz"] = refused(1, {"'vector' objects are not supported", "expected 'matrix'"});
  cases["fmm/windows_lineendings_nist_ex1_more_freeformat.mtx.gz"] = reads(5, 5, 8, 0, kNistExample1);
  cases["fmm/windows_newlines.mtx.gz"] = reads(3, 3, 3, 0, {{1, 1, 1}, {2, 2, 1}, {3, 3, 1}});

  // symmetric, 30 stored entries of which 14 are diagonal: 14 + 2 * 16 = 46.
  cases["lagraph/LFAT5_hypersparse.mtx.gz"] = reads(
      2000, 2000, 30, 0,
      {{1, 1, 1.57088},
       {1, 4, -94.2528},
       {1, 5, .78544},
       {2, 2, 1.25664e7},
       {2, 6, -6.2832e6},
       {3, 3, .6088062015503876},
       {3, 7, -.3044031007751938},
       {4, 1, -94.2528},
       {4, 4, 15080.447999999997},
       {4, 8, -7540.223999999998},
       {4, 9, 94.2528},
       {5, 1, .78544},
       {5, 5, 3.14176},
       {5, 8, -94.2528},
       {5, 9, .78544},
       {6, 2, -6.2832e6},
       {6, 6, 1.25664e7},
       {6, 10, -6.2832e6},
       {7, 3, -.3044031007751938},
       {7, 7, .6088062015503876},
       {7, 11, -.3044031007751938},
       {8, 4, -7540.223999999998},
       {8, 5, -94.2528},
       {8, 8, 15080.447999999997},
       {8, 12, -7540.223999999998},
       {8, 13, 94.2528},
       {9, 4, 94.2528},
       {9, 5, .78544},
       {9, 9, 3.14176},
       {9, 12, -94.2528},
       {9, 13, .78544},
       {10, 6, -6.2832e6},
       {10, 10, 1.25664e7},
       {11, 7, -.3044031007751938},
       {11, 11, .6088062015503876},
       {12, 8, -7540.223999999998},
       {12, 9, -94.2528},
       {12, 12, 15080.447999999997},
       {12, 14, 94.2528},
       {13, 8, 94.2528},
       {13, 9, .78544},
       {13, 13, 3.14176},
       {13, 14, .78544},
       {14, 12, 94.2528},
       {14, 13, .78544},
       {14, 14, 1.57088}});
  cases["lagraph/comments_west0067.mtx.gz"] = checkWest0067WithNan;
  cases["lagraph/complex.mtx.gz"] = refused(1, {complexRefusal});
  cases["lagraph/empty.mtx.gz"] = reads(3, 4, 0, 0, {});
  {
    // array symmetric 4x4: the lower triangle column by column.
    const double a11 = 10.762188911437988, a21 = 18.18952178955078, a31 = 28.239410400390625,
                 a41 = 22.269603729248047, a22 = 7.084949970245361, a32 = 18.75064468383789,
                 a42 = 19.203340530395508, a33 = 7.289100170135498, a43 = 19.899736404418945,
                 a44 = 3.9635860919952393;
    cases["lagraph/full_symmetric.mtx.gz"] =
        reads(4, 4, 10, 0,
              {{1, 1, a11}, {1, 2, a21}, {1, 3, a31}, {1, 4, a41}, {2, 1, a21}, {2, 2, a22}, {2, 3, a32}, {2, 4, a42},
               {3, 1, a31}, {3, 2, a32}, {3, 3, a33}, {3, 4, a43}, {4, 1, a41}, {4, 2, a42}, {4, 3, a43}, {4, 4, a44}});
  }
  cases["lagraph/mangled1.mtx.gz"] = refused(1, {"unknown object 'mangled'", "expected 'matrix'"});
  cases["lagraph/mangled12.mtx.gz"] = refused(5, {"missing value", "expected 'ROW COL VALUE'"});
  // Duplicates are summed (as scipy and MATLAB do), not refused (as LAGraph does).
  cases["lagraph/mangled14.mtx.gz"] = reads(3, 4, 3, 1, {{1, 1, 3.0}, {2, 2, 3.4 + 7.1}});
  cases["lagraph/mangled5.mtx.gz"] = refused(1, {"'pattern hermitian' is invalid"});
  cases["lagraph/mangled_format.mtx.gz"] = refused(1, {"'array pattern' is invalid"});
  cases["lagraph/skew_fp64.mtx.gz"] = reads(6, 6, 10, 0,
                                            {{1, 4, .12565458736262625},
                                             {1, 5, -kInf},
                                             {1, 6, .37818613705021886},
                                             {2, 3, -.7261044316648319},
                                             {2, 4, -.7828720729791232},
                                             {2, 5, .7709542206739245},
                                             {3, 2, .7261044316648319},
                                             {3, 4, -.009802252263062083},
                                             {3, 6, -.7043396244833676},
                                             {4, 1, -.12565458736262625},
                                             {4, 2, .7828720729791232},
                                             {4, 3, .009802252263062083},
                                             {4, 6, -1.6518450433009226},
                                             {5, 1, kInf},
                                             {5, 2, -.7709542206739245},
                                             {5, 6, .18161721472946568},
                                             {6, 1, -.37818613705021886},
                                             {6, 3, .7043396244833676},
                                             {6, 4, 1.6518450433009226},
                                             {6, 5, -.18161721472946568}});
  cases["lagraph/west0067_jumbled.mtx.gz"] = checkWest0067Jumbled;
  cases["lagraph/west0067_noheader.mtx.gz"] =
      refused(1, {"the first line '67 67 294' is not a '%%MatrixMarket' banner"});
  return cases;
}

fs::path parserDir() { return araios::test::matricesDir() / "parser"; }

}  // namespace

// =============================================================================================
// The parser test files

BOOST_AUTO_TEST_CASE(every_parser_file_has_a_case) {
  std::set<std::string> files;
  for (const auto& entry : fs::recursive_directory_iterator(parserDir())) {
    if (entry.is_regular_file()) files.insert(fs::relative(entry.path(), parserDir()).generic_string());
  }
  BOOST_TEST(files.size() >= 32u);
  const std::map<std::string, FileCheck> cases = parserFileCases();
  for (const std::string& file : files) {
    BOOST_TEST(cases.count(file) == 1u, "parser/" << file << " has no case in parserFileCases()");
  }
  for (const auto& [file, check] : cases) {
    BOOST_TEST(files.count(file) == 1u, "case " << file << " has no file in " << parserDir());
  }
}

BOOST_AUTO_TEST_CASE(parser_files_read_as_expected) {
  for (const auto& [file, check] : parserFileCases()) {
    BOOST_TEST_CONTEXT("parser/" << file) {
      try {
        check((parserDir() / file).string());
      } catch (const std::exception& error) {
        BOOST_ERROR("unexpected exception: " << error.what());
      }
    }
  }
}

// =============================================================================================
// The real matrices

BOOST_AUTO_TEST_CASE(real_matrices_agree_with_their_headers) {
  const std::vector<fs::path> files = araios::test::realMatrixFiles();
  BOOST_TEST(files.size() >= 22u);
  for (const fs::path& file : files) {
    BOOST_TEST_CONTEXT(file.filename().string()) {
      const std::string path = file.string();
      const FileSummary summary = summarize(araios::io::detail::readTextFile(path));
      if (summary.field == "complex") {
        checkRefusal([&] { readMatrixMarket(path); }, path, 1, {"complex matrices are not supported"});
        continue;
      }
      HostMatrix matrix;
      try {
        matrix = readMatrixMarket(path);
      } catch (const std::exception& error) {
        BOOST_ERROR("unexpected exception: " << error.what());
        continue;
      }
      BOOST_TEST(matrix.numRows == summary.rows);
      BOOST_TEST(matrix.numCols == summary.cols);
      BOOST_TEST(matrix.header.storedEntries == summary.storedEntries);
      BOOST_TEST(toString(matrix.header.format) == summary.format);
      BOOST_TEST(toString(matrix.header.symmetry) == summary.symmetry);
      BOOST_TEST(matrix.duplicatesSummed == 0);  // the README: no duplicates outside parser/
      const bool mirrored = summary.symmetry != "general";
      const std::int64_t expectedNnz =
          mirrored ? 2 * summary.storedEntries - summary.diagonalEntries : summary.storedEntries;
      BOOST_TEST(matrix.nnz() == expectedNnz);

      // Raw pointers: this loop visits millions of entries in unoptimized sanitizer builds.
      const std::int64_t* row = matrix.row.data();
      const std::int64_t* col = matrix.col.data();
      const double* value = matrix.value.data();
      double absoluteSum = 0;
      bool sortedAndInside = true;
      for (std::int64_t k = 0; k < matrix.nnz(); ++k) {
        absoluteSum += std::fabs(value[k]);
        sortedAndInside = sortedAndInside && row[k] >= 0 && row[k] < matrix.numRows && col[k] >= 0 &&
                          col[k] < matrix.numCols;
        if (k > 0) {
          const bool increasing = row[k - 1] < row[k] || (row[k - 1] == row[k] && col[k - 1] < col[k]);
          sortedAndInside = sortedAndInside && increasing;
        }
      }
      BOOST_TEST(sortedAndInside, "entries are not strictly sorted by (row, col) inside the matrix");
      const double expectedSum =
          mirrored ? 2 * summary.absoluteSum - summary.diagonalAbsoluteSum : summary.absoluteSum;
      BOOST_TEST(std::fabs(absoluteSum - expectedSum) <= 1e-9 * expectedSum,
                 "sum of |values| " << absoluteSum << " vs " << expectedSum);
    }
  }
}

BOOST_AUTO_TEST_CASE(commanche_dual_coord_is_a_dense_7920_by_3_array) {
  const HostMatrix matrix = readMatrixMarket((araios::test::matricesDir() / "commanche_dual_coord.mtx.gz").string());
  BOOST_TEST(toString(matrix.header.format) == std::string("array"));
  BOOST_TEST(matrix.numRows == 7920);
  BOOST_TEST(matrix.numCols == 3);
  BOOST_TEST(matrix.nnz() == 7920 * 3);
}

// =============================================================================================
// Synthesized texts: what is accepted

BOOST_AUTO_TEST_CASE(banner_words_are_case_insensitive_and_spacing_is_free) {
  const HostMatrix matrix = parseText("%%matrixMARKET   MATRIX\tCoordinate  REAL \t General  \n"
                                      "  2 \t 3   1  \n"
                                      "\t 2   3\t-1.5 \n");
  checkMatrix(matrix, 2, 3, {{2, 3, -1.5}});
  BOOST_TEST(toString(matrix.header.format) == std::string("coordinate"));
  BOOST_TEST(toString(matrix.header.field) == std::string("real"));
  BOOST_TEST(toString(matrix.header.symmetry) == std::string("general"));

  const HostMatrix doubleField = parseText("%%MatrixMarket matrix coordinate double general\n1 1 1\n1 1 2.5\n");
  BOOST_TEST(toString(doubleField.header.field) == std::string("real"));
  checkEntries(doubleField, {{1, 1, 2.5}});
}

BOOST_AUTO_TEST_CASE(comments_and_blank_lines_are_allowed_anywhere) {
  const HostMatrix matrix = parseText(kRealGeneral +
                                      "% comment\n"
                                      "\n"
                                      "   % indented comment\n"
                                      " \t \n"
                                      "3 3 2\n"
                                      "\n"
                                      "% between entries\n"
                                      "3 1 7\n"
                                      "\n"
                                      "1 2 8\n"
                                      "%% trailing\n"
                                      "\n");
  checkMatrix(matrix, 3, 3, {{1, 2, 8}, {3, 1, 7}});
}

BOOST_AUTO_TEST_CASE(special_and_signed_values) {
  const HostMatrix matrix = parseText(kRealGeneral + "1 17 17\n" +
                                      "1 1 nan\n"
                                      "1 2 -NaN\n"
                                      "1 3 +nan\n"
                                      "1 4 inf\n"
                                      "1 5 -inf\n"
                                      "1 6 +Inf\n"
                                      "1 7 Infinity\n"
                                      "1 8 -INFINITY\n"
                                      "1 9 1e400\n"
                                      "1 10 -1e400\n"
                                      "1 11 1e-400\n"
                                      "1 12 -1e-400\n"
                                      "1 13 4.9e-324\n"
                                      "1 14 +1.5\n"
                                      "1 15 .5\n"
                                      "1 16 5.\n"
                                      "+1 +17 -0\n");
  checkEntries(matrix, {{1, 1, kNaN},
                        {1, 2, kNaN},
                        {1, 3, kNaN},
                        {1, 4, kInf},
                        {1, 5, -kInf},
                        {1, 6, kInf},
                        {1, 7, kInf},
                        {1, 8, -kInf},
                        {1, 9, kInf},
                        {1, 10, -kInf},
                        {1, 11, 0.0},
                        {1, 12, -0.0},
                        {1, 13, std::numeric_limits<double>::denorm_min()},
                        {1, 14, 1.5},
                        {1, 15, 0.5},
                        {1, 16, 5.0},
                        {1, 17, -0.0}});
  // Huge and tiny values written without an exponent, or with a long one.
  const std::string hugeDigits(400, '9');
  const HostMatrix extremes = parseText(kRealGeneral + "1 4 4\n1 1 " + hugeDigits + "\n1 2 0." +
                                        std::string(400, '0') + "1\n1 3 1e99999999999999999999\n" +
                                        "1 4 -1e-99999999999999999999\n");
  checkEntries(extremes, {{1, 1, kInf}, {1, 2, 0.0}, {1, 3, kInf}, {1, 4, -0.0}});

  const HostMatrix integers = parseText("%%MatrixMarket matrix coordinate integer general\n1 3 3\n"
                                        "1 1 +7\n1 2 -9223372036854775808\n1 3 9007199254740993\n");
  checkEntries(integers, {{1, 1, 7.0}, {1, 2, -9223372036854775808.0}, {1, 3, 9007199254740992.0}});
}

BOOST_AUTO_TEST_CASE(duplicates_are_summed_in_file_order) {
  // 1e16 + 1 rounds back to 1e16, so only the file order gives 0 (another order would give 1).
  const HostMatrix matrix = parseText(kRealGeneral + "2 2 5\n1 1 1e16\n2 2 4\n1 1 1\n1 1 -1e16\n2 2 0.5\n");
  checkMatrix(matrix, 2, 2, {{1, 1, 0.0}, {2, 2, 4.5}});
  BOOST_TEST(matrix.duplicatesSummed == 3);
  BOOST_TEST(matrix.header.storedEntries == 5);
}

BOOST_AUTO_TEST_CASE(symmetric_files_are_expanded) {
  const std::string banner = "%%MatrixMarket matrix coordinate real symmetric\n";
  const HostMatrix matrix = parseText(banner + "3 3 4\n1 1 5\n3 1 2\n2 2 0\n3 2 -1\n");
  checkMatrix(matrix, 3, 3, {{1, 1, 5}, {1, 3, 2}, {2, 2, 0}, {2, 3, -1}, {3, 1, 2}, {3, 2, -1}});
  BOOST_TEST(matrix.duplicatesSummed == 0);
  BOOST_TEST(matrix.header.storedEntries == 4);

  // Upper-triangle entries are mirrored too; a file with both (i,j) and (j,i) sums them at both.
  const HostMatrix both = parseText(banner + "2 2 2\n2 1 1\n1 2 10\n");
  checkEntries(both, {{1, 2, 11}, {2, 1, 11}});
  BOOST_TEST(both.duplicatesSummed == 2);

  const HostMatrix pattern = parseText("%%MatrixMarket matrix coordinate pattern symmetric\n2 2 2\n2 1\n2 2\n");
  checkEntries(pattern, {{1, 2, 1}, {2, 1, 1}, {2, 2, 1}});
}

BOOST_AUTO_TEST_CASE(skew_symmetric_files_are_expanded_with_negated_mirrors) {
  const std::string banner = "%%MatrixMarket matrix coordinate real skew-symmetric\n";
  const HostMatrix matrix = parseText(banner + "3 3 3\n2 1 1.5\n3 3 0\n1 3 -2\n");
  checkMatrix(matrix, 3, 3, {{1, 2, -1.5}, {1, 3, -2}, {2, 1, 1.5}, {3, 1, 2}, {3, 3, 0}});

  const HostMatrix both = parseText(banner + "2 2 2\n2 1 1\n1 2 10\n");
  checkEntries(both, {{1, 2, 9}, {2, 1, -9}});

  checkTextRefused(banner + "3 3 2\n2 1 1\n2 2 5\n", 4,
                   {"diagonal entry (2, 2) = 5 in a skew-symmetric matrix", "zero diagonal"});
  checkTextRefused(banner + "3 3 1\n1 1 nan\n", 3, {"diagonal entry (1, 1)"});
}

BOOST_AUTO_TEST_CASE(array_files_are_column_major) {
  const HostMatrix general = parseText("%%MatrixMarket matrix array real general\n2 3\n1\n2\n3\n4\n0\n6\n");
  checkMatrix(general, 2, 3, {{1, 1, 1}, {1, 2, 3}, {1, 3, 0}, {2, 1, 2}, {2, 2, 4}, {2, 3, 6}});
  BOOST_TEST(general.header.storedEntries == 6);

  const HostMatrix symmetric =
      parseText("%%MatrixMarket matrix array integer symmetric\n3 3\n11\n21\n31\n% c\n\n22\n32\n33\n");
  checkMatrix(symmetric, 3, 3,
              {{1, 1, 11}, {1, 2, 21}, {1, 3, 31}, {2, 1, 21}, {2, 2, 22}, {2, 3, 32}, {3, 1, 31}, {3, 2, 32}, {3, 3, 33}});
  BOOST_TEST(symmetric.header.storedEntries == 6);

  const HostMatrix skew = parseText("%%MatrixMarket matrix array real skew-symmetric\n3 3\n21\n31\n32\n");
  checkMatrix(skew, 3, 3, {{1, 2, -21}, {1, 3, -31}, {2, 1, 21}, {2, 3, -32}, {3, 1, 31}, {3, 2, 32}});

  checkMatrix(parseText("%%MatrixMarket matrix array real skew-symmetric\n1 1\n"), 1, 1, {});
  checkMatrix(parseText("%%MatrixMarket matrix array real general\n0 5\n"), 0, 5, {});
}

BOOST_AUTO_TEST_CASE(empty_and_hypersparse_sizes) {
  checkMatrix(parseText(kRealGeneral + "0 0 0\n"), 0, 0, {});
  checkMatrix(parseText(kRealGeneral + "9223372036854775807 9223372036854775807 1\n9223372036854775807 1 2\n"),
              9223372036854775807, 9223372036854775807, {{9223372036854775807, 1, 2}});
  // Dimensions far beyond the entry count take the comparison-sort path: still stable.
  const HostMatrix hypersparse = parseText("%%MatrixMarket matrix coordinate real symmetric\n"
                                           "1000000000000 1000000000000 4\n"
                                           "500000000000 1 1e16\n2 2 5\n1 500000000000 1\n500000000000 1 -1e16\n");
  checkMatrix(hypersparse, 1000000000000, 1000000000000,
              {{1, 500000000000, 0.0}, {2, 2, 5}, {500000000000, 1, 0.0}});
  BOOST_TEST(hypersparse.duplicatesSummed == 4);
  // A size line that announces far more entries than the text holds is a truncation, not an
  // attempt to allocate them.
  checkTextRefused(kRealGeneral + "3 3 9223372036854775807\n1 1 1\n", 3,
                   {"the file ends after 1 of 9223372036854775807 entries"});
}

// =============================================================================================
// Synthesized texts: what is refused

BOOST_AUTO_TEST_CASE(missing_banner_is_refused) {
  checkTextRefused("", 1, {"the file is empty", "%%MatrixMarket matrix coordinate real general"});
  checkTextRefused("3 3 1\n1 1 1\n", 1, {"the first line '3 3 1' is not a '%%MatrixMarket' banner"});
  checkTextRefused("\n" + kRealGeneral + "1 1 0\n", 1, {"is not a '%%MatrixMarket' banner"});
  checkTextRefused("% comment\n" + kRealGeneral + "1 1 0\n", 1, {"is not a '%%MatrixMarket' banner"});
  checkTextRefused("%MatrixMarket matrix coordinate real general\n1 1 0\n", 1,
                   {"looks like a banner with one '%'", "with two '%'"});
  checkTextRefused("%%MatrixMarketmatrix coordinate real general\n1 1 0\n", 1, {"is not a '%%MatrixMarket' banner"});
  checkTextRefused(std::string("\x1f\x8b\x08\x00garbage", 11) + "\n", 1, {"'\\x1f\\x8b\\x08\\x00garbage'"});
}

BOOST_AUTO_TEST_CASE(mangled_banner_is_refused) {
  const std::string allWords = "'coordinate' or 'array'";
  checkTextRefused("%%MatrixMarket matrix coordinate real\n", 1,
                   {"the banner has 3 words after '%%MatrixMarket'", "expected 4"});
  checkTextRefused("%%MatrixMarket matrix coordinate real general extra\n", 1, {"the banner has 5 words"});
  checkTextRefused("%%MatrixMarket\n", 1, {"the banner has 0 words"});
  checkTextRefused("%%MatrixMarket tensor coordinate real general\n", 1, {"unknown object 'tensor'", "expected 'matrix'"});
  checkTextRefused("%%MatrixMarket vector array real general\n", 1, {"'vector' objects are not supported"});
  checkTextRefused("%%MatrixMarket matrix sparse real general\n", 1,
                   {"unknown format 'sparse'", "expected 'coordinate' or 'array'"});
  checkTextRefused("%%MatrixMarket matrix coordinate float general\n", 1,
                   {"unknown field 'float'", "expected 'real' (or 'double'), 'integer' or 'pattern'"});
  checkTextRefused("%%MatrixMarket matrix coordinate Complex general\n", 1, {"complex matrices are not supported"});
  checkTextRefused("%%MatrixMarket matrix coordinate real upper\n", 1,
                   {"unknown symmetry 'upper'", "expected 'general', 'symmetric' or 'skew-symmetric'"});
  checkTextRefused("%%MatrixMarket matrix coordinate real hermitian\n", 1,
                   {"hermitian matrices are not supported (they are complex)"});
  checkTextRefused("%%MatrixMarket matrix coordinate pattern hermitian\n", 1, {"'pattern hermitian' is invalid"});
  checkTextRefused("%%MatrixMarket matrix array pattern general\n", 1, {"'array pattern' is invalid"});
  checkTextRefused("%%MatrixMarket matrix coordinate pattern skew-symmetric\n", 1,
                   {"'pattern skew-symmetric' is invalid"});
}

BOOST_AUTO_TEST_CASE(bad_size_line_is_refused) {
  const std::string coordinateForm = "expected 'ROWS COLS ENTRIES'";
  checkTextRefused(kRealGeneral, 1, {"the file ends before the size line", coordinateForm});
  checkTextRefused(kRealGeneral + "% only comments\n\n", 3, {"the file ends before the size line"});
  checkTextRefused(kRealGeneral + "3 3\n", 2, {"the size line '3 3' has 2 numbers", coordinateForm});
  checkTextRefused(kRealGeneral + "3 3 1 1\n", 2, {"has 4 numbers", coordinateForm});
  checkTextRefused("%%MatrixMarket matrix array real general\n3 3 9\n", 2,
                   {"the size line '3 3 9' has 3 numbers", "expected 'ROWS COLS' (2 non-negative integers)"});
  checkTextRefused(kRealGeneral + "3 x 1\n", 2, {"size 'x' is not an integer", coordinateForm});
  checkTextRefused(kRealGeneral + "3 3.0 1\n", 2, {"size '3.0' is not an integer"});
  checkTextRefused(kRealGeneral + "-3 3 1\n", 2, {"negative size -3", coordinateForm});
  checkTextRefused(kRealGeneral + "3 3 -1\n", 2, {"negative size -1"});
  checkTextRefused(kRealGeneral + "99999999999999999999 3 1\n", 2,
                   {"size '99999999999999999999' does not fit in a 64-bit integer"});
  checkTextRefused("%%MatrixMarket matrix coordinate real symmetric\n3 4 1\n", 2,
                   {"a symmetric matrix of 3 rows and 4 columns", "expected a square matrix"});
  checkTextRefused("%%MatrixMarket matrix array real skew-symmetric\n2 3\n", 2, {"a skew-symmetric matrix of 2 rows"});
  checkTextRefused("%%MatrixMarket matrix array real general\n4294967296 4294967296\n", 2,
                   {"an array of 4294967296 x 4294967296 values"});
}

BOOST_AUTO_TEST_CASE(entry_counts_that_disagree_with_the_size_line_are_refused) {
  checkTextRefused(kRealGeneral + "3 3 3\n1 1 1\n2 2 2\n", 4,
                   {"the file ends after 2 of 3 entries", "expected 3 entries, as the size line (line 2) says"});
  // The line reported is the file's last one, blank or comment included.
  checkTextRefused(kRealGeneral + "3 3 3\n1 1 1\n\n% end\n\n", 6, {"the file ends after 1 of 3 entries"});
  checkTextRefused(kRealGeneral + "3 3 1\n1 1 1\n2 2 2\n", 4,
                   {"more entries than the 1 that the size line (line 2) announces", "expected 1 entries"});
  checkTextRefused(kRealGeneral + "3 3 0\n\n% nothing\n1 1 1\n", 5, {"more entries than the 0"});
  checkTextRefused("%%MatrixMarket matrix array real general\n2 1\n1\n", 3, {"the file ends after 1 of 2 values"});
  checkTextRefused("%%MatrixMarket matrix array real symmetric\n2 2\n1\n2\n3\n4\n", 6,
                   {"more values than the 3 that the size line (line 2) announces"});
}

BOOST_AUTO_TEST_CASE(indices_out_of_range_are_refused) {
  const std::string expected = "expected 1 to 3 (the matrix has 3 rows)";
  checkTextRefused(kRealGeneral + "3 4 1\n0 1 1\n", 3, {"row index 0 is out of range (indices are 1-based)", expected});
  checkTextRefused(kRealGeneral + "3 4 1\n4 1 1\n", 3, {"row index 4 is out of range", expected});
  checkTextRefused(kRealGeneral + "3 4 1\n-1 1 1\n", 3, {"row index -1 is out of range", expected});
  checkTextRefused(kRealGeneral + "3 4 1\n1 5 1\n", 3, {"column index 5 is out of range", "1 to 4 (the matrix has 4 columns)"});
  checkTextRefused(kRealGeneral + "3 4 1\n1 0 1\n", 3, {"column index 0 is out of range (indices are 1-based)"});
  checkTextRefused(kRealGeneral + "3 4 1\n1 9223372036854775807 1\n", 3, {"column index 9223372036854775807 is out of range"});
  checkTextRefused(kRealGeneral + "3 4 1\n9223372036854775808 1 1\n", 3,
                   {"row index '9223372036854775808' does not fit in a 64-bit integer", "expected an integer from 1 to 3"});
  checkTextRefused(kRealGeneral + "3 4 1\n1 -9223372036854775809 1\n", 3,
                   {"column index '-9223372036854775809' does not fit in a 64-bit integer"});
}

BOOST_AUTO_TEST_CASE(tokens_that_are_not_numbers_are_refused) {
  const std::string header = kRealGeneral + "3 3 1\n";
  checkTextRefused(header + "x 1 1\n", 3, {"row index 'x' is not an integer", "expected an integer from 1 to 3"});
  checkTextRefused(header + "1.0 1 1\n", 3, {"row index '1.0' is not an integer"});
  checkTextRefused(header + "1 1e0 1\n", 3, {"column index '1e0' is not an integer"});
  checkTextRefused(header + "+-1 1 1\n", 3, {"row index '+-1' is not an integer"});
  for (const std::string bad : {"abc", "1e", "e5", ".", "-", "+", "0x10", "1,5", "+-1", "++1", "--1", "1d0", "infin", "nan()x", "1.5.2"}) {
    checkTextRefused(header + "1 1 " + bad + "\n", 3,
                     {"value '" + bad + "' is not a number", "expected a real number such as 1.5, -2e3, nan or inf"});
  }
  const std::string integerHeader = "%%MatrixMarket matrix coordinate integer general\n3 3 1\n";
  checkTextRefused(integerHeader + "1 1 1.5\n", 3,
                   {"value '1.5' is not an integer", "expected an integer value (the banner says 'integer')"});
  checkTextRefused(integerHeader + "1 1 1e3\n", 3, {"value '1e3' is not an integer"});
  checkTextRefused(integerHeader + "1 1 nan\n", 3, {"value 'nan' is not an integer"});
  checkTextRefused(integerHeader + "1 1 9223372036854775808\n", 3,
                   {"value '9223372036854775808' does not fit in a 64-bit integer"});
  checkTextRefused("%%MatrixMarket matrix array real general\n1 1\nseven\n", 3, {"value 'seven' is not a number"});
  // A token from a binary file is shown escaped and shortened.
  checkTextRefused(header + "1 1 " + std::string(100, 'z') + "\x01\n", 3, {"value '" + std::string(60, 'z') + "...'"});
}

BOOST_AUTO_TEST_CASE(missing_and_extra_tokens_are_refused) {
  const std::string header = kRealGeneral + "3 3 1\n";
  checkTextRefused(header + "1 1\n", 3, {"missing value", "expected 'ROW COL VALUE'"});
  checkTextRefused(header + "1\n", 3, {"missing column index", "expected 'ROW COL VALUE'"});
  checkTextRefused(header + "1 1 1 0\n", 3, {"extra token '0' after the entry", "expected 'ROW COL VALUE'"});
  checkTextRefused(header + "1 1 1 % comment\n", 3, {"extra token '%' after the entry"});
  const std::string pattern = "%%MatrixMarket matrix coordinate pattern general\n3 3 1\n";
  checkTextRefused(pattern + "1\n", 3, {"missing column index", "expected 'ROW COL'"});
  checkTextRefused(pattern + "1 1 1\n", 3, {"extra token '1' after the entry", "expected 'ROW COL'"});
  checkTextRefused("%%MatrixMarket matrix array real general\n2 1\n1 2\n", 3,
                   {"extra token '2' after the value", "one value per line"});
}

BOOST_AUTO_TEST_CASE(line_numbers_count_every_line_ending_style) {
  // Lines: 1 banner, 2 comment, 3 blank, 4 size, 5 entry, 6 blank, 7 bad entry.
  const std::vector<std::string> lines = {"%%MatrixMarket matrix coordinate real general", "% comment", "", "3 3 2",
                                          "1 1 1", "", "4 1 1"};
  for (const std::string ending : {"\n", "\r\n", "\r"}) {
    std::string text;
    for (const std::string& line : lines) text += line + ending;
    BOOST_TEST_CONTEXT("line ending " << (ending == "\n" ? "LF" : ending == "\r" ? "CR" : "CRLF")) {
      checkTextRefused(text, 7, {"row index 4 is out of range"});
      checkTextRefused(text.substr(0, text.size() - ending.size() - 5), 6, {"the file ends after 1 of 2 entries"});
    }
  }
  // Mixed endings: CRLF, LF, CR, then LF CR (two endings: an empty line between them).
  checkTextRefused(kRealGeneral.substr(0, kRealGeneral.size() - 1) + "\r\n% c\n\r3 3 2\r\n1 1 1\n\r4 1 1\n", 7,
                   {"row index 4 is out of range"});
  // A CR-only file without a final line ending reads completely.
  const HostMatrix matrix = parseText("%%MatrixMarket matrix coordinate real general\r3 3 2\r\r1 1 1\r3 3 2");
  checkMatrix(matrix, 3, 3, {{1, 1, 1}, {3, 3, 2}});
  const HostMatrix crlf = parseText("%%MatrixMarket matrix array real general\r\n2 1\r\n\r\n1.5\r\n-2\r\n");
  checkMatrix(crlf, 2, 1, {{1, 1, 1.5}, {2, 1, -2}});
}

BOOST_AUTO_TEST_CASE(drop_invalid_skips_out_of_range_entries) {
  ReadOptions dropping;
  dropping.dropInvalid = true;
  const std::string text = kRealGeneral + "3 4 7\n0 1 1\n1 1 2\n4 1 3\n1 0 4\n3 4 5\n1 5 6\n-7 9 7\n";
  const HostMatrix matrix = parseText(text, dropping);
  checkMatrix(matrix, 3, 4, {{1, 1, 2}, {3, 4, 5}});
  BOOST_TEST(matrix.droppedEntries == 5);
  BOOST_TEST(matrix.header.storedEntries == 7);
  checkTextRefused(text, 3, {"row index 0 is out of range"});

  // Dropped entries still count against the size line; symmetric mirrors of kept entries stay.
  const HostMatrix symmetric =
      parseText("%%MatrixMarket matrix coordinate pattern symmetric\n2 2 2\n2 1\n3 1\n", dropping);
  checkEntries(symmetric, {{1, 2, 1}, {2, 1, 1}});
  BOOST_TEST(symmetric.droppedEntries == 1);
  checkTextRefused(kRealGeneral + "3 4 1\n5 1 1\n1 1 1\n", 4, {"more entries than the 1"}, dropping);

  // Tokens that are not valid numbers are still refused.
  checkTextRefused(kRealGeneral + "3 4 1\n19223372036854775808 1 1\n", 3, {"does not fit in a 64-bit integer"}, dropping);
  checkTextRefused(kRealGeneral + "3 4 1\n5 x 1\n", 3, {"column index 'x' is not an integer"}, dropping);
  checkTextRefused(kRealGeneral + "3 4 1\n5 1 y\n", 3, {"value 'y' is not a number"}, dropping);
}

BOOST_AUTO_TEST_CASE(enum_names) {
  BOOST_TEST(std::string(toString(MatrixMarketFormat::Coordinate)) == "coordinate");
  BOOST_TEST(std::string(toString(MatrixMarketFormat::Array)) == "array");
  BOOST_TEST(std::string(toString(MatrixMarketField::Real)) == "real");
  BOOST_TEST(std::string(toString(MatrixMarketField::Integer)) == "integer");
  BOOST_TEST(std::string(toString(MatrixMarketField::Pattern)) == "pattern");
  BOOST_TEST(std::string(toString(MatrixMarketSymmetry::General)) == "general");
  BOOST_TEST(std::string(toString(MatrixMarketSymmetry::Symmetric)) == "symmetric");
  BOOST_TEST(std::string(toString(MatrixMarketSymmetry::SkewSymmetric)) == "skew-symmetric");
}

// =============================================================================================
// Files: opening and decompressing

BOOST_AUTO_TEST_CASE(files_are_decompressed_by_content_not_by_name) {
  TemporaryDirectory dir("araios_mm_test_");
  const std::string text = kRealGeneral + "2 2 1\n2 1 3.5\n";
  writeFile(dir.path() / "plain.mtx", text);
  writeFile(dir.path() / "plain-but-named.mtx.gz", text);
  checkEntries(readMatrixMarket((dir.path() / "plain.mtx").string()), {{2, 1, 3.5}});
  checkEntries(readMatrixMarket((dir.path() / "plain-but-named.mtx.gz").string()), {{2, 1, 3.5}});

  HostMatrix matrix = parseText(text);
  writeMatrixMarket((dir.path() / "written.mtx.gz").string(), matrix);
  fs::copy_file(dir.path() / "written.mtx.gz", dir.path() / "gzip-but-named.mtx");
  BOOST_TEST(readBinaryFile(dir.path() / "gzip-but-named.mtx").substr(0, 2) == "\x1f\x8b");
  checkEntries(readMatrixMarket((dir.path() / "gzip-but-named.mtx").string()), {{2, 1, 3.5}});
}

BOOST_AUTO_TEST_CASE(unreadable_files_are_refused_with_their_name) {
  TemporaryDirectory dir("araios_mm_test_");
  const std::string missing = (dir.path() / "missing.mtx.gz").string();
  checkInputError([&] { readMatrixMarket(missing); }, {"cannot open " + missing + ": No such file or directory"});
  checkInputError([&] { readMatrixMarket(dir.path().string()); }, {dir.path().string()});

  // A gzip file cut in half, and one with its compressed data overwritten.
  const fs::path source = araios::test::matricesDir() / "nos5.mtx.gz";
  const std::string compressed = readBinaryFile(source);
  const fs::path truncated = dir.path() / "truncated.mtx.gz";
  writeFile(truncated, compressed.substr(0, compressed.size() / 2));
  checkInputError([&] { readMatrixMarket(truncated.string()); },
                  {"cannot decompress " + truncated.string() + ": unexpected end of file"});
  const fs::path corrupted = dir.path() / "corrupted.mtx.gz";
  std::string damaged = compressed;
  for (std::size_t k = damaged.size() / 3; k < damaged.size() / 3 + 64; ++k) damaged[k] = static_cast<char>(0xff ^ k);
  writeFile(corrupted, damaged);
  checkInputError([&] { readMatrixMarket(corrupted.string()); }, {"cannot decompress " + corrupted.string() + ": "});
}

// =============================================================================================
// The writer

namespace {

/// Values that a writer gets wrong most often, then random bit patterns (NaNs, subnormals and
/// huge exponents included) and random values of ordinary size.
std::vector<double> awkwardValues(std::size_t count) {
  using limits = std::numeric_limits<double>;
  std::vector<double> values = {0.0,  -0.0, 1.0, -1.0, 0.1, 1.0 / 3.0, 2.0 / 3.0, 1e23, 5e-324, -5e-324,
                                limits::denorm_min(), limits::min(), -limits::min(),
                                doubleOf(0x000fffffffffffffull),  // largest subnormal
                                limits::max(), limits::lowest(), limits::epsilon(), kInf, -kInf, kNaN,
                                -kNaN, doubleOf(0x7ff0000000000001ull),  // signalling NaN
                                9007199254740993.0, 123456789012345678.0, 1e-300, 1e300, 0.3, 2.5e-310};
  std::mt19937_64 random(20240611);
  std::uniform_real_distribution<double> ordinary(-1e3, 1e3);
  while (values.size() < count) {
    values.push_back(doubleOf(random()));
    values.push_back(ordinary(random));
  }
  values.resize(count);
  return values;
}

/// A matrix holding `values` at every position of a rows x cols grid, row by row.
HostMatrix denseMatrix(std::int64_t rows, std::int64_t cols, const std::vector<double>& values) {
  HostMatrix matrix;
  matrix.numRows = rows;
  matrix.numCols = cols;
  for (std::int64_t i = 0; i < rows; ++i) {
    for (std::int64_t j = 0; j < cols; ++j) {
      matrix.row.push_back(i);
      matrix.col.push_back(j);
      matrix.value.push_back(values[static_cast<std::size_t>(i * cols + j)]);
    }
  }
  return matrix;
}

void checkSameMatrix(const HostMatrix& actual, const HostMatrix& expected) {
  BOOST_TEST(actual.numRows == expected.numRows);
  BOOST_TEST(actual.numCols == expected.numCols);
  BOOST_TEST(actual.row == expected.row);
  BOOST_TEST(actual.col == expected.col);
  BOOST_TEST_REQUIRE(actual.value.size() == expected.value.size());
  std::size_t mismatches = 0;
  for (std::size_t k = 0; k < actual.value.size(); ++k) {
    if (!sameValue(actual.value[k], expected.value[k])) {
      if (++mismatches <= 5) {
        BOOST_ERROR("value " << k << ": bits " << std::hex << bitsOf(actual.value[k]) << " instead of "
                             << bitsOf(expected.value[k]));
      }
    }
  }
  BOOST_TEST(mismatches == 0u);
}

}  // namespace

BOOST_AUTO_TEST_CASE(write_read_round_trip_is_bit_exact) {
  TemporaryDirectory dir("araios_mm_test_");
  const HostMatrix matrix = denseMatrix(80, 50, awkwardValues(80 * 50));
  for (const std::string name : {"values.mtx", "values.mtx.gz"}) {
    BOOST_TEST_CONTEXT(name) {
      const std::string path = (dir.path() / name).string();
      writeMatrixMarket(path, matrix);
      checkSameMatrix(readMatrixMarket(path), matrix);
    }
  }
  const std::string text = araios::io::detail::readTextFile((dir.path() / "values.mtx.gz").string());
  BOOST_TEST(text.rfind("%%MatrixMarket matrix coordinate real general\n% written by Araios\n80 50 4000\n"
                        "1 1 0\n1 2 -0\n1 3 1\n1 4 -1\n1 5 0.1\n",
                        0) == 0u);
  BOOST_TEST(contains(text, " inf\n"));
  BOOST_TEST(contains(text, " -inf\n"));
  BOOST_TEST(contains(text, " nan\n"));
  BOOST_TEST(fileNamesIn(dir.path()) == (std::set<std::string>{"values.mtx", "values.mtx.gz"}));
}

BOOST_AUTO_TEST_CASE(a_real_matrix_survives_a_round_trip) {
  TemporaryDirectory dir("araios_mm_test_");
  const HostMatrix original = readMatrixMarket((araios::test::matricesDir() / "bcsstk13.mtx.gz").string());
  const std::string path = (dir.path() / "bcsstk13.mtx.gz").string();
  writeMatrixMarket(path, original);
  checkSameMatrix(readMatrixMarket(path), original);
  BOOST_TEST(fileNamesIn(dir.path()) == (std::set<std::string>{"bcsstk13.mtx.gz"}));
}

BOOST_AUTO_TEST_CASE(writing_replaces_an_existing_file) {
  TemporaryDirectory dir("araios_mm_test_");
  const std::string path = (dir.path() / "m.mtx").string();
  writeMatrixMarket(path, denseMatrix(2, 2, {1, 2, 3, 4}));
  writeMatrixMarket(path, denseMatrix(1, 1, {7}));
  checkMatrix(readMatrixMarket(path), 1, 1, {{1, 1, 7}});
  HostMatrix empty;
  writeMatrixMarket(path, empty);
  checkMatrix(readMatrixMarket(path), 0, 0, {});
  BOOST_TEST(fileNamesIn(dir.path()) == (std::set<std::string>{"m.mtx"}));
}

BOOST_AUTO_TEST_CASE(failed_writes_leave_nothing_behind) {
  TemporaryDirectory dir("araios_mm_test_");
  const fs::path missingDir = dir.path() / "missing";
  const std::string inMissingDir = (missingDir / "m.mtx.gz").string();
  checkInputError([&] { writeMatrixMarket(inMissingDir, denseMatrix(1, 1, {1})); },
                  {"cannot write " + inMissingDir + ": ", "No such file or directory"});
  BOOST_TEST(!fs::exists(missingDir));

  // The target is a folder: everything is written, then the rename fails.
  const fs::path folder = dir.path() / "folder.mtx";
  fs::create_directory(folder);
  checkInputError([&] { writeMatrixMarket(folder.string(), denseMatrix(1, 1, {1})); },
                  {"cannot write " + folder.string() + ": ", "cannot rename"});
  BOOST_TEST(fs::is_directory(folder));

  // Matrices whose file could not be read back.
  HostMatrix mismatched = denseMatrix(2, 2, {1, 2, 3, 4});
  mismatched.value.pop_back();
  const std::string path = (dir.path() / "bad.mtx").string();
  checkInputError([&] { writeMatrixMarket(path, mismatched); }, {"cannot write " + path, "3 values"});
  HostMatrix outside = denseMatrix(2, 2, {1, 2, 3, 4});
  outside.numRows = 1;
  checkInputError([&] { writeMatrixMarket(path, outside); }, {"is outside the 1 x 2 matrix"});
  BOOST_TEST(fileNamesIn(dir.path()) == (std::set<std::string>{"folder.mtx"}));
}
