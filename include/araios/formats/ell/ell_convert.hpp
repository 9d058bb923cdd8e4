#pragma once
// CSR <-> ELL. The width is the longest row; a matrix whose rows are so uneven that padding
// would outweigh the data is refused (checkPadding), e.g. one dense row among short ones.
#include <araios/detail/device_memory.hpp>
#include <araios/format_options.hpp>
#include <araios/formats/matrix_stats.hpp>
#include <araios/primitives/bucket_sort.hpp>
#include <araios/types.hpp>
#include <araios/formats/csr/csr.hpp>
#include <araios/formats/csr/csr_from_row_passes.hpp>
#include <araios/formats/ell/ell.hpp>

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <cstdio>
#include <limits>
#include <string>

namespace araios {
namespace Impl {

/// The real entries of row `row`: its slots before the first padding slot (padding is always a
/// suffix of the row).
template <class Ell>
KOKKOS_INLINE_FUNCTION typename Ell::ordinal_type ellRowLength(const Ell& A, typename Ell::ordinal_type row) {
  typename Ell::ordinal_type t = 0;
  while (t < A.width && A.colIdx(A.slot(row, t)) != Ell::paddingColumn) ++t;
  return t;
}

/// Entries that fit in `width` slots per row: sum over rows of min(row length, width).
template <class PtrView, class Ordinal>
struct EntriesWithinWidth {
  PtrView rowPtr;
  Ordinal width;
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t r, std::int64_t& sum) const {
    const std::int64_t length = rowPtr(r + 1) - rowPtr(r);
    sum += length < width ? length : static_cast<std::int64_t>(width);
  }
};

/// Row r's first min(length, width) CSR entries into its slots, padding into the others. One
/// thread per row writes slot t of neighbouring rows to neighbouring addresses (coalesced).
template <class Csr, class Ell>
struct FillEllFromCsr {
  Csr csr;
  Ell ell;
  KOKKOS_INLINE_FUNCTION void operator()(typename Csr::ordinal_type r) const {
    using Ordinal = typename Csr::ordinal_type;
    const auto begin = csr.rowPtr(r);
    const auto length = csr.rowPtr(r + 1) - begin;
    for (Ordinal t = 0; t < ell.width; ++t) {
      const auto s = ell.slot(r, t);
      if (t < length) {
        ell.colIdx(s) = csr.colIdx(begin + t);
        ell.values(s) = csr.values(begin + t);
      } else {
        ell.colIdx(s) = Ell::paddingColumn;
        ell.values(s) = 0;
      }
    }
  }
};

/// The ELL matrix of the first `width` entries of every row of `csr` (all of them when width is
/// the longest row). HYB builds its ELL part with it too. The caller checks the padding.
template <class ExecSpace, class Value, class Ordinal, class Offset, class Device>
EllMatrix<Value, Ordinal, Offset, Device> ellPartOfCsr(const ExecSpace& exec,
                                                       const CsrMatrix<Value, Ordinal, Offset, Device>& csr,
                                                       Ordinal width, const std::string& label) {
  using Csr = CsrMatrix<Value, Ordinal, Offset, Device>;
  using Ell = EllMatrix<Value, Ordinal, Offset, Device>;
  Ell ell;
  ell.numRows = csr.numRows;
  ell.numCols = csr.numCols;
  ell.width = width;
  const Offset slots =
      checkedNarrow<Offset>(static_cast<std::int64_t>(csr.numRows) * width, "number of ELL slots (rows x width)");
  ell.colIdx = decltype(ell.colIdx)(Kokkos::view_alloc(Kokkos::WithoutInitializing, label + "::colIdx"), slots);
  ell.values = decltype(ell.values)(Kokkos::view_alloc(Kokkos::WithoutInitializing, label + "::values"), slots);
  std::int64_t kept = 0;
  Kokkos::parallel_reduce(label + "::count", Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>(exec, 0, csr.numRows),
                          EntriesWithinWidth<decltype(csr.rowPtr), Ordinal>{csr.rowPtr, width}, kept);
  ell.numEntries = static_cast<Offset>(kept);  // at most csr.nnz(), which is an Offset
  Kokkos::parallel_for(label + "::fill", Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<Ordinal>>(exec, 0, csr.numRows),
                       FillEllFromCsr<Csr, Ell>{csr, ell});
  return ell;
}

template <class Ell, class PtrView>
struct EllRowLengths {
  Ell A;
  PtrView lengths;
  KOKKOS_INLINE_FUNCTION void operator()(typename Ell::ordinal_type r) const { lengths(r) = ellRowLength(A, r); }
};

template <class Ell, class Csr>
struct CopyEllRows {
  Ell A;
  Csr csr;
  KOKKOS_INLINE_FUNCTION void operator()(typename Ell::ordinal_type r) const {
    const auto begin = csr.rowPtr(r);
    const auto length = csr.rowPtr(r + 1) - begin;
    for (typename Ell::ordinal_type t = 0; t < length; ++t) {
      csr.colIdx(begin + t) = A.colIdx(A.slot(r, t));
      csr.values(begin + t) = A.values(A.slot(r, t));
    }
  }
};

}  // namespace Impl

