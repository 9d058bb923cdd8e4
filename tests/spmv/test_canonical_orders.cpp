// The deterministic CSR kernels against a literal host evaluation of the summation orders that
// docs/reproducibility.md defines for them, bit for bit, on every enabled backend:
//   - csr-scalar: the blocked CSR order: the row's entries in CSR order cut into chunks of 32,
//     each summed from -0.0 with each product and sum rounded, the chunks' sums in groups of
//     256, the groups' in blocks of 256, each level left to right from -0.0, then the blocks;
//   - csr-vector: 32 virtual lanes, lane l summing entries l, l+32, ... in order from -0.0,
//     then the complete tree lane l += lane l+w for w = 16, 8, 4, 2, 1 (all 32 lanes, none
//     left out, so the kernels' shortcuts for short rows are checked against the definition),
//     for the CUDA warp kernel and for the portable one alike;
//   - csr-merge: the merge path of row ends and entries (entry k of row i is item k + i) cut
//     into segments of 16 items; a row's entries in one segment summed in CSR order from -0.0;
//     the segments' sums joined by the aligned binary tree over the segment index (parent of
//     segment s at each level: s / 2), left + right, a child without the row's entries
//     adding nothing;
// both then stored by the one formula y_i = alpha*sum (beta == 0) or fma(alpha, sum, beta*y_i).
// COO, CSC and HYB in Deterministic mode give csr-scalar's bits (CSR order), whether a thread or
// a team reads a row or teams sum a long row's groups apart.
// The host loops are written here from that text, not taken from the kernels. Rows of every
// length from 0 to 70 cover each level of the tree, and values spread over many binades make
// the order show in the last bits (any other order fails on them).
#define BOOST_TEST_MODULE canonical_orders
#include <boost/test/unit_test.hpp>

#include "support/blocked_csr_order.hpp"
#include "support/format_fixture.hpp"
#include "support/generated.hpp"
#include "support/kokkos_env.hpp"
#include "support/real_matrices.hpp"

#include <araios/araios.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <map>
#include <random>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

using araios::test::KokkosFixture;
BOOST_TEST_GLOBAL_FIXTURE(KokkosFixture);

