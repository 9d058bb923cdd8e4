#pragma once
// Accurate mode on a CSR matrix. The correctly rounded y = alpha*A*x + beta*y does not depend
// on the kernel nor on the order of a row's entries, so every CSR algorithm, and every
// operator of a format that accurateRunsOnCsr names (on the CSR matrix it was built from,
// kernel_builders.hpp), runs one product, whose kernel follows the matrix (accurateCsrKernel,
// csr_accurate_path.hpp):
//   no row longer than kAccurateRowKernelLongestRow: the row kernel, a thread per row
//     (csr_rows.hpp), which streams short rows fastest;
//   rows averaging 8 entries or more, and spread no more than that: the lanes kernel
//     (csr_accurate_lanes.hpp), a lane group per row with coalesced loads;
//   otherwise the bins kernel: the lanes kernel once per bin of row lengths (csr_row_bins.hpp),
//     so that a tail of longer rows holds neither a warp of short rows nor wide lane groups;
// and in the last two, for the rows longer than kAccurateLanesLongestRow, if any, chunks summed
// by whole teams (csr_long_rows.hpp). Each leaves the rows its expansion cannot decide to the
// exact pass (detail/row_sum.hpp).
//
// An operator holds the CSR matrix, the kernel, the bins and the long rows, and sizes its
// workspace for the chunks (CsrAccurateState). A bare call finds them on the call (a few
// reductions and scans), and allocates the workspace when the caller's is smaller; Accurate
// mode already waits for the count of undecided rows, so neither costs a product's asynchrony.
#include <araios/detail/row_sum.hpp>
#include <araios/formats/csr/csr.hpp>
#include <araios/formats/csr/csr_accurate_lanes.hpp>
#include <araios/formats/csr/csr_accurate_path.hpp>
#include <araios/formats/csr/csr_long_rows.hpp>
#include <araios/formats/csr/csr_row_bins.hpp>
#include <araios/formats/csr/csr_rows.hpp>

#include <Kokkos_Core.hpp>

#include <cmath>
#include <cstdint>
#include <type_traits>

namespace araios::Impl {

/// What an operator keeps for Accurate mode on a CSR matrix: the CSR matrix (the Views of the
/// one the operator was built from, no copy), the kernel its product runs, its bins and long
/// rows, and the workspace it needs.
template <class Csr>
struct CsrAccurateState {
  Csr csr;
  std::int64_t longestRow = -1;
  AccurateCsrKernel kernel = AccurateCsrKernel::Rows;
  CsrRowBins<Csr> bins;  ///< where the kernel is Bins
  CsrLongRows<Csr> longRows;
  std::int64_t workspace = 0;  ///< values
  bool ready() const { return longestRow >= 0; }
  /// Values of workspace its product needs.
  std::int64_t workspaceValues() const { return workspace; }
  /// Bytes of the bins and the list of long rows (the CSR matrix is the caller's).
  std::int64_t bytes() const {
    return bins.bytes() + longRows.bytes();
  }
};

/// The state for Accurate mode on `source`, the CSR matrix a format was built from.
template <class ExecSpace, class Csr>
CsrAccurateState<Csr> csrAccurateState(const ExecSpace& exec, const Csr& source) {
  CsrAccurateState<Csr> state;
  state.csr = source;
  const CsrRowLengthSums lengths = csrRowLengthSums(exec, source);
  state.longestRow = lengths.longest;
  const double rows = static_cast<double>(source.numRows);
  const double mean = source.numRows > 0 ? static_cast<double>(source.nnz()) / rows : 0.0;
  const double variance = source.numRows > 0 ? static_cast<double>(lengths.squares) / rows - mean * mean : 0.0;
  state.kernel = accurateCsrKernel(state.longestRow, mean, variance > 0 ? std::sqrt(variance) : 0.0);
  if (state.kernel == AccurateCsrKernel::Rows) return state;
  if (state.kernel == AccurateCsrKernel::Bins) state.bins = csrRowBins(exec, source);
  state.longRows = csrLongRows(exec, source, state.longestRow);
  state.workspace = csrLongRowsWorkspaceValues<typename Csr::value_type>(state.longRows.pieces);
  return state;
}

/// y = alpha*A*x + beta*y correctly rounded, on the state of A. The chunks use `work` if it
/// holds state.workspaceValues() values, else a workspace of their own for the call.
template <class ExecSpace, class Csr, class XView, class YView>
void csrAccurateSpmv(const ExecSpace& exec, const CsrAccurateState<Csr>& state, const XView& x, const YView& y,
                     typename Csr::value_type alpha, typename Csr::value_type beta,
                     const Kokkos::View<typename Csr::value_type*, typename Csr::device_type>& work) {
  using Value = typename Csr::value_type;
  using Work = Kokkos::View<Value*, typename Csr::device_type>;
  const Csr& A = state.csr;
  if (state.kernel == AccurateCsrKernel::Rows) {
    csrRowSpmv(exec, A, x, y, alpha, beta, Mode::Accurate, "araios::spmv::csr_accurate_rows");
    return;
  }
  const std::int64_t needed = state.workspaceValues();
  const bool ownWork = static_cast<std::int64_t>(work.extent(0)) < needed;
  const Work ownedOrGiven =
      ownWork ? Work(Kokkos::view_alloc(Kokkos::WithoutInitializing, "araios::spmv::csr_accurate::workspace"), needed)
              : work;
  accurateSpmv<Value>(exec, y, beta, [&](auto tag, const auto& yv) {
    using Acc = typename decltype(tag)::type;
    if constexpr (std::is_same_v<Acc, ExpansionRowSum<Value>>) {
      if (state.kernel == AccurateCsrKernel::Lanes) {
        csrAccurateLanesPass(exec, A, x, yv, alpha, beta);
      } else {
        csrAccurateBinsPass(exec, A, state.bins, x, yv, alpha, beta);
      }
      csrLongRowsPass(exec, A, state.longRows, x, yv, alpha, beta, ownedOrGiven);
    } else {
      csrScalarPass<Acc>(exec, A, x, yv, alpha, beta, "araios::spmv::csr_accurate_exact");
    }
  });
  if (ownWork) exec.fence();  // the workspace made for this call dies with this scope
}

/// The same on a bare CSR matrix, its state found for the call.
template <class ExecSpace, class Csr, class XView, class YView>
void csrAccurateSpmv(const ExecSpace& exec, const Csr& A, const XView& x, const YView& y,
                     typename Csr::value_type alpha, typename Csr::value_type beta,
                     const Kokkos::View<typename Csr::value_type*, typename Csr::device_type>& work) {
  csrAccurateSpmv(exec, csrAccurateState(exec, A), x, y, alpha, beta, work);
  exec.fence();  // the list of long rows made for this call dies with this scope
}

}  // namespace araios::Impl
