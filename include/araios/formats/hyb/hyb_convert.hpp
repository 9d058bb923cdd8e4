#pragma once
// CSR <-> HYB, and the choice of K, the width of the ELL part.
//
// The rule is Bell & Garland's (SC '09, section "Hybrid format"; their CUSP library does the
// same): K is the largest width such that at least max(kHybMinRowsPerEllColumn,
// numRows / kHybEllSpeedup) rows have K or more entries. Column k of the ELL part costs
// numRows slots whoever fills them, and it pays when enough of them are real entries:
//   - numRows / kHybEllSpeedup: a slot of the ELL kernel (coalesced, no row index, no atomic)
//     costs about a third of an entry of the COO kernel, so a column holding at least a third
//     real entries is cheaper in ELL than its entries would be in COO. This also bounds the
//     padding: the ELL part holds at least K * numRows / 3 real entries in numRows * K slots,
//     so HYB's storedSlots / nnz never exceeds 3 = kDefaultMaxPaddingRatio.
//   - kHybMinRowsPerEllColumn: the ELL kernel runs one thread per row and hides memory
//     latency only with thousands of threads at work; a column that fewer rows fill runs no
//     faster in ELL than its entries would in COO. 4096 is Bell & Garland's break-even point
//     (measured on a 30-SM GTX 280), kept until we measure our own. A matrix of fewer than
//     4096 rows is therefore stored as COO entirely (K = 0).
#include <araios/detail/compress.hpp>
#include <araios/detail/device_memory.hpp>
#include <araios/detail/for_each_row_entry.hpp>
#include <araios/format_options.hpp>
#include <araios/primitives/bucket_sort.hpp>
#include <araios/types.hpp>
#include <araios/formats/coo/coo.hpp>
#include <araios/formats/csr/csr.hpp>
#include <araios/formats/csr/csr_from_row_passes.hpp>
#include <araios/formats/ell/ell_convert.hpp>
#include <araios/formats/hyb/hyb.hpp>

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <string>
#include <vector>

namespace araios {

/// Slot cost of the COO kernel relative to the ELL kernel (Bell & Garland's measured ratio).
constexpr double kHybEllSpeedup = 3.0;
/// Fewest rows that must fill an ELL column for it to beat COO (Bell & Garland's break-even).
constexpr std::int64_t kHybMinRowsPerEllColumn = 4096;

/// K for HYB from the row lengths: the largest K such that at least
/// max(kHybMinRowsPerEllColumn, numRows / kHybEllSpeedup) rows have K or more entries; 0 when
/// no K >= 1 qualifies. O(numRows + longest row), through the histogram of row lengths.
inline std::int64_t hybEllWidth(const std::vector<std::int64_t>& rowLengths) {
  const auto numRows = static_cast<std::int64_t>(rowLengths.size());
  std::int64_t longest = 0;
  for (const auto length : rowLengths) longest = std::max(longest, length);
  std::vector<std::int64_t> rowsOfLength(static_cast<std::size_t>(longest) + 1, 0);
  for (const auto length : rowLengths) ++rowsOfLength[static_cast<std::size_t>(length)];
  const double needed = std::max(static_cast<double>(kHybMinRowsPerEllColumn), numRows / kHybEllSpeedup);
  std::int64_t rowsAtLeast = 0;  // rows with k or more entries; grows as k falls
  for (std::int64_t k = longest; k >= 1; --k) {
    rowsAtLeast += rowsOfLength[static_cast<std::size_t>(k)];
    if (static_cast<double>(rowsAtLeast) >= needed) return k;
  }
  return 0;
}

namespace Impl {

/// The entries of row r past the first `width`: what goes to HYB's COO part.
template <class PtrView, class Ordinal>
struct HybOverflowLengths {
  PtrView rowPtr;
  PtrView lengths;
  Ordinal width;
  KOKKOS_INLINE_FUNCTION void operator()(Ordinal r) const {
    const auto length = rowPtr(r + 1) - rowPtr(r);
    lengths(r) = length > width ? length - width : 0;
  }
};

/// Position t of row r's part in COO (cooPtr) is the row's entry width + t.
template <class Csr, class Coo>
struct FillHybCoo {
  Csr csr;
  Coo coo;
  typename Csr::ordinal_type width;
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t r, std::int64_t k, std::int64_t t) const {
    const auto j = csr.rowPtr(r) + width + t;
    coo.rowIdx(k) = static_cast<typename Csr::ordinal_type>(r);
    coo.colIdx(k) = csr.colIdx(j);
    coo.values(k) = csr.values(j);
  }
};

template <class Ell, class PtrView>
struct HybRowLengths {
  Ell ell;
  PtrView cooPtr;
  PtrView lengths;
  KOKKOS_INLINE_FUNCTION void operator()(typename Ell::ordinal_type r) const {
    lengths(r) = ellRowLength(ell, r) + (cooPtr(r + 1) - cooPtr(r));
  }
};

/// CSR position k of row r's entry t: the row's first entries are its ELL part, the rest its
/// COO part (cooPtr), so entry t is ELL slot t or COO entry t - inEll.
template <class Hyb, class Csr, class PtrView>
struct CopyHybEntry {
  Hyb A;
  Csr csr;
  PtrView cooPtr;
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t r, std::int64_t k, std::int64_t t) const {
    const std::int64_t inCoo = cooPtr(r + 1) - cooPtr(r);
    const std::int64_t inEll = (csr.rowPtr(r + 1) - csr.rowPtr(r)) - inCoo;
    if (t < inEll) {
      const auto slot = A.ell.slot(static_cast<typename Csr::ordinal_type>(r), static_cast<typename Csr::ordinal_type>(t));
      csr.colIdx(k) = A.ell.colIdx(slot);
      csr.values(k) = A.ell.values(slot);
    } else {
      const auto j = cooPtr(r) + (t - inEll);
      csr.colIdx(k) = A.coo.colIdx(j);
      csr.values(k) = A.coo.values(j);
    }
  }
};

}  // namespace Impl

