#pragma once
// Shared by the probes in this folder (lanes_probe.cpp, merge_probe.cpp): a random square CSR
// matrix in the memory of Csr's device. Row i has length(i, rng) entries in uniformly drawn
// columns (sorted, repeats kept), with values in [1, 2).
#include <araios/formats/csr/csr.hpp>
#include <Kokkos_Core.hpp>
#include <algorithm>
#include <cstddef>
#include <random>
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
