#pragma once
// The drawn suite: matrices whose shapes, not only whose entries, come from the seed. Each
// family draws its parameters (sizes, row-length spread, block width, exponent, locality,
// quadrant weights, how many long rows and how long) from the seed given to --seed, so every
// new seed is a set of matrices no kernel was tuned on. A speed claim made on the fixed suites
// is checked here; the drawn parameters are in each entry's name and description, so a result
// can be traced back to its shape.
//
// Sizes: each matrix draws its number of entries log-uniformly in [kDrawnMinNnz, kDrawnMaxNnz],
// large enough that a product streams from memory on a GPU, small enough for a 2-core CPU run.
#include "catalog.hpp"
#include "chung_lu.hpp"
#include "fem_like.hpp"
#include "long_rows.hpp"
#include "random_uniform.hpp"
#include "rmat.hpp"
#include "rng.hpp"
#include "row_lengths.hpp"
#include "stencils.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

namespace araios::bench::gen {

constexpr std::int64_t kDrawnMinNnz = 2'000'000;
constexpr std::int64_t kDrawnMaxNnz = 30'000'000;

namespace drawn {

/// The parameter draws of one family: a stream of its own per family, so that adding a family
/// or a parameter to one leaves the others' shapes as they were for the same seed.
class Draws {
 public:
  Draws(std::uint64_t seed, const char* family) : rng_(seedFromName(family, seed), 7) {}
  double uniform(double lo, double hi) { return rng_.uniform(lo, hi); }
  /// Log-uniform in [lo, hi]: as likely to land in [1, 10] as in [10, 100].
  double logUniform(double lo, double hi) { return std::exp(uniform(std::log(lo), std::log(hi))); }
  std::int64_t integer(std::int64_t lo, std::int64_t hi) {  // in [lo, hi]
    return lo + static_cast<std::int64_t>(rng_.below(static_cast<std::uint64_t>(hi - lo + 1)));
  }
  std::int64_t logInteger(double lo, double hi) { return static_cast<std::int64_t>(std::llround(logUniform(lo, hi))); }
  std::int64_t entries() { return logInteger(static_cast<double>(kDrawnMinNnz), static_cast<double>(kDrawnMaxNnz)); }

