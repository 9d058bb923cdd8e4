// DIA: the round trip to CSR and SpMV on every real matrix and generated case (or a proper
// padding refusal), an exact hand-written layout with its presence mask, padding slots never
// touching x, refused duplicate or unsorted columns, and the padding guard and its force switch.
#define BOOST_TEST_MODULE dia
#include <boost/test/unit_test.hpp>

#include "support/format_check.hpp"
#include "support/format_fixture.hpp"
#include "support/generated.hpp"
#include "support/kokkos_env.hpp"
#include "support/real_matrices.hpp"
#include "support/spmv_check.hpp"

#include <araios/araios.hpp>
#include <araios/formats/dia/dia_convert.hpp>
#include <araios/formats/dia/dia_spmv.hpp>

#include <cmath>
#include <limits>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

using araios::test::KokkosFixture;
BOOST_TEST_GLOBAL_FIXTURE(KokkosFixture);

namespace {

using namespace araios;
using test::hostDoubles;

template <class Cfg>
using Types = test::FormatTypes<Cfg, DiaMatrix>;

template <class View>
View deviceCopy(const std::string& label, const std::vector<double>& values) {
  View v(label, values.size());
  auto h = Kokkos::create_mirror_view(v);
  for (std::size_t i = 0; i < values.size(); ++i) h(i) = static_cast<typename View::value_type>(values[i]);
  Kokkos::deep_copy(v, h);
  return v;
}

const io::HostMatrix& formatCase(const std::string& name) {
  static const auto cases = test::formatCases();
  for (const auto& c : cases)
    if (c.name == name) return c.matrix;
  throw std::runtime_error("no format case " + name);
}

/// Builds DIA from `host` (or checks its refusal), checks the round trip, the diagonals and
/// sizes it reports, and SpMV against the reference. Returns whether DIA was built.
template <class Cfg>
bool checkDia(const std::string& name, const io::HostMatrix& host, const FormatOptions& options = {}) {
  using T = Types<Cfg>;
  typename T::Exec exec;
  const auto csr = csrFromHost<typename T::Csr>(host);
  const auto dia = test::buildChecked(
      name, exec, csr, [&](const auto& e, const auto& c) { return diaFromCsr(e, c, options); },
      [](const auto& e, const auto& f) { return csrFromDia(e, f); });
  if (!dia) return false;
  std::set<std::int64_t> diagonals;
  for (std::int64_t k = 0; k < host.nnz(); ++k) diagonals.insert(host.col[k] - host.row[k]);
  const std::vector<double> offsets(diagonals.begin(), diagonals.end());
  BOOST_TEST(hostDoubles(dia->offsets) == offsets, name << " offsets" << boost::test_tools::per_element());
  BOOST_TEST(dia->numDiags == static_cast<std::int64_t>(diagonals.size()), name);
  BOOST_TEST(dia->nnz() == host.nnz(), name);
  BOOST_TEST(dia->storedSlots() == host.numRows * static_cast<std::int64_t>(diagonals.size()), name);
  test::checkSpmvAgainstReference<typename T::Value, typename T::Device>(
      name + " dia", host, [&](const auto& x, const auto& y, auto alpha, auto beta) { spmv(exec, *dia, x, y, alpha, beta); });
  return true;
}

}  // namespace

BOOST_AUTO_TEST_CASE_TEMPLATE(real_matrices, Cfg, test::AllConfigs) {
  int built = 0, refused = 0;
  for (const auto& m : test::realMatrices()) (checkDia<Cfg>(m.name, m.matrix) ? built : refused)++;
  BOOST_TEST_MESSAGE("DIA: " << built << " real matrices built, " << refused << " refused for padding");
}

