#pragma once
// The matrix of araios-scale-check, defined by a formula so that the device can generate it and
// the host can evaluate any of its rows without holding the matrix.
//
// n rows; row i holds the columns j = i - b .. i + b that lie in [0, n), in increasing order
// (2b + 1 entries, fewer in the first and last b rows). Off the diagonal a_ij = -w(min(i,j),
// max(i,j)) * 2^-12 with w in 1..4096 from a hash of the pair, so A is symmetric. The diagonal
// is the sum of the row's |off-diagonals| plus 1: A is strictly diagonally dominant with a
// positive diagonal, hence symmetric positive definite. The diagonal is summed in integers
// (units of 2^-12) and rounded once, so host and device get the same float whatever their order.
#include <Kokkos_Core.hpp>

#include <cstdint>

namespace araios_scale {

/// Units of 2^-12 in an off-diagonal: at most 4096, so a row of 2b off-diagonals sums to at most
/// 2b * 2^12 units, exact in 32 bits for any band the program accepts.
constexpr std::uint32_t kWeightUnits = 4096;
constexpr float kUnit = 1.0f / 4096.0f;  // 2^-12, exact
/// The largest band accepted: keeps the diagonal's unit sum (2b * 4096) far inside 2^31.
constexpr std::int64_t kMaxBand = 4096;

struct BandedSpd {
  std::int64_t n = 0;
  std::int64_t band = 0;
  std::uint64_t seed = 0;

  KOKKOS_INLINE_FUNCTION std::int64_t firstColumn(std::int64_t i) const { return i > band ? i - band : 0; }
  KOKKOS_INLINE_FUNCTION std::int64_t lastColumn(std::int64_t i) const { return i + band < n ? i + band : n - 1; }
  KOKKOS_INLINE_FUNCTION std::int64_t length(std::int64_t i) const { return lastColumn(i) - firstColumn(i) + 1; }

  /// w(a, b) for a < b: SplitMix64's finaliser over the pair and the seed, top 12 bits + 1.
  KOKKOS_INLINE_FUNCTION std::uint32_t weight(std::int64_t a, std::int64_t b) const {
    std::uint64_t z = seed + 0x9e3779b97f4a7c15ull * static_cast<std::uint64_t>(a + 1) +
                      0xd1b54a32d192ed03ull * static_cast<std::uint64_t>(b - a);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    z ^= z >> 31;
    return static_cast<std::uint32_t>(z >> 52) + 1;  // 1 .. 4096
  }

  /// The units of 2^-12 of row i's diagonal: sum of the off-diagonal weights, plus 4096 (= 1).
  KOKKOS_INLINE_FUNCTION std::uint32_t diagonalUnits(std::int64_t i) const {
    std::uint32_t units = kWeightUnits;
    for (std::int64_t j = firstColumn(i); j <= lastColumn(i); ++j) {
      if (j != i) units += j < i ? weight(j, i) : weight(i, j);
    }
    return units;
  }

  /// a_ij for j within row i's band.
  KOKKOS_INLINE_FUNCTION float value(std::int64_t i, std::int64_t j) const {
    if (i == j) return static_cast<float>(diagonalUnits(i)) * kUnit;
    return -static_cast<float>(j < i ? weight(j, i) : weight(i, j)) * kUnit;
  }

  /// Entries in rows 0 .. i-1 (the CSR offset of row i), in closed form:
  /// sum_{k<i} (min(n-1, k+b) - max(0, k-b) + 1).
  std::int64_t entriesBefore(std::int64_t i) const {
    auto triangle = [](std::int64_t t) { return t > 0 ? t * (t + 1) / 2 : 0; };
    const std::int64_t all = i * (i - 1) / 2 + i * (band + 1);  // sum of k + b + 1
    return all - triangle(i - n + band) - triangle(i - 1 - band);
  }
};

/// Row i's functors for araios::csrFromRows.
struct BandedSpdLength {
  BandedSpd A;
  template <class Ordinal>
  KOKKOS_INLINE_FUNCTION std::int64_t operator()(Ordinal i) const { return A.length(static_cast<std::int64_t>(i)); }
};

struct BandedSpdFill {
  BandedSpd A;
  template <class Ordinal, class Value>
  KOKKOS_INLINE_FUNCTION void operator()(Ordinal row, Ordinal* cols, Value* vals) const {
    const std::int64_t i = static_cast<std::int64_t>(row);
    const std::int64_t first = A.firstColumn(i), last = A.lastColumn(i);
    std::uint32_t diagonal = kWeightUnits;
    for (std::int64_t j = first; j <= last; ++j) {
      const std::int64_t k = j - first;
      cols[k] = static_cast<Ordinal>(j);
      if (j != i) {
        const std::uint32_t w = j < i ? A.weight(j, i) : A.weight(i, j);
        diagonal += w;
        vals[k] = static_cast<Value>(-static_cast<float>(w) * kUnit);
      }
    }
    vals[i - first] = static_cast<Value>(static_cast<float>(diagonal) * kUnit);
  }
};

}  // namespace araios_scale
