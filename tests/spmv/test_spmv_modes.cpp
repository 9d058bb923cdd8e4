// The three modes of araios::spmv on every kernel:
//   * no kernel lets a*b + c be fused into an FMA in Deterministic mode (a product chosen so
//     that the fused and the unfused results differ);
//   * Accurate equals the correctly rounded product computed exactly with MPFR, bit for bit,
//     for every kernel (hence the same bits for every format), in double and float, on the
//     generated cases, on a badly conditioned matrix and on the real matrices (the largest
//     ones with csr-scalar and csr-merge only, to keep the test short);
//   * Fast still meets the rounding-error bound of every kernel;
//   * the deterministic kernels that walk each row in CSR order give csr-scalar's bits;
//   * an operator makes what its products need once (BRCP's and SC-CSR's CSR form, CSC's row
//     order): its applies allocate nothing more than csr-scalar's, the bare matrix's products
//     still make it per call, and both give the bits above.
// Serial, OpenMP at 1 and 2 threads and CUDA agreeing bit for bit is tests/repro/.
#define BOOST_TEST_MODULE spmv_modes
#include <boost/test/unit_test.hpp>

#include "support/blocked_csr_order.hpp"
#include "support/generated.hpp"
#include "support/kokkos_env.hpp"
#include "support/mode_kernels.hpp"
#include "support/mpfr_reference.hpp"
#include "support/real_matrices.hpp"
#include "support/spmv_check.hpp"

#include <araios/araios.hpp>

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <sstream>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

using araios::test::KokkosFixture;
BOOST_TEST_GLOBAL_FIXTURE(KokkosFixture);

namespace {

using namespace araios;

/// Real matrices above this many entries check the accurate mode with csr-scalar only: the
/// MPFR reference and the exact accumulators of all 14 kernels would dominate the suite's time.
constexpr std::int64_t kAccurateAllKernelsMaxNnz = 100000;

template <class T>
bool sameBits(const std::vector<T>& a, const std::vector<T>& b) {
  return a.size() == b.size() && (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0);
}

/// The first index where the bits differ, for the message.
template <class T>
std::string firstDifference(const std::vector<T>& got, const std::vector<T>& want) {
  for (std::size_t i = 0; i < got.size() && i < want.size(); ++i) {
    if (std::memcmp(&got[i], &want[i], sizeof(T)) != 0) {
      std::ostringstream out;
      out.precision(17);
      out << "row " << i << ": got " << got[i] << ", want " << want[i];
      return out.str();
    }
  }
  return "sizes differ";
}

/// Products chosen so that fma(a, x, c) != c + a*x rounded twice: a = 1 + e, x = 1 - e with
/// e = 2^-30 (double) or 2^-13 (float), so a*x = 1 - e^2, which rounds to 1. Row 0 holds -1
/// at position 0 and a*x at position 32 (the same virtual lane of the canonical 32-lane
/// order), with zero products between; row 1 holds just -1 and a*x. Unfused, each row sums to
/// -1 + 1 = +0; fused, to -e^2; exactly, to -e^2.
template <class Value>
io::HostMatrix contractionMatrix(Value& a, Value& x, Value& exact) {
  const Value e = std::is_same_v<Value, float> ? std::ldexp(Value(1), -13) : std::ldexp(Value(1), -30);
  a = 1 + e;
  x = 1 - e;
  exact = -e * e;
  std::vector<std::tuple<std::int64_t, std::int64_t, double>> entries;
  entries.emplace_back(0, 0, -1.0);
  for (std::int64_t c = 1; c < 32; ++c) entries.emplace_back(0, c, 0.0);
  entries.emplace_back(0, 32, static_cast<double>(a));
  entries.emplace_back(1, 0, -1.0);
  entries.emplace_back(1, 32, static_cast<double>(a));
  return test::fromTriplets(2, 33, std::move(entries));
}

/// Rows that cancel: each row holds pairs v, -v*(1 + tiny) and entries of widely spread
/// magnitudes (2^-40 to 2^40), so a rounded sum in any order is far from the exact one.
inline io::HostMatrix badlyConditioned() {
  std::mt19937_64 rng(99);
  std::uniform_int_distribution<int> exponent(-40, 40), length(0, 60);
  std::uniform_real_distribution<double> mantissa(1.0, 2.0);
  std::vector<std::tuple<std::int64_t, std::int64_t, double>> entries;
  constexpr std::int64_t rows = 300, cols = 500;
  for (std::int64_t r = 0; r < rows; ++r) {
    const int n = length(rng);
    for (int k = 0; k < n; ++k) {
      const double v = std::ldexp(mantissa(rng), exponent(rng)) * (k % 2 ? -1.0 : 1.0);
      entries.emplace_back(r, (r * 37 + 11 * k) % cols, v);
    }
  }
  // fromTriplets keeps duplicates apart; the reader would sum them, so drop repeated positions.
  std::sort(entries.begin(), entries.end());
  entries.erase(std::unique(entries.begin(), entries.end(),
                            [](const auto& p, const auto& q) {
                              return std::get<0>(p) == std::get<0>(q) && std::get<1>(p) == std::get<1>(q);
                            }),
                entries.end());
  return test::fromTriplets(rows, cols, std::move(entries));
}

/// Rows whose exact sum (x all ones) lies a hair beyond a rounding tie, the hair hidden under
/// a cancelling pair of large entries: the first pass of the Accurate mode cannot decide them
/// (its dropped parts reach across the tie), so the exact pass computes them. Row 0 for
/// double (1 + 2^-53 + 2^-160), row 1 for float (1 + 2^-24 + 2^-60), plus exact cancellations.
inline io::HostMatrix nearTies() {
  const double big = std::ldexp(1.0, 100);
  std::vector<std::tuple<std::int64_t, std::int64_t, double>> entries = {
      {0, 0, big}, {0, 1, 1.0}, {0, 2, std::ldexp(1.0, -53)}, {0, 3, std::ldexp(1.0, -160)}, {0, 4, -big},
      {1, 0, big}, {1, 1, 1.0}, {1, 2, std::ldexp(1.0, -24)}, {1, 3, std::ldexp(1.0, -60)}, {1, 4, -big},
      {2, 0, 1.0}, {2, 1, -1.0}, {2, 2, std::ldexp(1.0, -60)}, {3, 0, 1e30}, {3, 1, -1e30}};
  return test::fromTriplets(4, 5, std::move(entries));
}

template <class Value>
std::vector<Value> spreadVector(std::int64_t n, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<int> exponent(-30, 30);
  std::uniform_real_distribution<double> mantissa(-2.0, 2.0);
  std::vector<Value> v(n);
  for (auto& e : v) e = static_cast<Value>(std::ldexp(mantissa(rng), exponent(rng)));
  return v;
}

/// Every kernel (or those in `only`), in an operator and bare, in Accurate mode against MPFR,
/// bit for bit, for (alpha, beta) = (1, 0), (-0.75, 0.5) and (3, 0), with x and y0 as given.
template <class Exec, class Value>
void checkAccurate(const std::string& name, const io::HostMatrix& host, const std::vector<Value>& x,
                   const std::vector<Value>& y0, const std::vector<std::string>& only = {}) {
  using Device = typename Exec::device_type;
  Kokkos::Timer timer;
  test::ModeKernels<Exec, Value> kernels(host, only, {}, true);
  const std::pair<Value, Value> scalings[] = {{Value(1), Value(0)}, {Value(-0.75), Value(0.5)}, {Value(3), Value(0)}};
  for (const auto& [alpha, beta] : scalings) {
    const std::vector<Value> want = test::mpfrSpmv<Value>(host, x, alpha, beta, y0);
    for (const auto& [kernel, run] : kernels.all) {
      const std::vector<Value> got = test::runOnce<Value, Device>(run, x, y0, alpha, beta, Mode::Accurate);
      BOOST_TEST(sameBits(got, want), name << " " << kernel << " alpha=" << alpha << " beta=" << beta
                                           << ": accurate differs from MPFR at " << firstDifference(got, want));
    }
  }
  BOOST_TEST_MESSAGE(name << ": " << kernels.all.size() << " kernels in accurate mode, " << timer.seconds() << " s");
}

template <class Cfg>
using ValueOf = typename Cfg::value_type;

using ValueTypes = std::tuple<double, float>;

}  // namespace

