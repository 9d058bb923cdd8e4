// computeFeatures (model/compute_features.hpp) on every backend against a plain host
// computation from the matrix's entries: row lengths, classes, 32-row groups, and the sampled
// column blocks and diagonals, on the real matrices and on generated ones (empty rows, a dense
// row, more rows than the sample, wide and tall shapes). Every field must be equal, exactly.
#define BOOST_TEST_MODULE features
#include <boost/test/unit_test.hpp>

#include "support/generated.hpp"
#include "support/kokkos_env.hpp"
#include "support/real_matrices.hpp"

#include <araios/araios.hpp>
#include <araios/format_footprints.hpp>
#include <araios/formats/sell/sell_convert.hpp>
#include <araios/model/compute_features.hpp>

#include <algorithm>
#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

using araios::test::KokkosFixture;
BOOST_TEST_GLOBAL_FIXTURE(KokkosFixture);

namespace {

using namespace araios;

/// floor(log2(len)) + 1, counted by doubling (0 for an empty row).
int hostClass(std::int64_t len) {
  int c = 0;
  for (std::int64_t p = 1; p <= len && c < kRowLengthClasses - 1; p *= 2) ++c;
  return c;
}

MatrixFeatures hostFeatures(const io::HostMatrix& m) {
  MatrixFeatures f;
  f.rows = m.numRows;
  f.cols = m.numCols;
  f.nnz = m.nnz();
  if (f.rows == 0) return f;
  // Entries by row.
  std::vector<std::vector<std::int64_t>> rows(static_cast<std::size_t>(m.numRows));
  for (std::int64_t k = 0; k < m.nnz(); ++k) rows[m.row[k]].push_back(m.col[k]);
  for (auto& r : rows) std::sort(r.begin(), r.end());  // CSR's order
  f.minRowLength = f.nnz + 1;
  for (std::int64_t i = 0; i < f.rows; ++i) {
    const auto len = static_cast<std::int64_t>(rows[i].size());
    f.rowLengthSquares += len * len;
    f.emptyRows += len == 0;
    f.maxRowLength = std::max(f.maxRowLength, len);
    f.minRowLength = std::min(f.minRowLength, len);
    f.rowsByClass[hostClass(len)] += 1;
    f.entriesByClass[hostClass(len)] += len;
  }
  for (std::int64_t w = 0; w < f.rows; w += kRowWindow) {
    // SELL's estimate: the window's rows ordered by length class, longest class first; a slice
    // starting at sorted position p is as wide as the longest row of p's class.
    std::vector<int> classes;
    std::map<int, std::int64_t> longestOfClass;
    for (std::int64_t i = w; i < std::min(f.rows, w + kRowWindow); ++i) {
      const auto len = static_cast<std::int64_t>(rows[i].size());
      classes.push_back(hostClass(len));
      longestOfClass[classes.back()] = std::max(longestOfClass[classes.back()], len);
    }
    std::sort(classes.begin(), classes.end(), std::greater<>());
    for (std::size_t p = 0; p < classes.size(); p += kRowGroup) f.sellSlots += kRowGroup * longestOfClass[classes[p]];
  }
  for (std::int64_t g = 0; g < f.rows; g += kRowGroup) {
    std::int64_t longest = 0;
    for (std::int64_t i = g; i < std::min(f.rows, g + kRowGroup); ++i) {
      longest = std::max<std::int64_t>(longest, static_cast<std::int64_t>(rows[i].size()));
    }
    f.groupSlots += kRowGroup * longest;
  }
  const std::int64_t sampled = std::min(f.rows, kSampledRows);
  std::set<std::int64_t> diagonals;
  for (std::int64_t k = 0; k < sampled; ++k) {
    const std::int64_t i =
        sampled > 1 ? static_cast<std::int64_t>(static_cast<__int128>(k) * (f.rows - 1) / (sampled - 1)) : 0;
    std::set<std::int64_t> previous;
    if (i > 0) {
      for (const std::int64_t c : rows[i - 1]) previous.insert(c / kColumnBlock);
    }
    std::set<std::int64_t> blocks;
    const auto take = std::min<std::size_t>(rows[i].size(), static_cast<std::size_t>(kSampledEntriesPerRow));
    for (std::size_t e = 0; e < take; ++e) {
      blocks.insert(rows[i][e] / kColumnBlock);
      diagonals.insert(rows[i][e] - i);
    }
    f.sampledRows += 1;
    f.sampledEntries += static_cast<std::int64_t>(take);
    f.sampledBlocks += static_cast<std::int64_t>(blocks.size());
    for (const std::int64_t b : blocks) f.sampledNewBlocks += previous.count(b) == 0;
  }
  f.sampledDiagonals = static_cast<std::int64_t>(diagonals.size());
  return f;
}

void checkEqual(const MatrixFeatures& got, const MatrixFeatures& want) {
  BOOST_TEST(got.rows == want.rows);
  BOOST_TEST(got.cols == want.cols);
  BOOST_TEST(got.nnz == want.nnz);
  BOOST_TEST(got.maxRowLength == want.maxRowLength);
  if (want.rows > 0) BOOST_TEST(got.minRowLength == want.minRowLength);
  BOOST_TEST(got.emptyRows == want.emptyRows);
  BOOST_TEST(got.rowLengthSquares == want.rowLengthSquares);
  BOOST_TEST(got.groupSlots == want.groupSlots);
  BOOST_TEST(got.sellSlots == want.sellSlots);
  for (int c = 0; c < kRowLengthClasses; ++c) {
    BOOST_TEST_CONTEXT("class " << c) {
      BOOST_TEST(got.rowsByClass[c] == want.rowsByClass[c]);
      BOOST_TEST(got.entriesByClass[c] == want.entriesByClass[c]);
    }
  }
  BOOST_TEST(got.sampledRows == want.sampledRows);
  BOOST_TEST(got.sampledEntries == want.sampledEntries);
  BOOST_TEST(got.sampledBlocks == want.sampledBlocks);
  BOOST_TEST(got.sampledNewBlocks == want.sampledNewBlocks);
  BOOST_TEST(got.sampledDiagonals == want.sampledDiagonals);
}

/// SELL's estimate is at least what SELL stores, and at most twice (a class spans a factor 2).
void checkSellEstimate(const std::string& name, const io::HostMatrix& host, const MatrixFeatures& f) {
  const RowLengthStatistics stats =
      RowLengthStatistics::fromEntries(host.numRows, host.numCols, host.row.data(), host.col.data(), host.nnz());
  FormatOptions forced;
  forced.force = true;
  const std::int64_t stored = estimateFootprint<double, std::int64_t, std::int64_t>("sell", stats, forced).storedSlots;
  BOOST_TEST_CONTEXT(name << ": SELL stores " << stored << " slots, estimated " << f.sellSlots) {
    BOOST_TEST(f.sellSlots >= stored);
    BOOST_TEST(f.sellSlots <= 2 * stored);
  }
}

template <class Exec>
void checkMatrix(const std::string& name, const io::HostMatrix& host) {
  const MatrixFeatures want = hostFeatures(host);
  checkSellEstimate(name, host, want);
  const Exec exec;
  BOOST_TEST_CONTEXT(name << " on " << Exec::name() << ", 32-bit indices") {
    using Csr = CsrMatrix<double, std::int32_t, std::int32_t, typename Exec::device_type>;
    checkEqual(computeFeatures(exec, csrFromHost<Csr>(host)), want);
  }
  BOOST_TEST_CONTEXT(name << " on " << Exec::name() << ", 64-bit indices") {
    using Csr = CsrMatrix<float, std::int64_t, std::int64_t, typename Exec::device_type>;
    checkEqual(computeFeatures(exec, csrFromHost<Csr>(host)), want);
  }
}

template <class F>
void forEachSpace(F&& f) {
  std::apply([&](auto... spaces) { (f(spaces), ...); }, test::EnabledSpaces{});
}

}  // namespace

