#include "load_matrix.hpp"

#include <fmt/core.h>

#include <chrono>

namespace araios::cli {

io::HostMatrix loadMatrix(const std::string& path, bool dropInvalid, bool quiet, int threads) {
  const auto start = std::chrono::steady_clock::now();
  io::ReadOptions options;
  options.dropInvalid = dropInvalid;
  options.threads = threads;
  io::HostMatrix m = io::readMatrixMarket(path, options);
  if (!quiet) {
    fmt::print(stderr, "read {}: {} x {}, {} nonzeros from {} stored entries ({} {} {}) in {:.2f} s\n", path,
               m.numRows, m.numCols, m.nnz(), m.header.storedEntries, io::toString(m.header.format),
               io::toString(m.header.field), io::toString(m.header.symmetry),
               std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  }
  if (m.droppedEntries > 0) {
    fmt::print(stderr, "dropped {} entries with indices outside the matrix (--drop-invalid)\n", m.droppedEntries);
  }
  if (m.duplicatesSummed > 0 && !quiet) {
    fmt::print(stderr, "summed {} duplicate entries into earlier ones\n", m.duplicatesSummed);
  }
  return m;
}

}  // namespace araios::cli
