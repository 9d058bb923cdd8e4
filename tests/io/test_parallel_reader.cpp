// The chunked, parallel Matrix Market reader and writer against references that share nothing
// with them: hashes recorded with the sequential reader they replaced, expected matrices built
// from generated texts with strtod and a stable sort, and line numbers known by construction.
// Every read is repeated at 1, 2 and 3 threads and at chunk sizes down to one byte, which puts
// chunk borders everywhere, CRLFs and comments included.
#define BOOST_TEST_MODULE parallel_reader
#include <boost/test/unit_test.hpp>

#include "test_paths.hpp"

#include <araios/error.hpp>
#include <araios/io/matrix_market.hpp>

#include "src/io/text_source.hpp"
#include "io/generated_text.hpp"
#include "support/matrices.hpp"

#include <zlib.h>

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <sstream>
#include <string>
#include <vector>

namespace fs = std::filesystem;
using araios::InputError;
using araios::ParseError;
using araios::io::HostMatrix;
using araios::io::ReadOptions;
using araios::io::parseMatrixMarket;
using araios::io::readMatrixMarket;
using araios::test::GeneratedKind;
using araios::test::GeneratedText;

namespace {

std::uint64_t fnv1a(const void* data, std::size_t bytes) {
  std::uint64_t hash = 0xcbf29ce484222325ull;
  const auto* p = static_cast<const unsigned char*>(data);
  for (std::size_t i = 0; i < bytes; ++i) {
    hash ^= p[i];
    hash *= 0x100000001b3ull;
  }
  return hash;
}

template <class T>
std::string hashOf(const std::vector<T>& values) {
  char text[17];
  std::snprintf(text, sizeof text, "%016llx",
                static_cast<unsigned long long>(fnv1a(values.data(), values.size() * sizeof(T))));
  return text;
}

/// The line the hash file holds for a matrix (after its path).
std::string summaryOf(const HostMatrix& m) {
  std::ostringstream out;
  out << m.numRows << ' ' << m.numCols << ' ' << m.nnz() << ' ' << m.duplicatesSummed << ' ' << hashOf(m.row) << ' '
      << hashOf(m.col) << ' ' << hashOf(m.value);
  return out.str();
}

/// The summary of a read, or "ERROR message" with the path replaced by FILE.
std::string outcomeOf(const std::function<HostMatrix()>& read, const std::string& path) {
  try {
    return summaryOf(read());
  } catch (const araios::Error& error) {
    std::string message = error.what();
    for (std::size_t at = message.find(path); at != std::string::npos; at = message.find(path)) {
      message.replace(at, path.size(), "FILE");
    }
    return "ERROR " + message;
  }
}

ReadOptions withThreads(int threads, std::size_t chunkBytes = 0) {
  ReadOptions options;
  options.threads = threads;
  options.chunkBytes = chunkBytes;
  return options;
}

/// The configurations every read is repeated at: threads x chunk size (0 = the default).
struct Config {
  int threads;
  std::size_t chunkBytes;
};
const std::vector<Config> kConfigs = {{1, 0}, {2, 0}, {1, 4093}, {2, 4093}, {3, 65536}, {2, 1}};

/// The same text, with the reader's chunks (1, 2 or 3 threads; chunk sizes 1 byte to default).
void checkEveryConfig(const std::string& what, const std::function<std::string(const ReadOptions&)>& read,
                      const std::string& expected, const std::vector<Config>& configs = kConfigs) {
  for (const Config& config : configs) {
    BOOST_TEST_CONTEXT(what << " at " << config.threads << " threads, chunks of " << config.chunkBytes << " bytes") {
      BOOST_TEST(read(withThreads(config.threads, config.chunkBytes)) == expected);
    }
  }
}

/// The expected matrix of a generated text: strtod values, a stable sort by position, and
/// duplicates summed in file order (symmetric texts mirrored first, as the reader does).
HostMatrix expectedMatrix(const GeneratedText& generated, GeneratedKind kind) {
  struct Entry {
    std::int64_t row, col;
    double value;
  };
  std::vector<Entry> entries;
  for (const auto& e : generated.entries) {
    entries.push_back({e.row - 1, e.col - 1, e.value});
    if (kind == GeneratedKind::Symmetric && e.row != e.col) entries.push_back({e.col - 1, e.row - 1, e.value});
  }
  std::stable_sort(entries.begin(), entries.end(),
                   [](const Entry& a, const Entry& b) { return a.row != b.row ? a.row < b.row : a.col < b.col; });
  HostMatrix m;
  m.numRows = m.numCols = generated.rows;
  for (const Entry& e : entries) {
    if (!m.row.empty() && m.row.back() == e.row && m.col.back() == e.col) {
      m.value.back() += e.value;
      ++m.duplicatesSummed;
      continue;
    }
    m.row.push_back(e.row);
    m.col.push_back(e.col);
    m.value.push_back(e.value);
  }
  return m;
}

/// A folder under the system temporary folder, removed with everything in it at the end.
class TemporaryDirectory {
 public:
  TemporaryDirectory() {
    path_ = fs::temp_directory_path() / ("araios-parallel-io-test-" + std::to_string(::getpid()));
    fs::remove_all(path_);
    fs::create_directories(path_);
  }
  ~TemporaryDirectory() {
    std::error_code ignored;
    fs::remove_all(path_, ignored);
  }
  const fs::path& path() const { return path_; }

