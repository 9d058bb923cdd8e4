#pragma once
// CSR <-> DIA. The occupied diagonals are found on the device: every entry counts into its
// diagonal's slot of a table over all numRows + numCols - 1 possible diagonals, and a scan over
// that table numbers the occupied ones in increasing order, O(nnz + numRows + numCols). A
// matrix whose entries spread over many diagonals is refused (checkPadding) before anything
// of size numRows x numDiags is allocated.
#include <araios/detail/device_memory.hpp>
#include <araios/error.hpp>
#include <araios/format_options.hpp>
#include <araios/primitives/bucket_sort.hpp>
#include <araios/primitives/integer_atomics.hpp>
#include <araios/types.hpp>
#include <araios/formats/csr/csr.hpp>
#include <araios/formats/csr/csr_from_row_passes.hpp>
#include <araios/formats/dia/dia.hpp>

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <cstdio>
#include <limits>
#include <string>

namespace araios {
namespace Impl {

/// Counts the rows whose columns are not strictly increasing (duplicates or out of order).
template <class Csr>
struct RowsNotStrictlyIncreasing {
  Csr csr;
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t r, std::int64_t& bad) const {
    for (auto k = csr.rowPtr(r) + 1; k < csr.rowPtr(r + 1); ++k) {
      if (csr.colIdx(k) <= csr.colIdx(k - 1)) {
        ++bad;
        return;
      }
    }
  }
};

/// Position of the diagonal through (row, col) in the table of all possible diagonals:
/// column - row + numRows - 1, from 0 (the bottom-left corner) to numRows + numCols - 2.
template <class Ordinal>
KOKKOS_INLINE_FUNCTION std::int64_t diagonalTableIndex(Ordinal row, Ordinal col, Ordinal numRows) {
  return static_cast<std::int64_t>(col) - row + numRows - 1;
}

template <class Csr, class CountView>
struct CountDiagonalEntries {
  Csr csr;
  CountView count;
  KOKKOS_INLINE_FUNCTION void operator()(typename Csr::ordinal_type r) const {
    for (auto k = csr.rowPtr(r); k < csr.rowPtr(r + 1); ++k)
      Impl::atomicFetchAddInteger(&count(diagonalTableIndex(r, csr.colIdx(k), csr.numRows)),
                                   typename CountView::value_type(1));
  }
};

template <class CountView>
struct OccupiedDiagonals {
  CountView count;
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t i, std::int64_t& occupied) const {
    occupied += count(i) > 0 ? 1 : 0;
  }
};

/// Numbers the occupied diagonals in increasing order: diagonalOf(table index) = d and
/// offsets(d) = column - row.
template <class CountView, class IndexView>
struct NumberDiagonals {
  using Ordinal = typename IndexView::value_type;
  CountView count;
  IndexView diagonalOf;
  IndexView offsets;
  std::int64_t numRows;
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t i, Ordinal& next, bool final) const {
    if (count(i) == 0) return;
    if (final) {
      diagonalOf(i) = next;
      offsets(next) = static_cast<Ordinal>(i - (numRows - 1));
    }
    ++next;
  }
};

/// Each entry into its slot, and its bit into `present`. Entries of one row lie on distinct
/// diagonals (columns strictly increase), so only the mask words, shared by 32 slots, need
/// atomics.
template <class Csr, class Dia, class IndexView>
struct FillDiaFromCsr {
  Csr csr;
  Dia dia;
  IndexView diagonalOf;
  KOKKOS_INLINE_FUNCTION void operator()(typename Csr::ordinal_type r) const {
    using Word = typename Dia::mask_word;
    for (auto k = csr.rowPtr(r); k < csr.rowPtr(r + 1); ++k) {
      const auto s = dia.slot(r, diagonalOf(diagonalTableIndex(r, csr.colIdx(k), csr.numRows)));
      dia.data(s) = csr.values(k);
      Kokkos::atomic_fetch_or(&dia.present(s / Dia::bitsPerWord), Word(1) << (s % Dia::bitsPerWord));
    }
  }
};

template <class Dia, class PtrView>
struct DiaRowLengths {
  Dia A;
  PtrView lengths;
  KOKKOS_INLINE_FUNCTION void operator()(typename Dia::ordinal_type r) const {
    typename PtrView::value_type n = 0;
    for (typename Dia::ordinal_type d = 0; d < A.numDiags; ++d) n += A.isPresent(A.slot(r, d)) ? 1 : 0;
    lengths(r) = n;
  }
};

/// A row's present slots in diagonal order, which is increasing column order.
template <class Dia, class Csr>
struct CopyDiaRows {
  Dia A;
  Csr csr;
  KOKKOS_INLINE_FUNCTION void operator()(typename Dia::ordinal_type r) const {
    auto k = csr.rowPtr(r);
    for (typename Dia::ordinal_type d = 0; d < A.numDiags; ++d) {
      const auto s = A.slot(r, d);
      if (!A.isPresent(s)) continue;
      csr.colIdx(k) = r + A.offsets(d);
      csr.values(k) = A.data(s);
      ++k;
    }
  }
};

}  // namespace Impl