namespace {

using namespace araios;

constexpr int kLanes = 32;

/// The CSR arrays as the device holds them, back on the host.
template <class Value>
struct HostCsr {
  std::vector<std::int64_t> rowPtr;
  std::vector<std::int64_t> colIdx;
  std::vector<Value> values;
};

/// Rows whose entries span more than `span` columns.
template <class Value>
std::int64_t hostFarRows(const HostCsr<Value>& A, std::int64_t span) {
  std::int64_t far = 0;
  for (std::size_t i = 0; i + 1 < A.rowPtr.size(); ++i) {
    if (A.rowPtr[i + 1] - A.rowPtr[i] < 2) continue;
    const auto [lowest, highest] =
        std::minmax_element(A.colIdx.begin() + A.rowPtr[i], A.colIdx.begin() + A.rowPtr[i + 1]);
    far += *highest - *lowest > span ? 1 : 0;
  }
  return far;
}

template <class Value>
std::int64_t hostLongestRow(const HostCsr<Value>& A) {
  std::int64_t longest = 0;
  for (std::size_t i = 0; i + 1 < A.rowPtr.size(); ++i) longest = std::max(longest, A.rowPtr[i + 1] - A.rowPtr[i]);
  return longest;
}

template <class Value>
Value storeRow(Value sum, Value alpha, Value beta, Value y) {
  return beta == Value(0) ? alpha * sum : std::fma(alpha, sum, beta * y);
}

/// Each product and each sum rounded to Value on its own (no FMA: the test builds with
/// -ffp-contract=off through the araios target).
template <class Value>
Value roundedProductSum(Value acc, Value a, Value b) {
  const Value product = a * b;
  return acc + product;
}

template <class Value>
std::vector<Value> csrOrder(const HostCsr<Value>& A, const std::vector<Value>& x, const std::vector<Value>& y0,
                            Value alpha, Value beta) {
  std::vector<Value> y(y0.size());
  std::vector<Value> products;
  for (std::size_t i = 0; i + 1 < A.rowPtr.size(); ++i) {
    products.clear();
    for (auto k = A.rowPtr[i]; k < A.rowPtr[i + 1]; ++k) products.push_back(A.values[k] * x[A.colIdx[k]]);
    y[i] = storeRow(test::blockedCsrOrder(products), alpha, beta, y0[i]);
  }
  return y;
}

template <class Value>
std::vector<Value> lanesOrder(const HostCsr<Value>& A, const std::vector<Value>& x, const std::vector<Value>& y0,
                              Value alpha, Value beta) {
  std::vector<Value> y(y0.size());
  for (std::size_t i = 0; i + 1 < A.rowPtr.size(); ++i) {
    Value lane[kLanes];
    for (int l = 0; l < kLanes; ++l) {
      lane[l] = -Value(0);
      for (auto k = A.rowPtr[i] + l; k < A.rowPtr[i + 1]; k += kLanes)
        lane[l] = roundedProductSum(lane[l], A.values[k], x[A.colIdx[k]]);
    }
    for (int w = kLanes / 2; w >= 1; w /= 2)
      for (int l = 0; l < w; ++l) lane[l] = lane[l] + lane[l + w];
    y[i] = storeRow(lane[0], alpha, beta, y0[i]);
  }
  return y;
}

template <class Value>
std::vector<Value> mergeOrder(const HostCsr<Value>& A, const std::vector<Value>& x, const std::vector<Value>& y0,
                              Value alpha, Value beta) {
  constexpr std::int64_t kSegmentItems = 16;
  std::vector<Value> y(y0.size());
  for (std::size_t i = 0; i + 1 < A.rowPtr.size(); ++i) {
    std::map<std::int64_t, Value> level;  // segment -> the row's sum in it
    for (auto k = A.rowPtr[i]; k < A.rowPtr[i + 1]; ++k) {
      const std::int64_t segment = (k + static_cast<std::int64_t>(i)) / kSegmentItems;
      auto [at, added] = level.emplace(segment, -Value(0));
      at->second = roundedProductSum(at->second, A.values[k], x[A.colIdx[k]]);
    }
    while (level.size() > 1) {
      std::map<std::int64_t, Value> parents;
      for (const auto& [segment, sum] : level) {  // ascending: a left child comes first
        auto [at, added] = parents.emplace(segment / 2, sum);
        if (!added) at->second = at->second + sum;
      }
      level = std::move(parents);
    }
    y[i] = storeRow(level.empty() ? -Value(0) : level.begin()->second, alpha, beta, y0[i]);
  }
  return y;
}

template <class Value>
bool sameBits(Value a, Value b) {
  return std::memcmp(&a, &b, sizeof(Value)) == 0;
}

/// How many of y's rows differ from `expected` in any bit, and the first of them (-1: none).
template <class Mirror, class Value>
std::pair<std::int64_t, std::int64_t> rowsThatDiffer(const Mirror& y, const std::vector<Value>& expected) {
  std::int64_t wrong = 0, first = -1;
  for (std::size_t i = 0; i < expected.size(); ++i) {
    if (!sameBits(y(i), expected[i])) {
      if (first < 0) first = static_cast<std::int64_t>(i);
      ++wrong;
    }
  }
  return {wrong, first};
}

/// Rows of 0 to 70 entries (each length several times), values and x spread over 2^-40..2^40
/// with both signs, and some exact zeros of both signs among the values.
io::HostMatrix everyRowLength() {
  std::mt19937_64 rng(97);
  std::uniform_real_distribution<double> mantissa(-1.0, 1.0);
  std::uniform_int_distribution<int> exponent(-40, 40);
  const std::int64_t cols = 500;
  std::vector<std::tuple<std::int64_t, std::int64_t, double>> entries;
  std::int64_t r = 0;
  for (int repeat = 0; repeat < 4; ++repeat) {
    for (std::int64_t len = 0; len <= 70; ++len, ++r) {
      for (std::int64_t k = 0; k < len; ++k) {
        double v = std::ldexp(mantissa(rng), exponent(rng));
        if (k % 11 == 5) v = (k % 2 == 0) ? 0.0 : -0.0;
        entries.emplace_back(r, (r * 7 + k * 13) % cols, v);
      }
    }
  }
  return test::fromTriplets(r, cols, std::move(entries));
}

/// Rows that span many of csr-merge's segments and teams: one row of 300,000 entries, one row
/// in a thousand of 2,000, runs of empty rows, and short rows between; about 1.2 million items,
/// so the join of the teams' records takes more than one record per thread on a GPU too.
io::HostMatrix longAndEmptyRows() {
  std::mt19937_64 rng(2027);
  std::uniform_real_distribution<double> mantissa(-1.0, 1.0);
  std::uniform_int_distribution<int> exponent(-30, 30);
  std::uniform_int_distribution<int> shortLength(0, 6);
  const std::int64_t rows = 200000, cols = 1000000;
  std::vector<std::tuple<std::int64_t, std::int64_t, double>> entries;
  for (std::int64_t r = 0; r < rows; ++r) {
    std::int64_t length = shortLength(rng);
    if (r == 7) length = 300000;
    if (r % 1000 == 999) length = 2000;
    if (r / 5000 % 7 == 3) length = 0;  // runs of 5,000 empty rows
    const std::int64_t stride = cols / (length + 1);
    for (std::int64_t k = 0; k < length; ++k) {
      entries.emplace_back(r, (r + k * stride) % cols, std::ldexp(mantissa(rng), exponent(rng)));
    }
  }
  return test::fromTriplets(rows, cols, std::move(entries));
}

/// A CSR matrix's arrays, copied to the host.
template <class Csr>
HostCsr<typename Csr::value_type> toHost(const Csr& csr) {
  HostCsr<typename Csr::value_type> hostCsr;
  auto rowPtr = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), csr.rowPtr);
  auto colIdx = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), csr.colIdx);
  auto values = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), csr.values);
  hostCsr.rowPtr.assign(rowPtr.data(), rowPtr.data() + rowPtr.extent(0));
  hostCsr.colIdx.assign(colIdx.data(), colIdx.data() + colIdx.extent(0));
  hostCsr.values.assign(values.data(), values.data() + values.extent(0));
  return hostCsr;
}

/// Counts, while it lives, the parallel_for launches labelled `label` (Kokkos's tool hook).
class LaunchCounter {
 public:
  explicit LaunchCounter(std::string label) {
    target() = std::move(label);
    launches() = 0;
    Kokkos::Tools::Experimental::set_begin_parallel_for_callback(&onBegin);
  }
  ~LaunchCounter() { Kokkos::Tools::Experimental::set_begin_parallel_for_callback(nullptr); }
  LaunchCounter(const LaunchCounter&) = delete;
  LaunchCounter& operator=(const LaunchCounter&) = delete;
  std::int64_t count() const { return launches(); }

 private:
  static std::string& target() {
    static std::string label;
    return label;
  }
  static std::int64_t& launches() {
    static std::int64_t n = 0;
    return n;
  }
  static void onBegin(const char* label, const std::uint32_t, std::uint64_t*) {
    if (target() == label) ++launches();
  }
};

