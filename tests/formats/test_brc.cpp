// BRC (Ashari et al., ICS 2014): the round trip to CSR and the atomic SpMV on every real matrix
// and every generated format case, the exact layout of a hand-made matrix, long rows split
// into pieces over several blocks, the padding refusal and force, and the host plans' orders against
// plain stable sorts.
#define BOOST_TEST_MODULE brc
#include <boost/test/unit_test.hpp>

#include "support/format_check.hpp"
#include "support/format_fixture.hpp"
#include "support/generated.hpp"
#include "support/kokkos_env.hpp"
#include "support/real_matrices.hpp"
#include "support/spmv_check.hpp"

#include <araios/araios.hpp>
#include <araios/formats/brc/brc_convert.hpp>
#include <araios/formats/brc/brc_spmv.hpp>
#include <araios/formats/jds/sort_rows_by_length.hpp>

#include <algorithm>
#include <cstring>
#include <numeric>
#include <optional>
#include <random>
#include <tuple>
#include <vector>

using araios::test::KokkosFixture;
BOOST_TEST_GLOBAL_FIXTURE(KokkosFixture);

namespace {

using namespace araios;
using test::hostInts;
using test::hostValues;

template <class Cfg>
using Types = test::FormatTypes<Cfg, BrcMatrix>;

template <class Cfg>
std::optional<typename Types<Cfg>::Matrix> buildBrc(const std::string& label, const io::HostMatrix& host,
                                                 const FormatOptions& options = {}) {
  using T = Types<Cfg>;
  typename T::Exec exec;
  const auto csr = csrFromHost<typename T::Csr>(host);
  return test::buildChecked(
      label, exec, csr, [&](const auto& e, const auto& c) { return brcFromCsr(e, c, options); },
      [](const auto& e, const auto& a) { return csrFromBrc(e, a); });
}

template <class Cfg>
auto runner(const typename Types<Cfg>::Matrix& A) {
  using T = Types<Cfg>;
  return [A](const typename T::Vector& x, const typename T::Vector& y, typename T::Value alpha,
             typename T::Value beta) { spmv(typename T::Exec(), A, x, y, alpha, beta); };
}

/// The round trip and the SpMV against the reference. A case refused for its padding is built
/// again with force, so that every case runs through the kernel.
template <class Cfg>
void checkMatrix(const std::string& name, const io::HostMatrix& host, bool forceIfRefused) {
  using T = Types<Cfg>;
  auto A = buildBrc<Cfg>(name, host);
  if (!A && forceIfRefused) A = buildBrc<Cfg>(name + " forced", host, {kDefaultMaxPaddingRatio, true});
  if (!A) return;
  test::checkSpmvAgainstReference<typename T::Value, typename T::Device>(name + " brc", host, runner<Cfg>(*A));
}

}  // namespace

BOOST_AUTO_TEST_CASE_TEMPLATE(real_matrices, Cfg, test::AllConfigs) {
  for (const auto& m : test::realMatrices()) checkMatrix<Cfg>(m.name, m.matrix, false);
}

BOOST_AUTO_TEST_CASE_TEMPLATE(format_cases, Cfg, test::AllConfigs) {
  for (const auto& c : test::formatCases()) checkMatrix<Cfg>(c.name, c.matrix, true);
}

