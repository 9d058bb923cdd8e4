// SELL-C-sigma: the layout (against hand-written examples and against a plain host
// construction for C = 1, 4, 32 and sigma = 1, C, numRows), the padding guard and its force
// path, the exact round trip back to CSR, and the SpMV against the long-double reference and,
// bit for bit, against the CSR scalar kernel that sums in the same order.
#define BOOST_TEST_MODULE sell
#include <boost/test/unit_test.hpp>

#include "support/format_check.hpp"
#include "support/format_fixture.hpp"
#include "support/generated.hpp"
#include "support/kokkos_env.hpp"
#include "support/real_matrices.hpp"
#include "support/spmv_check.hpp"

#include <araios/araios.hpp>
#include <araios/formats/sell/sell_convert.hpp>
#include <araios/formats/sell/sell_spmv.hpp>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <numeric>
#include <vector>

using araios::test::KokkosFixture;
BOOST_TEST_GLOBAL_FIXTURE(KokkosFixture);

namespace {

using namespace araios;
using test::hostInts;
using test::hostValues;

template <class T>
bool sameBits(const std::vector<T>& a, const std::vector<T>& b) {
  return a.size() == b.size() && (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0);
}

template <class Cfg>
using Types = test::FormatTypes<Cfg, SellMatrix>;

std::string describe(const SellOptions& o) {
  return "SELL-" + std::to_string(o.sliceHeight) + "-" + std::to_string(o.sortWindow);
}

/// The SELL arrays built the plain way on the host, from the definition.
template <class Value>
struct HostSell {
  std::vector<std::int64_t> slicePtr, perm, colIdx;
  std::vector<Value> values;
};

template <class Csr>
HostSell<typename Csr::value_type> hostSell(const Csr& csr, const SellOptions& o) {
  const auto rowPtr = hostInts(csr.rowPtr);
  const auto col = hostInts(csr.colIdx);
  const auto val = hostValues(csr.values);
  const std::int64_t n = csr.numRows, C = o.sliceHeight;
  auto length = [&](std::int64_t r) { return rowPtr[r + 1] - rowPtr[r]; };
  HostSell<typename Csr::value_type> out;
  out.perm.resize(n);
  std::iota(out.perm.begin(), out.perm.end(), std::int64_t{0});
  for (std::int64_t w = 0; w < n; w += std::min(o.sortWindow, n)) {
    std::stable_sort(out.perm.begin() + w, out.perm.begin() + std::min(n, w + std::min(o.sortWindow, n)),
                     [&](auto a, auto b) { return length(a) > length(b); });
  }
  out.slicePtr.push_back(0);
  for (std::int64_t first = 0; first < n; first += C) {
    std::int64_t width = 0;
    for (std::int64_t p = first; p < std::min(n, first + C); ++p) width = std::max(width, length(out.perm[p]));
    for (std::int64_t t = 0; t < width; ++t) {
      for (std::int64_t p = first; p < first + C; ++p) {
        const bool real = p < n && t < length(out.perm[p]);
        out.colIdx.push_back(real ? col[rowPtr[out.perm[p]] + t] : -1);
        out.values.push_back(real ? val[rowPtr[out.perm[p]] + t] : 0);
      }
    }
    out.slicePtr.push_back(static_cast<std::int64_t>(out.colIdx.size()));
  }
  return out;
}

template <class Sell, class Value>
void checkLayout(const std::string& label, const Sell& sell, const HostSell<Value>& expected, std::int64_t nnz) {
  BOOST_TEST(hostInts(sell.slicePtr) == expected.slicePtr, label << ": slicePtr");
  BOOST_TEST(hostInts(sell.perm) == expected.perm, label << ": perm");
  BOOST_TEST(hostInts(sell.colIdx) == expected.colIdx, label << ": colIdx");
  BOOST_TEST(sameBits(hostValues(sell.values), expected.values), label << ": values");
  BOOST_TEST(sell.nnz() == nnz, label);
  BOOST_TEST(sell.storedSlots() == static_cast<std::int64_t>(expected.values.size()), label);
}

/// The common checks for one matrix and one (C, sigma): build or a proper refusal (checked
/// against the padding ratio of the host layout), layout, round trip, SpMV. A refused matrix
/// is built again with force when `forceRefused`, so the kernel meets its padding too.
template <class Cfg>
void checkSell(const std::string& name, const io::HostMatrix& host, const typename Types<Cfg>::Csr& csr,
               const SellOptions& o, bool forceRefused) {
  using T = Types<Cfg>;
  typename T::Exec exec;
  const std::string label = name + " " + describe(o);
  const auto expected = hostSell(csr, o);
  const double ratio = host.nnz() > 0 ? static_cast<double>(expected.values.size()) / host.nnz() : 1.0;
  auto toCsr = [](const auto& e, const auto& s) { return csrFromSell(e, s); };
  auto sell = test::buildChecked(
      label, exec, csr, [&](const auto& e, const auto& c) { return sellFromCsr(e, c, o); }, toCsr);
  BOOST_TEST(sell.has_value() == (ratio <= kDefaultMaxPaddingRatio), label << ": padding ratio " << ratio);
  if (!sell) {
    if (!forceRefused) return;
    FormatOptions force;
    force.force = true;
    sell = sellFromCsr(exec, csr, o, force);
    exec.fence();
    BOOST_TEST(test::identicalCsr(toCsr(exec, *sell), csr), label << " (forced): conversion back to CSR differs");
  }
  checkLayout(label, *sell, expected, host.nnz());

  test::checkSpmvAgainstReference<typename T::Value, typename T::Device>(
      label, host, [&](auto x, auto y, auto a, auto b) { spmv(exec, *sell, x, y, a, b); });

  // Same summation order as the CSR scalar kernel, so the same bits.
  const auto x = test::randomVector<typename T::Value>(host.numCols, 99);
  typename T::Vector xDevice("x", host.numCols), ySell("ySell", host.numRows), yCsr("yCsr", host.numRows);
  Kokkos::deep_copy(xDevice, Kokkos::View<const typename T::Value*, Kokkos::HostSpace>(x.data(), x.size()));
  spmv(exec, *sell, xDevice, ySell, typename T::Value(1), typename T::Value(0));
  spmv(exec, csr, xDevice, yCsr, typename T::Value(1), typename T::Value(0), {SpmvAlgorithm::CsrScalar});
  exec.fence();
  BOOST_TEST(sameBits(hostValues(ySell), hostValues(yCsr)), label << ": SELL and CSR scalar differ in their bits");
}

/// C = 1, 4, 32 with sigma = 1 (no sorting), C (sort within each slice) and numRows (global).
std::vector<SellOptions> parameterGrid(std::int64_t numRows) {
  std::vector<SellOptions> grid;
  for (const int C : {1, 4, 32}) {
    for (const std::int64_t sigma : {std::int64_t{1}, std::int64_t{C}, std::max<std::int64_t>(numRows, 1)}) {
      const bool seen = std::any_of(grid.begin(), grid.end(), [&](const SellOptions& o) {
        return o.sliceHeight == C && o.sortWindow == sigma;
      });
      if (!seen) grid.push_back({C, sigma});
    }
  }
  return grid;
}

template <class Cfg>
void checkDefault(const std::string& name, const io::HostMatrix& host, bool forceRefused) {
  const auto csr = csrFromHost<typename Types<Cfg>::Csr>(host);
  checkSell<Cfg>(name, host, csr, SellOptions{}, forceRefused);
}

template <class Cfg>
void checkGrid(const std::string& name, const io::HostMatrix& host, bool forceRefused) {
  const auto csr = csrFromHost<typename Types<Cfg>::Csr>(host);
  for (const SellOptions& o : parameterGrid(host.numRows)) checkSell<Cfg>(name, host, csr, o, forceRefused);
}

io::HostMatrix formatCase(const std::string& name) {
  for (auto& c : test::formatCases())
    if (c.name == name) return c.matrix;
  throw std::runtime_error("no format case " + name);
}

// rows:  0: (0,0)=1 (0,2)=2     length 2
//        1: (1,1)=3             length 1
//        2: (2,0)=4 (2,1)=5 (2,3)=6   length 3
//        3: empty               length 0
//        4: (4,2)=7 (4,3)=8     length 2 (ties with row 0, which stays first)
io::HostMatrix handMade() {
  return test::fromTriplets(5, 4,
                            {{0, 0, 1}, {0, 2, 2}, {1, 1, 3}, {2, 0, 4}, {2, 1, 5}, {2, 3, 6}, {4, 2, 7}, {4, 3, 8}});
}

template <class Cfg>
void checkExact(const SellOptions& o, const io::HostMatrix& host, const std::vector<std::int64_t>& slicePtr,
                const std::vector<std::int64_t>& perm, const std::vector<std::int64_t>& colIdx,
                const std::vector<typename Cfg::value_type>& values) {
  using T = Types<Cfg>;
  typename T::Exec exec;
  BOOST_TEST_CONTEXT(describe(o)) {
    const auto csr = csrFromHost<typename T::Csr>(host);
    const auto sell = sellFromCsr(exec, csr, o);
    exec.fence();
    BOOST_TEST(sell.numRows == host.numRows);
    BOOST_TEST(sell.numCols == host.numCols);
    BOOST_TEST(sell.sliceHeight == o.sliceHeight);
    BOOST_TEST(sell.sortWindow == o.sortWindow);
    BOOST_TEST(hostInts(sell.slicePtr) == slicePtr, boost::test_tools::per_element());
    BOOST_TEST(hostInts(sell.perm) == perm, boost::test_tools::per_element());
    BOOST_TEST(hostInts(sell.colIdx) == colIdx, boost::test_tools::per_element());
    BOOST_TEST(hostValues(sell.values) == values, boost::test_tools::per_element());
    BOOST_TEST(sell.numSlices() == static_cast<std::int64_t>(slicePtr.size()) - 1);
    BOOST_TEST(sell.nnz() == host.nnz());
    BOOST_TEST(sell.storedSlots() == slicePtr.back());
    BOOST_TEST(test::identicalCsr(csrFromSell(exec, sell), csr));
  }
}

}  // namespace

