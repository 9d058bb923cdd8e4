#pragma once
// araios-bench --spgemm: the sparse matrix-matrix product suite. For every matrix, one product:
// A*A when A is square, A*A^T when it is not (B = araios::transposeCsr(A) on the device), over
// the real matrices of the matrices folder and the generated ones of spgemm_catalog.hpp; for
// every product, each implementation of the backend's plan:
//   araios-fast, araios-deterministic, araios-accurate   SpgemmHandle in each mode of --modes;
//   cusparse-alg1, cusparse-alg2, cusparse-alg3          on the cuda backend
//                                                        (cuda/cusparse_spgemm.hpp);
//   kokkos-kernels                                       on the openmp backend of builds that
//                                                        found Kokkos Kernels
//                                                        (kokkos_kernels_spgemm.hpp).
// --kernels filters the implementations by name, --matrix the matrices. spgemm_run.hpp says
// what is measured; bench/README.md documents the columns.
//
// These types hold no Kokkos header: the suite, the plan and the driver compile on the host alone.
#include "bench_options.hpp"
#include "progress.hpp"
#include "result_sink.hpp"

#include <araios/io/matrix_market.hpp>

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace araios::bench {

/// Timed runs per implementation, after one untimed run: the median of 5 steadies the
/// milliseconds-long products of the GPU suite; the quick suite, for a 2-core CPU, takes 3.
constexpr int kSpgemmReps = 5;
constexpr int kSpgemmQuickReps = 3;
/// The quick suite skips products past this many intermediate products (the dense Gram matrix
/// of an array file would take minutes on two cores); the full suite has no limit.
constexpr double kSpgemmQuickMaxProducts = 1e8;

struct SpgemmSource {
  std::string name;
  std::string source;       ///< "real" or "generated"
  std::string matrixClass;
  std::string product;      ///< "A*A" or "A*A^T"; empty for real matrices: decided by their shape
  double estimatedProducts = 0;  ///< for the ETA, before the matrix exists
  std::string origin;
  std::function<io::HostMatrix()> load;
};

struct SpgemmImplementation {
  std::string name;     ///< the `implementation` column: araios-fast, cusparse-alg2, kokkos-kernels, ...
  std::string library;  ///< araios, cusparse, kokkos-kernels
  std::string mode;     ///< Araios: fast, deterministic or accurate; empty for the baselines
};

std::vector<SpgemmSource> buildSpgemmSuite(const BenchOptions& options);
std::vector<SpgemmImplementation> spgemmPlan(const std::string& backend, const BenchOptions& options);

/// One backend of the run.
struct SpgemmBackend {
  std::string backend;
  std::string device;
  int threads = 0;  ///< host backends: threads; GPU: 0
  std::vector<SpgemmImplementation> plan;
};

/// The product being measured: A and B on the host (B = A, or A's transpose), and what the
/// patterns alone say of it.
struct SpgemmCase {
  const SpgemmSource& source;
  const io::HostMatrix& a;
  const io::HostMatrix& b;
  std::string product;
  std::int64_t products = 0;
  std::int64_t maxRowProducts = 0;
};

/// What went wrong over the run, for its summary and exit code.
struct SpgemmTally {
  int araiosFailures = 0;    ///< Araios rows that failed
  int wrongResults = 0;      ///< rows of any implementation whose C is not the product
  int notReproducible = 0;   ///< deterministic or accurate Araios rows whose two runs, or whose
                             ///< reuse, gave other bits
  int baselineFailures = 0;  ///< cuSPARSE or Kokkos Kernels rows that failed (their limits)
  int skipped = 0;
};

struct SpgemmContext {
  const BenchOptions& options;
  ResultSink& sink;
  Progress& progress;
  std::string commit;
  std::string date;
  int reps = kSpgemmReps;
  double maxProducts = 0;  ///< 0: no limit
  SpgemmTally tally;
};

/// The ETA weight of one implementation on a product of about `products` intermediate products.
inline double spgemmItemWeight(double products) {
  // Beside the products themselves: the check, the hash and the copies of C each run costs.
  constexpr double kSetupProducts = 2.0e6;
  return products + kSetupProducts;
}

/// The whole suite: the entry point of araios-bench --spgemm. Returns the exit code.
int runSpgemmSuite(const BenchOptions& options, const std::string& date);

// In spgemm_dispatch.cpp (Kokkos):
/// The device and plan of a backend.
SpgemmBackend startSpgemmBackend(const std::string& backend, const BenchOptions& options);
/// Every implementation of the backend's plan on one product, in one precision.
void runSpgemmOn(const std::string& precision, const SpgemmCase& product, const SpgemmBackend& backend,
                 SpgemmContext& ctx);

}  // namespace araios::bench
