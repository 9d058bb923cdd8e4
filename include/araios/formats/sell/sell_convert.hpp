#pragma once
// CSR <-> SELL-C-sigma. The row order and the slice offsets are planned on the host from rowPtr
// (stable orders within the windows, counting sorts where the lengths allow); the entries and
// the padding are written on the device, one thread per slice row.
#include <araios/detail/device_memory.hpp>
#include <araios/error.hpp>
#include <araios/format_options.hpp>
#include <araios/primitives/bucket_sort.hpp>
#include <araios/types.hpp>
#include <araios/formats/csr/csr.hpp>
#include <araios/formats/csr/csr_from_row_passes.hpp>
#include <araios/formats/jds/sort_rows_by_length.hpp>
#include <araios/formats/sell/sell.hpp>

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

namespace araios {

/// 32 rows per slice: a warp of an NVIDIA GPU then runs one slice, and each step of the slice
/// is one coalesced load of 32 consecutive slots (Kreutzer et al. take C = the warp size on
/// GPUs). On a CPU the slice height only sets how much padding the sort must avoid.
constexpr int kDefaultSellSliceHeight = 32;

/// sigma = 8 slices. Sorting within 8 slices lets the rows of a neighbourhood that are longer
/// than their neighbours gather into one slice, which removes most of the padding wherever row
/// lengths vary locally (meshes, circuits); yet a row moves by fewer than 256 positions, so the
/// rows of a slice still come from a few cache lines of y and share the parts of x that their
/// original neighbours used. sigma = numRows (a global sort) minimises padding at the cost of
/// that locality; sigma = 1 keeps the CSR row order.
constexpr std::int64_t kDefaultSellSortWindow = 8 * kDefaultSellSliceHeight;

/// The two parameters of SELL-C-sigma.
struct SellOptions {
  /// C: rows per slice, at least 1.
  int sliceHeight = kDefaultSellSliceHeight;
  /// sigma: rows sorted together, at least 1. 1 = no sorting; numRows or more = a global sort.
  std::int64_t sortWindow = kDefaultSellSortWindow;
};

namespace Impl {

/// Fills slice row p (a sorted position; positions past numRows are the empty rows that
/// complete the last slice): the row's entries, then padding up to the slice's width.
template <class Csr, class Sell>
struct SellScatterRows {
  using Ordinal = typename Sell::ordinal_type;
  using Offset = typename Sell::size_type;
  Csr csr;
  Sell sell;
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t p) const {
    const std::int64_t height = sell.sliceHeight;
    const std::int64_t s = p / height;
    const Offset j = static_cast<Offset>(p - s * height);
    const Offset C = static_cast<Offset>(height);
    const Offset begin = sell.slicePtr(s);
    const Offset width = (sell.slicePtr(s + 1) - begin) / C;
    Offset source = 0, length = 0;
    if (p < static_cast<std::int64_t>(sell.numRows)) {
      const Ordinal row = sell.perm(p);
      source = csr.rowPtr(row);
      length = csr.rowPtr(row + 1) - source;
    }
    for (Offset t = 0; t < width; ++t) {
      const Offset slot = begin + t * C + j;
      if (t < length) {
        sell.colIdx(slot) = csr.colIdx(source + t);
        sell.values(slot) = csr.values(source + t);
      } else {
        sell.colIdx(slot) = Sell::paddingColumn;
        sell.values(slot) = 0;
      }
    }
  }
};

/// The number of entries of the row at sorted position p: its slots up to the first padding
/// slot (a row's padding always follows all its entries) or the slice's width.
template <class Sell>
KOKKOS_INLINE_FUNCTION typename Sell::size_type sellRowLength(const Sell& A, typename Sell::ordinal_type p) {
  using Offset = typename Sell::size_type;
  const auto s = p / A.sliceHeight;
  const Offset C = static_cast<Offset>(A.sliceHeight);
  const Offset begin = A.slicePtr(s) + static_cast<Offset>(p - s * A.sliceHeight);
  const Offset width = (A.slicePtr(s + 1) - A.slicePtr(s)) / C;
  Offset t = 0;
  while (t < width && A.colIdx(begin + t * C) != Sell::paddingColumn) ++t;
  return t;
}

template <class Sell, class PtrView>
struct SellRowLengths {
  Sell sell;
  PtrView rowPtr;
  KOKKOS_INLINE_FUNCTION void operator()(typename Sell::ordinal_type p) const {
    rowPtr(sell.perm(p)) = sellRowLength(sell, p);
  }
};

template <class Sell, class Csr>
struct SellGatherRows {
  using Ordinal = typename Sell::ordinal_type;
  using Offset = typename Sell::size_type;
  Sell sell;
  Csr csr;
  KOKKOS_INLINE_FUNCTION void operator()(Ordinal p) const {
    const Ordinal row = sell.perm(p);
    const Offset target = csr.rowPtr(row);
    const Offset length = csr.rowPtr(row + 1) - target;
    const auto s = p / sell.sliceHeight;
    const Offset C = static_cast<Offset>(sell.sliceHeight);
    const Offset begin = sell.slicePtr(s) + static_cast<Offset>(p - s * sell.sliceHeight);
    for (Offset t = 0; t < length; ++t) {
      csr.colIdx(target + t) = sell.colIdx(begin + t * C);
      csr.values(target + t) = sell.values(begin + t * C);
    }
  }
};

inline void checkSellOptions(const SellOptions& sell) {
  if (sell.sliceHeight < 1 || sell.sortWindow < 1) {
    throw InputError("SELL: slice height C = " + std::to_string(sell.sliceHeight) + " and sort window sigma = " +
                     std::to_string(sell.sortWindow) + "; expected both at least 1");
  }
}

}  // namespace Impl

