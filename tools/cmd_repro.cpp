// araios repro FILE: y = A*x with every kernel in every mode on every backend this build has
// (Serial; OpenMP at 1, 2 and the most threads; CUDA), and a table of what is reproducible:
// the hash of y, whether it is the same on every backend, how far repeated runs drift, and the
// error against the correctly rounded product.
//
// Kokkos 3.4 fixes the OpenMP thread count once per process, so each backend and thread count
// runs in a child process of this program (`araios repro FILE --worker --backend B --threads
// T`, which prints its runs as JSON); the parent collects and compares them.
//
// Exit codes: 0 every deterministic and accurate kernel gave the same bits on every backend
// and in every run (and accurate ones the correctly rounded product), and --check found no
// mismatch; 3 otherwise; 1 refused input.
#include "accuracy.hpp"
#include "backend.hpp"
#include "command_args.hpp"
#include "load_matrix.hpp"
#include "repro_child.hpp"

#include <araios/araios.hpp>
#include <araios/io/atomic_file.hpp>
#include <araios/primitives/exact_accumulator.hpp>

#include <fmt/core.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <limits>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <type_traits>
#include <vector>

namespace araios::cli {
namespace {

const Mode kModes[] = {Mode::Fast, Mode::Deterministic, Mode::Accurate};

/// mu_i = sum_j a_ij x_j rounded once to Value (the product with alpha = 1, beta = 0), with the
/// exact accumulator on the host. Rows holding NaN or Inf fall back to a long-double sum.
template <class Value>
std::vector<Value> correctlyRounded(const io::HostMatrix& A, const std::vector<Value>& x) {
  using L = Impl::ExactAccumulatorLayout;
  std::vector<std::int64_t> first(A.numRows + 1, 0), order(A.nnz());
  for (std::int64_t k = 0; k < A.nnz(); ++k) ++first[A.row[k] + 1];
  for (std::int64_t i = 0; i < A.numRows; ++i) first[i + 1] += first[i];
  {
    std::vector<std::int64_t> next(first.begin(), first.end() - 1);
    for (std::int64_t k = 0; k < A.nnz(); ++k) order[next[A.row[k]]++] = k;
  }
  std::vector<Value> mu(A.numRows);
  std::vector<std::int64_t> limbs(L::kLimbs);
  for (std::int64_t i = 0; i < A.numRows; ++i) {
    Impl::clear(limbs.data());
    bool finite = true;
    long double fallback = 0;
    for (std::int64_t e = first[i]; e < first[i + 1]; ++e) {
      const std::int64_t k = order[e];
      const double a = static_cast<Value>(A.value[k]), b = x[A.col[k]];
      fallback += static_cast<long double>(a) * b;
      if (!std::isfinite(a) || !std::isfinite(b)) {
        finite = false;
        continue;
      }
      if (a != 0 && b != 0) Impl::depositProduct(limbs.data(), Impl::splitDouble(a), Impl::splitDouble(b), (a < 0) != (b < 0));
    }
    if (!finite) {
      mu[i] = static_cast<Value>(fallback);
      continue;
    }
    Impl::normalize(limbs.data());
    mu[i] = static_cast<Value>(Impl::roundSignedToNearest<Value>(limbs.data()));
  }
  return mu;
}

/// A fingerprint of the matrix as read, so that --check refuses a file saved for another one.
std::string matrixFingerprint(const io::HostMatrix& A) {
  std::uint64_t h = fnv1a(&A.numRows, sizeof A.numRows);
  h = fnv1a(&A.numCols, sizeof A.numCols, h);
  h = fnv1a(A.row.data(), A.row.size() * sizeof(std::int64_t), h);
  h = fnv1a(A.col.data(), A.col.size() * sizeof(std::int64_t), h);
  h = fnv1a(A.value.data(), A.value.size() * sizeof(double), h);
  return toHex(h);
}

// ---------------------------------------------------------------------------------------------
// The worker: one backend, one thread count, every kernel and mode.

template <class ExecSpace, class Value, class Ordinal, class Offset>
nlohmann::json workerTyped(const ExecSpace& exec, const io::HostMatrix& host, const ReproArgs& args) {
  using Device = typename ExecSpace::device_type;
  using Csr = CsrMatrix<Value, Ordinal, Offset, Device>;
  const Csr csr = csrFromHost<Csr>(host);
  const std::vector<Value> xHost = seededVector<Value>(host.numCols, args.seed);
  const std::vector<Value> mu = correctlyRounded<Value>(host, xHost);
  Kokkos::View<Value*, Device> x("x", host.numCols), y("y", host.numRows);
  {
    auto mirror = Kokkos::create_mirror_view(x);
    for (std::int64_t j = 0; j < host.numCols; ++j) mirror(j) = xHost[j];
    Kokkos::deep_copy(x, mirror);
  }
  std::int64_t zeroRows = 0;
  for (Value m : mu) zeroRows += m == 0;
  FormatOptions formatOptions;
  formatOptions.force = args.force;
  const int threads = ExecSpace().concurrency();

  nlohmann::json runs = nlohmann::json::array();
  for (const KernelEntry& info : kernelRegistry()) {
    std::string refused;
    SpmvOperator<Value, Ordinal, Offset, ExecSpace> kernel;
    try {
      OperatorOptions options;
      options.kernel = info.kernel;
      options.format = formatOptions;
      kernel = SpmvOperator<Value, Ordinal, Offset, ExecSpace>(exec, csr, options);
    } catch (const PaddingError& e) {
      refused = e.what();
    }
    for (Mode mode : kModes) {
      nlohmann::json run = {{"backend", args.run.backend}, {"threads", threads}, {"format", info.name},
                            {"mode", toString(mode)}};
      if (!refused.empty()) {
        run["hash"] = nullptr;
        run["refused"] = refused;
        runs.push_back(run);
        continue;
      }
      std::set<std::string> hashes;
      std::vector<Value> first;
      std::int64_t maxUlp = 0;
      for (int r = 0; r < args.runs; ++r) {
        Kokkos::deep_copy(y, std::numeric_limits<Value>::quiet_NaN());  // an unwritten row must show
        try {
          kernel.apply(exec, x, y, Value(1), Value(0), mode);
        } catch (const UnsupportedError& e) {  // a mode this kernel does not offer
          run["unsupported"] = e.what();
          break;
        }
        auto yHost = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), y);
        hashes.insert(hashBits(yHost));
        if (r == 0) {
          first.assign(yHost.data(), yHost.data() + yHost.extent(0));
          run["hash"] = hashBits(yHost);
          continue;
        }
        for (std::size_t i = 0; i < first.size(); ++i) maxUlp = std::max(maxUlp, ulpDistance(first[i], yHost(i)));
      }
      if (run.contains("unsupported")) {
        run["hash"] = nullptr;
        runs.push_back(run);
        continue;
      }
      // RE = sum_i (y_i - mu_i) / mu_i over the rows with mu_i != 0 (a signed sum: errors of
      // opposite sign cancel), and the largest |y_i - mu_i| / |mu_i|.
      long double re = 0, maxRel = 0;
      std::int64_t rowsOff = 0;
      for (std::size_t i = 0; i < first.size(); ++i) {
        const bool same = first[i] == mu[i] || (std::isnan(first[i]) && std::isnan(mu[i]));
        rowsOff += !same;
        if (mu[i] == 0 || same) continue;
        const long double rel = (static_cast<long double>(first[i]) - mu[i]) / mu[i];
        re += rel;
        maxRel = std::isnan(rel) || std::isnan(maxRel) ? std::numeric_limits<long double>::quiet_NaN()
                                                       : std::max(maxRel, std::fabs(rel));
      }
      run["runs"] = args.runs;
      run["distinct_results"] = hashes.size();
      run["max_ulp_distance"] = maxUlp;
      run["re"] = static_cast<double>(re);
      run["max_rel_error"] = static_cast<double>(maxRel);
      run["rows_not_correctly_rounded"] = rowsOff;
      run["re_skipped_zero_rows"] = zeroRows;
      runs.push_back(run);
    }
  }
  return runs;
}

