#pragma once
// Where the rows go: PREFIX.jsonl (one JSON object a line) and PREFIX.csv (same columns). Each
// is written as a temporary file beside it (araios::io::AtomicFile), a row at a time as it is
// measured, and renamed by finish(): PREFIX.jsonl is never a partial file. A run that fails
// removes the temporary files; one that is killed leaves its rows in them. The columns are the
// SpMV rows' (result_row.hpp) unless the sink is made with others (the SpGEMM rows',
// spgemm/spgemm_row.hpp): one sink writes rows of one kind.
#include "result_row.hpp"

#include <araios/io/atomic_file.hpp>

#include <optional>
#include <string>
#include <vector>

namespace araios::bench {

class ResultSink {
 public:
  /// An empty prefix writes nothing (rows are still counted and echoed). `columns`: the CSV's
  /// columns, in order, each a key of every row written.
  explicit ResultSink(const std::string& prefix, std::vector<std::string> columns = araios::bench::columns());
  void write(const ResultRow& row);
  /// A row of another kind, as its JSON object; `failed` counts it among errors().
  void write(const nlohmann::ordered_json& row, bool failed);
  /// Puts PREFIX.jsonl and PREFIX.csv in place, complete.
  void finish();
  int rowsWritten() const { return rows_; }
  int accuracyFailures() const { return accuracyFailures_; }
  int errors() const { return errors_; }

 private:
  std::vector<std::string> columns_;
  std::optional<araios::io::AtomicFile> jsonl_, csv_;
  int rows_ = 0;
  int accuracyFailures_ = 0;
  int errors_ = 0;
};

}  // namespace araios::bench
