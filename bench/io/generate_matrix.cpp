#include "generate_matrix.hpp"

#include <algorithm>
#include <random>

namespace araios::bench_io {

/// Entries per row: the median of SuiteSparse's real matrices is close to it.
constexpr std::int64_t kEntriesPerRow = 10;

io::HostMatrix generateMatrix(std::int64_t entries, std::uint64_t seed) {
  const std::int64_t rows = std::max<std::int64_t>(1, entries / kEntriesPerRow);
  std::mt19937_64 random(seed);
  std::uniform_real_distribution<double> value(-1.0, 1.0);
  io::HostMatrix m;
  m.numRows = m.numCols = rows;
  m.row.reserve(static_cast<std::size_t>(entries));
  m.col.reserve(static_cast<std::size_t>(entries));
  m.value.reserve(static_cast<std::size_t>(entries));
  std::vector<std::int64_t> cols;
  for (std::int64_t r = 0; r < rows; ++r) {
    const std::int64_t wanted = r + 1 < rows ? kEntriesPerRow : entries - kEntriesPerRow * (rows - 1);
    cols.clear();
    for (std::int64_t k = 0; k < wanted; ++k) cols.push_back(static_cast<std::int64_t>(random() % rows));
    std::sort(cols.begin(), cols.end());
    cols.erase(std::unique(cols.begin(), cols.end()), cols.end());
    for (const std::int64_t c : cols) {
      m.row.push_back(r);
      m.col.push_back(c);
      m.value.push_back(value(random));
    }
  }
  return m;
}

}  // namespace araios::bench_io
