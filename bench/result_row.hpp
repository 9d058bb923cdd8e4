#pragma once
// One measurement: the row written to the JSON-lines and CSV outputs. Every row has every
// column, in kColumns order; a column that does not apply is null in JSON and empty in CSV.
// New columns go at the end, so that a reader of the older columns by position still works.
#include <nlohmann/json_fwd.hpp>

#include <optional>
#include <string>
#include <vector>

namespace araios::bench {

/// Raised whenever a column is added, renamed or changes meaning, so plot.py can tell.
constexpr int kSchemaVersion = 3;

/// The output columns, in order. bench/README.md documents each.
inline const std::vector<std::string>& columns() {
  static const std::vector<std::string> c = {
      "schema", "matrix", "source", "class", "rows", "cols", "nnz", "kernel", "format", "library", "backend",
      "device", "threads", "precision", "mode", "alpha", "beta", "reps", "warmups", "time_s", "time_min_s",
      "time_max_s", "gflops", "bytes", "gbps", "copy_gbps", "fraction_of_copy", "convert_s", "setup_s",
      "footprint_bytes", "stored_slots", "padding_ratio", "max_rel_error", "within_error_bound", "y_hash", "refused",
      "error", "note", "commit", "date", "predicted_s", "auto_kernel", "keep_x_in_l2"};
  return c;
}

struct ResultRow {
  std::string matrix, source, matrixClass;
  std::optional<long long> rows, cols, nnz;
  std::string kernel, format, library, backend, device;
  std::optional<long long> threads;
  std::string precision, mode;
  std::optional<double> alpha, beta;
  std::optional<long long> reps, warmups;
  std::optional<double> timeSeconds, timeMinSeconds, timeMaxSeconds, gflops;
  std::optional<long long> bytes;
  std::optional<double> gbps, copyGbps, fractionOfCopy, convertSeconds, setupSeconds;
  std::optional<long long> footprintBytes, storedSlots;
  std::optional<double> paddingRatio, maxRelError;
  std::optional<bool> withinErrorBound;
  std::string yHash, refused, error, note, commit, date;
  // --model only, on the Araios kernels' rows (model_columns.hpp): the performance model's
  // prediction of time_s, and the kernel Kernel::Auto would choose for the matrix and mode.
  std::optional<double> predictedSeconds;
  std::string autoKernel;
  // Araios rows: whether the product kept x in L2 (--keep-x-in-l2); null on the baselines.
  std::optional<bool> keepXInL2;

  nlohmann::ordered_json toJson() const;
};

}  // namespace araios::bench
