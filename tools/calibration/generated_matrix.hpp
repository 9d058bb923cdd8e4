#pragma once
// A calibration matrix as generated on the host: CSR with 32-bit indices, columns sorted and
// distinct within each row (what the formats' conversions expect of a CSR matrix), ready to be
// copied into the device's Views as it is.
#include <cstdint>
#include <string>
#include <vector>

namespace araios::cli::calibration {

struct GeneratedMatrix {
  std::string name;
  std::int64_t rows = 0;
  std::int64_t cols = 0;
  std::vector<std::int32_t> rowPtr{0};
  std::vector<std::int32_t> colIdx;
  std::vector<double> values;

  std::int64_t nnz() const { return static_cast<std::int64_t>(colIdx.size()); }
};

}  // namespace araios::cli::calibration
