#include "spgemm/spgemm_row.hpp"

#include "json_or_null.hpp"
#include "result_sink.hpp"

#include <nlohmann/json.hpp>

namespace araios::bench {

const std::vector<std::string>& spgemmColumns() {
  static const std::vector<std::string> c = {
      "schema", "kind", "matrix", "source", "class", "product", "rows", "cols", "nnz_a", "nnz_b", "nnz_c", "products",
      "max_row_products", "implementation", "library", "mode", "backend", "device", "threads", "precision", "reps",
      "warmups", "symbolic_s", "numeric_s", "time_s", "time_min_s", "time_max_s", "reuse_numeric_s",
      "work_estimation_s", "compute_s", "copy_s", "gflops", "peak_bytes", "tracked_peak_bytes", "c_bytes", "chunks",
      "same_bits", "reuse_same_bits", "hash", "max_rel_error", "within_error_bound", "status", "error", "note",
      "commit", "date"};
  return c;
}

nlohmann::ordered_json SpgemmRow::toJson() const {
  nlohmann::ordered_json j;
  j["schema"] = kSpgemmSchemaVersion;
  j["kind"] = "spgemm";
  j["matrix"] = orNull(matrix);
  j["source"] = orNull(source);
  j["class"] = orNull(matrixClass);
  j["product"] = orNull(product);
  j["rows"] = orNull(rows);
  j["cols"] = orNull(cols);
  j["nnz_a"] = orNull(nnzA);
  j["nnz_b"] = orNull(nnzB);
  j["nnz_c"] = orNull(nnzC);
  j["products"] = orNull(products);
  j["max_row_products"] = orNull(maxRowProducts);
  j["implementation"] = orNull(implementation);
  j["library"] = orNull(library);
  j["mode"] = orNull(mode);
  j["backend"] = orNull(backend);
  j["device"] = orNull(device);
  j["threads"] = orNull(threads);
  j["precision"] = orNull(precision);
  j["reps"] = orNull(reps);
  j["warmups"] = orNull(warmups);
  j["symbolic_s"] = orNull(symbolicSeconds);
  j["numeric_s"] = orNull(numericSeconds);
  j["time_s"] = orNull(timeSeconds);
  j["time_min_s"] = orNull(timeMinSeconds);
  j["time_max_s"] = orNull(timeMaxSeconds);
  j["reuse_numeric_s"] = orNull(reuseNumericSeconds);
  j["work_estimation_s"] = orNull(workEstimationSeconds);
  j["compute_s"] = orNull(computeSeconds);
  j["copy_s"] = orNull(copySeconds);
  j["gflops"] = orNull(gflops);
  j["peak_bytes"] = orNull(peakBytes);
  j["tracked_peak_bytes"] = orNull(trackedPeakBytes);
  j["c_bytes"] = orNull(resultBytes);
  j["chunks"] = orNull(chunks);
  j["same_bits"] = orNull(sameBits);
  j["reuse_same_bits"] = orNull(reuseSameBits);
  j["hash"] = orNull(hash);
  j["max_rel_error"] = orNull(maxRelError);
  j["within_error_bound"] = orNull(withinErrorBound);
  j["status"] = orNull(status);
  j["error"] = orNull(error);
  j["note"] = orNull(note);
  j["commit"] = orNull(commit);
  j["date"] = orNull(date);
  return j;
}

void writeRow(ResultSink& sink, const SpgemmRow& row, bool failed) { sink.write(row.toJson(), failed); }

}  // namespace araios::bench
