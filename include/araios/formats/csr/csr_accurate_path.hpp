#pragma once
// Which formats' operators run Accurate mode as the CSR Accurate product (csr_accurate.hpp),
// and which kernel that product runs, by the matrix's longest row. Its own header so that the
// performance model (model/kernel_model.hpp) predicts the kernel that runs without including
// any kernel.
#include <araios/kernel_registry.hpp>

#include <cstdint>

namespace araios::Impl {

/// The longest row up to which Accurate mode runs the row kernel (a thread per row): past it,
/// the merge path. On an H100, double: the row kernel took 0.34x the merge path's time on a
/// 7-point stencil and 0.30x on a 5-point one, but 1.4x on 10 random columns a row (4 M
/// rows), 1.37x on 16 and 1.59x on 20, and 20x on a circuit matrix whose longest row holds
/// 20,000 entries.
constexpr std::int64_t kAccurateRowKernelLongestRow = 8;

/// Whether the CSR Accurate product on a matrix whose longest row holds `longestRow` entries
/// runs the row kernel (else the merge path).
constexpr bool accurateRunsRowKernel(std::int64_t longestRow) { return longestRow <= kAccurateRowKernelLongestRow; }

/// Whether an operator of `format` runs Accurate mode as the CSR Accurate product on the CSR
/// matrix it was built from: every format but the padded ones, whose own walks read a row's
/// next entry beside the next row's (ELL, SELL, JDS, DIA).
constexpr bool accurateRunsOnCsr(FormatId format) {
  return format != FormatId::Ell && format != FormatId::Sell && format != FormatId::Jds && format != FormatId::Dia;
}

}  // namespace araios::Impl