/// CSR -> HYB with a given ELL width: the first ellWidth entries of every row go to ELL, the rest
/// to COO. Refused (PaddingError) past options.maxPaddingRatio unless options.force; a width
/// chosen by hybEllWidth never passes the default limit.
template <class ExecSpace, class Value, class Ordinal, class Offset, class Device>
HybMatrix<Value, Ordinal, Offset, Device> hybFromCsrWithEllWidth(const ExecSpace& exec,
                                                                 const CsrMatrix<Value, Ordinal, Offset, Device>& csr,
                                                                 std::int64_t ellWidth, const FormatOptions& options = {}) {
  using Csr = CsrMatrix<Value, Ordinal, Offset, Device>;
  using Coo = CooMatrix<Value, Ordinal, Offset, Device>;
  using PtrView = decltype(csr.rowPtr);
  using RowPolicy = Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<Ordinal>>;
  if (ellWidth < 0) {
    throw InputError("HYB ELL width " + std::to_string(ellWidth) + "; expected a width of 0 or more");
  }
  const Ordinal width = checkedNarrow<Ordinal>(ellWidth, "HYB ELL width");
  PtrView cooPtr("araios::hyb::cooPtr", static_cast<std::size_t>(csr.numRows) + 1);
  Kokkos::parallel_for("araios::hyb::overflow", RowPolicy(exec, 0, csr.numRows),
                       Impl::HybOverflowLengths<PtrView, Ordinal>{csr.rowPtr, cooPtr, width});
  const Offset inCoo = Impl::countsToOffsets(exec, cooPtr, "araios::hyb::cooScan",
                                             "the COO part of HYB of " + groupedDigits(csr.numRows) + " rows");

  if (width > 0 && csr.numRows > std::numeric_limits<std::int64_t>::max() / width) {
    throw InputError("HYB of " + std::to_string(csr.numRows) + " rows with an ELL part of width " +
                     std::to_string(ellWidth) + " has more slots than an int64 counts; expected a smaller width");
  }
  const std::int64_t slots = static_cast<std::int64_t>(csr.numRows) * width + inCoo;
  char why[160];
  std::snprintf(why, sizeof why, "the ELL part pads every row to %lld entries", static_cast<long long>(width));
  checkPadding("HYB", slots, csr.nnz(), options, why);
  checkedNarrow<Offset>(static_cast<std::int64_t>(csr.numRows) * width, "number of ELL slots (rows x width)");
  requireMemory(exec,
                static_cast<std::int64_t>(csr.numRows) * width * static_cast<std::int64_t>(sizeof(Ordinal) + sizeof(Value)) +
                    static_cast<std::int64_t>(inCoo) * static_cast<std::int64_t>(2 * sizeof(Ordinal) + sizeof(Value)),
                Impl::buildingWhat("HYB", csr.numRows, csr.numCols));

  HybMatrix<Value, Ordinal, Offset, Device> hyb;
  hyb.numRows = csr.numRows;
  hyb.numCols = csr.numCols;
  hyb.ell = Impl::ellPartOfCsr(exec, csr, width, "araios::hyb::ell");
  hyb.coo.numRows = csr.numRows;
  hyb.coo.numCols = csr.numCols;
  hyb.coo.rowIdx = decltype(hyb.coo.rowIdx)(Kokkos::view_alloc(Kokkos::WithoutInitializing, "araios::hyb::coo::rowIdx"), inCoo);
  hyb.coo.colIdx = decltype(hyb.coo.colIdx)(Kokkos::view_alloc(Kokkos::WithoutInitializing, "araios::hyb::coo::colIdx"), inCoo);
  hyb.coo.values = decltype(hyb.coo.values)(Kokkos::view_alloc(Kokkos::WithoutInitializing, "araios::hyb::coo::values"), inCoo);
  Impl::forEachRowEntry("araios::hyb::fillCoo", exec, cooPtr, Impl::FillHybCoo<Csr, Coo>{csr, hyb.coo, width});
  hyb.coo.rowPtr = cooPtr;  // the COO part is sorted by row: the deterministic SpMV walks it by row
  return hyb;
}

