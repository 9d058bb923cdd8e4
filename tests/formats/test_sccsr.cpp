// SC-CSR: the round trip to CSR and the SpMV on every real matrix and every format case (with
// the device's folding threshold, with no folding and with everything folded into the last
// range), the layout of a hand-made matrix written out slot by slot, the folding rule, and
// the padding refusal and its override.
#define BOOST_TEST_MODULE sccsr
#include <boost/test/unit_test.hpp>

#include "support/format_check.hpp"
#include "support/format_fixture.hpp"
#include "support/generated.hpp"
#include "support/kokkos_env.hpp"
#include "support/real_matrices.hpp"
#include "support/spmv_check.hpp"

#include <araios/araios.hpp>
#include <araios/formats/sccsr/sccsr_convert.hpp>
#include <araios/formats/sccsr/sccsr_spmv.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <optional>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

using araios::test::KokkosFixture;
BOOST_TEST_GLOBAL_FIXTURE(KokkosFixture);

namespace {

using namespace araios;
using test::hostDoubles;
using test::hostInts;

/// N_w of an H100 (132 SMs): 0.5 x 132 x 8 x 8. On the host it makes the layouts fold as they
/// do on that GPU.
constexpr double kH100FoldingThreshold = 4224;
/// A threshold no range reaches: every class folds into the last one.
constexpr double kFoldEverything = 1e18;

template <class Cfg>
using Types = test::FormatTypes<Cfg, ScCsrMatrix>;

/// The layout's invariants, checked from the CSR row lengths: rowIndex is a permutation in
/// ascending length order, the ranges tile the rows with decreasing merge factors, every
/// range but the last holds at least `threshold` merged rows, and each merged row has c
/// slots per entry of its longest row.
template <class Sc>
void checkLayout(const std::string& label, const Sc& sc, const std::vector<std::int64_t>& csrRowPtr, double threshold) {
  const auto rowIndex = hostInts(sc.rowIndex);
  const auto rowPtr = hostInts(sc.rowPtr);
  const std::int64_t n = sc.numRows;
  auto length = [&](std::int64_t row) { return csrRowPtr[row + 1] - csrRowPtr[row]; };
  std::vector<char> seen(n, 0);
  bool permutation = static_cast<std::int64_t>(rowIndex.size()) == n, sorted = true;
  for (std::int64_t s = 0; permutation && s < n; ++s) {
    permutation = rowIndex[s] >= 0 && rowIndex[s] < n && !seen[rowIndex[s]];
    if (permutation) seen[rowIndex[s]] = 1;
    if (permutation && s > 0) sorted = sorted && length(rowIndex[s - 1]) <= length(rowIndex[s]);
  }
  BOOST_TEST(permutation, label << ": rowIndex is not a permutation");
  if (!permutation) return;
  BOOST_TEST(sorted, label << ": rows are not in ascending length order");
  std::int64_t nextRow = 0, nextMerged = 0;
  int lastC = 64;
  for (std::size_t k = 0; k < sc.ranges.extent(0); ++k) {
    const ScCsrRange& r = sc.ranges(k);
    BOOST_TEST(r.firstRow == nextRow, label);
    BOOST_TEST(r.firstMergedRow == nextMerged, label);
    BOOST_TEST(r.mergeFactor < lastC, label);
    BOOST_TEST(r.numMergedRows == (r.numRows + r.mergeFactor - 1) / r.mergeFactor, label);
    if (k + 1 < sc.ranges.extent(0)) BOOST_TEST(static_cast<double>(r.numRows) / r.mergeFactor >= threshold, label);
    for (std::int64_t g = 0; g < r.numMergedRows; ++g) {
      const std::int64_t longest = std::min(r.numRows, (g + 1) * r.mergeFactor) - 1;
      const std::int64_t m = r.firstMergedRow + g;
      if (rowPtr[m + 1] - rowPtr[m] != r.mergeFactor * length(rowIndex[r.firstRow + longest])) {
        BOOST_ERROR(label << ": merged row " << m << " has " << rowPtr[m + 1] - rowPtr[m] << " slots");
        break;
      }
    }
    nextRow += r.numRows;
    nextMerged += r.numMergedRows;
    lastC = r.mergeFactor;
  }
  BOOST_TEST(nextRow == n, label << ": the ranges do not cover the rows");
  BOOST_TEST(nextMerged == sc.numMergedRows(), label);
  BOOST_TEST(sc.storedSlots() == rowPtr.back(), label);
}

std::string labelFor(const std::string& name, std::optional<double> threshold) {
  std::ostringstream label;
  label << name << " (N_w ";
  if (threshold) {
    label << *threshold << ")";
  } else {
    label << "default)";
  }
  return label.str();
}

/// Builds SC-CSR with the given threshold (the default when empty), checks the round trip,
/// the layout and the SpMV; optionally the bitwise repeatability too.
template <class Cfg>
void checkMatrix(const std::string& name, const io::HostMatrix& host, std::optional<double> threshold,
                 bool repeatability) {
  using T = Types<Cfg>;
  typename T::Exec exec;
  const auto csr = csrFromHost<typename T::Csr>(host);
  ScCsrOptions scOptions;
  scOptions.foldingThreshold = threshold;
  const std::string label = labelFor(name, threshold);
  const auto sc = test::buildChecked(
      label, exec, csr, [&](const auto& e, const auto& m) { return scCsrFromCsr(e, m, FormatOptions{}, scOptions); },
      [](const auto& e, const auto& m) { return csrFromScCsr(e, m); });
  if (!sc) {
    BOOST_TEST_MESSAGE(label << ": refused for its padding");
    return;
  }
  checkLayout(label, *sc, hostInts(csr.rowPtr), threshold ? *threshold : scCsrDefaultFoldingThreshold(exec));
  auto run = [&](const auto& x, const auto& y, typename T::Value a, typename T::Value b) {
    spmv(exec, *sc, x, y, a, b);
  };
  test::checkSpmvAgainstReference<typename T::Value, typename T::Device>(label, host, run);
  // checkRepeatable memcmp()s the data of empty vectors, a null pointer, which UBSan rejects:
  // a matrix without rows has nothing to repeat anyway.
  if (repeatability && host.numRows > 0) {
    test::checkRepeatable<typename T::Value, typename T::Device>(label, host, run, 3);
  }
}

/// Ten rows of lengths 3, 0, 9, 1, 17, 33, 3, 8, 2, 16: every length class is present. Entry j
/// of row i is at column j + i % 3 and has the value 100 i + j + 1 (exact in float).
const std::vector<std::int64_t> kTenRowLengths = {3, 0, 9, 1, 17, 33, 3, 8, 2, 16};

io::HostMatrix tenRows() {
  std::vector<std::tuple<std::int64_t, std::int64_t, double>> entries;
  for (std::int64_t i = 0; i < 10; ++i)
    for (std::int64_t j = 0; j < kTenRowLengths[i]; ++j) entries.emplace_back(i, j + i % 3, 100.0 * i + j + 1);
  return test::fromTriplets(10, 40, std::move(entries));
}

/// Where each row of tenRows() starts and the stride between its entries, written out by hand.
struct RowPlacement {
  std::int64_t base, stride;
};

/// Compares the slots of `sc` with tenRows() placed as `placement` says: every other slot must
/// be padding (column -1, value 0).
template <class Sc>
void checkTenRowSlots(const Sc& sc, const std::vector<RowPlacement>& placement) {
  const std::int64_t slots = sc.storedSlots();
  std::vector<std::int64_t> cols(slots, -1);
  std::vector<double> values(slots, 0.0);
  for (std::int64_t i = 0; i < 10; ++i) {
    for (std::int64_t j = 0; j < kTenRowLengths[i]; ++j) {
      cols[placement[i].base + j * placement[i].stride] = j + i % 3;
      values[placement[i].base + j * placement[i].stride] = 100.0 * i + j + 1;
    }
  }
  BOOST_TEST(hostInts(sc.colIdx) == cols, boost::test_tools::per_element());
  BOOST_TEST(hostDoubles(sc.values) == values, boost::test_tools::per_element());
}

/// "{c firstRow numRows firstMergedRow numMergedRows}" for each range, to compare and print.
std::string describe(const ScCsrRange* ranges, std::size_t count) {
  std::string out;
  for (std::size_t k = 0; k < count; ++k) {
    const ScCsrRange& r = ranges[k];
    out += "{" + std::to_string(r.mergeFactor) + " " + std::to_string(r.firstRow) + " " + std::to_string(r.numRows) +
           " " + std::to_string(r.firstMergedRow) + " " + std::to_string(r.numMergedRows) + "}";
  }
  return out;
}

template <class Sc>
std::string rangesOf(const Sc& sc) {
  return describe(sc.ranges.data(), sc.ranges.extent(0));
}

template <class Cfg>
typename Types<Cfg>::Matrix forcedTenRows(double threshold) {
  using T = Types<Cfg>;
  typename T::Exec exec;
  FormatOptions options;
  options.force = true;
  ScCsrOptions scOptions;
  scOptions.foldingThreshold = threshold;
  auto sc = scCsrFromCsr(exec, csrFromHost<typename T::Csr>(tenRows()), options, scOptions);
  exec.fence();
  return sc;
}

template <class Cfg>
void checkTenRowSpmv(const std::string& label, const typename Types<Cfg>::Matrix& sc) {
  using T = Types<Cfg>;
  typename T::Exec exec;
  test::checkSpmvAgainstReference<typename T::Value, typename T::Device>(
      label, tenRows(), [&](const auto& x, const auto& y, typename T::Value a, typename T::Value b) {
        spmv(exec, sc, x, y, a, b);
      });
}

}  // namespace