BOOST_AUTO_TEST_CASE_TEMPLATE(deterministic_kernels_never_fuse, Cfg, test::AllConfigs) {
  using Value = ValueOf<Cfg>;
  using Device = typename Cfg::device_type;
  Value a, x1, exact;
  const io::HostMatrix host = contractionMatrix<Value>(a, x1, exact);
  std::vector<Value> x(33, Value(1));
  x[0] = 1;
  x[32] = x1;
  const std::vector<Value> y0(2, Value(0));
  test::ModeKernels<typename Cfg::execution_space, Value, typename Cfg::ordinal_type, typename Cfg::size_type> kernels(
      host, {}, FormatOptions{kDefaultMaxPaddingRatio, true});
  BOOST_TEST(kernels.refused.empty());
  for (const auto& [kernel, run] : kernels.all) {
    const auto det = test::runOnce<Value, Device>(run, x, y0, Value(1), Value(0), Mode::Deterministic);
    for (int i = 0; i < 2; ++i) {
      BOOST_TEST((det[i] == Value(0) && !std::signbit(det[i])),
                 kernel << " row " << i << ": " << det[i] << " (a fused multiply-add gives " << exact << ")");
    }
    const auto acc = test::runOnce<Value, Device>(run, x, y0, Value(1), Value(0), Mode::Accurate);
    for (int i = 0; i < 2; ++i) BOOST_TEST(acc[i] == exact, kernel << " accurate row " << i);
  }
}

BOOST_AUTO_TEST_CASE_TEMPLATE(accurate_equals_mpfr_on_generated_matrices, Cfg, test::AllConfigs) {
  using Value = ValueOf<Cfg>;
  using Exec = typename Cfg::execution_space;
  if constexpr (!std::is_same_v<typename Cfg::size_type, std::int32_t>) return;  // one index width is enough
  for (const auto& c : test::formatCases()) {
    checkAccurate<Exec, Value>(c.name, c.matrix, test::randomVector<Value>(c.matrix.numCols, 1234),
                               test::randomVector<Value>(c.matrix.numRows, 5678));
  }
  const io::HostMatrix bad = badlyConditioned();
  checkAccurate<Exec, Value>("badly_conditioned", bad, spreadVector<Value>(bad.numCols, 3),
                             spreadVector<Value>(bad.numRows, 4));
  const io::HostMatrix near = nearTies();
  checkAccurate<Exec, Value>("near_ties", near, std::vector<Value>(near.numCols, Value(1)),
                             test::randomVector<Value>(near.numRows, 5678));
}

BOOST_AUTO_TEST_CASE_TEMPLATE(accurate_equals_mpfr_on_real_matrices, Value, ValueTypes) {
#ifdef KOKKOS_ENABLE_OPENMP
  using Exec = Kokkos::OpenMP;
#else
  using Exec = Kokkos::DefaultHostExecutionSpace;
#endif
  for (const auto& m : test::realMatrices()) {
    const auto x = test::randomVector<Value>(m.matrix.numCols, 1234);
    const auto y0 = test::randomVector<Value>(m.matrix.numRows, 5678);
    if (m.matrix.nnz() <= kAccurateAllKernelsMaxNnz) {
      checkAccurate<Exec, Value>(m.name, m.matrix, x, y0);
    } else {
      checkAccurate<Exec, Value>(m.name, m.matrix, x, y0, {"csr-scalar", "csr-merge"});
    }
  }
}

