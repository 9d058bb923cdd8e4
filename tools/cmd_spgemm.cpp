// araios spgemm A [B]: C = A*B (or A*B^T) with the library's two-phase product (SpgemmHandle),
// timed phase by phase, checked against a long-double host reference (spgemm_check.hpp), and
// optionally written out. `--algorithm dot` runs the host reference dot-product algorithm
// instead (araios/reference_spgemm.hpp), for comparison.
//
// Exit codes: 0 success; 1 refused input (shapes that do not match, unreadable files, a memory
// limit below C's own size); 3 C differs from the host reference (its pattern, or an entry past
// the rounding-error bound).
#ifdef ARAIOS_CLI_MPI
#include "mpi/distributed_commands.hpp"
#endif
#include "backend.hpp"
#include "command_args.hpp"
#include "load_matrix.hpp"
#include "spgemm_check.hpp"
#include "typed_run.hpp"

#include <araios/araios.hpp>
#include <araios/formats/csr/csr_transpose.hpp>
#include <araios/reference_spgemm.hpp>
#include <araios/spgemm.hpp>

#include <fmt/core.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <optional>
#include <set>
#include <string>
#include <unistd.h>
#include <vector>

namespace araios::cli {
namespace {

/// Past this many intermediate products the check is skipped unless --check asks for it: the
/// host reference takes 30 to 180 ns per product on one core of a 2-core EPYC (more where C has
/// many entries per product), so 2e8 products take from a few seconds to half a minute there.
constexpr double kCheckedProductsLimit = 2e8;

/// A product that ends sooner prints no progress (araios solve prints its lines every second).
constexpr double kQuietSeconds = 1.0;

/// The two matrices as read, and what the command knows of their product before running it.
struct Operands {
  const io::HostMatrix& a;
  const io::HostMatrix& b;  ///< as read (not transposed)
  bool sameFile;            ///< B is A (the same file, or none given)
  /// B^T on the host, for the check and the dot algorithm (only when they need it).
  const io::HostMatrix* bTransposed;
  ProductCount count;
  const io::HostMatrix& bAsMultiplied() const { return bTransposed != nullptr ? *bTransposed : b; }
};

/// What one run of the product gave, whatever the algorithm and types.
struct ProductRun {
  std::int64_t rows = 0, cols = 0, nnz = 0;
  std::optional<double> symbolicSeconds;  ///< empty for the dot algorithm (one phase)
  std::vector<double> numericSeconds;     ///< one per --repeat (dot: each whole product)
  std::optional<SpgemmStats> stats;       ///< the library's measurements (gustavson), after the last numeric phase
  int symbolicChunks = 1;                 ///< row chunks of the symbolic phase (stats holds the numeric phase's)
  double prepareSeconds = 0;              ///< A and B to CSR on the device, B^T (gustavson)
  std::string hash;                       ///< hashCsr of C: shape, pattern and values
  int distinctResults = 1;                ///< distinct value bits over the --repeat numeric phases
  int threads = 0;
  int indexBits = 32;
  io::HostMatrix c;                       ///< C on the host, when the check or --out needs it
};

/// The product's progress on stderr, after each chunk of each phase (SpgemmOptions::progress).
/// Nothing for a product that ends within kQuietSeconds; past that, on a terminal one line
/// redrawn in place and erased at the end (as araios calibrate draws its own), elsewhere a line
/// at most every second (as araios solve prints its residuals).
class ProductProgress {
 public:
  explicit ProductProgress(bool enabled) : enabled_(enabled), terminal_(::isatty(::fileno(stderr)) == 1) {}
  ~ProductProgress() { finish(); }
  ProductProgress(const ProductProgress&) = delete;
  ProductProgress& operator=(const ProductProgress&) = delete;

  void operator()(const SpgemmProgress& p) {
    const double now = clock_.seconds();
    if (!enabled_ || now < kQuietSeconds) return;
    if (!terminal_ && now - lastPrint_ < 1.0) return;
    lastPrint_ = now;
    const std::string line =
        fmt::format("spgemm    {} phase: chunk {}/{}, {} of {} rows, {:.1f} s", p.phase, p.chunk + 1, p.chunks,
                    p.rowsDone, p.rows, now);
    if (terminal_) {
      fmt::print(stderr, "\r{}{}", line, std::string(drawnWidth_ > line.size() ? drawnWidth_ - line.size() : 0, ' '));
      drawnWidth_ = line.size();
    } else {
      fmt::print(stderr, "{}\n", line);
    }
    std::fflush(stderr);
  }

