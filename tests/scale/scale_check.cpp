// araios-scale-check: SpMV and CG in deterministic mode on a matrix of more than 2^31 stored
// entries, generated on the device (tests/scale/README.md). Float values, int32 column indices,
// int64 row offsets; the host never holds the matrix: it evaluates the sampled rows from the
// generator's formula (banded_spd.hpp) in long double.
//
//   araios-scale-check [--rows N | --nnz-target T] [--band B] [--seed S] [--samples K]
//                      [--kernels csr-vector,csr-scalar,...] [--cg-iterations M] [--tol T]
//                      [--offsets 64|32]
//
// --offsets 32 builds the same matrix with int32 offsets: past 2^31 - 1 entries it must be
// refused while counting, before any large allocation, by a message that names 64-bit offsets.
// Exit status: 0 every check passed; 1 a check failed (or the 32-bit refusal did not come);
// 2 bad arguments; 3 refused for memory (the message names the bytes needed and free).
#include "scale/banded_spd.hpp"

#include <araios/araios.hpp>
#include <araios/reference_spmv.hpp>
#include <araios/solvers/solvers.hpp>

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace {

using araios::groupedDigits;
using araios_scale::BandedSpd;
using Exec = Kokkos::DefaultExecutionSpace;
using Device = Exec::device_type;
using Value = float;
using Ordinal = std::int32_t;

struct Options {
  std::int64_t rows = std::int64_t(1) << 25;  // 2^25 rows x 65 entries: 2,181,037,024 entries
  std::int64_t band = 32;
  std::int64_t nnzTarget = 0;
  std::uint64_t seed = 2024;
  int samples = 1000;
  std::vector<std::string> kernels = {"csr-vector", "csr-scalar"};
  int cgIterations = 200;
  double tol = 1e-5;
  int offsets = 64;
};

/// Slack of the CG check: the host estimates ||b - A x|| from sampled rows (an RMS over a
/// random sample, scaled to n rows), and the device's own residual is a float computation;
/// a factor 4 over the tolerance separates those from a wrong solution (which misses by orders
/// of magnitude).
constexpr double kCgSlack = 4.0;

double elapsed(const Kokkos::Timer& t) { return t.seconds(); }

void say(const Kokkos::Timer& clock, const std::string& text) {
  std::printf("[%7.2f s] %s\n", elapsed(clock), text.c_str());
  std::fflush(stdout);
}

std::string gb(std::int64_t bytes) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%s bytes (%.2f GB)", groupedDigits(bytes).c_str(), static_cast<double>(bytes) / 1e9);
  return buf;
}

std::vector<std::string> split(const std::string& s) {
  std::vector<std::string> out;
  std::stringstream in(s);
  std::string item;
  while (std::getline(in, item, ',')) {
    if (!item.empty()) out.push_back(item);
  }
  return out;
}

[[noreturn]] void usage(const std::string& why) {
  std::fprintf(stderr,
               "araios-scale-check: %s\n"
               "usage: araios-scale-check [--rows N | --nnz-target T] [--band B] [--seed S] [--samples K]\n"
               "                          [--kernels K1,K2,...] [--cg-iterations M] [--tol T] [--offsets 64|32]\n",
               why.c_str());
  std::exit(2);
}

Options parse(int argc, char** argv) {
  Options o;
  for (int a = 1; a < argc; ++a) {
    const std::string arg = argv[a];
    auto next = [&]() -> std::string {
      if (a + 1 >= argc) usage(arg + " needs a value");
      return argv[++a];
    };
    try {
      if (arg == "--rows") o.rows = std::stoll(next());
      else if (arg == "--band") o.band = std::stoll(next());
      else if (arg == "--nnz-target") o.nnzTarget = std::stoll(next());
      else if (arg == "--seed") o.seed = std::stoull(next());
      else if (arg == "--samples") o.samples = std::stoi(next());
      else if (arg == "--kernels") o.kernels = split(next());
      else if (arg == "--cg-iterations") o.cgIterations = std::stoi(next());
      else if (arg == "--tol") o.tol = std::stod(next());
      else if (arg == "--offsets") o.offsets = std::stoi(next());
      else if (arg.rfind("--kokkos", 0) == 0) continue;  // Kokkos' own options
      else usage("unknown option " + arg);
    } catch (const std::logic_error&) {
      usage("bad value for " + arg);
    }
  }
  if (o.band < 0 || o.band > araios_scale::kMaxBand) usage("--band must lie in 0 .. 4096");
  if (o.nnzTarget > 0) o.rows = (o.nnzTarget + 2 * o.band) / (2 * o.band + 1) + 1;
  if (o.rows < 1 || o.rows > std::numeric_limits<Ordinal>::max()) usage("--rows must lie in 1 .. 2^31 - 1 (int32 columns)");
  if (o.offsets != 32 && o.offsets != 64) usage("--offsets is 32 or 64");
  if (o.samples < 0) usage("--samples must be >= 0");
  if (o.kernels.empty()) usage("--kernels names at least one kernel");
  for (const std::string& k : o.kernels) {
    try {
      if (araios::parseKernel(k) == araios::Kernel::Auto) usage("--kernels takes kernel names, not auto");
    } catch (const araios::InputError& e) {
      usage(e.what());
    }
  }
  return o;
}

