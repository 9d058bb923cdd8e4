#pragma once
// DIA (diagonal) storage (Saad, "Iterative Methods for Sparse Linear Systems", 2nd ed.,
// section 3.4; on GPUs, Bell & Garland, "Implementing sparse matrix-vector multiplication on
// throughput-oriented processors", SC '09, section "Diagonal format").
//
// offsets(d) = column - row of the d-th occupied diagonal, in increasing order. The slot of
// row r on diagonal d, at d*numRows + r (column-major), holds A(r, r + offsets(d)); thread r
// of one-thread-per-row SpMV reads slot d next to rows r-1 and r+1 (coalesced), and x at
// r + offsets(d), next to its neighbours' x too.
//
// A slot is padding when its diagonal has no entry in that row: either the diagonal runs off
// the matrix there, or the row has a hole on it. Padding holds value 0 with its bit of
// `present` clear (bit s of the bitmask: word s / 32, bit s % 32). The kernel multiplies only
// present slots, so an Inf or NaN in x reaches only rows whose real entries use it (as with
// CSR), and an explicit zero stored by the input (bit set, value 0) stays an entry: the round
// trip back to CSR is exact. The mask costs 1 bit per slot, 1/64 of the double values' traffic.
//
//   A = [ 1 2 . ]      offsets = [ -1  0  1 ]
//       [ . 3 4 ]      data    = [  0  0  5 |  1  3  6 |  2  4  0 ]   (diagonal -1 | 0 | 1)
//       [ . 5 6 ]      present = [  0  0  1 |  1  1  1 |  1  1  0 ]   (one bit per slot)
// Diagonal -1 runs off the matrix in row 0 and has a hole in row 1; diagonal 1 runs off in row 2.
#include <Kokkos_Core.hpp>

#include <cstdint>

namespace araios {

template <class Value, class Ordinal = std::int32_t, class Offset = std::int32_t,
          class Device = Kokkos::DefaultExecutionSpace::device_type>
struct DiaMatrix {
  using value_type = Value;
  using ordinal_type = Ordinal;
  using size_type = Offset;
  using device_type = Device;
  using execution_space = typename Device::execution_space;
  using memory_space = typename Device::memory_space;
  using mask_word = std::uint32_t;
  static constexpr int bitsPerWord = 32;

  Ordinal numRows = 0;
  Ordinal numCols = 0;
  Ordinal numDiags = 0;
  Offset numEntries = 0;                     // real entries (explicit zeros included)
  Kokkos::View<Ordinal*, Device> offsets;    // numDiags, increasing
  Kokkos::View<Value*, Device> data;         // numRows * numDiags, column-major
  Kokkos::View<mask_word*, Device> present;  // one bit per slot of data

  /// Position of row `row`'s slot on diagonal d in data (and its bit in present).
  KOKKOS_INLINE_FUNCTION Offset slot(Ordinal row, Ordinal d) const {
    return static_cast<Offset>(d) * static_cast<Offset>(numRows) + static_cast<Offset>(row);
  }
  /// Whether slot s holds a real entry.
  KOKKOS_INLINE_FUNCTION bool isPresent(Offset s) const {
    return (present(s / bitsPerWord) >> (s % bitsPerWord)) & mask_word(1);
  }

  std::int64_t nnz() const { return numEntries; }
  std::int64_t storedSlots() const { return static_cast<std::int64_t>(numRows) * numDiags; }
  std::int64_t bytes() const {
    return static_cast<std::int64_t>(offsets.extent(0)) * sizeof(Ordinal) + storedSlots() * sizeof(Value) +
           static_cast<std::int64_t>(present.extent(0)) * sizeof(mask_word);
  }
};

}  // namespace araios