BOOST_AUTO_TEST_CASE_TEMPLATE(real_matrices_default, Cfg, test::AllConfigs) {
  for (const auto& m : test::realMatrices()) checkDefault<Cfg>(m.name, m.matrix, false);
}

// The (C, sigma) grid changes only the layout, which the host plans the same way for every
// value type and backend: one configuration per backend would repeat the same layouts, so the
// grid runs over the real matrices once, in the first configuration, to keep the test short.
BOOST_AUTO_TEST_CASE(real_matrices_parameter_grid) {
  using Cfg = std::tuple_element_t<0, test::AllConfigs>;
  for (const auto& m : test::realMatrices()) checkGrid<Cfg>(m.name, m.matrix, false);
}

BOOST_AUTO_TEST_CASE_TEMPLATE(format_cases_parameter_grid, Cfg, test::AllConfigs) {
  for (const auto& c : test::formatCases()) {
    checkDefault<Cfg>(c.name, c.matrix, true);
    checkGrid<Cfg>(c.name, c.matrix, true);
  }
}

BOOST_AUTO_TEST_CASE_TEMPLATE(hand_made_layouts, Cfg, test::AllConfigs) {
  using Value = typename Cfg::value_type;
  const io::HostMatrix host = handMade();
  // sigma = 1: the CSR row order. Slices {0,1} width 2, {2,3} width 3, {4, empty} width 2.
  checkExact<Cfg>({2, 1}, host, {0, 4, 10, 14}, {0, 1, 2, 3, 4},
                  {0, 1, 2, -1, /**/ 0, -1, 1, -1, 3, -1, /**/ 2, -1, 3, -1},
                  std::vector<Value>{1, 3, 2, 0, /**/ 4, 0, 5, 0, 6, 0, /**/ 7, 0, 8, 0});
  // sigma = 4: rows 0..3 sorted (2 0 1 3), row 4 alone. Slices {2,0} width 3, {1,3} width 1,
  // {4, empty} width 2.
  checkExact<Cfg>({2, 4}, host, {0, 6, 8, 12}, {2, 0, 1, 3, 4},
                  {0, 0, 1, 2, 3, -1, /**/ 1, -1, /**/ 2, -1, 3, -1},
                  std::vector<Value>{4, 1, 5, 2, 6, 0, /**/ 3, 0, /**/ 7, 0, 8, 0});
  // sigma = numRows, a global sort (2 0 4 1 3): slices {2,0} width 3, {4,1} width 2, and
  // {3, empty} of width 0, which stores nothing.
  checkExact<Cfg>({2, 5}, host, {0, 6, 10, 10}, {2, 0, 4, 1, 3},
                  {0, 0, 1, 2, 3, -1, /**/ 2, 1, 3, -1},
                  std::vector<Value>{4, 1, 5, 2, 6, 0, /**/ 7, 3, 8, 0});
  // C = 4, sigma = 4: slice {2 0 1 3} width 3, slice {4, 3 empty rows} width 2.
  checkExact<Cfg>({4, 4}, host, {0, 12, 20}, {2, 0, 1, 3, 4},
                  {0, 0, 1, -1, 1, 2, -1, -1, 3, -1, -1, -1, /**/ 2, -1, -1, -1, 3, -1, -1, -1},
                  std::vector<Value>{4, 1, 3, 0, 5, 2, 0, 0, 6, 0, 0, 0, /**/ 7, 0, 0, 0, 8, 0, 0, 0});
  // The example drawn in formats/sell/sell.hpp, with a..f = 1..6.
  checkExact<Cfg>({2, 3}, test::fromTriplets(3, 4, {{0, 0, 1}, {0, 2, 2}, {1, 1, 3}, {2, 0, 4}, {2, 1, 5}, {2, 3, 6}}),
                  {0, 6, 8}, {2, 0, 1}, {0, 0, 1, 2, 3, -1, /**/ 1, -1},
                  std::vector<Value>{4, 1, 5, 2, 6, 0, /**/ 3, 0});
}

