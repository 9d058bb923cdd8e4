#pragma once
// CSR <-> JDS. The row order and jdPtr are planned on the host from rowPtr (the rows stably by
// length, a counting sort, O(n + longest row)); the entries are moved on the device by
// forEachRowEntry, over the sorted rows.
#include <araios/detail/device_memory.hpp>
#include <araios/detail/for_each_row_entry.hpp>
#include <araios/format_options.hpp>
#include <araios/primitives/bucket_sort.hpp>
#include <araios/types.hpp>
#include <araios/formats/csr/csr.hpp>
#include <araios/formats/csr/csr_from_row_passes.hpp>
#include <araios/formats/jds/jds.hpp>
#include <araios/formats/jds/sort_rows_by_length.hpp>

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <vector>

namespace araios {
namespace Impl {

/// The number of entries of sorted row k: the number of jagged diagonals longer than k. The
/// diagonals shrink from first to last, so it is the first diagonal too short for k, found by
/// bisection (a long row would otherwise walk its diagonals one by one).
template <class Jds>
KOKKOS_INLINE_FUNCTION typename Jds::size_type jdsRowLength(const Jds& A, typename Jds::ordinal_type k) {
  using Offset = typename Jds::size_type;
  Offset low = 0, high = static_cast<Offset>(A.jdPtr.extent(0)) - 1;  // the answer lies in [low, high]
  while (low < high) {
    const Offset t = low + (high - low) / 2;
    if (static_cast<Offset>(k) < A.jdPtr(t + 1) - A.jdPtr(t))
      low = t + 1;
    else
      high = t;
  }
  return low;
}

/// Entry t of sorted row k (CSR position j) goes to jagged diagonal t, at k.
template <class Csr, class Jds>
struct JdsScatterEntry {
  Csr csr;
  Jds jds;
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t k, std::int64_t j, std::int64_t t) const {
    const auto slot = jds.jdPtr(t) + static_cast<typename Jds::size_type>(k);
    jds.colIdx(slot) = csr.colIdx(j);
    jds.values(slot) = csr.values(j);
  }
};

template <class Jds, class PtrView>
struct JdsRowLengths {
  Jds jds;
  PtrView rowPtr;
  KOKKOS_INLINE_FUNCTION void operator()(typename Jds::ordinal_type k) const {
    rowPtr(jds.perm(k)) = jdsRowLength(jds, k);
  }
};

/// The way back: CSR position j of sorted row k's entry t takes jagged diagonal t's slot k.
template <class Jds, class Csr>
struct JdsGatherEntry {
  Jds jds;
  Csr csr;
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t k, std::int64_t j, std::int64_t t) const {
    const auto slot = jds.jdPtr(t) + static_cast<typename Jds::size_type>(k);
    csr.colIdx(j) = jds.colIdx(slot);
    csr.values(j) = jds.values(slot);
  }
};

}  // namespace Impl

/// CSR -> JDS. JDS stores no padding, so `options` (the padding limit) never refuses it; the
/// parameter is there so that every format converts with the same call.
template <class ExecSpace, class Value, class Ordinal, class Offset, class Device>
JdsMatrix<Value, Ordinal, Offset, Device> jdsFromCsr(const ExecSpace& exec,
                                                     const CsrMatrix<Value, Ordinal, Offset, Device>& csr,
                                                     const FormatOptions& /*options*/ = {}) {
  using Jds = JdsMatrix<Value, Ordinal, Offset, Device>;
  const std::vector<std::int64_t> lengths = Impl::hostRowLengths(csr.rowPtr);
  const std::int64_t numRows = static_cast<std::int64_t>(lengths.size());
  const std::vector<std::int64_t> order = Impl::sortRowsByLength(lengths, numRows);

  // jdPtr[t+1] - jdPtr[t] = the number of rows longer than t, from a histogram of the lengths.
  const std::int64_t numDiagonals = numRows > 0 ? lengths[order[0]] : 0;
  std::vector<std::int64_t> rowsOfLength(numDiagonals + 1, 0);
  for (const std::int64_t length : lengths) ++rowsOfLength[length];
  std::vector<std::int64_t> jdPtr(numDiagonals + 1, 0);
  std::int64_t rowsLonger = numRows - rowsOfLength[0];
  for (std::int64_t t = 0; t < numDiagonals; ++t) {
    jdPtr[t + 1] = jdPtr[t] + rowsLonger;
    rowsLonger -= rowsOfLength[t + 1];
  }

  requireMemory(exec,
                static_cast<std::int64_t>(csr.values.extent(0)) * static_cast<std::int64_t>(sizeof(Ordinal) + sizeof(Value)) +
                    numRows * static_cast<std::int64_t>(sizeof(Ordinal)) + (numDiagonals + 1) * static_cast<std::int64_t>(sizeof(Offset)),
                Impl::buildingWhat("JDS", csr.numRows, csr.numCols));
  Jds jds;
  jds.numRows = csr.numRows;
  jds.numCols = csr.numCols;
  jds.perm = Impl::toDeviceView<Ordinal, Device>(order, "araios::jds::perm", "row index");
  jds.jdPtr = Impl::toDeviceView<Offset, Device>(jdPtr, "araios::jds::jdPtr", "jagged diagonal offset");
  jds.colIdx = decltype(jds.colIdx)(Kokkos::view_alloc(Kokkos::WithoutInitializing, "araios::jds::colIdx"),
                                    csr.colIdx.extent(0));
  jds.values = decltype(jds.values)(Kokkos::view_alloc(Kokkos::WithoutInitializing, "araios::jds::values"),
                                    csr.values.extent(0));
  using Csr = CsrMatrix<Value, Ordinal, Offset, Device>;
  Impl::forEachRowEntry("araios::jds::fromCsr", exec, numRows,
                        Impl::PermutedRowSpans<decltype(csr.rowPtr), decltype(jds.perm)>{csr.rowPtr, jds.perm, 0},
                        Impl::JdsScatterEntry<Csr, Jds>{csr, jds});
  return jds;
}

/// JDS -> CSR: the original rows in their original order, entries in their CSR order.
template <class ExecSpace, class Value, class Ordinal, class Offset, class Device>
CsrMatrix<Value, Ordinal, Offset, Device> csrFromJds(const ExecSpace& exec,
                                                     const JdsMatrix<Value, Ordinal, Offset, Device>& jds) {
  using Csr = CsrMatrix<Value, Ordinal, Offset, Device>;
  using Jds = JdsMatrix<Value, Ordinal, Offset, Device>;
  using PtrView = decltype(Csr::rowPtr);
  return Impl::csrFromRowEntries<Csr>(
      exec, jds.numRows, jds.numCols, "araios::jds::toCsr",
      [&](const PtrView& rowPtr) { return Impl::JdsRowLengths<Jds, PtrView>{jds, rowPtr}; },
      [&](const Csr& csr) { return Impl::PermutedRowSpans<PtrView, decltype(jds.perm)>{csr.rowPtr, jds.perm, 0}; },
      [&](const Csr& csr) { return Impl::JdsGatherEntry<Jds, Csr>{jds, csr}; });
}

}  // namespace araios
