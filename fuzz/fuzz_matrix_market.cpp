// libFuzzer target for the Matrix Market reader and writer (src/io/). The reader promises the
// same matrix, and the same error, whatever the number of threads, the chunk size, and whether
// the text comes from memory, a plain file or a gzip file; each input is read in all of those
// ways, and any disagreement is a crash. An input that starts with the gzip magic bytes is read
// as a gzip file and compared with its text as zlib decompresses it here. A matrix that reads
// must be well formed (sorted, inside its size, no more entries than the file announces) and
// must come back bit for bit through the writer. Anything but araios::InputError escaping the
// reader is a crash too, as is any sanitizer report.
#include <araios/error.hpp>
#include <araios/io/matrix_market.hpp>

#include <zlib.h>

#include <unistd.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

namespace {

namespace fs = std::filesystem;
using araios::io::HostMatrix;
using araios::io::ReadOptions;

[[noreturn]] void fail(const std::string& message) {
  std::fprintf(stderr, "fuzz_matrix_market: %s\n", message.c_str());
  std::abort();
}

/// What one read gave: a matrix, or its error with the name the text was read under replaced
/// by "<input>", since memory, plain-file and gzip-file reads name the text differently. Only
/// a ParseError's leading name is replaced: the rest may quote the input, which may hold
/// anything, the name included.
struct Outcome {
  std::optional<HostMatrix> matrix;
  std::string error;
};

std::string replaceAll(std::string text, const std::string& from, const std::string& to) {
  for (std::size_t at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size())) {
    text.replace(at, from.size(), to);
  }
  return text;
}

Outcome outcomeOf(const std::string& name, const std::function<HostMatrix()>& read) {
  try {
    return {read(), {}};
  } catch (const araios::ParseError& e) {
    if (e.file() != name) fail("a ParseError names '" + e.file() + "' while reading '" + name + "'");
    const std::string prefix = name + ":" + std::to_string(e.line()) + ": ";
    if (std::string(e.what()).rfind(prefix, 0) != 0) {
      fail("a ParseError does not start with '" + prefix + "': " + e.what());
    }
    return {std::nullopt, "parse error <input>" + std::string(e.what()).substr(name.size())};
  } catch (const araios::InputError& e) {
    // Not a ParseError: a file that cannot be opened, read or decompressed, whose message names
    // the file but quotes none of its content.
    return {std::nullopt, "input error " + replaceAll(e.what(), name, "<input>")};
  }
}

std::uint64_t bitsOf(double value) {
  std::uint64_t bits = 0;
  std::memcpy(&bits, &value, sizeof bits);
  return bits;
}

/// `exactNaN`: NaN payloads must match too (two reads of one text); otherwise any NaN matches
/// any NaN (the writer spells every NaN `nan`).
void requireSameMatrix(const HostMatrix& a, const HostMatrix& b, bool exactNaN, const std::string& what) {
  if (a.numRows != b.numRows || a.numCols != b.numCols) fail(what + ": the sizes differ");
  if (a.row != b.row || a.col != b.col) fail(what + ": the entries' positions differ");
  if (a.value.size() != b.value.size()) fail(what + ": the value counts differ");
  for (std::size_t k = 0; k < a.value.size(); ++k) {
    const bool bothNaN = std::isnan(a.value[k]) && std::isnan(b.value[k]);
    if (bitsOf(a.value[k]) != bitsOf(b.value[k]) && !(bothNaN && !exactNaN)) {
      fail(what + ": value " + std::to_string(k) + " differs");
    }
  }
}

void requireSame(const Outcome& a, const Outcome& b, const std::string& what) {
  if (a.matrix.has_value() != b.matrix.has_value()) {
    fail(what + ": one read gives a matrix, the other the error '" + (a.matrix ? b.error : a.error) + "'");
  }
  if (!a.matrix) {
    if (a.error != b.error) fail(what + ": different errors\n  " + a.error + "\n  " + b.error);
    return;
  }
  requireSameMatrix(*a.matrix, *b.matrix, true, what);
  const auto& ha = a.matrix->header;
  const auto& hb = b.matrix->header;
  if (ha.format != hb.format || ha.field != hb.field || ha.symmetry != hb.symmetry || ha.rows != hb.rows ||
      ha.cols != hb.cols || ha.storedEntries != hb.storedEntries) {
    fail(what + ": the headers differ");
  }
  if (a.matrix->duplicatesSummed != b.matrix->duplicatesSummed) fail(what + ": duplicatesSummed differs");
  if (a.matrix->droppedEntries != b.matrix->droppedEntries) fail(what + ": droppedEntries differs");
}