 private:
  Rng rng_;
};

inline std::string printed(const char* format, double a = 0, double b = 0, double c = 0, double d = 0, double e = 0) {
  char text[256];
  std::snprintf(text, sizeof text, format, a, b, c, d, e);
  return text;
}

inline CatalogEntry entry(std::string name, const std::string& family, const std::string& cls, std::string model,
                          std::int64_t rows, std::int64_t expectedNnz, std::function<io::HostMatrix(std::uint64_t)> make) {
  CatalogEntry e;
  e.name = std::move(name);
  e.family = family;
  e.matrixClass = cls;
  e.targetSource = "drawn suite (shape drawn from the seed)";
  e.model = std::move(model);
  e.target.rows = rows;
  e.expectedNnz = expectedNnz;
  e.make = std::move(make);
  return e;
}

/// A 2-D 5-point, 3-D 7-point or 3-D 27-point stencil on a grid sized to the drawn entries.
inline CatalogEntry stencil(std::uint64_t seed) {
  Draws d(seed, "stencil");
  const std::int64_t nnz = d.entries();
  const int kind = static_cast<int>(d.integer(0, 2));
  const int points = kind == 0 ? 5 : kind == 1 ? 7 : 27;
  const double dimension = kind == 0 ? 2.0 : 3.0;
  const auto n = static_cast<std::int64_t>(std::llround(std::pow(static_cast<double>(nnz) / points, 1.0 / dimension)));
  const std::int64_t rows = kind == 0 ? n * n : n * n * n;
  return entry(printed("drawn-stencil%.0f-%.0f", points, static_cast<double>(n)), "stencil", "stencil",
               printed("%.0f-point stencil on a %.0f^%.0f grid", points, static_cast<double>(n), dimension), rows,
               rows * points, [kind, n](std::uint64_t) {
                 return kind == 0 ? laplacian2d(n) : kind == 1 ? laplacian3d(n) : stencil27(n);
               });
}

/// A block FEM-like matrix: 1 to 6 dofs per node on a 2-D or 3-D node grid, rows of the drawn
/// mean and spread.
inline CatalogEntry fem(std::uint64_t seed) {
  Draws d(seed, "fem");
  const std::int64_t nnz = d.entries();
  static constexpr std::int64_t kDofs[] = {1, 2, 3, 4, 6};
  const std::int64_t dofs = kDofs[d.integer(0, 4)];
  const int dimension = static_cast<int>(d.integer(2, 3));
  const double nodesPerRow = dimension == 3 ? d.uniform(7, 27) : d.uniform(4, 12);
  const double mean = std::max(2.0, nodesPerRow * static_cast<double>(dofs));
  const double spread = d.uniform(0.05, 0.35);
  const RowLengthTarget target{std::max<std::int64_t>(1, static_cast<std::int64_t>(mean / 3)),
                               static_cast<std::int64_t>(mean * 2) + 1, mean, spread * mean};
  const std::int64_t rows = static_cast<std::int64_t>(static_cast<double>(nnz) / mean);
  const FemLikeParameters p{dimension, dofs};
  return entry(printed("drawn-fem%.0fd-dof%.0f-r%.0f", dimension, static_cast<double>(dofs), mean), "fem-like",
               "fem-like",
               printed("%.0fD node grid, %.0f dof/node, rows of mean %.1f and std %.1f", dimension,
                       static_cast<double>(dofs), mean, spread * mean),
               rows, nnz, [rows, nnz, target, p](std::uint64_t s) { return femLike(rows, nnz, target, p, s); });
}

/// A Chung-Lu graph: the drawn exponent, mean degree and share of local edges.
inline CatalogEntry graph(std::uint64_t seed) {
  Draws d(seed, "graph");
  const std::int64_t nnz = d.entries();
  // Below about 2.2 the hubs' repeated edges make the generator redraw for minutes.
  const double gamma = d.uniform(2.2, 3.0);
  const double degree = d.logUniform(3, 48);
  const bool local = d.uniform(0, 1) < 0.5;
  const PowerLawParameters p{gamma, local ? d.uniform(0.3, 0.8) : 0.0, local ? d.logInteger(32, 4096) : 0};
  const auto nodes = static_cast<std::int64_t>(static_cast<double>(nnz) / degree);
  return entry(printed("drawn-graph-g%.2f-d%.0f", gamma, degree), "chung-lu", "power-law",
               printed("Chung-Lu graph, %.0f nodes, mean degree %.1f, gamma %.2f, %.0f%% local", static_cast<double>(nodes),
                       degree, gamma, 100 * p.localFraction),
               nodes, nnz, [nodes, nnz, p](std::uint64_t s) { return chungLuGraph(nodes, nnz, p, s); });
}

/// Circuit-like rows: mostly a few entries near the diagonal, a heavy tail of long rows.
inline CatalogEntry circuit(std::uint64_t seed) {
  Draws d(seed, "circuit");
  const std::int64_t nnz = d.entries();
  const double mean = d.uniform(3, 9);
  const std::int64_t longest = d.logInteger(2000, 50000);
  const double spread = d.logUniform(2, 30) * mean;
  const PowerLawParameters p{d.uniform(2.0, 2.6), d.uniform(0.4, 0.9), d.logInteger(8, 512)};
  const auto rows = static_cast<std::int64_t>(static_cast<double>(nnz) / mean);
  const RowLengthTarget target{1, std::min(longest, rows), mean, spread};
  return entry(printed("drawn-circuit-r%.1f-max%.0f", mean, static_cast<double>(target.max)), "chung-lu", "power-law",
               printed("rows of 1 to %.0f entries, mean %.1f, std %.0f, %.0f%% of columns near the diagonal",
                       static_cast<double>(target.max), mean, spread, 100 * p.localFraction),
               rows, nnz, [rows, nnz, target, p](std::uint64_t s) { return chungLuRows(rows, rows, nnz, target, p, s); });
}

/// An R-MAT graph with drawn quadrant weights: from mildly to strongly skewed.
inline CatalogEntry rmatGraph(std::uint64_t seed) {
  Draws d(seed, "rmat");
  const std::int64_t nnz = d.entries();
  const std::int64_t edgeFactor = d.logInteger(4, 40);
  const int scale = std::clamp(static_cast<int>(std::lround(std::log2(static_cast<double>(nnz) / edgeFactor))), 14, 22);
  RmatParameters p;
  p.a = d.uniform(0.45, 0.7);
  p.d = d.uniform(0.02, 0.1);
  p.b = p.c = (1 - p.a - p.d) / 2;
  return entry(printed("drawn-rmat-s%.0f-ef%.0f-a%.2f", scale, static_cast<double>(edgeFactor), p.a), "rmat",
               "power-law",
               printed("R-MAT scale %.0f, edge factor %.0f, a %.2f, b = c %.3f, d %.3f", scale,
                       static_cast<double>(edgeFactor), p.a, p.b, p.d),
               std::int64_t{1} << scale, edgeFactor << scale,
               [scale, edgeFactor, p](std::uint64_t s) { return rmat(scale, edgeFactor, s, p); });
}

/// The identity and a drawn number of long rows of a drawn length.
inline CatalogEntry longRowsMatrix(std::uint64_t seed) {
  Draws d(seed, "long-rows");
  const std::int64_t nnz = d.entries();
  const std::int64_t count = d.logInteger(1, 400);
  const std::int64_t length = std::min<std::int64_t>(nnz / count, 2'000'000);
  const std::int64_t rows = std::max(length, d.logInteger(1e4, 2e6));
  return entry(printed("drawn-longrows-%.0f-x%.0f-of%.0f", static_cast<double>(rows), static_cast<double>(count),
                       static_cast<double>(length)),
               "long-rows", "long-row",
               printed("%.0f rows: the identity and %.0f rows of %.0f entries", static_cast<double>(rows),
                       static_cast<double>(count), static_cast<double>(length)),
               rows, rows + count * length, [rows, length, count](std::uint64_t s) { return longRows(rows, length, count, s); });
}

/// Uniform random columns, the same number in every row.
inline CatalogEntry uniform(std::uint64_t seed) {
  Draws d(seed, "uniform");
  const std::int64_t nnz = d.entries();
  const std::int64_t perRow = d.logInteger(2, 64);
  const std::int64_t rows = nnz / perRow;
  return entry(printed("drawn-uniform-%.0f-x%.0f", static_cast<double>(rows), static_cast<double>(perRow)),
               "random-uniform", "random",
               printed("%.0f rows of %.0f uniform random columns", static_cast<double>(rows), static_cast<double>(perRow)),
               rows, rows * perRow, [rows, perRow](std::uint64_t s) { return randomUniform(rows, rows, perRow, s); });
}

/// A rectangular matrix (more rows than columns or the reverse, as constraint matrices are):
/// rows of a drawn spread, columns by power-law weight.
inline CatalogEntry rectangular(std::uint64_t seed) {
  Draws d(seed, "rectangular");
  const std::int64_t nnz = d.entries();
  const double mean = d.logUniform(3, 40);
  const double aspect = d.logUniform(1.0 / 16, 16);  // rows / columns
  const auto rows = static_cast<std::int64_t>(static_cast<double>(nnz) / mean);
  const auto cols = std::max<std::int64_t>(static_cast<std::int64_t>(mean) * 4, static_cast<std::int64_t>(rows / aspect));
  const RowLengthTarget target{1, std::min<std::int64_t>(cols, static_cast<std::int64_t>(mean * 8)), mean,
                               d.uniform(0.2, 1.5) * mean};
  const PowerLawParameters p{d.uniform(2.0, 3.0), 0.0, 0};
  return entry(printed("drawn-rect-%.0fx%.0f", static_cast<double>(rows), static_cast<double>(cols)), "chung-lu",
               "random",
               printed("%.0f x %.0f, rows of mean %.1f, columns by power-law weight, gamma %.2f",
                       static_cast<double>(rows), static_cast<double>(cols), mean, p.gamma),
               rows, nnz, [rows, cols, nnz, target, p](std::uint64_t s) { return chungLuRows(rows, cols, nnz, target, p, s); });
}

}  // namespace drawn

/// The drawn suite for `seed` (--suite drawn --seed S): one matrix of each family, its shape
/// drawn from the seed.
inline std::vector<CatalogEntry> drawnCatalog(std::uint64_t seed) {
  return {drawn::stencil(seed), drawn::fem(seed),        drawn::graph(seed),   drawn::circuit(seed),
          drawn::rmatGraph(seed), drawn::longRowsMatrix(seed), drawn::uniform(seed), drawn::rectangular(seed)};
}

}  // namespace araios::bench::gen