BOOST_AUTO_TEST_CASE_TEMPLATE(fast_mode_meets_the_error_bound, Cfg, test::AllConfigs) {
  using Value = ValueOf<Cfg>;
  using Device = typename Cfg::device_type;
  using K = test::ModeKernels<typename Cfg::execution_space, Value, typename Cfg::ordinal_type, typename Cfg::size_type>;
  std::vector<test::GeneratedCase> cases = test::formatCases();
  for (const auto& m : test::realMatrices())
    if (m.name == "bcsstk13" || m.name == "rajat19" || m.name == "Franz6_id1959_aug") cases.push_back({m.name, m.matrix});
  {
    // A column of 20,000 entries beside empty and short ones: CSC's scatter spreads it over
    // many threads, each starting inside it.
    std::vector<std::tuple<std::int64_t, std::int64_t, double>> e;
    for (std::int64_t i = 0; i < 20000; ++i) e.emplace_back(i, 3, 1.0 + 1e-3 * static_cast<double>(i % 97));
    for (std::int64_t j = 5; j < 400; j += 3) e.emplace_back((j * 31) % 20000, j, -0.5);
    std::sort(e.begin(), e.end());
    cases.push_back({"one_dense_column", test::fromTriplets(20000, 400, std::move(e))});
  }
  for (const auto& c : cases) {
    K kernels(c.matrix);
    for (const auto& [kernel, run] : kernels.all) {
      const auto fast = [&run = run](const typename K::Vector& x, const typename K::Vector& y, Value a, Value b) {
        run(x, y, a, b, Mode::Fast);
      };
      test::checkSpmvAgainstReference<Value, Device>(c.name + " " + kernel + " fast", c.matrix, fast);
    }
  }
}

// Fast mode's COO scatter sums each run of a row's entries before its atomic addition
// (formats/coo/coo_run_scatter.hpp). A COO without row offsets scatters on every backend, so
// these matrices run it on the CPU too (a thread per team there, 128 threads on a GPU): runs
// that cross the threads' pieces and the teams, a row of 100,003 entries over many teams,
// rows in no order, and a count of entries that fills no team.
BOOST_AUTO_TEST_CASE_TEMPLATE(coo_fast_scatter_adds_every_run, Cfg, test::AllConfigs) {
  using Value = ValueOf<Cfg>;
  using Device = typename Cfg::device_type;
  using Exec = typename Cfg::execution_space;
  using Coo = CooMatrix<Value, typename Cfg::ordinal_type, typename Cfg::size_type, Device>;
  using Triplets = std::vector<std::tuple<std::int64_t, std::int64_t, double>>;
  std::mt19937_64 rng(20261129);
  std::uniform_real_distribution<double> value(-1.0, 1.0);
  std::vector<test::GeneratedCase> cases;
  {
    Triplets e;
    for (std::int64_t j = 0; j < 100003; ++j) e.emplace_back(1701, j, value(rng));
    for (std::int64_t i = 0; i < 3000; ++i)
      for (std::int64_t k = 0; k < i % 4 && i != 1701; ++k) e.emplace_back(i, (i * 7 + k * 13) % 4000, value(rng));
    cases.push_back({"one_row_of_100003", test::fromTriplets(3000, 100003, std::move(e))});
  }
  Triplets uneven;
  for (std::int64_t i = 0; i < 5000; ++i) {
    const std::int64_t length = static_cast<std::int64_t>(rng() % 41);
    for (std::int64_t k = 0; k < length; ++k) uneven.emplace_back(i, static_cast<std::int64_t>(rng() % 3001), value(rng));
  }
  cases.push_back({"rows_of_0_to_40", test::fromTriplets(5000, 3001, uneven)});
  {
    // fromTriplets sorts; this one keeps the shuffled order, so runs are mostly single entries.
    std::shuffle(uneven.begin(), uneven.end(), rng);
    io::HostMatrix shuffled;
    shuffled.numRows = 5000;
    shuffled.numCols = 3001;
    for (const auto& [r, c, v] : uneven) {
      shuffled.row.push_back(r);
      shuffled.col.push_back(c);
      shuffled.value.push_back(v);
    }
    cases.push_back({"rows_of_0_to_40_in_no_order", std::move(shuffled)});
  }
  {
    Triplets e;  // 1,031 entries of rows 0 to 2, each row's entries one after the other
    for (std::int64_t k = 0; k < 1031; ++k) e.emplace_back(k < 500 ? 0 : k < 1030 ? 1 : 2, k, value(rng));
    cases.push_back({"three_runs", test::fromTriplets(3, 1031, std::move(e))});
  }
  cases.push_back({"no_entries", test::fromTriplets(7, 5, {})});
  for (const auto& c : cases) {
    Coo coo = cooFromHost<Coo>(c.matrix);
    coo.rowPtr = {};  // without row offsets Fast mode scatters on a CPU as well
    Exec exec;
    test::checkSpmvAgainstReference<Value, Device>(c.name + " coo fast scatter", c.matrix,
                                                   [&](const auto& x, const auto& y, Value a, Value b) {
                                                     SpmvOptions fast;
                                                     fast.mode = Mode::Fast;
                                                     spmv(exec, coo, x, y, a, b, fast);
                                                   });
  }
}