/// What the reader promises of every matrix it returns.
void requireWellFormed(const HostMatrix& m, bool dropping) {
  const std::size_t count = m.value.size();
  if (m.row.size() != count || m.col.size() != count) fail("the entry arrays differ in length");
  if (m.numRows != m.header.rows || m.numCols != m.header.cols) fail("the size differs from the header's");
  if (m.numRows < 0 || m.numCols < 0 || m.header.storedEntries < 0) fail("a negative size or count");
  // In 128 bits: a size line may announce up to 2^63 - 1 entries.
  const __int128 perStored = m.header.symmetry == araios::io::MatrixMarketSymmetry::General ? 1 : 2;
  if (static_cast<__int128>(count) + m.duplicatesSummed > perStored * m.header.storedEntries) {
    fail("more entries than the size line allows");
  }
  if (!dropping && m.droppedEntries != 0) fail("entries dropped without dropInvalid");
  for (std::size_t k = 0; k < count; ++k) {
    if (m.row[k] < 0 || m.row[k] >= m.numRows || m.col[k] < 0 || m.col[k] >= m.numCols) {
      fail("entry " + std::to_string(k) + " lies outside the matrix");
    }
    if (k > 0 && (m.row[k] < m.row[k - 1] || (m.row[k] == m.row[k - 1] && m.col[k] <= m.col[k - 1]))) {
      fail("entry " + std::to_string(k) + " is out of order or a duplicate");
    }
  }
}

/// A folder for the files of one fuzzing process, on tmpfs where there is one: the writer
/// syncs every file it commits, which costs milliseconds on a disk.
class ScratchFolder {
 public:
  ScratchFolder() {
    const fs::path base = fs::is_directory("/dev/shm") && ::access("/dev/shm", W_OK) == 0
                              ? fs::path("/dev/shm")
                              : fs::temp_directory_path();
    path_ = base / ("araios-fuzz-" + std::to_string(::getpid()));
    fs::create_directories(path_);
  }
  ~ScratchFolder() {
    std::error_code ignored;
    fs::remove_all(path_, ignored);
  }
  std::string file(const std::string& name) const { return (path_ / name).string(); }

 private:
  fs::path path_;
};

const ScratchFolder& scratch() {
  static const ScratchFolder folder;
  return folder;
}

void writeBytes(const std::string& path, std::string_view bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  if (!out) fail("cannot write the scratch file " + path);
}

/// `text` as gzip, cut into two members at `split`: the reader must read a series of members
/// as one text (the writer makes them), wherever the cut falls.
std::string gzipInTwoMembers(std::string_view text, std::size_t split) {
  std::string out;
  for (const std::string_view part : {text.substr(0, split), text.substr(split)}) {
    z_stream stream{};
    constexpr int kGzipWindowBits = 15 + 16;
    if (deflateInit2(&stream, 1, Z_DEFLATED, kGzipWindowBits, 8, Z_DEFAULT_STRATEGY) != Z_OK) fail("deflateInit2");
    std::string member(deflateBound(&stream, static_cast<uLong>(part.size())), '\0');
    stream.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(part.data()));
    stream.avail_in = static_cast<uInt>(part.size());
    stream.next_out = reinterpret_cast<Bytef*>(member.data());
    stream.avail_out = static_cast<uInt>(member.size());
    if (deflate(&stream, Z_FINISH) != Z_STREAM_END) fail("deflate");
    member.resize(member.size() - stream.avail_out);
    deflateEnd(&stream);
    out += member;
  }
  return out;
}

/// The text of a gzip file as zlib's gzread gives it, or nothing when zlib reports damage.
std::optional<std::string> gunzip(const std::string& path) {
  gzFile file = gzopen(path.c_str(), "rb");
  if (!file) fail("gzopen of the scratch file failed");
  std::string text;
  char buffer[1 << 16];
  int got = 0;
  while ((got = gzread(file, buffer, sizeof buffer)) > 0) text.append(buffer, static_cast<std::size_t>(got));
  int code = Z_OK;
  gzerror(file, &code);
  const bool damaged = got < 0 || (code != Z_OK && code != Z_STREAM_END);
  if (gzclose_r(file) != Z_OK || damaged) return std::nullopt;
  return text;
}

/// Varies the reads from one input to the next, reproducibly: taken from the input's hash.
struct Choices {
  explicit Choices(std::string_view input) {
    std::uint64_t hash = 0xcbf29ce484222325ull;
    for (const char c : input) hash = (hash ^ static_cast<unsigned char>(c)) * 0x100000001b3ull;
    threads = 1 + static_cast<int>(hash % 3);
    // Tiny chunks put chunk borders everywhere: inside CRLFs, comments and the header.
    chunkBytes = 1 + static_cast<std::size_t>((hash >> 8) % 64);
    split = static_cast<std::size_t>((hash >> 16) % (input.size() + 1));
    writeThreads = 1 + static_cast<int>((hash >> 32) % 2);
    gzipRoundTrip = ((hash >> 40) & 1) != 0;
  }
  int threads;
  std::size_t chunkBytes;
  std::size_t split;
  int writeThreads;
  bool gzipRoundTrip;
};

