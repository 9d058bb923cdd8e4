// HYB: the round trip to CSR and SpMV on every real matrix and generated case, with K from
// Bell & Garland's rule and with fixed widths; the rule itself on chosen histograms; an exact
// hand-written layout; the padding guard (for a width given by hand) and its force switch.
#define BOOST_TEST_MODULE hyb
#include <boost/test/unit_test.hpp>

#include "support/format_check.hpp"
#include "support/format_fixture.hpp"
#include "support/generated.hpp"
#include "support/kokkos_env.hpp"
#include "support/real_matrices.hpp"
#include "support/spmv_check.hpp"

#include <araios/araios.hpp>
#include <araios/formats/hyb/hyb_convert.hpp>
#include <araios/formats/hyb/hyb_spmv.hpp>

#include <algorithm>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

using araios::test::KokkosFixture;
BOOST_TEST_GLOBAL_FIXTURE(KokkosFixture);

namespace {

using namespace araios;
using test::hostDoubles;

template <class Cfg>
using Types = test::FormatTypes<Cfg, HybMatrix>;

std::vector<std::int64_t> rowLengths(const io::HostMatrix& host) {
  std::vector<std::int64_t> length(host.numRows, 0);
  for (auto r : host.row) ++length[r];
  return length;
}

const io::HostMatrix& formatCase(const std::string& name) {
  static const auto cases = test::formatCases();
  for (const auto& c : cases)
    if (c.name == name) return c.matrix;
  throw std::runtime_error("no format case " + name);
}

/// Builds HYB from `host` with K from the rule (width empty) or the given width, or checks its
/// refusal; checks the round trip, the split, the sizes it reports, and SpMV against the
/// reference. Returns the HYB when built.
template <class Cfg>
std::optional<typename Types<Cfg>::Matrix> checkHyb(const std::string& name, const io::HostMatrix& host,
                                                 std::optional<std::int64_t> width = std::nullopt,
                                                 const FormatOptions& options = {}) {
  using T = Types<Cfg>;
  typename T::Exec exec;
  const auto csr = csrFromHost<typename T::Csr>(host);
  const auto hyb = test::buildChecked(
      name, exec, csr,
      [&](const auto& e, const auto& c) {
        return width ? hybFromCsrWithEllWidth(e, c, *width, options) : hybFromCsr(e, c, options);
      },
      [](const auto& e, const auto& f) { return csrFromHyb(e, f); });
  if (!hyb) return hyb;
  const auto length = rowLengths(host);
  const std::int64_t K = width ? *width : hybEllWidth(length);
  std::int64_t inEll = 0;
  for (auto l : length) inEll += std::min(l, K);
  BOOST_TEST(hyb->ell.width == K, name);
  BOOST_TEST(hyb->ell.nnz() == inEll, name);
  BOOST_TEST(hyb->coo.nnz() == host.nnz() - inEll, name);
  BOOST_TEST(hyb->nnz() == host.nnz(), name);
  BOOST_TEST(hyb->storedSlots() == host.numRows * K + (host.nnz() - inEll), name);
  if (!width) {
    // The rule bounds the padding by design.
    BOOST_TEST(hyb->storedSlots() <= kDefaultMaxPaddingRatio * host.nnz(), name);
  }
  const std::string label = name + " hyb K=" + std::to_string(K);
  test::checkSpmvAgainstReference<typename T::Value, typename T::Device>(
      label, host, [&](const auto& x, const auto& y, auto alpha, auto beta) { spmv(exec, *hyb, x, y, alpha, beta); });
  return hyb;
}

}  // namespace

BOOST_AUTO_TEST_CASE_TEMPLATE(real_matrices, Cfg, test::AllConfigs) {
  int withEll = 0;
  for (const auto& m : test::realMatrices()) {
    const auto hyb = checkHyb<Cfg>(m.name, m.matrix);
    BOOST_TEST(hyb.has_value(), m.name << ": the rule's K must never be refused");
    if (hyb && hyb->ell.width > 0) ++withEll;
  }
  BOOST_TEST_MESSAGE("HYB: " << withEll << " of " << test::realMatrices().size() << " real matrices have an ELL part");
}

BOOST_AUTO_TEST_CASE_TEMPLATE(format_cases, Cfg, test::AllConfigs) {
  for (const auto& c : test::formatCases()) {
    BOOST_TEST(checkHyb<Cfg>(c.name, c.matrix).has_value(), c.name);
    // Fixed widths exercise the ELL + COO split on the small cases the rule keeps in COO.
    for (std::int64_t width : {1, 3}) checkHyb<Cfg>(c.name, c.matrix, width);
  }
  // 20,000 rows of 1..8 entries, uniformly: about 7,500 rows have 6 or more, 5,000 have 7 or
  // more, so the largest K with at least 20000/3 rows of K or more entries is 6, and row 777
  // (22,000 entries) leaves all but 6 to COO.
  const auto hyb = checkHyb<Cfg>("power_law_long_row", formatCase("power_law_long_row"));
  BOOST_TEST_REQUIRE(hyb.has_value());
  BOOST_TEST(hyb->ell.width == 6);
  const auto rows = hostDoubles(hyb->coo.rowIdx);
  BOOST_TEST(std::count(rows.begin(), rows.end(), 777.0) == 22000 - 6);
  BOOST_TEST(std::is_sorted(rows.begin(), rows.end()));
}