BOOST_AUTO_TEST_CASE_TEMPLATE(row_order_kernels_give_csr_scalar_bits, Cfg, test::AllConfigs) {
  using Value = ValueOf<Cfg>;
  using Device = typename Cfg::device_type;
  using K = test::ModeKernels<typename Cfg::execution_space, Value, typename Cfg::ordinal_type, typename Cfg::size_type>;
  // Each sums a row's entries in CSR order (the reader's matrices are sorted by column within
  // a row), from -0.0, rounding each product and sum.
  const std::vector<std::string> sameOrder = {"csr-scalar", "coo", "csc", "ell", "hyb", "dia", "jds", "sell"};
  std::vector<test::GeneratedCase> cases = test::formatCases();
  for (const auto& m : test::realMatrices())
    if (m.matrix.nnz() <= kAccurateAllKernelsMaxNnz) cases.push_back({m.name, m.matrix});
  for (const auto& c : cases) {
    K kernels(c.matrix, sameOrder);
    const auto x = test::randomVector<Value>(c.matrix.numCols, 1234);
    const auto y0 = test::randomVector<Value>(c.matrix.numRows, 5678);
    const auto want = test::runOnce<Value, Device>(kernels.all.front().second, x, y0, Value(-0.75), Value(0.5),
                                                   Mode::Deterministic);
    for (const auto& [kernel, run] : kernels.all) {
      const auto got = test::runOnce<Value, Device>(run, x, y0, Value(-0.75), Value(0.5), Mode::Deterministic);
      BOOST_TEST(sameBits(got, want), c.name << " " << kernel << ": not the bits of csr-scalar, "
                                             << firstDifference(got, want));
    }
  }
}

BOOST_AUTO_TEST_CASE_TEMPLATE(brcp_atomic_is_deterministic_outside_fast_mode, Cfg, test::AllConfigs) {
  using Value = ValueOf<Cfg>;
  using Device = typename Cfg::device_type;
  using K = test::ModeKernels<typename Cfg::execution_space, Value, typename Cfg::ordinal_type, typename Cfg::size_type>;
  const io::HostMatrix host = test::powerLawWithLongRow();
  K kernels(host, {"brcp", "brcp-atomic"});
  const auto x = test::randomVector<Value>(host.numCols, 1);
  const auto y0 = test::randomVector<Value>(host.numRows, 2);
  const auto want = test::runOnce<Value, Device>(kernels.all[0].second, x, y0, Value(2), Value(-1), Mode::Deterministic);
  BOOST_TEST(sameBits(test::runOnce<Value, Device>(kernels.all[1].second, x, y0, Value(2), Value(-1), Mode::Deterministic),
                      want));
}

// On a CPU, Fast mode of COO, HYB and BRC walks the rows as Deterministic mode does instead of
// scattering with atomic additions, which cost more there (Impl::fastModeScattersAtomically):
// their Fast bits are their Deterministic bits, at any thread count. On a GPU Fast mode keeps
// its atomics, and only the error bound above holds.
BOOST_AUTO_TEST_CASE_TEMPLATE(fast_mode_walks_rows_on_a_cpu, Cfg, test::AllConfigs) {
  using Value = ValueOf<Cfg>;
  using Device = typename Cfg::device_type;
  using Exec = typename Cfg::execution_space;
  using K = test::ModeKernels<Exec, Value, typename Cfg::ordinal_type, typename Cfg::size_type>;
  if constexpr (Impl::isHostSpace<Exec>()) {
    for (const io::HostMatrix& host : {test::powerLawWithLongRow(), test::randomMatrix(3000, 2500, 0, 60, 11)}) {
      K kernels(host, {"coo", "hyb", "brc"});
      BOOST_TEST_REQUIRE(kernels.all.size() == 3u);
      const auto x = test::randomVector<Value>(host.numCols, 3);
      const auto y0 = test::randomVector<Value>(host.numRows, 4);
      for (const auto& [kernel, run] : kernels.all) {
        const auto want = test::runOnce<Value, Device>(run, x, y0, Value(1.5), Value(-0.25), Mode::Deterministic);
        const auto got = test::runOnce<Value, Device>(run, x, y0, Value(1.5), Value(-0.25), Mode::Fast);
        BOOST_TEST(sameBits(got, want), kernel << " fast: not its deterministic bits, " << firstDifference(got, want));
      }
    }
  }
}

namespace {

/// The Accurate mode's first pass alone (Impl::ExpansionRowSum), row by row on the host,
/// against MPFR: returns how many rows it decided; every decided row must be MPFR's bits.
template <class Value>
std::int64_t checkExpansionRows(const std::string& name, const io::HostMatrix& host, const std::vector<Value>& x,
                                const std::vector<Value>& y0, Value alpha, Value beta) {
  const std::vector<Value> want = test::mpfrSpmv<Value>(host, x, alpha, beta, y0);
  std::vector<std::vector<std::int64_t>> rows(host.numRows);
  for (std::int64_t k = 0; k < host.nnz(); ++k) rows[host.row[k]].push_back(k);
  Kokkos::View<Value*, Kokkos::HostSpace> y("y", host.numRows);
  std::int64_t decided = 0;
  for (std::int64_t i = 0; i < host.numRows; ++i) {
    y(i) = y0[i];
    Impl::ExpansionRowSum<Value> acc;
    for (const std::int64_t k : rows[i]) acc.add(static_cast<Value>(host.value[k]), x[host.col[k]]);
    acc.store(y, i, alpha, beta);
    if (std::isnan(y(i))) continue;  // undecided: the exact pass computes it
    ++decided;
    BOOST_TEST(std::memcmp(&y(i), &want[i], sizeof(Value)) == 0,
               name << " row " << i << " alpha=" << alpha << " beta=" << beta << ": the expansion stored " << y(i)
                    << ", the correctly rounded value is " << want[i]);
  }
  return decided;
}

}  // namespace

