#pragma once
// CSR <-> CSC: a transpose of the index structure, by counting sort on the device.
#include <araios/detail/device_memory.hpp>
#include <araios/detail/compress.hpp>
#include <araios/formats/csc/csc.hpp>
#include <araios/formats/csr/csr.hpp>

namespace araios {

template <class ExecSpace, class Value, class Ordinal, class Offset, class Device>
CscMatrix<Value, Ordinal, Offset, Device> cscFromCsr(const ExecSpace& exec,
                                                     const CsrMatrix<Value, Ordinal, Offset, Device>& csr) {
  // The row of every entry, the sort's permutation, and the CSC arrays.
  requireMemory(exec,
                static_cast<std::int64_t>(csr.nnz()) * static_cast<std::int64_t>(2 * sizeof(Ordinal) + sizeof(Value) + sizeof(Offset)) +
                    (static_cast<std::int64_t>(csr.numCols) + 1) * static_cast<std::int64_t>(sizeof(Offset)),
                Impl::buildingWhat("CSC", csr.numRows, csr.numCols));
  auto rowOfEntry = Impl::expand<Ordinal>(exec, csr.rowPtr, csr.nnz(), "araios::csc::rowOfEntry");
  auto c = Impl::compress<Offset>(exec, csr.numCols, csr.colIdx, rowOfEntry, csr.values, "araios::csc");
  return {csr.numRows, csr.numCols, c.ptr, c.minor, c.values};
}

template <class ExecSpace, class Value, class Ordinal, class Offset, class Device>
CsrMatrix<Value, Ordinal, Offset, Device> csrFromCsc(const ExecSpace& exec,
                                                     const CscMatrix<Value, Ordinal, Offset, Device>& csc) {
  auto colOfEntry = Impl::expand<Ordinal>(exec, csc.colPtr, csc.nnz(), "araios::csr::colOfEntry");
  auto c = Impl::compress<Offset>(exec, csc.numRows, csc.rowIdx, colOfEntry, csc.values, "araios::csr");
  return {csc.numRows, csc.numCols, c.ptr, c.minor, c.values};
}

}  // namespace araios
