// BRCP (Yang et al., 2019): the round trip to CSR and both SpMV kernels (deterministic and the
// paper's atomic variant) on every real matrix and every generated format case; bitwise
// repeatability; the deterministic kernel against a host replay of its documented order of
// operations (so every backend gives those bits); equal bits on Serial and OpenMP and, with
// CUDA, of the portable kernel and the warp-shuffle specialisation; the exact layout of
// hand-made matrices; the padding refusal and force; why the paper's scan difference is not
// used.
#define BOOST_TEST_MODULE brcp
#include <boost/test/unit_test.hpp>

#include "support/format_check.hpp"
#include "support/format_fixture.hpp"
#include "support/generated.hpp"
#include "support/kokkos_env.hpp"
#include "support/real_matrices.hpp"
#include "support/spmv_check.hpp"

#include <araios/araios.hpp>
#include <araios/formats/brcp/brcp_convert.hpp>
#include <araios/formats/brcp/brcp_spmv.hpp>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <optional>
#include <tuple>
#include <type_traits>
#include <vector>

using araios::test::KokkosFixture;
BOOST_TEST_GLOBAL_FIXTURE(KokkosFixture);

namespace {

using namespace araios;
using test::hostInts;
using test::hostValues;

template <class Cfg>
using Types = test::FormatTypes<Cfg, BrcpMatrix>;

template <class Value>
bool sameBits(const std::vector<Value>& a, const std::vector<Value>& b) {
  return a.size() == b.size() && (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(Value)) == 0);
}

template <class Cfg>
std::optional<typename Types<Cfg>::Matrix> buildBrcp(const std::string& label, const io::HostMatrix& host,
                                                   const FormatOptions& options = {}) {
  using T = Types<Cfg>;
  typename T::Exec exec;
  const auto csr = csrFromHost<typename T::Csr>(host);
  return test::buildChecked(
      label, exec, csr, [&](const auto& e, const auto& c) { return brcpFromCsr(e, c, options); },
      [](const auto& e, const auto& a) { return csrFromBrcp(e, a); });
}

template <class Cfg>
auto runner(const typename Types<Cfg>::Matrix& A, SpmvOptions options) {
  using T = Types<Cfg>;
  return [A, options](const typename T::Vector& x, const typename T::Vector& y, typename T::Value alpha,
                      typename T::Value beta) { spmv(typename T::Exec(), A, x, y, alpha, beta, options); };
}

/// y = alpha*A*x + beta*y0 on the device, with the seeded x and y0 of the SpMV checks.
template <class Cfg>
std::vector<typename Types<Cfg>::Value> product(const typename Types<Cfg>::Matrix& A, typename Types<Cfg>::Value alpha,
                                                typename Types<Cfg>::Value beta, SpmvOptions options = {}) {
  using T = Types<Cfg>;
  const auto xHost = test::randomVector<typename T::Value>(A.numCols, 1234);
  const auto yHost = test::randomVector<typename T::Value>(A.numRows, 5678);
  typename T::Vector x("x", A.numCols), y("y", A.numRows);
  Kokkos::deep_copy(x, Kokkos::View<const typename T::Value*, Kokkos::HostSpace>(xHost.data(), xHost.size()));
  Kokkos::deep_copy(y, Kokkos::View<const typename T::Value*, Kokkos::HostSpace>(yHost.data(), yHost.size()));
  spmv(typename T::Exec(), A, x, y, alpha, beta, options);
  Kokkos::fence();
  return hostValues(y);
}

