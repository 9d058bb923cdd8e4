#include "bench_options.hpp"

#include "generators/catalog.hpp"

#include <backend_names.hpp>
#include <araios_source_commit.hpp>
#include <bench_defaults.hpp>

#include <CLI/CLI.hpp>
#include <fnmatch.h>

#include <cstdlib>

namespace araios::bench {

bool matchesAny(const std::string& name, const std::vector<std::string>& patterns) {
  if (patterns.empty()) return true;
  for (const auto& p : patterns)
    if (fnmatch(p.c_str(), name.c_str(), 0) == 0) return true;
  return false;
}

void addBenchOptions(CLI::App& app, BenchOptions& o) {
  o.backends = {cli::defaultBackend()};
  o.seed = gen::kCatalogSeed;
  o.commit = ARAIOS_SOURCE_COMMIT;
  const char* env = std::getenv("ARAIOS_MATRICES_DIR");
  o.matricesDir = env && *env ? env : ARAIOS_BENCH_MATRICES_DIR;

  app.add_flag_callback("--quick", [&o] { o.suite = "quick"; },
                        "the quick suite: real matrices and reduced generated ones (same as --suite quick)");
  app.add_option("--suite", o.suite, "suite to run")->check(CLI::IsMember({"quick", "full", "unseen", "drawn"}))->capture_default_str();
  app.add_option("--backend", o.backends, "Kokkos backends, comma-separated: " + cli::joined(cli::enabledBackends()))
      ->delimiter(',')
      ->check(CLI::IsMember(cli::enabledBackends()))
      ->capture_default_str();
  app.add_option("--precision", o.precisions, "value types, comma-separated")
      ->delimiter(',')
      ->check(CLI::IsMember({"double", "float"}))
      ->capture_default_str();
  app.add_option("--modes", o.modes, "modes of the Araios kernels, comma-separated (baselines run once, as 'fast')")
      ->delimiter(',')
      ->check(CLI::IsMember({"fast", "deterministic", "accurate"}))
      ->capture_default_str();
  app.add_option("--reps", o.reps, "timed products per kernel (the median is reported); at least 20")
      ->check(CLI::Range(kMinReps, 1000000))
      ->capture_default_str();
  app.add_option("--matrices", o.matricesDir,
                 "folder of real .mtx/.mtx.gz matrices (default: ARAIOS_MATRICES_DIR, else the build's); 'none' skips them")
      ->capture_default_str();
  app.add_option("--out", o.out, "write PREFIX.jsonl and PREFIX.csv (one row per measurement)");
  app.add_option("--kernels", o.kernels, "only these kernels (comma-separated glob patterns, e.g. 'csr-*,cusparse-*')")
      ->delimiter(',');
  app.add_option("--matrix", o.matrices, "only these matrices (comma-separated glob patterns)")->delimiter(',');
  app.add_option("--seed", o.seed, "base seed of the generated matrices (with --suite drawn, of their shapes too)")->capture_default_str();
  app.add_option("--vector-seed", o.vectorSeed, "seed of x in [-1, 1) (and of y0 when beta != 0)")->capture_default_str();
  app.add_option("--alpha", o.alpha, "alpha of y = alpha*A*x + beta*y")->capture_default_str();
  app.add_option("--beta", o.beta, "beta; nonzero makes every kernel read y too (counted in the bytes)")
      ->capture_default_str();
  app.add_option("--commit", o.commit, "commit recorded in every row (default: the source tree's commit when this program was built, with -dirty where tracked files differed from it)")
      ->capture_default_str();
  app.add_option("--threads", o.threads, "OpenMP threads (default: OMP_NUM_THREADS, else all cores)")
      ->check(CLI::PositiveNumber);
  app.add_option("--copy-bytes-gpu", o.copyBytesGpu, "bytes per buffer of the GPU copy-bandwidth measurement")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  app.add_option("--copy-bytes-cpu", o.copyBytesCpu, "bytes per buffer of the CPU copy-bandwidth measurement")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  CLI::Option* model = app.add_flag(
      "--model", o.model,
      "add to every Araios row the model's predicted time (predicted_s) and the kernel auto would choose for the "
      "matrix and mode (auto_kernel); bench/model_report.py compares them with the measurements");
  app.add_option("--profile", o.profile,
                 "performance profile for --model (default: the device's, as --format auto finds it)")
      ->check(CLI::ExistingFile)
      ->needs(model);
  app.add_flag("--keep-x-in-l2", o.keepXInL2,
               "on cuda, measure every Araios kernel and mode a second time with x kept in L2 (an access-policy "
               "window over x, OperatorOptions::keepXInL2): its rows have keep_x_in_l2 true");
  app.add_flag("--describe-generators", o.describeGenerators,
               "generate every catalog matrix, print target vs produced statistics as Markdown, and exit");
  app.add_flag("--list", o.list, "print the matrices and kernels the run would measure, and exit");
  app.add_flag("--spgemm", o.spgemm,
               "run the SpGEMM suite instead (A*A of the square matrices, A*A^T of the rectangular ones; Araios in "
               "each of --modes beside cuSPARSE ALG1-3 or Kokkos Kernels); --precision defaults to double");
  app.add_option("--spgemm-reps", o.spgemmReps,
                 "SpGEMM: timed runs per implementation after one untimed (default 5, 3 with --quick)")
      ->check(CLI::Range(1, 1000));
  app.add_option("--spgemm-max-products", o.spgemmMaxProducts,
                 "SpGEMM: skip products with more intermediate products than this (default: 1e8 with --quick, "
                 "else no limit; 0: no limit)")
      ->check(CLI::NonNegativeNumber);
}

}  // namespace araios::bench