int runWorker(const ReproArgs& args) {
  const io::HostMatrix host = loadMatrix(args.file, args.run.dropInvalid, true);
  nlohmann::json out = {{"matrix",
                         {{"rows", host.numRows}, {"cols", host.numCols}, {"nnz", host.nnz()},
                          {"fingerprint", matrixFingerprint(host)}}}};
  withBackend(args.run.backend, [&](auto exec) {
    using Exec = decltype(exec);
    constexpr std::int64_t kInt32Max = std::numeric_limits<std::int32_t>::max();
    const bool narrow = host.numRows <= kInt32Max && host.numCols <= kInt32Max && host.nnz() <= kInt32Max;
    if (args.run.precision == "float") {
      out["runs"] = narrow ? workerTyped<Exec, float, std::int32_t, std::int32_t>(exec, host, args)
                           : workerTyped<Exec, float, std::int64_t, std::int64_t>(exec, host, args);
    } else {
      out["runs"] = narrow ? workerTyped<Exec, double, std::int32_t, std::int32_t>(exec, host, args)
                           : workerTyped<Exec, double, std::int64_t, std::int64_t>(exec, host, args);
    }
  });
  fmt::print("{}\n", out.dump());
  return 0;
}

// ---------------------------------------------------------------------------------------------
// The parent: spawns the workers, compares, prints.