template <class Cfg>
void checkOrders(const std::string& name, const io::HostMatrix& host) {
  using Exec = typename Cfg::execution_space;
  using Value = typename Cfg::value_type;
  using Device = typename Cfg::device_type;
  using Coo = CooMatrix<Value, typename Cfg::ordinal_type, typename Cfg::size_type, Device>;
  using Csr = CsrMatrix<Value, typename Cfg::ordinal_type, typename Cfg::size_type, Device>;
  using Vector = Kokkos::View<Value*, Device>;
  Exec exec;
  const Csr csr = csrFromCoo(exec, cooFromHost<Coo>(host));
  exec.fence();
  const HostCsr<Value> hostCsr = toHost(csr);
  // x over many binades too, so that the order of the sums decides the last bits.
  std::vector<Value> x = test::randomVector<Value>(host.numCols, 1234);
  for (std::size_t j = 0; j < x.size(); ++j) x[j] = std::ldexp(x[j], static_cast<int>(j % 17) - 8);
  const std::vector<Value> y0 = test::randomVector<Value>(host.numRows, 5678);

  const std::pair<Value, Value> scalings[] = {{Value(1), Value(0)}, {Value(-0.75), Value(0.5)}};
  // "portable": SpmvOptions::portableOnly, the Kokkos kernel where a backend has its own
  // (backends/cuda/csr_lanes_cuda.hpp); both must give the canonical order's bits.
  const std::tuple<const char*, SpmvAlgorithm, bool> kernels[] = {{"csr-scalar", SpmvAlgorithm::CsrScalar, false},
                                                                  {"csr-vector", SpmvAlgorithm::CsrVector, false},
                                                                  {"csr-vector portable", SpmvAlgorithm::CsrVector, true},
                                                                  {"csr-merge", SpmvAlgorithm::CsrMerge, false}};
  for (const auto& [kernel, algorithm, portableOnly] : kernels) {
    for (const auto& [alpha, beta] : scalings) {
      const std::vector<Value> expected = algorithm == SpmvAlgorithm::CsrScalar ? csrOrder(hostCsr, x, y0, alpha, beta)
                                          : algorithm == SpmvAlgorithm::CsrMerge
                                              ? mergeOrder(hostCsr, x, y0, alpha, beta)
                                              : lanesOrder(hostCsr, x, y0, alpha, beta);
      Vector xd("x", x.size()), yd("y", y0.size());
      auto xm = Kokkos::create_mirror_view(xd);
      auto ym = Kokkos::create_mirror_view(yd);
      for (std::size_t j = 0; j < x.size(); ++j) xm(j) = x[j];
      // Poisoned when y is not read, so an unwritten row shows.
      for (std::size_t i = 0; i < y0.size(); ++i) ym(i) = beta == Value(0) ? std::nan("") : y0[i];
      Kokkos::deep_copy(xd, xm);
      Kokkos::deep_copy(yd, ym);
      SpmvOptions options{algorithm};
      options.mode = Mode::Deterministic;
      options.portableOnly = portableOnly;
      spmv(exec, csr, xd, yd, alpha, beta, options);
      exec.fence();
      Kokkos::deep_copy(ym, yd);
      const auto [wrong, firstWrong] = rowsThatDiffer(ym, expected);
      BOOST_TEST(wrong == 0, name << " " << kernel << " " << Exec::name() << " alpha=" << alpha << " beta=" << beta
                                  << ": " << wrong << " rows differ from the canonical order, first row "
                                  << firstWrong);
    }
  }
}

}  // namespace

BOOST_AUTO_TEST_CASE_TEMPLATE(every_row_length, Cfg, test::AllConfigs) {
  checkOrders<Cfg>("every_row_length", everyRowLength());
}

BOOST_AUTO_TEST_CASE_TEMPLATE(long_and_empty_rows, Cfg, test::AllConfigs) {
  checkOrders<Cfg>("long_and_empty_rows", longAndEmptyRows());
}

/// csr-merge's operator searches where its teams start on the merge path once, when it is
/// built, and its products use what it kept: they launch no search and still give the merge
/// order's bits. An operator built for Accurate mode keeps nothing and, applied in another
/// mode, searches on each call, as a product on the bare matrix does.
BOOST_AUTO_TEST_CASE_TEMPLATE(csr_merge_operator_searches_its_team_bounds_once, Cfg, test::AllConfigs) {
  using Exec = typename Cfg::execution_space;
  using Value = typename Cfg::value_type;
  using Device = typename Cfg::device_type;
  using Ordinal = typename Cfg::ordinal_type;
  using Offset = typename Cfg::size_type;
  using Csr = CsrMatrix<Value, Ordinal, Offset, Device>;
  using Vector = Kokkos::View<Value*, Device>;
  constexpr int kApplies = 3;
  const char* const kSearch = "araios::spmv::csr_merge_bounds";
  const io::HostMatrix host = longAndEmptyRows();
  Exec exec;
  const Csr csr = csrFromCoo(exec, cooFromHost<CooMatrix<Value, Ordinal, Offset, Device>>(host));
  exec.fence();
  const HostCsr<Value> hostCsr = toHost(csr);
  std::vector<Value> x = test::randomVector<Value>(host.numCols, 4321);
  for (std::size_t j = 0; j < x.size(); ++j) x[j] = std::ldexp(x[j], static_cast<int>(j % 13) - 6);
  const std::vector<Value> y0 = test::randomVector<Value>(host.numRows, 8765);
  const Vector xd = test::deviceVector<Device>(x, "x"), yd("y", y0.size());
  const auto ym = Kokkos::create_mirror_view(yd);
  const std::pair<Value, Value> scalings[] = {{Value(1), Value(0)}, {Value(-0.75), Value(0.5)}};
  // The merge order's y for each scaling, evaluated on the host once.
  std::vector<std::vector<Value>> expected;
  for (const auto& scaling : scalings) expected.push_back(mergeOrder(hostCsr, x, y0, scaling.first, scaling.second));
  // One product with scaling `c` into yd (NaN first where beta is 0, so an unwritten row
  // shows): the rows that differ from the merge order's.
  const auto wrongRows = [&](std::size_t c, const auto& product) {
    for (std::size_t i = 0; i < y0.size(); ++i) ym(i) = scalings[c].second == Value(0) ? std::nan("") : y0[i];
    Kokkos::deep_copy(yd, ym);
    product();
    exec.fence();
    Kokkos::deep_copy(ym, yd);
    std::int64_t wrong = 0;
    for (std::size_t i = 0; i < expected[c].size(); ++i) wrong += sameBits(ym(i), expected[c][i]) ? 0 : 1;
    return wrong;
  };

  for (const Mode mode : {Mode::Fast, Mode::Deterministic, Mode::Accurate}) {
    OperatorOptions options;
    options.kernel = Kernel::CsrMerge;
    options.mode = mode;
    std::int64_t searchesToBuild = 0, searchesToApply = 0, wrong = 0;
    {
      LaunchCounter searches(kSearch);
      const SpmvOperator<Value, Ordinal, Offset, Exec> op(exec, csr, options);
      searchesToBuild = searches.count();
      for (int r = 0; r < kApplies; ++r) {
        for (std::size_t c = 0; c < expected.size(); ++c) {
          // An Accurate operator's products in Deterministic mode walk the merge path too.
          const Mode applied = mode == Mode::Accurate ? Mode::Deterministic : mode;
          wrong += wrongRows(c, [&] { op.apply(exec, xd, yd, scalings[c].first, scalings[c].second, applied); });
        }
      }
      searchesToApply = searches.count() - searchesToBuild;
    }
    const std::string what = std::string("operator built for ") + toString(mode) + " mode, " + Exec::name();
    BOOST_TEST(wrong == 0, what << ": " << wrong << " rows differ from the merge order");
    const std::int64_t products = kApplies * 2;
    if (mode == Mode::Accurate) {
      BOOST_TEST(searchesToBuild == 0, what << ": searched " << searchesToBuild << " times to build");
      BOOST_TEST(searchesToApply == products, what << ": " << searchesToApply << " searches for " << products << " products");
    } else {
      BOOST_TEST(searchesToBuild == 1, what << ": searched " << searchesToBuild << " times to build");
      BOOST_TEST(searchesToApply == 0, what << ": " << searchesToApply << " searches for " << products << " products");
    }
  }

  // The bare matrix: a search per product, the same bits.
  SpmvOptions options{SpmvAlgorithm::CsrMerge};
  options.mode = Mode::Deterministic;
  const Vector work("work", spmvWorkspaceValues(exec, csr, options));
  LaunchCounter searches(kSearch);
  std::int64_t wrong = 0;
  for (std::size_t c = 0; c < expected.size(); ++c) {
    wrong += wrongRows(c, [&] { spmv(exec, csr, xd, yd, scalings[c].first, scalings[c].second, options, work); });
  }
  BOOST_TEST(wrong == 0, "bare matrix, " << Exec::name() << ": " << wrong << " rows differ from the merge order");
  BOOST_TEST(searches.count() == 2, "bare matrix, " << Exec::name() << ": " << searches.count() << " searches for 2 products");
}

