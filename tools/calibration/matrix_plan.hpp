#pragma once
// Which matrices calibration times, sized by the device rather than fixed: a product's time
// changes regime with the size of the matrix relative to the device's parallelism (a launch
// that cannot fill the device costs its fixed overhead) and to its last-level cache (x and the
// matrix streamed from cache or from memory). So the plan places each family of matrices at
//   launch  about one entry per resident thread: the fixed costs dominate;
//   cache   the CSR arrays about half the last-level cache;
//   stream  the largest size calibration allows: the memory bandwidth dominates;
// with families that exercise each term of the model (araios/model/kernel_model.hpp):
// constant row lengths 1..128 with banded and with scattered columns (stream, gather and
// rows), power-law row lengths (idle lanes, the longest row), a few very long rows among
// short ones (the longest row), stencils with few diagonals (DIA), and dense blocks.
#include <araios/detail/device_description.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace araios::cli::calibration {

enum class Family {
  BandedRows,     ///< every row `rowLength` consecutive columns about the diagonal
  ScatteredRows,  ///< every row `rowLength` distinct columns drawn uniformly
  PowerLaw,       ///< Chung-Lu-like: row and column weights from a power law of `exponent`
  LongRows,       ///< short rows of 2 to 6 entries about the diagonal, and `longRows` rows of `longRowLength`
  Stencil,        ///< a `dimensions`-D grid, 2*dims+1 points (`fullStencil`: 3^dims points)
  Blocks,         ///< dense `blockSize` x `blockSize` blocks, `blocksPerRow` per block row
};

struct MatrixSpec {
  std::string name;
  Family family = Family::BandedRows;
  std::int64_t rows = 0;
  int rowLength = 0;  ///< BandedRows, ScatteredRows: entries per row; PowerLaw: the mean
  double exponent = 0;
  int longRows = 0;
  std::int64_t longRowLength = 0;
  int dimensions = 0;
  bool fullStencil = false;
  int blockSize = 0;
  int blocksPerRow = 0;
  std::uint64_t seed = 0;
  std::int64_t estimatedNnz = 0;  ///< for the plan and the progress estimate
};

/// What the plan needs of the device, derived from its description.
struct PlanSizes {
  /// Rows a device runs at once with one row per warp (GPU) or per thread (CPU): S_csr.
  std::int64_t csrStrips = 1;
  /// Rows a device runs at once with one row per thread (GPU) or 32 per thread (CPU): S_ell.
  std::int64_t ellStrips = 32;
  std::int64_t cacheBytes = 0;
  /// The largest CSR (values, columns, row offsets) calibration builds.
  std::int64_t maxCsrBytes = 0;
};

PlanSizes planSizes(const DeviceDescription& device, bool quick);

/// The matrices to time, families interleaved (so that a --budget that cuts the plan short
/// still leaves every family and size measured as far as it can).
std::vector<MatrixSpec> calibrationPlan(const PlanSizes& sizes, bool quick);

}  // namespace araios::cli::calibration