/// The deterministic kernel's documented order of operations (brcp_kernel_parts.hpp), replayed
/// on the host for y = alpha*A*x: lane sums in slot order, the segmented Hillis-Steele scan
/// with steps 1, 2, 4, 8, 16, segment sums at the heads, split rows' partials in block order.
template <class Brcp>
std::vector<typename Brcp::value_type> replayDeterministic(const Brcp& A,
                                                           const std::vector<typename Brcp::value_type>& x,
                                                           typename Brcp::value_type alpha) {
  using Value = typename Brcp::value_type;
  constexpr int H = Brcp::blockRows;
  const auto blockPtr = hostInts(A.blockPtr), rowPerm = hostInts(A.rowPerm), rowSegLen = hostInts(A.rowSegLen);
  const auto col = hostInts(A.col);
  const auto value = hostValues(A.value);
  const std::int64_t numBlocks = static_cast<std::int64_t>(blockPtr.size()) - 1;
  std::vector<Value> y(A.numRows, std::numeric_limits<Value>::quiet_NaN());
  std::vector<Value> partial(2 * std::max<std::int64_t>(numBlocks, 0), Value(0));
  for (std::int64_t b = 0; b < numBlocks; ++b) {
    const std::int64_t width = (blockPtr[b + 1] - blockPtr[b]) / H;
    Value scan[H], next[H];
    for (int lane = 0; lane < H; ++lane) {
      Value sum = -Value(0);  // the identity every deterministic sum starts from
      for (std::int64_t j = 0; j < width; ++j) {
        const std::int64_t k = blockPtr[b] + j * H + lane;
        if (col[k] < 0) break;
        sum += value[k] * x[col[k]];
      }
      scan[lane] = sum;
    }
    for (int d = 1; d < H; d *= 2) {
      for (int lane = 0; lane < H; ++lane)
        next[lane] = lane >= d && rowPerm[b * H + lane - d] == rowPerm[b * H + lane] ? scan[lane - d] + scan[lane]
                                                                                   : scan[lane];
      std::copy(next, next + H, scan);
    }
    for (int head = 0; head < H; ++head) {
      const std::int64_t length = rowSegLen[b * H + head], row = rowPerm[b * H + head];
      if (length == 0) continue;
      const Value sum = scan[head + length - 1];
      const bool fromPrevious = head == 0 && b > 0 && rowPerm[b * H - 1] == row;
      const bool intoNext = head + length == H && b + 1 < numBlocks && rowPerm[(b + 1) * H] == row;
      if (fromPrevious) {
        partial[2 * b] = sum;
      } else if (intoNext) {
        partial[2 * b + 1] = sum;
      } else {
        y[row] = alpha * sum;
      }
    }
  }
  const auto splitRow = hostInts(A.splitRow), first = hostInts(A.splitFirstBlock), last = hostInts(A.splitLastBlock);
  for (std::size_t i = 0; i < splitRow.size(); ++i) {
    Value sum = partial[2 * first[i] + 1];
    for (std::int64_t b = first[i] + 1; b <= last[i]; ++b) sum += partial[2 * b];
    y[splitRow[i]] = alpha * sum;
  }
  for (const auto row : hostInts(A.emptyRow)) y[row] = alpha * -Value(0);  // the sum of no terms
  return y;
}

/// Runs of the repeatability check: 20 where threads really race for the blocks (OpenMP), 5 on
/// a GPU, 2 on Serial (one thread: the check only guards against state left between runs).
template <class Exec>
constexpr int repeatRuns() {
#ifdef KOKKOS_ENABLE_SERIAL
  if constexpr (std::is_same_v<Exec, Kokkos::Serial>) return 2;
#endif
  return Impl::isHostSpace<Exec>() ? 20 : 5;
}

/// The round trip, both kernels against the reference, the deterministic kernel against the
/// replay of its order, and its bitwise repeatability. A case refused for its padding is built
/// again with force, so that every case runs through the kernels.
template <class Cfg>
void checkMatrix(const std::string& name, const io::HostMatrix& host, bool forceIfRefused) {
  using T = Types<Cfg>;
  auto A = buildBrcp<Cfg>(name, host);
  if (!A && forceIfRefused) A = buildBrcp<Cfg>(name + " forced", host, {kDefaultMaxPaddingRatio, true});
  if (!A) return;
  test::checkSpmvAgainstReference<typename T::Value, typename T::Device>(name + " brcp", host, runner<Cfg>(*A, {}));
  test::checkSpmvAgainstReference<typename T::Value, typename T::Device>(
      name + " brcp-atomic", host, runner<Cfg>(*A, {SpmvAlgorithm::BrcpAtomic, Mode::Fast}));
  const typename T::Value alpha(-0.75);
  BOOST_TEST(sameBits(product<Cfg>(*A, alpha, 0),
                      replayDeterministic(*A, test::randomVector<typename T::Value>(A->numCols, 1234), alpha)),
             name << ": the kernel's bits differ from the replay of its documented order");
  // Nothing to repeat without rows (and checkRepeatable's memcmp must not get an empty y's null data).
  if (host.numRows > 0)
    test::checkRepeatable<typename T::Value, typename T::Device>(name + " brcp repeat", host, runner<Cfg>(*A, {}),
                                                                 repeatRuns<typename T::Exec>());
}