/// The expansion decides ordinary rows (so Accurate mode rarely needs the exact pass) and is
/// never wrong when it decides; on the badly conditioned matrix it must give up on some rows,
/// which the kernel tests above then see computed exactly.
BOOST_AUTO_TEST_CASE_TEMPLATE(accurate_expansion_decides_ordinary_rows_correctly, Value, ValueTypes) {
  const std::pair<Value, Value> scalings[] = {{Value(1), Value(0)}, {Value(-0.75), Value(0.5)}, {Value(3), Value(0)}};
  for (const auto& m : test::realMatrices()) {
    if (m.matrix.nnz() > kAccurateAllKernelsMaxNnz) continue;
    const auto x = test::randomVector<Value>(m.matrix.numCols, 1234);
    const auto y0 = test::randomVector<Value>(m.matrix.numRows, 5678);
    for (const auto& [alpha, beta] : scalings) {
      const std::int64_t decided = checkExpansionRows<Value>(m.name, m.matrix, x, y0, alpha, beta);
      BOOST_TEST(decided >= m.matrix.numRows * 99 / 100,
                 m.name << ": the expansion decided only " << decided << " of " << m.matrix.numRows << " rows");
    }
  }
  const io::HostMatrix bad = badlyConditioned();
  const auto x = spreadVector<Value>(bad.numCols, 3);
  const auto y0 = spreadVector<Value>(bad.numRows, 4);
  std::int64_t undecided = 0;
  for (const auto& [alpha, beta] : scalings) {
    const std::int64_t decided = checkExpansionRows<Value>("badly_conditioned", bad, x, y0, alpha, beta);
    BOOST_TEST_MESSAGE("badly_conditioned: the expansion decided " << decided << " of " << bad.numRows << " rows");
    undecided += bad.numRows - decided;
  }
  const io::HostMatrix near = nearTies();
  const std::vector<Value> ones(near.numCols, Value(1)), zeros(near.numRows, Value(0));
  const std::int64_t decided = checkExpansionRows<Value>("near_ties", near, ones, zeros, Value(1), Value(0));
  undecided += near.numRows - decided;
  // Otherwise the exact pass would go untested by accurate_equals_mpfr_on_generated_matrices.
  BOOST_TEST(undecided > 0, "the expansion decided every badly conditioned row");
}

namespace {

/// Counts the allocations Kokkos reports (its allocation callback) while the counter lives, in
/// every memory space, labelled or not, keeping their labels for the message.
class AllocationCounter {
 public:
  AllocationCounter() {
    labels().clear();
    Kokkos::Tools::Experimental::set_allocate_data_callback(&onAllocate);
  }
  ~AllocationCounter() { Kokkos::Tools::Experimental::set_allocate_data_callback(nullptr); }
  AllocationCounter(const AllocationCounter&) = delete;
  AllocationCounter& operator=(const AllocationCounter&) = delete;

  std::int64_t count() const { return static_cast<std::int64_t>(labels().size()); }
  std::string what() const {
    std::string text;
    for (const std::string& label : labels()) text += (text.empty() ? "" : ", ") + label;
    return text.empty() ? "none" : text;
  }

 private:
  static std::vector<std::string>& labels() {
    static std::vector<std::string> seen;
    return seen;
  }
  static void onAllocate(const Kokkos::Tools::SpaceHandle, const char* label, const void*, const std::uint64_t) {
    labels().emplace_back(label);
  }
};

/// y = alpha*A*x + beta*y0 in csr-scalar's order, on the host: each row's entries by increasing
/// column (ties in storage order), each product rounded on its own, summed in the blocked CSR
/// order (support/blocked_csr_order.hpp).
template <class Value>
std::vector<Value> csrOrderSpmv(const io::HostMatrix& A, const std::vector<Value>& x, Value alpha, Value beta,
                                const std::vector<Value>& y0) {
  std::vector<std::int64_t> order(A.nnz());
  for (std::int64_t k = 0; k < A.nnz(); ++k) order[k] = k;
  std::stable_sort(order.begin(), order.end(), [&](std::int64_t p, std::int64_t q) {
    return std::tie(A.row[p], A.col[p]) < std::tie(A.row[q], A.col[q]);
  });
  std::vector<std::vector<Value>> products(A.numRows);
  for (const std::int64_t k : order) products[A.row[k]].push_back(static_cast<Value>(A.value[k]) * x[A.col[k]]);
  std::vector<Value> y(A.numRows);
  for (std::int64_t i = 0; i < A.numRows; ++i) {
    const Value sum = test::blockedCsrOrder(products[i]);
    y[i] = beta == Value(0) ? alpha * sum : std::fma(alpha, sum, beta * y0[i]);
  }
  return y;
}

}  // namespace