BOOST_AUTO_TEST_CASE_TEMPLATE(real_matrices, Cfg, test::AllConfigs) {
  for (const auto& m : test::realMatrices()) {
    checkMatrix<Cfg>(m.name, m.matrix, std::nullopt, false);
    checkMatrix<Cfg>(m.name, m.matrix, kH100FoldingThreshold, false);
  }
}

BOOST_AUTO_TEST_CASE_TEMPLATE(format_cases, Cfg, test::AllConfigs) {
  for (const auto& c : test::formatCases()) {
    checkMatrix<Cfg>(c.name, c.matrix, std::nullopt, true);
    checkMatrix<Cfg>(c.name, c.matrix, 0.0, false);
    checkMatrix<Cfg>(c.name, c.matrix, kFoldEverything, false);
  }
}

BOOST_AUTO_TEST_CASE_TEMPLATE(layout_without_folding, Cfg, test::AllConfigs) {
  // Sorted: rows 1 (0 entries), 3 (1), 8 (2), 0 (3), 6 (3) | 7 (8), 2 (9) | 9 (16), 4 (17) | 5 (33).
  const auto sc = forcedTenRows<Cfg>(0.0);
  BOOST_TEST(hostInts(sc.rowIndex) == std::vector<std::int64_t>({1, 3, 8, 0, 6, 7, 2, 9, 4, 5}),
             boost::test_tools::per_element());
  // {c, firstRow, numRows, firstMergedRow, numMergedRows}
  BOOST_TEST(rangesOf(sc) == "{32 0 5 0 1}{16 5 2 1 1}{8 7 2 2 1}{4 9 1 3 1}");
  // 32 x 3, 16 x 9, 8 x 17 and 4 x 33 slots.
  BOOST_TEST(hostInts(sc.rowPtr) == std::vector<std::int64_t>({0, 96, 240, 376, 508}), boost::test_tools::per_element());
  BOOST_TEST(sc.nnz() == 92);
  BOOST_TEST(sc.storedSlots() == 508);
  //                  row 0     1        2         3        4          5          6        7         8        9
  checkTenRowSlots(sc, {{3, 32}, {0, 32}, {97, 16}, {1, 32}, {241, 8}, {376, 4}, {4, 32}, {96, 16}, {2, 32}, {240, 8}});
  // A few slots spelled out: row 0's first two entries, row 2's last, the padding after row
  // 7's last entry, row 5's last entry and the three padding rows beside it.
  const auto cols = hostInts(sc.colIdx);
  const auto values = hostDoubles(sc.values);
  BOOST_TEST(cols[3] == 0);
  BOOST_TEST(values[3] == 1.0);
  BOOST_TEST(cols[35] == 1);
  BOOST_TEST(values[35] == 2.0);
  BOOST_TEST(cols[225] == 10);
  BOOST_TEST(values[225] == 209.0);
  BOOST_TEST(cols[224] == -1);
  BOOST_TEST(values[224] == 0.0);
  BOOST_TEST(cols[504] == 34);
  BOOST_TEST(values[504] == 533.0);
  BOOST_TEST((cols[505] == -1 && cols[506] == -1 && cols[507] == -1));
  checkTenRowSpmv<Cfg>("ten rows, no folding", sc);
}

