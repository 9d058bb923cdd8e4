#pragma once
// A vector of n values in [-1, 1) from a seed, the same bits on every machine and compiler:
// SplitMix64 draws, each turned into k * 2^-52 - 1 exactly (std::uniform_real_distribution is
// not specified bit for bit). The x of `araios spmv`, `araios repro` and araios-bench, and the
// random right-hand side of `araios solve`, so that a program of the user's can reproduce their
// hashes. `stream` selects an independent sequence for the same seed (stream 0: the seed's own).
#include <cmath>
#include <cstdint>
#include <vector>

namespace araios {

template <class Value>
std::vector<Value> seededVector(std::int64_t n, std::uint64_t seed, std::uint64_t stream = 0) {
  std::vector<Value> x(n);
  // Streams start 2^40 draws apart: no vector Araios makes comes near that length.
  std::uint64_t state = seed + stream * (0x9e3779b97f4a7c15ull << 40);
  for (auto& v : x) {
    std::uint64_t z = (state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    z ^= z >> 31;
    v = static_cast<Value>(std::ldexp(static_cast<double>(z >> 11), -52) - 1.0);  // k * 2^-52 - 1, exact
  }
  return x;
}

}  // namespace araios
