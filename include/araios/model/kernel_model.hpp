#pragma once
// The performance model: the time of one product of a kernel in a mode, and the time of
// building its format, predicted from a matrix's features (matrix_features.hpp) as a sum of
// terms, each a count the matrix fixes times a constant the device's profile fits:
//
//   t_product = c_launch
//             + c_stream  * bytes the format streams (its arrays, padding included, x and y once)
//             + c_gather  * lines of x fetched anew (entries x the sample's new-block fraction)
//             + c_miss    * those lines that miss the last-level cache (x larger than the cache)
//             + c_rows    * rows
//             + c_irreg   * irregular work: idle lane steps of csr-scalar's and csr-vector's warps
//                           (a lane that waits for a longer row), HYB's entries in its COO part;
//                           0 for the others
//                           (the padded formats stream their padding)
//             + c_longest * the longest row (the one thread, lane group or block that must walk it)
//             + c_scatter * entries of rows one thread walks beside 31 others, long enough that
//                           L1 loses their lines between the thread's steps
//                           (scattered_entries.hpp), where the kernel and mode walk rows so
//                           (walksRowsUncoalesced)
//
//   t_build   = b_launch + b_entries * nnz + b_rows * rows + b_slots * the format's stored slots
//
// The counts are per kernel, and for the scattered walk and Accurate mode per mode (kernelTerms
// below, readable row by row); the constants are per kernel, mode and device, fitted by `araios calibrate` with
// non-negative least squares, so each term can only add time: more entries, bytes or rows
// never predict a faster product.
// docs/model.md derives each term and lists the fitted constants.
#include <araios/kernel_registry.hpp>
#include <araios/mode.hpp>
#include <araios/formats/csr/csr_accurate_path.hpp>
#include <araios/model/matrix_features.hpp>
#include <araios/model/scattered_entries.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <string_view>