/// CSR -> ELL, width = the longest row. Refused (PaddingError) when numRows * width slots
/// exceed options.maxPaddingRatio per nonzero, unless options.force.
template <class ExecSpace, class Value, class Ordinal, class Offset, class Device>
EllMatrix<Value, Ordinal, Offset, Device> ellFromCsr(const ExecSpace& exec,
                                                     const CsrMatrix<Value, Ordinal, Offset, Device>& csr,
                                                     const FormatOptions& options = {}) {
  std::int64_t longest = 0;
  if (csr.numRows > 0) {
    Kokkos::parallel_reduce("araios::ell::width",
                            Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>(exec, 0, csr.numRows),
                            Impl::RowLengthMax<decltype(csr.rowPtr)>{csr.rowPtr}, Kokkos::Max<std::int64_t>(longest));
  }
  if (longest > 0 && csr.numRows > std::numeric_limits<std::int64_t>::max() / longest) {
    throw InputError("ELL of " + std::to_string(csr.numRows) + " rows of width " + std::to_string(longest) +
                     " has more slots than an int64 counts; expected a matrix with fewer rows or a shorter longest row");
  }
  const std::int64_t slots = static_cast<std::int64_t>(csr.numRows) * longest;
  char why[160];
  std::snprintf(why, sizeof why, "every row is padded to the longest row, of %lld entries, while rows average %.1f",
                static_cast<long long>(longest),
                csr.numRows > 0 ? static_cast<double>(csr.nnz()) / static_cast<double>(csr.numRows) : 0.0);
  checkPadding("ELL", slots, csr.nnz(), options, why);
  // The checks in the order of format_footprints.hpp (its test compares the messages).
  const Ordinal width = checkedNarrow<Ordinal>(longest, "ELL width (the longest row)");
  checkedNarrow<Offset>(slots, "number of ELL slots (rows x width)");
  requireMemory(exec, slots * static_cast<std::int64_t>(sizeof(Ordinal) + sizeof(Value)),
                Impl::buildingWhat("ELL", csr.numRows, csr.numCols));
  return Impl::ellPartOfCsr(exec, csr, width, "araios::ell");
}

/// ELL -> CSR: the real slots of every row, in slot order, so the CSR that built the ELL comes
/// back identical (explicit zeros included).
template <class ExecSpace, class Value, class Ordinal, class Offset, class Device>
CsrMatrix<Value, Ordinal, Offset, Device> csrFromEll(const ExecSpace& exec,
                                                     const EllMatrix<Value, Ordinal, Offset, Device>& ell) {
  using Ell = EllMatrix<Value, Ordinal, Offset, Device>;
  using Csr = CsrMatrix<Value, Ordinal, Offset, Device>;
  using PtrView = decltype(Csr::rowPtr);
  return Impl::csrFromRowFunctors<Csr>(
      exec, ell.numRows, ell.numCols, "araios::ell::toCsr",
      [&](const PtrView& rowPtr) { return Impl::EllRowLengths<Ell, PtrView>{ell, rowPtr}; },
      [&](const Csr& csr) { return Impl::CopyEllRows<Ell, Csr>{ell, csr}; });
}

}  // namespace araios
