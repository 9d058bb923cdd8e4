#pragma once
// Where the rows go: PREFIX.jsonl (one JSON object a line) and PREFIX.csv (same columns), each
// row flushed as soon as it is measured, so an interrupted run keeps what it measured.
#include "result_row.hpp"

#include <fstream>
#include <string>

namespace araios::bench {

class ResultSink {
 public:
  /// An empty prefix writes nothing (rows are still counted and echoed).
  explicit ResultSink(const std::string& prefix);
  void write(const ResultRow& row);
  int rowsWritten() const { return rows_; }
  int accuracyFailures() const { return accuracyFailures_; }
  int errors() const { return errors_; }

 private:
  std::ofstream jsonl_, csv_;
  int rows_ = 0;
  int accuracyFailures_ = 0;
  int errors_ = 0;
};

}  // namespace araios::bench
