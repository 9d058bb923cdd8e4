// JDS: the layout (against a hand-written example and against a plain host construction on
// every matrix), the exact round trip back to CSR, and the SpMV against the long-double
// reference and, bit for bit, against the CSR scalar kernel that sums in the same order.
#define BOOST_TEST_MODULE jds
#include <boost/test/unit_test.hpp>

#include "support/format_check.hpp"
#include "support/format_fixture.hpp"
#include "support/generated.hpp"
#include "support/kokkos_env.hpp"
#include "support/real_matrices.hpp"
#include "support/spmv_check.hpp"

#include <araios/araios.hpp>
#include <araios/formats/jds/jds_convert.hpp>
#include <araios/formats/jds/jds_spmv.hpp>

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
using Types = test::FormatTypes<Cfg, JdsMatrix>;

/// The JDS arrays built the plain way on the host, from the definition.
template <class Value>
struct HostJds {
  std::vector<std::int64_t> perm, jdPtr, colIdx;
  std::vector<Value> values;
};

template <class Csr>
HostJds<typename Csr::value_type> hostJds(const Csr& csr) {
  const auto rowPtr = hostInts(csr.rowPtr);
  const auto col = hostInts(csr.colIdx);
  const auto val = hostValues(csr.values);
  const std::int64_t n = csr.numRows;
  HostJds<typename Csr::value_type> out;
  out.perm.resize(n);
  std::iota(out.perm.begin(), out.perm.end(), std::int64_t{0});
  auto length = [&](std::int64_t r) { return rowPtr[r + 1] - rowPtr[r]; };
  std::stable_sort(out.perm.begin(), out.perm.end(), [&](auto a, auto b) { return length(a) > length(b); });
  out.jdPtr.push_back(0);
  for (std::int64_t t = 0; n > 0 && t < length(out.perm[0]); ++t) {
    for (std::int64_t k = 0; k < n && length(out.perm[k]) > t; ++k) {
      out.colIdx.push_back(col[rowPtr[out.perm[k]] + t]);
      out.values.push_back(val[rowPtr[out.perm[k]] + t]);
    }
    out.jdPtr.push_back(static_cast<std::int64_t>(out.colIdx.size()));
  }
  return out;
}

template <class Jds, class Value>
void checkLayout(const std::string& label, const Jds& jds, const HostJds<Value>& expected) {
  BOOST_TEST(hostInts(jds.perm) == expected.perm, label << ": perm");
  BOOST_TEST(hostInts(jds.jdPtr) == expected.jdPtr, label << ": jdPtr");
  BOOST_TEST(hostInts(jds.colIdx) == expected.colIdx, label << ": colIdx");
  BOOST_TEST(sameBits(hostValues(jds.values), expected.values), label << ": values");
  BOOST_TEST(jds.numDiagonals() == static_cast<std::int64_t>(expected.jdPtr.size()) - 1, label);
  BOOST_TEST(jds.nnz() == static_cast<std::int64_t>(expected.values.size()), label);
  BOOST_TEST(jds.storedSlots() == jds.nnz(), label << ": JDS stores no padding");
}

template <class Cfg>
void checkMatrix(const std::string& name, const io::HostMatrix& host) {
  using T = Types<Cfg>;
  typename T::Exec exec;
  const auto csr = csrFromHost<typename T::Csr>(host);
  const auto jds = test::buildChecked(
      name, exec, csr, [](const auto& e, const auto& c) { return jdsFromCsr(e, c); },
      [](const auto& e, const auto& j) { return csrFromJds(e, j); });
  BOOST_TEST_REQUIRE(jds.has_value(), name << ": JDS has no padding and is never refused");
  checkLayout(name, *jds, hostJds(csr));

  test::checkSpmvAgainstReference<typename T::Value, typename T::Device>(
      name + " jds", host, [&](auto x, auto y, auto a, auto b) { spmv(exec, *jds, x, y, a, b); });

  // Same summation order as the CSR scalar kernel, so the same bits.
  const auto x = test::randomVector<typename T::Value>(host.numCols, 99);
  typename T::Vector xDevice("x", host.numCols), yJds("yJds", host.numRows), yCsr("yCsr", host.numRows);
  Kokkos::deep_copy(xDevice, Kokkos::View<const typename T::Value*, Kokkos::HostSpace>(x.data(), x.size()));
  spmv(exec, *jds, xDevice, yJds, typename T::Value(1), typename T::Value(0));
  spmv(exec, csr, xDevice, yCsr, typename T::Value(1), typename T::Value(0), {SpmvAlgorithm::CsrScalar});
  exec.fence();
  BOOST_TEST(sameBits(hostValues(yJds), hostValues(yCsr)), name << ": JDS and CSR scalar differ in their bits");
}

}  // namespace

BOOST_AUTO_TEST_CASE_TEMPLATE(real_matrices, Cfg, test::AllConfigs) {
  for (const auto& m : test::realMatrices()) checkMatrix<Cfg>(m.name, m.matrix);
}

BOOST_AUTO_TEST_CASE_TEMPLATE(format_cases, Cfg, test::AllConfigs) {
  for (const auto& c : test::formatCases()) checkMatrix<Cfg>(c.name, c.matrix);
}

