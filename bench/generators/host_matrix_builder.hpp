#pragma once
// Assembling a generated matrix row by row, and the statistics the generators are judged by.
// Every generator emits its rows in order, each row's columns sorted and distinct, so the
// result is already what io::readMatrixMarket returns: sorted by (row, column), no duplicates.
#include "rng.hpp"

#include <araios/error.hpp>
#include <araios/io/matrix_market.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

namespace araios::bench::gen {

/// Values of the generated matrices that carry no physics: uniform in [-1, 1), so products
/// cancel in sums as they do in real data and the accuracy check sees rounding at work.
constexpr double kValueLow = -1.0;
constexpr double kValueHigh = 1.0;

class MatrixAssembler {
 public:
  MatrixAssembler(std::int64_t rows, std::int64_t cols, std::int64_t expectedNnz) {
    m_.numRows = rows;
    m_.numCols = cols;
    m_.row.reserve(static_cast<std::size_t>(expectedNnz));
    m_.col.reserve(static_cast<std::size_t>(expectedNnz));
    m_.value.reserve(static_cast<std::size_t>(expectedNnz));
  }

  /// Appends row `r` (rows come in increasing order) with sorted, distinct columns and values
  /// drawn from `values`.
  void appendRow(std::int64_t r, const std::vector<std::int64_t>& sortedCols, Rng& values) {
    for (const std::int64_t c : sortedCols) {
      m_.row.push_back(r);
      m_.col.push_back(c);
      m_.value.push_back(values.uniform(kValueLow, kValueHigh));
    }
  }

  /// Appends one entry with a given value (the stencils' fixed coefficients).
  void append(std::int64_t r, std::int64_t c, double v) {
    m_.row.push_back(r);
    m_.col.push_back(c);
    m_.value.push_back(v);
  }

  io::HostMatrix finish() {
    m_.header.rows = m_.numRows;
    m_.header.cols = m_.numCols;
    m_.header.storedEntries = m_.nnz();
    return std::move(m_);
  }

 private:
  io::HostMatrix m_;
};

/// Sorts `cols` and removes repeated columns.
inline void sortUnique(std::vector<std::int64_t>& cols) {
  std::sort(cols.begin(), cols.end());
  cols.erase(std::unique(cols.begin(), cols.end()), cols.end());
}

/// Fills `cols` with `length` distinct columns in [0, numCols), drawn by `draw()` (which may
/// repeat itself or return -1 for "no column this time"). Draws the shortfall again until the
/// row is full; a row that the distribution cannot fill within kMaxRounds (a row asking for
/// most of the columns of a very skewed distribution) is completed with the unused columns
/// nearest to `centre`, so generation always ends.
template <class Draw>
void fillDistinct(std::vector<std::int64_t>& cols, std::int64_t length, std::int64_t numCols, std::int64_t centre,
                  Draw&& draw) {
  // Each round draws the whole shortfall at once; rounds that add nothing mean the
  // distribution's remaining mass is tiny, and 64 of them cost far less than the row itself.
  constexpr int kMaxRounds = 64;
  if (length > numCols) {
    throw InputError("a generated row asks for " + std::to_string(length) + " distinct columns of " +
                     std::to_string(numCols) + "; expected at most the number of columns");
  }
  for (int round = 0; round < kMaxRounds && static_cast<std::int64_t>(cols.size()) < length; ++round) {
    const std::int64_t missing = length - static_cast<std::int64_t>(cols.size());
    for (std::int64_t k = 0; k < missing; ++k) {
      const std::int64_t c = draw();
      if (c >= 0 && c < numCols) cols.push_back(c);
    }
    sortUnique(cols);
  }
  if (static_cast<std::int64_t>(cols.size()) > length) cols.resize(static_cast<std::size_t>(length));
  // Fallback: walk outwards from the centre, taking columns not yet in the row.
  for (std::int64_t step = 0; static_cast<std::int64_t>(cols.size()) < length; ++step) {
    for (const std::int64_t c : {centre + step, centre - step - 1}) {
      if (c < 0 || c >= numCols || static_cast<std::int64_t>(cols.size()) >= length) continue;
      if (!std::binary_search(cols.begin(), cols.end(), c)) cols.insert(std::lower_bound(cols.begin(), cols.end(), c), c);
    }
  }
}

/// What a generated matrix is measured by, beside its targets.
struct ProducedStats {
  std::int64_t rows = 0;
  std::int64_t cols = 0;
  std::int64_t nnz = 0;
  std::int64_t minRowLength = 0;
  std::int64_t maxRowLength = 0;
  double meanRowLength = 0;
  double stdRowLength = 0;  ///< population standard deviation
  std::int64_t emptyRows = 0;
  std::int64_t bandwidth = 0;        ///< max |i - j|
  double meanDistanceFraction = 0;   ///< mean |i - j| / cols: near 0 for banded, ~1/3 for uniform
  double diagonalFraction = 0;       ///< share of rows that store their diagonal entry
};

inline ProducedStats producedStats(const io::HostMatrix& m) {
  ProducedStats s;
  s.rows = m.numRows;
  s.cols = m.numCols;
  s.nnz = m.nnz();
  if (m.numRows == 0) return s;
  std::vector<std::int64_t> length(static_cast<std::size_t>(m.numRows), 0);
  long double distance = 0;
  std::int64_t diagonals = 0;
  for (std::int64_t k = 0; k < m.nnz(); ++k) {
    ++length[static_cast<std::size_t>(m.row[k])];
    const std::int64_t d = m.col[k] > m.row[k] ? m.col[k] - m.row[k] : m.row[k] - m.col[k];
    s.bandwidth = std::max(s.bandwidth, d);
    distance += d;
    diagonals += d == 0 ? 1 : 0;
  }
  s.minRowLength = *std::min_element(length.begin(), length.end());
  s.maxRowLength = *std::max_element(length.begin(), length.end());
  long double squares = 0;
  for (const std::int64_t l : length) {
    squares += static_cast<long double>(l) * l;
    s.emptyRows += l == 0 ? 1 : 0;
  }
  const long double mean = static_cast<long double>(s.nnz) / s.rows;
  const long double var = squares / s.rows - mean * mean;
  s.meanRowLength = static_cast<double>(mean);
  s.stdRowLength = var > 0 ? static_cast<double>(std::sqrt(var)) : 0.0;
  s.meanDistanceFraction = s.nnz > 0 && s.cols > 0 ? static_cast<double>(distance / s.nnz / s.cols) : 0.0;
  s.diagonalFraction = static_cast<double>(diagonals) / static_cast<double>(s.rows);
  return s;
}

}  // namespace araios::bench::gen
