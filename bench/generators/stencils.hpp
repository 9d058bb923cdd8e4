#pragma once
// Structured-grid stencils, the best case for every format: every interior row has the same
// length and the columns form a few fixed diagonals.
//
//   laplacian2d(n): the 5-point Laplacian on an n x n grid, Dirichlet boundary (boundary rows
//     simply lack their outside neighbours): 4 on the diagonal, -1 off it. Rows are numbered
//     x-fastest, so the diagonals sit at offsets 0, +-1, +-n. nnz = 5 n^2 - 4 n.
//   stencil27(n): the 27-point stencil on an n x n x n grid (all of the 3x3x3 neighbourhood,
//     the trilinear-hexahedron stiffness pattern): 26 on the diagonal, -1 off it. Rows
//     x-fastest; 27 diagonals at offsets dx + n dy + n^2 dz. nnz = (3n - 2)^3.
//   laplacian3d(n): the 7-point Laplacian on an n x n x n grid, Dirichlet boundary: 6 on the
//     diagonal, -1 off it; diagonals at offsets 0, +-1, +-n, +-n^2. nnz = 7 n^3 - 6 n^2.
// Both are diagonally dominant M-matrices with row sums >= 0. No randomness: the seed is unused.
#include "host_matrix_builder.hpp"

#include <cstdint>

namespace araios::bench::gen {

inline io::HostMatrix laplacian2d(std::int64_t n) {
  const std::int64_t rows = n * n;
  MatrixAssembler out(rows, rows, 5 * rows);
  for (std::int64_t y = 0; y < n; ++y) {
    for (std::int64_t x = 0; x < n; ++x) {
      const std::int64_t i = x + n * y;
      // Columns in increasing order: below, left, centre, right, above.
      if (y > 0) out.append(i, i - n, -1.0);
      if (x > 0) out.append(i, i - 1, -1.0);
      out.append(i, i, 4.0);
      if (x + 1 < n) out.append(i, i + 1, -1.0);
      if (y + 1 < n) out.append(i, i + n, -1.0);
    }
  }
  return out.finish();
}

inline io::HostMatrix laplacian3d(std::int64_t n) {
  const std::int64_t rows = n * n * n, plane = n * n;
  MatrixAssembler out(rows, rows, 7 * rows);
  for (std::int64_t z = 0; z < n; ++z) {
    for (std::int64_t y = 0; y < n; ++y) {
      for (std::int64_t x = 0; x < n; ++x) {
        const std::int64_t i = x + n * (y + n * z);
        // Columns in increasing order: below (z), front (y), left, centre, right, back, above.
        if (z > 0) out.append(i, i - plane, -1.0);
        if (y > 0) out.append(i, i - n, -1.0);
        if (x > 0) out.append(i, i - 1, -1.0);
        out.append(i, i, 6.0);
        if (x + 1 < n) out.append(i, i + 1, -1.0);
        if (y + 1 < n) out.append(i, i + n, -1.0);
        if (z + 1 < n) out.append(i, i + plane, -1.0);
      }
    }
  }
  return out.finish();
}

inline io::HostMatrix stencil27(std::int64_t n) {
  const std::int64_t rows = n * n * n;
  MatrixAssembler out(rows, rows, 27 * rows);
  for (std::int64_t z = 0; z < n; ++z) {
    for (std::int64_t y = 0; y < n; ++y) {
      for (std::int64_t x = 0; x < n; ++x) {
        const std::int64_t i = x + n * (y + n * z);
        // dz outermost, dx innermost: the columns come out in increasing order.
        for (std::int64_t dz = -1; dz <= 1; ++dz) {
          if (z + dz < 0 || z + dz >= n) continue;
          for (std::int64_t dy = -1; dy <= 1; ++dy) {
            if (y + dy < 0 || y + dy >= n) continue;
            for (std::int64_t dx = -1; dx <= 1; ++dx) {
              if (x + dx < 0 || x + dx >= n) continue;
              const std::int64_t j = (x + dx) + n * ((y + dy) + n * (z + dz));
              out.append(i, j, j == i ? 26.0 : -1.0);
            }
          }
        }
      }
    }
  }
  return out.finish();
}

}  // namespace araios::bench::gen
