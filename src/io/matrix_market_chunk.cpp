// One chunk of Matrix Market data lines, parsed on its own. The messages are those of a
// sequential read; only the line numbers are relative to the chunk (ParsedChunk::failure).
// Also the parsing of a source's chunks on several threads, handed over in file order, and the
// checks that need the lines and entries before a chunk.
#include "matrix_market_chunk.hpp"

#include <araios/error.hpp>

#include "mm_text.hpp"

#include <algorithm>
#include <charconv>
#include <condition_variable>
#include <exception>
#include <map>
#include <mutex>
#include <system_error>
#include <thread>

namespace araios::io::detail {
namespace {

/// A guess of the bytes one data line takes ("123456 654321 -1.2345678901234567e-01\n" is 40),
/// to reserve the entry arrays once instead of growing them a dozen times per chunk.
constexpr std::size_t kTypicalLineBytes = 32;

/// Past the line that `p` is in, ending included.
const char* pastLineEnd(const char* p, const char* end) {
  while (p != end && !isLineEnd(*p)) ++p;
  if (p != end) {
    if (*p == '\r' && p + 1 != end && p[1] == '\n') ++p;
    ++p;
  }
  return p;
}

const char* skipBlanks(const char* p, const char* end) {
  while (p != end && isBlank(*p)) ++p;
  return p;
}

const char* tokenEnd(const char* p, const char* end) {
  while (p != end && !isBlank(*p) && !isLineEnd(*p)) ++p;
  return p;
}

std::string_view between(const char* begin, const char* end) {
  return std::string_view(begin, static_cast<std::size_t>(end - begin));
}

class ChunkParser {
 public:
  ChunkParser(const MatrixMarketHeader& header, const ReadOptions& options, ParsedChunk& out)
      : header_(header), options_(options), out_(out) {}

  void run(std::string_view text) {
    const char* p = text.data();
    const char* end = p + text.size();
    reserve(text.size());
    const bool coordinate = header_.format == MatrixMarketFormat::Coordinate;
    while (p != end) {
      ++out_.lines;
      const char* q = skipBlanks(p, end);
      if (q == end || isLineEnd(*q) || *q == '%') {  // a blank line or a comment
        p = pastLineEnd(q, end);
        continue;
      }
      const bool ok = coordinate ? parseCoordinateLine(q, end) : parseArrayLine(q, end);
      if (!ok) return;
      ++out_.dataLines;
      p = pastLineEnd(q, end);
    }
  }

 private:
  bool fail(const std::string& problem, const std::string& expected) {
    out_.failure = ChunkFailure{out_.lines, problem, expected};
    return false;
  }

  void reserve(std::size_t bytes) {
    const std::size_t lines = bytes / kTypicalLineBytes + 1;
    if (header_.format == MatrixMarketFormat::Array) {
      out_.value.reserve(lines);
      return;
    }
    const std::size_t entries = header_.symmetry == MatrixMarketSymmetry::General ? lines : 2 * lines;
    out_.row.reserve(entries);
    out_.col.reserve(entries);
    out_.value.reserve(entries);
  }

  std::string entryForm() const {
    return header_.field == MatrixMarketField::Pattern ? "'ROW COL'" : "'ROW COL VALUE'";
  }

  /// `q` is at the line's first token; on return it is somewhere in the same line.
  bool parseCoordinateLine(const char*& q, const char* end) {
    std::int64_t row = 0, col = 0;
    double value = 1.0;
    const char* lineStart = q;
    // A nonzero skew-symmetric diagonal is refused quoting the value's text: the token path keeps it.
    if (scanPlainEntry(q, end, row, col, value) && !isNonzeroSkewDiagonal(row, col, value)) {
      return acceptEntry(row, col, value, std::string_view());
    }
    q = lineStart;
    return parseCoordinateTokens(q, end);
  }