 private:
  fs::path path_;
};

void writeFile(const fs::path& path, const std::string& content) {
  std::ofstream out(path, std::ios::binary);
  out << content;
  BOOST_TEST_REQUIRE(out.good());
}

void writeGzipFile(const fs::path& path, const std::string& content) {
  gzFile file = gzopen(path.string().c_str(), "wb");
  BOOST_TEST_REQUIRE(file != nullptr);
  BOOST_TEST_REQUIRE(gzwrite(file, content.data(), static_cast<unsigned>(content.size())) ==
                     static_cast<int>(content.size()));
  BOOST_TEST_REQUIRE(gzclose(file) == Z_OK);
}

std::string readBinaryFile(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream content;
  content << in.rdbuf();
  return content.str();
}

}  // namespace

// =============================================================================================
// Old versus new: every file of the test matrices folder

BOOST_AUTO_TEST_CASE(every_shared_matrix_reads_as_with_the_sequential_reader) {
  std::ifstream hashes(fs::path(ARAIOS_TEST_SOURCE_DIR) / "io/sequential_reader_hashes.txt");
  BOOST_TEST_REQUIRE(hashes.good());
  std::map<std::string, std::string> recorded;
  for (std::string line; std::getline(hashes, line);) {
    if (line.empty() || line[0] == '#') continue;
    const std::size_t space = line.find(' ');
    recorded[line.substr(0, space)] = line.substr(space + 1);
  }
  // Every file is listed: a new matrix must be recorded (with the sequential reader) to count.
  std::vector<std::string> files;
  for (const auto& entry : fs::recursive_directory_iterator(araios::test::matricesDir())) {
    const std::string name = entry.path().filename().string();
    if (entry.is_regular_file() && name.size() > 7 && name.substr(name.size() - 7) == ".mtx.gz") {
      files.push_back(fs::relative(entry.path(), araios::test::matricesDir()).string());
    }
  }
  BOOST_TEST(files.size() == recorded.size());
  for (const std::string& relative : files) {
    BOOST_TEST_CONTEXT(relative) {
      BOOST_TEST_REQUIRE(recorded.count(relative) == 1u);
      const std::string path = (araios::test::matricesDir() / relative).string();
      // Real matrices are large: the default chunks and 64 KiB chunks, at 1 and 2 threads.
      const bool small = relative.rfind("parser/", 0) == 0;
      const std::vector<Config> configs = small ? kConfigs : std::vector<Config>{{1, 0}, {2, 65536}};
      checkEveryConfig(
          relative, [&](const ReadOptions& options) { return outcomeOf([&] { return readMatrixMarket(path, options); }, path); },
          recorded[relative], configs);
    }
  }
}

// =============================================================================================
// Generated texts: identical at every thread count and chunk size, and right

