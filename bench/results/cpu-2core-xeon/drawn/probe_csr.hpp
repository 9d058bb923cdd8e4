#pragma once
// Shared by the probes in this folder (lanes_probe.cpp, merge_probe.cpp, short_rows_probe.cpp) and
// the GPU probes (nvidia-h100/merge_one_launch, nvidia-h200/rows_in_order: their matrices,
// gpuProbeCases; nvidia-h100/long_rows: csrFromArrays): a
// random square CSR matrix in the memory of Csr's device, and the check of a kernel's bits against
// another build's. Row i has length(i, rng) entries in uniformly drawn
// columns (sorted, repeats kept), with values in [1, 2).
#include <araios/formats/csr/csr.hpp>
#include <Kokkos_Core.hpp>
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdio>
#include <cstring>
#include <functional>
#include <memory>
#include <random>
#include <string>
#include <vector>

template <class Csr>
Csr csrFromArrays(int rows, const std::vector<int>& ptr, const std::vector<int>& col, const std::vector<double>& val) {
  Csr A;
  A.numRows = rows;
  A.numCols = rows;
  A.rowPtr = decltype(A.rowPtr)("p", rows + 1);
  A.colIdx = decltype(A.colIdx)("c", col.size());
  A.values = decltype(A.values)("v", val.size());
  auto hp = Kokkos::create_mirror_view(A.rowPtr);
  auto hc = Kokkos::create_mirror_view(A.colIdx);
  auto hv = Kokkos::create_mirror_view(A.values);
  for (int i = 0; i <= rows; ++i) hp(i) = ptr[i];
  for (std::size_t k = 0; k < col.size(); ++k) {
    hc(k) = col[k];
    hv(k) = val[k];
  }
  Kokkos::deep_copy(A.rowPtr, hp);
  Kokkos::deep_copy(A.colIdx, hc);
  Kokkos::deep_copy(A.values, hv);
  return A;
}

template <class Csr, class Length>
Csr randomCsr(int rows, unsigned seed, const Length& length) {
  std::mt19937 rng(seed);
  std::vector<int> ptr(rows + 1, 0), col;
  std::vector<double> val;
  for (int i = 0; i < rows; ++i) {
    std::vector<int> c(length(i, rng));
    for (auto& v : c) v = rng() % rows;
    std::sort(c.begin(), c.end());
    for (int v : c) {
      col.push_back(v);
      val.push_back(1.0 + (rng() % 1000) * 1e-3);
    }
    ptr[i + 1] = col.size();
  }
  return csrFromArrays<Csr>(rows, ptr, col, val);
}

/// With `save`, writes y's n values to `path` and returns "saved"; else compares them with that
/// file, written by a build of the other kernel: "same bits" or "BITS DIFFER".
inline const char* saveOrCompareBits(const std::string& path, const double* y, std::size_t n, bool save) {
  if (save) {
    FILE* f = std::fopen(path.c_str(), "wb");
    const bool written = f && std::fwrite(y, sizeof(double), n, f) == n;
    if (f) std::fclose(f);
    return written ? "saved" : "NOT SAVED";
  }
  std::vector<double> old(n);
  FILE* f = std::fopen(path.c_str(), "rb");
  const bool same = f && std::fread(old.data(), sizeof(double), n, f) == n &&
                    std::memcmp(old.data(), y, sizeof(double) * n) == 0;
  if (f) std::fclose(f);
  return same ? "same bits" : "BITS DIFFER";
}

/// The GPU probes' x: values over 2^-14 to 2^14, so that the products' sums round.
template <class Vector>
void fillProbeX(const Vector& x) {
  auto hx = Kokkos::create_mirror_view(x);
  for (std::size_t i = 0; i < hx.extent(0); ++i) hx(i) = std::ldexp(0.25 + (i % 97) * 0.013, int(i % 29) - 14);
  Kokkos::deep_copy(x, hx);
}

/// The GPU probes' time of one product, in microseconds: 20 warm-ups, then five batches of 40
/// back to back, the median batch's mean.
template <class Exec, class Product>
double probeMicrosecondsPerProduct(const Exec& exec, const Product& product) {
  for (int r = 0; r < 20; ++r) product();
  exec.fence();
  std::vector<double> batches;
  for (int b = 0; b < 5; ++b) {
    Kokkos::Timer t;
    for (int r = 0; r < 40; ++r) product();
    exec.fence();
    batches.push_back(t.seconds() / 40 * 1e6);
  }
  std::sort(batches.begin(), batches.end());
  return batches[2];
}

/// The matrices of the GPU probes (merge_gpu_probe.cpp, rows_in_order_gpu_probe.cpp): one row of
/// 2,000,000 entries among rows of 1, 95 rows of 41,232 among short rows, a circuit-like matrix
/// (rows of 1 to 9, one in 400 of 2,000 to 27,000), power-law rows (exponent 2.1), uniform rows of
/// 4, and small matrices of 20,000 rows where the fixed costs show.
struct ProbeCase {
  const char* name;
  int rows;
  std::function<int(int, std::mt19937&)> length;
};

inline std::vector<ProbeCase> gpuProbeCases() {
  const auto u = std::make_shared<std::uniform_real_distribution<double>>(0, 1);
  return {
      {"full-row-2M", 2000000, [](int i, std::mt19937&) { return i == 3 ? 2000000 : 1; }},
      {"rows-41232", 1000000, [](int i, std::mt19937& r) { return i % 10526 == 5 ? 41232 : int(r() % 3); }},
      {"circuit", 410000, [](int i, std::mt19937& r) { return i % 400 == 7 ? 2000 + int(r() % 25000) : 1 + int(r() % 9); }},
      {"powerlaw-2.1", 1000000,
       [u](int, std::mt19937& r) { return std::min(1000000, int(3 * std::pow(1 - (*u)(r), -1 / 1.1))); }},
      {"uniform-4", 1600000, [](int, std::mt19937& r) { return 3 + int(r() % 3); }},
      {"small-uniform", 20000, [](int, std::mt19937& r) { return 3 + int(r() % 3); }},
      {"small-one-row", 20000, [](int i, std::mt19937&) { return i == 11 ? 20000 : 1; }},
  };
}
