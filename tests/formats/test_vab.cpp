// VAB: the round trip to CSR and the SpMV on every real matrix and every format case, the
// layout of hand-made matrices written out slot by slot (one group of blocks, then two), the
// padding refusal and its override, and the one-kernel product's bits against VAB's order
// computed on the host, with team runs so short that most rows cross them.
#define BOOST_TEST_MODULE vab
#include <boost/test/unit_test.hpp>

#include "support/device_vectors.hpp"
#include "support/format_check.hpp"
#include "support/format_fixture.hpp"
#include "support/generated.hpp"
#include "support/kokkos_env.hpp"
#include "support/real_matrices.hpp"
#include "support/spmv_check.hpp"

#include <araios/araios.hpp>
#include <araios/formats/vab/vab_convert.hpp>
#include <araios/formats/vab/vab_spmv.hpp>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <ios>
#include <limits>
#include <random>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

using araios::test::KokkosFixture;
BOOST_TEST_GLOBAL_FIXTURE(KokkosFixture);

namespace {

using namespace araios;
using test::hostDoubles;
using test::hostInts;

template <class Cfg>
using Types = test::FormatTypes<Cfg, VabMatrix>;

/// rowBlockPtr against ceil(length / 4) per row, and the block and slot counts.
template <class Vab>
void checkLayout(const std::string& label, const Vab& vab, const std::vector<std::int64_t>& csrRowPtr) {
  std::vector<std::int64_t> expected{0};
  for (std::size_t row = 0; row + 1 < csrRowPtr.size(); ++row)
    expected.push_back(expected.back() + (csrRowPtr[row + 1] - csrRowPtr[row] + 3) / 4);
  BOOST_TEST_CONTEXT(label) {
    BOOST_TEST(hostInts(vab.rowBlockPtr) == expected, boost::test_tools::per_element());
    BOOST_TEST(vab.numBlocks == expected.back());
    BOOST_TEST(vab.storedSlots() == 4 * expected.back());
    BOOST_TEST(static_cast<std::int64_t>(vab.values.extent(0)) == (expected.back() + 31) / 32 * 128);
  }
}

template <class Cfg>
void checkMatrix(const std::string& name, const io::HostMatrix& host, bool repeatability) {
  using T = Types<Cfg>;
  typename T::Exec exec;
  const auto csr = csrFromHost<typename T::Csr>(host);
  const auto vab = test::buildChecked(
      name, exec, csr, [](const auto& e, const auto& m) { return vabFromCsr(e, m); },
      [](const auto& e, const auto& m) { return csrFromVab(e, m); });
  if (!vab) {
    BOOST_TEST_MESSAGE(name << ": refused for its padding");
    return;
  }
  checkLayout(name, *vab, hostInts(csr.rowPtr));
  auto run = [&](const auto& x, const auto& y, typename T::Value a, typename T::Value b) {
    spmv(exec, *vab, x, y, a, b);
  };
  test::checkSpmvAgainstReference<typename T::Value, typename T::Device>(name, host, run);
  // checkRepeatable memcmp()s the data of empty vectors, a null pointer, which UBSan rejects:
  // a matrix without rows has nothing to repeat anyway.
  if (repeatability && host.numRows > 0) {
    test::checkRepeatable<typename T::Value, typename T::Device>(name, host, run, 3);
  }
}

template <class Cfg>
typename Types<Cfg>::Matrix buildVab(const io::HostMatrix& host, const FormatOptions& options = {}) {
  using T = Types<Cfg>;
  typename T::Exec exec;
  auto vab = vabFromCsr(exec, csrFromHost<typename T::Csr>(host), options);
  exec.fence();
  return vab;
}

template <class Cfg>
void checkSpmv(const std::string& label, const io::HostMatrix& host, const typename Types<Cfg>::Matrix& vab) {
  using T = Types<Cfg>;
  typename T::Exec exec;
  test::checkSpmvAgainstReference<typename T::Value, typename T::Device>(
      label, host, [&](const auto& x, const auto& y, typename T::Value a, typename T::Value b) {
        spmv(exec, vab, x, y, a, b);
      });
}

/// y = alpha*A*x + beta*y0 in VAB's order on the host: each block of 4 of a row's entries (CSR
/// order) summed from -0.0, then the block sums from -0.0, every product and sum rounded in Value.
template <class Value>
std::vector<Value> vabOrderReference(const io::HostMatrix& host, const std::vector<Value>& x,
                                     const std::vector<Value>& y0, Value alpha, Value beta) {
  std::vector<Value> y(static_cast<std::size_t>(host.numRows));
  std::size_t e = 0;
  for (std::int64_t r = 0; r < host.numRows; ++r) {
    Value sum = -Value(0);
    while (e < host.row.size() && host.row[e] == r) {
      Value block = -Value(0);
      for (int k = 0; k < 4 && e < host.row.size() && host.row[e] == r; ++k, ++e) {
        const Value product = static_cast<Value>(host.value[e]) * x[static_cast<std::size_t>(host.col[e])];
        block = block + product;
      }
      sum = sum + block;
    }
    y[r] = beta == Value(0) ? alpha * sum : std::fma(alpha, sum, beta * y0[r]);
  }
  return y;
}

/// Rows of every kind a run of blocks can cut: empty ones (also in runs and at the end), short
/// ones, rows of tens to hundreds of entries, and one of 5,000 that crosses many runs.
io::HostMatrix rowsAcrossRuns(std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  const std::int64_t rows = 1500, cols = 7000;
  std::vector<std::tuple<std::int64_t, std::int64_t, double>> entries;
  std::uniform_real_distribution<double> value(-1.0, 1.0);
  std::uniform_int_distribution<std::int64_t> column(0, cols - 1);
  for (std::int64_t r = 0; r < rows - 7; ++r) {
    const double pick = std::uniform_real_distribution<double>(0, 1)(rng);
    std::int64_t length = pick < 0.15   ? 0
                          : pick < 0.5  ? std::uniform_int_distribution<std::int64_t>(1, 4)(rng)
                          : pick < 0.8  ? std::uniform_int_distribution<std::int64_t>(5, 16)(rng)
                          : pick < 0.95 ? std::uniform_int_distribution<std::int64_t>(17, 64)(rng)
                                        : std::uniform_int_distribution<std::int64_t>(65, 600)(rng);
    if (r == 700) length = 5000;
    std::vector<std::int64_t> picked;
    for (std::int64_t k = 0; k < length; ++k) picked.push_back(column(rng));
    std::sort(picked.begin(), picked.end());
    picked.erase(std::unique(picked.begin(), picked.end()), picked.end());
    for (const std::int64_t c : picked) entries.emplace_back(r, c, value(rng));
  }
  return test::fromTriplets(rows, cols, std::move(entries));  // the last 7 rows are empty
}

template <class Value>
bool sameBits(Value a, Value b) {
  return std::memcmp(&a, &b, sizeof(Value)) == 0;
}

/// Slots 0..127 of a group: the line of element k holds blocks 0..31 at slots 32k..32k+31.
std::vector<std::int64_t> groupLines(const std::vector<std::vector<std::int64_t>>& lines, std::int64_t fill) {
  std::vector<std::int64_t> out(128, fill);
  for (std::size_t k = 0; k < lines.size(); ++k)
    for (std::size_t b = 0; b < lines[k].size(); ++b) out[32 * k + b] = lines[k][b];
  return out;
}

}  // namespace