BOOST_AUTO_TEST_CASE(generated_texts_read_identically_at_1_2_and_3_threads) {
  // Hashes of these texts as the sequential reader read them (see sequential_reader_hashes.txt).
  const std::map<GeneratedKind, std::string> sequential = {
      {GeneratedKind::General, "7500 7500 135158 14842 54eb8bfb13f3e76a 35630058dcfd1d71 e1b021fa66d29a7c"},
      {GeneratedKind::Symmetric, "7500 7500 269999 29980 d54e506f995c6934 cabf5ae1b5caf8a8 02953edd1cbf5384"},
  };
  TemporaryDirectory dir;
  for (const GeneratedKind kind : {GeneratedKind::General, GeneratedKind::Symmetric}) {
    const GeneratedText generated = araios::test::generatedText(kind, 2024, 150000);
    const std::string name = kind == GeneratedKind::General ? "general" : "symmetric";
    BOOST_TEST_CONTEXT(name) {
      const HostMatrix expected = expectedMatrix(generated, kind);
      // The strtod reference, the sequential reader and (below) the parallel one agree to the bit.
      const std::string expectedSummary = summaryOf(expected);
      BOOST_TEST(expectedSummary == sequential.at(kind));
      auto fromText = [&](const ReadOptions& options) {
        return outcomeOf([&] { return parseMatrixMarket(generated.text, name, options); }, name);
      };
      checkEveryConfig(name + " text", fromText, expectedSummary,
                       {{1, 0}, {2, 0}, {1, 4093}, {2, 4093}, {3, 65536}, {2, 1 << 20}});
      const fs::path plain = dir.path() / (name + ".mtx");
      const fs::path gzip = dir.path() / (name + ".mtx.gz");
      writeFile(plain, generated.text);
      writeGzipFile(gzip, generated.text);
      for (const fs::path& file : {plain, gzip}) {
        auto fromFile = [&](const ReadOptions& options) {
          return outcomeOf([&] { return readMatrixMarket(file.string(), options); }, file.string());
        };
        checkEveryConfig(file.filename().string(), fromFile, expectedSummary,
                         {{1, 0}, {2, 0}, {2, 4093}, {3, 65536}});
      }
    }
  }
}

BOOST_AUTO_TEST_CASE(a_long_comment_block_before_the_size_line_spans_chunks) {
  std::string text = "%%MatrixMarket matrix coordinate real general\n";
  for (int k = 0; k < 2000; ++k) text += "% a header comment that goes on for a while\r\n";
  text += "3 3 2\n1 1 1.5\n3 2 -2\n";
  const std::string expected = "3 3 2 0 " + hashOf(std::vector<std::int64_t>{0, 2}) + " " +
                               hashOf(std::vector<std::int64_t>{0, 1}) + " " + hashOf(std::vector<double>{1.5, -2.0});
  checkEveryConfig("long header", [&](const ReadOptions& o) {
    return outcomeOf([&] { return parseMatrixMarket(text, "h.mtx", o); }, "h.mtx");
  }, expected);
}

// =============================================================================================
// Errors keep their line, message and precedence across chunk borders

namespace {

/// `good` valid entries of a 10 x 10 matrix, none on the diagonal, each on its own line after
/// the banner (line 1) and the size line (line 2), with CRLF endings on every third line;
/// entry k is on line k + 3.
std::string goodEntries(int good) {
  std::string text;
  for (int k = 0; k < good; ++k) {
    const int row = k % 10;
    const int col = (row + 1 + k % 9) % 10;
    text += std::to_string(row + 1) + " " + std::to_string(col + 1) + " " + std::to_string(k) + ".5";
    text += k % 3 == 0 ? "\r\n" : "\n";
  }
  return text;
}

void checkRefusedAt(const std::string& text, std::int64_t line, const std::string& words) {
  const std::string expectedStart = "ERROR FILE:" + std::to_string(line) + ": ";
  for (const Config& config : kConfigs) {
    BOOST_TEST_CONTEXT(config.threads << " threads, chunks of " << config.chunkBytes << " bytes") {
      const std::string outcome =
          outcomeOf([&] { return parseMatrixMarket(text, "e.mtx", withThreads(config.threads, config.chunkBytes)); }, "e.mtx");
      BOOST_TEST(outcome.rfind(expectedStart, 0) == 0u, outcome);
      BOOST_TEST(outcome.find(words) != std::string::npos, outcome);
    }
  }
}

}  // namespace