BOOST_AUTO_TEST_CASE_TEMPLATE(format_cases, Cfg, test::AllConfigs) {
  // Scattered entries occupy about as many diagonals as there are rows and columns; a band,
  // or a single row (one entry per diagonal), stays within the limit.
  const std::set<std::string> mustRefuse = {"one_dense_row", "power_law_long_row", "random_square", "random_tall"};
  const std::set<std::string> mustBuild = {"banded", "single_dense_row", "one_by_one", "zero_rows",
                                           "zero_rows_five_cols", "no_entries"};
  for (const auto& c : test::formatCases()) {
    const bool built = checkDia<Cfg>(c.name, c.matrix);
    if (mustRefuse.count(c.name)) BOOST_TEST(!built, c.name << " should be refused");
    if (mustBuild.count(c.name)) BOOST_TEST(built, c.name << " should be built");
  }
}

BOOST_AUTO_TEST_CASE_TEMPLATE(exact_layout, Cfg, test::AllConfigs) {
  using T = Types<Cfg>;
  typename T::Exec exec;
  // [ 1 2 . ]
  // [ . 0 4 ]   (0: an explicit zero, which must stay a real entry)
  // [ . 5 6 ]
  const auto host = test::fromTriplets(3, 3, {{0, 0, 1}, {0, 1, 2}, {1, 1, 0}, {1, 2, 4}, {2, 1, 5}, {2, 2, 6}});
  const auto csr = csrFromHost<typename T::Csr>(host);
  const auto dia = diaFromCsr(exec, csr);
  BOOST_TEST(dia.numRows == 3);
  BOOST_TEST(dia.numCols == 3);
  BOOST_TEST(dia.numDiags == 3);
  BOOST_TEST(dia.nnz() == 6);
  BOOST_TEST(dia.storedSlots() == 9);
  BOOST_TEST(hostDoubles(dia.offsets) == std::vector<double>({-1, 0, 1}), boost::test_tools::per_element());
  // Column-major: diagonal -1 for rows 0..2, then diagonal 0, then diagonal 1.
  BOOST_TEST(hostDoubles(dia.data) == std::vector<double>({0, 0, 5, /**/ 1, 0, 6, /**/ 2, 4, 0}),
             boost::test_tools::per_element());
  // Present slots 2 (row 2 of diagonal -1), 3..5 (diagonal 0, the explicit zero included), 6..7.
  BOOST_TEST(hostDoubles(dia.present) == std::vector<double>({0b11111100}), boost::test_tools::per_element());
  BOOST_TEST(dia.bytes() == static_cast<std::int64_t>(3 * sizeof(typename T::Ordinal) + 9 * sizeof(typename T::Value) + 4));
  BOOST_TEST(test::identicalCsr(csrFromDia(exec, dia), csr));
}

BOOST_AUTO_TEST_CASE_TEMPLATE(padding_never_reads_x, Cfg, test::AllConfigs) {
  using T = Types<Cfg>;
  using Value = typename T::Value;
  typename T::Exec exec;
  const Value inf = std::numeric_limits<Value>::infinity();
  // The matrix of exact_layout. Diagonal -1 has a hole in row 1 (at column 0) and runs off the
  // matrix in row 0; diagonal 1 runs off in row 2.
  const auto host = test::fromTriplets(3, 3, {{0, 0, 1}, {0, 1, 2}, {1, 1, 0}, {1, 2, 4}, {2, 1, 5}, {2, 2, 6}});
  const auto dia = diaFromCsr(exec, csrFromHost<typename T::Csr>(host));
  auto product = [&](std::vector<double> xValues) {
    const auto x = deviceCopy<typename T::Vector>("x", xValues);
    typename T::Vector y("y", 3);
    spmv(exec, dia, x, y, Value(1), Value(0));
    exec.fence();
    return hostDoubles(y);
  };
  // x(0) = Inf meets only row 0's real entry, not row 1's hole.
  const auto y1 = product({inf, 1, 2});
  BOOST_TEST(std::isinf(y1[0]));
  BOOST_TEST(y1[1] == 8.0);
  BOOST_TEST(y1[2] == 17.0);
  // x(1) = Inf meets the explicit zero of row 1: 0 * Inf = NaN, as in CSR.
  const auto y2 = product({1, inf, 1});
  BOOST_TEST(std::isinf(y2[0]));
  BOOST_TEST(std::isnan(y2[1]));
  BOOST_TEST(std::isinf(y2[2]));
}