/// An operator makes what its products would otherwise make on every call once, when it is
/// built: BRCP, SC-CSR and CSC in Accurate mode run on the operator's CSR matrix, CSC in
/// Deterministic mode on the row order built with the format. Applied again and
/// again, the operator allocates no more than csr-scalar's operator does in the same mode
/// (nothing when beta is 0), where the product on the bare matrix converts or sorts on each call;
/// and every product, either way, gives MPFR's bits (Accurate) or those of the CSR order walked
/// on the host (Deterministic).
BOOST_AUTO_TEST_CASE_TEMPLATE(operators_prepare_their_products_once, Cfg, test::AllConfigs) {
  using Value = ValueOf<Cfg>;
  using Exec = typename Cfg::execution_space;
  using Device = typename Cfg::device_type;
  using Ordinal = typename Cfg::ordinal_type;
  using Offset = typename Cfg::size_type;
  using Csr = CsrMatrix<Value, Ordinal, Offset, Device>;
  using Operator = SpmvOperator<Value, Ordinal, Offset, Exec>;
  using Vector = Kokkos::View<Value*, Device>;
  constexpr int kApplies = 3;
  const io::HostMatrix host = test::powerLawWithLongRow();  // BRCP splits its long row over blocks
  Exec exec;
  const Csr csr = csrFromCoo(exec, cooFromHost<CooMatrix<Value, Ordinal, Offset, Device>>(host));
  const std::vector<Value> x = test::randomVector<Value>(host.numCols, 1234);
  const std::vector<Value> y0 = test::randomVector<Value>(host.numRows, 5678);
  const Vector xd("x", x.size()), yd("y", y0.size());
  const auto ym = Kokkos::create_mirror_view(yd);
  {
    const auto xm = Kokkos::create_mirror_view(xd);
    for (std::size_t j = 0; j < x.size(); ++j) xm(j) = x[j];
    Kokkos::deep_copy(xd, xm);
  }
  FormatOptions force;
  force.force = true;

  // One product into yd, back on the host: y starts as NaN when beta is 0 (an unwritten row
  // shows), as y0 otherwise. Nothing here allocates through Kokkos but the product.
  const auto run = [&](const auto& product, Value alpha, Value beta) {
    for (std::size_t i = 0; i < y0.size(); ++i) {
      ym(i) = beta == Value(0) ? std::numeric_limits<Value>::quiet_NaN() : y0[i];
    }
    Kokkos::deep_copy(yd, ym);
    product(alpha, beta);
    exec.fence();
    Kokkos::deep_copy(ym, yd);
    return std::vector<Value>(ym.data(), ym.data() + ym.extent(0));
  };
  const auto bare = [&](const std::string& kernel, Mode mode, Value alpha, Value beta) {
    SpmvOptions options;
    options.mode = mode;
    const auto onBare = [&](const auto& A) {
      const Vector work("work", spmvWorkspaceValues(exec, A, options));
      AllocationCounter counter;
      auto got = run([&](Value a, Value b) { spmv(exec, A, xd, yd, a, b, options, work); }, alpha, beta);
      BOOST_TEST(counter.count() > 0,
                 kernel << " " << toString(mode) << ": the bare matrix's product allocated nothing");
      return got;
    };
    if (kernel == "brcp") return onBare(brcpFromCsr(exec, csr, force));
    if (kernel == "sc-csr") return onBare(scCsrFromCsr(exec, csr, force));
    return onBare(cscFromCsr(exec, csr));
  };

  const std::pair<Value, Value> scalings[] = {{Value(1), Value(0)}, {Value(-0.75), Value(0.5)}};
  const std::pair<std::string, Mode> cases[] = {
      {"brcp", Mode::Accurate}, {"sc-csr", Mode::Accurate}, {"csc", Mode::Deterministic}, {"csc", Mode::Accurate}};
  for (const auto& [alpha, beta] : scalings) {
    const std::vector<Value> accurate = test::mpfrSpmv<Value>(host, x, alpha, beta, y0);
    const std::vector<Value> deterministic = csrOrderSpmv<Value>(host, x, alpha, beta, y0);
    for (const auto& [kernel, mode] : cases) {
      const std::string what = kernel + " " + toString(mode) + " alpha=" + std::to_string(alpha) +
                               " beta=" + std::to_string(beta);
      const std::vector<Value>& want = mode == Mode::Accurate ? accurate : deterministic;
      OperatorOptions options;
      options.kernel = parseKernel(kernel);
      options.mode = mode;
      options.format = force;
      const Operator op(exec, csr, options);
      options.kernel = Kernel::CsrScalar;
      const Operator baseline(exec, csr, options);
      const auto apply = [&](const Operator& o) { return [&](Value a, Value b) { o.apply(exec, xd, yd, a, b); }; };
      // The first apply takes the operator's workspace and Kokkos' reduction buffers.
      run(apply(op), alpha, beta);
      run(apply(baseline), alpha, beta);

      std::int64_t allocations = 0;
      std::string allocated;
      {
        AllocationCounter counter;
        for (int r = 0; r < kApplies; ++r) {
          const std::vector<Value> got = run(apply(op), alpha, beta);
          BOOST_TEST(sameBits(got, want), what << ", apply " << r << ": " << firstDifference(got, want));
        }
        allocations = counter.count();
        allocated = counter.what();
      }
      if (beta == Value(0)) {
        BOOST_TEST(allocations == 0, what << ": " << kApplies << " applies allocated " << allocated);
      }
      {
        AllocationCounter counter;
        for (int r = 0; r < kApplies; ++r) run(apply(baseline), alpha, beta);
        BOOST_TEST(allocations <= counter.count(), what << ": " << kApplies << " applies allocated " << allocated
                                                        << "; csr-scalar's " << counter.what());
      }

      const std::vector<Value> got = bare(kernel, mode, alpha, beta);
      BOOST_TEST(sameBits(got, want), what << ", bare matrix: " << firstDifference(got, want));
    }
  }
}

namespace {

/// Rows long enough to cross many of csr-merge's teams and more than one level of its tree
/// (a team covers 2,048 or 4,096 items of the path, a level group 128 teams): row 1 holds
/// `longRow` entries, row 4 a third as many, between empty and short rows. With `spread`, the
/// values span 2^-40 to 2^40 in both signs, so some rows cancel far below their largest terms.
std::vector<std::int64_t> rowLengthsOf(const io::HostMatrix& host) {
  std::vector<std::int64_t> length(host.numRows, 0);
  for (const std::int64_t r : host.row) ++length[r];
  return length;
}

io::HostMatrix longRowsAcrossTeams(std::int64_t longRow, bool spread, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> uniform(-1.0, 1.0), mantissa(1.0, 2.0);
  std::uniform_int_distribution<int> exponent(-40, 40), shortLength(0, 12);
  const std::int64_t rows = 3000, cols = longRow + 17;
  const auto value = [&](std::int64_t k) {
    return spread ? std::ldexp(mantissa(rng), exponent(rng)) * (k % 2 ? -1.0 : 1.0) : uniform(rng);
  };
  std::vector<std::tuple<std::int64_t, std::int64_t, double>> entries;
  for (std::int64_t i = 0; i < rows; ++i) {
    const std::int64_t length = i == 1 ? longRow : i == 4 ? longRow / 3 : i % 7 == 2 ? 0 : shortLength(rng);
    const std::int64_t stride = i == 1 || i == 4 ? 1 : cols / 13;
    for (std::int64_t k = 0; k < length; ++k) entries.emplace_back(i, (i + k * stride) % cols, value(k));
  }
  std::sort(entries.begin(), entries.end());
  return test::fromTriplets(rows, cols, std::move(entries));
}

}  // namespace