  /// The common line, "ROW COL VALUE" with plain digits for the indices and a value that
  /// from_chars takes whole, scanned and converted in one pass. Returns false, having changed
  /// nothing, on anything else (a sign, a huge index, a value out of range, a missing or extra
  /// token, an integer field): parseCoordinateTokens then reads the line the general way, which
  /// finds the same numbers for every line this accepts.
  bool scanPlainEntry(const char*& q, const char* end, std::int64_t& row, std::int64_t& col, double& value) const {
    if (!scanDigits(q, end, row)) return false;
    q = skipBlanks(q, end);
    if (!scanDigits(q, end, col)) return false;
    if (header_.field == MatrixMarketField::Real) {
      q = skipBlanks(q, end);
      if (q == end || *q == '+') return false;
      const auto [stop, error] = std::from_chars(q, end, value, std::chars_format::general);
      if (error != std::errc() || stop == q || (stop != end && !isBlank(*stop) && !isLineEnd(*stop))) return false;
      q = stop;
    } else if (header_.field != MatrixMarketField::Pattern) {
      return false;
    }
    q = skipBlanks(q, end);
    return q == end || isLineEnd(*q);
  }

  /// Up to 18 decimal digits (which cannot overflow int64) ending the token. A 19th digit
  /// stops the scan before it is multiplied in: longer numbers are the general path's to read
  /// or refuse, and accumulating them here would overflow.
  static bool scanDigits(const char*& q, const char* end, std::int64_t& value) {
    constexpr std::ptrdiff_t kSafeDigits = 18;
    const char* begin = q;
    std::int64_t v = 0;
    while (q != end) {
      const unsigned digit = static_cast<unsigned char>(*q) - '0';
      if (digit > 9) break;
      if (q - begin == kSafeDigits) return false;
      v = v * 10 + digit;
      ++q;
    }
    if (q == begin) return false;
    if (q != end && !isBlank(*q) && !isLineEnd(*q)) return false;
    value = v;
    return true;
  }

  bool parseCoordinateTokens(const char*& q, const char* end) {
    const char* rowBegin = q;
    q = tokenEnd(q, end);
    const std::string_view rowToken = between(rowBegin, q);
    q = skipBlanks(q, end);
    if (q == end || isLineEnd(*q)) return fail("missing column index", entryForm());
    const char* colBegin = q;
    q = tokenEnd(q, end);
    const std::string_view colToken = between(colBegin, q);
    std::string_view valueToken;
    const bool hasValue = header_.field != MatrixMarketField::Pattern;
    if (hasValue) {
      q = skipBlanks(q, end);
      if (q == end || isLineEnd(*q)) return fail("missing value", entryForm());
      const char* valueBegin = q;
      q = tokenEnd(q, end);
      valueToken = between(valueBegin, q);
    }
    q = skipBlanks(q, end);
    if (q != end && !isLineEnd(*q)) {
      return fail("extra token " + quoted(between(q, tokenEnd(q, end))) + " after the entry", entryForm());
    }

    std::int64_t row = 0, col = 0;
    double value = 1.0;
    if (!parseIndex(rowToken, "row", header_.rows, row)) return false;
    if (!parseIndex(colToken, "column", header_.cols, col)) return false;
    if (hasValue && !parseValue(valueToken, value)) return false;
    return acceptEntry(row, col, value, valueToken);
  }

  /// The checks on an entry's numbers, and its storing. `valueToken` is quoted when the entry
  /// is a nonzero skew-symmetric diagonal, which the fast path never passes on.
  bool acceptEntry(std::int64_t row, std::int64_t col, double value, std::string_view valueToken) {
    if (!isInRange(row, header_.rows) || !isInRange(col, header_.cols)) {
      if (options_.dropInvalid) {
        ++out_.dropped;
        return true;
      }
      return refuseOutOfRange(row, col);
    }
    if (isNonzeroSkewDiagonal(row, col, value)) {
      return fail("diagonal entry (" + std::to_string(row) + ", " + std::to_string(col) + ") = " +
                      std::string(valueToken) + " in a skew-symmetric matrix",
                  "no diagonal entries, or zeros (a skew-symmetric matrix has a zero diagonal)");
    }
    addEntry(row - 1, col - 1, value);
    return true;
  }

