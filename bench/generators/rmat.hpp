#pragma once
// R-MAT graphs (Chakrabarti, Zhan & Faloutsos, "R-MAT: a recursive model for graph mining",
// SDM 2004), the Graph500 generator's model. 2^scale vertices, edgeFactor * 2^scale edges
// drawn; each edge descends `scale` levels of the adjacency matrix, choosing a quadrant with
// probabilities a, b, c, d (defaults 0.57, 0.19, 0.19, 0.05, the Graph500 values).
//
// Noise: the "noisy" R-MAT of Seshadhri, Pinar & Kolda ("An in-depth analysis of stochastic
// Kronecker graphs", J. ACM 60(2), 2013, section 7): each level l draws mu_l uniform in
// [-noise, noise] once and uses a - 2 mu a/(a+d), b + mu, c + mu, d - 2 mu d/(a+d), which
// smooths the oscillating degree distribution of plain R-MAT. noise = 0.1 as in that paper.
// Vertex labels are then permuted at random, as Graph500 does, so that the hubs are not all at
// small indices. Repeated edges are removed (the matrix has fewer than edgeFactor * 2^scale
// entries; GENERATORS.md gives how many); self loops stay as diagonal entries.
#include "edge_list.hpp"
#include "rng.hpp"

#include <cstdint>
#include <vector>

namespace araios::bench::gen {

struct RmatParameters {
  double a = 0.57, b = 0.19, c = 0.19, d = 0.05;
  double noise = 0.1;
};

inline io::HostMatrix rmat(int scale, std::int64_t edgeFactor, std::uint64_t seed, const RmatParameters& p = {},
                           std::int64_t* duplicatesRemoved = nullptr) {
  const std::int64_t n = std::int64_t{1} << scale;
  const std::int64_t edges = edgeFactor * n;
  Rng levels(seed, 1), draws(seed, 2), labels(seed, 3), values(seed, 4);

  // Per-level thresholds on a 64-bit draw: quadrant (0,0) below t[0], (0,1) below t[1],
  // (1,0) below t[2], else (1,1).
  struct Thresholds {
    std::uint64_t t[3];
  };
  std::vector<Thresholds> level(static_cast<std::size_t>(scale));
  for (auto& th : level) {
    const double mu = levels.uniform(-p.noise, p.noise);
    const double a = p.a - 2 * mu * p.a / (p.a + p.d);
    const double b = p.b + mu;
    const double c = p.c + mu;
    constexpr double kTwoTo64 = 18446744073709551616.0;
    th.t[0] = static_cast<std::uint64_t>(a * kTwoTo64);
    th.t[1] = static_cast<std::uint64_t>((a + b) * kTwoTo64);
    th.t[2] = static_cast<std::uint64_t>((a + b + c) * kTwoTo64);
  }
  const std::vector<std::int64_t> perm = randomPermutation(n, labels);

  std::vector<std::uint64_t> keys(static_cast<std::size_t>(edges));
  for (auto& key : keys) {
    std::uint64_t r = 0, c = 0;
    for (const Thresholds& th : level) {
      const std::uint64_t u = draws.next();
      const std::uint64_t rowBit = u >= th.t[1];
      const std::uint64_t colBit = (u >= th.t[0] && u < th.t[1]) || u >= th.t[2];
      r = (r << 1) | rowBit;
      c = (c << 1) | colBit;
    }
    key = (static_cast<std::uint64_t>(perm[r]) << scale) | static_cast<std::uint64_t>(perm[c]);
  }
  const std::int64_t removed = sortUniqueKeys(keys, 2 * scale);
  if (duplicatesRemoved) *duplicatesRemoved = removed;
  return matrixFromSortedKeys(n, n, keys, scale, values);
}

}  // namespace araios::bench::gen
