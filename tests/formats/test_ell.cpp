// ELL: the round trip to CSR and SpMV on every real matrix and generated case (or a proper
// padding refusal), an exact hand-written layout, the padding guard and its force switch, and
// the padding slots never touching x.
#define BOOST_TEST_MODULE ell
#include <boost/test/unit_test.hpp>

#include "support/format_check.hpp"
#include "support/format_fixture.hpp"
#include "support/generated.hpp"
#include "support/kokkos_env.hpp"
#include "support/real_matrices.hpp"
#include "support/spmv_check.hpp"

#include <araios/araios.hpp>
#include <araios/formats/ell/ell_convert.hpp>
#include <araios/formats/ell/ell_spmv.hpp>

#include <cmath>
#include <limits>
#include <set>
#include <string>
#include <vector>

using araios::test::KokkosFixture;
BOOST_TEST_GLOBAL_FIXTURE(KokkosFixture);

namespace {

using namespace araios;
using test::hostDoubles;

template <class Cfg>
using Types = test::FormatTypes<Cfg, EllMatrix>;

/// Builds ELL from `host` (or checks its refusal), checks the round trip, the sizes the struct
/// reports, and SpMV against the reference. Returns whether ELL was built.
template <class Cfg>
bool checkEll(const std::string& name, const io::HostMatrix& host, const FormatOptions& options = {}) {
  using T = Types<Cfg>;
  typename T::Exec exec;
  const auto csr = csrFromHost<typename T::Csr>(host);
  const auto ell = test::buildChecked(
      name, exec, csr, [&](const auto& e, const auto& c) { return ellFromCsr(e, c, options); },
      [](const auto& e, const auto& f) { return csrFromEll(e, f); });
  if (!ell) return false;
  std::int64_t longest = 0;
  {
    std::vector<std::int64_t> length(host.numRows, 0);
    for (auto r : host.row) longest = std::max(longest, ++length[r]);
  }
  BOOST_TEST(ell->width == longest, name);
  BOOST_TEST(ell->nnz() == host.nnz(), name);
  BOOST_TEST(ell->storedSlots() == host.numRows * longest, name);
  test::checkSpmvAgainstReference<typename T::Value, typename T::Device>(
      name + " ell", host, [&](const auto& x, const auto& y, auto alpha, auto beta) { spmv(exec, *ell, x, y, alpha, beta); });
  return true;
}

}  // namespace

BOOST_AUTO_TEST_CASE_TEMPLATE(real_matrices, Cfg, test::AllConfigs) {
  int built = 0, refused = 0;
  for (const auto& m : test::realMatrices()) (checkEll<Cfg>(m.name, m.matrix) ? built : refused)++;
  BOOST_TEST_MESSAGE("ELL: " << built << " real matrices built, " << refused << " refused for padding");
}

BOOST_AUTO_TEST_CASE_TEMPLATE(format_cases, Cfg, test::AllConfigs) {
  // Rows far longer than the mean make ELL pad past the limit; even rows keep it within.
  const std::set<std::string> mustRefuse = {"one_dense_row", "power_law_long_row"};
  const std::set<std::string> mustBuild = {"banded", "random_square", "random_wide", "random_tall", "single_dense_row",
                                           "one_by_one", "zero_rows", "no_entries"};
  for (const auto& c : test::formatCases()) {
    const bool built = checkEll<Cfg>(c.name, c.matrix);
    if (mustRefuse.count(c.name)) BOOST_TEST(!built, c.name << " should be refused");
    if (mustBuild.count(c.name)) BOOST_TEST(built, c.name << " should be built");
  }
}

BOOST_AUTO_TEST_CASE_TEMPLATE(exact_layout, Cfg, test::AllConfigs) {
  using T = Types<Cfg>;
  typename T::Exec exec;
  // [ 1 . 2 . ]
  // [ . 3 . 0 ]   (0: an explicit zero, which must stay a real entry)
  // [ 4 . 5 6 ]
  // [ . . . . ]
  const auto host = test::fromTriplets(4, 4, {{0, 0, 1}, {0, 2, 2}, {1, 1, 3}, {1, 3, 0}, {2, 0, 4}, {2, 2, 5}, {2, 3, 6}});
  const auto csr = csrFromHost<typename T::Csr>(host);
  const auto ell = ellFromCsr(exec, csr);
  BOOST_TEST(ell.numRows == 4);
  BOOST_TEST(ell.numCols == 4);
  BOOST_TEST(ell.width == 3);
  BOOST_TEST(ell.nnz() == 7);
  BOOST_TEST(ell.storedSlots() == 12);
  BOOST_TEST(ell.bytes() == 12 * static_cast<std::int64_t>(sizeof(typename Cfg::ordinal_type) + sizeof(typename T::Value)));
  // Column-major: slot 0 of rows 0..3, then slot 1, then slot 2.
  const std::vector<double> colIdx = {0, 1, 0, -1, /**/ 2, 3, 2, -1, /**/ -1, -1, 3, -1};
  const std::vector<double> values = {1, 3, 4, 0, /**/ 2, 0, 5, 0, /**/ 0, 0, 6, 0};
  BOOST_TEST(hostDoubles(ell.colIdx) == colIdx, boost::test_tools::per_element());
  BOOST_TEST(hostDoubles(ell.values) == values, boost::test_tools::per_element());
  BOOST_TEST(test::identicalCsr(csrFromEll(exec, ell), csr));
}