// rows:  0: (0,0)=1 (0,2)=2     length 2
//        1: (1,1)=3             length 1
//        2: (2,0)=4 (2,1)=5 (2,3)=6   length 3
//        3: empty               length 0
//        4: (4,2)=7 (4,3)=8     length 2 (ties with row 0, which stays first)
BOOST_AUTO_TEST_CASE_TEMPLATE(hand_made_layout, Cfg, test::AllConfigs) {
  using T = Types<Cfg>;
  using Value = typename T::Value;
  typename T::Exec exec;
  const io::HostMatrix host = test::fromTriplets(
      5, 4, {{0, 0, 1}, {0, 2, 2}, {1, 1, 3}, {2, 0, 4}, {2, 1, 5}, {2, 3, 6}, {4, 2, 7}, {4, 3, 8}});
  const auto csr = csrFromHost<typename T::Csr>(host);
  const auto jds = jdsFromCsr(exec, csr);
  exec.fence();
  BOOST_TEST(jds.numRows == 5);
  BOOST_TEST(jds.numCols == 4);
  BOOST_TEST(hostInts(jds.perm) == std::vector<std::int64_t>({2, 0, 4, 1, 3}), boost::test_tools::per_element());
  BOOST_TEST(hostInts(jds.jdPtr) == std::vector<std::int64_t>({0, 4, 7, 8}), boost::test_tools::per_element());
  BOOST_TEST(hostInts(jds.colIdx) == std::vector<std::int64_t>({0, 0, 2, 1, /**/ 1, 2, 3, /**/ 3}),
             boost::test_tools::per_element());
  BOOST_TEST(hostValues(jds.values) == std::vector<Value>({4, 1, 7, 3, /**/ 5, 2, 8, /**/ 6}),
             boost::test_tools::per_element());
  BOOST_TEST(jds.numDiagonals() == 3);
  BOOST_TEST(jds.nnz() == 8);
  BOOST_TEST(jds.storedSlots() == 8);
  BOOST_TEST(test::identicalCsr(csrFromJds(exec, jds), csr));

  // x = (1, 10, 100, 1000): y = (201, 30, 6054, 0, 8700); with alpha = 2, beta = -1 on y = 1.
  typename T::Vector x("x", 4), y("y", 5);
  auto xh = Kokkos::create_mirror_view(x);
  for (int j = 0; j < 4; ++j) xh(j) = static_cast<Value>(std::pow(10, j));
  Kokkos::deep_copy(x, xh);
  Kokkos::deep_copy(y, Value(1));
  spmv(exec, jds, x, y, Value(2), Value(-1));
  exec.fence();
  BOOST_TEST(hostValues(y) == std::vector<Value>({401, 59, 12107, -1, 17399}), boost::test_tools::per_element());
}

// The example drawn in formats/jds/jds.hpp, with a..f = 1..6.
BOOST_AUTO_TEST_CASE_TEMPLATE(documented_example, Cfg, test::AllConfigs) {
  using T = Types<Cfg>;
  using Value = typename T::Value;
  typename T::Exec exec;
  const auto csr = csrFromHost<typename T::Csr>(
      test::fromTriplets(4, 4, {{0, 0, 1}, {0, 2, 2}, {1, 1, 3}, {2, 0, 4}, {2, 1, 5}, {2, 3, 6}}));
  const auto jds = jdsFromCsr(exec, csr);
  exec.fence();
  BOOST_TEST(hostInts(jds.perm) == std::vector<std::int64_t>({2, 0, 1, 3}), boost::test_tools::per_element());
  BOOST_TEST(hostInts(jds.jdPtr) == std::vector<std::int64_t>({0, 3, 5, 6}), boost::test_tools::per_element());
  BOOST_TEST(hostInts(jds.colIdx) == std::vector<std::int64_t>({0, 0, 1, 1, 2, 3}), boost::test_tools::per_element());
  BOOST_TEST(hostValues(jds.values) == std::vector<Value>({4, 1, 3, 5, 2, 6}), boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE_TEMPLATE(no_padding_so_never_refused, Cfg, test::AllConfigs) {
  // The one dense row that makes every ELL-like format refuse: JDS stores it without padding,
  // even under the tightest limit, and force changes nothing.
  using T = Types<Cfg>;
  typename T::Exec exec;
  io::HostMatrix host;
  for (const auto& c : test::formatCases())
    if (c.name == "one_dense_row") host = c.matrix;
  BOOST_TEST_REQUIRE(host.nnz() > 0);
  const auto csr = csrFromHost<typename T::Csr>(host);
  FormatOptions tight;
  tight.maxPaddingRatio = 1.0;
  const auto jds = jdsFromCsr(exec, csr, tight);
  FormatOptions forced;
  forced.force = true;
  const auto jdsForced = jdsFromCsr(exec, csr, forced);
  exec.fence();
  BOOST_TEST(jds.storedSlots() == host.nnz());
  BOOST_TEST(jds.numDiagonals() == 5000);
  BOOST_TEST(hostInts(jds.perm) == hostInts(jdsForced.perm));
  BOOST_TEST(hostInts(jds.colIdx) == hostInts(jdsForced.colIdx));
  BOOST_TEST(test::identicalCsr(csrFromJds(exec, jds), csr));
}

BOOST_AUTO_TEST_CASE_TEMPLATE(refuses_other_algorithms, Cfg, test::AllConfigs) {
  using T = Types<Cfg>;
  typename T::Exec exec;
  const auto csr = csrFromHost<typename T::Csr>(test::randomMatrix(6, 5, 1, 3, 5));
  const auto jds = jdsFromCsr(exec, csr);
  typename T::Vector x("x", 5), y("y", 6);
  for (const SpmvAlgorithm algorithm : {SpmvAlgorithm::CsrScalar, SpmvAlgorithm::CsrVector, SpmvAlgorithm::BrcpAtomic}) {
    BOOST_CHECK_EXCEPTION(spmv(exec, jds, x, y, 1, 0, {algorithm}), UnsupportedError, [](const UnsupportedError& e) {
      return std::string(e.what()).find("JDS") != std::string::npos;
    });
  }
}