BOOST_AUTO_TEST_CASE_TEMPLATE(real_matrices, Cfg, test::AllConfigs) {
  for (const auto& m : test::realMatrices()) checkMatrix<Cfg>(m.name, m.matrix, false);
}

BOOST_AUTO_TEST_CASE_TEMPLATE(format_cases, Cfg, test::AllConfigs) {
  for (const auto& c : test::formatCases()) checkMatrix<Cfg>(c.name, c.matrix, true);
}

BOOST_AUTO_TEST_CASE_TEMPLATE(layout_of_one_group, Cfg, test::AllConfigs) {
  // Rows of 5, 0, 4, 1 and 9 entries; entry j of row i at column i + j, value 10 i + j + 1.
  std::vector<std::tuple<std::int64_t, std::int64_t, double>> entries;
  const std::int64_t lengths[] = {5, 0, 4, 1, 9};
  for (std::int64_t i = 0; i < 5; ++i)
    for (std::int64_t j = 0; j < lengths[i]; ++j) entries.emplace_back(i, i + j, 10.0 * i + j + 1);
  const io::HostMatrix host = test::fromTriplets(5, 16, std::move(entries));
  const auto vab = buildVab<Cfg>(host);

  // Blocks: 0-1 row 0, none for row 1, 2 row 2, 3 row 3, 4-6 row 4.
  BOOST_TEST(hostInts(vab.rowBlockPtr) == std::vector<std::int64_t>({0, 2, 2, 3, 4, 7}),
             boost::test_tools::per_element());
  BOOST_TEST(vab.numBlocks == 7);
  BOOST_TEST(vab.nnz() == 19);
  BOOST_TEST(vab.storedSlots() == 28);
  // Columns, one line per element k; a column of these lines is one block.
  //                    block:  0   1  2   3  4  5   6
  const auto cols = groupLines({{0, 4, 2, 3, 4, 8, 12},
                                {1, -1, 3, -1, 5, 9, -1},
                                {2, -1, 4, -1, 6, 10, -1},
                                {3, -1, 5, -1, 7, 11, -1}},
                               -1);
  const auto values = groupLines({{1, 5, 21, 31, 41, 45, 49},
                                  {2, 0, 22, 0, 42, 46, 0},
                                  {3, 0, 23, 0, 43, 47, 0},
                                  {4, 0, 24, 0, 44, 48, 0}},
                                 0);
  BOOST_TEST(hostInts(vab.colIdx) == cols, boost::test_tools::per_element());
  BOOST_TEST(hostDoubles(vab.values) == std::vector<double>(values.begin(), values.end()),
             boost::test_tools::per_element());
  checkSpmv<Cfg>("one group", host, vab);
}