BOOST_AUTO_TEST_CASE(errors_deep_in_the_text_keep_their_line_at_every_chunk_size) {
  const std::string banner = "%%MatrixMarket matrix coordinate real general\n";
  const int good = 3000;  // entries before the problem: many chunks at small sizes
  const std::string entries = goodEntries(good);
  const std::string size = std::to_string(good + 1);
  // The problem is on line good + 3.
  const std::int64_t bad = good + 3;
  checkRefusedAt(banner + size + " 10 " + size + "\n" + entries + "4 5 1.5x\n", bad, "value '1.5x' is not a number");
  checkRefusedAt(banner + "10 10 " + size + "\n" + entries + "4\n", bad, "missing column index");
  checkRefusedAt(banner + "10 10 " + size + "\n" + entries + "4 11 1\n", bad, "column index 11 is out of range");
  checkRefusedAt(banner + "10 10 " + size + "\n" + entries + "4 5 1 2\n", bad, "extra token '2' after the entry");
  // The file ends early: reported at its last line (a comment after the last entry).
  checkRefusedAt(banner + "10 10 " + std::to_string(good + 5) + "\n" + entries + "% the end\n", bad,
                 "the file ends after 3000 of 3005 entries");
  // One entry too many, itself malformed: the count is refused first, as a sequential read does.
  checkRefusedAt(banner + "10 10 " + std::to_string(good) + "\n" + entries + "1 2 x\n", bad,
                 "more entries than the 3000 that the size line (line 2) announces");
  // One too many, with a malformed line after it: the count, at the first extra line.
  checkRefusedAt(banner + "10 10 " + std::to_string(good - 1) + "\n" + entries + "1 2 x\n", bad - 1,
                 "more entries than the 2999");
  // A problem before the count is exceeded wins.
  checkRefusedAt(banner + "10 10 " + std::to_string(good - 1) + "\n" + "1 2 x\n" + entries, 3, "value 'x'");
  // A skew-symmetric diagonal quotes its value as written.
  checkRefusedAt("%%MatrixMarket matrix coordinate real skew-symmetric\n10 10 " + size + "\n" + entries + "4 4 2.50\n",
                 bad, "diagonal entry (4, 4) = 2.50");
}

BOOST_AUTO_TEST_CASE(a_damaged_gzip_file_is_reported_as_damaged_before_its_parse_errors) {
  // The text fails to parse on line 3, long before the compressed data breaks off: the file is
  // damaged, and that is what the message must say, as when the whole file was read first.
  TemporaryDirectory dir;
  std::string text = "%%MatrixMarket matrix coordinate real general\n10 10 100000\n1 1 bad\n" + goodEntries(100000);
  const fs::path whole = dir.path() / "whole.mtx.gz";
  writeGzipFile(whole, text);
  const std::string compressed = readBinaryFile(whole);
  const fs::path truncated = dir.path() / "truncated.mtx.gz";
  writeFile(truncated, compressed.substr(0, compressed.size() / 2));
  for (const Config& config : {Config{1, 0}, Config{2, 4093}}) {
    BOOST_TEST_CONTEXT(config.threads << " threads, chunks of " << config.chunkBytes << " bytes") {
      const std::string outcome = outcomeOf(
          [&] { return readMatrixMarket(truncated.string(), withThreads(config.threads, config.chunkBytes)); },
          truncated.string());
      BOOST_TEST(outcome == "ERROR cannot decompress FILE: unexpected end of file");
      const std::string intact = outcomeOf(
          [&] { return readMatrixMarket(whole.string(), withThreads(config.threads, config.chunkBytes)); }, whole.string());
      BOOST_TEST(intact.rfind("ERROR FILE:3: value 'bad' is not a number", 0) == 0u, intact);
    }
  }
}

BOOST_AUTO_TEST_CASE(chunks_end_at_line_boundaries_and_never_split_a_crlf) {
  using araios::io::detail::wholeLinesPrefix;
  BOOST_TEST(wholeLinesPrefix("ab\ncd", false) == 3u);
  BOOST_TEST(wholeLinesPrefix("ab\r\ncd", false) == 4u);
  BOOST_TEST(wholeLinesPrefix("ab\r", false) == 0u);  // an LF may follow
  BOOST_TEST(wholeLinesPrefix("ab\r", true) == 3u);
  BOOST_TEST(wholeLinesPrefix("a\rb\r", false) == 2u);  // the first CR is followed by 'b'
  BOOST_TEST(wholeLinesPrefix("abc", false) == 0u);
  BOOST_TEST(wholeLinesPrefix("abc", true) == 3u);
  // Chunks of a memory text put back together give the text, every chunk ends at a boundary.
  const std::string text = "x\r\ny\rz\n\r\n\n\rlong line without end";
  for (std::size_t chunkBytes : {1u, 2u, 3u, 5u, 64u}) {
    const auto source = araios::io::detail::ChunkSource::fromMemory(text, chunkBytes);
    std::string joined;
    araios::io::detail::TextChunk chunk;
    while (source->next(chunk)) {
      const std::string_view piece = chunk.text();
      BOOST_TEST(!piece.empty());
      const bool last = joined.size() + piece.size() == text.size();
      if (!last) BOOST_TEST((piece.back() == '\n' || (piece.back() == '\r' && text[joined.size() + piece.size()] != '\n')));
      joined += piece;
    }
    BOOST_TEST(joined == text);
  }
}

