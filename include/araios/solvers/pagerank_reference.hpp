#pragma once
// The host reference for PageRank and the paper's quality metric.
//
// pageRankReference() runs the same iteration as araios::pagerank (solvers/pagerank.hpp: mean
// rank 1, E all ones, the same dangling policy) in long double, straight from the adjacency
// matrix as read, sharing no code with the device path: its own normalisation of the weights
// (in long double, never rounded to double) and its own loop. It iterates far past the
// device's tolerance, until max_i |R_{k+1,i} - R_{k,i}| <= relativeTolerance * max_i R_i, so
// its ranks stand for the exact fixed point. Each node sums its in-edges in ascending order of
// the source, so nodes with the same in-edges get exactly the same reference score.
//
// compareRankings() reports the BRCP paper's metric: how many of the top K positions hold the
// same node in both rankings. Nodes whose reference scores are tied are interchangeable:
// position p matches when the node there has the reference score of the reference's node at p.
// "Tied" means equal to kPageRankTieTolerance (relative), not bit for bit: nodes that are
// exactly tied in real arithmetic but reached through different sums (mirror images in a
// symmetric mesh, say) differ in the reference by its rounding and truncation error (about
// 1e-18 and 1e-17 relative) and could otherwise never match. 1e-15 is a few units in the last
// place of a double, so no double computation can order such nodes anyway. It also reports
// the largest relative error of any node's score.
#include <araios/error.hpp>
#include <araios/io/matrix_market.hpp>
#include <araios/solvers/pagerank.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <numeric>
#include <vector>

namespace araios {

/// Reference scores closer than this (relative) count as tied in compareRankings().
constexpr long double kPageRankTieTolerance = 1e-15L;

struct PageRankReferenceOptions {
  double alpha = 0.85;
  PageRankDangling dangling = PageRankDangling::Uniform;
  bool useWeights = true;  ///< |a_ij| as edge weights; false: every nonzero entry weighs 1
  /// Stop when the largest change is at most this fraction of the largest rank. The error
  /// left is then below alpha / (1 - alpha) * 1e-17 = 6e-17 of the largest rank: well inside
  /// kPageRankTieTolerance, and above long double's rounding noise (about 1e-19 per step).
  long double relativeTolerance = 1e-17L;
  int maxIterations = 10000;
};

struct PageRankReference {
  std::vector<long double> rank;
  int iterations = 0;
  bool converged = false;
};

inline PageRankReference pageRankReference(const io::HostMatrix& adjacency, const PageRankReferenceOptions& options = {}) {
  const std::int64_t n = std::max(adjacency.numRows, adjacency.numCols);
  const std::int64_t nnz = adjacency.nnz();
  const long double alpha = options.alpha;
  std::vector<long double> weight(nnz), outWeight(n, 0.0L);
  for (std::int64_t k = 0; k < nnz; ++k) {
    const long double a = adjacency.value[k];
    weight[k] = a == 0 ? 0.0L : (options.useWeights ? std::fabs(a) : 1.0L);
    outWeight[adjacency.row[k]] += weight[k];
  }
  // In-edges of every node, sorted by source.
  std::vector<std::int64_t> order(nnz);
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(), [&](std::int64_t a, std::int64_t b) {
    return adjacency.col[a] != adjacency.col[b] ? adjacency.col[a] < adjacency.col[b]
                                                : adjacency.row[a] < adjacency.row[b];
  });
  std::vector<std::int64_t> first(n + 1, 0);
  std::vector<std::int64_t> source;
  std::vector<long double> probability;
  for (std::int64_t k : order) {
    if (weight[k] == 0) continue;
    ++first[adjacency.col[k] + 1];
    source.push_back(adjacency.row[k]);
    probability.push_back(weight[k] / outWeight[adjacency.row[k]]);
  }
  for (std::int64_t j = 0; j < n; ++j) first[j + 1] += first[j];

  PageRankReference ref;
  ref.rank.assign(n, 1.0L);
  std::vector<long double> next(n);
  for (int k = 1; k <= options.maxIterations && n > 0; ++k) {
    long double danglingRank = 0;
    if (options.dangling == PageRankDangling::Uniform) {
      for (std::int64_t i = 0; i < n; ++i) {
        if (outWeight[i] == 0) danglingRank += ref.rank[i];
      }
    }
    const long double teleport = (1 - alpha) + alpha * danglingRank / static_cast<long double>(n);
    long double change = 0, largest = 0;
    for (std::int64_t j = 0; j < n; ++j) {
      long double sum = 0;
      for (std::int64_t e = first[j]; e < first[j + 1]; ++e) sum += probability[e] * ref.rank[source[e]];
      next[j] = alpha * sum + teleport;
      change = std::max(change, std::fabs(next[j] - ref.rank[j]));
      largest = std::max(largest, next[j]);
    }
    ref.rank.swap(next);
    ref.iterations = k;
    if (change <= options.relativeTolerance * largest) {
      ref.converged = true;
      break;
    }
  }
  if (n == 0) ref.converged = true;
  return ref;
}

/// The k best nodes, highest score first; equal scores in ascending node order.
template <class Scores>
std::vector<std::int64_t> topNodes(const Scores& scores, std::int64_t n, std::int64_t k) {
  std::vector<std::int64_t> nodes(n);
  std::iota(nodes.begin(), nodes.end(), 0);
  k = std::min(k, n);
  std::partial_sort(nodes.begin(), nodes.begin() + k, nodes.end(), [&](std::int64_t a, std::int64_t b) {
    return scores[a] != scores[b] ? scores[a] > scores[b] : a < b;
  });
  nodes.resize(k);
  return nodes;
}

struct RankingComparison {
  int positions = 0;            ///< min(K, n)
  int matches = 0;              ///< positions holding the same node (or one tied with it in the reference)
  double maxRelScoreError = 0;  ///< max_i |R_i - ref_i| / |ref_i| over every node
};

/// Compares a computed ranking (any host-indexable container of n scores) with the reference.
template <class Ranks>
RankingComparison compareRankings(const PageRankReference& ref, const Ranks& rank, int top = 100,
                                  long double tieTolerance = kPageRankTieTolerance) {
  const std::int64_t n = static_cast<std::int64_t>(ref.rank.size());
  RankingComparison c;
  const auto refTop = topNodes(ref.rank, n, top);
  std::vector<long double> ours(n);
  for (std::int64_t i = 0; i < n; ++i) ours[i] = static_cast<long double>(rank[i]);
  const auto ourTop = topNodes(ours, n, top);
  c.positions = static_cast<int>(refTop.size());
  for (std::size_t p = 0; p < refTop.size(); ++p) {
    const long double a = ref.rank[ourTop[p]], b = ref.rank[refTop[p]];
    if (std::fabs(a - b) <= tieTolerance * std::max(std::fabs(a), std::fabs(b))) ++c.matches;
  }
  long double worst = 0;
  for (std::int64_t i = 0; i < n; ++i) {
    const long double err = std::fabs(ours[i] - ref.rank[i]);
    const long double rel = ref.rank[i] != 0 ? err / std::fabs(ref.rank[i]) : err;
    if (std::isnan(rel)) {  // a NaN rank makes the error NaN, never hides it
      worst = rel;
      break;
    }
    worst = std::max(worst, rel);
  }
  c.maxRelScoreError = static_cast<double>(worst);
  return c;
}

}  // namespace araios
