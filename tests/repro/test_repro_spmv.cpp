// Bitwise reproducibility of every deterministic SpMV kernel across backends and thread counts.
//
// For every real matrix of ../shared/matrices and the generated power-law matrices, every
// kernel in Deterministic mode (and in Accurate mode, up to kAccurateMaxNnz entries, and in
// Fast mode where that runs the deterministic kernel), double
// and float, two (alpha, beta): y is computed on every enabled execution space (Serial, OpenMP,
// CUDA), twice on the parallel ones, and all results must have the same bits. Each result's
// hash goes into a table keyed by matrix, kernel, type, mode and scaling, never by backend.
//
// A process cannot change its OpenMP thread count after Kokkos::initialize, so CTest runs this
// test twice (tests/CMakeLists.txt): with OMP_NUM_THREADS=1, writing the table to the file
// named by ARAIOS_REPRO_HASHES (ARAIOS_REPRO_ROLE=write), then with OMP_NUM_THREADS=2,
// checking its own table against that file (ARAIOS_REPRO_ROLE=check). ARAIOS_REPRO_THREADS
// states the thread count the run must have, so that a misconfigured run fails instead of
// comparing one thread count with itself. The same check run on a CUDA build, with a file
// written on a CPU, compares the GPU's bits with the CPU's.
#define BOOST_TEST_MODULE repro_spmv
#include <boost/test/unit_test.hpp>

#include "support/generated.hpp"
#include "support/kokkos_env.hpp"
#include "support/mode_kernels.hpp"
#include "support/real_matrices.hpp"

#include <araios/araios.hpp>
#include <araios/hash.hpp>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <numeric>
#include <random>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

using araios::test::KokkosFixture;
BOOST_TEST_GLOBAL_FIXTURE(KokkosFixture);

namespace {

using namespace araios;

/// Accurate mode runs an exact accumulator per row: kept to the matrices up to this size so
/// that the test stays short (the accurate mode's bits are checked against MPFR in
/// tests/spmv/test_spmv_modes.cpp).
constexpr std::int64_t kAccurateMaxNnz = 200000;

/// The kernels whose Fast mode runs their deterministic kernel (the formats' *_spmv.hpp say
/// so): checked in Fast mode too. The others use atomics or a backend-chosen reduction in Fast
/// mode and promise nothing there.
bool fastIsDeterministic(const std::string& kernel) {
  for (const char* k : {"csr-scalar", "ell", "dia", "jds", "sell", "brcp", "sc-csr", "vab"})
    if (kernel == k) return true;
  return false;
}

using Spaces = test::EnabledSpaces;

/// key -> hash of y, for everything this process computed.
std::map<std::string, std::string>& table() {
  static std::map<std::string, std::string> t;
  return t;
}

std::string env(const char* name) {
  const char* v = std::getenv(name);
  return v ? v : "";
}

template <class Value>
const char* typeName() {
  return std::is_same_v<Value, float> ? "float" : "double";
}

/// What one execution space computed for one matrix and value type: key -> hash.
using Results = std::map<std::string, std::string>;

template <class Exec, class Value>
Results compute(const std::string& name, const io::HostMatrix& host) {
  using Device = typename Exec::device_type;
  test::ModeKernels<Exec, Value> kernels(host);
  const auto x = test::randomVector<Value>(host.numCols, 1234);
  const auto y0 = test::randomVector<Value>(host.numRows, 5678);
  const std::pair<Value, Value> scalings[] = {{Value(1), Value(0)}, {Value(-0.75), Value(0.5)}};
  constexpr bool parallel = !std::is_same_v<Exec, Kokkos::Serial>;
  Results out;
  for (const auto& [kernel, run] : kernels.all) {
    std::vector<Mode> modes = {Mode::Deterministic};
    if (host.nnz() <= kAccurateMaxNnz) modes.push_back(Mode::Accurate);
    if (fastIsDeterministic(kernel)) modes.push_back(Mode::Fast);
    for (const Mode mode : modes) {
      for (const auto& [alpha, beta] : scalings) {
        std::ostringstream key;
        key << name << " " << kernel << " " << typeName<Value>() << " " << toString(mode) << " alpha=" << alpha
            << " beta=" << beta;
        const auto y = test::runOnce<Value, Device>(run, x, y0, alpha, beta, mode);
        const std::string hash = toHex(fnv1a(y.data(), y.size() * sizeof(Value)));
        if (parallel) {
          const auto again = test::runOnce<Value, Device>(run, x, y0, alpha, beta, mode);
          BOOST_TEST(toHex(fnv1a(again.data(), again.size() * sizeof(Value))) == hash,
                     key.str() << " on " << Exec::name() << ": two runs differ in their bits");
        }
        out[key.str()] = hash;
      }
    }
  }
  for (const std::string& k : kernels.refused) out[name + " " + k + " " + typeName<Value>() + " refused"] = "-";
  return out;
}

/// Every enabled space computes the matrix; all must agree; the agreed hashes join the table.
template <class Value, class... Exec>
void computeOnEverySpace(const std::string& name, const io::HostMatrix& host, std::tuple<Exec...>*) {
  std::vector<std::pair<std::string, Results>> perSpace = {{Exec::name(), compute<Exec, Value>(name, host)}...};
  const Results& first = perSpace.front().second;
  for (std::size_t s = 1; s < perSpace.size(); ++s) {
    for (const auto& [key, hash] : first) {
      const auto it = perSpace[s].second.find(key);
      const std::string other = it == perSpace[s].second.end() ? "missing" : it->second;
      BOOST_TEST(other == hash, key << ": " << perSpace.front().first << " gives " << hash << ", "
                                    << perSpace[s].first << " gives " << other);
    }
  }
  for (const auto& [key, hash] : first) table()[key] = hash;
}

template <class Value>
void computeMatrix(const std::string& name, const io::HostMatrix& host) {
  computeOnEverySpace<Value>(name, host, static_cast<Spaces*>(nullptr));
}

/// Power-law matrices of the kind the BRC and BRCP papers target: Chung-Lu style rows whose
/// lengths follow a Zipf law, and the one-very-long-row case of the format tests.
io::HostMatrix zipfRows(std::int64_t rows, std::int64_t cols, double exponent, std::int64_t maxLength,
                        std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> value(-1.0, 1.0), unit(0.0, 1.0);
  std::vector<std::tuple<std::int64_t, std::int64_t, double>> entries;
  std::vector<std::int64_t> all(cols);
  std::iota(all.begin(), all.end(), 0);
  for (std::int64_t r = 0; r < rows; ++r) {
    // P(length >= L) ~ L^-exponent: inverse transform of a Pareto law, capped.
    const double u = std::max(unit(rng), 1e-12);
    const std::int64_t len = std::min<std::int64_t>(maxLength, static_cast<std::int64_t>(std::pow(u, -1.0 / exponent)));
    for (std::int64_t k = 0; k < len; ++k) {
      std::swap(all[k], all[std::uniform_int_distribution<std::int64_t>(k, cols - 1)(rng)]);
      entries.emplace_back(r, all[k], value(rng));
    }
  }
  return test::fromTriplets(rows, cols, std::move(entries));
}

std::vector<test::GeneratedCase> powerLawCases() {
  return {{"power_law_long_row", test::powerLawWithLongRow()},
          {"zipf_1.2", zipfRows(30000, 30000, 1.2, 20000, 41)},
          {"zipf_2.0_wide", zipfRows(5000, 60000, 2.0, 50000, 43)}};
}

using ValueTypes = std::tuple<double, float>;

}  // namespace

