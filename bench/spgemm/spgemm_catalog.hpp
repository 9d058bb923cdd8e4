#pragma once
// The generated matrices of the SpGEMM suite (araios-bench --spgemm): square ones multiplied by
// themselves (A*A) and rectangular ones by their transpose (A*A^T). Each entry seeds itself from
// its own name (gen::seedFromName with the run's --seed), so none repeats a matrix of the SpMV
// catalog. The full suite's sizes put every product at 3.9*10^7 intermediate products or more
// (the targets count products from 10^7 on) with C of 3.7*10^7 to 6.7*10^7 entries, so that a
// whole run, with its host-side checks, takes a few minutes on one H100; the quick suite's are
// about 1/5 to 1/40 of that, for a 2-core CPU. Values of every matrix, the stencils' too, are
// uniform in [-1, 1): sums of products then round, and the order of summation shows in the bits.
//
// expectedProducts is what the generator gives (measured once; it only steers the ETA).
#include "generators/chung_lu.hpp"
#include "generators/fem_like.hpp"
#include "generators/random_uniform.hpp"
#include "generators/rng.hpp"
#include "generators/stencils.hpp"
#include "spgemm/spgemm_generators.hpp"

#include <araios/io/matrix_market.hpp>

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace araios::bench::gen {

/// The product an entry is measured with.
inline const char* kSquareProduct = "A*A";
inline const char* kGramProduct = "A*A^T";

struct SpgemmCatalogEntry {
  std::string name;
  std::string matrixClass;  ///< stencil, fem-like, power-law, random, long-rows, lp-like, tall
  std::string product;      ///< kSquareProduct or kGramProduct
  std::string model;        ///< the generator and its parameters, in words
  double expectedProducts = 0;
  std::function<io::HostMatrix(std::uint64_t seed)> make;
};

/// `m` with its values replaced by uniform draws in [kValueLow, kValueHigh).
inline io::HostMatrix withRandomValues(io::HostMatrix m, std::uint64_t seed) {
  Rng values(seed, 7);
  for (auto& v : m.value) v = values.uniform(kValueLow, kValueHigh);
  return m;
}

namespace detail {

inline SpgemmCatalogEntry laplacian3dEntry(std::int64_t n, double products) {
  return {"laplacian3d-" + std::to_string(n), "stencil", kSquareProduct,
          "7-point stencil pattern on a " + std::to_string(n) + "^3 grid", products,
          [n](std::uint64_t seed) { return withRandomValues(laplacian3d(n), seed); }};
}

inline SpgemmCatalogEntry stencil27Entry(std::int64_t n, double products) {
  return {"stencil27-spgemm-" + std::to_string(n), "stencil", kSquareProduct,
          "27-point stencil pattern on a " + std::to_string(n) + "^3 grid", products,
          [n](std::uint64_t seed) { return withRandomValues(stencil27(n), seed); }};
}

/// 3-D elasticity-like blocks: 3 dofs per node, rows of 9 to 81 entries, mean 45, std 9.
inline SpgemmCatalogEntry blockFemEntry(std::int64_t side, double products) {
  const std::int64_t rows = 3 * side * side * side;
  constexpr std::int64_t kMeanRow = 45;
  return {"fem-3dof-" + std::to_string(side) + "^3", "fem-like", kSquareProduct,
          "3D node grid " + std::to_string(side) + "^3, 3 dof/node (dense 3x3 blocks), rows of 9..81 entries, mean 45",
          products, [rows](std::uint64_t seed) {
            return femLike(rows, rows * kMeanRow, RowLengthTarget{9, 81, kMeanRow, 9}, FemLikeParameters{3, 3}, seed);
          }};
}

/// Chung-Lu, degree exponent 2.3, no locality: products that hardly combine (nnz(C) close to
/// the products) and hubs whose rows of C are long.
inline SpgemmCatalogEntry powerLawEntry(std::int64_t nodes, std::int64_t edges, const std::string& label,
                                        double products) {
  return {"chung-lu-" + label, "power-law", kSquareProduct,
          "Chung-Lu graph, " + std::to_string(nodes) + " nodes, " + std::to_string(edges) + " edges, gamma 2.3",
          products, [nodes, edges](std::uint64_t seed) {
            return chungLuGraph(nodes, edges, PowerLawParameters{2.3, 0.0, 0}, seed);
          }};
}

inline SpgemmCatalogEntry uniformEntry(int log2Rows, std::int64_t perRow, double products) {
  const std::int64_t rows = std::int64_t{1} << log2Rows;
  return {"uniform-spgemm-2^" + std::to_string(log2Rows) + "x" + std::to_string(perRow), "random", kSquareProduct,
          std::to_string(perRow) + " distinct uniform columns per row, square", products,
          [rows, perRow](std::uint64_t seed) { return randomUniform(rows, rows, perRow, seed); }};
}

inline SpgemmCatalogEntry longRowsEntry(int log2Rows, std::int64_t longRows, std::int64_t longLength, double products) {
  const std::int64_t rows = std::int64_t{1} << log2Rows;
  constexpr std::int64_t kShortRow = 4;
  return {"long-rows-2^" + std::to_string(log2Rows), "long-rows", kSquareProduct,
          "4 uniform columns per row, and " + std::to_string(longRows) + " rows of " + std::to_string(longLength) +
              " uniform columns",
          products, [rows, longRows, longLength](std::uint64_t seed) {
            return longRowsMatrix(rows, kShortRow, longRows, longLength, seed);
          }};
}

/// LP constraint matrix, 1:3 aspect: log-normal row lengths (1 to maxRow, mean 24, std 80),
/// uniform columns.
inline SpgemmCatalogEntry lpEntry(std::int64_t rows, std::int64_t maxRow, const std::string& label, double products) {
  constexpr std::int64_t kMeanRow = 24;
  return {"lp-like-" + label, "lp-like", kGramProduct,
          std::to_string(rows) + " x " + std::to_string(3 * rows) + ", log-normal row lengths 1.." +
              std::to_string(maxRow) + " (mean 24, std 80), uniform columns",
          products, [rows, maxRow](std::uint64_t seed) {
            return lpLike(rows, 3 * rows, rows * kMeanRow, RowLengthTarget{1, maxRow, kMeanRow, 80}, seed);
          }};
}

/// Tall, 4:1: 3 columns per row within +-64 of the row's diagonal position.
inline SpgemmCatalogEntry tallEntry(std::int64_t rows, const std::string& label, double products) {
  constexpr std::int64_t kPerRow = 3;
  constexpr std::int64_t kWindow = 64;
  return {"tall-" + label, "tall", kGramProduct,
          std::to_string(rows) + " x " + std::to_string(rows / 4) + ", 3 columns per row within +-64 of i/4", products,
          [rows](std::uint64_t seed) { return tallBanded(rows, rows / 4, kPerRow, kWindow, seed); }};
}

}  // namespace detail

/// The full suite's generated products (one H100).
inline std::vector<SpgemmCatalogEntry> spgemmFullCatalog() {
  using namespace detail;
  return {
      laplacian3dEntry(128, 1.0e8),
      stencil27Entry(80, 3.6e8),
      blockFemEntry(32, 2.0e8),
      powerLawEntry(100000, 800000, "100k", 5.8e7),
      uniformEntry(20, 8, 6.7e7),
      longRowsEntry(20, 16, 200000, 4.9e7),
      lpEntry(200000, 20000, "200k", 4.3e7),
      tallEntry(1000000, "1M", 3.9e7),
  };
}

/// The quick suite's generated products (a 2-core CPU).
inline std::vector<SpgemmCatalogEntry> spgemmQuickCatalog() {
  using namespace detail;
  return {
      laplacian3dEntry(40, 3.0e6),
      stencil27Entry(24, 8.7e6),
      blockFemEntry(12, 1.0e7),
      powerLawEntry(20000, 160000, "20k", 7e6),
      uniformEntry(16, 8, 4.2e6),
      longRowsEntry(17, 8, 16384, 3.4e6),
      lpEntry(40000, 4000, "40k", 8.6e6),
      tallEntry(200000, "200k", 7.8e6),
  };
}

}  // namespace araios::bench::gen