using Triplets = std::vector<std::tuple<std::int64_t, std::int64_t, double>>;

/// The 40-row example: row lengths 9 (row 5), 4 (row 17), 3 (row 30), 2 (rows 2, 11, 33),
/// 0 (rows 0, 39) and 1 (the 32 others); entry k of row r at column 4k + r%4, value 16r + k + 1.
io::HostMatrix fortyRows() {
  Triplets e;
  for (std::int64_t r = 0; r < 40; ++r) {
    std::int64_t length = 1;
    if (r == 5) length = 9;
    if (r == 17) length = 4;
    if (r == 30) length = 3;
    if (r == 2 || r == 11 || r == 33) length = 2;
    if (r == 0 || r == 39) length = 0;
    for (std::int64_t k = 0; k < length; ++k) e.emplace_back(r, 4 * k + r % 4, 16.0 * r + k + 1);
  }
  return test::fromTriplets(40, 40, e);
}

/// 20,000 rows: row 12345 with 200 entries (column k, value k + 1), rows 7 and 19999 with one
/// entry, the others empty.
io::HostMatrix oneLongRow() {
  Triplets e;
  for (std::int64_t k = 0; k < 200; ++k) e.emplace_back(12345, k, k + 1.0);
  e.emplace_back(7, 3, 0.5);
  e.emplace_back(19999, 9, -2.0);
  return test::fromTriplets(20000, 300, e);
}

template <class T>
std::vector<T> repeated(std::size_t n, T v) {
  return std::vector<T>(n, v);
}

template <class T>
std::vector<T> concat(std::initializer_list<std::vector<T>> parts) {
  std::vector<T> out;
  for (const auto& p : parts) out.insert(out.end(), p.begin(), p.end());
  return out;
}

}  // namespace

BOOST_AUTO_TEST_CASE_TEMPLATE(real_matrices, Cfg, test::AllConfigs) {
  for (const auto& m : test::realMatrices()) checkMatrix<Cfg>(m.name, m.matrix, false);
}

BOOST_AUTO_TEST_CASE_TEMPLATE(format_cases, Cfg, test::AllConfigs) {
  for (const auto& c : test::formatCases()) checkMatrix<Cfg>(c.name, c.matrix, true);
}

