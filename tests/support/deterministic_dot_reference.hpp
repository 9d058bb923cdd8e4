#pragma once
// The deterministic dot product's documented order (araios/primitives/deterministic_reduce.hpp),
// written out on the host from its definition: chunks of kDotChunk, kDotLanes strided lanes
// with fma from zero, the lane tree, then the pairwise tree over the chunk index.
#include <araios/primitives/chunked_dots.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <utility>
#include <vector>

namespace araios::test {

/// The pairwise tree over the chunk index, level by level as documented: level s adds sum i + s
/// into sum i for every i a multiple of 2s with i + s < count. Returns the total (0 for none).
template <class Value>
Value hostPairwiseTree(std::vector<Value> partial) {
  const std::int64_t chunks = static_cast<std::int64_t>(partial.size());
  for (std::int64_t s = 1; s < chunks; s *= 2)
    for (std::int64_t i = 0; i + s < chunks; i += 2 * s) partial[i] = partial[i] + partial[i + s];
  return chunks > 0 ? partial[0] : Value(0);
}

template <class Value>
Value hostDeterministicDot(const std::vector<Value>& x, const std::vector<Value>& y) {
  const std::int64_t n = static_cast<std::int64_t>(x.size());
  const std::int64_t chunks = (n + kDotChunk - 1) / kDotChunk;
  std::vector<Value> partial(chunks);
  for (std::int64_t c = 0; c < chunks; ++c) {
    Value lanes[kDotLanes];
    const std::int64_t end = std::min(n, (c + 1) * kDotChunk);
    for (int l = 0; l < kDotLanes; ++l) {
      lanes[l] = 0;
      for (std::int64_t i = c * kDotChunk + l; i < end; i += kDotLanes) lanes[l] = std::fma(x[i], y[i], lanes[l]);
    }
    for (int w = kDotLanes / 2; w >= 1; w /= 2)
      for (int l = 0; l < w; ++l) lanes[l] = lanes[l] + lanes[l + w];
    partial[c] = lanes[0];
  }
  return hostPairwiseTree(std::move(partial));
}

}  // namespace araios::test
