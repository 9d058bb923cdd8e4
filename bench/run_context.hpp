#pragma once
// What every measurement of a run shares: the options, the output, the progress display, and
// the facts recorded in every row (commit, date, and per backend the device and its copy
// bandwidth).
#include "bench_options.hpp"
#include "kernel_plan.hpp"
#include "progress.hpp"
#include "result_sink.hpp"
#include "suite.hpp"

#include <araios/io/matrix_market.hpp>
#include <araios/model/performance_profile.hpp>

#include <memory>
#include <string>
#include <vector>

namespace araios::bench {

struct RunContext {
  const BenchOptions& options;
  ResultSink& sink;
  Progress& progress;
  std::string commit;
  std::string date;  ///< UTC, ISO 8601, when the run started
};

/// One backend of the run, as measured at its start.
struct BackendInfo {
  std::string backend;
  std::string device;
  int threads = 0;        ///< host backends: threads; GPU: 0 (not meaningful)
  double copyGbps = 0;    ///< the copy ceiling: the faster of the two copies
  std::vector<PlannedKernel> plan;
  /// --model: the profile the model's columns come from; null without --model.
  std::shared_ptr<const PerformanceProfile> profile;
};

/// The matrix being measured, as loaded.
struct MatrixCase {
  const MatrixSource& source;
  const io::HostMatrix& host;
};

/// The ETA weight of one measurement on a matrix of about `nnz` entries: its size plus a fixed
/// share for the setup every measurement has (conversion, correctness check, row output),
/// worth about this many entries' time.
inline double itemWeight(double nnz) {
  constexpr double kSetupEntries = 2.0e5;
  return nnz + kSetupEntries;
}

}  // namespace araios::bench