// Rows 0: 5 entries (columns 0-4, values 1-5), 1: empty, 2: 2 entries (columns 1, 3, values
// 6, 7), 3: 1 entry (column 2, value 8). mean = 2, E[len^2] = 30/4 = 7.5, std = sqrt(3.5) =
// 1.871, W = round(3.871) = 4. Pieces: row 0 -> [4 entries], [1 entry]; row 2 -> [2]; row 3 ->
// [1]. Sorted by length (ties in row order, then piece order): (0: 4), (2: 2), (0: 1), (3: 1).
// One block of width 4; slot j of lane s at j*32 + s. 128 slots for 8 nonzeros: refused
// unless forced.
BOOST_AUTO_TEST_CASE_TEMPLATE(exact_layout, Cfg, test::AllConfigs) {
  using T = Types<Cfg>;
  using Value = typename T::Value;
  typename T::Exec exec;
  const auto host = test::fromTriplets(
      4, 5, {{0, 0, 1}, {0, 1, 2}, {0, 2, 3}, {0, 3, 4}, {0, 4, 5}, {2, 1, 6}, {2, 3, 7}, {3, 2, 8}});
  const auto csr = csrFromHost<typename T::Csr>(host);
  BOOST_CHECK_EXCEPTION(brcFromCsr(exec, csr), PaddingError, [](const PaddingError& e) {
    const std::string m = e.what();
    return e.ratio() == 16.0 && m.find("BRC") != std::string::npos && m.find("force") != std::string::npos;
  });
  const auto A = buildBrc<Cfg>("hand-made", host, {kDefaultMaxPaddingRatio, true});
  BOOST_TEST_REQUIRE(A.has_value());
  BOOST_TEST(A->pieceWidth == 4);
  BOOST_TEST(A->storedSlots() == 128);
  BOOST_TEST(A->nnz() == 8);
  BOOST_TEST(hostInts(A->blockBegin) == std::vector<std::int64_t>({0}), boost::test_tools::per_element());
  BOOST_TEST(hostInts(A->nzPerBlock) == std::vector<std::int64_t>({128}), boost::test_tools::per_element());
  std::vector<std::int64_t> rowPerm(32, -1);
  rowPerm[0] = 0;
  rowPerm[1] = 2;
  rowPerm[2] = 0;
  rowPerm[3] = 3;
  BOOST_TEST(hostInts(A->rowPerm) == rowPerm, boost::test_tools::per_element());
  std::vector<std::int64_t> col(128, -1);
  std::vector<Value> value(128, Value(-0.0));
  const std::int64_t slotCol[4][4] = {{0, 1, 4, 2}, {1, 3, -1, -1}, {2, -1, -1, -1}, {3, -1, -1, -1}};
  const double slotValue[4][4] = {{1, 6, 5, 8}, {2, 7, -0.0, -0.0}, {3, -0.0, -0.0, -0.0}, {4, -0.0, -0.0, -0.0}};
  for (int j = 0; j < 4; ++j) {
    for (int s = 0; s < 4; ++s) {
      col[j * 32 + s] = slotCol[j][s];
      value[j * 32 + s] = static_cast<Value>(slotValue[j][s]);
    }
  }
  BOOST_TEST(hostInts(A->col) == col, boost::test_tools::per_element());
  const auto stored = hostValues(A->value);
  BOOST_TEST((stored.size() == value.size() && std::memcmp(stored.data(), value.data(), sizeof(Value) * 128) == 0));
  test::checkSpmvAgainstReference<Value, typename T::Device>("hand-made", host, runner<Cfg>(*A));
}

// The power-law matrix's row 777 (22,000 entries) is cut into pieces of W entries, which fill
// several blocks; no block is wider than W.
BOOST_AUTO_TEST_CASE_TEMPLATE(long_row_spans_blocks, Cfg, test::AllConfigs) {
  const auto A = buildBrc<Cfg>("power law", test::powerLawWithLongRow());
  BOOST_TEST_REQUIRE(A.has_value());
  const auto rowPerm = hostInts(A->rowPerm);
  std::int64_t blocks = 0;
  for (std::size_t b = 0; b * 32 < rowPerm.size(); ++b)
    blocks += std::count(rowPerm.begin() + 32 * b, rowPerm.begin() + 32 * (b + 1), 777) > 0;
  BOOST_TEST(blocks >= 3);
  BOOST_TEST(std::count(rowPerm.begin(), rowPerm.end(), 777) == (22000 + A->pieceWidth - 1) / A->pieceWidth);
  for (const auto slots : hostInts(A->nzPerBlock)) BOOST_TEST(slots <= 32 * A->pieceWidth);
}

BOOST_AUTO_TEST_CASE_TEMPLATE(refuses_algorithms, Cfg, test::AllConfigs) {
  using T = Types<Cfg>;
  const auto A = buildBrc<Cfg>("small", test::randomMatrix(40, 40, 20, 30, 5));
  BOOST_TEST_REQUIRE(A.has_value());
  typename T::Vector x("x", 40), y("y", 40);
  BOOST_CHECK_THROW(spmv(typename T::Exec(), *A, x, y, 1, 0, {SpmvAlgorithm::BrcpAtomic}), UnsupportedError);
}

