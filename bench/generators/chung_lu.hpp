#pragma once
// Chung-Lu graphs: power-law expected degrees (Chung & Lu, "Connected components in random
// graphs with given expected degree sequences", Annals of Combinatorics 6, 2002). Vertex i has
// weight w_i proportional to (i + i0)^(-1/(gamma-1)), which gives a degree distribution with
// tail exponent gamma; an edge's endpoints are drawn with probability proportional to weight.
// i0 is chosen so that the largest expected degree is sqrt(edges), the Chung-Lu admissibility
// bound (w_max^2 <= sum w keeps every edge probability below one). Vertex labels are permuted
// at random, so hubs are spread over the matrix as in real graphs.
//
// Two uses:
//   chungLuGraph: the plain model, for graphs known by vertex and edge counts only (the
//     PageRank graphs). Edges are drawn source and target by weight; self loops and repeated
//     edges are dropped and more are drawn until exactly `edges` remain.
//   chungLuRows: row lengths prescribed (drawRowLengths, matching a target's min/max/mean/std),
//     columns drawn by weight. For matrices known by their row-length statistics (webbase-1M,
//     the gene networks).
// Locality: with probability `localFraction`, a column is drawn instead uniformly within
// +-localWindow of the row, the pattern of crawl-ordered web graphs, where most links stay
// within one host and hosts are numbered contiguously. Parameters are per catalog entry.
#include "edge_list.hpp"
#include "host_matrix_builder.hpp"
#include "rng.hpp"
#include "row_lengths.hpp"

#include <cmath>
#include <cstdint>
#include <vector>

namespace araios::bench::gen {

struct PowerLawParameters {
  double gamma = 2.3;           ///< tail exponent of the degree distribution
  double localFraction = 0.0;   ///< share of columns drawn near the diagonal
  std::int64_t localWindow = 0; ///< half-width of the local window
};

/// Walker's alias method (Vose's construction, "A linear algorithm for generating random
/// numbers with a given distribution", IEEE TSE 17(9), 1991): O(1) per weighted draw.
class AliasTable {
 public:
  explicit AliasTable(const std::vector<double>& weights) : prob_(weights.size()), alias_(weights.size()) {
    const std::size_t n = weights.size();
    long double total = 0;
    for (const double w : weights) total += w;
    std::vector<double> scaled(n);
    std::vector<std::int64_t> small, large;
    for (std::size_t i = 0; i < n; ++i) {
      scaled[i] = static_cast<double>(weights[i] * static_cast<long double>(n) / total);
      (scaled[i] < 1.0 ? small : large).push_back(static_cast<std::int64_t>(i));
    }
    while (!small.empty() && !large.empty()) {
      const std::int64_t s = small.back(), l = large.back();
      small.pop_back();
      prob_[s] = scaled[s];
      alias_[s] = l;
      scaled[l] = (scaled[l] + scaled[s]) - 1.0;
      if (scaled[l] < 1.0) {
        large.pop_back();
        small.push_back(l);
      }
    }
    for (const std::int64_t i : large) prob_[i] = 1.0, alias_[i] = i;
    for (const std::int64_t i : small) prob_[i] = 1.0, alias_[i] = i;  // rounding leftovers
  }

  std::int64_t draw(Rng& rng) const {
    const std::int64_t i = static_cast<std::int64_t>(rng.below(prob_.size()));
    return rng.uniform() < prob_[i] ? i : alias_[i];
  }