BOOST_AUTO_TEST_CASE_TEMPLATE(layout_with_folding, Cfg, test::AllConfigs) {
  {
    // N_w = 1: [0,8) has 5/32 merged rows and [8,16) then 7/16, both below 1, so they fold
    // into [16,32), which reaches 9/8 and stays with c = 8. [32,inf) has 1/4 but is last.
    const auto sc = forcedTenRows<Cfg>(1.0);
    BOOST_TEST(rangesOf(sc) == "{8 0 9 0 2}{4 9 1 2 1}");
    // 8 x 16 (rows 1 3 8 0 6 7 2 9), 8 x 17 (row 4 and seven empty rows), 4 x 33 (row 5).
    BOOST_TEST(hostInts(sc.rowPtr) == std::vector<std::int64_t>({0, 128, 264, 396}), boost::test_tools::per_element());
    //                  row 0    1       2       3       4         5         6       7       8       9
    checkTenRowSlots(sc, {{3, 8}, {0, 8}, {6, 8}, {1, 8}, {128, 8}, {264, 4}, {4, 8}, {5, 8}, {2, 8}, {7, 8}});
    checkTenRowSpmv<Cfg>("ten rows, N_w = 1", sc);
  }
  {
    // N_w = 2: [16,32) with the folded rows has 9/8 < 2 merged rows too: all ten rows end in
    // the last range, four per merged row.
    const auto sc = forcedTenRows<Cfg>(2.0);
    BOOST_TEST(rangesOf(sc) == "{4 0 10 0 3}");
    // 4 x 3 (rows 1 3 8 0), 4 x 16 (rows 6 7 2 9), 4 x 33 (rows 4 5 and two empty rows).
    BOOST_TEST(hostInts(sc.rowPtr) == std::vector<std::int64_t>({0, 12, 76, 208}), boost::test_tools::per_element());
    //                  row 0    1       2        3       4        5        6        7        8       9
    checkTenRowSlots(sc, {{3, 4}, {0, 4}, {14, 4}, {1, 4}, {76, 4}, {77, 4}, {12, 4}, {13, 4}, {2, 4}, {15, 4}});
    checkTenRowSpmv<Cfg>("ten rows, N_w = 2", sc);
  }
}

