#pragma once
// The storage that BRC (Ashari et al., ICS 2014) and BRCP (Yang et al., 2019) share, and the
// data movement between it and CSR.
//
// Both formats store blocks of H = 32 "slot rows", one per lane of a warp. Block b starts at
// begin(b) in value/col and is width(b) slots wide; slot j of slot row s lives at
// begin(b) + j*H + s. The block is column-major, so at every step j the 32 lanes of a warp
// read 32 consecutive addresses (one coalesced load). A slot row holds a run of consecutive
// entries of one CSR row, in CSR order, followed by padding up to the block's width; a padding
// slot row (only at the end of the last block) holds nothing but padding.
//
// The layout is planned on the host (which entries each slot row holds) and the entries are
// moved on the device, one thread per slot row.
#include <araios/detail/stable_order_by_key.hpp>
#include <araios/error.hpp>
#include <araios/types.hpp>
#include <araios/formats/csr/csr.hpp>

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <numeric>
#include <string>
#include <vector>

namespace araios::Impl {

/// H, the slot rows of a block: one per lane of an NVIDIA warp (both papers fix it to 32).
constexpr int kSlotRowsPerBlock = 32;

/// The column of a padding slot and the row of a padding slot row. Negative, so it is never a
/// real index; a padding slot also holds the value -0.0, the exact identity of addition.
constexpr int kSlotPadding = -1;

/// What the host plans: for every slot row (numBlocks * H of them, in block order), the CSR
/// row it belongs to (kSlotPadding for a padding slot row), the CSR offset of its first entry
/// and how many entries it holds.
struct SlotRowPlan {
  std::vector<std::int64_t> row;
  std::vector<std::int64_t> first;
  std::vector<std::int64_t> count;

  std::int64_t size() const { return static_cast<std::int64_t>(row.size()); }
  void add(std::int64_t r, std::int64_t f, std::int64_t c) {
    row.push_back(r);
    first.push_back(f);
    count.push_back(c);
  }
  void addPadding() { add(kSlotPadding, 0, 0); }
  /// n padding slot rows, to be overwritten by set.
  void assignPadding(std::int64_t n) {
    row.assign(static_cast<std::size_t>(n), kSlotPadding);
    first.assign(static_cast<std::size_t>(n), 0);
    count.assign(static_cast<std::size_t>(n), 0);
  }
  void set(std::int64_t p, std::int64_t r, std::int64_t f, std::int64_t c) {
    row[static_cast<std::size_t>(p)] = r;
    first[static_cast<std::size_t>(p)] = f;
    count[static_cast<std::size_t>(p)] = c;
  }
  void reserve(std::int64_t n) {
    row.reserve(static_cast<std::size_t>(n));
    first.reserve(static_cast<std::size_t>(n));
    count.reserve(static_cast<std::size_t>(n));
  }
};

/// A CSR matrix's row pointers, on the host.
template <class PtrView>
std::vector<std::int64_t> hostRowPointers(const PtrView& rowPtr) {
  auto ptr = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), rowPtr);
  std::vector<std::int64_t> out(ptr.extent(0) > 0 ? ptr.extent(0) : 1, 0);
  for (std::size_t i = 0; i < ptr.extent(0); ++i) out[i] = static_cast<std::int64_t>(ptr(i));
  return out;
}

inline std::vector<std::int64_t> rowLengths(const std::vector<std::int64_t>& rowPtr) {
  std::vector<std::int64_t> lengths(rowPtr.size() - 1);
  for (std::size_t i = 0; i < lengths.size(); ++i) lengths[i] = rowPtr[i + 1] - rowPtr[i];
  return lengths;
}

/// The non-empty rows by length, longest first; rows of equal length keep their order, so
/// the layout does not depend on the sort's implementation.
inline std::vector<std::int64_t> nonEmptyRowsLongestFirst(const std::vector<std::int64_t>& lengths) {
  std::vector<std::int64_t> order = stableOrderByKey(lengths, KeyOrder::LargestFirst);
  // The empty rows come last.
  const auto nonEmpty = std::count_if(lengths.begin(), lengths.end(), [](std::int64_t l) { return l > 0; });
  order.resize(static_cast<std::size_t>(nonEmpty));
  return order;
}