/// Accurate mode on CSR cuts each row of more than kAccurateLanesLongestRow entries into chunks
/// that whole teams sum as expansions, and joins the chunks' expansions (csr_long_rows.hpp).
/// The list of long rows must be the host's; the first pass alone (the lanes kernel and the
/// chunks) must decide the ordinary long rows, each to MPFR's bits, since the exact pass would
/// otherwise walk them row by row; and the whole Accurate product, exact pass included where
/// the spread values leave rows undecided, gives MPFR's bits.
BOOST_AUTO_TEST_CASE_TEMPLATE(accurate_mode_sums_long_rows_in_chunks, Cfg, test::AllConfigs) {
  using Value = ValueOf<Cfg>;
  using Exec = typename Cfg::execution_space;
  using Device = typename Cfg::device_type;
  using Csr = CsrMatrix<Value, typename Cfg::ordinal_type, typename Cfg::size_type, Device>;
  using Vector = Kokkos::View<Value*, Device>;
  if constexpr (!std::is_same_v<typename Cfg::size_type, std::int32_t>) return;  // one index width is enough
  const std::pair<Value, Value> scalings[] = {{Value(1), Value(0)}, {Value(-0.75), Value(0.5)}};
  for (const bool spread : {false, true}) {
    const io::HostMatrix host = longRowsAcrossTeams(600000, spread, spread ? 71 : 72);
    const std::string name = spread ? "long_rows_spread" : "long_rows";
    const auto x = spread ? spreadVector<Value>(host.numCols, 5) : test::randomVector<Value>(host.numCols, 6);
    const auto y0 = test::randomVector<Value>(host.numRows, 7);
    checkAccurate<Exec, Value>(name, host, x, y0, {"csr-merge", "coo"});
    if (spread) continue;

    Exec exec;
    const Csr csr = csrFromCoo(exec, cooFromHost<CooMatrix<Value, typename Cfg::ordinal_type,
                                                           typename Cfg::size_type, Device>>(host));
    const auto state = Impl::csrAccurateState(exec, csr);
    const std::vector<std::int64_t> length = rowLengthsOf(host);
    std::vector<std::int64_t> longRows;
    std::int64_t chunks = 0;
    for (std::int64_t i = 0; i < host.numRows; ++i) {
      if (length[i] <= Impl::kAccurateLanesLongestRow) continue;
      longRows.push_back(i);
      chunks += (length[i] + Impl::kAccurateChunkEntries - 1) / Impl::kAccurateChunkEntries;
    }
    BOOST_TEST(state.longestRow == 600000);
    BOOST_TEST(state.longRows.count == static_cast<std::int64_t>(longRows.size()));
    BOOST_TEST(state.longRows.pieces == chunks);
    if (state.longRows.count == static_cast<std::int64_t>(longRows.size())) {
      const auto listed = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), state.longRows.rows);
      for (std::size_t r = 0; r < longRows.size(); ++r) BOOST_TEST(static_cast<std::int64_t>(listed(r)) == longRows[r]);
    }
    const Vector work("work", state.workspaceValues());
    for (const auto& [alpha, beta] : scalings) {
      const std::vector<Value> want = test::mpfrSpmv<Value>(host, x, alpha, beta, y0);
      const auto pass = [&](const Vector& xd, const Vector& yd, Value a, Value b, Mode) {
        Impl::csrAccurateLanesPass(exec, csr, xd, yd, a, b);
        Impl::csrLongRowsPass(exec, csr, state.longRows, xd, yd, a, b, work);
      };
      const std::vector<Value> got = test::runOnce<Value, Device>(pass, x, y0, alpha, beta, Mode::Accurate);
      for (const std::int64_t row : {1, 4}) {
        BOOST_TEST(!std::isnan(got[row]), name << " row " << row << " alpha=" << alpha
                                               << ": the expansion pass left the long row undecided");
      }
      std::int64_t decided = 0;
      for (std::int64_t i = 0; i < host.numRows; ++i) {
        if (std::isnan(got[i])) continue;
        ++decided;
        BOOST_TEST(std::memcmp(&got[i], &want[i], sizeof(Value)) == 0,
                   name << " row " << i << " alpha=" << alpha << ": the expansion pass stored " << got[i]
                        << ", the correctly rounded value is " << want[i]);
      }
      BOOST_TEST(decided >= host.numRows * 99 / 100, name << ": the expansion pass decided only " << decided
                                                           << " of " << host.numRows << " rows");
    }
  }
}

namespace {

std::int64_t longestRowOf(const io::HostMatrix& host) {
  const std::vector<std::int64_t> length = rowLengthsOf(host);
  return length.empty() ? 0 : *std::max_element(length.begin(), length.end());
}

}  // namespace