// The host plans order rows and pieces by counting sorts; the layouts are defined by a stable
// sort. Both written out plainly here, on random lengths: many ties, an empty row or more, long
// rows, and keys large enough for the sort's fallback.
BOOST_AUTO_TEST_CASE(host_orders_are_the_stable_sorts) {
  std::mt19937_64 rng(20261130);
  const auto stableSorted = [](const std::vector<std::int64_t>& keys, std::int64_t begin, std::int64_t end,
                               bool largestFirst) {
    std::vector<std::int64_t> order(static_cast<std::size_t>(end - begin));
    std::iota(order.begin(), order.end(), begin);
    std::stable_sort(order.begin(), order.end(), [&](std::int64_t a, std::int64_t b) {
      return largestFirst ? keys[a] > keys[b] : keys[a] < keys[b];
    });
    return order;
  };
  for (const std::int64_t longest : {std::int64_t{0}, std::int64_t{1}, std::int64_t{9}, std::int64_t{300},
                                     std::int64_t{100000}}) {
    std::uniform_int_distribution<std::int64_t> length(0, longest);
    std::vector<std::int64_t> lengths(1500);
    for (auto& l : lengths) l = length(rng);
    const std::int64_t n = static_cast<std::int64_t>(lengths.size());
    BOOST_TEST(Impl::stableOrderByKey(lengths, Impl::KeyOrder::LargestFirst) == stableSorted(lengths, 0, n, true),
               boost::test_tools::per_element());
    BOOST_TEST(Impl::stableOrderByKey(lengths, Impl::KeyOrder::SmallestFirst) == stableSorted(lengths, 0, n, false),
               boost::test_tools::per_element());
    BOOST_TEST(Impl::stableOrderByKey(lengths, Impl::KeyOrder::LargestFirst, 200, 777) ==
                   stableSorted(lengths, 200, 777, true),
               boost::test_tools::per_element());
    BOOST_TEST(Impl::stableOrderByKey(lengths, Impl::KeyOrder::LargestFirst, 5, 5).empty());

    // JDS's and SELL's row orders: stable sorts within windows.
    for (const std::int64_t window : {std::int64_t{1}, std::int64_t{32}, std::int64_t{1000}, n}) {
      std::vector<std::int64_t> expected;
      for (std::int64_t begin = 0; begin < n; begin += window) {
        const auto part = stableSorted(lengths, begin, std::min(n, begin + window), true);
        expected.insert(expected.end(), part.begin(), part.end());
      }
      BOOST_TEST(Impl::sortRowsByLength(lengths, window) == expected, boost::test_tools::per_element());
    }

    // BRC's plan: rows longest first, each cut into pieces of W, the pieces stably by length.
    std::vector<std::int64_t> rowPtr(1, 0);
    for (const auto l : lengths) rowPtr.push_back(rowPtr.back() + l);
    for (const std::int64_t W : {std::int64_t{1}, std::int64_t{7}, std::int64_t{64}}) {
      struct Piece {
        std::int64_t row, first, length;
      };
      std::vector<Piece> pieces;
      for (const std::int64_t r : stableSorted(lengths, 0, n, true))
        for (std::int64_t placed = 0; placed < lengths[r]; placed += W)
          pieces.push_back({r, rowPtr[r] + placed, std::min(W, lengths[r] - placed)});
      std::stable_sort(pieces.begin(), pieces.end(), [](const Piece& a, const Piece& b) { return a.length > b.length; });
      const Impl::BrcPlan plan = Impl::planBrc(rowPtr, W);
      const std::size_t slotRows = (pieces.size() + 31) / 32 * 32;
      BOOST_TEST_REQUIRE(plan.slotRows.row.size() == slotRows);
      bool same = true;
      for (std::size_t p = 0; p < slotRows; ++p) {
        const Piece expected = p < pieces.size() ? pieces[p] : Piece{Impl::kSlotPadding, 0, 0};
        same = same && plan.slotRows.row[p] == expected.row && plan.slotRows.first[p] == expected.first &&
               plan.slotRows.count[p] == expected.length;
      }
      BOOST_TEST(same, "W " << W << ", longest " << longest);
      std::int64_t slots = 0;
      for (std::size_t b = 0; b < plan.blockBegin.size(); ++b) {
        BOOST_TEST(plan.blockBegin[b] == slots);
        BOOST_TEST(plan.nzPerBlock[b] == 32 * pieces[32 * b].length);
        slots += plan.nzPerBlock[b];
      }
    }
  }
}
