#pragma once
// A matrix whose work sits in a few rows: the identity plus `count` rows of `length` entries
// each (distinct columns drawn uniformly), the rows placed at random. A kernel that gives a row
// to one thread, or a warp, waits on those rows while the rest of the GPU idles.
#include "host_matrix_builder.hpp"
#include "rng.hpp"

#include <algorithm>
#include <cstdint>
#include <set>
#include <vector>

namespace araios::bench::gen {

inline io::HostMatrix longRows(std::int64_t rows, std::int64_t length, std::int64_t count, std::uint64_t seed) {
  Rng rng(seed);
  const auto anyRow = [&] { return static_cast<std::int64_t>(rng.below(static_cast<std::uint64_t>(rows))); };
  std::set<std::int64_t> chosen;
  while (static_cast<std::int64_t>(chosen.size()) < std::min(count, rows)) chosen.insert(anyRow());
  MatrixAssembler out(rows, rows, rows + count * length);
  std::vector<std::int64_t> cols;
  for (std::int64_t r = 0; r < rows; ++r) {
    if (!chosen.count(r)) {
      out.append(r, r, 1.0 + rng.uniform());
      continue;
    }
    // Distinct columns: every column when the row is full, else a sorted sample with the diagonal.
    cols.clear();
    if (length >= rows) {
      for (std::int64_t c = 0; c < rows; ++c) cols.push_back(c);
    } else {
      std::set<std::int64_t> picked{r};
      while (static_cast<std::int64_t>(picked.size()) < length) picked.insert(anyRow());
      cols.assign(picked.begin(), picked.end());
    }
    out.appendRow(r, cols, rng);
  }
  return out.finish();
}

}  // namespace araios::bench::gen
