#pragma once
// COO from a matrix read on the host, and COO <-> CSR.
#include <araios/detail/device_memory.hpp>
#include <araios/detail/compress.hpp>
#include <araios/io/matrix_market.hpp>
#include <araios/types.hpp>
#include <araios/formats/coo/coo.hpp>
#include <araios/formats/csr/csr.hpp>

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

namespace araios {

/// cooFromHost builds CooMatrix::rowPtr only up to this many rows per stored entry (plus
/// kCooRowPtrAlwaysRows): beyond, the offsets would outweigh the matrix.
constexpr std::int64_t kCooRowPtrMaxRowsPerEntry = 4;
constexpr std::int64_t kCooRowPtrAlwaysRows = 1 << 16;

/// Copies a host matrix (as returned by io::readMatrixMarket) to the device. Sizes and indices
/// are narrowed with checks: a matrix too large for Ordinal/Offset is refused, never wrapped.
/// Values are rounded to Value (for float, to nearest).
template <class Coo>
Coo cooFromHost(const io::HostMatrix& host) {
  using Ordinal = typename Coo::ordinal_type;
  using Offset = typename Coo::size_type;
  using Value = typename Coo::value_type;
  Coo coo;
  coo.numRows = checkedNarrow<Ordinal>(host.numRows, "number of rows");
  coo.numCols = checkedNarrow<Ordinal>(host.numCols, "number of columns");
  const Offset nnz = checkedNarrow<Offset>(host.nnz(), "number of stored entries");
  coo.rowIdx = decltype(coo.rowIdx)(Kokkos::view_alloc(Kokkos::WithoutInitializing, "araios::coo::rowIdx"), nnz);
  coo.colIdx = decltype(coo.colIdx)(Kokkos::view_alloc(Kokkos::WithoutInitializing, "araios::coo::colIdx"), nnz);
  coo.values = decltype(coo.values)(Kokkos::view_alloc(Kokkos::WithoutInitializing, "araios::coo::values"), nnz);
  auto rows = Kokkos::create_mirror_view(coo.rowIdx);
  auto cols = Kokkos::create_mirror_view(coo.colIdx);
  auto vals = Kokkos::create_mirror_view(coo.values);
  bool rowSorted = true;
  for (Offset k = 0; k < nnz; ++k) {
    const std::int64_t r = host.row[k], c = host.col[k];
    if (k > 0 && r < host.row[k - 1]) rowSorted = false;
    if (r < 0 || r >= host.numRows || c < 0 || c >= host.numCols) {
      throw InputError("entry " + std::to_string(k) + " at (" + std::to_string(r) + ", " + std::to_string(c) +
                       ") lies outside the " + std::to_string(host.numRows) + " x " +
                       std::to_string(host.numCols) + " matrix; expected 0-based indices inside it");
    }
    rows(k) = static_cast<Ordinal>(r);
    cols(k) = static_cast<Ordinal>(c);
    vals(k) = static_cast<Value>(host.value[k]);
  }
  Kokkos::deep_copy(coo.rowIdx, rows);
  Kokkos::deep_copy(coo.colIdx, cols);
  Kokkos::deep_copy(coo.values, vals);
  // Row offsets cost numRows + 1 entries: kept for row-sorted matrices unless rows far
  // outnumber entries (a hypersparse COO stays O(nnz); its SpMV then groups rows per call).
  if (rowSorted && static_cast<std::int64_t>(coo.numRows) <= kCooRowPtrMaxRowsPerEntry * std::int64_t(nnz) + kCooRowPtrAlwaysRows) {
    coo.rowPtr = decltype(coo.rowPtr)(Kokkos::view_alloc(Kokkos::WithoutInitializing, "araios::coo::rowPtr"),
                                      static_cast<std::size_t>(coo.numRows) + 1);
    auto ptr = Kokkos::create_mirror_view(coo.rowPtr);
    for (Ordinal i = 0; i <= coo.numRows; ++i) ptr(i) = 0;
    for (Offset k = 0; k < nnz; ++k) ++ptr(rows(k) + 1);
    for (Ordinal i = 0; i < coo.numRows; ++i) ptr(i + 1) += ptr(i);
    Kokkos::deep_copy(coo.rowPtr, ptr);
  }
  return coo;
}

/// COO -> CSR on the device: a counting sort by row, then by column within each row. Duplicate
/// positions are kept as separate entries, in their COO order.
template <class ExecSpace, class Value, class Ordinal, class Offset, class Device>
CsrMatrix<Value, Ordinal, Offset, Device> csrFromCoo(const ExecSpace& exec,
                                                     const CooMatrix<Value, Ordinal, Offset, Device>& coo) {
  auto c = Impl::compress<Offset>(exec, coo.numRows, coo.rowIdx, coo.colIdx, coo.values, "araios::csr");
  return {coo.numRows, coo.numCols, c.ptr, c.minor, c.values};
}

/// CSR -> COO: the row index of every entry, in CSR order.
template <class ExecSpace, class Value, class Ordinal, class Offset, class Device>
CooMatrix<Value, Ordinal, Offset, Device> cooFromCsr(const ExecSpace& exec,
                                                     const CsrMatrix<Value, Ordinal, Offset, Device>& csr) {
  requireMemory(exec, static_cast<std::int64_t>(csr.nnz()) * static_cast<std::int64_t>(sizeof(Ordinal)),
                Impl::buildingWhat("COO", csr.numRows, csr.numCols));
  auto rows = Impl::expand<Ordinal>(exec, csr.rowPtr, csr.nnz(), "araios::coo::rowIdx");
  return {csr.numRows, csr.numCols, rows, csr.colIdx, csr.values, csr.rowPtr};
}

/// A host matrix straight to CSR on the device.
template <class Csr>
Csr csrFromHost(const io::HostMatrix& host) {
  using Coo = CooMatrix<typename Csr::value_type, typename Csr::ordinal_type, typename Csr::size_type,
                        typename Csr::device_type>;
  typename Csr::execution_space exec;
  Csr csr = csrFromCoo(exec, cooFromHost<Coo>(host));
  exec.fence();
  return csr;
}

/// The other way: a CSR matrix (in any memory space; or any type with numRows, numCols, rowPtr,
/// colIdx and values) as a host matrix, entries by row, then column (a row stored unsorted is
/// sorted, as the host references want), values as double (exact for float).
template <class Csr>
io::HostMatrix hostFromCsr(const Csr& c) {
  const auto rowPtr = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), c.rowPtr);
  const auto colIdx = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), c.colIdx);
  const auto values = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), c.values);
  io::HostMatrix m;
  m.numRows = c.numRows;
  m.numCols = c.numCols;
  const auto n = static_cast<std::size_t>(values.extent(0));
  m.row.reserve(n);
  m.col.reserve(n);
  m.value.reserve(n);
  std::vector<std::pair<std::int64_t, double>> entries;
  for (std::int64_t i = 0; i < m.numRows; ++i) {
    entries.clear();
    for (auto e = rowPtr(i); e < rowPtr(i + 1); ++e) entries.emplace_back(colIdx(e), static_cast<double>(values(e)));
    const auto byColumn = [](const auto& x, const auto& y) { return x.first < y.first; };
    if (!std::is_sorted(entries.begin(), entries.end(), byColumn)) std::sort(entries.begin(), entries.end(), byColumn);
    for (const auto& [col, value] : entries) {
      m.row.push_back(i);
      m.col.push_back(col);
      m.value.push_back(value);
    }
  }
  m.header.rows = m.numRows;
  m.header.cols = m.numCols;
  m.header.storedEntries = m.nnz();
  return m;
}

}  // namespace araios