namespace araios {

enum class ProductTerm { Launch, Stream, Gather, Miss, Rows, Irregular, Longest, Scattered };
inline constexpr std::size_t kProductTerms = 8;
inline constexpr std::array<std::string_view, kProductTerms> kProductTermNames = {
    "launch", "stream_bytes", "gather_lines", "miss_lines", "rows", "irregular", "longest_row", "scattered_entries"};

enum class BuildTerm { Launch, Entries, Rows, Slots };
inline constexpr std::size_t kBuildTerms = 4;
inline constexpr std::array<std::string_view, kBuildTerms> kBuildTermNames = {"launch", "entries", "rows",
                                                                             "slots"};

using ProductTerms = std::array<double, kProductTerms>;
using BuildTerms = std::array<double, kBuildTerms>;

/// What the model needs of the device besides the fitted constants.
struct DeviceTraits {
  /// Bytes of the last-level cache x may stay in (the GPU's L2, the CPU's L3).
  std::int64_t cacheBytes = 32 << 20;
  /// A GPU's backend. COO's and HYB's Fast mode differ there: a GPU adds each run of a row's
  /// entries within a team once (coo_run_scatter.hpp), a CPU walks the rows.
  bool gpu = false;
};

/// The index types and value type of a product, in bytes.
struct ElementSizes {
  int value = 8;
  int ordinal = 4;
  int offset = 4;
};

/// HYB's ELL width by its conversion's rule (formats/hyb/hyb_convert.hpp), from the row-length
/// classes: the largest power of two that at least max(4096, rows / 3) rows reach. (The
/// conversion's own width may lie between two powers of two; the estimate is the lower one.)
inline std::int64_t estimatedHybWidth(const MatrixFeatures& f) {
  const std::int64_t needed = std::max<std::int64_t>(4096, f.rows / 3);
  std::int64_t width = 0;
  for (std::int64_t w = 1; w <= f.maxRowLength && w > 0; w *= 2) {
    if (f.rowsOfAtLeast(w) >= needed) width = w;
  }
  return width;
}

/// Entries of HYB's ELL part for width `width`: min(length, width) summed over rows, from the
/// classes (exact for a power-of-two width).
inline std::int64_t hybEllEntries(const MatrixFeatures& f, std::int64_t width) {
  std::int64_t inEll = 0;
  for (int c = 0; c < kRowLengthClasses; ++c) {
    const std::int64_t lowest = c == 0 ? 0 : std::int64_t(1) << (c - 1);
    inEll += lowest >= width ? f.rowsByClass[c] * width : f.entriesByClass[c];
  }
  return inEll;
}

/// Lanes csr-vector gives a row on a GPU (formats/csr/csr_lanes.hpp): the power of two at
/// least the mean row length, 32 at most.
inline int csrVectorLanes(const MatrixFeatures& f) {
  int lanes = 1;
  while (lanes < 32 && lanes < f.meanRowLength()) lanes *= 2;
  return lanes;
}

/// Slots the kernel's format stores for the matrix (padding included), as estimated from the
/// features; the formats whose padding the features do not show count their entries.
inline std::int64_t estimatedSlots(Kernel kernel, const MatrixFeatures& f) {
  switch (kernel) {
    case Kernel::Ell: return f.rows * f.maxRowLength;
    case Kernel::Sell: return f.sellSlots;
    // The sample can miss a matrix's few long rows, but a row of L entries lies on L
    // diagonals, so the longest row bounds the diagonals from below.
    case Kernel::Dia: return f.rows * std::max(f.sampledDiagonals, f.maxRowLength);
    case Kernel::Hyb: {
      const std::int64_t width = estimatedHybWidth(f);
      return f.rows * width + (f.nnz - hybEllEntries(f, width));
    }
    default: return f.nnz;
  }
}

/// Whether `kernel` in `mode` gives each row to one thread that reads the row's entries where
/// the row stores them, side by side with the neighbouring rows' threads: on a GPU the walk
/// whose loads do not coalesce (scattered_entries.hpp). Not for the Accurate mode of the
/// kernels whose operators run it on CSR (Impl::accurateRunsOnCsr), which kernelTerms counts by
/// the row kernel's rule.
inline bool walksRowsUncoalesced(Kernel kernel, Mode mode) {
  switch (kernel) {
    case Kernel::CsrScalar: return true;
    // Otherwise a thread per row walks the row's run of the grouping by row (csc_spmv.hpp); Fast
    // scatters the entries in storage order, coalesced.
    case Kernel::Csc: return mode != Mode::Fast;
    // A thread per row over the entries, or HYB's COO tail, stored by row; Fast is one entry
    // per thread, coalesced.
    case Kernel::Coo:
    case Kernel::Hyb: return mode != Mode::Fast;
    // ELL, SELL, JDS and DIA store a row's next entry beside the next row's. csr-vector's lanes
    // share a row, csr-merge stages its entries through scratch, and BRC's slot rows lie side
    // by side; BRCP, SC-CSR and VAB read a block's entries across lanes.
    default: return false;
  }
}

/// The counts of t_product for `kernel` in `mode` on a matrix of features `f`.
inline ProductTerms kernelTerms(Kernel kernel, Mode mode, const MatrixFeatures& f, const ElementSizes& e,
                                const DeviceTraits& device) {
  const double rows = static_cast<double>(f.rows), nnz = static_cast<double>(f.nnz);
  const double entryBytes = e.value + e.ordinal;
  const double vectors = e.value * static_cast<double>(f.rows + f.cols);
  const double slots = static_cast<double>(estimatedSlots(kernel, f));
  const double lines = nnz * f.newBlockFraction();
  const double xBytes = static_cast<double>(e.value) * static_cast<double>(f.cols);
  const double missFraction = xBytes > 0 ? std::max(0.0, 1.0 - static_cast<double>(device.cacheBytes) / xBytes) : 0;
  double stream = 0, irregular = 0;
  // The longest row's serial chain: walked by one thread, by csr-vector's lanes, or split
  // over a warp's lanes (the entry- and block-parallel kernels).
  double longest = static_cast<double>(f.maxRowLength);
  switch (kernel) {
    case Kernel::Coo:
      stream = nnz * (e.value + 2.0 * e.ordinal);
      // A GPU's Fast mode adds a long row's entries as sums of 1,024-entry runs, so the row is
      // no chain; a row walked by one thread is one.
      longest = mode == Mode::Fast && device.gpu ? 0.0 : longest / 32;
      break;
    case Kernel::CsrScalar:
      stream = nnz * entryBytes + (rows + 1) * e.offset;
      irregular = static_cast<double>(f.groupSlots) - nnz;  // lanes of a warp wait for its longest row
      break;
    case Kernel::CsrVector: {
      stream = nnz * entryBytes + (rows + 1) * e.offset;
      const int lanes = csrVectorLanes(f);
      longest /= lanes;
      for (int c = 0; c < kRowLengthClasses; ++c) {  // lanes idle past a row's end, class by class
        if (f.rowsByClass[c] == 0) continue;
        const double mean = static_cast<double>(f.entriesByClass[c]) / static_cast<double>(f.rowsByClass[c]);
        const double steps = std::max(1.0, std::ceil(mean / lanes));
        irregular += static_cast<double>(f.rowsByClass[c]) * (steps * lanes - mean);
      }
      break;
    }
    case Kernel::CsrMerge:
      // Every thread takes the same number of entries and row ends, in every mode: no thread
      // waits on a long row, and a row's pieces are joined in a later launch.
      stream = nnz * entryBytes + (rows + 1) * e.offset;
      longest = 0;
      break;
    case Kernel::Csc:
      stream = nnz * entryBytes + (static_cast<double>(f.cols) + 1) * e.offset;
      if (mode == Mode::Fast) longest = 0;  // equal shares of the entries, whatever the columns
      break;
    case Kernel::Ell:
    case Kernel::Sell:
    case Kernel::Dia:
    case Kernel::Hyb:
      // Their padding is streamed like entries: it is in `stream`, not in `irregular`.
      stream = slots * (kernel == Kernel::Dia ? e.value : entryBytes) + rows * e.offset / 32.0;
      if (kernel == Kernel::Hyb && mode == Mode::Fast && device.gpu) {
        // A GPU's Fast mode streams the COO entries and adds each run of a row in a team once
        // (coo_run_scatter.hpp): the chain is the ELL width, and the COO part is streamed.
        longest = std::min(longest, static_cast<double>(estimatedHybWidth(f)));
      } else if (kernel == Kernel::Hyb) {
        // The longest row stays the chain although only its first K entries are in ELL: the
        // row's thread walks its COO entries after its ELL slots (on a CPU in Fast mode too).
        irregular = nnz - static_cast<double>(hybEllEntries(f, estimatedHybWidth(f)));
      }
      break;
    case Kernel::Jds:
      stream = nnz * entryBytes + rows * e.ordinal + static_cast<double>(f.maxRowLength) * e.offset;
      break;
    case Kernel::Brc:
    case Kernel::Brcp:
    case Kernel::BrcpAtomic:
      // Rows are cut into pieces of round(mean + std) entries (formats/brc/brc.hpp), each walked
      // by one thread: the longest chain is a piece.
      stream = nnz * entryBytes + rows * (e.ordinal + e.offset);
      longest = std::min(longest, std::max(1.0, std::round(f.meanRowLength() + f.stdRowLength())));
      break;
    default:  // SC-CSR, VAB: entries, plus a row index and an offset per row or block
      stream = nnz * entryBytes + rows * (e.ordinal + e.offset);
      longest /= 32;
      break;
  }
  // The CSR Accurate product (accurateCsrKernel) streams CSR whatever its kernel:
  //   the row kernel: chains of at most kAccurateRowKernelLongestRow, csr-scalar's scattered walk;
  //   the lanes kernel: a row (at most kAccurateLanesLongestRow entries) over its lanes;
  //   the bins kernel: the longest such row over the lanes of its own bin.
  const bool accurateOnCsr = mode == Mode::Accurate && Impl::accurateRunsOnCsr(kernelEntry(kernel).format);
  const Impl::AccurateCsrKernel accurateKernel =
      Impl::accurateCsrKernel(f.maxRowLength, f.meanRowLength(), f.stdRowLength());
  if (accurateOnCsr) {
    stream = nnz * entryBytes + (rows + 1) * e.offset;
    irregular = 0.0;
    if (accurateKernel == Impl::AccurateCsrKernel::Rows) {
      longest = static_cast<double>(f.maxRowLength);
    } else {
      const std::int64_t chain = std::min<std::int64_t>(f.maxRowLength, Impl::kAccurateLanesLongestRow);
      const double lanesOfChain = accurateKernel == Impl::AccurateCsrKernel::Lanes
                                      ? Impl::accurateLanesPerRow(f.meanRowLength())
                                      : Impl::accurateLanesPerRow(static_cast<double>(chain));
      longest = static_cast<double>(chain) / lanesOfChain;
    }
  }
  ProductTerms t{};
  t[static_cast<std::size_t>(ProductTerm::Launch)] = 1;
  t[static_cast<std::size_t>(ProductTerm::Stream)] = stream + vectors;
  t[static_cast<std::size_t>(ProductTerm::Gather)] = lines;
  t[static_cast<std::size_t>(ProductTerm::Miss)] = lines * missFraction;
  t[static_cast<std::size_t>(ProductTerm::Rows)] = rows;
  t[static_cast<std::size_t>(ProductTerm::Irregular)] = std::max(0.0, irregular);
  t[static_cast<std::size_t>(ProductTerm::Longest)] = longest;
  if (accurateOnCsr ? accurateKernel == Impl::AccurateCsrKernel::Rows : walksRowsUncoalesced(kernel, mode)) {
    // HYB's threads walk only the entries past its ELL width.
    const std::int64_t skip = kernel == Kernel::Hyb && !accurateOnCsr ? estimatedHybWidth(f) : 0;
    t[static_cast<std::size_t>(ProductTerm::Scattered)] =
        static_cast<double>(scatteredEntries(f, scatteredRowLength(e.value, e.ordinal), skip));
  }
  return t;
}

/// The counts of t_build for the format of `kernel` (zero for the CSR kernels, which use the
/// caller's CSR as it is).
inline BuildTerms buildTerms(Kernel kernel, const MatrixFeatures& f) {
  BuildTerms t{};
  if (kernelEntry(kernel).format == FormatId::Csr) return t;
  t[static_cast<std::size_t>(BuildTerm::Launch)] = 1;
  t[static_cast<std::size_t>(BuildTerm::Entries)] = static_cast<double>(f.nnz);
  t[static_cast<std::size_t>(BuildTerm::Rows)] = static_cast<double>(f.rows);
  t[static_cast<std::size_t>(BuildTerm::Slots)] = static_cast<double>(estimatedSlots(kernel, f));
  return t;
}

template <std::size_t N>
double dotTerms(const std::array<double, N>& terms, const std::array<double, N>& constants) {
  double t = 0;
  for (std::size_t j = 0; j < N; ++j) t += terms[j] * constants[j];
  return t;
}

}  // namespace araios