  bool isNonzeroSkewDiagonal(std::int64_t row, std::int64_t col, double value) const {
    return header_.symmetry == MatrixMarketSymmetry::SkewSymmetric && row == col && !(value == 0.0);
  }

  static bool isInRange(std::int64_t index, std::int64_t size) { return index >= 1 && index <= size; }

  /// Parses a 1-based index; the range is checked by the caller (dropInvalid may skip it), but
  /// tokens that are not integers at all are always refused.
  bool parseIndex(std::string_view token, const char* which, std::int64_t size, std::int64_t& index) {
    const NumberStatus status = parseInt64(token, index);
    if (status == NumberStatus::Ok) return true;
    const char* problem = status == NumberStatus::NotANumber ? " is not an integer" : " does not fit in a 64-bit integer";
    return fail(std::string(which) + " index " + quoted(token) + problem, "an integer from 1 to " + std::to_string(size));
  }

  bool refuseOutOfRange(std::int64_t row, std::int64_t col) {
    const bool rowBad = !isInRange(row, header_.rows);
    const std::int64_t index = rowBad ? row : col;
    const std::int64_t size = rowBad ? header_.rows : header_.cols;
    const std::string which = rowBad ? "row" : "column";
    return fail(which + " index " + std::to_string(index) + " is out of range" +
                    (index == 0 ? " (indices are 1-based)" : ""),
                "1 to " + std::to_string(size) + " (the matrix has " + std::to_string(size) + " " + which + "s)");
  }

  bool parseValue(std::string_view token, double& value) {
    if (header_.field == MatrixMarketField::Integer) return parseIntegerValue(token, value);
    if (parseReal(token, value) == NumberStatus::Ok) return true;
    return fail("value " + quoted(token) + " is not a number", "a real number such as 1.5, -2e3, nan or inf");
  }

  /// The values of an `integer` matrix are read as int64, so that a value like 1.5 is caught,
  /// then stored as double (exactly up to 2^53).
  bool parseIntegerValue(std::string_view token, double& value) {
    std::int64_t integer = 0;
    switch (parseInt64(token, integer)) {
      case NumberStatus::NotANumber:
        return fail("value " + quoted(token) + " is not an integer", "an integer value (the banner says 'integer')");
      case NumberStatus::OutOfRange:
        return fail("value " + quoted(token) + " does not fit in a 64-bit integer",
                    "an integer value of at most 2^63 - 1");
      case NumberStatus::Ok: break;
    }
    value = static_cast<double>(integer);
    return true;
  }

  void push(std::int64_t row, std::int64_t col, double value) {
    if (!out_.row.empty()) {
      const std::int64_t lastRow = out_.row.back();
      if (row < lastRow || (row == lastRow && col < out_.col.back())) out_.sorted = false;
    }
    out_.row.push_back(row);
    out_.col.push_back(col);
    out_.value.push_back(value);
  }

  /// Stores a 0-based entry and, for a symmetric file, its mirror. Both triangles are accepted:
  /// if a symmetric file holds (i, j) and (j, i), each one's mirror lands on the other, and the
  /// duplicates are summed like any others.
  void addEntry(std::int64_t row, std::int64_t col, double value) {
    push(row, col, value);
    if (row == col) return;
    if (header_.symmetry == MatrixMarketSymmetry::Symmetric) push(col, row, value);
    if (header_.symmetry == MatrixMarketSymmetry::SkewSymmetric) push(col, row, -value);
  }

  /// An array file holds one value per line; its position comes from the line's place in the
  /// file, which the chunk does not know, so only the value is kept here.
  bool parseArrayLine(const char*& q, const char* end) {
    const char* valueBegin = q;
    q = tokenEnd(q, end);
    const std::string_view valueToken = between(valueBegin, q);
    q = skipBlanks(q, end);
    if (q != end && !isLineEnd(*q)) {
      return fail("extra token " + quoted(between(q, tokenEnd(q, end))) + " after the value",
                  "one value per line in an array file");
    }
    double value = 0;
    if (!parseValue(valueToken, value)) return false;
    out_.value.push_back(value);
    return true;
  }