  /// Erases the line drawn in place, so that what follows (the result, or an error) starts clean.
  void finish() {
    if (drawnWidth_ > 0) fmt::print(stderr, "\r{}\r", std::string(drawnWidth_, ' '));
    drawnWidth_ = 0;
  }

 private:
  bool enabled_;
  bool terminal_;
  Kokkos::Timer clock_;
  double lastPrint_ = 0;
  std::size_t drawnWidth_ = 0;
};

/// hashCsr of a host matrix (entries sorted by row, then column) with its values as Value: the
/// hash the same product gives on the device.
template <class Value>
std::string hashHost(const io::HostMatrix& m) {
  using HostDevice = Kokkos::Device<Kokkos::DefaultHostExecutionSpace, Kokkos::HostSpace>;
  CsrMatrix<Value, std::int64_t, std::int64_t, HostDevice> csr;
  csr.numRows = m.numRows;
  csr.numCols = m.numCols;
  csr.rowPtr = Kokkos::View<std::int64_t*, HostDevice>("rowPtr", m.numRows + 1);
  csr.colIdx = Kokkos::View<std::int64_t*, HostDevice>("colIdx", m.nnz());
  csr.values = Kokkos::View<Value*, HostDevice>("values", m.nnz());
  for (std::int64_t k = 0; k < m.nnz(); ++k) {
    ++csr.rowPtr(m.row[k] + 1);
    csr.colIdx(k) = m.col[k];
    csr.values(k) = static_cast<Value>(m.value[k]);
  }
  for (std::int64_t i = 0; i < m.numRows; ++i) csr.rowPtr(i + 1) += csr.rowPtr(i);
  return hashCsr(csr);
}

template <class ExecSpace, class Value, class Index>
ProductRun runGustavson(const ExecSpace& exec, const Operands& in, const SpgemmArgs& args, bool needHostC) {
  using Device = typename ExecSpace::device_type;
  using Csr = CsrMatrix<Value, Index, Index, Device>;
  ProductRun run;
  Kokkos::Timer timer;
  const Csr A = csrFromHost<Csr>(in.a);
  Csr B = in.sameFile ? A : csrFromHost<Csr>(in.b);
  if (args.transposeB) B = transposeCsr(exec, B);
  exec.fence();
  run.prepareSeconds = timer.seconds();

  SpgemmOptions options;
  options.mode = parseMode(args.mode);
  options.memoryLimitBytes = args.memoryLimit;
  ProductProgress progress(!args.run.json || ::isatty(::fileno(stderr)) == 1);
  options.progress = [&progress](const SpgemmProgress& p) { progress(p); };

  timer.reset();
  SpgemmHandle<Value, Index, Index, Device> product(exec, A, B, options);
  exec.fence();
  run.symbolicSeconds = timer.seconds();
  run.symbolicChunks = product.stats().chunks;
  std::set<std::string> results;
  for (int r = 0; r < args.repeat; ++r) {
    timer.reset();
    product.numeric(exec, A, B);
    exec.fence();
    run.numericSeconds.push_back(timer.seconds());
    if (args.repeat > 1) results.insert(hashBits(product.result().values));
  }
  progress.finish();
  run.distinctResults = std::max<int>(1, static_cast<int>(results.size()));
  run.stats = product.stats();
  const Csr& C = product.result();
  run.rows = C.numRows;
  run.cols = C.numCols;
  run.nnz = static_cast<std::int64_t>(C.values.extent(0));
  run.hash = hashCsr(C);
  run.threads = ExecSpace().concurrency();
  run.indexBits = 8 * sizeof(Index);
  if (needHostC) run.c = hostFromCsr(C);
  return run;
}

template <class Value>
ProductRun runDot(const Operands& in, const SpgemmArgs& args) {
  fmt::print(stderr,
             "araios: warning: --algorithm dot runs the host reference: one dot product per row of A and column "
             "of B, in time quadratic in the matrix's size; it is there to compare with, on small matrices\n");
  ProductRun run;
  const Mode mode = parseMode(args.mode);
  std::set<std::string> results;
  for (int r = 0; r < args.repeat; ++r) {
    Kokkos::Timer timer;
    run.c = referenceSpgemmDot<Value>(in.a, in.bAsMultiplied(), mode);
    run.numericSeconds.push_back(timer.seconds());
    results.insert(hashHost<Value>(run.c));
  }
  run.distinctResults = static_cast<int>(results.size());
  run.rows = run.c.numRows;
  run.cols = run.c.numCols;
  run.nnz = run.c.nnz();
  run.hash = hashHost<Value>(run.c);
  run.threads = 1;
  run.indexBits = 64;
  return run;
}

/// "1.234 ms" and the like.
std::string duration(double seconds) {
  if (seconds < 1e-3) return fmt::format("{:.1f} us", seconds * 1e6);
  if (seconds < 1) return fmt::format("{:.3f} ms", seconds * 1e3);
  return fmt::format("{:.3f} s", seconds);
}

std::string shape(const io::HostMatrix& m) { return fmt::format("{} x {}", m.numRows, m.numCols); }

/// A*B needs A's columns to match the rows of B (or of B^T): refused otherwise, naming both.
void requireMatchingShapes(const io::HostMatrix& a, const io::HostMatrix& b, const SpgemmArgs& args,
                           const std::string& bFile) {
  const std::int64_t bRows = args.transposeB ? b.numCols : b.numRows;
  if (a.numCols == bRows) return;
  const std::string bText = args.transposeB
                                ? fmt::format("B^T, the transpose of {} ({}), which is {} x {}", bFile, shape(b),
                                              b.numCols, b.numRows)
                                : fmt::format("B = {} ({})", bFile, shape(b));
  const bool transposeFits = !args.transposeB && a.numCols == b.numCols;
  throw InputError(fmt::format("cannot multiply A = {} ({}) by {}: A has {} columns and B{} {} rows; expected them "
                               "equal{}",
                               args.fileA, shape(a), bText, a.numCols, args.transposeB ? "^T" : "", bRows,
                               transposeFits ? " (B^T would fit: --transpose-b)" : ""));
}

void printText(const SpgemmArgs& args, const Operands& in, const ProductRun& run, double numeric, double best,
               const std::optional<SpgemmCheck>& check, const std::string& checkNote, double writeSeconds) {
  const bool dot = args.algorithm == "dot";
  const std::string& bFile = in.sameFile ? args.fileA : args.fileB;
  fmt::print("A         {}: {}, {} stored entries\n", args.fileA, shape(in.a), in.a.nnz());
  if (in.sameFile) {
    fmt::print("B         {}\n", args.transposeB ? fmt::format("A^T: {} x {}", in.a.numCols, in.a.numRows) : "A");
  } else {
    fmt::print("B         {}: {}, {} stored entries{}\n", bFile, shape(in.b), in.b.nnz(),
               args.transposeB ? fmt::format(", transposed: {} x {}", in.b.numCols, in.b.numRows) : "");
  }
  fmt::print("C         {} x {}, {} stored entries from {} products (at most {} in one row)\n", run.rows, run.cols,
             run.nnz, in.count.products, in.count.maxRowProducts);
  const std::string repeats =
      args.repeat > 1 ? fmt::format(" (median of {}, best {})", args.repeat, duration(best)) : std::string();
  const double flops = 2.0 * static_cast<double>(in.count.products);
  if (dot) {
    fmt::print("product   dot (the host reference, one dot product per row of A and column of B), {} mode, {}\n",
               args.mode, args.run.precision);
    fmt::print("time      {}{}\n", duration(numeric), repeats);
    fmt::print("rate      {:.3f} GFLOP/s (2 flops per intermediate product)\n", flops / numeric * 1e-9);
  } else {
    const SpgemmStats& s = *run.stats;
    const double symbolic = *run.symbolicSeconds;
    const double total = symbolic + numeric;
    const int chunks = std::max(run.symbolicChunks, s.chunks);
    fmt::print("product   gustavson, {} mode, on {} ({} threads), {}, {}-bit indices, {}\n", args.mode,
               args.run.backend, run.threads, args.run.precision, run.indexBits,
               chunks == 1 ? std::string("1 chunk")
                           : fmt::format("row chunks: {} symbolic, {} numeric", run.symbolicChunks, s.chunks));
    fmt::print("time      symbolic {} + numeric {} = {}{}\n", duration(symbolic), duration(numeric), duration(total),
               repeats);
    fmt::print("reuse     a numeric phase alone costs {:.2f} of the whole product (numeric / (symbolic + numeric))\n",
               numeric / total);
    fmt::print("rate      {:.3f} GFLOP/s (2 flops per intermediate product, over symbolic + numeric); numeric alone "
               "{:.3f} GFLOP/s\n",
               flops / total * 1e-9, flops / numeric * 1e-9);
    fmt::print("memory    {} bytes at peak, C included ({} of workspace){}\n", s.peakBytes, s.workspaceBytes,
               args.memoryLimit >= 0 ? fmt::format("; limit {} bytes", args.memoryLimit) : std::string());
    fmt::print("rows      by accumulator: {} one thread each, {} dense window, {} on-chip, {} global{}\n", s.rowsTiny,
               s.rowsDense, s.rowsShared, s.rowsGlobal,
               args.mode == "accurate"
                   ? fmt::format("; {} entries summed again by the exact accumulator", s.accurateRowsRecomputed)
                   : std::string());
  }
  if (check) {
    fmt::print("error     {:.3e} max relative vs the long-double host reference ({:.2f} s)\n", check->maxRelError,
               check->seconds);
    if (check->patternMatches) {
      fmt::print("          pattern matches the structural product; ");
    } else {
      fmt::print("          PATTERN DIFFERS from the structural product: {} entries missing, {} extra (first in "
                 "row {}); ",
                 check->missingEntries, check->extraEntries, check->firstPatternRow);
    }
    if (check->withinBound) {
      fmt::print("error bound holds on every entry\n");
    } else {
      fmt::print("error bound VIOLATED on {} entries (first in row {})\n", check->entriesOutsideBound,
                 check->firstOutsideRow);
    }
  } else {
    fmt::print("error     {}\n", checkNote);
  }
  if (args.repeat > 1) {
    fmt::print("repeat    {} {}: {}\n", args.repeat, dot ? "products" : "numeric phases",
               run.distinctResults == 1 ? std::string("the same bits every time")
                                        : fmt::format("{} distinct results", run.distinctResults));
  }
  fmt::print("hash      {} (C: shape, pattern and values)\n", run.hash);
  if (!args.out.empty()) fmt::print("out       C written to {} ({:.2f} s)\n", args.out, writeSeconds);
}

void printJson(const SpgemmArgs& args, const Operands& in, const ProductRun& run, double numeric, double best,
               const std::optional<SpgemmCheck>& check, const std::string& checkNote) {
  const bool dot = args.algorithm == "dot";
  const double flops = 2.0 * static_cast<double>(in.count.products);
  const nlohmann::json null;
  const double total = (run.symbolicSeconds ? *run.symbolicSeconds : 0.0) + numeric;
  nlohmann::json j = {{"a", args.fileA},
                      {"b", in.sameFile ? args.fileA : args.fileB},
                      {"transpose_b", args.transposeB},
                      {"algorithm", args.algorithm},
                      {"mode", args.mode},
                      {"backend", dot ? nlohmann::json("host") : nlohmann::json(args.run.backend)},
                      {"threads", run.threads},
                      {"precision", args.run.precision},
                      {"index_bits", run.indexBits},
                      {"rows", run.rows},
                      {"cols", run.cols},
                      {"nnz", run.nnz},
                      {"products", in.count.products},
                      {"max_row_products", in.count.maxRowProducts},
                      {"repeat", args.repeat},
                      {"symbolic_s", dot ? null : nlohmann::json(*run.symbolicSeconds)},
                      {"numeric_s", dot ? null : nlohmann::json(numeric)},
                      {"numeric_best_s", dot ? null : nlohmann::json(best)},
                      {"time_s", total},
                      {"best_time_s", total - numeric + best},
                      {"numeric_reuse_fraction", dot ? null : nlohmann::json(numeric / total)},
                      {"gflops", flops / total * 1e-9},
                      {"numeric_gflops", dot ? null : nlohmann::json(flops / numeric * 1e-9)},
                      {"prepare_s", dot ? null : nlohmann::json(run.prepareSeconds)},
                      {"chunks", dot ? null : nlohmann::json(std::max(run.symbolicChunks, run.stats->chunks))},
                      {"symbolic_chunks", dot ? null : nlohmann::json(run.symbolicChunks)},
                      {"numeric_chunks", dot ? null : nlohmann::json(run.stats->chunks)},
                      {"peak_bytes", dot ? null : nlohmann::json(run.stats->peakBytes)},
                      {"workspace_bytes", dot ? null : nlohmann::json(run.stats->workspaceBytes)},
                      {"memory_limit", args.memoryLimit >= 0 ? nlohmann::json(args.memoryLimit) : null},
                      {"hash", run.hash},
                      {"distinct_results", run.distinctResults},
                      {"max_rel_error", check ? nlohmann::json(check->maxRelError) : null},
                      {"pattern_matches", check ? nlohmann::json(check->patternMatches) : null},
                      {"within_error_bound", check ? nlohmann::json(check->withinBound) : null},
                      {"check_s", check ? nlohmann::json(check->seconds) : null},
                      {"check_note", check ? null : nlohmann::json(checkNote)},
                      {"out", args.out.empty() ? null : nlohmann::json(args.out)}};
  if (!dot) {
    const SpgemmStats& s = *run.stats;
    j["rows_by_accumulator"] = {
        {"thread", s.rowsTiny}, {"dense", s.rowsDense}, {"shared", s.rowsShared}, {"global", s.rowsGlobal}};
    j["accurate_entries_recomputed"] = s.accurateRowsRecomputed;
  }
  fmt::print("{}\n", j.dump());
}

}  // namespace

int runSpgemm(const SpgemmArgs& args) {
#ifdef ARAIOS_CLI_MPI
  if (launchedByMpi()) return runSpgemmDistributed(args);
#endif
  const io::HostMatrix a = loadMatrix(args.fileA, args.run.dropInvalid, args.run.json);
  const bool sameFile = args.fileB.empty() || args.fileB == args.fileA;
  std::optional<io::HostMatrix> bRead;
  if (!sameFile) bRead = loadMatrix(args.fileB, args.run.dropInvalid, args.run.json);
  const io::HostMatrix& b = sameFile ? a : *bRead;
  requireMatchingShapes(a, b, args, sameFile ? args.fileA : args.fileB);

  const bool dot = args.algorithm == "dot";
  const ProductCount count = countProducts(a, b, args.transposeB);
  std::string checkNote;
  bool check = !args.noCheck;
  if (args.noCheck) {
    checkNote = "not checked (--no-check)";
  } else if (!args.check && static_cast<double>(count.products) > kCheckedProductsLimit) {
    check = false;
    checkNote = fmt::format("not checked: {} intermediate products, past the {:g} the host reference checks by default "
                            "(--check checks it anyway)",
                            count.products, kCheckedProductsLimit);
  }
  std::optional<io::HostMatrix> bTransposed;
  if (args.transposeB && (check || dot)) bTransposed = hostTranspose(b);
  const Operands in{a, b, sameFile, bTransposed ? &*bTransposed : nullptr, count};

  // 32-bit indices when A, B and the intermediate products (a bound on C's entries) fit them.
  const bool narrow = fitsInt32(a.numRows) && fitsInt32(a.numCols) && fitsInt32(a.nnz()) && fitsInt32(b.numRows) &&
                      fitsInt32(b.numCols) && fitsInt32(b.nnz()) && fitsInt32(count.products);
  const bool needHostC = check || !args.out.empty();
  ProductRun run;
  runTypedOnBackend(args.run, narrow, [&](auto exec, auto value, auto index) {
    using Value = decltype(value);
    if (dot) {
      run = runDot<Value>(in, args);
    } else {
      run = runGustavson<decltype(exec), Value, decltype(index)>(exec, in, args, needHostC);
    }
    return 0;
  });
  if (run.stats && run.stats->products != count.products) {
    fmt::print(stderr, "araios: warning: the product counted {} intermediate products; the host counts {}\n",
               run.stats->products, count.products);
  }

  std::vector<double> times = run.numericSeconds;
  std::sort(times.begin(), times.end());
  const double numeric = times[times.size() / 2];
  const double best = times.front();

  std::optional<SpgemmCheck> result;
  if (check) result = checkSpgemm(a, in.bAsMultiplied(), run.c, args.run.precision == "float", args.run.threads);
  double writeSeconds = 0;
  if (!args.out.empty()) {
    Kokkos::Timer timer;
    io::WriteOptions writeOptions;
    writeOptions.threads = args.run.threads;
    io::writeMatrixMarket(args.out, run.c, writeOptions);
    writeSeconds = timer.seconds();
  }

  if (args.run.json) {
    printJson(args, in, run, numeric, best, result, checkNote);
  } else {
    printText(args, in, run, numeric, best, result, checkNote, writeSeconds);
  }
  return result && (!result->patternMatches || !result->withinBound) ? 3 : 0;
}

}  // namespace araios::cli