BOOST_AUTO_TEST_CASE_TEMPLATE(layout_of_two_groups, Cfg, test::AllConfigs) {
  // Row 0: 130 entries (columns 0..129, values 1..130), 33 blocks, the last with two entries.
  // Row 1: columns 10, 20, 30 with values 1001..1003, block 33: lane 1 of group 1.
  std::vector<std::tuple<std::int64_t, std::int64_t, double>> entries;
  for (std::int64_t j = 0; j < 130; ++j) entries.emplace_back(0, j, j + 1.0);
  for (std::int64_t j = 0; j < 3; ++j) entries.emplace_back(1, 10 * (j + 1), 1001.0 + j);
  const io::HostMatrix host = test::fromTriplets(2, 140, std::move(entries));
  const auto vab = buildVab<Cfg>(host);

  BOOST_TEST(hostInts(vab.rowBlockPtr) == std::vector<std::int64_t>({0, 33, 34}), boost::test_tools::per_element());
  BOOST_TEST(vab.numBlocks == 34);
  BOOST_TEST(vab.values.extent(0) == 256u);
  const auto cols = hostInts(vab.colIdx);
  const auto values = hostDoubles(vab.values);
  // {slot, column, value}: slot = (block / 32 * 4 + k) * 32 + block % 32.
  const std::vector<std::tuple<std::int64_t, std::int64_t, double>> expected = {
      {0, 0, 1},           // row 0 entry 0: block 0, k 0
      {1, 4, 5},           // row 0 entry 4: block 1, k 0
      {31, 124, 125},      // row 0 entry 124: block 31, k 0
      {32, 1, 2},          // row 0 entry 1: block 0, k 1
      {127, 127, 128},     // row 0 entry 127: block 31, k 3
      {128, 128, 129},     // row 0 entry 128: block 32, k 0 (group 1, lane 0)
      {160, 129, 130},     // row 0 entry 129: block 32, k 1
      {192, -1, 0},        // block 32, k 2: padding
      {224, -1, 0},        // block 32, k 3: padding
      {129, 10, 1001},     // row 1 entry 0: block 33, k 0
      {161, 20, 1002},     // row 1 entry 1: block 33, k 1
      {193, 30, 1003},     // row 1 entry 2: block 33, k 2
      {225, -1, 0},        // block 33, k 3: padding
      {130, -1, 0},        // lane 2 of group 1: no block
      {255, -1, 0},        // lane 31 of group 1, k 3: no block
  };
  for (const auto& [slot, col, value] : expected) {
    BOOST_TEST(cols[slot] == col, "slot " << slot);
    BOOST_TEST(values[slot] == value, "slot " << slot);
  }
  checkSpmv<Cfg>("two groups", host, vab);
}