// =============================================================================================
// The writer: the same bytes at every thread count

BOOST_AUTO_TEST_CASE(written_text_is_the_same_at_every_thread_count) {
  // More than two chunks of entries (a chunk holds 2^17), with values the writer finds hard.
  const GeneratedText generated = araios::test::generatedText(GeneratedKind::General, 7, 300000);
  const HostMatrix matrix = parseMatrixMarket(generated.text, "w.mtx");
  BOOST_TEST_REQUIRE(matrix.nnz() > (2 << 17));
  // What reads back: every NaN as the reader's "nan", and no duplicates left to sum.
  HostMatrix asWritten = matrix;
  for (double& v : asWritten.value) v = std::isnan(v) ? std::strtod("nan", nullptr) : v;
  asWritten.duplicatesSummed = 0;
  TemporaryDirectory dir;
  std::string reference;
  for (int threads : {1, 2, 3}) {
    BOOST_TEST_CONTEXT(threads << " threads") {
      araios::io::WriteOptions options;
      options.threads = threads;
      const fs::path plain = dir.path() / ("w" + std::to_string(threads) + ".mtx");
      const fs::path gzip = dir.path() / ("w" + std::to_string(threads) + ".mtx.gz");
      araios::io::writeMatrixMarket(plain.string(), matrix, options);
      araios::io::writeMatrixMarket(gzip.string(), matrix, options);
      const std::string text = readBinaryFile(plain);
      if (reference.empty()) reference = text;
      BOOST_TEST((text == reference));
      // The compressed file is a series of gzip members; it decompresses to the same text.
      BOOST_TEST((araios::io::detail::readTextFile(gzip.string()) == reference));
      BOOST_TEST(summaryOf(readMatrixMarket(gzip.string())) == summaryOf(asWritten));
    }
  }
  // The text itself, checked line by line against printf's shortest-round-trip search.
  std::istringstream lines(reference);
  std::string line;
  std::getline(lines, line);
  BOOST_TEST(line == "%%MatrixMarket matrix coordinate real general");
  std::getline(lines, line);
  std::getline(lines, line);
  BOOST_TEST(line == std::to_string(matrix.numRows) + " " + std::to_string(matrix.numCols) + " " + std::to_string(matrix.nnz()));
  std::size_t mismatches = 0;
  for (std::size_t k = 0; k < matrix.value.size() && std::getline(lines, line); ++k) {
    const double v = matrix.value[k];
    const std::string head = std::to_string(matrix.row[k] + 1) + " " + std::to_string(matrix.col[k] + 1) + " ";
    const std::string written = line.rfind(head, 0) == 0u ? line.substr(head.size()) : "";
    bool right = false;
    if (std::isnan(v)) {
      right = written == "nan";
    } else if (std::isinf(v)) {
      right = written == (v > 0 ? "inf" : "-inf");
    } else {
      // Reads back to the same bits, and is no longer than the shortest %.{p}g that does.
      char shortest[40];
      for (int precision = 1; precision <= 17; ++precision) {
        std::snprintf(shortest, sizeof shortest, "%.*g", precision, v);
        const double back = std::strtod(shortest, nullptr);
        if (back == v && std::signbit(back) == std::signbit(v)) break;
      }
      const double back = std::strtod(written.c_str(), nullptr);
      right = !written.empty() && std::memcmp(&back, &v, sizeof v) == 0 && written.size() <= std::strlen(shortest);
    }
    if (!right && ++mismatches <= 5) BOOST_ERROR("line " << k + 4 << ": '" << line << "' for value " << v);
  }
  BOOST_TEST(mismatches == 0u);
}