/// Accurate mode on CSR runs the row kernel on rows of at most kAccurateRowKernelLongestRow
/// entries; past that the lanes kernel where rows average 8 entries or more and spread no more
/// than their mean, and the bins kernel otherwise, each with chunks for rows past
/// kAccurateLanesLongestRow (formats/csr/csr_accurate.hpp). The MPFR checks above must reach all
/// of them; the bins must hold each row of at most kAccurateLanesLongestRow entries once, in the
/// bin of its own length, ascending; and an operator must hold the chunks' workspace exactly
/// where they run, whatever its kernel.
BOOST_AUTO_TEST_CASE_TEMPLATE(accurate_mode_picks_its_csr_kernel_by_the_rows, Cfg, test::AllConfigs) {
  using Value = ValueOf<Cfg>;
  using Exec = typename Cfg::execution_space;
  using Device = typename Cfg::device_type;
  using Ordinal = typename Cfg::ordinal_type;
  using Offset = typename Cfg::size_type;
  using Csr = CsrMatrix<Value, Ordinal, Offset, Device>;
  using Kind = Impl::AccurateCsrKernel;
  for (std::int64_t length = 0; length <= Impl::kAccurateLanesLongestRow; ++length) {
    BOOST_TEST((1 << Impl::accurateLaneBin(length)) == Impl::accurateLanesPerRow(static_cast<double>(length)),
               "row of " << length);
  }
  BOOST_TEST(Impl::accurateLaneBin(Impl::kAccurateLanesLongestRow + 1) == Impl::kAccurateLaneBins);
  int rowKernelCases = 0, lanesCases = 0, binsCases = 0, longRowCases = 0;
  for (const auto& c : test::formatCases()) {
    const std::vector<std::int64_t> length = rowLengthsOf(c.matrix);
    const std::int64_t longest = longestRowOf(c.matrix);
    const double rows = static_cast<double>(c.matrix.numRows);
    double mean = 0, squares = 0;
    for (const std::int64_t l : length) {
      mean += static_cast<double>(l) / rows;
      squares += static_cast<double>(l) * static_cast<double>(l) / rows;
    }
    const double spread = std::sqrt(std::max(0.0, squares - mean * mean));
    Exec exec;
    const Csr csr = csrFromCoo(exec, cooFromHost<CooMatrix<Value, Ordinal, Offset, Device>>(c.matrix));
    const auto state = Impl::csrAccurateState(exec, csr);
    BOOST_TEST(state.longestRow == longest, c.name);
    const Kind kind = longest <= 8 ? Kind::Rows : mean >= 8 && spread <= mean ? Kind::Lanes : Kind::Bins;
    BOOST_TEST((state.kernel == kind),
               c.name << ": mean row length " << mean << ", spread " << spread << ", longest row " << longest);
    const bool longRows = kind != Kind::Rows && longest > Impl::kAccurateLanesLongestRow;
    ++(kind == Kind::Rows ? rowKernelCases : kind == Kind::Lanes ? lanesCases : binsCases);
    if (longRows) ++longRowCases;
    BOOST_TEST((state.longRows.count > 0) == longRows, c.name);
    if (kind == Kind::Bins && state.kernel == Kind::Bins) {
      const auto listed = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), state.bins.rows);
      for (int b = 0; b < Impl::kAccurateLaneBins; ++b) {
        std::vector<std::int64_t> want, got;
        for (std::int64_t i = 0; i < c.matrix.numRows; ++i) {
          if (length[i] <= Impl::kAccurateLanesLongestRow &&
              Impl::accurateLanesPerRow(static_cast<double>(length[i])) == (1 << b)) {
            want.push_back(i);
          }
        }
        for (std::int64_t k = state.bins.begin[b]; k < state.bins.begin[b + 1]; ++k) got.push_back(listed(k));
        BOOST_TEST(got == want, c.name << ": the rows of bin " << b);
      }
    }
    const std::int64_t needed = longRows ? Impl::csrLongRowsWorkspaceValues<Value>(state.longRows.pieces) : 0;
    BOOST_TEST(state.workspaceValues() == needed, c.name);
    const std::int64_t neededBytes = needed * static_cast<std::int64_t>(sizeof(Value));
    // BRC keeps workspace of its own in the other modes; COO and CSC keep some on a GPU for
    // Deterministic mode's rows apart (detail/rows_in_order.hpp), as their row walk plans it.
    const auto rowWalkValues = [&](const std::string& name) -> std::int64_t {
      if (name == "coo") {
        const auto coo = cooFromCsr(exec, csr);
        return Impl::Spmv<Exec, std::decay_t<decltype(coo)>>::prepare(exec, coo, csr, Mode::Deterministic)
            .workspaceValues();
      }
      if (name == "csc") {
        const auto csc = cscFromCsr(exec, csr);
        return Impl::Spmv<Exec, std::decay_t<decltype(csc)>>::groupByRow(exec, csc, "test::csc").walk.workspaceValues();
      }
      return 0;
    };
    for (const char* name : {"csr-scalar", "csr-vector", "coo", "csc", "sc-csr", "brc", "vab"}) {
      OperatorOptions options;
      options.kernel = parseKernel(name);
      options.format = FormatOptions{kDefaultMaxPaddingRatio, true};  // SC-CSR pads the tiny cases
      const SpmvOperator<Value, Ordinal, Offset, Exec> op(exec, csr, options);
      const std::int64_t walkBytes = rowWalkValues(name) * static_cast<std::int64_t>(sizeof(Value));
      if (needed > 0) {
        BOOST_TEST(op.workspaceBytes() >= neededBytes, c.name << " " << name << ": no workspace for Accurate mode");
      } else if (std::string(name) != "brc") {
        BOOST_TEST(op.workspaceBytes() == walkBytes, c.name << " " << name << ": " << op.workspaceBytes()
                                                            << " bytes of workspace, expected " << walkBytes
                                                            << " (the row walk's)");
      }
    }
  }
  BOOST_TEST(rowKernelCases > 0);
  BOOST_TEST(lanesCases > 0);
  BOOST_TEST(binsCases > 0);
  BOOST_TEST(longRowCases > 0);
}
