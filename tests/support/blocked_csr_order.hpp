#pragma once
// The blocked CSR order of Deterministic mode (docs/reproducibility.md), on the host, written
// from its definition and not from the library's accumulator: a row's products, in CSR order,
// cut into chunks of 32, each summed left to right from -0.0; the chunks' sums in groups of
// 256, the groups' sums in blocks of 256, summed the same way; then the blocks' sums left to
// right from -0.0. Each sum is rounded to Value on its own (the tests build with
// -ffp-contract=off).
#include <algorithm>
#include <cstddef>
#include <vector>

namespace araios::test {

/// `terms` cut into runs of `run`, each summed left to right from -0.0: the next level up.
template <class Value>
std::vector<Value> sumsOfRuns(std::size_t run, const std::vector<Value>& terms) {
  std::vector<Value> sums;
  for (std::size_t k = 0; k < terms.size(); k += run) {
    Value sum = -Value(0);
    for (std::size_t j = k; j < std::min(terms.size(), k + run); ++j) sum = sum + terms[j];
    sums.push_back(sum);
  }
  return sums;
}

/// The sum of a row whose rounded products, in CSR order, are `products`.
template <class Value>
Value blockedCsrOrder(const std::vector<Value>& products) {
  const std::vector<Value> blocks = sumsOfRuns(256, sumsOfRuns(256, sumsOfRuns(32, products)));
  Value sum = -Value(0);
  for (const Value block : blocks) sum = sum + block;
  return sum;
}

}  // namespace araios::test