/// CSR -> HYB, K chosen by hybEllWidth from the row lengths (planned on the host: O(numRows)).
template <class ExecSpace, class Value, class Ordinal, class Offset, class Device>
HybMatrix<Value, Ordinal, Offset, Device> hybFromCsr(const ExecSpace& exec,
                                                     const CsrMatrix<Value, Ordinal, Offset, Device>& csr,
                                                     const FormatOptions& options = {}) {
  const auto rowPtr = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), csr.rowPtr);
  std::vector<std::int64_t> rowLengths(static_cast<std::size_t>(csr.numRows));
  for (std::size_t r = 0; r < rowLengths.size(); ++r) rowLengths[r] = rowPtr(r + 1) - rowPtr(r);
  return hybFromCsrWithEllWidth(exec, csr, hybEllWidth(rowLengths), options);
}

/// HYB -> CSR: each row's ELL entries, then its COO entries, which gives back the CSR that
/// built the HYB exactly.
template <class ExecSpace, class Value, class Ordinal, class Offset, class Device>
CsrMatrix<Value, Ordinal, Offset, Device> csrFromHyb(const ExecSpace& exec,
                                                     const HybMatrix<Value, Ordinal, Offset, Device>& hyb) {
  using Csr = CsrMatrix<Value, Ordinal, Offset, Device>;
  using Hyb = HybMatrix<Value, Ordinal, Offset, Device>;
  using PtrView = decltype(Csr().rowPtr);
  PtrView cooPtr("araios::hyb::toCsr::cooPtr", static_cast<std::size_t>(hyb.numRows) + 1);
  Kokkos::parallel_for("araios::hyb::toCsr::countCoo",
                       Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<Offset>>(exec, 0, hyb.coo.nnz()),
                       Impl::CountKeys<Offset, decltype(hyb.coo.rowIdx), PtrView>{hyb.coo.rowIdx, cooPtr});
  Impl::countsToOffsets(exec, cooPtr, "araios::hyb::toCsr::cooScan");
  return Impl::csrFromRowEntries<Csr>(
      exec, hyb.numRows, hyb.numCols, "araios::hyb::toCsr",
      [&](const PtrView& rowPtr) { return Impl::HybRowLengths<decltype(hyb.ell), PtrView>{hyb.ell, cooPtr, rowPtr}; },
      [&](const Csr& csr) { return Impl::PtrRowSpans<PtrView>{csr.rowPtr}; },
      [&](const Csr& csr) { return Impl::CopyHybEntry<Hyb, Csr, PtrView>{hyb, csr, cooPtr}; });
}

}  // namespace araios