/// CSR -> SELL-C-sigma with C = sell.sliceHeight and sigma = sell.sortWindow. Refused with a
/// PaddingError when storedSlots / nnz passes options.maxPaddingRatio, unless options.force.
template <class ExecSpace, class Value, class Ordinal, class Offset, class Device>
SellMatrix<Value, Ordinal, Offset, Device> sellFromCsr(const ExecSpace& exec,
                                                       const CsrMatrix<Value, Ordinal, Offset, Device>& csr,
                                                       const SellOptions& sell = {},
                                                       const FormatOptions& options = {}) {
  using Sell = SellMatrix<Value, Ordinal, Offset, Device>;
  Impl::checkSellOptions(sell);
  const std::vector<std::int64_t> lengths = Impl::hostRowLengths(csr.rowPtr);
  const std::int64_t numRows = static_cast<std::int64_t>(lengths.size());
  const std::vector<std::int64_t> order = Impl::sortRowsByLength(lengths, sell.sortWindow);

  const std::int64_t C = sell.sliceHeight;
  const std::int64_t numSlices = (numRows + C - 1) / C;
  std::vector<std::int64_t> slicePtr(numSlices + 1, 0);
  std::int64_t longestRow = 0;
  for (std::int64_t s = 0; s < numSlices; ++s) {
    std::int64_t width = 0;
    for (std::int64_t p = s * C; p < std::min(numRows, (s + 1) * C); ++p) width = std::max(width, lengths[order[p]]);
    longestRow = std::max(longestRow, width);
    if (width > (std::numeric_limits<std::int64_t>::max() - slicePtr[s]) / C) {
      throw InputError("SELL: the slots of " + std::to_string(numRows) + " rows in slices of " + std::to_string(C) +
                       " overflow a 64-bit count; expected a smaller slice height");
    }
    slicePtr[s + 1] = slicePtr[s] + width * C;
  }
  const std::int64_t slots = slicePtr[numSlices];
  const std::int64_t nnz = static_cast<std::int64_t>(csr.values.extent(0));
  checkPadding("SELL", slots, nnz, options,
               "each slice of C = " + std::to_string(C) + " rows is as wide as its longest row (longest row " +
                   std::to_string(longestRow) + " entries, sort window sigma = " + std::to_string(sell.sortWindow) +
                   ") and the last slice is completed with " + std::to_string(numSlices * C - numRows) +
                   " empty rows (" + std::to_string(numRows) + " rows in all); rows of very different lengths share slices");
  checkedNarrow<Offset>(slots, "number of SELL slots");
  requireMemory(exec,
                slots * static_cast<std::int64_t>(sizeof(Ordinal) + sizeof(Value)) +
                    numRows * static_cast<std::int64_t>(sizeof(Ordinal)) + (numSlices + 1) * static_cast<std::int64_t>(sizeof(Offset)),
                Impl::buildingWhat("SELL", csr.numRows, csr.numCols));

  Sell out;
  out.numRows = csr.numRows;
  out.numCols = csr.numCols;
  out.sliceHeight = checkedNarrow<Ordinal>(C, "SELL slice height");
  out.sortWindow = sell.sortWindow;
  out.numNonzeros = nnz;
  out.slicePtr = Impl::toDeviceView<Offset, Device>(slicePtr, "araios::sell::slicePtr", "SELL slot offset");
  out.perm = Impl::toDeviceView<Ordinal, Device>(order, "araios::sell::perm", "row index");
  out.colIdx = decltype(out.colIdx)(Kokkos::view_alloc(Kokkos::WithoutInitializing, "araios::sell::colIdx"), slots);
  out.values = decltype(out.values)(Kokkos::view_alloc(Kokkos::WithoutInitializing, "araios::sell::values"), slots);
  Kokkos::parallel_for("araios::sell::fromCsr",
                       Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>(exec, 0, numSlices * C),
                       Impl::SellScatterRows<CsrMatrix<Value, Ordinal, Offset, Device>, Sell>{csr, out});
  return out;
}

/// CSR -> SELL-C-sigma with the default C and sigma: the call every format shares.
template <class ExecSpace, class Value, class Ordinal, class Offset, class Device>
SellMatrix<Value, Ordinal, Offset, Device> sellFromCsr(const ExecSpace& exec,
                                                       const CsrMatrix<Value, Ordinal, Offset, Device>& csr,
                                                       const FormatOptions& options) {
  return sellFromCsr(exec, csr, SellOptions{}, options);
}

/// SELL-C-sigma -> CSR: the original rows in their original order, padding dropped.
template <class ExecSpace, class Value, class Ordinal, class Offset, class Device>
CsrMatrix<Value, Ordinal, Offset, Device> csrFromSell(const ExecSpace& exec,
                                                      const SellMatrix<Value, Ordinal, Offset, Device>& sell) {
  using Csr = CsrMatrix<Value, Ordinal, Offset, Device>;
  using Sell = SellMatrix<Value, Ordinal, Offset, Device>;
  using PtrView = decltype(Csr::rowPtr);
  return Impl::csrFromRowFunctors<Csr>(
      exec, sell.numRows, sell.numCols, "araios::sell::toCsr",
      [&](const PtrView& rowPtr) { return Impl::SellRowLengths<Sell, PtrView>{sell, rowPtr}; },
      [&](const Csr& csr) { return Impl::SellGatherRows<Sell, Csr>{sell, csr}; });
}

}  // namespace araios