BOOST_AUTO_TEST_CASE(ell_width_rule) {
  auto lengths = [](std::initializer_list<std::pair<std::int64_t, std::int64_t>> groups) {
    std::vector<std::int64_t> out;
    for (const auto& [rows, length] : groups) out.insert(out.end(), rows, length);
    return out;
  };
  BOOST_TEST(hybEllWidth({}) == 0);
  // Fewer rows than kHybMinRowsPerEllColumn: COO only, however even the rows are.
  BOOST_TEST(hybEllWidth(lengths({{100, 7}})) == 0);
  BOOST_TEST(hybEllWidth(lengths({{4095, 3}})) == 0);
  BOOST_TEST(hybEllWidth(lengths({{4096, 3}})) == 3);
  // 12,000 rows: the floor of 4096 rows is stricter than a third (4000).
  BOOST_TEST(hybEllWidth(lengths({{5000, 5}, {7000, 2}})) == 5);
  BOOST_TEST(hybEllWidth(lengths({{4000, 5}, {8000, 2}})) == 2);
  // 30,000 rows: a third (10,000) is stricter than 4096.
  BOOST_TEST(hybEllWidth(lengths({{9000, 10}, {21000, 1}})) == 1);
  BOOST_TEST(hybEllWidth(lengths({{10000, 10}, {20000, 1}})) == 10);
  BOOST_TEST(hybEllWidth(lengths({{10000, 10}, {20000, 0}})) == 10);
  BOOST_TEST(hybEllWidth(lengths({{9999, 10}, {20001, 0}})) == 0);
  // One long row does not move K.
  BOOST_TEST(hybEllWidth(lengths({{29999, 4}, {1, 100000}})) == 4);
}

BOOST_AUTO_TEST_CASE_TEMPLATE(exact_layout, Cfg, test::AllConfigs) {
  using T = Types<Cfg>;
  typename T::Exec exec;
  // [ 1 2 3 . ]
  // [ . 4 . . ]
  // [ . . . . ]
  // [ 5 0 6 7 ]   (0: an explicit zero, which must stay a real entry)
  const auto host = test::fromTriplets(4, 4, {{0, 0, 1}, {0, 1, 2}, {0, 2, 3}, {1, 1, 4}, {3, 0, 5}, {3, 1, 0}, {3, 2, 6}, {3, 3, 7}});
  const auto csr = csrFromHost<typename T::Csr>(host);
  const auto hyb = hybFromCsrWithEllWidth(exec, csr, 2);
  BOOST_TEST(hyb.numRows == 4);
  BOOST_TEST(hyb.numCols == 4);
  BOOST_TEST(hyb.ell.width == 2);
  BOOST_TEST(hyb.nnz() == 8);
  BOOST_TEST(hyb.storedSlots() == 4 * 2 + 3);
  // ELL part, column-major: slot 0 of rows 0..3, then slot 1.
  BOOST_TEST(hostDoubles(hyb.ell.colIdx) == std::vector<double>({0, 1, -1, 0, /**/ 1, -1, -1, 1}), boost::test_tools::per_element());
  BOOST_TEST(hostDoubles(hyb.ell.values) == std::vector<double>({1, 4, 0, 5, /**/ 2, 0, 0, 0}), boost::test_tools::per_element());
  // COO part: what does not fit, by row.
  BOOST_TEST(hostDoubles(hyb.coo.rowIdx) == std::vector<double>({0, 3, 3}), boost::test_tools::per_element());
  BOOST_TEST(hostDoubles(hyb.coo.colIdx) == std::vector<double>({2, 2, 3}), boost::test_tools::per_element());
  BOOST_TEST(hostDoubles(hyb.coo.values) == std::vector<double>({3, 6, 7}), boost::test_tools::per_element());
  BOOST_TEST(test::identicalCsr(csrFromHyb(exec, hyb), csr));
  // Four rows are far below the rule's floor: the rule keeps everything in COO.
  const auto ruled = hybFromCsr(exec, csr);
  BOOST_TEST(ruled.ell.width == 0);
  BOOST_TEST(ruled.ell.storedSlots() == 0);
  BOOST_TEST(hostDoubles(ruled.coo.rowIdx) == std::vector<double>({0, 0, 0, 1, 3, 3, 3, 3}), boost::test_tools::per_element());
  BOOST_TEST(test::identicalCsr(csrFromHyb(exec, ruled), csr));
}

BOOST_AUTO_TEST_CASE_TEMPLATE(padding_refusal_and_force, Cfg, test::AllConfigs) {
  using T = Types<Cfg>;
  typename T::Exec exec;
  const auto& oneDenseRow = formatCase("one_dense_row");
  const auto csr = csrFromHost<typename T::Csr>(oneDenseRow);
  // An ELL part as wide as the dense row: 300 * 5000 slots for 5299 nonzeros.
  BOOST_CHECK_EXCEPTION(hybFromCsrWithEllWidth(exec, csr, 5000), PaddingError, [](const PaddingError& e) {
    const std::string m = e.what();
    return e.ratio() > 283 && e.ratio() < 284 && m.find("HYB") == 0 && m.find("force") != std::string::npos;
  });
  BOOST_TEST(checkHyb<Cfg>("one_dense_row forced", oneDenseRow, 5000, FormatOptions{kDefaultMaxPaddingRatio, true})
                 .has_value());
  BOOST_CHECK_THROW(hybFromCsrWithEllWidth(exec, csr, -1), InputError);
}

BOOST_AUTO_TEST_CASE_TEMPLATE(refuses_other_algorithms, Cfg, test::AllConfigs) {
  using T = Types<Cfg>;
  typename T::Exec exec;
  const auto hyb = hybFromCsr(exec, csrFromHost<typename T::Csr>(test::randomMatrix(5, 5, 1, 2, 3)));
  typename T::Vector x("x", 5), y("y", 5);
  BOOST_CHECK_THROW(spmv(exec, hyb, x, y, 1, 0, {SpmvAlgorithm::CsrVector}), UnsupportedError);
}
