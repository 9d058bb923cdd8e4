#pragma once
// Accurate mode on a CSR matrix. The correctly rounded y = alpha*A*x + beta*y does not depend
// on the kernel nor on the order of a row's entries, so every CSR algorithm, and every
// operator of a format that accurateRunsOnCsr names (on the CSR matrix it was built from,
// kernel_builders.hpp), runs whichever of two kernels suits the matrix (csr_accurate_path.hpp):
//   rows of at most kAccurateRowKernelLongestRow entries: the row kernel, a thread per row
//     (csr_rows.hpp), which streams short rows fastest;
//   longer rows: the merge path with expansions (csr_merge.hpp), whose cost does not grow with
//     the longest row (a row of 10^6 entries is summed by 62,500 segments, not one thread).
// Either leaves the rows its expansion cannot decide to the exact pass (detail/row_sum.hpp).
//
// An operator holds the CSR matrix and its longest row (CsrAccurateState), and sizes its
// workspace for the merge path. A bare call finds the longest row on the call (one reduction),
// and allocates the merge path's workspace when the caller's is smaller; Accurate mode already
// waits for the count of undecided rows, so neither costs a product's asynchrony.
#include <araios/detail/row_sum.hpp>
#include <araios/formats/csr/csr.hpp>
#include <araios/formats/csr/csr_accurate_path.hpp>
#include <araios/formats/csr/csr_merge.hpp>
#include <araios/formats/csr/csr_rows.hpp>

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <type_traits>

namespace araios::Impl {

/// The length of the longest row of A, for a range of rows.
template <class Csr>
struct CsrLongestRow {
  Csr A;
  KOKKOS_INLINE_FUNCTION void operator()(typename Csr::ordinal_type i, std::int64_t& longest) const {
    const auto length = static_cast<std::int64_t>(A.rowPtr(i + 1) - A.rowPtr(i));
    if (length > longest) longest = length;
  }
};

/// The number of entries of A's longest row (0 for a matrix without rows).
template <class ExecSpace, class Csr>
std::int64_t csrLongestRow(const ExecSpace& exec, const Csr& A) {
  std::int64_t longest = 0;
  if (A.numRows == 0) return longest;
  Kokkos::parallel_reduce("araios::spmv::csr_longest_row",
                          Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<typename Csr::ordinal_type>>(exec, 0, A.numRows),
                          CsrLongestRow<Csr>{A}, Kokkos::Max<std::int64_t>(longest));
  return longest;
}

/// What an operator keeps for Accurate mode on a CSR matrix: the CSR matrix (the Views of the
/// one the operator was built from, no copy) and its longest row.
template <class Csr>
struct CsrAccurateState {
  Csr csr;
  std::int64_t longestRow = -1;
  bool ready() const { return longestRow >= 0; }
};

/// The state for Accurate mode on `source`, the CSR matrix a format was built from.
template <class ExecSpace, class Csr>
CsrAccurateState<Csr> csrAccurateState(const ExecSpace& exec, const Csr& source) {
  CsrAccurateState<Csr> state;
  state.csr = source;
  state.longestRow = csrLongestRow(exec, source);
  return state;
}

/// y = alpha*A*x + beta*y correctly rounded, A's longest row holding `longestRow` entries. Where
/// the merge path runs it uses `work` if that holds csrMergeWorkspaceValues(A) values, else a
/// workspace of its own for the call.
template <class ExecSpace, class Csr, class XView, class YView>
void csrAccurateSpmv(const ExecSpace& exec, const Csr& A, std::int64_t longestRow, const XView& x, const YView& y,
                     typename Csr::value_type alpha, typename Csr::value_type beta,
                     const Kokkos::View<typename Csr::value_type*, typename Csr::device_type>& work) {
  using Value = typename Csr::value_type;
  using Work = Kokkos::View<Value*, typename Csr::device_type>;
  if (accurateRunsRowKernel(longestRow)) {
    csrRowSpmv(exec, A, x, y, alpha, beta, Mode::Accurate, "araios::spmv::csr_accurate_rows");
    return;
  }
  const std::int64_t needed = csrMergeWorkspaceValues<ExecSpace>(A);
  const bool ownWork = static_cast<std::int64_t>(work.extent(0)) < needed;
  const Work mergeWork =
      ownWork ? Work(Kokkos::view_alloc(Kokkos::WithoutInitializing, "araios::spmv::csr_accurate::workspace"), needed)
              : work;
  accurateSpmv<Value>(exec, y, beta, [&](auto tag, const auto& yv) {
    using Acc = typename decltype(tag)::type;
    if constexpr (std::is_same_v<Acc, ExpansionRowSum<Value>>) {
      csrMergePass<ExpansionMergeSum<Value>>(exec, A, x, yv, alpha, beta, mergeWork);
    } else {
      csrScalarPass<Acc>(exec, A, x, yv, alpha, beta, "araios::spmv::csr_accurate_exact");
    }
  });
  if (ownWork) exec.fence();  // the workspace made for this call dies with this scope
}

/// The same on the CSR matrix and longest row an operator keeps.
template <class ExecSpace, class Csr, class XView, class YView>
void csrAccurateSpmv(const ExecSpace& exec, const CsrAccurateState<Csr>& state, const XView& x, const YView& y,
                     typename Csr::value_type alpha, typename Csr::value_type beta,
                     const Kokkos::View<typename Csr::value_type*, typename Csr::device_type>& work) {
  csrAccurateSpmv(exec, state.csr, state.longestRow, x, y, alpha, beta, work);
}

/// Accurate mode of a bare format without a row walk of its own (BRCP, SC-CSR): the product on
/// `csr`, the format converted for this call (which costs as much as a few products).
template <class ExecSpace, class Csr, class XView, class YView>
void csrAccurateSpmvConverted(const ExecSpace& exec, const Csr& csr, const XView& x, const YView& y,
                              typename Csr::value_type alpha, typename Csr::value_type beta,
                              const Kokkos::View<typename Csr::value_type*, typename Csr::device_type>& work) {
  csrAccurateSpmv(exec, csr, csrLongestRow(exec, csr), x, y, alpha, beta, work);
  exec.fence();  // the CSR form made for this call dies with this scope
}

}  // namespace araios::Impl
