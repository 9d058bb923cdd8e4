#pragma once
// How SC-CSR splits length-sorted rows into ranges, one kernel launch each (Liang, HUST 2012).
//
// The length classes [0,8), [8,16), [16,32) and [32,inf) use merge factors c = 32, 16, 8 and 4.
// Past the shortest class, c times the shortest length of the class is 128 slots: a merged
// row is at least four warp-wide passes, and its c rows share the warp's 32 lanes as 32/c
// lanes each, reduced in log2(32/c) steps. Rows of fewer than 8 entries get one lane each.
//
// Folding. A range of r rows makes r/c merged rows, one warp each. When r/c is below
// N_w = 0.5 x numSM x activeBlocksPerSM x (blockSize / warpSize), the launch cannot fill half
// the GPU's resident warps, so the range is folded into the next class: its rows join the
// next range and take its (smaller) merge factor. The test is made on the range as it stands
// after earlier folds, so several short classes can cascade into one. The last class has
// nothing to fold into: it stays, however short.
#include <Kokkos_Core.hpp>
#include <araios/formats/sccsr/sccsr.hpp>

#include <array>
#include <cstdint>
#include <optional>
#include <type_traits>
#include <vector>

namespace araios {

struct ScCsrLengthClass {
  std::int64_t minLength;  ///< rows of at least this many entries (up to the next class's minimum)
  int mergeFactor;         ///< c
};

inline constexpr std::array<ScCsrLengthClass, 4> kScCsrLengthClasses = {{{0, 32}, {8, 16}, {16, 8}, {32, 4}}};

/// Lanes that read one merged row: a CUDA warp.
inline constexpr int kScCsrLanes = 32;
/// Threads per block of the GPU kernel: 8 warps, each on its own merged row. 256 is the block
/// size that lets 8 blocks reside on every SM from sm_70 to sm_90 (2048 threads per SM).
inline constexpr int kScCsrBlockSize = 256;
/// Blocks of kScCsrBlockSize threads resident on one SM at full occupancy (2048 / 256); the
/// kernel uses few registers and 2 KiB of scratch per block, so occupancy is not limited below.
inline constexpr int kScCsrActiveBlocksPerSM = 8;
/// Liang's factor: a launch should fill at least half of the resident warps.
inline constexpr double kScCsrFillFraction = 0.5;

/// The default N_w: Liang's rule (half the resident warps) on a 132-SM H100, 4224 merged rows,
/// on every backend. The threshold decides the layout and so the order of each row's sum: one
/// fixed value makes the same CSR the same SC-CSR, and y the same bits, on any CPU or GPU.
inline constexpr double kScCsrPortableFoldingThreshold = 4224;

struct ScCsrOptions {
  /// N_w, in merged rows: a range with fewer (rows / c) folds into the next range. Empty: the
  /// portable default (kScCsrPortableFoldingThreshold), or the execution space's own
  /// (scCsrDeviceFoldingThreshold) with tuneToDevice. 0 never folds.
  std::optional<double> foldingThreshold;
  /// Size the ranges for this device instead of the portable default: can be faster, but the
  /// layout, and with it the last bits of y, then depend on the machine and its thread count.
  bool tuneToDevice = false;
};

/// The N_w scCsrFromCsr uses when none is given.
template <class ExecSpace>
double scCsrDefaultFoldingThreshold(const ExecSpace&) {
  return kScCsrPortableFoldingThreshold;
}

/// N_w for a host backend: one merged row per thread of the pool (exec.concurrency()), which
/// is all a CPU launch needs to keep every thread busy. For a GPU other than CUDA: half the
/// resident threads, counted in warps.
template <class ExecSpace>
double scCsrDeviceFoldingThreshold(const ExecSpace& exec) {
  if constexpr (std::is_same_v<typename ExecSpace::memory_space, Kokkos::HostSpace>) {
    return static_cast<double>(exec.concurrency());
  } else {
    return kScCsrFillFraction * static_cast<double>(exec.concurrency()) / kScCsrLanes;
  }
}

#ifdef KOKKOS_ENABLE_CUDA
/// N_w on CUDA, from the device's SM count: 0.5 x numSM x 8 x (256 / 32), 4224 on an H100 SXM.
inline double scCsrDeviceFoldingThreshold(const Kokkos::Cuda& exec) {
  const int numSM = exec.cuda_device_prop().multiProcessorCount;
  return kScCsrFillFraction * numSM * kScCsrActiveBlocksPerSM * (kScCsrBlockSize / kScCsrLanes);
}
#endif

/// The ranges for rows already sorted by ascending length, given how many rows fall in each
/// length class. Ranges with no rows are left out.
inline std::vector<ScCsrRange> planScCsrRanges(const std::array<std::int64_t, kScCsrLengthClasses.size()>& classRows,
                                               double foldingThreshold) {
  std::vector<ScCsrRange> ranges;
  std::int64_t firstRow = 0, firstMergedRow = 0, rows = 0;
  for (std::size_t k = 0; k < kScCsrLengthClasses.size(); ++k) {
    const int c = kScCsrLengthClasses[k].mergeFactor;
    rows += classRows[k];  // with the rows folded into this class
    const bool last = k + 1 == kScCsrLengthClasses.size();
    if (!last && static_cast<double>(rows) / c < foldingThreshold) continue;  // fold into the next class
    if (rows > 0) {
      const std::int64_t merged = (rows + c - 1) / c;
      ranges.push_back({c, firstRow, rows, firstMergedRow, merged});
      firstRow += rows;
      firstMergedRow += merged;
    }
    rows = 0;
  }
  return ranges;
}

/// Which length class a row of `length` entries belongs to.
inline std::size_t scCsrLengthClass(std::int64_t length) {
  std::size_t k = 0;
  while (k + 1 < kScCsrLengthClasses.size() && length >= kScCsrLengthClasses[k + 1].minLength) ++k;
  return k;
}

}  // namespace araios
