// Putting the parsed chunks together. The entries are kept as three arrays in file order; the
// sort then needs at most two more arrays of the same length (none when the file is already in
// order), where sorting an array of (row, column, value) records needed three.
#include "matrix_market_assembly.hpp"

#include <algorithm>
#include <thread>
#include <utility>

namespace araios::io::detail {
namespace {

/// Rows up to this length are sorted by insertion: the common case, where a linear scan and a
/// few moves beat setting up a merge sort.
constexpr std::int64_t kInsertionSortLength = 32;

/// Entries reserved before any has been read (1.5 MiB in the three arrays): enough for most
/// small files in one step, and all a size line alone can make the reader allocate.
constexpr std::uint64_t kFirstReserveEntries = std::uint64_t{1} << 16;
/// Past the first step, the arrays grow to the entry count projected from the share of the text
/// read so far (when the text's size is known) with this margin, so that a file whose lines get
/// shorter further on still gets its count in one step rather than a copy near the end; the
/// size line's count caps it. Without a known size (gzip), they double, as vectors do.
constexpr long double kProjectionMargin = 1.25L;

std::int64_t firstArrayRow(const MatrixMarketHeader& header, std::int64_t col) {
  switch (header.symmetry) {
    case MatrixMarketSymmetry::General: return 0;
    case MatrixMarketSymmetry::Symmetric: return col;
    case MatrixMarketSymmetry::SkewSymmetric: return col + 1;
  }
  return 0;
}

/// An entry of a row being sorted: column and value side by side, so that the scatter by row
/// touches one cache line per entry rather than two.
struct ColumnValue {
  std::int64_t col;
  double value;
};

/// Sorts one row's entries by column, keeping equal columns in file order.
void sortRowStably(ColumnValue* entries, std::int64_t length) {
  const auto byColumn = [](const ColumnValue& a, const ColumnValue& b) { return a.col < b.col; };
  if (std::is_sorted(entries, entries + length, byColumn)) return;
  if (length <= kInsertionSortLength) {
    for (std::int64_t k = 1; k < length; ++k) {
      const ColumnValue e = entries[k];
      std::int64_t j = k;
      for (; j > 0 && entries[j - 1].col > e.col; --j) entries[j] = entries[j - 1];
      entries[j] = e;
    }
    return;
  }
  std::stable_sort(entries, entries + length, byColumn);
}

/// Runs body(t) for t in [0, threads) on as many threads (the caller's among them).
template <class Body>
void onThreads(int threads, Body body) {
  std::vector<std::thread> helpers;
  for (int t = 1; t < threads; ++t) helpers.emplace_back(body, t);
  body(0);
  for (std::thread& helper : helpers) helper.join();
}

/// [first, last) of part t of n items cut into `parts` nearly equal parts.
std::pair<std::size_t, std::size_t> partOf(std::size_t n, int parts, int t) {
  return {n * static_cast<std::size_t>(t) / static_cast<std::size_t>(parts),
          n * static_cast<std::size_t>(t + 1) / static_cast<std::size_t>(parts)};
}

/// Sorts file-order entries by row with a stable counting sort, then each row by column. The
/// entries are cut into one stretch per thread, in file order; each thread counts its rows,
/// and gets, for every row, a place after the same row's entries of the stretches before its
/// own, so the parallel scatter keeps file order within each row. The row array is rebuilt from
/// the counts; the columns and values go through one array of pairs.
void sortByRowThenColumn(std::vector<std::int64_t>& row, std::vector<std::int64_t>& col,
                         std::vector<double>& value, std::int64_t rows, int threads) {
  const std::size_t count = value.size();
  const auto numRows = static_cast<std::size_t>(rows);
  // Per-thread counts take threads x rows integers: no more threads than keep that below the
  // entries themselves.
  const int parts = static_cast<int>(std::clamp<std::size_t>(count / (numRows + 1), 1, static_cast<std::size_t>(threads)));
  std::vector<std::vector<std::int64_t>> next(static_cast<std::size_t>(parts));  // per stretch: each row's next place
  onThreads(parts, [&](int t) {
    std::vector<std::int64_t>& counts = next[static_cast<std::size_t>(t)];
    counts.assign(numRows, 0);
    const auto [first, last] = partOf(count, parts, t);
    for (std::size_t k = first; k < last; ++k) ++counts[static_cast<std::size_t>(row[k])];
  });
  std::vector<std::int64_t> start(numRows + 1, 0);
  for (std::size_t r = 0; r < numRows; ++r) {
    std::int64_t at = start[r];
    for (auto& counts : next) {
      const std::int64_t c = counts[r];
      counts[r] = at;
      at += c;
    }
    start[r + 1] = at;
  }
  std::vector<ColumnValue> sorted(count);
  onThreads(parts, [&](int t) {
    std::vector<std::int64_t>& place = next[static_cast<std::size_t>(t)];
    const auto [first, last] = partOf(count, parts, t);
    for (std::size_t k = first; k < last; ++k) {
      sorted[static_cast<std::size_t>(place[static_cast<std::size_t>(row[k])]++)] = {col[k], value[k]};
    }
  });
  next.clear();
  // Rows are independent from here: each thread takes a stretch of rows, sorts each by column
  // and writes it back.
  onThreads(threads, [&](int t) {
    const auto [first, last] = partOf(numRows, threads, t);
    for (std::size_t r = first; r < last; ++r) {
      sortRowStably(sorted.data() + start[r], start[r + 1] - start[r]);
      for (std::int64_t k = start[r]; k < start[r + 1]; ++k) {
        row[k] = static_cast<std::int64_t>(r);
        col[k] = sorted[k].col;
        value[k] = sorted[k].value;
      }
    }
  });
}

/// For hypersparse matrices, whose row counts would dwarf the entries: a comparison sort.
void sortByPosition(std::vector<std::int64_t>& row, std::vector<std::int64_t>& col, std::vector<double>& value) {
  struct Entry {
    std::int64_t row;
    std::int64_t col;
    double value;
  };
  std::vector<Entry> entries(value.size());
  for (std::size_t k = 0; k < value.size(); ++k) entries[k] = {row[k], col[k], value[k]};
  std::stable_sort(entries.begin(), entries.end(),
                   [](const Entry& a, const Entry& b) { return a.row != b.row ? a.row < b.row : a.col < b.col; });
  for (std::size_t k = 0; k < value.size(); ++k) {
    row[k] = entries[k].row;
    col[k] = entries[k].col;
    value[k] = entries[k].value;
  }
}

/// Adds each entry into the first one at its position, in order, and closes the gaps.
std::int64_t mergeDuplicates(std::vector<std::int64_t>& row, std::vector<std::int64_t>& col,
                             std::vector<double>& value) {
  const std::size_t count = value.size();
  std::int64_t* r = row.data();
  std::int64_t* c = col.data();
  double* v = value.data();
  std::size_t kept = 0;
  for (std::size_t k = 0; k < count; ++k) {
    if (kept > 0 && r[k] == r[kept - 1] && c[k] == c[kept - 1]) {
      v[kept - 1] += v[k];
      continue;
    }
    r[kept] = r[k];
    c[kept] = c[k];
    v[kept] = v[k];
    ++kept;
  }
  row.resize(kept);
  col.resize(kept);
  value.resize(kept);
  // Many duplicates: give the unused tail back (a copy, so only when it is worth it).
  if (kept < count - count / 8) {
    row.shrink_to_fit();
    col.shrink_to_fit();
    value.shrink_to_fit();
  }
  return static_cast<std::int64_t>(count - kept);
}

}  // namespace

EntryAssembler::EntryAssembler(const MatrixMarketHeader& header, std::uint64_t textBytes, bool textBytesExact)
    : header_(header), textBytes_(textBytes), textBytesExact_(textBytesExact) {
  const std::uint64_t perStored = header.symmetry == MatrixMarketSymmetry::General ? 1 : 2;
  const std::uint64_t stored = std::min<std::uint64_t>(static_cast<std::uint64_t>(header.storedEntries),
                                                       textBytes / 2 + 1);
  maxEntries_ = stored * perStored;
  const std::uint64_t first = std::min(maxEntries_, kFirstReserveEntries);
  row_.reserve(first);
  col_.reserve(first);
  value_.reserve(first);
  arrayRow_ = firstArrayRow(header_, 0);
}

void EntryAssembler::reserveFor(std::uint64_t entries) {
  const std::uint64_t capacity = value_.capacity();
  if (entries <= capacity) return;
  std::uint64_t target = std::max(entries, 2 * capacity);
  if (textBytesExact_ && textSeen_ > 0) {
    const long double projected =
        static_cast<long double>(entries) * kProjectionMargin * static_cast<long double>(textBytes_) /
        static_cast<long double>(textSeen_);
    if (projected > static_cast<long double>(target)) {
      target = projected >= static_cast<long double>(maxEntries_) ? maxEntries_ : static_cast<std::uint64_t>(projected);
    }
  }
  // Never past what the file can hold, but always what this chunk needs.
  target = std::max(entries, std::min(target, maxEntries_));
  row_.reserve(target);
  col_.reserve(target);
  value_.reserve(target);
}

void EntryAssembler::append(ParsedChunk& chunk, std::size_t chunkTextBytes) {
  textSeen_ += chunkTextBytes;
  if (header_.format == MatrixMarketFormat::Coordinate) {
    appendCoordinate(chunk);
  } else {
    appendArray(chunk);
  }
  chunk.row = {};
  chunk.col = {};
  chunk.value = {};
}

void EntryAssembler::appendCoordinate(ParsedChunk& chunk) {
  if (chunk.value.empty()) return;
  if (!chunk.sorted) sorted_ = false;
  reserveFor(value_.size() + chunk.value.size());
  if (sorted_ && !row_.empty()) {
    const std::int64_t r = chunk.row.front();
    if (r < row_.back() || (r == row_.back() && chunk.col.front() < col_.back())) sorted_ = false;
  }
  row_.insert(row_.end(), chunk.row.begin(), chunk.row.end());
  col_.insert(col_.end(), chunk.col.begin(), chunk.col.end());
  value_.insert(value_.end(), chunk.value.begin(), chunk.value.end());
}

void EntryAssembler::push(std::int64_t row, std::int64_t col, double value) {
  if (!row_.empty() && (row < row_.back() || (row == row_.back() && col < col_.back()))) sorted_ = false;
  row_.push_back(row);
  col_.push_back(col);
  value_.push_back(value);
}

/// Array values come column by column; a symmetric file holds the lower triangle with the
/// diagonal, a skew-symmetric file the strict lower triangle. The caller has checked that the
/// file holds no more values than the size line says, so a next position always exists.
void EntryAssembler::appendArray(const ParsedChunk& chunk) {
  const std::uint64_t perValue = header_.symmetry == MatrixMarketSymmetry::General ? 1 : 2;
  reserveFor(value_.size() + perValue * chunk.value.size());
  for (const double value : chunk.value) {
    while (arrayRow_ >= header_.rows) arrayRow_ = firstArrayRow(header_, ++arrayCol_);
    push(arrayRow_, arrayCol_, value);
    if (arrayRow_ != arrayCol_) {
      if (header_.symmetry == MatrixMarketSymmetry::Symmetric) push(arrayCol_, arrayRow_, value);
      if (header_.symmetry == MatrixMarketSymmetry::SkewSymmetric) push(arrayCol_, arrayRow_, -value);
    }
    ++arrayRow_;
  }
}

HostMatrix EntryAssembler::finish(int threads) {
  if (!sorted_) {
    const auto count = static_cast<std::int64_t>(value_.size());
    if (header_.rows > 2 * count + 4096) {
      sortByPosition(row_, col_, value_);
    } else {
      sortByRowThenColumn(row_, col_, value_, header_.rows, threads);
    }
  }
  HostMatrix matrix;
  matrix.numRows = header_.rows;
  matrix.numCols = header_.cols;
  matrix.header = header_;
  matrix.duplicatesSummed = mergeDuplicates(row_, col_, value_);
  matrix.row = std::move(row_);
  matrix.col = std::move(col_);
  matrix.value = std::move(value_);
  return matrix;
}

}  // namespace araios::io::detail