BOOST_AUTO_TEST_CASE(thread_count_is_the_one_asked_for) {
  const std::string threads = env("ARAIOS_REPRO_THREADS");
#ifdef KOKKOS_ENABLE_OPENMP
  if (!threads.empty()) BOOST_TEST(Kokkos::OpenMP().concurrency() == std::stoi(threads));
  BOOST_TEST_MESSAGE("OpenMP threads: " << Kokkos::OpenMP().concurrency());
#endif
}

BOOST_AUTO_TEST_CASE_TEMPLATE(real_matrices, Value, ValueTypes) {
  for (const auto& m : test::realMatrices()) computeMatrix<Value>(m.name, m.matrix);
}

BOOST_AUTO_TEST_CASE_TEMPLATE(power_law_matrices, Value, ValueTypes) {
  for (const auto& c : powerLawCases()) computeMatrix<Value>(c.name, c.matrix);
}

BOOST_AUTO_TEST_CASE_TEMPLATE(generated_edge_cases, Value, ValueTypes) {
  for (const auto& c : test::formatCases()) computeMatrix<Value>(c.name, c.matrix);
}

/// Last: writes the table, or checks it against the one another process wrote.
BOOST_AUTO_TEST_CASE(same_bits_as_the_other_process) {
  const std::string role = env("ARAIOS_REPRO_ROLE"), file = env("ARAIOS_REPRO_HASHES");
  if (role.empty() || file.empty()) {
    BOOST_TEST_MESSAGE("ARAIOS_REPRO_ROLE/ARAIOS_REPRO_HASHES unset: compared within this process only");
    return;
  }
  if (role == "write") {
    std::ofstream out(file);
    for (const auto& [key, hash] : table()) out << hash << " " << key << "\n";
    BOOST_TEST(out.good(), "could not write " << file);
    return;
  }
  BOOST_TEST_REQUIRE(role == "check", "ARAIOS_REPRO_ROLE is '" << role << "'; expected write or check");
  std::ifstream in(file);
  BOOST_TEST_REQUIRE(in.good(), "cannot read " << file << "; run the test with ARAIOS_REPRO_ROLE=write first");
  std::map<std::string, std::string> saved;
  for (std::string line; std::getline(in, line);) {
    const auto space = line.find(' ');
    if (space != std::string::npos) saved[line.substr(space + 1)] = line.substr(0, space);
  }
  std::int64_t compared = 0;
  for (const auto& [key, hash] : table()) {
    const auto it = saved.find(key);
    if (it == saved.end()) continue;  // e.g. a run limited to some matrices
    ++compared;
    BOOST_TEST(it->second == hash, key << ": " << hash << " here, " << it->second << " in " << file);
  }
  BOOST_TEST(compared == static_cast<std::int64_t>(saved.size()), "compared " << compared << " of " << saved.size()
                                                                          << " saved results");
  BOOST_TEST_MESSAGE("compared " << compared << " results with " << file);
}
