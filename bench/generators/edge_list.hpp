#pragma once
// Edge lists of the graph generators (R-MAT, Chung-Lu): (row, column) pairs packed into one
// 64-bit key, row in the high bits, so that sorting the keys sorts the matrix by (row, column).
// Sorted with an LSD radix sort: a few passes over tens of millions of keys take well under a
// second, several times less than std::sort.
#include "host_matrix_builder.hpp"
#include "rng.hpp"

#include <algorithm>
#include <cstdint>
#include <vector>

namespace araios::bench::gen {

/// Bits needed for indices in [0, n).
inline int indexBits(std::int64_t n) {
  int bits = 1;
  while ((std::int64_t{1} << bits) < n) ++bits;
  return bits;
}

/// Sorts keys whose set bits all lie below bit `keyBits`. Digits of 16 bits: a 64 Ki-entry
/// histogram stays in L2 cache, and 44-bit keys need three passes.
inline void radixSort(std::vector<std::uint64_t>& keys, int keyBits) {
  constexpr int kDigitBits = 16;
  constexpr std::size_t kBuckets = std::size_t{1} << kDigitBits;
  std::vector<std::uint64_t> scratch(keys.size());
  std::vector<std::size_t> count(kBuckets);
  for (int shift = 0; shift < keyBits; shift += kDigitBits) {
    std::fill(count.begin(), count.end(), 0);
    for (const std::uint64_t k : keys) ++count[(k >> shift) & (kBuckets - 1)];
    std::size_t offset = 0;
    for (auto& c : count) {
      const std::size_t here = c;
      c = offset;
      offset += here;
    }
    for (const std::uint64_t k : keys) scratch[count[(k >> shift) & (kBuckets - 1)]++] = k;
    keys.swap(scratch);
  }
}

/// Sorts the keys (indices below bit `keyBits`) and removes repeated ones; returns how many went.
inline std::int64_t sortUniqueKeys(std::vector<std::uint64_t>& keys, int keyBits) {
  radixSort(keys, keyBits);
  const auto end = std::unique(keys.begin(), keys.end());
  const auto removed = static_cast<std::int64_t>(keys.end() - end);
  keys.erase(end, keys.end());
  return removed;
}

/// The matrix of sorted, distinct keys (column in the low `colBits` bits), with values drawn in
/// that order.
inline io::HostMatrix matrixFromSortedKeys(std::int64_t rows, std::int64_t cols, const std::vector<std::uint64_t>& keys,
                                           int colBits, Rng& values) {
  MatrixAssembler out(rows, cols, static_cast<std::int64_t>(keys.size()));
  const std::uint64_t colMask = (std::uint64_t{1} << colBits) - 1;
  for (const std::uint64_t k : keys) {
    out.append(static_cast<std::int64_t>(k >> colBits), static_cast<std::int64_t>(k & colMask),
               values.uniform(kValueLow, kValueHigh));
  }
  return out.finish();
}

/// A random permutation of [0, n) (Fisher-Yates).
inline std::vector<std::int64_t> randomPermutation(std::int64_t n, Rng& rng) {
  std::vector<std::int64_t> p(static_cast<std::size_t>(n));
  for (std::int64_t i = 0; i < n; ++i) p[i] = i;
  for (std::int64_t i = n - 1; i > 0; --i) std::swap(p[i], p[rng.below(static_cast<std::uint64_t>(i) + 1)]);
  return p;
}

}  // namespace araios::bench::gen
