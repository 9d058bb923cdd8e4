#pragma once
// Sparse matrix-matrix product C = A*B with A, B and C in CSR, in two phases with a handle:
//
//   araios::SpgemmHandle<double> product(exec, A, B);   // symbolic: C's pattern
//   product.numeric(exec, A, B);                         // numeric: C's values
//   const auto& C = product.result();
//   ... new values in A and B, same patterns ...
//   product.numeric(exec, A, B);                         // again, without the symbolic cost
//
// or, in one call, auto C = araios::spgemm(exec, A, B).
//
// C's pattern is the structural product: c_ij is stored when some k has a_ik and b_kj stored,
// even when the products cancel to zero (and values of zero in A or B still make entries).
// That makes the pattern a function of the patterns alone, which is what lets the numeric
// phase run again for new values, and what keeps it the same in every mode. C's columns are
// sorted within each row.
//
// Modes (araios/mode.hpp):
//   Fast           each c_ij summed in any order (atomics in on-chip memory).
//   Deterministic  each c_ij = (...((-0 + a_ik1*b_k1j) + a_ik2*b_k2j) + ...), over the k of
//                  row i of A in A's stored order, each product and each sum rounded: the same
//                  bits on Serial, OpenMP at any thread count and CUDA.
//   Accurate       each c_ij the correctly rounded value of its exact sum.
// docs/spgemm.md describes the algorithm and its memory.
//
// Requirements: A.numCols == B.numRows; the columns of each row of B strictly increasing (no
// duplicates), which Araios's own CSR builders give. Otherwise InputError, naming the first
// offending row. Memory: the product needs C (its rows, columns and values) plus O(rows)
// workspace beyond A and B, and in accurate mode 32 bytes per entry of C for the duration of
// the numeric phase; nothing is sized by the intermediate products. A product whose C (with its
// 64-bit offsets and one row's workspace) does not fit the limit is refused
// (OutOfMemoryError, with the bytes needed and the limit or the bytes free) before it allocates
// C; workspace beyond the limit is bounded by processing the rows in chunks, which gives the
// same bits as one pass (SpgemmOptions::memoryLimitBytes). nnz(C) past what the Offset type
// holds is refused with a message that names 64-bit offsets.
#include <araios/formats/csr/csr.hpp>
#include <araios/mode.hpp>
#include <araios/spgemm/spgemm_options.hpp>

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <functional>
#include <memory>
#include <string>

namespace araios {

namespace Impl {
template <class Value, class Ordinal, class Offset, class Device>
class SpgemmPlan;
}

template <class Value, class Ordinal = std::int32_t, class Offset = std::int32_t,
          class Device = Kokkos::DefaultExecutionSpace::device_type>
class SpgemmHandle {
 public:
  using Csr = CsrMatrix<Value, Ordinal, Offset, Device>;
  using execution_space = typename Device::execution_space;

  /// The symbolic phase: checks shapes and B's columns, counts each row's products, computes
  /// C's row offsets and sorted columns. C's values are left unset until numeric().
  SpgemmHandle(const execution_space& exec, const Csr& A, const Csr& B, SpgemmOptions options = {});

  /// The numeric phase: C's values for the current values of A and B, whose patterns must be
  /// those the handle was built with (their sizes are checked; their columns are not).
  void numeric(const execution_space& exec, const Csr& A, const Csr& B);

  /// C (values valid after numeric()). Shares its Views with the handle.
  const Csr& result() const;
  const SpgemmStats& stats() const;
  const SpgemmOptions& options() const;

 private:
  std::shared_ptr<Impl::SpgemmPlan<Value, Ordinal, Offset, Device>> plan_;
};

/// C = A*B in one call (symbolic then numeric); `stats`, when given, receives the measurements.
template <class Value, class Ordinal, class Offset, class Device>
CsrMatrix<Value, Ordinal, Offset, Device> spgemm(const typename Device::execution_space& exec,
                                                 const CsrMatrix<Value, Ordinal, Offset, Device>& A,
                                                 const CsrMatrix<Value, Ordinal, Offset, Device>& B,
                                                 SpgemmOptions options = {}, SpgemmStats* stats = nullptr);

}  // namespace araios

#include <araios/spgemm/spgemm_handle_impl.hpp>
