#pragma once
// Uniform random: every row has exactly `perRow` distinct columns drawn uniformly from all of
// them. No locality at all, so x is read at random: the worst case for caches, and a matrix
// where only the value/index streams, not the structure, set the speed.
#include "host_matrix_builder.hpp"
#include "rng.hpp"

#include <cstdint>
#include <vector>

namespace araios::bench::gen {

inline io::HostMatrix randomUniform(std::int64_t rows, std::int64_t cols, std::int64_t perRow, std::uint64_t seed) {
  Rng columns(seed, 1), values(seed, 2);
  MatrixAssembler out(rows, cols, rows * perRow);
  std::vector<std::int64_t> row;
  for (std::int64_t i = 0; i < rows; ++i) {
    row.clear();
    fillDistinct(row, perRow, cols, i, [&] { return static_cast<std::int64_t>(columns.below(cols)); });
    out.appendRow(i, row, values);
  }
  return out.finish();
}

}  // namespace araios::bench::gen