/// The empty rows, in increasing order: they occupy no slot, but y must still be written.
inline std::vector<std::int64_t> emptyRows(const std::vector<std::int64_t>& lengths) {
  std::vector<std::int64_t> rows;
  for (std::int64_t i = 0; i < static_cast<std::int64_t>(lengths.size()); ++i)
    if (lengths[i] == 0) rows.push_back(i);
  return rows;
}

/// round(mean + std) of the row lengths, at least 1: the threshold T of BRCP's eq. (3) and
/// BRC's piece width. Rounds half away from zero.
inline std::int64_t lengthThreshold(double meanRowLength, double stdRowLength) {
  return std::max<std::int64_t>(1, std::llround(meanRowLength + stdRowLength));
}

/// A host vector to a new device View, each element narrowed with a check.
template <class T, class Device>
Kokkos::View<T*, Device> slotRowsToDevice(const std::vector<std::int64_t>& host, const std::string& label,
                                          const char* what) {
  Kokkos::View<T*, Device> out(Kokkos::view_alloc(Kokkos::WithoutInitializing, label), host.size());
  auto mirror = Kokkos::create_mirror_view(out);
  for (std::size_t i = 0; i < host.size(); ++i) mirror(i) = checkedNarrow<T>(host[i], what);
  Kokkos::deep_copy(out, mirror);
  return out;
}

/// Slot row p of the layout gets its planned entries of the CSR matrix, then padding.
template <class Shape, class Csr, class OffsetView, class ValueView, class ColView>
struct FillSlotRows {
  using Offset = typename OffsetView::value_type;
  using Value = typename ValueView::value_type;
  using Ordinal = typename ColView::value_type;
  Shape shape;
  Csr csr;
  OffsetView first, count;
  ValueView value;
  ColView col;
  KOKKOS_INLINE_FUNCTION void operator()(Offset p) const {
    const Offset b = p / kSlotRowsPerBlock;
    const Offset lane = p - b * kSlotRowsPerBlock;
    const Offset begin = shape.begin(b);
    const Offset width = shape.width(b);
    const Offset source = first(p), n = count(p);
    for (Offset j = 0; j < width; ++j) {
      const Offset k = begin + j * kSlotRowsPerBlock + lane;
      if (j < n) {
        value(k) = csr.values(source + j);
        col(k) = csr.colIdx(source + j);
      } else {
        value(k) = -Value(0);
        col(k) = static_cast<Ordinal>(kSlotPadding);
      }
    }
  }
};

/// Fills value/col (allocated by the caller with the layout's slot count) from the CSR matrix
/// as `plan` says.
template <class ExecSpace, class Shape, class Csr, class ValueView, class ColView>
void fillSlotRows(const ExecSpace& exec, const Shape& shape, const SlotRowPlan& plan, const Csr& csr,
                  const ValueView& value, const ColView& col, const std::string& label) {
  using Offset = typename Csr::size_type;
  using Device = typename Csr::device_type;
  using OffsetView = Kokkos::View<Offset*, Device>;
  const auto first = slotRowsToDevice<Offset, Device>(plan.first, label + "::first", "CSR offset");
  const auto count = slotRowsToDevice<Offset, Device>(plan.count, label + "::count", "slot row length");
  const Offset n = checkedNarrow<Offset>(plan.size(), "number of slot rows");
  Kokkos::parallel_for(label + "::fill", Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<Offset>>(exec, 0, n),
                       FillSlotRows<Shape, Csr, OffsetView, ValueView, ColView>{shape, csr, first, count, value, col});
  exec.fence();  // first/count die with this scope
}

/// The real entries of slot row p: its slots before the first padding slot.
template <class Shape, class ColView, class OffsetView>
struct CountSlotRowEntries {
  using Offset = typename OffsetView::value_type;
  Shape shape;
  ColView col;
  OffsetView count;
  KOKKOS_INLINE_FUNCTION void operator()(Offset p) const {
    const Offset b = p / kSlotRowsPerBlock;
    const Offset begin = shape.begin(b) + (p - b * kSlotRowsPerBlock);
    const Offset width = shape.width(b);
    Offset j = 0;
    while (j < width && col(begin + j * kSlotRowsPerBlock) != kSlotPadding) ++j;
    count(p) = j;
  }
};

