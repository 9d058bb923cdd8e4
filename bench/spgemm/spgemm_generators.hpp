#pragma once
// Generators of the SpGEMM suite's matrices that the SpMV catalog has no use for: shapes chosen
// for what they do to a sparse matrix-matrix product rather than to a product with a vector.
//
//   longRowsMatrix   square, short uniform rows plus a few very long ones: rows of C with
//                    hundreds of thousands of products next to rows with a handful, the load
//                    imbalance that a per-row schedule must absorb.
//   lpLike           rectangular (a constraint matrix, more columns than rows), row lengths
//                    log-normal with a long tail, columns uniform: A*A^T is the normal-equations
//                    matrix of an interior-point method, whose long rows of A make dense rows
//                    of C.
//   tallBanded       tall (more rows than columns), each row a few columns near its diagonal
//                    position i * cols / rows: the observation matrix of a least-squares fit,
//                    whose A*A^T is banded with wide rows.
// The 3-D stencils come from generators/stencils.hpp, block FEM from generators/fem_like.hpp,
// power-law and uniform random from generators/chung_lu.hpp and random_uniform.hpp.
#include "generators/host_matrix_builder.hpp"
#include "generators/rng.hpp"
#include "generators/row_lengths.hpp"

#include <algorithm>
#include <cstdint>
#include <vector>

namespace araios::bench::gen {

/// `rows` x `rows`: every row `perRow` distinct uniform columns, except `longRows` rows spread
/// evenly over the matrix that hold `longLength` distinct uniform columns each.
inline io::HostMatrix longRowsMatrix(std::int64_t rows, std::int64_t perRow, std::int64_t longRows,
                                     std::int64_t longLength, std::uint64_t seed) {
  Rng columns(seed, 1), values(seed, 2);
  MatrixAssembler out(rows, rows, rows * perRow + longRows * longLength);
  std::vector<std::int64_t> row;
  std::int64_t nextLong = 0;
  for (std::int64_t i = 0; i < rows; ++i) {
    // Long row j sits at the middle of the j-th of longRows equal slices of the rows.
    const bool isLong = nextLong < longRows && i == (2 * nextLong + 1) * rows / (2 * longRows);
    nextLong += isLong ? 1 : 0;
    row.clear();
    fillDistinct(row, isLong ? longLength : perRow, rows, i,
                 [&] { return static_cast<std::int64_t>(columns.below(static_cast<std::uint64_t>(rows))); });
    out.appendRow(i, row, values);
  }
  return out.finish();
}

/// `rows` x `cols` with exactly `nnz` entries: row lengths drawn to `target` (drawRowLengths),
/// columns uniform and distinct within a row.
inline io::HostMatrix lpLike(std::int64_t rows, std::int64_t cols, std::int64_t nnz, const RowLengthTarget& target,
                             std::uint64_t seed) {
  Rng lengths(seed, 1), columns(seed, 2), values(seed, 3);
  const std::vector<std::int64_t> length = drawRowLengths(rows, nnz, target, lengths);
  MatrixAssembler out(rows, cols, nnz);
  std::vector<std::int64_t> row;
  for (std::int64_t i = 0; i < rows; ++i) {
    row.clear();
    fillDistinct(row, length[i], cols, i,
                 [&] { return static_cast<std::int64_t>(columns.below(static_cast<std::uint64_t>(cols))); });
    out.appendRow(i, row, values);
  }
  return out.finish();
}

/// `rows` x `cols` (rows > cols): row i holds `perRow` distinct columns drawn uniformly within
/// +-window of i * cols / rows (clipped to the matrix).
inline io::HostMatrix tallBanded(std::int64_t rows, std::int64_t cols, std::int64_t perRow, std::int64_t window,
                                 std::uint64_t seed) {
  Rng columns(seed, 1), values(seed, 2);
  MatrixAssembler out(rows, cols, rows * perRow);
  std::vector<std::int64_t> row;
  for (std::int64_t i = 0; i < rows; ++i) {
    const std::int64_t centre = i * cols / rows;
    row.clear();
    fillDistinct(row, perRow, cols, centre, [&] {
      return centre + static_cast<std::int64_t>(columns.below(static_cast<std::uint64_t>(2 * window + 1))) - window;
    });
    out.appendRow(i, row, values);
  }
  return out.finish();
}

}  // namespace araios::bench::gen
