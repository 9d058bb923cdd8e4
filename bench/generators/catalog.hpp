#pragma once
// The generated matrices of the benchmark suites: each named entry with the statistics it must
// match (its target, and where the target comes from) and the generator call that makes it.
// GENERATORS.md is this file's output (`araios-bench --describe-generators`), target beside
// produced.
//
// Targets:
//   - BRCP Table 2 : rows, nnz, min/max row length, mean/std. cant's table
//     entry reads "7/33" for mean/std; nnz/rows = 32.6, so the two are swapped and the target
//     is std 7.
//   - PageRank graphs: vertex and edge counts as the benchmark plan rounds them (only eu-2005's vertex
//     count is exact); no row-length targets.
//   - Stencils, uniform random, R-MAT: sizes from the benchmark plan; their statistics follow from the
//     construction.
// Model parameters that no source fixes (grid dimension and dofs per node of the FEM-like
// entries, power-law exponents, web-graph locality) are assumptions, stated per entry.
#include "chung_lu.hpp"
#include "fem_like.hpp"
#include "long_rows.hpp"
#include "random_uniform.hpp"
#include "rmat.hpp"
#include "rng.hpp"
#include "row_lengths.hpp"
#include "stencils.hpp"

#include <araios/io/matrix_market.hpp>

#include <cstdint>
#include <cstdio>
#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace araios::bench::gen {

/// The default base seed of the catalog; each entry hashes its name into it (seedFromName).
constexpr std::uint64_t kCatalogSeed = 6;

/// A statistic a source gives; `known` false where it gives none.
struct Stat {
  double value = 0;
  bool known = false;
};
inline Stat known(double v) { return {v, true}; }
inline Stat unknown() { return {}; }

struct Target {
  std::int64_t rows = 0;
  Stat nnz, minRowLength, maxRowLength, meanRowLength, stdRowLength;
};

struct CatalogEntry {
  std::string name;
  std::string family;       ///< generator: stencil, random-uniform, rmat, chung-lu, fem-like
  std::string matrixClass;  ///< stencil, fem-like, graph, power-law, random: what the targets are judged by
  std::string targetSource; ///< where the target numbers come from
  std::string model;        ///< the generator and its parameters, in words
  Target target;
  std::int64_t expectedNnz = 0;  ///< for progress estimates, before generating
  std::function<io::HostMatrix(std::uint64_t seed)> make;
};