/// Copies the real entries of slot row p to CSR position target(p) onwards.
template <class Shape, class ValueView, class ColView, class OffsetView, class Csr>
struct GatherSlotRows {
  using Offset = typename OffsetView::value_type;
  Shape shape;
  ValueView value;
  ColView col;
  OffsetView target, count;
  Csr csr;
  KOKKOS_INLINE_FUNCTION void operator()(Offset p) const {
    const Offset b = p / kSlotRowsPerBlock;
    const Offset begin = shape.begin(b) + (p - b * kSlotRowsPerBlock);
    for (Offset j = 0; j < count(p); ++j) {
      csr.values(target(p) + j) = value(begin + j * kSlotRowsPerBlock);
      csr.colIdx(target(p) + j) = col(begin + j * kSlotRowsPerBlock);
    }
  }
};

/// Back to CSR: every row's slot rows, taken in slot row order, hold its entries in CSR
/// order, so appending them row by row rebuilds the matrix exactly. The row pointers are
/// planned on the host from the per-slot-row counts; the entries move on the device.
template <class Csr, class ExecSpace, class Shape, class RowPermView, class ValueView, class ColView>
Csr csrFromSlotRows(const ExecSpace& exec, typename Csr::ordinal_type numRows, typename Csr::ordinal_type numCols,
                    const Shape& shape, const RowPermView& rowPerm, const ValueView& value, const ColView& col,
                    const std::string& label) {
  using Offset = typename Csr::size_type;
  using Device = typename Csr::device_type;
  using OffsetView = Kokkos::View<Offset*, Device>;
  const Offset numSlotRows = static_cast<Offset>(rowPerm.extent(0));
  OffsetView count(Kokkos::view_alloc(Kokkos::WithoutInitializing, label + "::count"), numSlotRows);
  Kokkos::parallel_for(label + "::count", Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<Offset>>(exec, 0, numSlotRows),
                       CountSlotRowEntries<Shape, ColView, OffsetView>{shape, col, count});
  exec.fence();
  auto countHost = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), count);
  auto rowHost = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), rowPerm);

  std::vector<std::int64_t> rowPtr(static_cast<std::size_t>(numRows) + 1, 0);
  for (Offset p = 0; p < numSlotRows; ++p)
    if (rowHost(p) != kSlotPadding) rowPtr[rowHost(p) + 1] += countHost(p);
  std::partial_sum(rowPtr.begin(), rowPtr.end(), rowPtr.begin());
  std::vector<std::int64_t> cursor(rowPtr.begin(), rowPtr.end() - 1), target(numSlotRows, 0);
  for (Offset p = 0; p < numSlotRows; ++p) {
    if (rowHost(p) == kSlotPadding) continue;
    target[p] = cursor[rowHost(p)];
    cursor[rowHost(p)] += countHost(p);
  }

  Csr csr;
  csr.numRows = numRows;
  csr.numCols = numCols;
  csr.rowPtr = slotRowsToDevice<Offset, Device>(rowPtr, label + "::rowPtr", "CSR offset");
  const std::int64_t nnz = rowPtr.back();
  csr.colIdx = decltype(csr.colIdx)(Kokkos::view_alloc(Kokkos::WithoutInitializing, label + "::colIdx"), nnz);
  csr.values = decltype(csr.values)(Kokkos::view_alloc(Kokkos::WithoutInitializing, label + "::values"), nnz);
  const OffsetView targetDevice = slotRowsToDevice<Offset, Device>(target, label + "::target", "CSR offset");
  Kokkos::parallel_for(label + "::gather", Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<Offset>>(exec, 0, numSlotRows),
                       GatherSlotRows<Shape, ValueView, ColView, OffsetView, Csr>{shape, value, col, targetDevice,
                                                                                  count, csr});
  exec.fence();
  return csr;
}

}  // namespace araios::Impl
