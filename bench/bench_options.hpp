#pragma once
// The benchmark's command line: what to run (suite, backends, precisions, filters), how (reps),
// and where the results go.

#include <cstdint>
#include <string>
#include <vector>

// Declared, not included: most of the benchmark's sources include this header, and CLI11 is a
// header-only library that costs each of them seconds to compile.
namespace CLI {
class App;
}  // namespace CLI

namespace araios::bench {

/// Timed products per kernel: the floor for any reported number.
constexpr int kMinReps = 20;
/// Untimed products before the timed ones: the first loads the kernel and touches the pages,
/// the next two settle clocks and caches.
constexpr int kWarmups = 3;

struct BenchOptions {
  std::string suite = "full";                 ///< "quick", "full", "unseen" or "drawn"
  std::vector<std::string> backends;          ///< Kokkos backends, in order
  std::vector<std::string> precisions = {"double", "float"};
  /// Reproducibility modes of the Araios kernels (araios/mode.hpp); the baselines have one.
  std::vector<std::string> modes = {"fast", "deterministic", "accurate"};
  int reps = kMinReps;
  std::string matricesDir;                    ///< real matrices; "none" skips them
  std::string out;                            ///< PREFIX: writes PREFIX.jsonl and PREFIX.csv
  std::vector<std::string> kernels;           ///< glob patterns; empty: all
  std::vector<std::string> matrices;          ///< glob patterns; empty: all
  std::uint64_t seed;                         ///< base seed of the generated matrices
  std::uint64_t vectorSeed = 42;              ///< seed of x (and of y0 when beta != 0)
  double alpha = 1.0;
  double beta = 0.0;
  std::string commit;
  int threads = 0;
  /// Add the performance model's columns (predicted_s, auto_kernel) to the Araios rows.
  bool model = false;
  /// The profile the model uses; empty: the device's (found as Kernel::Auto finds it).
  std::string profile;
  /// On cuda, measure each Araios kernel a second time with OperatorOptions::keepXInL2 (an L2
  /// access-policy window over x): rows with keep_x_in_l2 true beside the usual ones.
  bool keepXInL2 = false;
  bool describeGenerators = false;
  bool list = false;
  /// --spgemm: the SpGEMM suite (spgemm/spgemm_suite.hpp) instead of the SpMV kernels.
  bool spgemm = false;
  /// Timed runs per SpGEMM implementation; 0: kSpgemmReps, or kSpgemmQuickReps with --quick.
  int spgemmReps = 0;
  /// SpGEMM products past this many intermediate products are skipped; 0: none are; negative:
  /// the suite's default (kSpgemmQuickMaxProducts with --quick, else none).
  double spgemmMaxProducts = -1;
  /// Bytes of each of the two buffers of the copy-bandwidth measurement.
  std::int64_t copyBytesGpu = std::int64_t{1} << 30;
  std::int64_t copyBytesCpu = std::int64_t{256} << 20;
};

/// Registers every option on `app`; defaults come from the build (backends, matrices folder,
/// commit) and the environment (ARAIOS_MATRICES_DIR).
void addBenchOptions(CLI::App& app, BenchOptions& options);

/// Whether `name` matches one of the glob patterns (fnmatch); an empty list matches all.
bool matchesAny(const std::string& name, const std::vector<std::string>& patterns);

}  // namespace araios::bench
