#pragma once
// Which kernel the CSR Accurate product runs (csr_accurate.hpp), by the matrix's longest row.
// Its own header so that the performance model (model/kernel_model.hpp) predicts the kernel
// that runs without including any kernel.
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

}  // namespace araios::Impl