// Eq. (3) by hand. mean = 54/40 = 1.35, E[len^2] = 150/40 = 3.75, std = sqrt(1.9275) = 1.388,
// T = round(2.738) = 3. Sorted: row 5 (9), 17 (4), 30 (3), 2, 11, 33 (2), then the rows of one
// entry in increasing order. Block 0: V = min(3, max(9, 4)) = 3; row 5 fills slot rows 0-2,
// row 17 slot rows 3-4 (3 + 1 entries), row 30 slot row 5, rows 2, 11, 33 slot rows 6-8 and
// the rows of one entry 1, 3, 4, ..., 27 slot rows 9-31. Block 1 starts at row 28 with 1
// entry left and a next row of 1: V = min(3, max(1, 1)) = 1; rows 28 ... 38 fill slot rows
// 0-8 and slot rows 9-31 are padding.
BOOST_AUTO_TEST_CASE_TEMPLATE(exact_layout_two_blocks, Cfg, test::AllConfigs) {
  using T = Types<Cfg>;
  using Value = typename T::Value;
  const auto host = fortyRows();
  const auto A = buildBrcp<Cfg>("forty rows", host);
  BOOST_TEST_REQUIRE(A.has_value());
  const std::int64_t P = -1;  // padding column / row
  const Value Z = -0.0;       // padding value
  BOOST_TEST(A->lengthThreshold == 3);
  BOOST_TEST(A->storedSlots() == 128);
  BOOST_TEST(A->nnz() == 54);
  BOOST_TEST(hostInts(A->blockPtr) == std::vector<std::int64_t>({0, 96, 128}), boost::test_tools::per_element());
  const std::vector<std::int64_t> onesBlock0 = {1,  3,  4,  6,  7,  8,  9,  10, 12, 13, 14, 15,
                                                16, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27};
  BOOST_TEST(hostInts(A->rowPerm) == concat<std::int64_t>({{5, 5, 5, 17, 17, 30, 2, 11, 33},
                                                         onesBlock0,
                                                         {28, 29, 31, 32, 34, 35, 36, 37, 38},
                                                         repeated<std::int64_t>(23, P)}),
             boost::test_tools::per_element());
  BOOST_TEST(hostInts(A->rowSegLen) == concat<std::int64_t>({{3, 0, 0, 2, 0, 1, 1, 1, 1},
                                                           repeated<std::int64_t>(23, 1),
                                                           repeated<std::int64_t>(9, 1),
                                                           repeated<std::int64_t>(23, 0)}),
             boost::test_tools::per_element());
  // Block 0, slot j of slot row s at j*32 + s; then block 1 (width 1) at 96 + s.
  const std::vector<std::int64_t> colOnes = {1, 3, 0, 2, 3, 0, 1, 2, 0, 1, 2, 3, 0, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3};
  const std::vector<Value> valueOnes = {17,  49,  65,  97,  113, 129, 145, 161, 193, 209, 225, 241,
                                        257, 289, 305, 321, 337, 353, 369, 385, 401, 417, 433};
  BOOST_TEST(hostInts(A->col) == concat<std::int64_t>({{1, 13, 25, 1, 13, 2, 2, 3, 1},
                                                     colOnes,
                                                     {5, 17, 29, 5, P, 6, 6, 7, 5},
                                                     repeated<std::int64_t>(23, P),
                                                     {9, 21, 33, 9, P, 10, P, P, P},
                                                     repeated<std::int64_t>(23, P),
                                                     {0, 1, 3, 0, 2, 3, 0, 1, 2},
                                                     repeated<std::int64_t>(23, P)}),
             boost::test_tools::per_element());
  BOOST_TEST(sameBits(hostValues(A->value), concat<Value>({{81, 84, 87, 273, 276, 481, 33, 177, 529},
                                                        valueOnes,
                                                        {82, 85, 88, 274, Z, 482, 34, 178, 530},
                                                        repeated<Value>(23, Z),
                                                        {83, 86, 89, 275, Z, 483, Z, Z, Z},
                                                        repeated<Value>(23, Z),
                                                        {449, 465, 497, 513, 545, 561, 577, 593, 609},
                                                        repeated<Value>(23, Z)})));
  BOOST_TEST(hostInts(A->splitRow).empty());
  BOOST_TEST(hostInts(A->emptyRow) == std::vector<std::int64_t>({0, 39}), boost::test_tools::per_element());
  BOOST_TEST(Impl::brcpWorkspaceValues(*A) == 0);
  test::checkSpmvAgainstReference<Value, typename T::Device>("forty rows", host, runner<Cfg>(*A, {}));
}