struct Config {
  std::string backend;
  int threads;  ///< 0: the backend's own (CUDA)
  std::string label() const { return threads > 0 ? backend + ":" + std::to_string(threads) : backend; }
};

std::vector<Config> configs() {
  std::vector<Config> out;
#ifdef KOKKOS_ENABLE_SERIAL
  out.push_back({"serial", 1});
#endif
#ifdef KOKKOS_ENABLE_OPENMP
  // This process was started with --threads, else OMP_NUM_THREADS, else every core: the most.
  std::set<int> counts = {1, 2, Kokkos::OpenMP().concurrency()};
  for (int t : counts) out.push_back({"openmp", t});
#endif
#ifdef KOKKOS_ENABLE_CUDA
  out.push_back({"cuda", 0});
#endif
  return out;
}

std::string runLabel(const nlohmann::json& run) {
  const std::string backend = run.at("backend").get<std::string>();
  return backend == "cuda" ? backend : backend + ":" + std::to_string(run.at("threads").get<int>());
}

/// The runs of one (format, mode) over every backend.
struct Group {
  std::string format;
  std::string mode;
  std::vector<nlohmann::json> runs;
  std::string refused;

  std::set<std::string> hashes() const {
    std::set<std::string> h;
    for (const auto& r : runs) h.insert(r.at("hash").get<std::string>());
    return h;
  }
  bool sameEverywhere() const { return hashes().size() <= 1; }
  bool repeatable() const {
    for (const auto& r : runs) {
      if (r.at("distinct_results").get<int>() > 1) return false;
    }
    return true;
  }
  std::int64_t maxUlp() const {
    std::int64_t m = 0;
    for (const auto& r : runs) m = std::max(m, r.at("max_ulp_distance").get<std::int64_t>());
    return m;
  }
  std::int64_t rowsOff() const {
    std::int64_t m = 0;
    for (const auto& r : runs) m = std::max(m, r.at("rows_not_correctly_rounded").get<std::int64_t>());
    return m;
  }
  /// The run with the largest max relative error (the errors of every run when they agree).
  const nlohmann::json& worst() const {
    const nlohmann::json* w = &runs.front();
    for (const auto& r : runs) {
      if (r.at("max_rel_error").get<double>() > w->at("max_rel_error").get<double>()) w = &r;
    }
    return *w;
  }
  /// Deterministic and accurate kernels promise the same bits on every backend and every run,
  /// accurate ones the correctly rounded product as well.
  bool keepsPromise() const {
    if (!refused.empty() || mode == "fast") return true;
    return sameEverywhere() && repeatable() && (mode != "accurate" || rowsOff() == 0);
  }
};

std::vector<Group> groupRuns(const nlohmann::json& runs) {
  std::vector<Group> groups;
  std::map<std::pair<std::string, std::string>, std::size_t> index;
  for (const auto& r : runs) {
    const auto key = std::make_pair(r.at("format").get<std::string>(), r.at("mode").get<std::string>());
    auto it = index.find(key);
    if (it == index.end()) {
      it = index.emplace(key, groups.size()).first;
      groups.push_back({key.first, key.second, {}, {}});
    }
    if (r.contains("refused")) {
      groups[it->second].refused = r.at("refused").get<std::string>();
    } else if (r.contains("unsupported")) {
      groups[it->second].refused = "unsupported: " + r.at("unsupported").get<std::string>();
    } else {
      groups[it->second].runs.push_back(r);
    }
  }
  return groups;
}

/// "refused: ELL would store 10.85 slots per nonzero" out of a PaddingError's message.
std::string shortReason(const std::string& refused) {
  if (refused.rfind("unsupported: ", 0) == 0) return refused;
  const auto end = std::min(refused.find(" ("), refused.find(';'));
  return "refused: " + refused.substr(0, end) + " (past the padding limit; --force builds it)";
}

