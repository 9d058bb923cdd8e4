#pragma once
// The x of araios spmv: the same vector on every backend, every run and every number of ranks.
#include <cstdint>
#include <random>
#include <vector>

namespace araios::cli {

/// x in [-1, 1), from a seed. (The command's error column and its tests are calibrated on this
/// x; araios repro and the library's seededVector use SplitMix64.)
template <class Value>
std::vector<Value> makeX(std::int64_t n, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> dist(-1.0, 1.0);
  std::vector<Value> x(n);
  for (auto& v : x) v = static_cast<Value>(dist(rng));
  return x;
}

}  // namespace araios::cli