/// Rows of 0 to `shortest - 1` entries, and `longRows` rows of `longLength` entries spread
/// among them (none when longRows is 0); values and x over many binades.
io::HostMatrix shortRowsAndSomeLong(std::int64_t rows, int shortest, std::int64_t longRows, std::int64_t longLength,
                                    std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> mantissa(-1.0, 1.0);
  std::uniform_int_distribution<int> exponent(-30, 30), shortLength(0, shortest - 1);
  const std::int64_t cols = rows + 7;
  std::vector<std::tuple<std::int64_t, std::int64_t, double>> entries;
  for (std::int64_t r = 0; r < rows; ++r) {
    const bool isLong = longRows > 0 && r % (rows / longRows) == rows / longRows / 2;
    const std::int64_t length = isLong ? longLength : shortLength(rng);
    const std::int64_t stride = std::max<std::int64_t>(1, cols / (length + 1));
    for (std::int64_t k = 0; k < length; ++k) {
      entries.emplace_back(r, (r + k * stride) % cols, std::ldexp(mantissa(rng), exponent(rng)));
    }
  }
  return test::fromTriplets(rows, cols, std::move(entries));
}

/// `rows` rows of 0 to maxLength entries in columns within `band` of the diagonal (of `cols`
/// columns, wrapped), but every farEvery-th row (none if 0) in columns across all of them;
/// values over many binades.
io::HostMatrix rowsInBand(std::int64_t rows, std::int64_t cols, int maxLength, std::int64_t band, std::int64_t farEvery,
                          std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> mantissa(-1.0, 1.0);
  std::uniform_int_distribution<int> exponent(-30, 30), length(0, maxLength);
  std::uniform_int_distribution<std::int64_t> offset(-band, band), anywhere(0, cols - 1);
  std::vector<std::tuple<std::int64_t, std::int64_t, double>> entries;
  for (std::int64_t r = 0; r < rows; ++r) {
    const std::int64_t n = length(rng), diagonal = r * cols / rows;
    const bool far = farEvery > 0 && r % farEvery == 0;
    for (std::int64_t k = 0; k < n; ++k) {
      const std::int64_t col = far ? anywhere(rng) : ((diagonal + offset(rng)) % cols + cols) % cols;
      entries.emplace_back(r, col, std::ldexp(mantissa(rng), exponent(rng)));
    }
  }
  return test::fromTriplets(rows, cols, std::move(entries));
}

