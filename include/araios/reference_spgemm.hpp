#pragma once
// The host reference for the sparse matrix-matrix product C = A*B: the row-by-column
// algorithm, B turned column-major and each c_ij the sparse dot product of row i of A with
// column j of B. Independent of the SpGEMM kernels (which accumulate row by row, Gustavson's
// way); the tests hold them to it and `araios spgemm --algorithm dot` runs it.
#include <araios/detail/row_sum.hpp>
#include <araios/detail/spmv_dispatch.hpp>
#include <araios/error.hpp>
#include <araios/io/matrix_market.hpp>
#include <araios/mode.hpp>

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace araios {

namespace Impl {

/// Refuses a host matrix whose entries are not sorted by (row, column) without repeats, or lie
/// outside its shape: the reference merges sorted index lists and would otherwise miss terms.
inline void checkSortedHostMatrix(const io::HostMatrix& m, const char* name) {
  if (m.row.size() != m.value.size() || m.col.size() != m.value.size()) {
    throw InputError(std::string(name) + " holds " + std::to_string(m.row.size()) + " row indices, " +
                     std::to_string(m.col.size()) + " column indices and " + std::to_string(m.value.size()) +
                     " values; expected as many of each");
  }
  for (std::int64_t k = 0; k < m.nnz(); ++k) {
    const std::int64_t r = m.row[k], c = m.col[k];
    if (r < 0 || r >= m.numRows || c < 0 || c >= m.numCols) {
      throw InputError(std::string(name) + ": entry " + std::to_string(k) + " at (" + std::to_string(r) + ", " +
                       std::to_string(c) + ") lies outside the " + std::to_string(m.numRows) + " x " +
                       std::to_string(m.numCols) + " matrix; expected 0-based indices inside it");
    }
    if (k > 0 && (r < m.row[k - 1] || (r == m.row[k - 1] && c <= m.col[k - 1]))) {
      throw InputError(std::string(name) + ": entry " + std::to_string(k) + " at (" + std::to_string(r) + ", " +
                       std::to_string(c) + ") follows (" + std::to_string(m.row[k - 1]) + ", " +
                       std::to_string(m.col[k - 1]) +
                       "); expected entries sorted by row, then column, each position once");
    }
  }
}

/// One sparse vector per row (or column) of a host matrix: `ptr` delimits each line's
/// `index` and `value` arrays (values rounded to Value), `first`/`last` the smallest and largest
/// index of each nonempty line, and `nonempty` lists those lines in order.
template <class Value>
struct ReferenceLines {
  std::vector<std::int64_t> ptr, index, nonempty, first, last;
  std::vector<Value> value;
};

/// Lines of `m` by row (byRow) or by column, each line's indices ascending: a counting sort,
/// stable, over entries sorted by (row, column).
template <class Value>
ReferenceLines<Value> referenceLines(const io::HostMatrix& m, bool byRow) {
  ReferenceLines<Value> lines;
  const std::int64_t count = byRow ? m.numRows : m.numCols;
  lines.ptr.assign(count + 1, 0);
  lines.index.resize(m.nnz());
  lines.value.resize(m.nnz());
  for (std::int64_t k = 0; k < m.nnz(); ++k) ++lines.ptr[(byRow ? m.row[k] : m.col[k]) + 1];
  for (std::int64_t l = 0; l < count; ++l) lines.ptr[l + 1] += lines.ptr[l];
  std::vector<std::int64_t> cursor(lines.ptr.begin(), lines.ptr.end() - 1);
  for (std::int64_t k = 0; k < m.nnz(); ++k) {
    const std::int64_t at = cursor[byRow ? m.row[k] : m.col[k]]++;
    lines.index[at] = byRow ? m.col[k] : m.row[k];
    lines.value[at] = static_cast<Value>(m.value[k]);
  }
  lines.first.assign(count, 0);
  lines.last.assign(count, -1);
  for (std::int64_t l = 0; l < count; ++l) {
    if (lines.ptr[l] == lines.ptr[l + 1]) continue;
    lines.nonempty.push_back(l);
    lines.first[l] = lines.index[lines.ptr[l]];
    lines.last[l] = lines.index[lines.ptr[l + 1] - 1];
  }
  return lines;
}

/// The canonical rounded sum of the Fast and Deterministic modes: from -0.0, each product and
/// each sum rounded in Value, k ascending. Spelled out here rather than taken from the kernels'
/// accumulators, so that the reference does not follow them if they change.
template <class Value>
struct ReferenceRoundedDot {
  Value sum = sumIdentity<Value>();
  void add(Value a, Value b) { sum = unfusedSum(sum, unfusedProduct(a, b)); }
  Value result() { return sum; }
};

/// The Accurate mode's sum: exact, rounded once (ExactRowSum with alpha = 1 and beta = 0, whose
/// zero rule gives -0.0 when every product is -0.0 and +0.0 for any other exactly zero sum).
template <class Value>
struct ReferenceExactDot {
  ExactRowSum<Value> exact;
  void add(Value a, Value b) { exact.add(a, b); }
  Value result() {
    Value out = 0;
    Kokkos::View<Value*, Kokkos::HostSpace, Kokkos::MemoryTraits<Kokkos::Unmanaged>> y(&out, 1);
    exact.store(y, 0, Value(1), Value(0));
    return out;
  }
};

/// The dot product of a[pa, aEnd) with b[pb, bEnd) (index lists ascending), starting where the
/// indices meet at (pa, pb): the remaining common indices, k ascending.
template <class Dot, class Value>
Value referenceDotFrom(const ReferenceLines<Value>& a, std::int64_t pa, std::int64_t aEnd, const ReferenceLines<Value>& b,
                       std::int64_t pb, std::int64_t bEnd) {
  Dot dot;
  while (pa < aEnd && pb < bEnd) {
    const std::int64_t ka = a.index[pa], kb = b.index[pb];
    if (ka == kb) {
      dot.add(a.value[pa++], b.value[pb++]);
    } else if (ka < kb) {
      ++pa;
    } else {
      ++pb;
    }
  }
  return dot.result();
}

}  // namespace Impl

/// C = A*B by row-by-column sparse dot products: B is turned column-major on the host first,
/// then each c_ij is the merge of row i of A with column j of B, k ascending. A and B are host
/// matrices sorted by (row, column) without repeated positions, as io::readMatrixMarket returns
/// them; their values are first rounded to Value, so the reference sees exactly the numbers a
/// kernel in Value sees. C comes back sorted by (row, column), its values (of type Value) held
/// as doubles.
///
/// C's pattern is the structural product: c_ij is stored when row i of A and column j of B
/// share an index k, whatever the values (zeros included, and sums that cancel to zero).
/// Values by mode:
///   Fast, Deterministic  sum = -0.0, then sum = sum + a_ik*b_kj for k ascending, each product
///                        and each sum rounded in Value: the canonical order of the library's
///                        deterministic SpGEMM (araios/spgemm.hpp), which must give these bits.
///   Accurate             the exact sum rounded once to Value (to nearest even), through the
///                        exact accumulator; an exactly zero sum is -0.0 when every product is
///                        -0.0 and +0.0 otherwise.
///
/// Cost: every pair (i, j) of a nonempty row of A and a nonempty column of B is tried, so the
/// time grows with the product of those counts (quadratic in the matrix size) plus the merges
/// of the pairs whose index ranges overlap; the memory is that of A, B and C. A reference for
/// checking kernels on small and medium matrices, not a kernel.
///
/// Throws InputError when A's columns differ from B's rows (naming both shapes), or when A or
/// B is not sorted as described.
template <class Value>
io::HostMatrix referenceSpgemmDot(const io::HostMatrix& A, const io::HostMatrix& B, Mode mode) {
  if (A.numCols != B.numRows) {
    throw InputError("A is " + std::to_string(A.numRows) + " x " + std::to_string(A.numCols) + " and B is " +
                     std::to_string(B.numRows) + " x " + std::to_string(B.numCols) +
                     ": A's columns must equal B's rows");
  }
  Impl::checkSortedHostMatrix(A, "A");
  Impl::checkSortedHostMatrix(B, "B");
  const Impl::ReferenceLines<Value> rows = Impl::referenceLines<Value>(A, true);
  const Impl::ReferenceLines<Value> cols = Impl::referenceLines<Value>(B, false);

  io::HostMatrix C;
  C.numRows = A.numRows;
  C.numCols = B.numCols;
  for (const std::int64_t i : rows.nonempty) {
    const std::int64_t aBegin = rows.ptr[i], aEnd = rows.ptr[i + 1];
    for (const std::int64_t j : cols.nonempty) {
      // Disjoint index ranges cannot meet: most pairs end here, in O(1).
      if (cols.first[j] > rows.last[i] || cols.last[j] < rows.first[i]) continue;
      std::int64_t pa = aBegin, pb = cols.ptr[j];
      const std::int64_t bEnd = cols.ptr[j + 1];
      while (pa < aEnd && pb < bEnd && rows.index[pa] != cols.index[pb]) {
        if (rows.index[pa] < cols.index[pb]) {
          ++pa;
        } else {
          ++pb;
        }
      }
      if (pa == aEnd || pb == bEnd) continue;  // no common k: no entry
      const Value v = mode == Mode::Accurate
                          ? Impl::referenceDotFrom<Impl::ReferenceExactDot<Value>>(rows, pa, aEnd, cols, pb, bEnd)
                          : Impl::referenceDotFrom<Impl::ReferenceRoundedDot<Value>>(rows, pa, aEnd, cols, pb, bEnd);
      C.row.push_back(i);
      C.col.push_back(j);
      C.value.push_back(static_cast<double>(v));
    }
  }
  C.header.rows = C.numRows;
  C.header.cols = C.numCols;
  C.header.storedEntries = C.nnz();
  return C;
}

}  // namespace araios
