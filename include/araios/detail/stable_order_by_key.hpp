#pragma once
// stableOrderByKey: positions ordered by their keys, largest or smallest first, equal keys in
// position order. That is the order std::stable_sort gives, and the one that defines the
// layouts of BRC, BRCP, JDS, SELL-C-sigma and SC-CSR. Their keys are row or piece lengths,
// small next to how many there are, so a counting sort gives it in O(n + largest key) instead
// of O(n log n): planning BRC for 2.26 million rows of 12 entries took about a second on the
// host with two stable sorts. Keys too large for a count per key fall back to the sort.
#include <algorithm>
#include <cstdint>
#include <numeric>
#include <vector>

namespace araios::Impl {

enum class KeyOrder { LargestFirst, SmallestFirst };

/// The positions begin..end-1 of keys (each >= 0) in the order `by`, equal keys in position
/// order: order[k] is the position placed k-th.
inline std::vector<std::int64_t> stableOrderByKey(const std::vector<std::int64_t>& keys, KeyOrder by,
                                                  std::int64_t begin, std::int64_t end) {
  const std::int64_t n = end > begin ? end - begin : 0;
  std::vector<std::int64_t> order(static_cast<std::size_t>(n));
  if (n == 0) return order;
  const std::int64_t largest = *std::max_element(keys.begin() + begin, keys.begin() + end);
  if (largest > 4 * n + 4096) {  // a count per key would cost more than the sort
    std::iota(order.begin(), order.end(), begin);
    if (by == KeyOrder::LargestFirst)
      std::stable_sort(order.begin(), order.end(), [&](std::int64_t a, std::int64_t b) { return keys[a] > keys[b]; });
    else
      std::stable_sort(order.begin(), order.end(), [&](std::int64_t a, std::int64_t b) { return keys[a] < keys[b]; });
    return order;
  }
  // start[k]: where the first position of key k goes.
  std::vector<std::int64_t> start(static_cast<std::size_t>(largest) + 1, 0);
  for (std::int64_t i = begin; i < end; ++i) ++start[static_cast<std::size_t>(keys[i])];
  std::int64_t placed = 0;
  for (std::int64_t step = 0; step <= largest; ++step) {
    const std::size_t k = static_cast<std::size_t>(by == KeyOrder::LargestFirst ? largest - step : step);
    const std::int64_t count = start[k];
    start[k] = placed;
    placed += count;
  }
  for (std::int64_t i = begin; i < end; ++i) order[static_cast<std::size_t>(start[static_cast<std::size_t>(keys[i])]++)] = i;
  return order;
}

inline std::vector<std::int64_t> stableOrderByKey(const std::vector<std::int64_t>& keys, KeyOrder by) {
  return stableOrderByKey(keys, by, 0, static_cast<std::int64_t>(keys.size()));
}

}  // namespace araios::Impl
