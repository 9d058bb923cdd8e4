#pragma once
// CSR generated on the device from two row functors, with no copy of the matrix on the host:
// the way to build a matrix too large to pass through host memory (tests/scale/ builds one of
// more than 2^31 entries with it).
//
//   struct Length { KOKKOS_INLINE_FUNCTION std::int64_t operator()(Ordinal row) const; };
//   struct Fill   { KOKKOS_INLINE_FUNCTION void operator()(Ordinal row, Ordinal* cols, Value* vals) const; };
//   auto A = araios::csrFromRows<araios::CsrMatrix<float, int, std::int64_t>>(exec, n, n, Length{..}, Fill{..});
//
// Fill writes row `row`'s Length(row) entries, columns increasing, at cols[0..] and vals[0..].
// The entries are counted in 64 bits before anything is allocated: a total past the offset type
// is refused (InputError: "... entries do not fit 32-bit offsets ...; use 64-bit offsets"), and
// arrays that do not fit the execution space's memory are refused (OutOfMemoryError, with the
// bytes needed and free). Either way nothing has been allocated.
#include <araios/detail/device_memory.hpp>
#include <araios/error.hpp>
#include <araios/formats/csr/csr.hpp>
#include <araios/formats/csr/csr_from_row_passes.hpp>
#include <araios/types.hpp>

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <string>

namespace araios {
namespace Impl {

template <class Ordinal, class RowLength>
struct CountRows {
  RowLength rowLength;
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t row, std::int64_t& sum) const {
    sum += static_cast<std::int64_t>(rowLength(static_cast<Ordinal>(row)));
  }
};

template <class Ordinal, class RowLength>
struct ShortestRow {
  RowLength rowLength;
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t row, std::int64_t& shortest) const {
    const std::int64_t length = static_cast<std::int64_t>(rowLength(static_cast<Ordinal>(row)));
    if (length < shortest) shortest = length;
  }
};

template <class Ordinal, class PtrView, class RowLength>
struct WriteRowLengths {
  PtrView rowPtr;
  RowLength rowLength;
  KOKKOS_INLINE_FUNCTION void operator()(Ordinal row) const {
    rowPtr(row) = static_cast<typename PtrView::value_type>(rowLength(row));
  }
};

template <class Csr, class FillRow>
struct FillRows {
  Csr csr;
  FillRow fillRow;
  KOKKOS_INLINE_FUNCTION void operator()(typename Csr::ordinal_type row) const {
    // data() + offset, not &colIdx(offset): an empty last row starts at nnz, one past the end.
    const auto begin = csr.rowPtr(row);
    fillRow(row, csr.colIdx.data() + begin, csr.values.data() + begin);
  }
};

}  // namespace Impl

/// The number of entries rowLength gives rows [0, numRows), counted on `exec` in 64 bits
/// (what csrFromRows would store). Allocates nothing.
template <class Ordinal, class ExecSpace, class RowLength>
std::int64_t countRowEntries(const ExecSpace& exec, std::int64_t numRows, const RowLength& rowLength) {
  std::int64_t total = 0;
  if (numRows <= 0) return 0;
  Kokkos::parallel_reduce("araios::csrFromRows::count",
                          Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>(exec, 0, numRows),
                          Impl::CountRows<Ordinal, RowLength>{rowLength}, total);
  std::int64_t shortest = 0;
  Kokkos::parallel_reduce("araios::csrFromRows::shortest",
                          Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>(exec, 0, numRows),
                          Impl::ShortestRow<Ordinal, RowLength>{rowLength}, Kokkos::Min<std::int64_t>(shortest));
  if (shortest < 0) {
    throw InputError("csrFromRows: a row length of " + std::to_string(shortest) + "; expected lengths of 0 or more");
  }
  return total;
}

/// CSR of numRows x numCols from rowLength(row) and fillRow(row, cols, vals) (see the top of
/// this file), generated on `exec`. Refuses, before allocating anything: row or column counts
/// the ordinal type cannot hold, an entry count the offset type cannot index (counted in 64
/// bits), and arrays larger than the free memory of `exec`'s space.
template <class Csr, class ExecSpace, class RowLength, class FillRow>
Csr csrFromRows(const ExecSpace& exec, std::int64_t numRows, std::int64_t numCols, const RowLength& rowLength,
                const FillRow& fillRow, const std::string& label = "araios::csrFromRows") {
  using Ordinal = typename Csr::ordinal_type;
  using Offset = typename Csr::size_type;
  using Value = typename Csr::value_type;
  if (numRows < 0 || numCols < 0) {
    throw InputError("csrFromRows: " + std::to_string(numRows) + " x " + std::to_string(numCols) +
                     "; expected non-negative dimensions");
  }
  Csr csr;
  csr.numRows = checkedNarrow<Ordinal>(numRows, "number of rows");
  csr.numCols = checkedNarrow<Ordinal>(numCols, "number of columns");
  const std::string what = "CSR of " + groupedDigits(numRows) + " x " + groupedDigits(numCols);
  const std::int64_t total = countRowEntries<Ordinal>(exec, numRows, rowLength);
  const Offset nnz = checkedOffsetCount<Offset>(total, what);
  const std::int64_t bytes = (numRows + 1) * static_cast<std::int64_t>(sizeof(Offset)) +
                             total * static_cast<std::int64_t>(sizeof(Ordinal) + sizeof(Value));
  requireMemory(exec, bytes, "building the " + what + " with " + groupedDigits(total) + " entries");

  csr.rowPtr = decltype(csr.rowPtr)(label + "::rowPtr", static_cast<std::size_t>(numRows) + 1);
  Kokkos::parallel_for(label + "::lengths", Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<Ordinal>>(exec, 0, csr.numRows),
                       Impl::WriteRowLengths<Ordinal, decltype(csr.rowPtr), RowLength>{csr.rowPtr, rowLength});
  const Offset scanned = Impl::countsToOffsets(exec, csr.rowPtr, label + "::scan", what);
  if (scanned != nnz) {
    throw InputError(label + ": rowLength gave " + groupedDigits(total) + " entries when counted and " +
                     groupedDigits(scanned) + " when written; expected a deterministic row length functor");
  }
  csr.colIdx = decltype(csr.colIdx)(Kokkos::view_alloc(Kokkos::WithoutInitializing, label + "::colIdx"), nnz);
  csr.values = decltype(csr.values)(Kokkos::view_alloc(Kokkos::WithoutInitializing, label + "::values"), nnz);
  Kokkos::parallel_for(label + "::fill", Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<Ordinal>>(exec, 0, csr.numRows),
                       Impl::FillRows<Csr, FillRow>{csr, fillRow});
  exec.fence();
  return csr;
}

}  // namespace araios