BOOST_AUTO_TEST_CASE_TEMPLATE(hand_made_product, Cfg, test::AllConfigs) {
  using T = Types<Cfg>;
  using Value = typename T::Value;
  typename T::Exec exec;
  const auto csr = csrFromHost<typename T::Csr>(handMade());
  // x = (1, 10, 100, 1000): A x = (201, 30, 6054, 0, 8700); alpha = 2, beta = -1 on y = 1.
  typename T::Vector x("x", 4), y("y", 5);
  auto xh = Kokkos::create_mirror_view(x);
  for (int j = 0; j < 4; ++j) xh(j) = static_cast<Value>(std::pow(10, j));
  Kokkos::deep_copy(x, xh);
  // Five rows in slices of 32 pad past the default limit: force every layout of the grid.
  FormatOptions force;
  force.force = true;
  for (const SellOptions& o : parameterGrid(5)) {
    const auto sell = sellFromCsr(exec, csr, o, force);
    Kokkos::deep_copy(y, Value(1));
    spmv(exec, sell, x, y, Value(2), Value(-1));
    exec.fence();
    BOOST_TEST(hostValues(y) == std::vector<Value>({401, 59, 12107, -1, 17399}), describe(o));
  }
}

BOOST_AUTO_TEST_CASE_TEMPLATE(padding_refusal_and_force, Cfg, test::AllConfigs) {
  using T = Types<Cfg>;
  typename T::Exec exec;
  // One row of 5000 entries among rows of one: its slice of 32 rows is 5000 wide.
  const io::HostMatrix dense = formatCase("one_dense_row");
  const auto csr = csrFromHost<typename T::Csr>(dense);
  BOOST_CHECK_EXCEPTION(sellFromCsr(exec, csr), PaddingError, [](const PaddingError& e) {
    const std::string m = e.what();
    return e.ratio() > kDefaultMaxPaddingRatio && m.find("SELL") != std::string::npos &&
           m.find("C = 32") != std::string::npos && m.find("force") != std::string::npos &&
           m.find("completed with 20 empty rows (300 rows in all)") != std::string::npos;  // 10 slices of 32
  });
  FormatOptions force;
  force.force = true;
  const auto sell = sellFromCsr(exec, csr, SellOptions{}, force);
  exec.fence();
  // Slice 0 holds the dense row (5000 wide); the other 9 slices hold rows of one entry.
  BOOST_TEST(sell.storedSlots() == 32 * 5000 + 9 * 32);
  BOOST_TEST(sell.nnz() == dense.nnz());
  BOOST_TEST(test::identicalCsr(csrFromSell(exec, sell), csr));
  test::checkSpmvAgainstReference<typename T::Value, typename T::Device>(
      "one_dense_row forced", dense, [&](auto x, auto y, auto a, auto b) { spmv(exec, sell, x, y, a, b); });

  // The limit is the caller's: the hand-made matrix with C = 2, sigma = 1 stores 14 slots for 8
  // nonzeros (1.75), refused under a limit of 1.5 unless forced.
  const auto small = csrFromHost<typename T::Csr>(handMade());
  FormatOptions tight;
  tight.maxPaddingRatio = 1.5;
  BOOST_CHECK_EXCEPTION(sellFromCsr(exec, small, SellOptions{2, 1}, tight), PaddingError,
                        [](const PaddingError& e) { return e.ratio() == 1.75; });
  tight.force = true;
  const auto forced = sellFromCsr(exec, small, SellOptions{2, 1}, tight);
  exec.fence();
  BOOST_TEST(forced.storedSlots() == 14);
  BOOST_TEST(test::identicalCsr(csrFromSell(exec, forced), small));
  // A global sort brings it to 10 slots (1.25), within the same limit.
  BOOST_TEST(sellFromCsr(exec, small, SellOptions{2, 5}, FormatOptions{1.5, false}).storedSlots() == 10);
}