  const MatrixMarketHeader& header_;
  const ReadOptions& options_;
  ParsedChunk& out_;
};

}  // namespace

void parseChunk(std::string_view text, const MatrixMarketHeader& header, const ReadOptions& options,
                ParsedChunk& out) {
  ChunkParser(header, options, out).run(text);
}

std::int64_t lineOfDataLine(std::string_view text, std::int64_t k) {
  LineReader lines(text);
  std::string_view line;
  std::int64_t seen = 0;
  while (lines.next(line)) {
    if (isDataLine(line) && ++seen == k) return lines.lineNumber();
  }
  return lines.lineNumber();
}

std::int64_t lineOfDataLine(ChunkSource& source, std::int64_t k) {
  std::int64_t linesBefore = 0, seen = 0;
  TextChunk chunk;
  while (source.next(chunk)) {
    LineReader lines(chunk.text());
    std::string_view line;
    while (lines.next(line)) {
      if (isDataLine(line) && ++seen == k) return linesBefore + lines.lineNumber();
    }
    linesBefore += lines.lineNumber();
  }
  return linesBefore;
}

int parserThreads(const ReadOptions& options) {
  if (options.threads > 0) return options.threads;
  return static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
}

namespace {

/// Chunks a thread may have parsed ahead of the one that is put in place next. Two keep every
/// thread busy while one waits for a slow chunk; the text in memory is at most about
/// (kChunksAheadPerThread * threads + 1) chunks.
constexpr std::size_t kChunksAheadPerThread = 2;

struct Job {
  TextChunk chunk;
  ParsedChunk parsed;
};

/// The threads of parseChunksInOrder: each takes the next chunk of text, parses it, and files it;
/// whichever thread finds the next chunk in line hands it (and those after it, ready) to the
/// commit, one thread at a time.
class ChunkPipeline {
 public:
  ChunkPipeline(ChunkSource& source, std::optional<TextChunk> first, const MatrixMarketHeader& header,
                const ReadOptions& options, const ChunkCommit& commit)
      : source_(source),
        header_(header),
        options_(options),
        commit_(commit),
        window_(kChunksAheadPerThread * static_cast<std::size_t>(parserThreads(options)) + 1),
        pendingFirst_(std::move(first)) {}

  void run() {
    const int threads = parserThreads(options_);
    std::vector<std::thread> helpers;
    helpers.reserve(static_cast<std::size_t>(threads - 1));
    for (int t = 1; t < threads; ++t) helpers.emplace_back([this] { work(); });
    work();
    for (std::thread& helper : helpers) helper.join();
    if (error_) std::rethrow_exception(error_);
  }

 private:
  void work() {
    for (;;) {
      Job job;
      std::size_t index = 0;
      if (!takeChunk(job.chunk, index)) return;
      try {
        parseChunk(job.chunk.text(), header_, options_, job.parsed);
        commitInOrder(index, std::move(job));
      } catch (...) {  // out of memory: nothing may escape a thread
        fail(std::current_exception());
        return;
      }
    }
  }

  /// The next chunk of text and its place in the file; false when there is none left or the
  /// read has stopped. Waits while the thread would run too far ahead of the chunks in place.
  bool takeChunk(TextChunk& chunk, std::size_t& index) {
    std::lock_guard<std::mutex> reading(sourceMutex_);  // the text is read in order
    {
      std::unique_lock<std::mutex> lock(mutex_);
      progress_.wait(lock, [&] { return stopped_ || handedOut_ < committed_ + window_; });
      if (stopped_ || sourceDone_) return false;
      index = handedOut_;
    }
    bool got = false;
    try {
      if (pendingFirst_) {
        chunk = std::move(*pendingFirst_);
        pendingFirst_.reset();
        got = true;
      } else {
        got = source_.next(chunk);
      }
    } catch (...) {
      fail(std::current_exception());
      return false;
    }
    std::lock_guard<std::mutex> lock(mutex_);
    if (!got) {
      sourceDone_ = true;
      return false;
    }
    ++handedOut_;
    return true;
  }