namespace detail {

struct TableRow {
  const char* name;
  std::int64_t rows, nnz, min, max;
  double mean, std;
};

inline std::string scaledName(const std::string& name, std::int64_t divisor) {
  return divisor == 1 ? name : name + "-div" + std::to_string(divisor);
}

inline Target tableTarget(const TableRow& t, std::int64_t divisor) {
  Target target;
  target.rows = t.rows / divisor;
  target.nnz = known(static_cast<double>(t.nnz / divisor));
  target.minRowLength = known(static_cast<double>(t.min));
  target.maxRowLength = known(static_cast<double>(t.max));
  target.meanRowLength = known(static_cast<double>(t.nnz / divisor) / static_cast<double>(target.rows));
  target.stdRowLength = known(t.std);
  return target;
}

inline RowLengthTarget rowTarget(const TableRow& t) { return {t.min, t.max, t.mean, t.std}; }

inline const char* kBrcpSource = "BRCP paper, Table 2";

inline std::string localityText(const PowerLawParameters& p) {
  if (p.localFraction <= 0) return "no locality";
  char text[80];
  std::snprintf(text, sizeof text, "%.0f%% of columns within +-%lld of the diagonal", 100 * p.localFraction,
                static_cast<long long>(p.localWindow));
  return text;
}

/// A BRCP Table 2 matrix as FEM-like, at 1/divisor of its rows and nnz.
inline CatalogEntry femEntry(const TableRow& t, const FemLikeParameters& p, std::int64_t divisor, const std::string& cls,
                             const std::string& why) {
  CatalogEntry e;
  e.name = scaledName(t.name, divisor);
  e.family = "fem-like";
  e.matrixClass = cls;
  e.targetSource = divisor == 1 ? kBrcpSource : std::string(kBrcpSource) + ", rows and nnz / " + std::to_string(divisor);
  e.model = std::to_string(p.dimension) + "D node grid, " + std::to_string(p.dofs) + " dof/node (" + why + ")";
  e.target = tableTarget(t, divisor);
  e.expectedNnz = t.nnz / divisor;
  const std::int64_t rows = e.target.rows, nnz = e.expectedNnz;
  const RowLengthTarget rt = rowTarget(t);
  e.make = [rows, nnz, rt, p](std::uint64_t seed) { return femLike(rows, nnz, rt, p, seed); };
  return e;
}

/// A BRCP Table 2 matrix as Chung-Lu with prescribed row lengths.
inline CatalogEntry chungLuRowsEntry(const TableRow& t, const PowerLawParameters& p, std::int64_t divisor,
                                     const std::string& why) {
  CatalogEntry e;
  e.name = scaledName(t.name, divisor);
  e.family = "chung-lu";
  e.matrixClass = "power-law";
  e.targetSource = divisor == 1 ? kBrcpSource : std::string(kBrcpSource) + ", rows and nnz / " + std::to_string(divisor);
  char model[200];
  std::snprintf(model, sizeof model, "row lengths fitted; columns by power-law weight, gamma %.1f, %s (%s)", p.gamma,
                localityText(p).c_str(), why.c_str());
  e.model = model;
  e.target = tableTarget(t, divisor);
  e.expectedNnz = t.nnz / divisor;
  const std::int64_t rows = e.target.rows, nnz = e.expectedNnz;
  const RowLengthTarget rt = rowTarget(t);
  e.make = [rows, nnz, rt, p](std::uint64_t seed) { return chungLuRows(rows, rows, nnz, rt, p, seed); };
  return e;
}

inline CatalogEntry graphEntry(const char* name, std::int64_t nodes, std::int64_t edges, const PowerLawParameters& p,
                               std::int64_t divisor, const std::string& why) {
  CatalogEntry e;
  e.name = scaledName(name, divisor);
  e.family = "chung-lu";
  e.matrixClass = "power-law";
  e.targetSource = std::string("benchmark plan (PageRank graph sizes)") + (divisor == 1 ? "" : ", / " + std::to_string(divisor));
  char model[200];
  std::snprintf(model, sizeof model, "Chung-Lu edges, gamma %.1f, %s (%s)", p.gamma, localityText(p).c_str(),
                why.c_str());
  e.model = model;
  e.target.rows = nodes / divisor;
  e.target.nnz = known(static_cast<double>(edges / divisor));
  e.target.meanRowLength = known(static_cast<double>(edges / divisor) / static_cast<double>(nodes / divisor));
  e.expectedNnz = edges / divisor;
  const std::int64_t n = nodes / divisor, m = edges / divisor;
  e.make = [n, m, p](std::uint64_t seed) { return chungLuGraph(n, m, p, seed); };
  return e;
}

inline CatalogEntry laplacianEntry(std::int64_t n) {
  CatalogEntry e;
  e.name = "laplacian2d-" + std::to_string(n);
  e.family = "stencil";
  e.matrixClass = "stencil";
  e.targetSource = "benchmark plan (2D 5-point Laplacian, 2048^2 grid)";
  e.model = "5-point stencil on a " + std::to_string(n) + "^2 grid, Dirichlet boundary";
  e.target.rows = n * n;
  e.target.nnz = known(static_cast<double>(5 * n * n - 4 * n));
  e.target.minRowLength = known(3);
  e.target.maxRowLength = known(5);
  e.target.meanRowLength = known(static_cast<double>(5 * n * n - 4 * n) / static_cast<double>(n * n));
  e.expectedNnz = 5 * n * n - 4 * n;
  e.make = [n](std::uint64_t) { return laplacian2d(n); };
  return e;
}

inline CatalogEntry stencil27Entry(std::int64_t n) {
  CatalogEntry e;
  e.name = "stencil27-" + std::to_string(n);
  e.family = "stencil";
  e.matrixClass = "stencil";
  e.targetSource = "benchmark plan (3D 27-point stencil, 128^3 grid)";
  e.model = "27-point stencil on a " + std::to_string(n) + "^3 grid, Dirichlet boundary";
  const std::int64_t m = 3 * n - 2;
  e.target.rows = n * n * n;
  e.target.nnz = known(static_cast<double>(m * m * m));
  e.target.minRowLength = known(8);
  e.target.maxRowLength = known(27);
  e.target.meanRowLength = known(static_cast<double>(m * m * m) / static_cast<double>(n * n * n));
  e.expectedNnz = m * m * m;
  e.make = [n](std::uint64_t) { return stencil27(n); };
  return e;
}

inline CatalogEntry uniformEntry(int log2Rows, std::int64_t perRow) {
  CatalogEntry e;
  const std::int64_t rows = std::int64_t{1} << log2Rows;
  e.name = "uniform-2^" + std::to_string(log2Rows) + "x" + std::to_string(perRow);
  e.family = "random-uniform";
  e.matrixClass = "random";
  e.targetSource = "benchmark plan (uniform random, 4.2 M rows, 10 per row)";
  e.model = std::to_string(perRow) + " distinct uniform columns per row, square";
  e.target.rows = rows;
  e.target.nnz = known(static_cast<double>(rows * perRow));
  e.target.minRowLength = known(static_cast<double>(perRow));
  e.target.maxRowLength = known(static_cast<double>(perRow));
  e.target.meanRowLength = known(static_cast<double>(perRow));
  e.target.stdRowLength = known(0);
  e.expectedNnz = rows * perRow;
  e.make = [rows, perRow](std::uint64_t seed) { return randomUniform(rows, rows, perRow, seed); };
  return e;
}

inline CatalogEntry rmatEntry(int scale, std::int64_t edgeFactor) {
  CatalogEntry e;
  e.name = "rmat-s" + std::to_string(scale) + "-ef" + std::to_string(edgeFactor);
  e.family = "rmat";
  e.matrixClass = "power-law";
  e.targetSource = "benchmark plan (R-MAT, scale 21, edge factor 16)";
  e.model = "R-MAT a,b,c,d = 0.57,0.19,0.19,0.05, per-level noise 0.1, labels permuted; " +
            std::to_string(edgeFactor << scale) + " edges drawn, repeats removed";
  e.target.rows = std::int64_t{1} << scale;
  e.expectedNnz = edgeFactor << scale;  // before repeats are removed: an upper bound
  e.make = [scale, edgeFactor](std::uint64_t seed) { return rmat(scale, edgeFactor, seed); };
  return e;
}

// BRCP Table 2 (mean and std rounded; cant's std from its "7/33").
inline const TableRow kCant{"cant", 62451, 2034917, 1, 40, 33, 7};
inline const TableRow kConsph{"consph", 83334, 3046907, 1, 66, 37, 11};
inline const TableRow kRma10{"rma10", 46835, 2374001, 4, 145, 51, 28};
inline const TableRow kWebbase{"webbase-1M", 1000005, 3105536, 1, 4700, 3, 25};
inline const TableRow kHumanGene1{"human_gene1", 22283, 24691926, 2, 7940, 1108, 1409};
inline const TableRow kMouseGene{"mouse_gene", 45101, 29012392, 2, 8033, 643, 857};
inline const TableRow kFl2010{"fl2010", 484481, 2346294, 1, 177, 5, 3};
inline const TableRow kIl2010{"il2010", 451554, 2164464, 1, 90, 5, 2};
inline const TableRow kCage13{"cage13", 445315, 7479343, 3, 39, 17, 5};
inline const TableRow kCage14{"cage14", 1505785, 27130349, 5, 41, 18, 5};

// Model assumptions (no source fixes these; they make the column structure plausible).
inline const FemLikeParameters kSolid3dof{3, 3};   // 3D elasticity: 3 displacements per node
inline const FemLikeParameters kShell3dof{2, 3};   // 2D mesh, 3 unknowns per node
inline const FemLikeParameters kGraph3d{3, 1};
inline const FemLikeParameters kPlanar{2, 1};
// Web graphs: in-degree exponent 2.1 (Broder et al., "Graph structure in the Web", WWW 2000);
// crawl order keeps most links near the diagonal (share and window assumed).
inline const PowerLawParameters kWeb{2.1, 0.6, 512};
inline const PowerLawParameters kSocial{2.3, 0.0, 0};
// Gene co-expression networks: dense rows, mild hubs (exponent assumed).
inline const PowerLawParameters kGene{3.0, 0.0, 0};

/// An entry of the unseen suite: shapes and sizes that neither other suite holds.
inline CatalogEntry unseenEntry(const std::string& name, const std::string& family, const std::string& cls,
                                const std::string& model, std::int64_t rows, std::int64_t expectedNnz,
                                std::function<io::HostMatrix(std::uint64_t)> make) {
  CatalogEntry e;
  e.name = name;
  e.family = family;
  e.matrixClass = cls;
  e.targetSource = "unseen suite (shapes the tuned suites lack)";
  e.model = model;
  e.target.rows = rows;
  e.expectedNnz = expectedNnz;
  e.make = std::move(make);
  return e;
}

}  // namespace detail