BOOST_AUTO_TEST_CASE(folding_rule) {
  auto plan = [](std::array<std::int64_t, 4> classRows, double threshold) {
    const auto ranges = planScCsrRanges(classRows, threshold);
    return describe(ranges.data(), ranges.size());
  };
  // {c firstRow numRows firstMergedRow numMergedRows} per range.
  // 40 short rows make 1.25 merged rows at c = 32, below 2: they join [8,16), which then has
  // 40/16 = 2.5 and stays. [32,inf) has 3/4 but nothing to fold into.
  BOOST_TEST(plan({40, 0, 100, 3}, 2.0) == "{16 0 40 0 3}{8 40 100 3 13}{4 140 3 16 1}");
  // Exactly N_w merged rows is enough; one row fewer folds.
  BOOST_TEST(plan({64, 0, 0, 0}, 2.0) == "{32 0 64 0 2}");
  BOOST_TEST(plan({63, 0, 0, 0}, 2.0) == "{16 0 63 0 4}");
  // Folds cascade down to the last class.
  BOOST_TEST(plan({5, 2, 2, 1}, 2.0) == "{4 0 10 0 3}");
  // N_w = 0 never folds; empty classes make no range.
  BOOST_TEST(plan({1, 1, 1, 1}, 0.0) == "{32 0 1 0 1}{16 1 1 1 1}{8 2 1 2 1}{4 3 1 3 1}");
  BOOST_TEST(plan({0, 33, 0, 0}, 0.0) == "{16 0 33 0 3}");
  BOOST_TEST(plan({0, 0, 0, 0}, 5.0) == "");

  BOOST_TEST(scCsrLengthClass(0) == 0u);
  BOOST_TEST(scCsrLengthClass(7) == 0u);
  BOOST_TEST(scCsrLengthClass(8) == 1u);
  BOOST_TEST(scCsrLengthClass(15) == 1u);
  BOOST_TEST(scCsrLengthClass(16) == 2u);
  BOOST_TEST(scCsrLengthClass(31) == 2u);
  BOOST_TEST(scCsrLengthClass(32) == 3u);
  BOOST_TEST(scCsrLengthClass(100000) == 3u);
}

