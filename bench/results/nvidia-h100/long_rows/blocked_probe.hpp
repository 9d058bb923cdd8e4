#pragma once
// Shared by the probes of Deterministic mode's blocked CSR order (long_rows_probe.cpp and
// ../rows_apart/rows_apart_probe.cpp): matrices drawn on the host, the host loop of the blocked
// order written from its definition, the timing of a product and its line of output.
#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <functional>
#include <random>
#include <string>
#include <vector>

struct HostCsr {
  std::string name;
  int rows = 0;
  std::vector<int> ptr{0}, col;
  std::vector<double> val;
};

/// Appends a row of `length` distinct columns drawn from [0, cols).
void addRow(HostCsr& m, std::int64_t length, int cols, std::mt19937_64& rng) {
  std::vector<int> c;
  if (length * 4 > cols) {  // dense enough: a random subset by a partial shuffle
    std::vector<int> all(cols);
    for (int j = 0; j < cols; ++j) all[j] = j;
    for (std::int64_t k = 0; k < length; ++k) std::swap(all[k], all[k + rng() % (cols - k)]);
    c.assign(all.begin(), all.begin() + length);
  } else {
    while (static_cast<std::int64_t>(c.size()) < length) {
      c.push_back(static_cast<int>(rng() % cols));
      if (c.size() == static_cast<std::size_t>(length)) {
        std::sort(c.begin(), c.end());
        c.erase(std::unique(c.begin(), c.end()), c.end());
      }
    }
  }
  std::sort(c.begin(), c.end());
  for (int j : c) {
    m.col.push_back(j);
    m.val.push_back(1.0 + static_cast<double>(rng() % 1000000) * 1e-6);
  }
  m.ptr.push_back(static_cast<int>(m.col.size()));
  ++m.rows;
}

/// y_i = sum_j a_ij x_j in the blocked CSR order, written from its definition: products rounded,
/// summed in runs of 32 from -0.0 (chunks), then of 256 twice (groups, blocks), then the blocks.
std::vector<double> blockedReference(const HostCsr& m, const std::vector<double>& x) {
  std::vector<double> y(m.rows);
  for (int i = 0; i < m.rows; ++i) {
    std::vector<double> level;
    for (int k = m.ptr[i]; k < m.ptr[i + 1]; ++k) level.push_back(m.val[k] * x[m.col[k]]);
    for (int up = 0; up < 3; ++up) {
      const std::size_t run = up == 0 ? 32 : 256;
      std::vector<double> sums;
      for (std::size_t k = 0; k < level.size(); k += run) {
        double s = -0.0;
        for (std::size_t j = k; j < std::min(level.size(), k + run); ++j) s = s + level[j];
        sums.push_back(s);
      }
      level = std::move(sums);
    }
    double s = -0.0;
    for (double b : level) s = s + b;
    y[i] = s;
  }
  return y;
}

template <class Product>
double microsecondsPerProduct(const Product& product) {
  Kokkos::Timer once;
  product();
  Kokkos::fence();
  const int perBatch = once.seconds() > 2e-3 ? 2 : 20;
  for (int r = 0; r < perBatch; ++r) product();
  Kokkos::fence();
  std::vector<double> batches;
  for (int b = 0; b < 5; ++b) {
    Kokkos::Timer t;
    for (int r = 0; r < perBatch; ++r) product();
    Kokkos::fence();
    batches.push_back(t.seconds() / perBatch * 1e6);
  }
  std::sort(batches.begin(), batches.end());
  return batches[2];
}

/// Times `product` (microsecondsPerProduct), runs it once more on a y filled with NaN and prints
/// a line for it: matrix, kernel, time and, for a deterministic product, whether y has the bits
/// of `expected`. Returns 1 where those bits differ, 0 otherwise.
template <class YView>
int reportProduct(const HostCsr& m, int longest, const std::string& kernel, bool deterministic,
                  const std::function<void()>& product, const YView& y, const std::vector<double>& expected,
                  int kernelWidth) {
  const double us = microsecondsPerProduct(product);
  Kokkos::deep_copy(y, std::nan(""));
  product();
  Kokkos::fence();
  const auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), y);
  const char* verdict = "-";
  bool same = true;
  if (deterministic) {
    same = std::memcmp(h.data(), expected.data(), sizeof(double) * m.rows) == 0;
    verdict = same ? "blocked order" : "BITS DIFFER";
  }
  std::printf("%-11s %9d %9ld %8d  %-*s %10.1f  %s\n", m.name.c_str(), m.rows, static_cast<long>(m.col.size()),
              longest, kernelWidth, kernel.c_str(), us, verdict);
  std::fflush(stdout);
  return same ? 0 : 1;
}