BOOST_AUTO_TEST_CASE_TEMPLATE(padding_refusal_and_force, Cfg, test::AllConfigs) {
  using T = Types<Cfg>;
  typename T::Exec exec;
  // A diagonal: one entry per row, one block of four slots each.
  std::vector<std::tuple<std::int64_t, std::int64_t, double>> entries;
  for (std::int64_t i = 0; i < 50; ++i) entries.emplace_back(i, i, 1.0 + i);
  const io::HostMatrix diagonal = test::fromTriplets(50, 50, std::move(entries));
  const auto csr = csrFromHost<typename T::Csr>(diagonal);
  BOOST_CHECK_EXCEPTION(vabFromCsr(exec, csr), PaddingError, [](const PaddingError& e) {
    const std::string m = e.what();
    return e.ratio() == 4.0 && m.find("VAB") == 0 && m.find("200 slots for 50 nonzeros") != std::string::npos &&
           m.find("force") != std::string::npos;
  });
  FormatOptions roomy;
  roomy.maxPaddingRatio = 4.0;
  BOOST_CHECK_NO_THROW(vabFromCsr(exec, csr, roomy));
  FormatOptions force;
  force.force = true;
  const auto vab = buildVab<Cfg>(diagonal, force);
  BOOST_TEST(vab.storedSlots() == 200);
  checkSpmv<Cfg>("forced diagonal", diagonal, vab);
}

BOOST_AUTO_TEST_CASE(skips_padding_when_x_holds_inf) {
  // Row 0 has one entry, so its block holds three padding slots; x's Inf sits in a column
  // that only row 1 uses. Reading x through padding would turn row 0 into NaN.
  const io::HostMatrix host = test::fromTriplets(2, 2, {{0, 0, 2.0}, {1, 1, 3.0}});
  FormatOptions force;
  force.force = true;
  Kokkos::DefaultExecutionSpace exec;
  const auto vab = vabFromCsr(exec, csrFromHost<CsrMatrix<double>>(host), force);
  Kokkos::View<double*> x("x", 2), y("y", 2);
  auto xHost = Kokkos::create_mirror_view(x);
  xHost(0) = 1.5;
  xHost(1) = std::numeric_limits<double>::infinity();
  Kokkos::deep_copy(x, xHost);
  spmv(exec, vab, x, y, 1.0, 0.0);
  const auto yHost = hostDoubles(y);
  BOOST_TEST(yHost[0] == 3.0);
  BOOST_TEST(std::isinf(yHost[1]));
}