  void commitInOrder(std::size_t index, Job job) {
    std::unique_lock<std::mutex> lock(mutex_);
    ready_.emplace(index, std::move(job));
    if (committing_) return;
    committing_ = true;
    while (!stopped_ && !ready_.empty() && ready_.begin()->first == committed_) {
      Job next = std::move(ready_.begin()->second);
      ready_.erase(ready_.begin());
      lock.unlock();
      bool goOn = false;
      try {
        goOn = commit_(next.chunk, next.parsed);
      } catch (...) {
        lock.lock();
        stopped_ = true;
        if (!error_) error_ = std::current_exception();
        break;
      }
      lock.lock();
      ++committed_;
      if (!goOn) stopped_ = true;
      progress_.notify_all();
    }
    committing_ = false;
    progress_.notify_all();
  }

  void fail(std::exception_ptr error) {
    std::lock_guard<std::mutex> lock(mutex_);
    stopped_ = true;
    if (!error_) error_ = error;
    progress_.notify_all();
  }

  ChunkSource& source_;
  const MatrixMarketHeader& header_;
  const ReadOptions& options_;
  const ChunkCommit& commit_;
  const std::size_t window_;

  std::mutex sourceMutex_;
  std::optional<TextChunk> pendingFirst_;

  std::mutex mutex_;  // guards what follows
  std::condition_variable progress_;
  std::size_t handedOut_ = 0;
  std::size_t committed_ = 0;
  bool sourceDone_ = false;
  bool stopped_ = false;  // by an error, or by the commit
  bool committing_ = false;
  std::exception_ptr error_;
  std::map<std::size_t, Job> ready_;
};

const char* itemsName(const MatrixMarketHeader& header) {
  return header.format == MatrixMarketFormat::Coordinate ? "entries" : "values";
}

}  // namespace

void parseChunksInOrder(ChunkSource& source, std::optional<TextChunk> first, const MatrixMarketHeader& header,
                        const ReadOptions& options, const ChunkCommit& commit) {
  ChunkPipeline(source, std::move(first), header, options, commit).run();
}

void checkDataRun(const ParsedChunk& run, std::int64_t found, std::int64_t linesBefore, const HeaderInfo& info,
                  const std::string& name, const std::function<std::int64_t(std::int64_t)>& lineOfDataLine) {
  const std::int64_t room = info.header.storedEntries - found;
  const std::int64_t reached = run.dataLines + (run.failure ? 1 : 0);
  // A sequential read refuses the first data line past the size line's count before looking
  // at what it holds: that refusal comes before any problem the line itself has.
  if (reached > room) {
    const std::int64_t k = room + 1;
    const std::int64_t line = (run.failure && k == reached) ? run.failure->line : lineOfDataLine(k);
    const std::string count = std::to_string(info.header.storedEntries);
    const char* items = itemsName(info.header);
    throw ParseError(name, linesBefore + line,
                     std::string("more ") + items + " than the " + count + " that the size line (line " +
                         std::to_string(info.sizeLineNumber) + ") announces",
                     count + " " + items);
  }
  if (run.failure) {
    throw ParseError(name, linesBefore + run.failure->line, run.failure->problem, run.failure->expected);
  }
}

void refuseTruncation(const HeaderInfo& info, const std::string& name, std::int64_t lastLine, std::int64_t found) {
  const std::string count = std::to_string(info.header.storedEntries);
  const char* items = itemsName(info.header);
  throw ParseError(name, lastLine, "the file ends after " + std::to_string(found) + " of " + count + " " + items,
                   count + " " + items + ", as the size line (line " + std::to_string(info.sizeLineNumber) +
                       ") says");
}

}  // namespace araios::io::detail
