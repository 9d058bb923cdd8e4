#pragma once
// FEM-like matrices: row lengths matching a target's min/max/mean/std (drawRowLengths), columns
// in a band around the diagonal with the clustering of a mesh discretisation.
//
// The model: the rows are the degrees of freedom of nodes of a structured grid, `dofs` per
// node, numbered node by node and the nodes x-fastest on a side-s grid in `dimension` 2 or 3
// (s = nodes^(1/dimension)). A row couples to its own node and to nodes in a box of radius k
// around it, k the smallest radius whose box holds 1.5 times the nodes the row needs (so rows
// pick a random subset, as unstructured meshes do), and takes all `dofs` columns of each node
// it couples to: the dense dof blocks of elasticity matrices (cant, consph: 3 displacements per
// node). A quarter of the node draws are shifted by +-1 node, so the diagonals do not line up
// perfectly as on a structured grid. The columns then form bands at offsets 0, +-s*dofs and
// +-s^2*dofs, the half-bandwidth is about (k s^(dimension-1) + k) dofs, and each row reads x in
// a few short contiguous runs. Rows with more or fewer columns than the target length are
// trimmed at random (never the diagonal) or topped up with more neighbour columns.
#include "host_matrix_builder.hpp"
#include "rng.hpp"
#include "row_lengths.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

namespace araios::bench::gen {

struct FemLikeParameters {
  int dimension = 3;          ///< of the node grid: 2 (shells, planar graphs) or 3 (solids)
  std::int64_t dofs = 1;      ///< degrees of freedom per node: the width of the column runs
};

inline io::HostMatrix femLike(std::int64_t rows, std::int64_t nnz, const RowLengthTarget& target,
                              const FemLikeParameters& p, std::uint64_t seed) {
  Rng lengths(seed, 1), draws(seed, 2), values(seed, 3);
  const std::vector<std::int64_t> length = drawRowLengths(rows, nnz, target, lengths);
  const std::int64_t nodes = (rows + p.dofs - 1) / p.dofs;
  const auto side = static_cast<std::int64_t>(std::ceil(std::pow(static_cast<double>(nodes), 1.0 / p.dimension)));
  const std::int64_t plane = side * side;
  // A row picks its nodes from a box holding this many times more nodes than it needs: enough
  // choice that rows differ, few enough that the band stays narrow.
  constexpr double kBoxSlack = 1.5;
  constexpr double kShiftProbability = 0.25;

  MatrixAssembler out(rows, rows, nnz);
  std::vector<std::int64_t> blocks, cols;
  for (std::int64_t i = 0; i < rows; ++i) {
    const std::int64_t len = length[i];
    if (len == 0) {
      out.appendRow(i, {}, values);
      continue;
    }
    const std::int64_t node = i / p.dofs;
    const std::int64_t needed = std::min(nodes, (len + p.dofs - 1) / p.dofs);
    std::int64_t radius = 0;
    while (std::pow(2.0 * radius + 1, p.dimension) < kBoxSlack * static_cast<double>(needed)) ++radius;
    const auto drawNode = [&]() -> std::int64_t {
      const auto offset = [&] { return static_cast<std::int64_t>(draws.below(2 * radius + 1)) - radius; };
      std::int64_t n = node + offset() + side * offset();
      if (p.dimension == 3) n += plane * offset();
      if (draws.uniform() < kShiftProbability) n += draws.uniform() < 0.5 ? -1 : 1;
      return n;  // fillDistinct drops those outside [0, nodes)
    };
    blocks.assign(1, node);
    fillDistinct(blocks, needed, nodes, node, drawNode);
    cols.clear();
    for (const std::int64_t b : blocks)
      for (std::int64_t d = 0; d < p.dofs && b * p.dofs + d < rows; ++d) cols.push_back(b * p.dofs + d);
    // cols is sorted: blocks are sorted and each expands to a contiguous run.
    while (static_cast<std::int64_t>(cols.size()) > len) {
      const auto k = static_cast<std::size_t>(draws.below(cols.size()));
      if (cols[k] != i) cols.erase(cols.begin() + static_cast<std::ptrdiff_t>(k));
    }
    if (static_cast<std::int64_t>(cols.size()) < len) {
      fillDistinct(cols, len, rows, i, [&] { return drawNode() * p.dofs + static_cast<std::int64_t>(draws.below(p.dofs)); });
    }
    out.appendRow(i, cols, values);
  }
  return out.finish();
}

}  // namespace araios::bench::gen