/// csr-merge with its short rows apart (csr_merge_short_rows.hpp): one thread per row of at
/// most 49 entries, then only the teams that hold a longer row's items. Forced apart, forced on
/// the path, and by the operator's rule, every product gives the merge order's bits, on rows of
/// every length, of one to four segments (the two-segment kernel where no row is longer than 16,
/// the tree's otherwise), long rows across teams, empty rows, both scalings. The rule
/// (csrMergeShortRowsGoApart): apart only where no row is longer than 49, and either none is
/// longer than 16, rows average at most 8 entries, or at most one row in 16 spans more than
/// 2^15 columns; the team kernel runs where the plan is forced apart and some team holds a long
/// row's items.
BOOST_AUTO_TEST_CASE_TEMPLATE(csr_merge_short_rows_apart_keep_the_merge_bits, Cfg, test::AllConfigs) {
  using Exec = typename Cfg::execution_space;
  using Value = typename Cfg::value_type;
  using Device = typename Cfg::device_type;
  using Ordinal = typename Cfg::ordinal_type;
  using Offset = typename Cfg::size_type;
  using Csr = CsrMatrix<Value, Ordinal, Offset, Device>;
  using Vector = Kokkos::View<Value*, Device>;
  using Impl::MergeShortRows;
  struct Case {
    const char* name;
    io::HostMatrix host;
    bool apartByRule;  // what the operator's rule must choose
  };
  const Case cases[] = {
      {"every_row_length", everyRowLength(), false},
      {"long_and_empty_rows", longAndEmptyRows(), false},
      {"short_rows_only", shortRowsAndSomeLong(30000, 17, 0, 0, 11), true},
      {"one_row_of_3000", shortRowsAndSomeLong(80000, 2, 1, 3000, 15), false},
      {"one_row_of_60000", shortRowsAndSomeLong(60000, 2, 1, 60000, 12), false},
      {"six_rows_of_9000", shortRowsAndSomeLong(40000, 9, 6, 9000, 13), false},
      {"rows_of_17_everywhere", shortRowsAndSomeLong(20000, 17, 2000, 17, 14), true},
      {"rows_of_49_among_rows_of_up_to_8", shortRowsAndSomeLong(40000, 9, 400, 49, 16), true},
      {"rows_of_50_among_rows_of_up_to_8", shortRowsAndSomeLong(40000, 9, 400, 50, 17), false},
      {"rows_of_up_to_49_near_the_diagonal", rowsInBand(30000, 200000, 49, 1000, 0, 18), true},
      {"rows_of_up_to_49_far_apart", rowsInBand(30000, 200000, 49, 1000, 1, 19), false},
      {"one_in_10_rows_far_apart", rowsInBand(30000, 200000, 49, 1000, 10, 20), false},
      {"one_in_40_rows_far_apart", rowsInBand(30000, 200000, 49, 1000, 40, 21), true},
  };
  Exec exec;
  for (const Case& c : cases) {
    const Csr csr = csrFromCoo(exec, cooFromHost<CooMatrix<Value, Ordinal, Offset, Device>>(c.host));
    exec.fence();
    const HostCsr<Value> hostCsr = toHost(csr);
    std::vector<Value> x = test::randomVector<Value>(c.host.numCols, 2468);
    for (std::size_t j = 0; j < x.size(); ++j) x[j] = std::ldexp(x[j], static_cast<int>(j % 15) - 7);
    const std::vector<Value> y0 = test::randomVector<Value>(c.host.numRows, 1357);
    const Vector xd = test::deviceVector<Device>(x, "x"), yd("y", y0.size());
    const auto ym = Kokkos::create_mirror_view(yd);
    const Vector work("work", Impl::csrMergeWorkspaceValues<Exec>(csr));
    const std::string what = std::string(c.name) + ", " + Exec::name();

    const auto rule = Impl::csrMergeBounds(exec, csr);
    BOOST_TEST(rule.shortRowsApart() == c.apartByRule, what << ": the rule put the short rows "
                                                          << (rule.shortRowsApart() ? "apart" : "on the path"));
    const std::int64_t longest = Impl::csrLongestRow(exec, csr);
    BOOST_TEST(longest == hostLongestRow(hostCsr), what << ": longest row " << longest);
    const std::int64_t far = Impl::csrFarRows(exec, csr);
    BOOST_TEST(far == hostFarRows(hostCsr, Impl::kMergeNearColumns), what << ": " << far << " rows far apart");
    for (const MergeShortRows plan : {MergeShortRows::Apart, MergeShortRows::OnThePath, MergeShortRows::Auto}) {
      const auto bounds = Impl::csrMergeBounds(exec, csr, plan);
      BOOST_TEST(bounds.shortRowsInTwoSegments == (bounds.shortRowsApart() && longest <= 16),
                 what << ": the two-segment kernel " << (bounds.shortRowsInTwoSegments ? "taken" : "not taken"));
      for (const auto& [alpha, beta] : {std::pair<Value, Value>{Value(1), Value(0)}, {Value(-0.75), Value(0.5)}}) {
        const std::vector<Value> expected = mergeOrder(hostCsr, x, y0, alpha, beta);
        for (std::size_t i = 0; i < y0.size(); ++i) ym(i) = beta == Value(0) ? std::nan("") : y0[i];
        Kokkos::deep_copy(yd, ym);
        LaunchCounter teamLaunches("araios::spmv::csr_merge");
        Impl::csrMergePass<Impl::RoundedMergeSum<Value>>(exec, csr, xd, yd, alpha, beta, work, bounds);
        exec.fence();
        const std::int64_t launched = teamLaunches.count();
        Kokkos::deep_copy(ym, yd);
        const auto [wrong, firstWrong] = rowsThatDiffer(ym, expected);
        BOOST_TEST(wrong == 0, what << ", plan " << static_cast<int>(plan) << " (apart: " << bounds.shortRowsApart()
                                    << "), beta=" << beta << ": " << wrong
                                    << " rows differ from the merge order, first row " << firstWrong);
        const bool teamsRun = !bounds.shortRowsApart() || bounds.longRowTeamCount > 0;
        BOOST_TEST(launched == (teamsRun ? 1 : 0), what << ": " << launched << " team launches");
      }
    }
  }
}

/// Rows on both sides of the walk's long-row limit and across its chunks of staged entries
/// (rows_in_order.hpp: 256 and 512): lengths 0 to 3 among rows of up to 1,600, values and x
/// over many binades.
io::HostMatrix rowsAcrossChunks() {
  std::mt19937_64 rng(4099);
  std::uniform_real_distribution<double> mantissa(-1.0, 1.0);
  std::uniform_int_distribution<int> exponent(-30, 30), shortLength(0, 3);
  const std::int64_t longLengths[] = {255, 256, 257, 511, 512, 513, 1024, 1025, 1600};
  const std::int64_t rows = 3000, cols = 4000;
  std::vector<std::tuple<std::int64_t, std::int64_t, double>> entries;
  for (std::int64_t r = 0; r < rows; ++r) {
    const std::int64_t length = r % 97 == 13 ? longLengths[(r / 97) % 9] : shortLength(rng);
    for (std::int64_t k = 0; k < length; ++k) {
      entries.emplace_back(r, (r * 3 + k * 2) % cols, std::ldexp(mantissa(rng), exponent(rng)));
    }
  }
  return test::fromTriplets(rows, cols, std::move(entries));
}