/// The full suite's generated matrices, at the scale of the sources.
inline std::vector<CatalogEntry> fullCatalog() {
  using namespace detail;
  return {
      femEntry(kCant, kSolid3dof, 1, "fem-like", "3D cantilever, elasticity"),
      femEntry(kConsph, kSolid3dof, 1, "fem-like", "3D sphere, elasticity"),
      femEntry(kRma10, kShell3dof, 1, "fem-like", "2D shallow-water CFD, 3 unknowns"),
      chungLuRowsEntry(kWebbase, kWeb, 1, "web crawl"),
      chungLuRowsEntry(kHumanGene1, kGene, 1, "gene network"),
      chungLuRowsEntry(kMouseGene, kGene, 1, "gene network"),
      femEntry(kFl2010, kPlanar, 1, "graph", "planar census-block graph"),
      femEntry(kIl2010, kPlanar, 1, "graph", "planar census-block graph"),
      femEntry(kCage13, kGraph3d, 1, "fem-like", "DNA electrophoresis, local couplings"),
      femEntry(kCage14, kGraph3d, 1, "fem-like", "DNA electrophoresis, local couplings"),
      graphEntry("eu-2005", 862664, 19200000, kWeb, 1, "web crawl"),
      graphEntry("as-skitter", 1700000, 22200000, kSocial, 1, "internet topology"),
      graphEntry("wiki-topcats", 1790000, 28500000, kSocial, 1, "hyperlinks"),
      graphEntry("sx-stackoverflow", 2600000, 36200000, kSocial, 1, "interactions"),
      laplacianEntry(2048),
      stencil27Entry(128),
      uniformEntry(22, 10),
      rmatEntry(21, 16),
  };
}

