#pragma once
// One SpGEMM measurement: the row araios-bench --spgemm writes to its JSON-lines and CSV
// outputs. Its `kind` column is "spgemm" (SpMV rows have no kind column: result_rows.py reads
// a missing kind as "spmv"), so readers tell the two apart in one file or many. Every row has
// every column, in spgemmColumns() order; a column that does not apply is null in JSON and
// empty in CSV. bench/README.md documents each column.
#include <nlohmann/json_fwd.hpp>

#include <optional>
#include <string>
#include <vector>

namespace araios::bench {

/// Raised whenever a column of the SpGEMM rows is added, renamed or changes meaning.
constexpr int kSpgemmSchemaVersion = 1;

const std::vector<std::string>& spgemmColumns();

class ResultSink;

struct SpgemmRow {
  std::string matrix, source, matrixClass;
  std::string product;  ///< "A*A" or "A*A^T"
  std::optional<long long> rows, cols, nnzA, nnzB, nnzC, products, maxRowProducts;
  std::string implementation, library, mode, backend, device;
  std::optional<long long> threads;
  std::string precision;
  std::optional<long long> reps, warmups;
  std::optional<double> symbolicSeconds, numericSeconds, timeSeconds, timeMinSeconds, timeMaxSeconds;
  std::optional<double> reuseNumericSeconds, workEstimationSeconds, computeSeconds, copySeconds, gflops;
  std::optional<long long> peakBytes, trackedPeakBytes, resultBytes, chunks;
  std::optional<bool> sameBits, reuseSameBits;
  std::string hash;
  std::optional<double> maxRelError;
  std::optional<bool> withinErrorBound;
  std::string status;  ///< ok, wrong, failed, refused, skipped
  std::string error, note, commit, date;

  nlohmann::ordered_json toJson() const;
};

/// Writes `row` to a sink made with spgemmColumns(); `failed` counts it among the sink's errors.
void writeRow(ResultSink& sink, const SpgemmRow& row, bool failed);

}  // namespace araios::bench