/// Rows across the groups of the blocked order (8,192 entries): at, below and past one group,
/// two groups and a half, among rows of 0 to 3 entries; values over many binades.
io::HostMatrix rowsAcrossGroups() {
  std::mt19937_64 rng(8191);
  std::uniform_real_distribution<double> mantissa(-1.0, 1.0);
  std::uniform_int_distribution<int> exponent(-30, 30), shortLength(0, 3);
  const std::int64_t longLengths[] = {8191, 8192, 8193, 20481};
  const std::int64_t rows = 900, cols = 21000;
  std::vector<std::tuple<std::int64_t, std::int64_t, double>> entries;
  for (std::int64_t r = 0; r < rows; ++r) {
    const std::int64_t length = r % 211 == 17 ? longLengths[(r / 211) % 4] : shortLength(rng);
    for (std::int64_t k = 0; k < length; ++k) {
      entries.emplace_back(r, (r * 7 + k) % cols, std::ldexp(mantissa(rng), exponent(rng)));
    }
  }
  return test::fromTriplets(rows, cols, std::move(entries));
}

/// COO, CSC and HYB sum each row in CSR order in Deterministic mode, whether a thread walks the
/// row or, on a GPU, threads and teams sum its chunks and groups apart (detail/rows_in_order.hpp,
/// detail/chunked_rows_in_order.hpp, detail/long_rows_in_order.hpp). Checked against the literal
/// blocked CSR order through spmv, and with the team walk forced on every backend (teams of 2 to
/// 256 threads, rows of more than 3 entries summed by chunks or by groups) through the walk
/// itself.
BOOST_AUTO_TEST_CASE_TEMPLATE(coo_csc_hyb_rows_in_csr_order, Cfg, test::AllConfigs) {
  using Exec = typename Cfg::execution_space;
  using Value = typename Cfg::value_type;
  using Device = typename Cfg::device_type;
  using Ordinal = typename Cfg::ordinal_type;
  using Offset = typename Cfg::size_type;
  using Coo = CooMatrix<Value, Ordinal, Offset, Device>;
  using Csr = CsrMatrix<Value, Ordinal, Offset, Device>;
  using Vector = Kokkos::View<Value*, Device>;
  using Acc = Impl::RoundedRowSum<Value>;
  Exec exec;
  for (const auto& matrix : {std::pair<const char*, io::HostMatrix>{"every_row_length", everyRowLength()},
                             std::pair<const char*, io::HostMatrix>{"rows_across_chunks", rowsAcrossChunks()},
                             std::pair<const char*, io::HostMatrix>{"rows_across_groups", rowsAcrossGroups()}}) {
    const char* const name = matrix.first;  // not a structured binding: lambdas below capture it
    const io::HostMatrix& host = matrix.second;
    const Coo coo = cooFromHost<Coo>(host);
    const Csr csr = csrFromCoo(exec, coo);
    const auto csc = cscFromCsr(exec, csr);
    const auto hyb = hybFromCsrWithEllWidth(exec, csr, 2);
    exec.fence();
    std::vector<Value> x = test::randomVector<Value>(host.numCols, 31);
    for (std::size_t j = 0; j < x.size(); ++j) x[j] = std::ldexp(x[j], static_cast<int>(j % 13) - 6);
    const std::vector<Value> y0 = test::randomVector<Value>(host.numRows, 37);
    const Vector xd = test::deviceVector<Device>(x, "x"), yd("y", y0.size());
    const auto ym = Kokkos::create_mirror_view(yd);
    const auto check = [&](const std::string& what, Value alpha, Value beta, const auto& product) {
      const std::vector<Value> expected = csrOrder(toHost(csr), x, y0, alpha, beta);
      for (std::size_t i = 0; i < y0.size(); ++i) ym(i) = beta == Value(0) ? std::nan("") : y0[i];
      Kokkos::deep_copy(yd, ym);
      product(alpha, beta);
      exec.fence();
      Kokkos::deep_copy(ym, yd);
      const auto [wrong, firstWrong] = rowsThatDiffer(ym, expected);
      BOOST_TEST(wrong == 0, name << " " << what << " " << Exec::name() << " alpha=" << alpha << " beta=" << beta
                                  << ": " << wrong << " rows differ from CSR order, first row " << firstWrong);
    };
    SpmvOptions options;
    options.mode = Mode::Deterministic;
    // Operators keep the walk's plan (detail/rows_in_order.hpp); bare products plan on the call.
    std::vector<SpmvOperator<Value, Ordinal, Offset, Exec>> operators;
    for (const Kernel kernel : {Kernel::Coo, Kernel::Csc, Kernel::Hyb}) {
      OperatorOptions operatorOptions;
      operatorOptions.kernel = kernel;
      operatorOptions.mode = Mode::Deterministic;
      operators.emplace_back(exec, csr, operatorOptions);
    }
    for (const auto& [alpha, beta] : {std::pair<Value, Value>{1, 0}, std::pair<Value, Value>{-0.75, 0.5}}) {
      for (const auto& op : operators) {
        check(std::string(op.kernel().name) + " operator", alpha, beta,
              [&](Value a, Value b) { op.apply(exec, xd, yd, a, b); });
      }
      check("coo", alpha, beta, [&](Value a, Value b) { spmv(exec, coo, xd, yd, a, b, options); });
      check("csc", alpha, beta, [&](Value a, Value b) { spmv(exec, csc, xd, yd, a, b, options); });
      check("hyb", alpha, beta, [&](Value a, Value b) { spmv(exec, hyb, xd, yd, a, b, options); });
      // Teams of 2, 64 and 256 threads read rows of more than 3 entries; rows past the second
      // limit are summed by groups, and those past the third up to the second by chunks.
      struct TeamWalk {
        int teamSize;
        std::int64_t apart, chunked;
      };
      for (const auto& [teamSize, apart, chunked] : {TeamWalk{2, 3, Impl::kRowChunkedEntries}, TeamWalk{64, 40, 3},
                                                     TeamWalk{256, 600, Impl::kRowChunkedEntries}}) {
        const std::string team = " team walk of " + std::to_string(teamSize) + ", groups past " +
                                 std::to_string(apart) + ", chunks past " + std::to_string(chunked);
        check("coo" + team, alpha, beta, [&](Value a, Value b) {
          Impl::walkRowsInOrderByTeams<Acc>(exec, Impl::cooRowWalk(exec, coo), xd, yd, a, b, "test::coo", teamSize, 3,
                                            apart, chunked);
        });
        check("csc" + team, alpha, beta, [&](Value a, Value b) {
          using CscSpmv = Impl::Spmv<Exec, std::decay_t<decltype(csc)>>;
          const auto grouped = CscSpmv::groupByRow(exec, csc, "test::csc");
          Impl::walkRowsInOrderByTeams<Acc>(exec, CscSpmv::rowWalk(csc, grouped), xd, yd, a, b, "test::csc", teamSize,
                                            3, apart, chunked);
          exec.fence();  // the grouping dies with this scope
        });
        check("hyb" + team, alpha, beta, [&](Value a, Value b) {
          using HybSpmv = Impl::Spmv<Exec, std::decay_t<decltype(hyb)>>;
          Impl::walkRowsInOrderByTeams<Acc>(exec, HybSpmv::rowWalk(exec, hyb), xd, yd, a, b, "test::hyb", teamSize, 3,
                                            apart, chunked);
        });
      }
    }
  }
}

