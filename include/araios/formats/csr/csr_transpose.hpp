#pragma once
// The transpose of a CSR matrix, as a CSR matrix: the CSC arrays of A are the CSR arrays of
// A^T. Rows of the result hold their columns sorted (the counting sort keeps A's row order).
#include <araios/formats/csc/csc_convert.hpp>
#include <araios/formats/csr/csr.hpp>

namespace araios {

template <class ExecSpace, class Value, class Ordinal, class Offset, class Device>
CsrMatrix<Value, Ordinal, Offset, Device> transposeCsr(const ExecSpace& exec,
                                                       const CsrMatrix<Value, Ordinal, Offset, Device>& a) {
  const auto csc = cscFromCsr(exec, a);
  return {a.numCols, a.numRows, csc.colPtr, csc.rowIdx, csc.values};
}

}  // namespace araios
