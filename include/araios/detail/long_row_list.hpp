#pragma once
// The long rows of a matrix, listed on its device, and how many pieces each is cut into: what
// the kernels that spread a long row over many teams need to find their row (a team per piece
// searches firstPiece). Used by Accurate mode's chunks on CSR (formats/csr/csr_long_rows.hpp)
// and by Deterministic mode's chunks and groups on COO, CSC and HYB
// (detail/chunked_rows_in_order.hpp, detail/long_rows_in_order.hpp).
//
// A row is described by a Lengths type with
//   numRows              the number of rows;
//   longLength(i)        the length that decides whether row i is long;
//   pieceLength(i)       the entries to cut into pieces (at least longLength(i)).
#include <Kokkos_Core.hpp>

#include <cstdint>
#include <string>

namespace araios::Impl {

/// Rows of more than some length (ascending), and for each the index of its first piece;
/// firstPiece(count) is the number of pieces.
template <class Index, class Device>
struct LongRowList {
  Kokkos::View<Index*, Device> rows;
  Kokkos::View<std::int64_t*, Device> firstPiece;
  std::int64_t count = 0;
  std::int64_t pieces = 0;

  std::int64_t bytes() const {
    return static_cast<std::int64_t>(rows.span() * sizeof(Index) + firstPiece.span() * sizeof(std::int64_t));
  }

  /// The list's position of the row that holds piece p (the last r with firstPiece(r) <= p).
  KOKKOS_INLINE_FUNCTION std::int64_t rowOfPiece(std::int64_t p) const {
    std::int64_t lo = 0, hi = count - 1;
    while (lo < hi) {
      const std::int64_t mid = lo + (hi - lo + 1) / 2;
      if (firstPiece(mid) <= p) {
        lo = mid;
      } else {
        hi = mid - 1;
      }
    }
    return lo;
  }
};

template <class Lengths>
struct CountLongRows {
  Lengths lengths;
  std::int64_t longerThan;
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t i, std::int64_t& count) const {
    if (lengths.longLength(i) > longerThan) ++count;
  }
};

template <class Lengths, class Index, class Device>
struct ListLongRows {
  Lengths lengths;
  std::int64_t longerThan;
  Kokkos::View<Index*, Device> rows;
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t i, std::int64_t& before, const bool final) const {
    if (lengths.longLength(i) <= longerThan) return;
    if (final) rows(before) = static_cast<Index>(i);
    ++before;
  }
};

template <class Lengths, class Index, class Device>
struct ListFirstPieces {
  Lengths lengths;
  LongRowList<Index, Device> list;
  std::int64_t pieceEntries;
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t r, std::int64_t& before, const bool final) const {
    const std::int64_t pieces = (lengths.pieceLength(list.rows(r)) + pieceEntries - 1) / pieceEntries;
    if (final) {
      list.firstPiece(r) = before;
      if (r + 1 == list.count) list.firstPiece(list.count) = before + pieces;
    }
    before += pieces;
  }
};

/// The rows of more than `longerThan` entries (by longLength) and their pieces of
/// `pieceEntries` (of pieceLength), found on `exec`: a reduction, two scans and one value read
/// back, so it waits for `exec`. `label` names the allocations and launches.
template <class Index, class Device, class ExecSpace, class Lengths>
LongRowList<Index, Device> listLongRows(const ExecSpace& exec, const Lengths& lengths, std::int64_t longerThan,
                                        std::int64_t pieceEntries, const std::string& label) {
  using Range = Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>;
  LongRowList<Index, Device> list;
  if (lengths.numRows <= 0) return list;
  Kokkos::parallel_reduce(label + "::count_long_rows", Range(exec, 0, lengths.numRows),
                          CountLongRows<Lengths>{lengths, longerThan}, list.count);
  if (list.count == 0) return list;
  list.rows = decltype(list.rows)(Kokkos::view_alloc(Kokkos::WithoutInitializing, label + "::long_rows"), list.count);
  list.firstPiece =
      decltype(list.firstPiece)(Kokkos::view_alloc(Kokkos::WithoutInitializing, label + "::first_piece"), list.count + 1);
  Kokkos::parallel_scan(label + "::list_long_rows", Range(exec, 0, lengths.numRows),
                        ListLongRows<Lengths, Index, Device>{lengths, longerThan, list.rows});
  Kokkos::parallel_scan(label + "::first_pieces", Range(exec, 0, list.count),
                        ListFirstPieces<Lengths, Index, Device>{lengths, list, pieceEntries});
  exec.fence();
  Kokkos::deep_copy(list.pieces, Kokkos::subview(list.firstPiece, list.count));
  return list;
}

}  // namespace araios::Impl