BOOST_AUTO_TEST_CASE(features_equal_the_host_computation_on_real_matrices) {
  BOOST_TEST_REQUIRE(!test::realMatrices().empty());
  forEachSpace([](auto space) {
    for (const auto& [name, matrix] : test::realMatrices()) checkMatrix<decltype(space)>(name, matrix);
  });
}

BOOST_AUTO_TEST_CASE(features_equal_the_host_computation_on_generated_matrices) {
  std::vector<test::GeneratedCase> cases = test::formatCases();
  // More rows than the sample, so the sampled rows are spread; rows past the per-row limit.
  cases.push_back({"random_30000_rows", test::randomMatrix(30000, 40000, 0, 12, 71)});
  {
    std::vector<std::tuple<std::int64_t, std::int64_t, double>> e;
    for (std::int64_t c = 0; c < 9000; c += 2) e.emplace_back(0, c, 1.0);
    for (std::int64_t c = 0; c < 9000; c += 3) e.emplace_back(1, c, 2.0);
    cases.push_back({"two_long_rows", test::fromTriplets(2, 9000, std::move(e))});
  }
  forEachSpace([&](auto space) {
    for (const auto& c : cases) checkMatrix<decltype(space)>(c.name, c.matrix);
  });
}

BOOST_AUTO_TEST_CASE(the_windows_are_sells) {
  BOOST_TEST(kRowWindow == kDefaultSellSortWindow);
  BOOST_TEST(kRowGroup == kDefaultSellSliceHeight);
}

BOOST_AUTO_TEST_CASE(the_row_length_class_is_the_bit_width) {
  for (const std::int64_t len : {0LL, 1LL, 2LL, 3LL, 4LL, 7LL, 8LL, 1000LL, 1LL << 20, (1LL << 20) - 1}) {
    BOOST_TEST(rowLengthClass(len) == hostClass(len), "length " << len);
  }
}