void printTable(const std::vector<Group>& groups, const std::vector<Config>& ran, const nlohmann::json& matrix,
                const ReproArgs& args) {
  std::string configsText;
  for (const auto& c : ran) configsText += (configsText.empty() ? "" : ", ") + c.label();
  fmt::print("matrix    {}: {} x {}, {} stored entries\n", args.file, matrix.at("rows").get<std::int64_t>(),
             matrix.at("cols").get<std::int64_t>(), matrix.at("nnz").get<std::int64_t>());
  fmt::print("product   y = A*x, {}, x uniform in [-1, 1) from seed {}; {} runs per kernel and mode\n",
             args.run.precision, args.seed, args.runs);
  fmt::print("backends  {}\n", configsText);
  fmt::print("errors    against mu, the correctly rounded product (exact accumulator on the host):\n"
             "          RE = sum_i (y_i - mu_i) / mu_i, a signed sum over the rows with mu_i != 0 ({} rows with\n"
             "          mu_i = 0 skipped); max rel = max_i |y_i - mu_i| / |mu_i|; not CR = rows with y_i != mu_i\n"
             "run to run  the largest distance, in units in the last place, of any y_i between repeated runs on\n"
             "          one backend (the worst backend); backends: whether every backend gave the same hash\n\n",
             groups.empty() || groups.front().runs.empty()
                 ? std::int64_t(0)
                 : groups.front().runs.front().at("re_skipped_zero_rows").get<std::int64_t>());
  fmt::print("{:<12} {:<13} {:<16}  {:<9} {:<14} {:>11} {:>10} {:>8}\n", "format", "mode", "hash of y", "backends",
             "run to run", "RE", "max rel", "not CR");
  std::vector<const Group*> differing;
  for (const auto& g : groups) {
    if (!g.refused.empty()) {
      // A format the padding guard refused is refused in every mode: one line says so.
      const bool everyMode = g.refused.rfind("unsupported: ", 0) != 0;
      if (!everyMode || g.mode == toString(kModes[0])) {
        fmt::print("{:<12} {:<13} {}\n", g.format, everyMode ? "(all)" : g.mode, shortReason(g.refused));
      }
      continue;
    }
    const bool same = g.sameEverywhere();
    if (!same) differing.push_back(&g);
    const std::string drift = fmt::format("{} ulp", g.maxUlp());
    const auto& w = g.worst();
    fmt::print("{:<12} {:<13} {:<16}  {:<9} {:<14} {:>11.3e} {:>10.2e} {:>8}\n", g.format, g.mode,
               same ? g.runs.front().at("hash").get<std::string>() : std::string("(differs)"), same ? "same" : "DIFFER",
               drift, w.at("re").get<double>(), w.at("max_rel_error").get<double>(),
               g.rowsOff());
  }
  if (!differing.empty()) {
    fmt::print("\nhashes where the backends differ:\n");
    for (const Group* g : differing) {
      std::string list;
      for (const auto& r : g->runs) list += fmt::format("  {}={}", runLabel(r), r.at("hash").get<std::string>());
      fmt::print("  {:<12} {:<13}{}\n", g->format, g->mode, list);
    }
  }
}