BOOST_AUTO_TEST_CASE(refuses_other_algorithms) {
  using Exec = Kokkos::DefaultExecutionSpace;
  Exec exec;
  const auto vab = vabFromCsr(exec, csrFromHost<CsrMatrix<double>>(test::randomMatrix(10, 7, 4, 6, 1)));
  Kokkos::View<double*> x("x", 7), y("y", 10);
  BOOST_CHECK_EXCEPTION(spmv(exec, vab, x, y, 1.0, 0.0, {SpmvAlgorithm::CsrVector}), UnsupportedError,
                        [](const UnsupportedError& e) {
                          return std::string(e.what()).find("VAB") != std::string::npos;
                        });
}

BOOST_AUTO_TEST_CASE_TEMPLATE(one_kernel_keeps_the_order_across_team_runs, Cfg, test::AllConfigs) {
  using T = Types<Cfg>;
  using Value = typename T::Value;
  typename T::Exec exec;
  const io::HostMatrix host = rowsAcrossRuns(2718);
  FormatOptions force;
  force.force = true;
  const auto vab = buildVab<Cfg>(host, force);
  const auto xHost = test::randomVector<Value>(host.numCols, 31);
  const auto y0 = test::randomVector<Value>(host.numRows, 47);
  const auto x = test::deviceVector<typename T::Device>(xHost, "x");
  const Value nan = std::numeric_limits<Value>::quiet_NaN();
  int crossedRuns = 0;
  for (const std::int64_t teamBlocks : {std::int64_t(1), std::int64_t(2), std::int64_t(3), std::int64_t(7),
                                        std::int64_t(32), Impl::vabTeamBlocks<typename T::Exec>()}) {
    const auto plan = Impl::vabTeamPlan(exec, vab, teamBlocks);
    const auto firstRows = hostInts(plan.teamFirstRow);
    BOOST_TEST(firstRows.size() == static_cast<std::size_t>((vab.numBlocks - 1) / teamBlocks + 2));
    for (const auto& [alpha, beta] : {std::pair<Value, Value>(1, 0), std::pair<Value, Value>(-1.5, 0.75)}) {
      const auto want = vabOrderReference<Value>(host, xHost, y0, alpha, beta);
      auto y = test::deviceVector<typename T::Device>(beta == Value(0) ? std::vector<Value>(y0.size(), nan) : y0, "y");
      Impl::vabTeamProduct(exec, vab, x, y, alpha, beta, plan, Impl::vabTeamThreads<typename T::Exec>());
      exec.fence();
      const auto got = test::hostValues(y);
      int wrong = 0;
      for (std::size_t r = 0; r < got.size(); ++r) {
        if (!sameBits(got[r], want[r]) && wrong++ < 3) {
          BOOST_ERROR("teams of " << teamBlocks << " blocks, beta " << beta << ", row " << r << ": " << std::hexfloat
                                  << got[r] << " instead of " << want[r] << std::defaultfloat);
        }
      }
      BOOST_TEST(wrong == 0, "teams of " << teamBlocks << " blocks: " << wrong << " rows differ");
    }
    // Rows that cross a run: the test must have them for every run length.
    const auto blockPtr = hostInts(vab.rowBlockPtr);
    for (std::size_t r = 0; r + 1 < blockPtr.size(); ++r) {
      if (blockPtr[r + 1] > blockPtr[r] && blockPtr[r] / teamBlocks != (blockPtr[r + 1] - 1) / teamBlocks) {
        ++crossedRuns;
        break;
      }
    }
  }
  BOOST_TEST(crossedRuns == 6);
  // The product through araios::spmv, with the plan it makes per call.
  auto y = test::deviceVector<typename T::Device>(std::vector<Value>(y0.size(), nan), "y");
  spmv(exec, vab, x, y, Value(1), Value(0));
  const auto got = test::hostValues(y);
  const auto want = vabOrderReference<Value>(host, xHost, y0, Value(1), Value(0));
  int wrong = 0;
  for (std::size_t r = 0; r < got.size(); ++r) wrong += !sameBits(got[r], want[r]);
  BOOST_TEST(wrong == 0, "araios::spmv: " << wrong << " rows differ from VAB's order");
}