/// Rows past a block of the blocked order (2^21 entries, 256 groups) by two more groups and some
/// chunks, among short rows: the level that sums blocks, through csr-scalar's thread per row and
/// COO's operator and forced team walk (its groups summed apart on every backend). One row has
/// random values, one values that make the joins of the levels show. Double with 32-bit
/// ordinals and offsets only, to keep it short.
BOOST_AUTO_TEST_CASE_TEMPLATE(blocked_order_past_a_block, Cfg, test::AllConfigs) {
  using Types = test::FormatTypes<Cfg, CooMatrix>;
  using Exec = typename Types::Exec;
  using Value = typename Types::Value;
  using Ordinal = typename Types::Ordinal;
  using Offset = typename Types::Offset;
  using Coo = typename Types::Matrix;
  using Csr = typename Types::Csr;
  using Vector = typename Types::Vector;
  if constexpr (sizeof(Ordinal) == 4 && sizeof(Offset) == 4 && std::is_same_v<Value, double>) {
    Exec exec;
    const std::int64_t longest = (std::int64_t(1) << 21) + 2 * 8192 + 300;
    io::HostMatrix host;
    // Row 3 has only three nonzero products, where x is 1: 1 first, 2^-53 at the start of the
    // second block and 2^-53 last. Blocked, 1 + (2^-53 + 2^-53) = 1 + 2^-52; summed with the block
    // first, (1 + 2^-53) + 2^-53 rounds to 1 twice. So the levels' joins show in its bits.
    const std::int64_t ones = longest + 5;
    host.numRows = 4;
    host.numCols = 2 * longest + 5;
    std::mt19937_64 rng(24);
    std::uniform_real_distribution<double> mantissa(-1.0, 1.0);
    std::uniform_int_distribution<int> exponent(-20, 20);
    const auto add = [&](std::int64_t r, std::int64_t c, double value) {
      host.row.push_back(r);
      host.col.push_back(c);
      host.value.push_back(value);
    };
    const auto addRandom = [&](std::int64_t r, std::int64_t c) { add(r, c, std::ldexp(mantissa(rng), exponent(rng))); };
    addRandom(0, 3);
    for (std::int64_t k = 0; k < longest; ++k) addRandom(1, k);
    addRandom(2, 1), addRandom(2, 4);
    for (std::int64_t k = 0; k < longest; ++k) {
      const bool tiny = k == (std::int64_t(1) << 21) || k == longest - 1;
      add(3, ones + k, k == 0 ? 1.0 : tiny ? std::ldexp(1.0, -53) : 0.0);
    }
    const Coo coo = cooFromHost<Coo>(host);
    const Csr csr = csrFromCoo(exec, coo);
    exec.fence();
    host = io::HostMatrix();  // free the host's copy before the device's products
    std::vector<Value> x = test::randomVector<Value>(2 * longest + 5, 41);
    std::fill(x.begin() + ones, x.end(), Value(1));
    const std::vector<Value> y0{Value(0.5), Value(-2), Value(3), Value(0.25)};
    const Vector xd = test::deviceVector<typename Types::Device>(x, "x"), yd("y", 4);
    const auto ym = Kokkos::create_mirror_view(yd);
    const std::vector<Value> expected = csrOrder(toHost(csr), x, y0, Value(-0.75), Value(0.5));
    const auto check = [&](const std::string& what, const auto& product) {
      for (int i = 0; i < 4; ++i) ym(i) = y0[i];
      Kokkos::deep_copy(yd, ym);
      product();
      exec.fence();
      Kokkos::deep_copy(ym, yd);
      const auto [wrong, firstWrong] = rowsThatDiffer(ym, expected);
      BOOST_TEST(wrong == 0, what << " " << Exec::name() << ": " << wrong << " rows differ from the blocked CSR order");
    };
    for (const Kernel kernel : {Kernel::CsrScalar, Kernel::Coo}) {
      OperatorOptions options;
      options.kernel = kernel;
      options.mode = Mode::Deterministic;
      const SpmvOperator<Value, Ordinal, Offset, Exec> op(exec, csr, options);
      check(std::string(op.kernel().name) + " operator", [&] { op.apply(exec, xd, yd, Value(-0.75), Value(0.5)); });
    }
    check("coo team walk", [&] {
      Impl::walkRowsInOrderByTeams<Impl::RoundedRowSum<Value>>(exec, Impl::cooRowWalk(exec, coo), xd, yd, Value(-0.75),
                                                               Value(0.5), "test::coo", 256, 3, 3);
    });
  }
}

