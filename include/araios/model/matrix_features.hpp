#pragma once
// What the performance model (araios/model/kernel_model.hpp) knows of a matrix: counts from
// one pass over CSR's row offsets, and a sample of rows for the column pattern.
// compute_features.hpp computes them on the matrix's own device; this header holds no Kokkos,
// so that the profile files and the tools can use the struct on the host alone.
//
// Every count is an exact integer sum, so the features, and the kernel chosen from them, are
// the same on every backend and thread count.
#include <array>
#include <cmath>
#include <cstdint>

namespace araios {

/// Row-length classes: class 0 holds the empty rows, class c >= 1 the rows of 2^(c-1) to
/// 2^c - 1 entries. 40 classes reach rows of 2^39 entries.
inline constexpr int kRowLengthClasses = 40;
/// Rows per group of the group statistics: a GPU warp, and SELL's slice height.
inline constexpr int kRowGroup = 32;
/// Rows per window of SELL's estimate: SELL sorts rows by length within windows of this many
/// (formats/sell/sell_convert.hpp, kDefaultSellSortWindow; test_features checks the two agree).
inline constexpr int kRowWindow = 256;
/// Columns per block of x in the locality statistics: 128 bytes of doubles, a cache line.
inline constexpr int kColumnBlock = 16;
/// Rows sampled for the column pattern, evenly spaced, and the entries read per sampled row.
inline constexpr std::int64_t kSampledRows = 8192;
inline constexpr std::int64_t kSampledEntriesPerRow = 2048;

/// The class of a row of `length` entries (the device pass has its copy in
/// compute_features.hpp; test_features checks that the two agree).
inline int rowLengthClass(std::int64_t length) {
  int c = 0;
  while (length > 0 && c < kRowLengthClasses - 1) {
    length >>= 1;
    ++c;
  }
  return c;
}

struct MatrixFeatures {
  std::int64_t rows = 0;
  std::int64_t cols = 0;
  std::int64_t nnz = 0;
  std::int64_t maxRowLength = 0;
  std::int64_t minRowLength = 0;
  std::int64_t emptyRows = 0;
  /// Sum of squared row lengths (the variance of the row lengths, exactly).
  std::int64_t rowLengthSquares = 0;
  /// Rows and entries per row-length class (rowLengthClass).
  std::array<std::int64_t, kRowLengthClasses> rowsByClass{};
  std::array<std::int64_t, kRowLengthClasses> entriesByClass{};
  /// Sum over groups of kRowGroup consecutive rows of kRowGroup x the group's longest row: the
  /// slots of SELL-32 without sorting, and the lane-steps of a one-row-per-lane kernel on
  /// 32-lane warps (csr-scalar on a GPU).
  std::int64_t groupSlots = 0;
  /// SELL's slots (slices of kRowGroup rows, rows sorted by length within windows of
  /// kRowWindow), estimated: each window's rows sorted by length class, and each slice as wide
  /// as the longest row of the class it starts in. At least SELL's own count; equal when rows
  /// of one class in a window have one length.
  std::int64_t sellSlots = 0;

  // The sample: kSampledRows rows evenly spaced (every row of a smaller matrix), at most
  // kSampledEntriesPerRow entries of each.
  std::int64_t sampledRows = 0;
  std::int64_t sampledEntries = 0;
  /// Distinct kColumnBlock-column blocks of x the sampled rows touch, row by row.
  std::int64_t sampledBlocks = 0;
  /// Of those, the blocks the row before did not touch: x's lines a product must fetch anew.
  std::int64_t sampledNewBlocks = 0;
  /// Distinct diagonals (column - row) among the sampled entries: a lower bound on DIA's.
  std::int64_t sampledDiagonals = 0;

  double meanRowLength() const { return rows > 0 ? static_cast<double>(nnz) / static_cast<double>(rows) : 0.0; }
  double stdRowLength() const {
    if (rows == 0) return 0.0;
    const long double meanSq = static_cast<long double>(rowLengthSquares) / rows;
    const long double mean = static_cast<long double>(nnz) / rows;
    const long double var = meanSq - mean * mean;
    return var > 0 ? static_cast<double>(std::sqrt(var)) : 0.0;
  }
  /// Fraction of the gathered entries that start a new block of x (1 for scattered columns,
  /// near 1 / kColumnBlock for a banded matrix).
  double newBlockFraction() const {
    return sampledEntries > 0 ? static_cast<double>(sampledNewBlocks) / static_cast<double>(sampledEntries) : 1.0;
  }
  /// Entries per distinct block within a row (1 for scattered columns, up to kColumnBlock).
  double entriesPerBlock() const {
    return sampledBlocks > 0 ? static_cast<double>(sampledEntries) / static_cast<double>(sampledBlocks) : 1.0;
  }
  /// Rows of `width` entries or more, counted by class (exact when width is a power of two).
  std::int64_t rowsOfAtLeast(std::int64_t width) const {
    std::int64_t n = 0;
    for (int c = rowLengthClass(width); c < kRowLengthClasses; ++c) n += rowsByClass[c];
    return n;
  }
  /// Entries of the rows of `width` entries or more, counted by class (exact when width is a
  /// power of two).
  std::int64_t entriesOfAtLeast(std::int64_t width) const {
    std::int64_t n = 0;
    for (int c = rowLengthClass(width); c < kRowLengthClasses; ++c) n += entriesByClass[c];
    return n;
  }
};

}  // namespace araios
