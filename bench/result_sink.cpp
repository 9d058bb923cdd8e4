#include "result_sink.hpp"

#include "json_or_null.hpp"

#include <araios/error.hpp>

#include <nlohmann/json.hpp>

#include <utility>

namespace araios::bench {
namespace {

/// A CSV field (RFC 4180): quoted when it holds a comma, quote or line break.
std::string csvField(const nlohmann::ordered_json& v) {
  if (v.is_null()) return "";
  std::string s = v.is_string() ? v.get<std::string>() : v.dump();
  if (s.find_first_of(",\"\r\n") == std::string::npos) return s;
  std::string quoted = "\"";
  for (const char c : s) quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
  return quoted + "\"";
}

}  // namespace

nlohmann::ordered_json ResultRow::toJson() const {
  nlohmann::ordered_json j;
  j["schema"] = kSchemaVersion;
  j["matrix"] = orNull(matrix);
  j["source"] = orNull(source);
  j["class"] = orNull(matrixClass);
  j["rows"] = orNull(rows);
  j["cols"] = orNull(cols);
  j["nnz"] = orNull(nnz);
  j["kernel"] = orNull(kernel);
  j["format"] = orNull(format);
  j["library"] = orNull(library);
  j["backend"] = orNull(backend);
  j["device"] = orNull(device);
  j["threads"] = orNull(threads);
  j["precision"] = orNull(precision);
  j["mode"] = orNull(mode);
  j["alpha"] = orNull(alpha);
  j["beta"] = orNull(beta);
  j["reps"] = orNull(reps);
  j["warmups"] = orNull(warmups);
  j["time_s"] = orNull(timeSeconds);
  j["time_min_s"] = orNull(timeMinSeconds);
  j["time_max_s"] = orNull(timeMaxSeconds);
  j["gflops"] = orNull(gflops);
  j["bytes"] = orNull(bytes);
  j["gbps"] = orNull(gbps);
  j["copy_gbps"] = orNull(copyGbps);
  j["fraction_of_copy"] = orNull(fractionOfCopy);
  j["convert_s"] = orNull(convertSeconds);
  j["setup_s"] = orNull(setupSeconds);
  j["footprint_bytes"] = orNull(footprintBytes);
  j["stored_slots"] = orNull(storedSlots);
  j["padding_ratio"] = orNull(paddingRatio);
  j["max_rel_error"] = orNull(maxRelError);
  j["within_error_bound"] = orNull(withinErrorBound);
  j["y_hash"] = orNull(yHash);
  j["refused"] = orNull(refused);
  j["error"] = orNull(error);
  j["note"] = orNull(note);
  j["commit"] = orNull(commit);
  j["date"] = orNull(date);
  j["predicted_s"] = orNull(predictedSeconds);
  j["auto_kernel"] = orNull(autoKernel);
  j["keep_x_in_l2"] = orNull(keepXInL2);
  return j;
}

ResultSink::ResultSink(const std::string& prefix, std::vector<std::string> columns) : columns_(std::move(columns)) {
  if (prefix.empty()) return;
  try {
    jsonl_.emplace(prefix + ".jsonl");
    csv_.emplace(prefix + ".csv");
  } catch (const InputError& e) {
    throw InputError(std::string(e.what()) + "; expected --out to name a file prefix in a writable folder");
  }
  std::string header;
  for (std::size_t i = 0; i < columns_.size(); ++i) header += (i ? "," : "") + columns_[i];
  csv_->write(header + "\n");
}

void ResultSink::write(const ResultRow& row) {
  if (row.withinErrorBound && !*row.withinErrorBound) ++accuracyFailures_;
  write(row.toJson(), !row.error.empty());
}

void ResultSink::write(const nlohmann::ordered_json& j, bool failed) {
  ++rows_;
  if (failed) ++errors_;
  if (!jsonl_) return;
  jsonl_->write(j.dump() + "\n");
  std::string line;
  for (std::size_t i = 0; i < columns_.size(); ++i) line += (i ? "," : "") + csvField(j.at(columns_[i]));
  csv_->write(line + "\n");
}

void ResultSink::finish() {
  if (!jsonl_) return;
  jsonl_->commit();
  csv_->commit();
}

}  // namespace araios::bench