/// Compares this run's deterministic and accurate hashes with a file written by --save (or the
/// --json list). Returns the number of mismatches; prints what it compared.
int checkAgainst(const std::string& path, const nlohmann::json& current, const nlohmann::json& matrix,
                 const ReproArgs& args, bool quiet) {
  std::ifstream in(path);
  if (!in) throw InputError("--check " + path + ": cannot open the file; expected one written by araios repro --save");
  nlohmann::json saved;
  try {
    in >> saved;
  } catch (const nlohmann::json::exception& e) {
    throw InputError("--check " + path + ": not JSON (" + std::string(e.what()) + "); expected a file written by --save");
  }
  nlohmann::json savedRuns = saved.is_array() ? saved : saved.value("runs", nlohmann::json::array());
  if (saved.is_object()) {
    const auto savedMatrix = saved.value("matrix", nlohmann::json::object());
    if (savedMatrix.value("fingerprint", "") != matrix.at("fingerprint").get<std::string>()) {
      throw InputError("--check " + path + ": saved for another matrix (fingerprint " +
                       savedMatrix.value("fingerprint", std::string("none")) + ", this one " +
                       matrix.at("fingerprint").get<std::string>() + "); expected the same file");
    }
    if (saved.value("precision", args.run.precision) != args.run.precision ||
        saved.value("seed", args.seed) != args.seed) {
      throw InputError("--check " + path + ": saved with --precision " + saved.value("precision", std::string("?")) +
                       " --seed " + std::to_string(saved.value("seed", std::uint64_t(0))) + "; expected the same as this run");
    }
  }
  std::map<std::pair<std::string, std::string>, std::vector<std::pair<std::string, std::string>>> savedHashes;
  for (const auto& r : savedRuns) {
    if (r.value("hash", nlohmann::json()).is_string()) {
      savedHashes[{r.at("format").get<std::string>(), r.at("mode").get<std::string>()}].push_back(
          {runLabel(r), r.at("hash").get<std::string>()});
    }
  }
  int mismatches = 0, compared = 0;
  if (!quiet) fmt::print("\ncheck against {} (deterministic and accurate kernels; fast ones are not expected to match)\n", path);
  for (const auto& g : groupRuns(current)) {
    if (g.mode == "fast" || !g.refused.empty()) continue;
    const auto it = savedHashes.find({g.format, g.mode});
    if (it == savedHashes.end()) {
      if (!quiet) fmt::print("  {:<12} {:<13} not in the saved file\n", g.format, g.mode);
      continue;
    }
    std::string bad;
    for (const auto& r : g.runs) {
      for (const auto& [label, hash] : it->second) {
        if (hash != r.at("hash").get<std::string>()) {
          bad += fmt::format(" {} here={} saved {}={};", runLabel(r), r.at("hash").get<std::string>(), label, hash);
        }
      }
    }
    ++compared;
    if (!bad.empty()) {
      ++mismatches;
      if (!quiet) fmt::print("  {:<12} {:<13} MISMATCH:{}\n", g.format, g.mode, bad);
    }
  }
  if (!quiet) fmt::print("  {} of {} kernel-mode pairs match the saved hashes\n", compared - mismatches, compared);
  return mismatches;
}

int runParent(const ReproArgs& args) {
  const std::vector<Config> ran = configs();
  nlohmann::json runs = nlohmann::json::array();
  nlohmann::json matrix;
  for (const auto& c : ran) {
    std::vector<std::string> childArgs = {"repro",  args.file, "--worker", "--backend", c.backend,
                                          "--runs", std::to_string(args.runs), "--seed", std::to_string(args.seed),
                                          "--precision", args.run.precision};
    if (c.threads > 0) childArgs.insert(childArgs.end(), {"--threads", std::to_string(c.threads)});
    if (args.force) childArgs.push_back("--force");
    if (args.run.dropInvalid) childArgs.push_back("--drop-invalid");
    if (!args.run.json) fmt::print(stderr, "running {} ...\n", c.label());
    const ChildOutput child = runSelf(childArgs);
    if (child.exitCode != 0) {
      throw RuntimeError("the worker for " + c.label() + " failed with exit code " + std::to_string(child.exitCode) +
                         " (its messages are above)");
    }
    nlohmann::json out;
    try {
      out = nlohmann::json::parse(child.out);
    } catch (const nlohmann::json::exception& e) {
      throw RuntimeError("the worker for " + c.label() + " printed something that is not JSON: " + e.what());
    }
    matrix = out.at("matrix");
    for (auto& r : out.at("runs")) runs.push_back(r);
  }
  const std::vector<Group> groups = groupRuns(runs);
  bool promisesKept = true;
  for (const auto& g : groups) promisesKept = promisesKept && g.keepsPromise();

  if (args.run.json) {
    fmt::print("{}\n", runs.dump());
  } else {
    printTable(groups, ran, matrix, args);
  }
  if (!args.save.empty()) {
    const nlohmann::json saved = {{"araios_repro", 1},     {"file", args.file}, {"matrix", matrix},
                                  {"precision", args.run.precision}, {"seed", args.seed}, {"runs", runs}};
    araios::io::writeFileAtomically(args.save, saved.dump(1) + "\n");
    if (!args.run.json) fmt::print("\nsaved     the hashes to {}\n", args.save);
  }
  int mismatches = 0;
  if (!args.check.empty()) mismatches = checkAgainst(args.check, runs, matrix, args, args.run.json);
  if (!args.run.json && !promisesKept) {
    fmt::print("\nverdict   a deterministic or accurate kernel gave different bits across backends or runs, or an\n"
               "          accurate one missed the correctly rounded product\n");
  }
  return promisesKept && mismatches == 0 ? 0 : 3;
}

}  // namespace

int runRepro(const ReproArgs& args) { return args.worker ? runWorker(args) : runParent(args); }

}  // namespace araios::cli
