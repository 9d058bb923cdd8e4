// BRC (Ashari et al., ICS 2014): the round trip to CSR and the atomic SpMV on every real matrix
// and every generated format case, the exact layout of a hand-made matrix, long rows split
// into pieces over several blocks, and the padding refusal and force.
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

#include <algorithm>
#include <cstring>
#include <optional>
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
