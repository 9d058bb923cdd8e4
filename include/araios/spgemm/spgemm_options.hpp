#pragma once
// The options, progress reports and measurements of a sparse matrix-matrix product
// (araios/spgemm.hpp).
#include <araios/mode.hpp>

#include <cstdint>
#include <functional>

namespace araios {

/// Where a long product stands, for progress output: `phase` is "symbolic" or "numeric".
struct SpgemmProgress {
  const char* phase = "";
  std::int64_t rowsDone = 0;
  std::int64_t rows = 0;
  int chunk = 0;   ///< 0-based chunk being processed
  int chunks = 1;
};

struct SpgemmOptions {
  Mode mode = Mode::Deterministic;
  /// Device bytes the product may hold at once beyond A and B, C included. -1: the memory free
  /// on the device when the symbolic phase starts. The floor is C plus 8 bytes per row (the
  /// 64-bit offsets C's row offsets are counted in) plus one row's workspace: below it the
  /// product is refused (OutOfMemoryError); above it, a limit that does not hold the workspace
  /// of all rows at once splits the rows into chunks. In Accurate mode a row whose expansions
  /// do not fit is summed by the exact accumulator alone.
  std::int64_t memoryLimitBytes = -1;
  /// Called after each chunk of each phase (and once per phase when there is one chunk); may be
  /// empty.
  std::function<void(const SpgemmProgress&)> progress;
};

/// What a product measured of itself.
struct SpgemmStats {
  std::int64_t rows = 0, cols = 0;
  std::int64_t nnz = 0;             ///< entries of C
  std::int64_t products = 0;        ///< intermediate products a_ik*b_kj, summed over all rows
  std::int64_t maxRowProducts = 0;  ///< the most products of any one row
  int chunks = 1;                   ///< row chunks of the last phase run
  std::int64_t peakBytes = 0;       ///< device bytes held at once by the product, C included
  std::int64_t workspaceBytes = 0;  ///< of which workspace (all but C's arrays)
  double symbolicSeconds = 0;       ///< the symbolic phase (construction of the handle)
  double numericSeconds = 0;        ///< the last numeric phase
  /// Rows by method (the numeric phase's per-row accumulator): a dense window in on-chip memory,
  /// C's row in on-chip memory, C's row in global memory.
  std::int64_t rowsDense = 0, rowsShared = 0, rowsGlobal = 0;
  /// Rows of at most 32 entries (from at most 64 products) summed by one thread each (CUDA,
  /// Fast and Deterministic).
  std::int64_t rowsTiny = 0;
  std::int64_t accurateRowsRecomputed = 0;  ///< accurate mode: entries the exact accumulator decided
};

}  // namespace araios