/// The quick suite's generated matrices: one or two of each family, scaled down so that the
/// whole quick suite (with the real matrices) runs in minutes.
inline std::vector<CatalogEntry> quickCatalog() {
  using namespace detail;
  return {
      femEntry(kCant, kSolid3dof, 1, "fem-like", "3D cantilever, elasticity"),
      femEntry(kCage13, kGraph3d, 4, "fem-like", "DNA electrophoresis, local couplings"),
      chungLuRowsEntry(kWebbase, kWeb, 4, "web crawl"),
      graphEntry("eu-2005", 862664, 19200000, kWeb, 8, "web crawl"),
      laplacianEntry(512),
      stencil27Entry(48),
      uniformEntry(18, 10),
      rmatEntry(18, 16),
  };
}

/// The unseen suite: matrices of shapes the kernels were not tuned on (one long row among short
/// ones, a circuit-like and a power-law graph of other exponents, a 3x3-block FEM, a 3-D 7-point
/// stencil), for checking speed claims away from the suites above. Run it with a new --seed.
inline std::vector<CatalogEntry> unseenCatalog() {
  using namespace detail;
  return {
      unseenEntry("stencil7-128", "stencil", "stencil", "7-point Laplacian on a 128^3 grid", 128 * 128 * 128,
                  7 * 128 * 128 * 128, [](std::uint64_t) { return laplacian3d(128); }),
      unseenEntry("fem3x3-1.2M", "fem-like", "fem-like", "3D node grid, 3 dof per node, 1.2 M rows, about 33 M entries",
                  1200000, 33000000,
                  [](std::uint64_t seed) { return femLike(1200000, 33000000, {9, 81, 27.5, 8}, {3, 3}, seed); }),
      unseenEntry("circuit-1.6M", "chung-lu", "power-law",
                  "circuit-like: rows of 1 to 20,000 entries, mean 4.8, 70% of columns near the diagonal", 1600000,
                  7700000,
                  [](std::uint64_t seed) {
                    return chungLuRows(1600000, 1600000, 7700000, {1, 20000, 4.8, 40}, {2.0, 0.7, 64}, seed);
                  }),
      unseenEntry("powerlaw-2^21", "chung-lu", "power-law", "Chung-Lu graph, 2^21 nodes, 25 M edges, gamma 2.3",
                  std::int64_t{1} << 21, 25000000,
                  [](std::uint64_t seed) { return chungLuGraph(std::int64_t{1} << 21, 25000000, {2.3, 0.0, 0}, seed); }),
      unseenEntry("rmat-s20-ef24", "rmat", "power-law", "R-MAT scale 20, edge factor 24", std::int64_t{1} << 20,
                  24 << 20, [](std::uint64_t seed) { return rmat(20, 24, seed); }),
      unseenEntry("onerow-20k", "long-rows", "long-row", "20,000 rows: the identity and one full row", 20000, 40000,
                  [](std::uint64_t seed) { return longRows(20000, 20000, 1, seed); }),
      unseenEntry("onerow-1M", "long-rows", "long-row", "1 M rows: the identity and one full row of 1 M entries",
                  1000000, 2000000, [](std::uint64_t seed) { return longRows(1000000, 1000000, 1, seed); }),
      unseenEntry("longrows-500k", "long-rows", "long-row", "500,000 rows: the identity and 40 rows of 100,000 entries",
                  500000, 4500000, [](std::uint64_t seed) { return longRows(500000, 100000, 40, seed); }),
  };
}

}  // namespace araios::bench::gen