BOOST_AUTO_TEST_CASE_TEMPLATE(default_parameters, Cfg, test::AllConfigs) {
  using T = Types<Cfg>;
  typename T::Exec exec;
  const auto csr = csrFromHost<typename T::Csr>(test::randomMatrix(1000, 300, 0, 12, 3));
  // The FormatOptions-only overload uses the default C and sigma.
  const auto sell = sellFromCsr(exec, csr, FormatOptions{});
  exec.fence();
  BOOST_TEST(sell.sliceHeight == kDefaultSellSliceHeight);
  BOOST_TEST(sell.sortWindow == kDefaultSellSortWindow);
  BOOST_TEST(kDefaultSellSortWindow % kDefaultSellSliceHeight == 0, "sigma is a whole number of slices");
  BOOST_TEST(hostInts(sell.colIdx) == hostSell(csr, SellOptions{}).colIdx);
  BOOST_TEST(sell.numSlices() == (1000 + 31) / 32);
}

BOOST_AUTO_TEST_CASE_TEMPLATE(refuses_bad_parameters_and_other_algorithms, Cfg, test::AllConfigs) {
  using T = Types<Cfg>;
  typename T::Exec exec;
  const auto csr = csrFromHost<typename T::Csr>(test::randomMatrix(6, 5, 1, 3, 5));
  for (const SellOptions& bad : {SellOptions{0, 4}, SellOptions{-3, 4}, SellOptions{4, 0}}) {
    BOOST_CHECK_EXCEPTION(sellFromCsr(exec, csr, bad), InputError, [](const InputError& e) {
      return std::string(e.what()).find("expected both at least 1") != std::string::npos;
    });
  }
  const auto sell = sellFromCsr(exec, csr, SellOptions{2, 6});
  typename T::Vector x("x", 5), y("y", 6);
  for (const SpmvAlgorithm algorithm : {SpmvAlgorithm::CsrScalar, SpmvAlgorithm::CsrVector, SpmvAlgorithm::BrcpAtomic}) {
    BOOST_CHECK_EXCEPTION(spmv(exec, sell, x, y, 1, 0, {algorithm}), UnsupportedError, [](const UnsupportedError& e) {
      return std::string(e.what()).find("SELL") != std::string::npos;
    });
  }
}