BOOST_AUTO_TEST_CASE_TEMPLATE(default_folding_threshold, Cfg, test::AllConfigs) {
  using Exec = typename Cfg::execution_space;
  Exec exec;
  // The default is one value everywhere, so the layout does not depend on the machine.
  BOOST_TEST(scCsrDefaultFoldingThreshold(exec) == 4224.0);
  const double threshold = scCsrDeviceFoldingThreshold(exec);
#ifdef KOKKOS_ENABLE_CUDA
  if constexpr (std::is_same_v<Exec, Kokkos::Cuda>) {
    BOOST_TEST(threshold == 32.0 * exec.cuda_device_prop().multiProcessorCount);
    return;
  }
#endif
  if constexpr (Impl::isHostSpace<Exec>()) BOOST_TEST(threshold == static_cast<double>(exec.concurrency()));
}

BOOST_AUTO_TEST_CASE_TEMPLATE(padding_refusal_and_force, Cfg, test::AllConfigs) {
  using T = Types<Cfg>;
  typename T::Exec exec;
  const auto csr = csrFromHost<typename T::Csr>(tenRows());
  ScCsrOptions noFolding;
  noFolding.foldingThreshold = 0.0;
  // 508 slots for 92 nonzeros.
  BOOST_CHECK_EXCEPTION(scCsrFromCsr(exec, csr, FormatOptions{}, noFolding), PaddingError, [](const PaddingError& e) {
    const std::string m = e.what();
    return e.ratio() > 5.52 && e.ratio() < 5.53 && m.find("SC-CSR") == 0 &&
           m.find("508 slots for 92 nonzeros") != std::string::npos && m.find("force") != std::string::npos;
  });
  FormatOptions roomy;
  roomy.maxPaddingRatio = 6.0;
  BOOST_CHECK_NO_THROW(scCsrFromCsr(exec, csr, roomy, noFolding));
  // force is checked by the layout tests above, which build this matrix with it.

  // One long row alone in the last range is padded with three empty rows: four slots per entry.
  const test::GeneratedCase denseCase = test::formatCases().back();
  BOOST_TEST(denseCase.name == "single_dense_row");
  const auto dense = csrFromHost<typename T::Csr>(denseCase.matrix);
  BOOST_CHECK_THROW(scCsrFromCsr(exec, dense), PaddingError);
  FormatOptions force;
  force.force = true;
  const auto sc = scCsrFromCsr(exec, dense, force);
  BOOST_TEST(sc.storedSlots() == 4 * 3000);
  test::checkSpmvAgainstReference<typename T::Value, typename T::Device>(
      "forced single dense row", denseCase.matrix,
      [&](const auto& x, const auto& y, typename T::Value a, typename T::Value b) { spmv(exec, sc, x, y, a, b); });
}

BOOST_AUTO_TEST_CASE(skips_padding_when_x_holds_inf) {
  // Two rows of one entry share a merged row of 32 lanes, 30 of them padding rows. x's Inf
  // sits in the column only row 1 uses: reading x through padding would make row 0 NaN.
  const io::HostMatrix host = test::fromTriplets(2, 2, {{0, 0, 2.0}, {1, 1, 3.0}});
  FormatOptions force;
  force.force = true;
  Kokkos::DefaultExecutionSpace exec;
  const auto sc = scCsrFromCsr(exec, csrFromHost<CsrMatrix<double>>(host), force);
  Kokkos::View<double*> x("x", 2), y("y", 2);
  auto xHost = Kokkos::create_mirror_view(x);
  xHost(0) = 1.5;
  xHost(1) = std::numeric_limits<double>::infinity();
  Kokkos::deep_copy(x, xHost);
  spmv(exec, sc, x, y, 1.0, 0.0);
  const auto yHost = hostDoubles(y);
  BOOST_TEST(yHost[0] == 3.0);
  BOOST_TEST(std::isinf(yHost[1]));
}

BOOST_AUTO_TEST_CASE(refuses_other_algorithms) {
  using Exec = Kokkos::DefaultExecutionSpace;
  Exec exec;
  const auto sc = scCsrFromCsr(exec, csrFromHost<CsrMatrix<double>>(test::randomMatrix(10, 7, 1, 3, 1)));
  Kokkos::View<double*> x("x", 7), y("y", 10);
  BOOST_CHECK_EXCEPTION(spmv(exec, sc, x, y, 1.0, 0.0, {SpmvAlgorithm::CsrVector}), UnsupportedError,
                        [](const UnsupportedError& e) {
                          return std::string(e.what()).find("SC-CSR") != std::string::npos;
                        });
}
