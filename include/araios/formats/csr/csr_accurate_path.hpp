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

/// Lanes per row of the lanes kernel on a GPU, for a (mean) row length: the largest power of
/// two up to a quarter of it (at most 32; csr_accurate_lanes.hpp says why), 1 below 8.
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
  Lanes,  ///< a lane group per row, chunks of the long rows (csr_accurate_lanes.hpp, csr_long_rows.hpp)
  Bins,   ///< the lanes kernel per bin of row lengths, as wide as the bin's rows ask (csr_row_bins.hpp)
};

/// The kernel for a matrix's longest row and the mean and standard deviation of its row
/// lengths: the row kernel up to kAccurateRowKernelLongestRow; past it the lanes kernel where
/// rows average 8 entries or more (at least two lanes a row) and spread no more than their mean,
/// and the bins kernel otherwise. On an H100, double (unseen suite, seed 5150), in us:
///   lanes kernel: 287 on a FEM-like matrix (mean 27) and 268 on cage14, where the bins kernel
///     took 370 and 366 (rows of two bins interleave, so each launch reads every other stretch
///     of rows) and the merge path 675 and 601;
///   bins kernel: 216 on a circuit matrix (mean 4.8, rows up to 20,000) and 62 on a row of 10^6
///     among a million rows of one entry, where the merge path took 294 and 116; 575 on an
///     R-MAT graph (mean 24, spread past its mean), where the lanes kernel took 642.
constexpr AccurateCsrKernel accurateCsrKernel(std::int64_t longestRow, double meanRowLength, double stdRowLength) {
  if (accurateRunsRowKernel(longestRow)) return AccurateCsrKernel::Rows;
  return accurateLanesPerRow(meanRowLength) >= 2 && stdRowLength <= meanRowLength ? AccurateCsrKernel::Lanes
                                                                                   : AccurateCsrKernel::Bins;
}

/// Whether an operator of `format` runs Accurate mode as the CSR Accurate product on the CSR
/// matrix it was built from: every format but the padded ones, whose own walks read a row's
/// next entry beside the next row's (ELL, SELL, JDS, DIA).
constexpr bool accurateRunsOnCsr(FormatId format) {
  return format != FormatId::Ell && format != FormatId::Sell && format != FormatId::Jds && format != FormatId::Dia;
}

}  // namespace araios::Impl
