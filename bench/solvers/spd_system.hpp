#pragma once
// A symmetric positive definite matrix with a generated matrix's sparsity: the pattern of
// P + P^T, off-diagonal values -w with w in (0, 1] drawn from the unordered pair {i, j} (so the
// matrix is symmetric whatever the order entries are met in), and each diagonal the sum of its
// row's off-diagonal magnitudes plus one. Strictly diagonally dominant with a positive
// diagonal, hence SPD: CG runs on it for as many iterations as asked without breaking down,
// on the row-length profile of a FEM mesh, a circuit or a power-law graph.
#include <araios/io/matrix_market.hpp>

#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

namespace araios::bench {

namespace detail {

/// A weight in (0, 1] for the pair {i, j}, from a hash of it (SplitMix64's finaliser).
inline double pairWeight(std::int64_t i, std::int64_t j) {
  std::uint64_t z = static_cast<std::uint64_t>(std::min(i, j)) * 0x9e3779b97f4a7c15ull ^
                    static_cast<std::uint64_t>(std::max(i, j));
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  z ^= z >> 31;
  return static_cast<double>((z >> 11) + 1) * 0x1p-53;
}

}  // namespace detail

/// The SPD matrix on pattern(P) + pattern(P)^T described above; P must be square.
inline io::HostMatrix spdFromPattern(const io::HostMatrix& p) {
  const std::int64_t n = p.numRows;
  std::vector<std::pair<std::int64_t, std::int64_t>> pairs;
  pairs.reserve(2 * p.row.size() + n);
  for (std::size_t k = 0; k < p.row.size(); ++k) {
    if (p.row[k] == p.col[k]) continue;
    pairs.emplace_back(p.row[k], p.col[k]);
    pairs.emplace_back(p.col[k], p.row[k]);
  }
  for (std::int64_t i = 0; i < n; ++i) pairs.emplace_back(i, i);
  std::sort(pairs.begin(), pairs.end());
  pairs.erase(std::unique(pairs.begin(), pairs.end()), pairs.end());

  io::HostMatrix out;
  out.numRows = out.numCols = n;
  out.row.reserve(pairs.size());
  out.col.reserve(pairs.size());
  out.value.reserve(pairs.size());
  std::vector<double> offDiagonal(n, 0.0);
  for (const auto& [i, j] : pairs) {
    const double v = i == j ? 0.0 : -detail::pairWeight(i, j);
    offDiagonal[i] -= v;
    out.row.push_back(i);
    out.col.push_back(j);
    out.value.push_back(v);
  }
  for (std::size_t k = 0; k < out.row.size(); ++k) {
    if (out.row[k] == out.col[k]) out.value[k] = offDiagonal[out.row[k]] + 1.0;
  }
  return out;
}

}  // namespace araios::bench