 private:
  std::vector<double> prob_;
  std::vector<std::int64_t> alias_;
};

namespace detail {

/// sum_{i=0}^{n-1} (i + i0)^e for -1 < e < 0: the first kExactTerms terms exactly, the rest by
/// the Euler-Maclaurin formula (integral plus the trapezoid end correction), whose error on
/// this smooth, slowly varying tail is far below a part in a million. Exact summation would
/// cost n pow() calls per bisection step.
inline double powerSum(std::int64_t n, double i0, double e) {
  constexpr std::int64_t kExactTerms = 4096;
  const std::int64_t k = std::min(n, kExactTerms);
  long double sum = 0;
  for (std::int64_t i = 0; i < k; ++i) sum += std::pow(static_cast<double>(i) + i0, e);
  if (n > k) {
    const auto f = [&](double x) { return std::pow(x + i0, e); };
    const auto F = [&](double x) { return std::pow(x + i0, e + 1) / (e + 1); };
    sum += F(static_cast<double>(n)) - F(static_cast<double>(k)) + (f(static_cast<double>(k)) - f(static_cast<double>(n))) / 2;
  }
  return static_cast<double>(sum);
}

}  // namespace detail

/// Power-law weights of n vertices, in a random order, scaled so they sum to `total` (the
/// expected degrees when `total` entries are drawn), the largest being about sqrt(total).
inline std::vector<double> powerLawWeights(std::int64_t n, double total, double gamma, Rng& rng) {
  const double e = -1.0 / (gamma - 1.0);
  const double target = std::sqrt(total);
  const auto maxExpected = [&](double i0) { return total * std::pow(i0, e) / detail::powerSum(n, i0, e); };
  // maxExpected decreases as i0 grows; bisect i0 on a log scale. 80 halvings of a ratio of
  // 1e9 leave it exact to double precision.
  double lo = 1e-3, hi = static_cast<double>(n) * 1e3;
  constexpr int kBisections = 80;
  for (int it = 0; it < kBisections; ++it) {
    const double mid = std::sqrt(lo * hi);
    (maxExpected(mid) > target ? lo : hi) = mid;
  }
  const double i0 = hi;
  std::vector<double> w(static_cast<std::size_t>(n));
  long double sum = 0;
  for (std::int64_t i = 0; i < n; ++i) sum += (w[i] = std::pow(static_cast<double>(i) + i0, e));
  const std::vector<std::int64_t> perm = randomPermutation(n, rng);
  std::vector<double> out(w.size());
  for (std::int64_t i = 0; i < n; ++i) out[perm[i]] = static_cast<double>(w[i] * total / sum);
  return out;
}

namespace detail {

/// One column for row `row`: local with probability localFraction, else by weight.
inline std::int64_t drawColumn(std::int64_t row, std::int64_t cols, const PowerLawParameters& p,
                               const AliasTable& alias, Rng& rng) {
  if (p.localFraction > 0 && rng.uniform() < p.localFraction) {
    const std::int64_t offset = static_cast<std::int64_t>(rng.below(2 * p.localWindow + 1)) - p.localWindow;
    const std::int64_t c = row + offset;
    return c >= 0 && c < cols ? c : -1;
  }
  return alias.draw(rng);
}

}  // namespace detail

/// A directed Chung-Lu graph with exactly `edges` distinct entries off the diagonal.
inline io::HostMatrix chungLuGraph(std::int64_t nodes, std::int64_t edges, const PowerLawParameters& p,
                                   std::uint64_t seed) {
  Rng setup(seed, 1), draws(seed, 2), values(seed, 3), trim(seed, 4);
  const AliasTable alias(powerLawWeights(nodes, static_cast<double>(edges), p.gamma, setup));
  const int bits = indexBits(nodes);
  std::vector<std::uint64_t> keys;
  keys.reserve(static_cast<std::size_t>(edges + edges / 8));
  // Draw the shortfall (plus a margin for the repeats it will bring), dedupe, repeat.
  constexpr double kRepeatMargin = 1.05;
  while (static_cast<std::int64_t>(keys.size()) < edges) {
    const auto missing = static_cast<std::int64_t>((edges - static_cast<std::int64_t>(keys.size())) * kRepeatMargin) + 16;
    for (std::int64_t k = 0; k < missing; ++k) {
      const std::int64_t src = alias.draw(draws);
      const std::int64_t dst = detail::drawColumn(src, nodes, p, alias, draws);
      if (dst < 0 || dst == src) continue;
      keys.push_back((static_cast<std::uint64_t>(src) << bits) | static_cast<std::uint64_t>(dst));
    }
    sortUniqueKeys(keys, 2 * bits);
  }
  // Drop the surplus at random positions (marking them with an impossible key).
  constexpr std::uint64_t kDropped = ~std::uint64_t{0};
  for (auto surplus = static_cast<std::int64_t>(keys.size()) - edges; surplus > 0;) {
    auto& k = keys[trim.below(keys.size())];
    if (k != kDropped) k = kDropped, --surplus;
  }
  keys.erase(std::remove(keys.begin(), keys.end(), kDropped), keys.end());
  return matrixFromSortedKeys(nodes, nodes, keys, bits, values);
}

/// Rows of prescribed length statistics, columns by power-law weight (and locality).
inline io::HostMatrix chungLuRows(std::int64_t rows, std::int64_t cols, std::int64_t nnz, const RowLengthTarget& target,
                                  const PowerLawParameters& p, std::uint64_t seed) {
  Rng lengths(seed, 1), setup(seed, 2), draws(seed, 3), values(seed, 4);
  const std::vector<std::int64_t> length = drawRowLengths(rows, nnz, target, lengths);
  const AliasTable alias(powerLawWeights(cols, static_cast<double>(nnz), p.gamma, setup));
  MatrixAssembler out(rows, cols, nnz);
  std::vector<std::int64_t> row;
  for (std::int64_t i = 0; i < rows; ++i) {
    row.clear();
    fillDistinct(row, length[i], cols, i, [&] { return detail::drawColumn(i, cols, p, alias, draws); });
    out.appendRow(i, row, values);
  }
  return out.finish();
}

}  // namespace araios::bench::gen
