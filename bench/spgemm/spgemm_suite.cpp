// araios-bench --spgemm: the suite, the plan and the driver (spgemm_suite.hpp). No Kokkos header
// here; the measurements are in spgemm_dispatch.cpp and spgemm_run.hpp.
#include "spgemm/spgemm_suite.hpp"

#include "cuda/cusparse_spgemm_algorithms.hpp"
#include "spgemm/spgemm_catalog.hpp"
#include "spgemm/spgemm_row.hpp"
#include "suite.hpp"

#include <kokkos_session.hpp>
#include <spgemm_check.hpp>

#include <araios/error.hpp>

#include <fmt/core.h>

#include <optional>

namespace araios::bench {

std::vector<SpgemmSource> buildSpgemmSuite(const BenchOptions& options) {
  std::vector<SpgemmSource> suite;
  for (auto& m : realMatrixSources(options)) {
    SpgemmSource s;
    s.name = m.name;
    s.source = m.source;
    s.matrixClass = m.matrixClass;
    // A real matrix's products are unknown until it is read; for the ETA, about 15 per stored
    // entry, the middle of the collection's range.
    constexpr double kProductsPerEntry = 15.0;
    s.estimatedProducts = m.estimatedNnz * kProductsPerEntry;
    s.origin = m.origin;
    s.load = std::move(m.load);
    suite.push_back(std::move(s));
  }
  const auto catalog = options.suite == "quick" ? gen::spgemmQuickCatalog() : gen::spgemmFullCatalog();
  for (const auto& e : catalog) {
    if (!matchesAny(e.name, options.matrices)) continue;
    SpgemmSource s;
    s.name = e.name;
    s.source = "generated";
    s.matrixClass = e.matrixClass;
    s.product = e.product;
    s.estimatedProducts = e.expectedProducts;
    s.origin = e.model;
    const std::uint64_t seed = gen::seedFromName(e.name.c_str(), options.seed);
    const auto make = e.make;
    s.load = [make, seed] { return make(seed); };
    suite.push_back(std::move(s));
  }
  return suite;
}

std::vector<SpgemmImplementation> spgemmPlan(const std::string& backend, const BenchOptions& options) {
  std::vector<SpgemmImplementation> all;
  for (const char* mode : {"fast", "deterministic", "accurate"})
    for (const auto& m : options.modes)
      if (m == mode) all.push_back({std::string("araios-") + mode, "araios", mode});
  if (backend == "cuda") {
    for (const auto a : cuda::allCusparseSpgemmAlgorithms())
      all.push_back({cuda::implementationName(a), "cusparse", ""});
  }
#ifdef ARAIOS_BENCH_HAVE_KOKKOS_KERNELS
  // The trimmed ETI of scripts/setup.sh --kokkos-kernels covers OpenMP alone.
  if (backend == "openmp") all.push_back({"kokkos-kernels", "kokkos-kernels", ""});
#endif
  std::vector<SpgemmImplementation> plan;
  for (auto& i : all)
    if (matchesAny(i.name, options.kernels)) plan.push_back(std::move(i));
  return plan;
}

namespace {

void printPlan(const BenchOptions& o, const std::vector<SpgemmSource>& suite, int reps, double maxProducts) {
  fmt::print("SpGEMM suite {}: {} matrices, {} timed runs per implementation after one untimed{}\n", o.suite,
             suite.size(), reps, maxProducts > 0 ? fmt::format(", products past {:.0e} skipped", maxProducts) : "");
  for (const auto& s : suite) {
    fmt::print("  {:<24} {:<9} {:<10} {:<6} ~{:.1e} products  {}\n", s.name, s.source, s.matrixClass,
               s.product.empty() ? "A*A or A*A^T" : s.product, s.estimatedProducts, s.origin);
  }
  for (const auto& b : o.backends) {
    fmt::print("backend {}:", b);
    for (const auto& i : spgemmPlan(b, o)) fmt::print(" {}", i.name);
    fmt::print("\n");
  }
  fmt::print("precisions:");
  for (const auto& p : o.precisions) fmt::print(" {}", p);
  fmt::print("\n");
}

/// A row for a matrix that is not measured at all (the reader refused it, or it is past the
/// products limit).
SpgemmRow matrixRow(const SpgemmSource& s, const SpgemmContext& ctx) {
  SpgemmRow row;
  row.matrix = s.name;
  row.source = s.source;
  row.matrixClass = s.matrixClass;
  row.commit = ctx.commit;
  row.date = ctx.date;
  return row;
}

}  // namespace

int runSpgemmSuite(const BenchOptions& o, const std::string& date) {
  const std::vector<SpgemmSource> suite = buildSpgemmSuite(o);
  const int reps = o.spgemmReps > 0 ? o.spgemmReps : (o.suite == "quick" ? kSpgemmQuickReps : kSpgemmReps);
  const double maxProducts =
      o.spgemmMaxProducts >= 0 ? o.spgemmMaxProducts : (o.suite == "quick" ? kSpgemmQuickMaxProducts : 0.0);
  if (o.list) {
    printPlan(o, suite, reps, maxProducts);
    return 0;
  }
  if (o.out.empty()) fmt::print(stderr, "note: no --out PREFIX given; results go to stdout only\n");

  cli::KokkosSession kokkos(o.threads);
  ResultSink sink(o.out, spgemmColumns());
  Progress progress;
  SpgemmContext ctx{o, sink, progress, o.commit, date, reps, maxProducts, {}};
  fmt::print("araios-bench --spgemm: suite {}, {} matrices, {} timed runs each, commit {}, {}\n", o.suite, suite.size(),
             reps, o.commit, date);

  std::vector<SpgemmBackend> backends;
  for (const auto& b : o.backends) {
    backends.push_back(startSpgemmBackend(b, o));
    const auto& info = backends.back();
    fmt::print("backend {} on {}{}:", b, info.device,
               info.threads > 0 ? fmt::format(" ({} threads)", info.threads) : "");
    for (const auto& i : info.plan) fmt::print(" {}", i.name);
    fmt::print("\n");
  }
  const auto itemsPerMatrix = [&] {
    int n = 0;
    for (const auto& b : backends) n += static_cast<int>(b.plan.size() * o.precisions.size());
    return n;
  }();
  for (const auto& s : suite) progress.addPlanned(itemsPerMatrix, spgemmItemWeight(s.estimatedProducts));

  for (const auto& s : suite) {
    progress.note((s.source == "real" ? "reading " : "generating ") + s.name);
    io::HostMatrix a;
    try {
      a = s.load();
    } catch (const araios::Error& e) {
      SpgemmRow row = matrixRow(s, ctx);
      row.library = "reader";
      row.status = "refused";
      row.error = e.what();
      writeRow(sink, row, false);
      fmt::print("  {:<24} refused by the reader: {}\n", s.name, e.what());
      progress.skip(itemsPerMatrix, spgemmItemWeight(s.estimatedProducts));
      continue;
    }
    const std::string product = !s.product.empty() ? s.product
                                : a.numRows == a.numCols ? gen::kSquareProduct
                                                         : gen::kGramProduct;
    const bool gram = product == gen::kGramProduct;
    const cli::ProductCount count = cli::countProducts(a, a, gram);
    if (maxProducts > 0 && static_cast<double>(count.products) > maxProducts) {
      SpgemmRow row = matrixRow(s, ctx);
      row.product = product;
      row.rows = a.numRows;
      row.cols = a.numCols;
      row.nnzA = a.nnz();
      row.products = count.products;
      row.maxRowProducts = count.maxRowProducts;
      row.status = "skipped";
      row.note = fmt::format("{} intermediate products, past the limit of {:.0e} (--spgemm-max-products)",
                             count.products, maxProducts);
      writeRow(sink, row, false);
      ++ctx.tally.skipped;
      fmt::print("  {:<24} skipped: {}\n", s.name, row.note);
      progress.skip(itemsPerMatrix, spgemmItemWeight(s.estimatedProducts));
      continue;
    }
    std::optional<io::HostMatrix> transposed;
    if (gram) transposed = cli::hostTranspose(a);
    const SpgemmCase pc{s, a, gram ? *transposed : a, product, count.products, count.maxRowProducts};
    for (const auto& b : backends)
      for (const auto& p : o.precisions) runSpgemmOn(p, pc, b, ctx);
  }

  sink.finish();
  const SpgemmTally& t = ctx.tally;
  fmt::print("araios-bench --spgemm: {} rows in {}{}; {} Araios failures, {} wrong results, {} not reproducible, "
             "{} baseline failures, {} skipped\n",
             sink.rowsWritten(), clockTime(progress.elapsedSeconds()),
             o.out.empty() ? "" : " (" + o.out + ".jsonl, .csv)",
             t.araiosFailures, t.wrongResults, t.notReproducible, t.baselineFailures, t.skipped);
  // 3, as the SpMV suite: the numbers are there, but an Araios product failed, or some product was
  // wrong, or a mode that promises the same bits did not give them. A baseline that cannot run a
  // product (cuSPARSE out of resources) is the baseline's limit, not a failure of the run.
  return t.araiosFailures > 0 || t.wrongResults > 0 || t.notReproducible > 0 ? 3 : 0;
}

}  // namespace araios::bench