/// Chunk size of the reference reads from files: more than any input the fuzzer makes (so one
/// chunk, as the default would give), without the default's 4 MiB buffer, which filling with
/// zeros for every input would take most of the time.
constexpr std::size_t kWholeInputChunkBytes = std::size_t{64} << 10;

ReadOptions optionsOf(int threads, std::size_t chunkBytes, bool dropInvalid) {
  ReadOptions options;
  options.threads = threads;
  options.chunkBytes = chunkBytes;
  options.dropInvalid = dropInvalid;
  return options;
}

void roundTrip(const HostMatrix& matrix, const Choices& choices) {
  const std::string path = scratch().file(choices.gzipRoundTrip ? "round-trip.mtx.gz" : "round-trip.mtx");
  araios::io::WriteOptions options;
  options.threads = choices.writeThreads;
  araios::io::writeMatrixMarket(path, matrix, options);
  const HostMatrix read = araios::io::readMatrixMarket(path, optionsOf(1, kWholeInputChunkBytes, false));
  requireSameMatrix(read, matrix, false, "write/read round trip");
}

/// The name a text in memory is read under: with a control byte, which the reader's messages
/// show escaped wherever they quote the text, so that replacing it cannot touch quoted text.
const std::string kMemoryName = "text\x01";

void fuzzText(std::string_view text, const Choices& choices) {
  const std::string& name = kMemoryName;
  const std::string textCopy(text);
  const auto inMemory = [&](const ReadOptions& options) {
    return outcomeOf(name, [&] { return araios::io::parseMatrixMarket(textCopy, name, options); });
  };
  const Outcome reference = inMemory(optionsOf(1, 0, false));
  requireSame(reference, inMemory(optionsOf(choices.threads, choices.chunkBytes, false)),
              "in memory, 1 thread vs " + std::to_string(choices.threads) + " threads in chunks of " +
                  std::to_string(choices.chunkBytes) + " bytes");

  // One thread where the threads are not the point: under AddressSanitizer, starting a thread
  // costs more than reading a small input.
  const std::string plain = scratch().file("input.mtx");
  writeBytes(plain, text);
  requireSame(reference, outcomeOf(plain, [&] {
                return araios::io::readMatrixMarket(plain, optionsOf(1, choices.chunkBytes + 7, false));
              }),
              "in memory vs a plain file");

  const std::string gzip = scratch().file("input.mtx.gz");
  writeBytes(gzip, gzipInTwoMembers(text, choices.split));
  requireSame(reference, outcomeOf(gzip, [&] {
                return araios::io::readMatrixMarket(gzip, optionsOf(choices.threads, choices.chunkBytes, false));
              }),
              "in memory vs a gzip file of two members cut at byte " + std::to_string(choices.split));

  const Outcome dropping = inMemory(optionsOf(1, 0, true));
  requireSame(dropping, inMemory(optionsOf(1, choices.chunkBytes, true)), "dropInvalid, in small chunks");
  if (dropping.matrix) requireWellFormed(*dropping.matrix, true);

  if (reference.matrix) {
    requireWellFormed(*reference.matrix, false);
    roundTrip(*reference.matrix, choices);
  }
}

void fuzzGzip(std::string_view bytes, const Choices& choices) {
  const std::string path = scratch().file("input.gz");
  writeBytes(path, bytes);
  const auto fromFile = [&](const ReadOptions& options) {
    return outcomeOf(path, [&] { return araios::io::readMatrixMarket(path, options); });
  };
  const Outcome reference = fromFile(optionsOf(1, kWholeInputChunkBytes, false));
  requireSame(reference, fromFile(optionsOf(choices.threads, choices.chunkBytes, false)),
              "gzip file, 1 thread vs several in small chunks");
  const std::optional<std::string> text = gunzip(path);
  if (!text) {
    if (reference.error.rfind("input error cannot decompress <input>: ", 0) != 0) {
      fail("zlib finds the gzip data damaged, the reader says: " +
           (reference.matrix ? std::string("(a matrix)") : reference.error));
    }
    return;
  }
  const std::string& name = kMemoryName;
  requireSame(outcomeOf(name, [&] { return araios::io::parseMatrixMarket(*text, name, optionsOf(1, 0, false)); }),
              reference, "gzip file vs its text decompressed by zlib");
  // The text itself gets every check of a plain input too, so that the gzip seeds (the shared
  // parser files) exercise the reader as much as their decompressed copies.
  const bool nested = text->size() >= 2 && (*text)[0] == '\x1f' && (*text)[1] == '\x8b';
  if (!nested) fuzzText(*text, Choices(*text));
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  const Choices choices(input);
  const bool gzip = size >= 2 && data[0] == 0x1f && data[1] == 0x8b;
  if (gzip) {
    fuzzGzip(input, choices);
  } else {
    fuzzText(input, choices);
  }
  return 0;
}
