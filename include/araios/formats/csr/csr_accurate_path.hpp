#pragma once
// Which formats' operators run Accurate mode as the CSR Accurate product (csr_accurate.hpp),
// and which kernel that product runs, by the matrix's longest row. Its own header so that the
// performance model (model/kernel_model.hpp) predicts the kernel that runs without including
// any kernel.
#include <araios/kernel_registry.hpp>

#include <cstdint>

namespace araios::Impl {

/// The longest row up to which Accurate mode runs the row kernel (a thread per row): past it,
/// the lanes kernel and the long rows' chunks. On an H100, double: the row kernel took 0.34x
/// the time of a product that splits rows (then csr-merge's merge path) on a 7-point stencil
/// and 0.30x on a 5-point one, but 1.4x on 10 random columns a row (4 M rows), 1.37x on 16 and
/// 1.59x on 20, and 20x on a circuit matrix whose longest row holds 20,000 entries.
constexpr std::int64_t kAccurateRowKernelLongestRow = 8;

/// The longest row the lanes kernel sums (a lane group per row): longer rows are cut into
/// chunks of kAccurateChunkEntries (csr_long_rows.hpp) summed by whole teams.
constexpr std::int64_t kAccurateLanesLongestRow = 1024;

/// Lanes per row of the lanes kernel on a GPU, for a mean row length: the largest power of two
/// up to a quarter of it (at most 32; csr_accurate_lanes.hpp says why), or 1 below 8, where
/// accurateCsrKernel takes the merge path instead.
constexpr int accurateLanesPerRow(double meanRowLength) {
  constexpr double kEntriesPerLane = 4;
  int lanes = 1;
  while (lanes < 32 && 2 * lanes <= meanRowLength / kEntriesPerLane) lanes *= 2;
  return lanes;
}

/// Whether the CSR Accurate product on a matrix whose longest row holds `longestRow` entries
/// runs the row kernel.
constexpr bool accurateRunsRowKernel(std::int64_t longestRow) { return longestRow <= kAccurateRowKernelLongestRow; }

/// The kernels of the CSR Accurate product (csr_accurate.hpp).
enum class AccurateCsrKernel {
  Rows,       ///< a thread per row (csr_rows.hpp)
  Lanes,      ///< a lane group per row, chunks of the long rows (csr_accurate_lanes.hpp, csr_long_rows.hpp)
  MergePath,  ///< csr-merge's path and tree with expansions (csr_merge.hpp)
};

/// The kernel for a matrix's longest row and mean row length: the row kernel up to
/// kAccurateRowKernelLongestRow; past it the lanes kernel where rows average 8 entries or more
/// (at least two lanes a row), and the merge path where they average fewer, whose even shares
/// suit a few long rows among many short ones. On an H100, double, against the merge path: the
/// lanes kernel took 280 against 675 us on a FEM-like matrix (mean 27), 268 against 601 on
/// cage14, 413 against 1,006 on a 27-point stencil, 603 against 651 on an R-MAT graph (mean
/// 24), 110 against 140 on 40 rows of 10^5 among 500,000 (mean 9); with a thread per row where
/// rows average fewer than 8, 520 against 294 on a circuit matrix (mean 4.8, rows up to
/// 20,000) and 193 against 119 on a row of 10^6 among a million rows of one entry.
constexpr AccurateCsrKernel accurateCsrKernel(std::int64_t longestRow, double meanRowLength) {
  if (accurateRunsRowKernel(longestRow)) return AccurateCsrKernel::Rows;
  return accurateLanesPerRow(meanRowLength) >= 2 ? AccurateCsrKernel::Lanes : AccurateCsrKernel::MergePath;
}

/// Whether an operator of `format` runs Accurate mode as the CSR Accurate product on the CSR
/// matrix it was built from: every format but the padded ones, whose own walks read a row's
/// next entry beside the next row's (ELL, SELL, JDS, DIA).
constexpr bool accurateRunsOnCsr(FormatId format) {
  return format != FormatId::Ell && format != FormatId::Sell && format != FormatId::Jds && format != FormatId::Dia;
}

}  // namespace araios::Impl