// The long-row branch of eq. (3) by hand. mean = 202/20000 = 0.0101, E[len^2] = 40002/20000,
// std = 1.41421, T = round(1.4243) = 1, so 64*T = 64. Block 0: 200 > 64 entries remain,
// V = ceil(200/64) = 4, slot row s takes entries 4s..4s+3. Block 1: 72 > 64 remain,
// V = ceil(72/64) = 2, slot row s takes 128 + 2s, 129 + 2s. Block 2: 8 remain, V = min(1,
// max(8, 1)) = 1: entries 192..199 in slot rows 0-7, then rows 7 and 19999, then padding.
BOOST_AUTO_TEST_CASE_TEMPLATE(exact_layout_long_row_over_three_blocks, Cfg, test::AllConfigs) {
  using T = Types<Cfg>;
  using Value = typename T::Value;
  const auto host = oneLongRow();
  const auto A = buildBrcp<Cfg>("one long row", host);
  BOOST_TEST_REQUIRE(A.has_value());
  BOOST_TEST(A->lengthThreshold == 1);
  BOOST_TEST(hostInts(A->blockPtr) == std::vector<std::int64_t>({0, 128, 192, 224}), boost::test_tools::per_element());
  BOOST_TEST(hostInts(A->rowPerm) == concat<std::int64_t>({repeated<std::int64_t>(72, 12345), {7, 19999},
                                                         repeated<std::int64_t>(22, -1)}),
             boost::test_tools::per_element());
  std::vector<std::int64_t> segLen(96, 0);
  segLen[0] = 32;
  segLen[32] = 32;
  segLen[64] = 8;
  segLen[72] = 1;
  segLen[73] = 1;
  BOOST_TEST(hostInts(A->rowSegLen) == segLen, boost::test_tools::per_element());
  BOOST_TEST(hostInts(A->splitRow) == std::vector<std::int64_t>({12345}), boost::test_tools::per_element());
  BOOST_TEST(hostInts(A->splitFirstBlock) == std::vector<std::int64_t>({0}), boost::test_tools::per_element());
  BOOST_TEST(hostInts(A->splitLastBlock) == std::vector<std::int64_t>({2}), boost::test_tools::per_element());
  BOOST_TEST(hostInts(A->emptyRow).size() == 19997u);
  BOOST_TEST(Impl::brcpWorkspaceValues(*A) == 6);

  std::vector<std::int64_t> col(224, -1);
  std::vector<Value> value(224, Value(-0.0));
  auto place = [&](std::int64_t slot, std::int64_t k) {  // entry k of row 12345: column k, value k + 1
    col[slot] = k;
    value[slot] = Value(k + 1);
  };
  for (std::int64_t s = 0; s < 32; ++s)
    for (std::int64_t j = 0; j < 4; ++j) place(j * 32 + s, 4 * s + j);
  for (std::int64_t s = 0; s < 32; ++s)
    for (std::int64_t j = 0; j < 2; ++j) place(128 + j * 32 + s, 128 + 2 * s + j);
  for (std::int64_t s = 0; s < 8; ++s) place(192 + s, 192 + s);
  col[200] = 3;
  value[200] = Value(0.5);
  col[201] = 9;
  value[201] = Value(-2.0);
  BOOST_TEST(hostInts(A->col) == col, boost::test_tools::per_element());
  BOOST_TEST(sameBits(hostValues(A->value), value));
  checkMatrix<Cfg>("one long row", host, false);
}

// tests/support/generated.hpp's power-law matrix: row 777 holds 22,000 entries, more than
// 64*T, so eq. (3) spreads it over blocks of shrinking width: at least three.
BOOST_AUTO_TEST_CASE_TEMPLATE(power_law_long_row_spans_three_blocks, Cfg, test::AllConfigs) {
  const auto host = test::powerLawWithLongRow();
  const auto A = buildBrcp<Cfg>("power law", host);
  BOOST_TEST_REQUIRE(A.has_value());
  BOOST_TEST(22000 > 64 * A->lengthThreshold);
  const auto rowPerm = hostInts(A->rowPerm);
  std::int64_t blocks = 0;
  for (std::size_t b = 0; b * 32 < rowPerm.size(); ++b)
    blocks += std::count(rowPerm.begin() + 32 * b, rowPerm.begin() + 32 * (b + 1), 777) > 0;
  BOOST_TEST(blocks >= 3);
  const auto split = hostInts(A->splitRow);
  const auto it = std::find(split.begin(), split.end(), 777);
  BOOST_TEST_REQUIRE((it != split.end()));
  const auto i = it - split.begin();
  BOOST_TEST(hostInts(A->splitLastBlock)[i] - hostInts(A->splitFirstBlock)[i] + 1 == blocks);
}