/// The rows checked on the host: the first and last three, three around every multiple of 2^31
/// entries (where a 32-bit offset would wrap), and `samples` random ones.
std::vector<std::int64_t> sampleRows(const BandedSpd& A, int samples, std::uint64_t seed) {
  std::set<std::int64_t> rows;
  for (std::int64_t i = 0; i < 3 && i < A.n; ++i) {
    rows.insert(i);
    rows.insert(A.n - 1 - i);
  }
  const std::int64_t nnz = A.entriesBefore(A.n);
  for (std::int64_t boundary = std::int64_t(1) << 31; boundary < nnz; boundary += std::int64_t(1) << 31) {
    std::int64_t lo = 0, hi = A.n;  // the row holding entry `boundary`: last i with entriesBefore(i) <= boundary
    while (hi - lo > 1) {
      const std::int64_t mid = lo + (hi - lo) / 2;
      (A.entriesBefore(mid) <= boundary ? lo : hi) = mid;
    }
    for (std::int64_t r = lo - 1; r <= lo + 1; ++r) {
      if (r >= 0 && r < A.n) rows.insert(r);
    }
  }
  std::uint64_t state = seed ^ 0x5ca1ab1eull;
  for (int s = 0; s < samples; ++s) {
    std::uint64_t z = (state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    z ^= z >> 31;
    rows.insert(static_cast<std::int64_t>(z % static_cast<std::uint64_t>(A.n)));
  }
  return {rows.begin(), rows.end()};
}

/// sum_j a_ij v_j in long double from the formula, and sum_j |a_ij v_j|.
void referenceRow(const BandedSpd& A, std::int64_t i, const std::vector<Value>& v, long double& sum, long double& magnitude) {
  sum = 0;
  magnitude = 0;
  for (std::int64_t j = A.firstColumn(i); j <= A.lastColumn(i); ++j) {
    const long double p = static_cast<long double>(A.value(i, j)) * static_cast<long double>(v[j]);
    sum += p;
    magnitude += std::fabs(p);
  }
}

template <class View>
std::vector<Value> toHost(const View& v) {
  auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), v);
  return std::vector<Value>(host.data(), host.data() + host.extent(0));
}

template <class View>
std::string hashOf(const View& v) {
  Kokkos::fence();
  return araios::hashBits(v);
}