BOOST_AUTO_TEST_CASE_TEMPLATE(refuses_duplicate_or_unsorted_columns, Cfg, test::AllConfigs) {
  using T = Types<Cfg>;
  typename T::Exec exec;
  auto isStructureError = [](const InputError& e) {
    const std::string m = e.what();
    return m.find("1 rows of the CSR have duplicate or unsorted columns") != std::string::npos &&
           m.find("expected strictly increasing columns") != std::string::npos;
  };
  // A user's COO may hold the same position twice; CSR keeps both, DIA cannot.
  io::HostMatrix duplicated = test::fromTriplets(2, 3, {{0, 1, 1}, {1, 0, 2}, {1, 0, 3}});
  const auto withDuplicate =
      csrFromCoo(exec, cooFromHost<CooMatrix<typename T::Value, typename T::Ordinal, typename T::Offset, typename T::Device>>(
                           duplicated));
  BOOST_CHECK_EXCEPTION(diaFromCsr(exec, withDuplicate), InputError, isStructureError);
  // A CSR written by hand with a row out of column order.
  typename T::Csr unsorted;
  unsorted.numRows = 2;
  unsorted.numCols = 3;
  unsorted.rowPtr = deviceCopy<decltype(unsorted.rowPtr)>("rowPtr", {0, 2, 3});
  unsorted.colIdx = deviceCopy<decltype(unsorted.colIdx)>("colIdx", {2, 0, 1});
  unsorted.values = deviceCopy<decltype(unsorted.values)>("values", {1, 2, 3});
  BOOST_CHECK_EXCEPTION(diaFromCsr(exec, unsorted), InputError, isStructureError);
}

BOOST_AUTO_TEST_CASE_TEMPLATE(padding_refusal_and_force, Cfg, test::AllConfigs) {
  using T = Types<Cfg>;
  typename T::Exec exec;
  const auto& oneDenseRow = formatCase("one_dense_row");
  const auto csr = csrFromHost<typename T::Csr>(oneDenseRow);
  // Row 17 alone crosses 5000 diagonals, each stored over all 300 rows.
  BOOST_CHECK_EXCEPTION(diaFromCsr(exec, csr), PaddingError, [](const PaddingError& e) {
    const std::string m = e.what();
    return e.ratio() > 283 && m.find("DIA") == 0 && m.find("diagonals") != std::string::npos &&
           m.find("force") != std::string::npos;
  });
  BOOST_TEST(checkDia<Cfg>("one_dense_row forced", oneDenseRow, FormatOptions{kDefaultMaxPaddingRatio, true}));
  // The band fills its 11 diagonals but for the corners: 33,000 slots for 32,970 entries (ratio 1.0009).
  BOOST_TEST(checkDia<Cfg>("banded", formatCase("banded")));
  BOOST_CHECK_THROW(diaFromCsr(exec, csrFromHost<typename T::Csr>(formatCase("banded")), FormatOptions{1.0005, false}),
                    PaddingError);
}

BOOST_AUTO_TEST_CASE_TEMPLATE(refuses_other_algorithms, Cfg, test::AllConfigs) {
  using T = Types<Cfg>;
  typename T::Exec exec;
  const auto dia = diaFromCsr(exec, csrFromHost<typename T::Csr>(test::fromTriplets(3, 3, {{0, 0, 1}, {1, 1, 2}})));
  typename T::Vector x("x", 3), y("y", 3);
  BOOST_CHECK_THROW(spmv(exec, dia, x, y, 1, 0, {SpmvAlgorithm::CsrScalar}), UnsupportedError);
}