/// One row of `longest` entries among 600 rows of 0 to 3 (no more than `longest`).
io::HostMatrix oneLongRow(std::int64_t longest) {
  std::mt19937_64 rng(static_cast<std::uint64_t>(7919 + longest));
  std::uniform_int_distribution<std::int64_t> shortLength(0, std::min<std::int64_t>(3, longest));
  std::uniform_real_distribution<double> value(-1.0, 1.0);
  const std::int64_t rows = 600, cols = 2000;
  std::vector<std::tuple<std::int64_t, std::int64_t, double>> entries;
  for (std::int64_t r = 0; r < rows; ++r) {
    const std::int64_t length = r == 411 ? longest : shortLength(rng);
    for (std::int64_t k = 0; k < length; ++k) entries.emplace_back(r, (r + k * 5) % cols, value(rng));
  }
  return test::fromTriplets(rows, cols, std::move(entries));
}

/// The row walk's plan (detail/rows_in_order.hpp): by teams on a GPU where some row has more
/// than kLongRowEntries staged entries (for HYB, entries of its COO part), a thread per row
/// otherwise and always on a CPU. The longest row it measures (on every backend) and the plans
/// an operator keeps, against the longest row counted on the host, on both sides of the limit.
BOOST_AUTO_TEST_CASE_TEMPLATE(row_walk_plan_follows_the_longest_row, Cfg, test::AllConfigs) {
  using Types = test::FormatTypes<Cfg, CooMatrix>;
  using Exec = typename Types::Exec;
  using Coo = typename Types::Matrix;
  using Csr = typename Types::Csr;
  Exec exec;
  constexpr bool gpu = !Impl::isHostSpace<Exec>();
  constexpr std::int64_t limit = Impl::kLongRowEntries;
  const std::int64_t longestRows[] = {0, 70, limit, limit + 1, limit + 2, limit + 3, 1600, Impl::kRowApartEntries + 1};
  for (const std::int64_t longest : longestRows) {
    const Coo coo = cooFromHost<Coo>(oneLongRow(longest));
    const Csr csr = csrFromCoo(exec, coo);
    const auto csc = cscFromCsr(exec, csr);
    const auto hyb = hybFromCsrWithEllWidth(exec, csr, 2);
    exec.fence();
    // HYB stages only its COO part: count its rows on the host.
    const auto tailRows = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), hyb.coo.rowIdx);
    std::vector<std::int64_t> tailLength(static_cast<std::size_t>(hyb.numRows), 0);
    for (std::size_t k = 0; k < tailRows.extent(0); ++k) ++tailLength[static_cast<std::size_t>(tailRows(k))];
    const std::int64_t tailLongest = tailLength.empty() ? 0 : *std::max_element(tailLength.begin(), tailLength.end());

    const auto expect = [&](const char* format, const auto& rows, const auto& plan, std::int64_t staged) {
      const std::int64_t measured = Impl::longestStagedRow(exec, rows);
      BOOST_TEST(measured == staged, format << " " << Exec::name() << ", longest row " << longest << ": measured "
                                            << measured << " staged entries, expected " << staged);
      BOOST_TEST(plan.ready(), format << " " << Exec::name() << ", longest row " << longest << ": no plan");
      BOOST_TEST(plan.byTeams == (gpu && staged > limit),
                 format << " " << Exec::name() << ", longest row " << longest << " (" << staged
                        << " staged): by teams " << plan.byTeams);
      // Where teams walk, a row past kRowApartEntries is listed with its group of the blocked
      // order, and one past kRowChunkedEntries, up to that, with its chunks.
      const std::int64_t grouped = plan.byTeams && staged > Impl::kRowApartEntries ? 1 : 0;
      const bool chunked = plan.byTeams && staged > Impl::kRowChunkedEntries && !grouped;
      const std::int64_t chunks = chunked ? (longest + Impl::kChunkEntries - 1) / Impl::kChunkEntries : 0;
      BOOST_TEST((plan.apart.grouped.count == grouped && plan.apart.grouped.pieces == grouped),
                 format << " " << Exec::name() << ", longest row " << longest << ": " << plan.apart.grouped.count
                        << " long rows listed in " << plan.apart.grouped.pieces << " groups, expected " << grouped);
      BOOST_TEST((plan.apart.chunked.count() == (chunked ? 1 : 0) && plan.apart.chunked.chunks() == chunks),
                 format << " " << Exec::name() << ", longest row " << longest << ": " << plan.apart.chunked.count()
                        << " rows listed in " << plan.apart.chunked.chunks() << " chunks, expected "
                        << (chunked ? 1 : 0) << " in " << chunks);
      BOOST_TEST(plan.workspaceValues() == grouped + chunks,
                 format << " " << Exec::name() << ", longest row " << longest << ": workspace of "
                        << plan.workspaceValues() << " values, expected " << grouped + chunks);
    };
    using CscSpmv = Impl::Spmv<Exec, std::decay_t<decltype(csc)>>;
    using HybSpmv = Impl::Spmv<Exec, std::decay_t<decltype(hyb)>>;
    const auto grouped = CscSpmv::groupByRow(exec, csc, "test::csc");
    expect("coo", Impl::cooRowWalk(exec, coo), Impl::Spmv<Exec, Coo>::prepare(exec, coo, csr, Mode::Deterministic),
           longest);
    expect("csc", CscSpmv::rowWalk(csc, grouped), grouped.walk, longest);
    expect("hyb", HybSpmv::rowWalk(exec, hyb), HybSpmv::prepare(exec, hyb, csr, Mode::Deterministic), tailLongest);
  }
}

BOOST_AUTO_TEST_CASE_TEMPLATE(generated_matrices, Cfg, test::AllConfigs) {
  for (const auto& c : test::formatCases()) checkOrders<Cfg>(c.name, c.matrix);
}

BOOST_AUTO_TEST_CASE_TEMPLATE(real_matrices, Cfg, test::AllConfigs) {
  for (const auto& m : test::realMatrices()) checkOrders<Cfg>(m.name, m.matrix);
}
