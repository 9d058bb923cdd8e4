// araios-bench: the benchmark program. Runs every Araios SpMV kernel of the format
// registry and the baselines (cuSPARSE on the GPU, an OpenMP CSR loop on the CPU) over the real
// matrices and the generated suite, in one run, beside the copy bandwidth measured at its start;
// with --spgemm, the SpGEMM suite instead (spgemm/spgemm_suite.hpp).
// Writes one row per measurement to PREFIX.jsonl and PREFIX.csv; progress goes to stderr, a line
// per result to stdout. bench/README.md describes the options and the columns.
#include "bench_options.hpp"
#include "describe_generators.hpp"
#include "kernel_plan.hpp"
#include "progress.hpp"
#include "result_sink.hpp"
#include "run_context.hpp"
#include "run_matrix.hpp"
#include "spgemm/spgemm_suite.hpp"
#include "suite.hpp"

#include <kokkos_session.hpp>

#include <araios/error.hpp>

#include <CLI/CLI.hpp>
#include <fmt/core.h>

#include <ctime>
#include <exception>
#include <map>

namespace {

using namespace araios::bench;

std::string utcNow() {
  const std::time_t now = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&now, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

void printPlan(const BenchOptions& o, const std::vector<MatrixSource>& suite) {
  fmt::print("suite {}: {} matrices\n", o.suite, suite.size());
  for (const auto& m : suite) fmt::print("  {:<24} {:<9} {:<9} ~{:.0f} nnz  {}\n", m.name, m.source, m.matrixClass, m.estimatedNnz, m.origin);
  for (const auto& b : o.backends) {
    fmt::print("backend {}:", b);
    for (const auto& k : kernelPlan(b, o)) fmt::print(" {}{}", k.name, k.keepXInL2 ? "+keep-x-in-l2" : "");
    fmt::print("\n");
  }
  fmt::print("precisions:");
  for (const auto& p : o.precisions) fmt::print(" {}", p);
  fmt::print("\n");
}

int run(const BenchOptions& o) {
  if (o.describeGenerators) {
    describeGenerators(o);
    return 0;
  }
  if (o.spgemm) return runSpgemmSuite(o, utcNow());
  const std::vector<MatrixSource> suite = buildSuite(o);
  if (o.list) {
    printPlan(o, suite);
    return 0;
  }
  if (o.out.empty()) fmt::print(stderr, "note: no --out PREFIX given; results go to stdout only\n");

  araios::cli::KokkosSession kokkos(o.threads);
  ResultSink sink(o.out);
  Progress progress;
  RunContext ctx{o, sink, progress, o.commit, utcNow()};
  fmt::print("araios-bench: suite {}, {} matrices, commit {}, {}\n", o.suite, suite.size(), o.commit, ctx.date);

  std::vector<BackendInfo> backends;
  for (const auto& b : o.backends) backends.push_back(startBackend(b, ctx));
  for (const auto& m : suite)
    for (const auto& b : backends)
      progress.addPlanned(static_cast<int>(b.plan.size() * o.precisions.size()), itemWeight(m.estimatedNnz));

  for (const auto& m : suite) {
    progress.note((m.source == "real" ? "reading " : "generating ") + m.name);
    araios::io::HostMatrix host;
    try {
      host = m.load();
    } catch (const araios::Error& e) {
      // The collection documents one such file (young1c: complex values), which the reader
      // refuses; the row says so instead of the run stopping.
      ResultRow row;
      row.matrix = m.name;
      row.source = m.source;
      row.matrixClass = m.matrixClass;
      row.library = "reader";
      row.refused = e.what();
      row.commit = ctx.commit;
      row.date = ctx.date;
      sink.write(row);
      fmt::print("  {:<24} refused by the reader: {}\n", m.name, e.what());
      for (const auto& b : backends)
        progress.skip(static_cast<int>(b.plan.size() * o.precisions.size()), itemWeight(m.estimatedNnz));
      continue;
    }
    const MatrixCase matrix{m, host};
    for (const auto& b : backends)
      for (const auto& p : o.precisions) runMatrixOn(p, matrix, b, ctx);
  }

  sink.finish();
  fmt::print("araios-bench: {} rows in {}{}; {} outside the error bound, {} errors\n", sink.rowsWritten(),
             clockTime(progress.elapsedSeconds()), o.out.empty() ? "" : " (" + o.out + ".jsonl, .csv)",
             sink.accuracyFailures(), sink.errors());
  // 3, as `araios spmv` uses, when a kernel was wrong: the numbers are there, but not to be trusted.
  return sink.accuracyFailures() > 0 || sink.errors() > 0 ? 3 : 0;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"araios-bench: SpMV kernels of Araios beside cuSPARSE / an OpenMP loop, against copy bandwidth; "
               "with --spgemm, Araios SpGEMM beside cuSPARSE / Kokkos Kernels"};
  BenchOptions options;
  addBenchOptions(app, options);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e);
  }
  // SpGEMM runs double unless asked otherwise: float doubles the run for numbers few read.
  if (options.spgemm && app.count("--precision") == 0) options.precisions = {"double"};
  try {
    return run(options);
  } catch (const araios::Error& e) {
    fmt::print(stderr, "araios-bench: error: {}\n", e.what());
    return 1;
  } catch (const std::exception& e) {
    fmt::print(stderr, "araios-bench: internal error: {}\n", e.what());
    return 2;
  }
}
