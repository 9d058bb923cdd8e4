#pragma once
// Accurate mode of the formats that have no row-wise kernel of their own (BRCP, SC-CSR): the
// CSR accurate kernel on the matrix's CSR form. The correctly rounded row sums do not depend on
// the order of a row's entries, so every CSR holding the same entries per row gives the same
// bits, and the CSR matrix an operator built the format from is one: the operator's state
// refers to its Views (detail/spmv_state.hpp), no copy. A bare matrix has no state and is
// converted on the call (csrAccurateSpmv), which costs as much as a few products.
#include <araios/mode.hpp>
#include <araios/formats/csr/csr_spmv.hpp>

#include <cstdint>

namespace araios::Impl {

template <class Csr>
struct CsrFormState {
  Csr csr;
  bool hasCsr = false;
  bool ready() const { return hasCsr; }
  /// The Views are those of the operator's CSR matrix, not allocated for the state.
  std::int64_t bytes() const { return 0; }
};

/// The state that runs Accurate mode on `source`, the CSR matrix the format was built from.
template <class Csr>
CsrFormState<Csr> csrFormState(const Csr& source) {
  return {source, true};
}

/// y = alpha*A*x + beta*y correctly rounded, on the state's CSR matrix when it holds one, else on
/// toCsr(), A converted for this call.
template <class ExecSpace, class Csr, class ToCsr, class XView, class YView>
void accurateOnCsrForm(const ExecSpace& exec, const CsrFormState<Csr>& state, const ToCsr& toCsr, const XView& x,
                       const YView& y, typename Csr::value_type alpha, typename Csr::value_type beta) {
  if (state.ready()) {
    csrRowSpmv(exec, state.csr, x, y, alpha, beta, Mode::Accurate, "araios::spmv::accurate_csr");
  } else {
    csrAccurateSpmv(exec, toCsr(), x, y, alpha, beta);
  }
}

}  // namespace araios::Impl