// T comes from the row-length statistics over all rows, empty ones included.
BOOST_AUTO_TEST_CASE(threshold_is_rounded_mean_plus_std) {
  for (const auto& c : test::formatCases()) {
    if (c.matrix.numRows == 0) continue;
    std::vector<double> length(c.matrix.numRows, 0.0);
    for (const auto r : c.matrix.row) length[r] += 1;
    double mean = 0, sq = 0;
    for (const double l : length) mean += l / length.size();
    for (const double l : length) sq += (l - mean) * (l - mean) / length.size();
    const auto A = buildBrcp<test::Config<Kokkos::DefaultHostExecutionSpace, double>>(
        c.name, c.matrix, {kDefaultMaxPaddingRatio, true});
    BOOST_TEST_REQUIRE(A.has_value());
    BOOST_TEST(A->lengthThreshold == std::max<std::int64_t>(1, std::llround(mean + std::sqrt(sq))), c.name);
  }
}

// One row of one entry in a block of 32 slot rows: 32 slots per nonzero. Refused with a
// message naming the ratio and how to force it; forced, it stores blockPtr[numBlocks] slots.
BOOST_AUTO_TEST_CASE_TEMPLATE(padding_refusal_and_force, Cfg, test::AllConfigs) {
  using T = Types<Cfg>;
  typename T::Exec exec;
  const auto host = test::fromTriplets(3, 3, {{1, 2, 4.0}});
  const auto csr = csrFromHost<typename T::Csr>(host);
  BOOST_CHECK_EXCEPTION(brcpFromCsr(exec, csr), PaddingError, [](const PaddingError& e) {
    const std::string m = e.what();
    return e.ratio() == 32.0 && m.find("BRCP") != std::string::npos && m.find("force") != std::string::npos;
  });
  const auto A = buildBrcp<Cfg>("forced", host, {kDefaultMaxPaddingRatio, true});
  BOOST_TEST_REQUIRE(A.has_value());
  BOOST_TEST(A->storedSlots() == hostInts(A->blockPtr).back());
  BOOST_TEST(A->storedSlots() == 32);
  test::checkSpmvAgainstReference<typename T::Value, typename T::Device>("forced", host, runner<Cfg>(*A, {}));
  // A looser limit accepts it without force.
  BOOST_CHECK_NO_THROW(brcpFromCsr(exec, csr, {32.0, false}));
}

BOOST_AUTO_TEST_CASE_TEMPLATE(refuses_other_algorithms, Cfg, test::AllConfigs) {
  using T = Types<Cfg>;
  const auto A = buildBrcp<Cfg>("small", test::randomMatrix(40, 40, 20, 30, 5));
  BOOST_TEST_REQUIRE(A.has_value());
  typename T::Vector x("x", 40), y("y", 40);
  BOOST_CHECK_THROW(spmv(typename T::Exec(), *A, x, y, 1, 0, {SpmvAlgorithm::CsrVector}), UnsupportedError);
}