template <class Offset>
int run(const Options& o) {
  using Csr = araios::CsrMatrix<Value, Ordinal, Offset, Device>;
  using Vector = Kokkos::View<Value*, Device>;
  Kokkos::Timer clock;
  Exec exec;
  const BandedSpd A{o.rows, o.band, o.seed};
  const std::int64_t n = o.rows;
  const std::int64_t nnz = A.entriesBefore(n);
  const std::int64_t csrBytes = (n + 1) * static_cast<std::int64_t>(sizeof(Offset)) +
                                nnz * static_cast<std::int64_t>(sizeof(Ordinal) + sizeof(Value));
  const std::int64_t vectorBytes = n * static_cast<std::int64_t>(sizeof(Value));
  std::printf("araios-scale-check on %s: %s x %s, band %lld (up to %lld entries per row), %s stored entries "
              "(2^31 = 2,147,483,648), float values, int32 columns, int%d offsets\n",
              Exec::name(), groupedDigits(n).c_str(), groupedDigits(n).c_str(), static_cast<long long>(o.band),
              static_cast<long long>(2 * o.band + 1), groupedDigits(nnz).c_str(), o.offsets);
  std::printf("memory: CSR %s; vectors %s each, about %d of them (x, y, b, x_true, CG's x and its 4 work vectors); "
              "%s free on %s\n",
              gb(csrBytes).c_str(), gb(vectorBytes).c_str(), 10, gb(araios::freeBytes(exec)).c_str(), Exec::name());
  std::fflush(stdout);

  say(clock, "generating the matrix on the device (entries counted in 64 bits first)");
  Csr csr;
  try {
    csr = araios::csrFromRows<Csr>(exec, n, n, araios_scale::BandedSpdLength{A}, araios_scale::BandedSpdFill{A},
                                   "araios_scale::A");
  } catch (const araios::InputError& e) {
    if (o.offsets == 32 && nnz > std::numeric_limits<std::int32_t>::max()) {
      const std::string message = e.what();
      const bool names64 = message.find("64-bit offsets") != std::string::npos;
      say(clock, std::string("refused as expected, while counting, before any large allocation: ") + message);
      std::printf("%s: 32-bit offsets refused%s\n", names64 ? "PASS" : "FAIL",
                  names64 ? " with a message that names 64-bit offsets" : ", but the message does not name 64-bit offsets");
      return names64 ? 0 : 1;
    }
    throw;
  }
  if (o.offsets == 32 && nnz > std::numeric_limits<std::int32_t>::max()) {
    std::printf("FAIL: %s entries were accepted with 32-bit offsets; expected a refusal naming 64-bit offsets\n",
                groupedDigits(nnz).c_str());
    return 1;
  }
  say(clock, "generated: " + groupedDigits(static_cast<std::int64_t>(csr.nnz())) + " entries, " +
                 gb(csr.bytes()) + " on the device");

  int failures = 0;
  auto check = [&](bool ok, const std::string& what) {
    std::printf("  %s: %s\n", ok ? "ok  " : "FAIL", what.c_str());
    if (!ok) ++failures;
  };

  const std::vector<std::int64_t> rows = sampleRows(A, o.samples, o.seed);
  // The stored offsets of the sampled rows against the closed form (the 64-bit offsets past 2^31).
  {
    auto rowPtr = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), csr.rowPtr);
    std::int64_t wrong = 0, past31 = 0;
    for (const std::int64_t i : rows) {
      if (static_cast<std::int64_t>(rowPtr(i + 1)) != A.entriesBefore(i + 1)) ++wrong;
      if (static_cast<std::int64_t>(rowPtr(i + 1)) > std::numeric_limits<std::int32_t>::max()) ++past31;
    }
    check(csr.nnz() == static_cast<Offset>(nnz) && wrong == 0,
          "row offsets of " + std::to_string(rows.size()) + " sampled rows (" + std::to_string(past31) +
              " past 2^31) equal the closed form; nnz = " + groupedDigits(static_cast<std::int64_t>(csr.nnz())));
  }

  say(clock, "x: seeded vector (araios::seededVector, seed " + std::to_string(o.seed) + ")");
  const std::vector<Value> xHost = araios::seededVector<Value>(n, o.seed);
  Vector x(Kokkos::view_alloc(Kokkos::WithoutInitializing, "araios_scale::x"), n);
  Kokkos::deep_copy(x, Kokkos::View<const Value*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(xHost.data(), n));
  Vector y(Kokkos::view_alloc(Kokkos::WithoutInitializing, "araios_scale::y"), n);

  for (const std::string& name : o.kernels) {
    araios::OperatorOptions options;
    options.kernel = araios::parseKernel(name);
    options.mode = araios::Mode::Deterministic;
    say(clock, "SpMV, kernel " + name + ": building the operator");
    const araios::SpmvOperator<Value, Ordinal, Offset, Exec> op(exec, csr, options);
    Kokkos::deep_copy(y, std::numeric_limits<Value>::quiet_NaN());  // poison: an unwritten row fails
    Kokkos::Timer t;
    op.apply(exec, x, y);
    exec.fence();
    const double seconds = t.seconds();
    op.apply(exec, x, y);  // twice: the same bits
    const std::string hash1 = hashOf(y);
    op.apply(exec, x, y);
    const std::string hash2 = hashOf(y);
    const std::vector<Value> yHost = toHost(y);
    long double worstRatio = 0, worstRelative = 0;
    std::int64_t worstRow = -1, bad = 0;
    for (const std::int64_t i : rows) {
      long double ref, magnitude;
      referenceRow(A, i, xHost, ref, magnitude);
      const long double error = std::fabs(static_cast<long double>(yHost[i]) - ref);
      const long double bound = araios::spmvErrorBound<Value>(A.length(i), magnitude);
      const long double ratio = bound > 0 ? error / bound : (error > 0 ? INFINITY : 0);
      if (!(ratio <= 1)) ++bad;
      if (!(ratio <= worstRatio)) {
        worstRatio = ratio;
        worstRow = i;
      }
      if (ref != 0) worstRelative = std::max(worstRelative, error / std::fabs(ref));
    }
    char line[400];
    std::snprintf(line, sizeof line,
                  "y = A x with %s (format %s, %s): %zu sampled rows against the long-double reference, "
                  "max relative error %.3Le, max error / bound %.3Lf (row %lld; bound gamma_(len+3) * sum |a_ij x_j|), "
                  "%lld outside; %.1f ms per product; hash %s",
                  name.c_str(), gb(op.formatBytes()).c_str(), toString(op.mode()), rows.size(), worstRelative,
                  worstRatio, static_cast<long long>(worstRow), static_cast<long long>(bad), seconds * 1e3, hash1.c_str());
    check(bad == 0, line);
    check(hash1 == hash2, "two more products with " + name + " give the same bits (" + hash2 + ")");
  }

  // CG on b = A x_true, with the first kernel.
  {
    araios::OperatorOptions options;
    options.kernel = araios::parseKernel(o.kernels.front());
    options.mode = araios::Mode::Deterministic;
    const araios::SpmvOperator<Value, Ordinal, Offset, Exec> op(exec, csr, options);
    say(clock, "CG (deterministic, Jacobi preconditioner) with " + o.kernels.front() + " on b = A x_true");
    const std::vector<Value> xTrueHost = araios::seededVector<Value>(n, o.seed, 1);
    Vector xTrue(Kokkos::view_alloc(Kokkos::WithoutInitializing, "araios_scale::x_true"), n);
    Kokkos::deep_copy(xTrue, Kokkos::View<const Value*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(xTrueHost.data(), n));
    Vector b(Kokkos::view_alloc(Kokkos::WithoutInitializing, "araios_scale::b"), n);
    op.apply(exec, xTrue, b);
    araios::SolverOptions solver;
    solver.tolerance = o.tol;
    solver.maxIterations = o.cgIterations;
    solver.mode = araios::ReductionMode::Deterministic;
    solver.recordHistory = false;
    Vector x1("araios_scale::cg_x1", n), x2("araios_scale::cg_x2", n);
    const araios::SolveResult r1 = araios::cg(exec, op, b, x1, solver);
    say(clock, "CG run 1: " + r1.message + "; " + std::to_string(r1.iterations) + " iterations");
    const araios::SolveResult r2 = araios::cg(exec, op, b, x2, solver);
    say(clock, "CG run 2: " + r2.message + "; " + std::to_string(r2.iterations) + " iterations");
    const std::string h1 = hashOf(x1), h2 = hashOf(x2);

    const std::vector<Value> bHost = toHost(b), xHostCg = toHost(x1);
    long double bnorm2 = 0;
    for (const Value v : bHost) bnorm2 += static_cast<long double>(v) * v;
    long double sampled2 = 0, worstRow = 0;
    for (const std::int64_t i : rows) {
      long double ax, magnitude;
      referenceRow(A, i, xHostCg, ax, magnitude);
      const long double ri = static_cast<long double>(bHost[i]) - ax;
      sampled2 += ri * ri;
      worstRow = std::max(worstRow, std::fabs(ri));
    }
    const long double estimate =
        rows.empty() ? 0 : std::sqrt(sampled2 * static_cast<long double>(n) / static_cast<long double>(rows.size()) / bnorm2);
    char line[400];
    std::snprintf(line, sizeof line, "CG converged in %d iterations; its ||b - Ax|| / ||b|| = %.3e <= tol %.1e",
                  r1.iterations, r1.relResidual, o.tol);
    check(r1.converged && r1.relResidual <= o.tol, line);
    std::snprintf(line, sizeof line,
                  "host (long double, from the formula) on %zu sampled rows: ||b - Ax|| / ||b|| estimated %.3Le "
                  "(CG says %.3e), within %.0f x tol = %.1e; largest |r_i| %.3Le",
                  rows.size(), estimate, r1.relResidual, kCgSlack, kCgSlack * o.tol, worstRow);
    check(estimate <= kCgSlack * o.tol, line);
    check(h1 == h2 && r1.iterations == r2.iterations,
          "two CG runs: " + std::to_string(r1.iterations) + " and " + std::to_string(r2.iterations) +
              " iterations, x hashes " + h1 + " and " + h2);
  }

  say(clock, failures == 0 ? "done" : "done, with failures");
  std::printf("%s: %s entries with int%d offsets on %s, %d failed check(s)\n", failures == 0 ? "PASS" : "FAIL",
              groupedDigits(nnz).c_str(), o.offsets, Exec::name(), failures);
  return failures == 0 ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  const Options options = parse(argc, argv);
  int status = 1;
  Kokkos::initialize(argc, argv);
  try {
    status = options.offsets == 64 ? run<std::int64_t>(options) : run<std::int32_t>(options);
  } catch (const araios::OutOfMemoryError& e) {
    std::fprintf(stderr, "araios-scale-check: refused for memory: %s\n", e.what());
    status = 3;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "araios-scale-check: %s\n", e.what());
    status = 1;
  }
  Kokkos::finalize();
  return status;
}
