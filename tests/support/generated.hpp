#pragma once
// Generated test matrices: the edge cases every kernel must handle (no rows, one entry, empty
// rows, one dense row) and seeded random matrices. All are host matrices sorted by (row, col),
// as the reader returns them.
#include <araios/io/matrix_market.hpp>

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <random>
#include <string>
#include <tuple>
#include <vector>

namespace araios::test {

inline io::HostMatrix fromTriplets(std::int64_t rows, std::int64_t cols,
                                   std::vector<std::tuple<std::int64_t, std::int64_t, double>> entries) {
  std::sort(entries.begin(), entries.end(), [](const auto& a, const auto& b) {
    return std::make_pair(std::get<0>(a), std::get<1>(a)) < std::make_pair(std::get<0>(b), std::get<1>(b));
  });
  io::HostMatrix m;
  m.numRows = rows;
  m.numCols = cols;
  for (const auto& [r, c, v] : entries) {
    m.row.push_back(r);
    m.col.push_back(c);
    m.value.push_back(v);
  }
  return m;
}

/// A random matrix with row lengths drawn uniformly from [minLen, maxLen], distinct columns
/// per row, values in [-1, 1).
inline io::HostMatrix randomMatrix(std::int64_t rows, std::int64_t cols, std::int64_t minLen, std::int64_t maxLen,
                                   std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> value(-1.0, 1.0);
  std::vector<std::tuple<std::int64_t, std::int64_t, double>> entries;
  std::vector<std::int64_t> all(cols);
  std::iota(all.begin(), all.end(), 0);
  for (std::int64_t r = 0; r < rows; ++r) {
    const std::int64_t len = std::min<std::int64_t>(cols, std::uniform_int_distribution<std::int64_t>(minLen, maxLen)(rng));
    // A partial Fisher-Yates shuffle picks len distinct columns.
    for (std::int64_t k = 0; k < len; ++k) {
      std::swap(all[k], all[std::uniform_int_distribution<std::int64_t>(k, cols - 1)(rng)]);
      entries.emplace_back(r, all[k], value(rng));
    }
  }
  return fromTriplets(rows, cols, std::move(entries));
}

struct GeneratedCase {
  std::string name;
  io::HostMatrix matrix;
};

inline std::vector<GeneratedCase> generatedCases() {
  std::vector<GeneratedCase> cases;
  cases.push_back({"zero_rows", fromTriplets(0, 0, {})});
  cases.push_back({"zero_rows_five_cols", fromTriplets(0, 5, {})});
  cases.push_back({"no_entries", fromTriplets(4, 3, {})});
  cases.push_back({"one_by_one", fromTriplets(1, 1, {{0, 0, 2.5}})});
  {
    std::vector<std::tuple<std::int64_t, std::int64_t, double>> e;
    for (std::int64_t r = 0; r < 200; r += 3) e.emplace_back(r, (r * 7) % 150, 1.0 + r);
    cases.push_back({"empty_rows", fromTriplets(200, 150, std::move(e))});
  }
  {
    // One row of 5000 entries among rows of one: the worst case for one thread per row.
    std::vector<std::tuple<std::int64_t, std::int64_t, double>> e;
    for (std::int64_t c = 0; c < 5000; ++c) e.emplace_back(17, c, 1.0 / (1 + c));
    for (std::int64_t r = 0; r < 300; ++r)
      if (r != 17) e.emplace_back(r, (r * 13) % 5000, -0.5 * r);
    cases.push_back({"one_dense_row", fromTriplets(300, 5000, std::move(e))});
  }
  cases.push_back({"random_square", randomMatrix(1000, 1000, 0, 40, 7)});
  cases.push_back({"random_wide", randomMatrix(123, 4567, 1, 300, 11)});
  cases.push_back({"random_tall", randomMatrix(5000, 77, 0, 9, 13)});
  return cases;
}

/// A power-law-like matrix: 20,000 rows of 1 to 8 entries plus row 777 with 22,000 entries.
/// With T = round(mean + std) of the row lengths (161), that row holds more than 64*T
/// entries, so BRC/BRCP must split it over at least three blocks.
inline io::HostMatrix powerLawWithLongRow() {
  io::HostMatrix m = randomMatrix(20000, 25000, 1, 8, 17);
  std::vector<std::tuple<std::int64_t, std::int64_t, double>> entries;
  for (std::int64_t k = 0; k < m.nnz(); ++k)
    if (m.row[k] != 777) entries.emplace_back(m.row[k], m.col[k], m.value[k]);
  std::mt19937_64 rng(23);
  std::uniform_real_distribution<double> value(-1.0, 1.0);
  for (std::int64_t c = 0; c < 22000; ++c) entries.emplace_back(777, c, value(rng));
  return fromTriplets(20000, 25000, std::move(entries));
}

/// A banded matrix: 3,000 rows, the 11 diagonals -5..5, values depending on the position.
inline io::HostMatrix banded() {
  std::vector<std::tuple<std::int64_t, std::int64_t, double>> entries;
  for (std::int64_t r = 0; r < 3000; ++r)
    for (std::int64_t d = -5; d <= 5; ++d)
      if (r + d >= 0 && r + d < 3000) entries.emplace_back(r, r + d, 1.0 / (1.0 + r) - 0.25 * d);
  return fromTriplets(3000, 3000, std::move(entries));
}

/// The generated cases plus the shapes the padded and blocked formats must handle.
inline std::vector<GeneratedCase> formatCases() {
  std::vector<GeneratedCase> cases = generatedCases();
  cases.push_back({"power_law_long_row", powerLawWithLongRow()});
  cases.push_back({"banded", banded()});
  cases.push_back({"fewer_rows_than_a_block", randomMatrix(7, 9, 0, 9, 29)});
  cases.push_back({"short_rows", randomMatrix(3000, 3000, 1, 8, 31)});  // Accurate mode's row kernel
  {
    std::vector<std::tuple<std::int64_t, std::int64_t, double>> e;
    for (std::int64_t c = 0; c < 3000; ++c) e.emplace_back(0, c, 0.5 + c % 7);
    cases.push_back({"single_dense_row", fromTriplets(1, 3000, std::move(e))});
  }
  return cases;
}

/// Seeded values in [-1, 1), the same for every backend.
template <class Value>
std::vector<Value> randomVector(std::int64_t n, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> dist(-1.0, 1.0);
  std::vector<Value> v(n);
  for (auto& e : v) e = static_cast<Value>(dist(rng));
  return v;
}

}  // namespace araios::test