// Why the kernel uses a segmented scan (brcp_kernel_parts.hpp): the paper's segment sum
// scan[head + len - 1] - scan[head] + in[head] cancels. Row 0 = (1e16, 1e16) and row 1 =
// (1, 1), x = (1, 1), T = 1, so each entry has its own slot row (lanes 0-3). The unsegmented
// scan rounds row 1's contributions away against the 2e16 before it and the difference gives
// row 1 = 1 instead of 2; the segmented scan gives 2 exactly.
BOOST_AUTO_TEST_CASE(paper_scan_difference_cancels) {
  using Cfg = test::Config<Kokkos::DefaultHostExecutionSpace, double>;
  using T = Types<Cfg>;
  const auto host = test::fromTriplets(8, 2, {{0, 0, 1e16}, {0, 1, 1e16}, {1, 0, 1.0}, {1, 1, 1.0}});
  const auto A = buildBrcp<Cfg>("cancellation", host, {kDefaultMaxPaddingRatio, true});
  BOOST_TEST_REQUIRE(A.has_value());
  BOOST_TEST(hostInts(A->rowSegLen)[2] == 2);

  std::vector<double> in(32, 0.0);
  in[0] = in[1] = 1e16;
  in[2] = in[3] = 1.0;
  std::vector<double> scan = in;
  for (int d = 1; d < 32; d *= 2) {
    std::vector<double> next = scan;
    for (int lane = d; lane < 32; ++lane) next[lane] = scan[lane - d] + scan[lane];
    scan = next;
  }
  const double paper = scan[2 + 2 - 1] - scan[2] + in[2];
  BOOST_TEST(std::fabs(paper - 2.0) > static_cast<double>(spmvErrorBound<double>(2, 2.0L)));

  typename T::Vector x("x", 2), y("y", 8);
  Kokkos::deep_copy(x, 1.0);
  spmv(typename T::Exec(), *A, x, y, 1.0, 0.0);
  Kokkos::fence();
  const auto yHost = hostValues(y);
  BOOST_TEST(yHost[0] == 2e16);
  BOOST_TEST(yHost[1] == 2.0);
}

#if defined(KOKKOS_ENABLE_SERIAL) && defined(KOKKOS_ENABLE_OPENMP)
// The deterministic kernel gives the same bits on Serial and OpenMP, for every matrix.
using ValueTypes = std::tuple<double, float>;
BOOST_AUTO_TEST_CASE_TEMPLATE(serial_and_openmp_agree_bitwise, Value, ValueTypes) {
  using SerialCfg = test::Config<Kokkos::Serial, Value>;
  using OpenMPCfg = test::Config<Kokkos::OpenMP, Value>;
  auto compare = [](const std::string& name, const io::HostMatrix& host) {
    const FormatOptions force{kDefaultMaxPaddingRatio, true};
    const auto onSerial = buildBrcp<SerialCfg>(name, host, force);
    const auto onOpenMP = buildBrcp<OpenMPCfg>(name, host, force);
    BOOST_TEST_REQUIRE(onSerial.has_value());
    BOOST_TEST_REQUIRE(onOpenMP.has_value());
    for (const auto& [alpha, beta] : {std::pair<Value, Value>{1, 0}, std::pair<Value, Value>{-0.75, 0.5}}) {
      BOOST_TEST(sameBits(product<SerialCfg>(*onSerial, alpha, beta), product<OpenMPCfg>(*onOpenMP, alpha, beta)),
                 name << " alpha=" << alpha << " beta=" << beta << ": Serial and OpenMP differ");
    }
  };
  for (const auto& m : test::realMatrices()) compare(m.name, m.matrix);
  for (const auto& c : test::formatCases()) compare(c.name, c.matrix);
}
#endif

#ifdef KOKKOS_ENABLE_CUDA
// The warp-shuffle specialisation (backends/cuda/brcp_spmv_cuda.hpp) gives the bits of the
// portable kernel.
BOOST_AUTO_TEST_CASE_TEMPLATE(cuda_specialisation_matches_portable_bitwise, Cfg, test::CudaConfigs) {
  using Value = typename Cfg::value_type;
  auto compare = [](const std::string& name, const io::HostMatrix& host) {
    const auto A = buildBrcp<Cfg>(name, host, {kDefaultMaxPaddingRatio, true});
    BOOST_TEST_REQUIRE(A.has_value());
    SpmvOptions portable;
    portable.portableOnly = true;
    for (const auto& [alpha, beta] : {std::pair<Value, Value>{1, 0}, std::pair<Value, Value>{-0.75, 0.5}}) {
      BOOST_TEST(sameBits(product<Cfg>(*A, alpha, beta, portable), product<Cfg>(*A, alpha, beta)),
                 name << " alpha=" << alpha << " beta=" << beta << ": the CUDA kernel differs from the portable one");
    }
  };
  for (const auto& m : test::realMatrices()) compare(m.name, m.matrix);
  for (const auto& c : test::formatCases()) compare(c.name, c.matrix);
}
#endif
