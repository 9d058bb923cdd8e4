#pragma once
// JDS (jagged diagonal storage; Saad, Iterative Methods for Sparse Linear Systems, 2nd ed.,
// section 3.4; Kirk & Hwu, Programming Massively Parallel Processors, section 14.6).
//
// The rows are sorted by length, longest first (a stable sort: rows of equal length keep their
// original order); perm[k] is the original row of the k-th sorted row. Jagged diagonal t holds
// entry t of every sorted row that has more than t entries. Those rows are a prefix of the
// sorted rows, so diagonal t is a contiguous run of colIdx/values from jdPtr[t] to jdPtr[t+1],
// and entry t of sorted row k sits at jdPtr[t] + k. Nothing is padded: storedSlots() == nnz().
//
//   A (4 x 4)        row lengths 2 1 3 0   sorted rows (perm): 2 0 1 3
//   [ a . b . ]
//   [ . c . . ]      jagged diagonal 0: entry 0 of rows 2,0,1 -> d a c
//   [ d e . f ]      jagged diagonal 1: entry 1 of rows 2,0   -> e b
//   [ . . . . ]      jagged diagonal 2: entry 2 of row 2      -> f
//
//   perm   = [2 0 1 3]
//   jdPtr  = [0 3 5 6]
//   colIdx = [0 0 1 | 1 2 | 3]
//   values = [d a c | e b | f]
//
// Consecutive threads (consecutive sorted rows) read consecutive slots of each diagonal, so the
// loads coalesce on a GPU without any padding; the price is the indirection of y through perm.
#include <Kokkos_Core.hpp>

#include <cstdint>

namespace araios {

template <class Value, class Ordinal = std::int32_t, class Offset = std::int32_t,
          class Device = Kokkos::DefaultExecutionSpace::device_type>
struct JdsMatrix {
  using value_type = Value;
  using ordinal_type = Ordinal;
  using size_type = Offset;
  using device_type = Device;
  using execution_space = typename Device::execution_space;
  using memory_space = typename Device::memory_space;

  Ordinal numRows = 0;
  Ordinal numCols = 0;
  Kokkos::View<Ordinal*, Device> perm;   // numRows entries: original row of each sorted row
  Kokkos::View<Offset*, Device> jdPtr;   // numDiagonals() + 1 entries
  Kokkos::View<Ordinal*, Device> colIdx;  // nnz entries, diagonal after diagonal
  Kokkos::View<Value*, Device> values;

  /// The number of jagged diagonals: the length of the longest row.
  std::int64_t numDiagonals() const { return static_cast<std::int64_t>(jdPtr.extent(0)) - 1; }
  std::int64_t nnz() const { return static_cast<std::int64_t>(values.extent(0)); }
  std::int64_t storedSlots() const { return nnz(); }
  std::int64_t bytes() const {
    return static_cast<std::int64_t>(perm.extent(0)) * sizeof(Ordinal) +
           static_cast<std::int64_t>(jdPtr.extent(0)) * sizeof(Offset) +
           storedSlots() * static_cast<std::int64_t>(sizeof(Ordinal) + sizeof(Value));
  }
};

}  // namespace araios
