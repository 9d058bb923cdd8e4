#pragma once
// The CSR kernel of a product that names none (SpmvAlgorithm::Auto, as araios::spmv's default
// options leave it).
//
// In Deterministic mode the choice depends on the matrix alone, never on the backend, so that the
// default gives the same bits on Serial, OpenMP and CUDA, as Deterministic mode promises:
//   - csr-merge where the rows are uneven: some row holds more than kUnevenLongestRow entries
//     and more than kUnevenOverMean times the mean. A row kernel then waits on that row while
//     the rest of the device idles; csr-merge gives every thread the same share of the entries.
//     On an H200 (bench/results/nvidia-h200/team_carveout, seeds 8086 and 4242), on the ten such
//     matrices, csr-scalar took 2.1 to 1,500 times csr-merge's time (a circuit matrix: 1,869 µs
//     against 100; one full row of 10^6 entries: 71 ms against 47 µs) and csr-vector 1.5 to 900
//     times. On a CPU csr-merge walks its segments straight from CSR: on 2 cores it took 1.07
//     to 1.9 times csr-scalar's time on such rows (bench/results/cpu-2core-xeon), the price of
//     the same bits as on the GPU.
//   - csr-scalar otherwise. On the six even matrices of those runs (stencils, FEM, uniform and
//     rectangular) it took at most 1.3 times the best CSR kernel's time (FEM), while csr-merge
//     took up to 2.5 times csr-scalar's (stencils); on a CPU deterministic csr-vector takes 1.3
//     to 2.2 times csr-scalar's.
// In Fast mode, which promises no bits, each backend takes its fastest: on a GPU csr-merge on
// uneven rows, csr-vector where rows average more than 8 entries (scalar GPU threads wait on
// uncoalesced loads there), csr-scalar otherwise; on a CPU csr-scalar.
// Accurate mode has one answer whatever the kernel (csr_accurate.hpp).
#include <araios/detail/host_space.hpp>
#include <araios/detail/rows_in_order.hpp>
#include <araios/detail/spmv_dispatch.hpp>
#include <araios/mode.hpp>

#include <cstdint>

namespace araios::Impl {

/// Rows are uneven when the longest holds more than this many entries: the row length above
/// which the GPU row walks of COO, CSC and HYB hand a row to a whole team (rows_in_order.hpp)...
constexpr std::int64_t kUnevenLongestRow = kLongRowEntries;
/// ... and more than this many times the mean.
constexpr double kUnevenOverMean = 16.0;
/// Fast mode on a GPU: csr-vector past this mean row length.
constexpr double kVectorFromMeanRowLength = 8.0;

/// Whether a CSR matrix's rows are uneven enough for csr-merge (see above).
constexpr bool csrRowsUneven(double meanRowLength, std::int64_t longestRow) {
  return longestRow > kUnevenLongestRow && static_cast<double>(longestRow) > kUnevenOverMean * meanRowLength;
}

/// Whether the default in `mode` on ExecSpace reads the longest row (a pass over the rows).
template <class ExecSpace>
constexpr bool csrDefaultReadsLongestRow(Mode mode) {
  return mode == Mode::Deterministic || (mode == Mode::Fast && !isHostSpace<ExecSpace>());
}

/// The default CSR kernel in `mode` on ExecSpace for rows of `meanRowLength` entries on average,
/// the longest of `longestRow` (read only where csrDefaultReadsLongestRow says so).
template <class ExecSpace>
constexpr SpmvAlgorithm csrDefaultAlgorithm(Mode mode, double meanRowLength, std::int64_t longestRow) {
  if (!csrDefaultReadsLongestRow<ExecSpace>(mode)) return SpmvAlgorithm::CsrScalar;
  if (csrRowsUneven(meanRowLength, longestRow)) return SpmvAlgorithm::CsrMerge;
  if (mode == Mode::Fast && meanRowLength > kVectorFromMeanRowLength) return SpmvAlgorithm::CsrVector;
  return SpmvAlgorithm::CsrScalar;
}

}  // namespace araios::Impl