BOOST_AUTO_TEST_CASE_TEMPLATE(padding_refusal_and_force, Cfg, test::AllConfigs) {
  using T = Types<Cfg>;
  typename T::Exec exec;
  io::HostMatrix oneDenseRow;
  for (auto& c : test::formatCases())
    if (c.name == "one_dense_row") oneDenseRow = c.matrix;
  const auto csr = csrFromHost<typename T::Csr>(oneDenseRow);
  // 300 rows padded to the 5000-entry row: 1,500,000 slots for 5299 nonzeros.
  BOOST_CHECK_EXCEPTION(ellFromCsr(exec, csr), PaddingError, [](const PaddingError& e) {
    const std::string m = e.what();
    return e.ratio() > 283 && e.ratio() < 284 && m.find("ELL") == 0 && m.find("longest row") != std::string::npos &&
           m.find("force") != std::string::npos;
  });
  // A raised limit or force builds it, and it still computes the right product.
  BOOST_TEST(checkEll<Cfg>("one_dense_row forced", oneDenseRow, FormatOptions{kDefaultMaxPaddingRatio, true}));
  BOOST_TEST(checkEll<Cfg>("one_dense_row limit 300", oneDenseRow, FormatOptions{300.0, false}));
  // A lower limit refuses a matrix the default accepts (random_square pads about 2x).
  BOOST_CHECK_THROW(ellFromCsr(exec, csrFromHost<typename T::Csr>(test::randomMatrix(1000, 1000, 0, 40, 7)),
                               FormatOptions{1.5, false}),
                    PaddingError);
}

BOOST_AUTO_TEST_CASE_TEMPLATE(padding_never_reads_x, Cfg, test::AllConfigs) {
  using T = Types<Cfg>;
  using Value = typename T::Value;
  typename T::Exec exec;
  // Row 1 is padded twice, row 2 once. x(0) = Inf: a padding slot that multiplied any x would
  // turn rows 1 and 2 into NaN. Row 3 stores an explicit zero at column 0, so (as in CSR) it
  // gets 0 * Inf = NaN.
  const auto host = test::fromTriplets(4, 3, {{0, 0, 1}, {0, 1, 2}, {0, 2, 3}, {1, 1, 4}, {2, 1, 5}, {2, 2, 6}, {3, 0, 0}});
  const auto ell = ellFromCsr(exec, csrFromHost<typename T::Csr>(host));
  typename T::Vector x("x", 3), y("y", 4);
  auto xh = Kokkos::create_mirror_view(x);
  xh(0) = std::numeric_limits<Value>::infinity();
  xh(1) = 1;
  xh(2) = 2;
  Kokkos::deep_copy(x, xh);
  spmv(exec, ell, x, y, Value(1), Value(0));
  exec.fence();
  const auto yh = hostDoubles(y);
  BOOST_TEST(std::isinf(yh[0]));
  BOOST_TEST(yh[1] == 4.0);
  BOOST_TEST(yh[2] == 17.0);
  BOOST_TEST(std::isnan(yh[3]));
}

BOOST_AUTO_TEST_CASE_TEMPLATE(refuses_other_algorithms, Cfg, test::AllConfigs) {
  using T = Types<Cfg>;
  typename T::Exec exec;
  const auto ell = ellFromCsr(exec, csrFromHost<typename T::Csr>(test::randomMatrix(5, 5, 1, 2, 3)));
  typename T::Vector x("x", 5), y("y", 5);
  BOOST_CHECK_THROW(spmv(exec, ell, x, y, 1, 0, {SpmvAlgorithm::CsrScalar}), UnsupportedError);
}