/// CSR -> DIA. The CSR must hold strictly increasing columns in each row (as csrFromCoo builds
/// from input without duplicates): DIA keeps one entry per row and diagonal, in column order,
/// so duplicates or another order could not come back (InputError). Refused (PaddingError)
/// when numRows * numDiags slots exceed options.maxPaddingRatio per nonzero, unless
/// options.force.
template <class ExecSpace, class Value, class Ordinal, class Offset, class Device>
DiaMatrix<Value, Ordinal, Offset, Device> diaFromCsr(const ExecSpace& exec,
                                                     const CsrMatrix<Value, Ordinal, Offset, Device>& csr,
                                                     const FormatOptions& options = {}) {
  using Csr = CsrMatrix<Value, Ordinal, Offset, Device>;
  using Dia = DiaMatrix<Value, Ordinal, Offset, Device>;
  using IndexView = Kokkos::View<Ordinal*, Device>;
  using CountView = Kokkos::View<Offset*, Device>;
  using TablePolicy = Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>;
  using RowPolicy = Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<Ordinal>>;

  std::int64_t badRows = 0;
  Kokkos::parallel_reduce("araios::dia::checkRows", TablePolicy(exec, 0, csr.numRows),
                          Impl::RowsNotStrictlyIncreasing<Csr>{csr}, badRows);
  if (badRows > 0) {
    throw InputError("DIA holds one entry per row and diagonal, in column order, but " + std::to_string(badRows) +
                     " rows of the CSR have duplicate or unsorted columns; expected strictly increasing columns "
                     "in every row (sum duplicate entries first)");
  }

  const std::int64_t possible =
      csr.numRows > 0 && csr.numCols > 0 ? static_cast<std::int64_t>(csr.numRows) + csr.numCols - 1 : 0;
  CountView count("araios::dia::entriesPerDiagonal", possible);
  Kokkos::parallel_for("araios::dia::countDiagonals", RowPolicy(exec, 0, csr.numRows),
                       Impl::CountDiagonalEntries<Csr, CountView>{csr, count});
  std::int64_t numDiags = 0;
  Kokkos::parallel_reduce("araios::dia::occupied", TablePolicy(exec, 0, possible),
                          Impl::OccupiedDiagonals<CountView>{count}, numDiags);

  if (numDiags > 0 && csr.numRows > std::numeric_limits<std::int64_t>::max() / numDiags) {
    throw InputError("DIA of " + std::to_string(csr.numRows) + " rows and " + std::to_string(numDiags) +
                     " diagonals has more slots than an int64 counts; expected fewer occupied diagonals");
  }
  const std::int64_t slots = static_cast<std::int64_t>(csr.numRows) * numDiags;
  char why[160];
  std::snprintf(why, sizeof why, "the entries lie on %lld diagonals, each stored over all %lld rows",
                static_cast<long long>(numDiags), static_cast<long long>(csr.numRows));
  checkPadding("DIA", slots, csr.nnz(), options, why);

  Dia dia;
  dia.numRows = csr.numRows;
  dia.numCols = csr.numCols;
  dia.numDiags = checkedNarrow<Ordinal>(numDiags, "number of DIA diagonals");
  dia.numEntries = csr.nnz();
  const Offset slotCount = checkedNarrow<Offset>(slots, "number of DIA slots (rows x diagonals)");
  requireMemory(exec,
                slots * static_cast<std::int64_t>(sizeof(Value)) + (slots + Dia::bitsPerWord - 1) / Dia::bitsPerWord * 4 +
                    (numDiags + possible) * static_cast<std::int64_t>(sizeof(Ordinal)),
                Impl::buildingWhat("DIA", csr.numRows, csr.numCols));
  dia.offsets = IndexView(Kokkos::view_alloc(Kokkos::WithoutInitializing, "araios::dia::offsets"), numDiags);
  dia.data = decltype(dia.data)("araios::dia::data", slotCount);  // zero: the padding value
  dia.present = decltype(dia.present)("araios::dia::present", (slots + Dia::bitsPerWord - 1) / Dia::bitsPerWord);
  IndexView diagonalOf(Kokkos::view_alloc(Kokkos::WithoutInitializing, "araios::dia::diagonalOf"), possible);
  Kokkos::parallel_scan("araios::dia::numberDiagonals", TablePolicy(exec, 0, possible),
                        Impl::NumberDiagonals<CountView, IndexView>{count, diagonalOf, dia.offsets, csr.numRows});
  Kokkos::parallel_for("araios::dia::fill", RowPolicy(exec, 0, csr.numRows),
                       Impl::FillDiaFromCsr<Csr, Dia, IndexView>{csr, dia, diagonalOf});
  return dia;
}

/// DIA -> CSR: the present slots of every row in diagonal order, i.e. by increasing column,
/// which gives back the CSR that built the DIA exactly (explicit zeros included).
template <class ExecSpace, class Value, class Ordinal, class Offset, class Device>
CsrMatrix<Value, Ordinal, Offset, Device> csrFromDia(const ExecSpace& exec,
                                                     const DiaMatrix<Value, Ordinal, Offset, Device>& dia) {
  using Csr = CsrMatrix<Value, Ordinal, Offset, Device>;
  using Dia = DiaMatrix<Value, Ordinal, Offset, Device>;
  using PtrView = decltype(Csr::rowPtr);
  return Impl::csrFromRowFunctors<Csr>(
      exec, dia.numRows, dia.numCols, "araios::dia::toCsr",
      [&](const PtrView& rowPtr) { return Impl::DiaRowLengths<Dia, PtrView>{dia, rowPtr}; },
      [&](const Csr& csr) { return Impl::CopyDiaRows<Dia, Csr>{dia, csr}; });
}

}  // namespace araios
