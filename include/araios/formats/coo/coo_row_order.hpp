#pragma once
// Each row's entries of a COO structure, in a canonical order: what the deterministic and
// accurate SpMV of COO, CSC and HYB's COO part need in place of atomics (a sorted segmented
// reduction: entries grouped by row, each group summed in a fixed order).
//
// The canonical order of row i is its entries by increasing storage position. When the
// format keeps row offsets (CooMatrix::rowPtr: the entries are sorted by row) the order is the
// storage order itself; otherwise the entries are bucket-sorted by row on the call, with ties
// broken by position (primitives/bucket_sort.hpp), which gives the same order.
#include <araios/primitives/bucket_sort.hpp>

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <string>

namespace araios::Impl {

/// The secondary key of the row sort: the storage position itself, so that a row keeps its
/// entries in storage order whatever order the atomic scatter left them in.
struct StoragePosition {
  template <class Index>
  KOKKOS_INLINE_FUNCTION Index operator()(Index k) const {
    return k;
  }
};

template <class Offset, class Device>
struct RowOrder {
  Kokkos::View<Offset*, Device> ptr;   ///< numRows + 1: row i is positions ptr(i)..ptr(i+1)-1 of the order
  Kokkos::View<Offset*, Device> perm;  ///< the entry at each position of the order (unused when `identity`)
  bool identity = false;               ///< the order is the storage order
  KOKKOS_INLINE_FUNCTION Offset entry(Offset q) const { return identity ? q : perm(q); }
};

/// Where a row walk finds the column of the entry at position q of the order: at the entry's
/// index (COO's column indices, in storage order) or at q itself (a column array already put in
/// the order, as CSC's grouping keeps it).
enum class ColumnsAt { Entry, Position };

/// Rows in a canonical order, for the walk in CSR order (detail/rows_in_order.hpp): row i is
/// positions order.ptr(i) to order.ptr(i + 1) - 1, and position q holds the entry
/// order.entry(q), whose value is values(entry).
template <class ValuesView, class ColumnsView, class Order, ColumnsAt At>
struct RowOrderWalk {
  using Value = typename ValuesView::non_const_value_type;
  using Offset = typename decltype(Order::ptr)::non_const_value_type;
  ValuesView values;
  ColumnsView columns;
  Order order;
  std::int64_t numRows;
  template <class Acc, class XView>
  KOKKOS_INLINE_FUNCTION void head(Acc&, std::int64_t, const XView&) const {}
  KOKKOS_INLINE_FUNCTION Offset begin(std::int64_t i) const { return order.ptr(i); }
  KOKKOS_INLINE_FUNCTION Offset end(std::int64_t i) const { return order.ptr(i + 1); }
  KOKKOS_INLINE_FUNCTION void entry(Offset q, Value& a, std::int64_t& column) const {
    const Offset k = order.entry(q);
    a = values(k);
    column = static_cast<std::int64_t>(columns(At == ColumnsAt::Position ? q : k));
  }
};

template <ColumnsAt At, class ValuesView, class ColumnsView, class Order>
RowOrderWalk<ValuesView, ColumnsView, Order, At> rowOrderWalk(const ValuesView& values, const ColumnsView& columns,
                                                              const Order& order, std::int64_t numRows) {
  return {values, columns, order, numRows};
}

/// Whether `cachedPtr` holds row offsets of `numRows` rows (numRows + 1 entries): the entries
/// are then sorted by row, and their storage order is the canonical order.
template <class PtrView>
bool hasRowOffsets(std::int64_t numRows, const PtrView& cachedPtr) {
  return static_cast<std::int64_t>(cachedPtr.extent(0)) == numRows + 1;
}

/// The canonical row order of `numRows` rows whose entries have row indices `rowIdx`.
/// `cachedPtr`, when it has numRows + 1 entries, are row offsets of row-sorted entries.
template <class Offset, class ExecSpace, class RowIdxView, class PtrView>
RowOrder<Offset, typename PtrView::device_type> rowOrder(const ExecSpace& exec, std::int64_t numRows,
                                                         const RowIdxView& rowIdx, const PtrView& cachedPtr,
                                                         const std::string& label) {
  using Device = typename PtrView::device_type;
  RowOrder<Offset, Device> order;
  if (hasRowOffsets(numRows, cachedPtr)) {
    order.ptr = cachedPtr;
    order.identity = true;
    return order;
  }
  order.ptr = Kokkos::View<Offset*, Device>(Kokkos::view_alloc(Kokkos::WithoutInitializing, label + "::ptr"),
                                            numRows + 1);
  order.perm = Kokkos::View<Offset*, Device>(Kokkos::view_alloc(Kokkos::WithoutInitializing, label + "::perm"),
                                             rowIdx.extent(0));
  bucketSort(exec, numRows, rowIdx, StoragePosition{}, order.ptr, order.perm);
  return order;
}

}  // namespace araios::Impl
