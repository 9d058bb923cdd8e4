// SpGEMM (araios::SpgemmHandle, araios::spgemm) on every enabled execution space, in double
// and float, with 32-bit and 64-bit indices, against two independent host references:
//   * Gustavson's algorithm on the host with each entry's products summed exactly in MPFR
//     (mpfrSpgemm below): C's pattern, the correctly rounded values the Accurate mode must give,
//     the exact values and magnitudes for the Fast mode's error bound, and the product counts;
//   * araios::referenceSpgemmDot, the row-by-column dot-product algorithm: the Deterministic
//     mode's bits (the canonical order: from -0.0, k ascending, each product and sum rounded)
//     and, up to kDotAccurateMaxEntries entries of C, the Accurate mode's bits once more.
// The references are first checked against each other. C's values are poisoned with NaN before
// each numeric phase, so an entry left unwritten fails.
//
// Cases: a tiny product with exact answers (cancellation to +0, zero and -0 values); generated
// shapes (rectangular, empty rows and columns, zero-sized dimensions, dense rows beyond 20,000
// products, exact cancellations, sums a hair past a rounding tie, spread magnitudes, random,
// power-law); real matrices (A*A, or A*A^T through araios::transposeCsr for a rectangular one);
// the numeric phase run again on new values; products split into row chunks by a memory limit,
// with the bytes allocated at once measured; the errors; and the same bits on every execution
// space. OpenMP runs at the default thread count and, in a second CTest
// registration, at one thread (tests/CMakeLists.txt); both are held to the same host
// references, and the hashes of one fixed product are printed so that runs can be compared.
#define BOOST_TEST_MODULE spgemm
#include <boost/test/unit_test.hpp>

#include "support/generated.hpp"
#include "support/kokkos_env.hpp"
#include "support/mpfr_reference.hpp"
#include "support/real_matrices.hpp"

#include <araios/formats/coo/coo_convert.hpp>
#include <araios/formats/csr/csr_transpose.hpp>
#include <araios/hash.hpp>
#include <araios/reference_spgemm.hpp>
#include <araios/reference_spmv.hpp>
#include <araios/spgemm.hpp>
#include <araios/types.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <map>
#include <memory>
#include <numeric>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

using araios::test::KokkosFixture;
BOOST_TEST_GLOBAL_FIXTURE(KokkosFixture);

namespace {

using namespace araios;
using Triplets = std::vector<std::tuple<std::int64_t, std::int64_t, double>>;

/// The Accurate mode is also checked against referenceSpgemmDot's exact accumulator for products
/// up to this many entries of C (about a microsecond an entry on the host); beyond, against MPFR
/// alone, which the dot reference has matched on every smaller product.
constexpr std::int64_t kDotAccurateMaxEntries = 250000;

/// A row of C must gather more products than this in the dense-row case: past any on-chip hash
/// table or dense window a kernel may hold for one row.
constexpr std::int64_t kManyRowProducts = 20000;

// ---------------------------------------------------------------------------------------------
// The cases

struct ProductCase {
  std::string name;
  io::HostMatrix A, B;
  /// B = A^T, built on the device by araios::transposeCsr (B above is the host's transpose).
  bool bIsTransposeOfA = false;
  /// Some entries lie so near a rounding tie that the Accurate mode must decide them with its
  /// exact accumulator (stats().accurateRowsRecomputed > 0), so that path is tested.
  bool needsExactPass = false;
};

io::HostMatrix transposed(const io::HostMatrix& m) {
  Triplets entries;
  for (std::int64_t k = 0; k < m.nnz(); ++k) entries.emplace_back(m.col[k], m.row[k], m.value[k]);
  return test::fromTriplets(m.numCols, m.numRows, std::move(entries));
}

ProductCase timesTranspose(const std::string& name, const io::HostMatrix& a) {
  return {name, a, transposed(a), true};
}

/// Entries of spread magnitudes (2^-40 to 2^40, both signs): rounded sums in any order stray far
/// from the exact ones, so the Accurate mode's exact path is exercised.
io::HostMatrix spreadMagnitudes(std::int64_t rows, std::int64_t cols, int maxLength, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<int> exponent(-40, 40), length(0, maxLength);
  std::uniform_real_distribution<double> mantissa(1.0, 2.0);
  std::uniform_int_distribution<std::int64_t> column(0, cols - 1);
  Triplets entries;
  for (std::int64_t r = 0; r < rows; ++r) {
    std::set<std::int64_t> used;
    const int n = length(rng);
    for (int k = 0; k < n; ++k) {
      const std::int64_t c = column(rng);
      if (!used.insert(c).second) continue;
      entries.emplace_back(r, c, std::ldexp(mantissa(rng), exponent(rng)) * (k % 2 ? -1.0 : 1.0));
    }
  }
  return test::fromTriplets(rows, cols, std::move(entries));
}

/// Products that cancel exactly: row i of A holds x_i at columns 2m and 2m+1; row 2m of B holds
/// y_j and row 2m+1 holds -y_j at the same columns, so every c_ij = x_i*y_j - x_i*y_j = +0,
/// which must still be stored. Column 49 of B holds zeros of both signs instead.
ProductCase cancellingProduct() {
  std::mt19937_64 rng(41);
  std::uniform_real_distribution<double> value(-1.0, 1.0);
  Triplets a, b;
  for (std::int64_t i = 0; i < 100; ++i) {
    const std::int64_t m = (i * 7) % 100;
    const double x = value(rng);
    a.emplace_back(i, 2 * m, x);
    a.emplace_back(i, 2 * m + 1, x);
  }
  for (std::int64_t m = 0; m < 100; ++m) {
    for (std::int64_t j = m % 5; j < 49; j += 5) {
      const double y = value(rng);
      b.emplace_back(2 * m, j, y);
      b.emplace_back(2 * m + 1, j, -y);
    }
    b.emplace_back(2 * m, 49, m % 2 ? 0.0 : -0.0);
    b.emplace_back(2 * m + 1, 49, -0.0);
  }
  return {"exact_cancellation", test::fromTriplets(100, 200, std::move(a)), test::fromTriplets(200, 50, std::move(b))};
}

/// Entries whose exact sum lies a hair beyond a rounding tie, the hair hidden under a cancelling
/// pair of large products (as in tests/spmv/test_spmv_modes.cpp): c_00 = 1 + 2^-53 + 2^-160 in
/// double, c_10 = 1 + 2^-24 + 2^-60 in float, each beside +-2^100; column 1 of B scales them by
/// 0.5 (exactly); rows 2 and 3 cancel. A first pass that carries a few doubles per entry cannot
/// tell these from the tie, so the exact accumulator must decide them.
ProductCase nearTies() {
  const double big = std::ldexp(1.0, 100);
  const io::HostMatrix a = test::fromTriplets(
      4, 5,
      {{0, 0, big}, {0, 1, 1.0}, {0, 2, std::ldexp(1.0, -53)}, {0, 3, std::ldexp(1.0, -160)}, {0, 4, -big},
       {1, 0, big}, {1, 1, 1.0}, {1, 2, std::ldexp(1.0, -24)}, {1, 3, std::ldexp(1.0, -60)}, {1, 4, -big},
       {2, 0, 1.0}, {2, 1, -1.0}, {2, 2, std::ldexp(1.0, -60)}, {3, 0, 1e30}, {3, 1, -1e30}});
  Triplets b;
  for (std::int64_t k = 0; k < 5; ++k) {
    b.emplace_back(k, 0, 1.0);
    b.emplace_back(k, 1, 0.5);
  }
  ProductCase c{"near_ties", a, test::fromTriplets(5, 2, std::move(b))};
  c.needsExactPass = true;
  return c;
}

/// Empty rows in A (two of every three) and in B (the odd rows), and empty columns of B (170
/// and up): some nonempty rows of A reach only empty rows of B and give empty rows of C.
ProductCase emptyRowsAndColumns() {
  Triplets a, b;
  for (std::int64_t r = 0; r < 200; r += 3) {
    a.emplace_back(r, (r * 7) % 150, 1.0 + r);
    if (r % 2 == 0) a.emplace_back(r, (r * 7 + 5) % 150, -0.5 * r);
  }
  for (std::int64_t k = 0; k < 150; k += 2)
    for (std::int64_t t = 0; t < 4; ++t) b.emplace_back(k, (k * 5 + t * 37) % 170, 0.25 * (t + 1) - 0.01 * k);
  // fromTriplets keeps repeated positions; drop them (B must have each column once per row).
  auto unique = [](Triplets e) {
    std::sort(e.begin(), e.end());
    e.erase(std::unique(e.begin(), e.end(),
                        [](const auto& p, const auto& q) {
                          return std::get<0>(p) == std::get<0>(q) && std::get<1>(p) == std::get<1>(q);
                        }),
            e.end());
    return e;
  };
  return {"empty_rows_and_columns", test::fromTriplets(200, 150, unique(std::move(a))),
          test::fromTriplets(150, 180, unique(std::move(b)))};
}

/// Row 17 of A holds all 5,000 columns (test::generatedCases' one_dense_row) and B's rows hold
/// 1 to 8 entries, so row 17 of C gathers more than kManyRowProducts products; row 13 of B is
/// dense (all 3,000 columns), so row 1 of A (which reaches it) gives a dense row of C as well.
ProductCase denseRows() {
  io::HostMatrix a;
  for (const auto& c : test::generatedCases())
    if (c.name == "one_dense_row") a = c.matrix;
  const io::HostMatrix random = test::randomMatrix(5000, 3000, 1, 8, 43);
  Triplets b;
  for (std::int64_t k = 0; k < random.nnz(); ++k)
    if (random.row[k] != 13) b.emplace_back(random.row[k], random.col[k], random.value[k]);
  for (std::int64_t j = 0; j < 3000; ++j) b.emplace_back(13, j, 1.0 / (j + 3));
  return {"dense_rows", a, test::fromTriplets(5000, 3000, std::move(b))};
}

/// A power-law-like square matrix: row lengths ~ 1000 * rank^-1.1 (ranks a random permutation
/// of the rows, at least one entry a row), columns drawn towards the rows of low rank (rank
/// n * u^1.5), so the longest rows are also the fullest columns: a few rows of C gather
/// thousands of products while most gather a few.
io::HostMatrix powerLaw(std::int64_t n, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<std::int64_t> rowOfRank(n), rank(n);
  std::iota(rowOfRank.begin(), rowOfRank.end(), 0);
  std::shuffle(rowOfRank.begin(), rowOfRank.end(), rng);
  for (std::int64_t r = 0; r < n; ++r) rank[rowOfRank[r]] = r + 1;
  std::uniform_real_distribution<double> unit(0.0, 1.0), value(-1.0, 1.0);
  Triplets entries;
  for (std::int64_t r = 0; r < n; ++r) {
    const std::int64_t length =
        std::max<std::int64_t>(1, static_cast<std::int64_t>(1000.0 * std::pow(static_cast<double>(rank[r]), -1.1)));
    std::set<std::int64_t> cols;
    while (static_cast<std::int64_t>(cols.size()) < length)
      cols.insert(rowOfRank[std::min<std::int64_t>(n - 1, static_cast<std::int64_t>(n * std::pow(unit(rng), 1.5)))]);
    for (const std::int64_t c : cols) entries.emplace_back(r, c, value(rng));
  }
  return test::fromTriplets(n, n, std::move(entries));
}

/// The fixed product whose hashes every run prints, and which the chunked and reuse tests use.
ProductCase randomSquare() {
  return {"random_square", test::randomMatrix(1000, 1000, 0, 40, 7), test::randomMatrix(1000, 1000, 0, 40, 8)};
}

std::vector<ProductCase> generatedProducts() {
  std::vector<ProductCase> cases;
  cases.push_back({"rectangular_300x500_500x200", test::randomMatrix(300, 500, 0, 20, 101),
                   test::randomMatrix(500, 200, 0, 20, 102)});
  cases.push_back(timesTranspose("random_wide_times_transpose", test::randomMatrix(123, 4567, 1, 300, 11)));
  cases.push_back(emptyRowsAndColumns());
  cases.push_back({"0x0_times_0x0", test::fromTriplets(0, 0, {}), test::fromTriplets(0, 0, {})});
  cases.push_back({"0x5_times_5x3", test::fromTriplets(0, 5, {}), test::fromTriplets(5, 3, {{1, 2, 1.0}})});
  cases.push_back({"4x0_times_0x3", test::fromTriplets(4, 0, {}), test::fromTriplets(0, 3, {})});
  cases.push_back({"3x4_times_4x0", test::fromTriplets(3, 4, {{0, 1, 1.0}, {2, 3, 2.0}}), test::fromTriplets(4, 0, {})});
  cases.push_back({"no_entries_4x3_times_3x2", test::fromTriplets(4, 3, {}), test::fromTriplets(3, 2, {})});
  cases.push_back({"entries_times_no_entries", test::fromTriplets(3, 3, {{0, 0, 1.0}, {1, 2, 2.0}, {2, 1, 3.0}}),
                   test::fromTriplets(3, 2, {})});
  cases.push_back({"one_by_one", test::fromTriplets(1, 1, {{0, 0, 2.5}}), test::fromTriplets(1, 1, {{0, 0, -0.75}})});
  cases.push_back(denseRows());
  cases.push_back(cancellingProduct());
  cases.push_back(nearTies());
  cases.push_back({"spread_magnitudes", spreadMagnitudes(200, 300, 30, 3), spreadMagnitudes(300, 250, 30, 4)});
  cases.push_back(randomSquare());
  {
    const io::HostMatrix p = powerLaw(3000, 47);
    cases.push_back({"power_law", p, p});
  }
  return cases;
}

/// Real matrices of ../shared/matrices: A*A when square, A*A^T otherwise. Small and medium ones,
/// so that the host references stay short; bcsstk13 (4.5 million products, rows of up to 7,311)
/// is the largest.
const std::vector<ProductCase>& realProducts() {
  static const std::vector<ProductCase> cases = [] {
    const std::vector<std::string> names = {"USAir97", "Erdos971", "nos5",     "orsirr_2",  "rajat19",
                                            "gre_1107", "sherman3", "bcsstk13", "Franz6_id1959_aug"};
    std::vector<ProductCase> out;
    for (const auto& name : names) {
      const auto& all = test::realMatrices();
      const auto it = std::find_if(all.begin(), all.end(), [&](const test::NamedMatrix& m) { return m.name == name; });
      if (it == all.end()) throw std::runtime_error("real matrix " + name + " is missing from " + test::matricesDir().string());
      const io::HostMatrix& m = it->matrix;
      out.push_back(m.numRows == m.numCols ? ProductCase{name + "^2", m, m} : timesTranspose(name + "*" + name + "^T", m));
    }
    return out;
  }();
  return cases;
}

// ---------------------------------------------------------------------------------------------
// The MPFR reference

/// C = A*B on the host, Gustavson's way (row i of C gathered in a std::map from the rows of B
/// that row i of A selects), each entry's products kept and summed exactly with MPFR at a
/// precision spanning them all (as in test::mpfrSpmv), then rounded once: independent of the
/// library's accumulators. IEEE signs of zero: the sum starts at -0.0, so an entry whose
/// products are all -0.0 is -0.0 and any other exact zero +0.0.
template <class Value>
struct MpfrProduct {
  std::int64_t rows = 0, cols = 0;
  std::vector<std::int64_t> rowPtr, colIdx;
  std::vector<Value> accurate;         ///< correctly rounded
  std::vector<Value> ordered;          ///< rounded sums in A's order (k ascending), for the dot reference
  std::vector<long double> exact;      ///< the exact sum, rounded to long double
  std::vector<long double> magnitude;  ///< sum of |a_ik b_kj|
  std::vector<std::int64_t> terms;     ///< products of each entry
  std::int64_t products = 0, maxRowProducts = 0;

  std::int64_t nnz() const { return static_cast<std::int64_t>(colIdx.size()); }
  std::int64_t rowOf(std::int64_t e) const {
    return static_cast<std::int64_t>(std::upper_bound(rowPtr.begin(), rowPtr.end(), e) - rowPtr.begin()) - 1;
  }
};

template <class Value>
MpfrProduct<Value> mpfrSpgemm(const io::HostMatrix& A, const io::HostMatrix& B) {
  const auto rowOffsets = [](const io::HostMatrix& m) {  // entries are sorted by row
    std::vector<std::int64_t> ptr(m.numRows + 1, 0);
    for (std::int64_t k = 0; k < m.nnz(); ++k) ++ptr[m.row[k] + 1];
    for (std::int64_t i = 0; i < m.numRows; ++i) ptr[i + 1] += ptr[i];
    return ptr;
  };
  const std::vector<std::int64_t> aPtr = rowOffsets(A), bPtr = rowOffsets(B);
  MpfrProduct<Value> out;
  out.rows = A.numRows;
  out.cols = B.numCols;
  out.rowPtr.assign(A.numRows + 1, 0);
  constexpr mpfr_prec_t kProductBits = 2 * 53;  // a product of two doubles (or floats) is exact
  constexpr mpfr_prec_t kCarryBits = 64;
  std::vector<std::unique_ptr<test::MpfrNumber>> pool;  // reused from entry to entry
  test::MpfrNumber sum(kProductBits);
  std::map<std::int64_t, std::vector<std::pair<Value, Value>>> row;
  for (std::int64_t i = 0; i < A.numRows; ++i) {
    row.clear();
    std::int64_t rowProducts = 0;
    for (std::int64_t p = aPtr[i]; p < aPtr[i + 1]; ++p) {
      const std::int64_t k = A.col[p];
      const Value a = static_cast<Value>(A.value[p]);
      for (std::int64_t q = bPtr[k]; q < bPtr[k + 1]; ++q) row[B.col[q]].emplace_back(a, static_cast<Value>(B.value[q]));
      rowProducts += bPtr[k + 1] - bPtr[k];
    }
    out.products += rowProducts;
    out.maxRowProducts = std::max(out.maxRowProducts, rowProducts);
    for (const auto& [j, terms] : row) {
      while (pool.size() < terms.size()) pool.push_back(std::make_unique<test::MpfrNumber>(kProductBits));
      mpfr_exp_t top = 0, low = 0;
      bool any = false;
      long double magnitude = 0;
      Value ordered = -Value(0);
      for (std::size_t t = 0; t < terms.size(); ++t) {
        mpfr_ptr p = pool[t]->get();
        mpfr_set_d(p, static_cast<double>(terms[t].first), MPFR_RNDN);
        mpfr_mul_d(p, p, static_cast<double>(terms[t].second), MPFR_RNDN);  // exact
        test::widenSpan(p, top, low, any);
        magnitude += std::fabs(static_cast<long double>(terms[t].first) * static_cast<long double>(terms[t].second));
        const Value product = terms[t].first * terms[t].second;  // contraction is off in the tests
        ordered = ordered + product;
      }
      mpfr_set_prec(sum.get(), any ? static_cast<mpfr_prec_t>(top - low) + kCarryBits : kProductBits);
      mpfr_set_zero(sum.get(), -1);
      for (std::size_t t = 0; t < terms.size(); ++t) mpfr_add(sum.get(), sum.get(), pool[t]->get(), MPFR_RNDN);  // exact
      out.colIdx.push_back(j);
      out.accurate.push_back(test::roundTo<Value>(sum.get()));
      out.exact.push_back(mpfr_get_ld(sum.get(), MPFR_RNDN));
      out.magnitude.push_back(magnitude);
      out.terms.push_back(static_cast<std::int64_t>(terms.size()));
      out.ordered.push_back(ordered);
    }
    out.rowPtr[i + 1] = out.nnz();
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Comparing bits, with messages that name the entry

template <class Value>
std::string describe(Value v) {
  std::ostringstream out;
  out.precision(std::numeric_limits<Value>::max_digits10);
  out << v << " (" << std::hexfloat << v << ")";
  return out.str();
}

template <class Value>
bool sameBits(Value a, Value b) {
  return std::memcmp(&a, &b, sizeof(Value)) == 0;
}

template <class Value>
struct References {
  MpfrProduct<Value> mpfr;
  std::vector<Value> deterministic;  ///< referenceSpgemmDot, Mode::Deterministic
  std::vector<Value> accurateDot;    ///< referenceSpgemmDot, Mode::Accurate (empty past kDotAccurateMaxEntries)
};

/// The entries' values of a dot-reference result, after checking its pattern against MPFR's.
template <class Value>
std::vector<Value> dotValues(const std::string& label, const io::HostMatrix& dot, const MpfrProduct<Value>& mpfr) {
  BOOST_TEST_REQUIRE(dot.nnz() == mpfr.nnz(), label << ": the dot reference has " << dot.nnz()
                                                     << " entries, the MPFR reference " << mpfr.nnz());
  std::vector<Value> values;
  for (std::int64_t e = 0; e < dot.nnz(); ++e) {
    if (dot.col[e] != mpfr.colIdx[e] || dot.row[e] != mpfr.rowOf(e)) {
      BOOST_TEST_REQUIRE(false, label << ": entry " << e << " is (" << dot.row[e] << ", " << dot.col[e]
                                      << ") in the dot reference, (" << mpfr.rowOf(e) << ", " << mpfr.colIdx[e]
                                      << ") in the MPFR reference");
    }
    values.push_back(static_cast<Value>(dot.value[e]));
  }
  return values;
}

template <class Value>
void checkSameBits(const std::string& label, const std::vector<Value>& got, const std::vector<Value>& want,
                   const MpfrProduct<Value>& pattern) {
  std::int64_t differ = 0, first = -1;
  for (std::size_t e = 0; e < got.size() && e < want.size(); ++e) {
    if (!sameBits(got[e], want[e]) && differ++ == 0) first = static_cast<std::int64_t>(e);
  }
  if (differ == 0) return;
  BOOST_ERROR(label << ": " << differ << " of " << want.size() << " entries differ; first, entry " << first << " at ("
                    << pattern.rowOf(first) << ", " << pattern.colIdx[first] << "): got " << describe(got[first])
                    << ", want " << describe(want[first]) << " (" << pattern.terms[first] << " products)");
}

/// The references of a case in Value, computed once per process and checked against each other:
/// the same pattern, the dot reference's deterministic sums equal to the rounded sums of the
/// Gustavson pass in the same order, its accurate sums equal to MPFR's.
template <class Value>
const References<Value>& referencesFor(const ProductCase& c) {
  static std::map<std::string, std::unique_ptr<References<Value>>> cache;
  auto& slot = cache[c.name];
  if (slot) return *slot;
  Kokkos::Timer timer;
  auto refs = std::make_unique<References<Value>>();
  const std::string label = c.name + " " + typeName<Value>() + " references";
  refs->mpfr = mpfrSpgemm<Value>(c.A, c.B);
  refs->deterministic = dotValues(label, referenceSpgemmDot<Value>(c.A, c.B, Mode::Deterministic), refs->mpfr);
  checkSameBits(label + ": dot reference vs rounded Gustavson sums", refs->deterministic, refs->mpfr.ordered, refs->mpfr);
  if (refs->mpfr.nnz() <= kDotAccurateMaxEntries) {
    refs->accurateDot = dotValues(label, referenceSpgemmDot<Value>(c.A, c.B, Mode::Accurate), refs->mpfr);
    checkSameBits(label + ": dot reference (accurate) vs MPFR", refs->accurateDot, refs->mpfr.accurate, refs->mpfr);
  }
  BOOST_TEST_MESSAGE(label << ": " << refs->mpfr.nnz() << " entries, " << refs->mpfr.products << " products, "
                           << timer.seconds() << " s");
  slot = std::move(refs);
  return *slot;
}

// ---------------------------------------------------------------------------------------------
// The products on the device

template <class Cfg>
using CsrOf = CsrMatrix<typename Cfg::value_type, typename Cfg::ordinal_type, typename Cfg::size_type,
                        typename Cfg::device_type>;
template <class Cfg>
using HandleOf = SpgemmHandle<typename Cfg::value_type, typename Cfg::ordinal_type, typename Cfg::size_type,
                              typename Cfg::device_type>;

template <class Cfg>
std::string configName() {
  return std::string(Cfg::execution_space::name()) + "/" + typeName<typename Cfg::value_type>() + "/" +
         typeName<typename Cfg::ordinal_type>() + "/" + typeName<typename Cfg::size_type>();
}

/// A case's A and B on the device.
template <class Cfg>
struct DeviceCase {
  CsrOf<Cfg> A, B;
  explicit DeviceCase(const ProductCase& c) : A(csrFromHost<CsrOf<Cfg>>(c.A)) {
    typename Cfg::execution_space exec;
    B = c.bIsTransposeOfA ? transposeCsr(exec, A) : csrFromHost<CsrOf<Cfg>>(c.B);
    exec.fence();
  }
};

template <class Value>
struct HostCsr {
  std::int64_t rows = 0, cols = 0;
  std::vector<std::int64_t> rowPtr, colIdx;
  std::vector<Value> values;
};

template <class Csr>
HostCsr<typename Csr::value_type> toHost(const Csr& c) {
  HostCsr<typename Csr::value_type> h;
  h.rows = c.numRows;
  h.cols = c.numCols;
  const auto rowPtr = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), c.rowPtr);
  const auto colIdx = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), c.colIdx);
  const auto values = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), c.values);
  for (std::size_t i = 0; i < rowPtr.extent(0); ++i) h.rowPtr.push_back(rowPtr(i));
  for (std::size_t e = 0; e < colIdx.extent(0); ++e) h.colIdx.push_back(colIdx(e));
  h.values.assign(values.data(), values.data() + values.extent(0));
  return h;
}

/// C's shape, row offsets and columns equal to the reference's; false (after one error naming the
/// first difference) otherwise.
template <class Value>
bool checkPattern(const std::string& label, const HostCsr<Value>& got, const MpfrProduct<Value>& want) {
  if (got.rows != want.rows || got.cols != want.cols) {
    BOOST_ERROR(label << ": C is " << got.rows << " x " << got.cols << ", expected " << want.rows << " x " << want.cols);
    return false;
  }
  if (got.rowPtr.size() != want.rowPtr.size()) {
    BOOST_ERROR(label << ": C has " << got.rowPtr.size() << " row offsets, expected " << want.rowPtr.size());
    return false;
  }
  for (std::size_t i = 0; i < want.rowPtr.size(); ++i) {
    if (got.rowPtr[i] != want.rowPtr[i]) {
      BOOST_ERROR(label << ": row offsets differ first at " << i << ": got " << got.rowPtr[i] << ", expected "
                        << want.rowPtr[i] << " (nnz got " << got.rowPtr.back() << ", expected " << want.nnz() << ")");
      return false;
    }
  }
  if (static_cast<std::int64_t>(got.colIdx.size()) != want.nnz() || static_cast<std::int64_t>(got.values.size()) != want.nnz()) {
    BOOST_ERROR(label << ": C holds " << got.colIdx.size() << " columns and " << got.values.size()
                      << " values, expected " << want.nnz());
    return false;
  }
  for (std::int64_t e = 0; e < want.nnz(); ++e) {
    if (got.colIdx[e] != want.colIdx[e]) {
      BOOST_ERROR(label << ": entry " << e << " of row " << want.rowOf(e) << " has column " << got.colIdx[e]
                        << ", expected " << want.colIdx[e]);
      return false;
    }
  }
  return true;
}

/// Fast mode: every entry within the rounding-error bound of n products summed in any order
/// (spmvErrorBound, as for SpMV) around the exact value.
template <class Value>
void checkErrorBound(const std::string& label, const HostCsr<Value>& got, const MpfrProduct<Value>& want) {
  std::int64_t failures = 0;
  for (std::int64_t e = 0; e < want.nnz(); ++e) {
    const long double err = std::fabs(static_cast<long double>(got.values[e]) - want.exact[e]);
    const long double bound = spmvErrorBound<Value>(want.terms[e], want.magnitude[e]);
    if (!(err <= bound) && failures++ == 0) {
      BOOST_ERROR(label << ": entry " << e << " at (" << want.rowOf(e) << ", " << want.colIdx[e] << ") is "
                        << describe(got.values[e]) << ", exact " << static_cast<double>(want.exact[e]) << ", error "
                        << static_cast<double>(err) << " > bound " << static_cast<double>(bound) << " ("
                        << want.terms[e] << " products)");
    }
  }
  BOOST_TEST(failures == 0, label << ": " << failures << " entries outside the error bound");
}

/// C against the references for its mode.
template <class Value>
void checkResult(const std::string& label, const HostCsr<Value>& got, const References<Value>& refs, Mode mode) {
  if (!checkPattern(label, got, refs.mpfr)) return;
  switch (mode) {
    case Mode::Deterministic:
      checkSameBits(label + " vs referenceSpgemmDot", got.values, refs.deterministic, refs.mpfr);
      break;
    case Mode::Accurate:
      checkSameBits(label + " vs MPFR", got.values, refs.mpfr.accurate, refs.mpfr);
      if (!refs.accurateDot.empty())
        checkSameBits(label + " vs referenceSpgemmDot", got.values, refs.accurateDot, refs.mpfr);
      break;
    case Mode::Fast:
      checkErrorBound(label, got, refs.mpfr);
      break;
  }
}

template <class Value>
void checkStats(const std::string& label, const SpgemmStats& s, const MpfrProduct<Value>& want) {
  BOOST_TEST(s.rows == want.rows, label << ": stats().rows");
  BOOST_TEST(s.cols == want.cols, label << ": stats().cols");
  BOOST_TEST(s.nnz == want.nnz(), label << ": stats().nnz");
  BOOST_TEST(s.products == want.products, label << ": stats().products");
  BOOST_TEST(s.maxRowProducts == want.maxRowProducts, label << ": stats().maxRowProducts");
}

/// NaN in every value of C, so that the numeric phase must write each one.
template <class Csr>
void poison(const Csr& c) {
  Kokkos::deep_copy(c.values, std::numeric_limits<typename Csr::value_type>::quiet_NaN());
}

const Mode kModes[] = {Mode::Deterministic, Mode::Accurate, Mode::Fast};

/// The product of a case in every mode on Cfg's space, against the references.
template <class Cfg>
void checkCase(const ProductCase& c) {
  using Value = typename Cfg::value_type;
  using Exec = typename Cfg::execution_space;
  const References<Value>& refs = referencesFor<Value>(c);
  const DeviceCase<Cfg> d(c);
  for (const Mode mode : kModes) {
    const std::string label = c.name + " " + configName<Cfg>() + " " + toString(mode);
    SpgemmOptions options;
    options.mode = mode;
    HandleOf<Cfg> product(Exec(), d.A, d.B, options);
    checkStats(label, product.stats(), refs.mpfr);
    poison(product.result());
    product.numeric(Exec(), d.A, d.B);
    Exec().fence();
    checkResult(label, toHost(product.result()), refs, mode);
    if (mode == Mode::Accurate && c.needsExactPass) {
      BOOST_TEST(product.stats().accurateRowsRecomputed > 0,
                 label << ": no entry reached the exact accumulator, so its path goes untested");
    }
  }
}

template <class Cfg>
using ValueOf = typename Cfg::value_type;

}  // namespace

/// A product small enough to work out by hand: a sum that cancels is stored as +0, a zero in A
/// gives stored zeros, and -0.0 times a positive number alone gives -0.0 (the sum of -0.0
/// products from -0.0) in the Deterministic and Accurate modes.
BOOST_AUTO_TEST_CASE_TEMPLATE(tiny_product_with_exact_answers, Cfg, test::AllConfigs) {
  using Value = ValueOf<Cfg>;
  using Exec = typename Cfg::execution_space;
  const io::HostMatrix a = test::fromTriplets(3, 3, {{0, 0, 1.0}, {0, 1, 1.0}, {1, 0, 0.0}, {2, 0, -0.0}, {2, 2, 2.0}});
  const io::HostMatrix b = test::fromTriplets(3, 2, {{0, 0, 2.0}, {0, 1, 3.0}, {1, 0, -2.0}, {2, 1, 0.5}});
  const std::vector<std::int64_t> rowPtr = {0, 2, 4, 6}, colIdx = {0, 1, 0, 1, 0, 1};
  const std::vector<Value> values = {Value(0), Value(3), Value(0), Value(0), -Value(0), Value(1)};
  const auto A = csrFromHost<CsrOf<Cfg>>(a);
  const auto B = csrFromHost<CsrOf<Cfg>>(b);
  for (const Mode mode : kModes) {
    const std::string label = std::string("tiny ") + configName<Cfg>() + " " + toString(mode);
    SpgemmOptions options;
    options.mode = mode;
    HandleOf<Cfg> product(Exec(), A, B, options);
    poison(product.result());
    product.numeric(Exec(), A, B);
    Exec().fence();
    const auto c = toHost(product.result());
    BOOST_TEST(c.rows == 3, label);
    BOOST_TEST(c.cols == 2, label);
    BOOST_TEST((c.rowPtr == rowPtr), label << ": row offsets");
    BOOST_TEST((c.colIdx == colIdx), label << ": columns");
    BOOST_TEST_REQUIRE(c.values.size() == values.size(), label);
    for (std::size_t e = 0; e < values.size(); ++e) {
      // Fast mode sums in any order, so the sign of a zero is free there.
      const bool ok = mode == Mode::Fast ? c.values[e] == values[e] : sameBits(c.values[e], values[e]);
      BOOST_TEST(ok, label << ": entry " << e << " is " << describe(c.values[e]) << ", expected " << describe(values[e]));
    }
  }
}

BOOST_AUTO_TEST_CASE_TEMPLATE(generated_products_match_the_references, Cfg, test::AllConfigs) {
  static const std::vector<ProductCase> cases = generatedProducts();
  Kokkos::Timer timer;
  for (const auto& c : cases) checkCase<Cfg>(c);
  BOOST_TEST_MESSAGE(configName<Cfg>() << ": generated products, " << timer.seconds() << " s");
}

/// The dense-row case really does hold a row past any on-chip table.
BOOST_AUTO_TEST_CASE(dense_rows_case_has_a_long_row) {
  const ProductCase c = denseRows();
  const MpfrProduct<double> p = mpfrSpgemm<double>(c.A, c.B);
  BOOST_TEST(p.maxRowProducts > kManyRowProducts);
  std::int64_t longestRow = 0;
  for (std::int64_t i = 0; i < p.rows; ++i) longestRow = std::max(longestRow, p.rowPtr[i + 1] - p.rowPtr[i]);
  BOOST_TEST(longestRow == 3000);
}

BOOST_AUTO_TEST_CASE_TEMPLATE(real_products_match_the_references, Cfg, test::AllConfigs) {
  Kokkos::Timer timer;
  for (const auto& c : realProducts()) checkCase<Cfg>(c);
  BOOST_TEST_MESSAGE(configName<Cfg>() << ": real products, " << timer.seconds() << " s");
}

/// numeric() again on new values of A and B (same patterns, the same Views updated in place):
/// the bits of a new handle's product on the new values, and the references for them.
BOOST_AUTO_TEST_CASE_TEMPLATE(numeric_phase_reuses_the_pattern, Cfg, test::AllConfigs) {
  using Value = ValueOf<Cfg>;
  using Exec = typename Cfg::execution_space;
  const ProductCase first = {"reuse_first", test::randomMatrix(400, 300, 0, 25, 61), test::randomMatrix(300, 350, 0, 25, 62)};
  ProductCase second = {"reuse_second", first.A, first.B};
  std::mt19937_64 rng(63);
  std::uniform_int_distribution<int> exponent(-20, 20);
  std::uniform_real_distribution<double> mantissa(-2.0, 2.0);
  for (auto& v : second.A.value) v = std::ldexp(mantissa(rng), exponent(rng));
  for (auto& v : second.B.value) v = std::ldexp(mantissa(rng), exponent(rng));
  const DeviceCase<Cfg> d(first), original(first), fresh(second);
  for (const Mode mode : kModes) {
    const std::string label = std::string("reuse ") + configName<Cfg>() + " " + toString(mode);
    SpgemmOptions options;
    options.mode = mode;
    HandleOf<Cfg> product(Exec(), d.A, d.B, options);
    product.numeric(Exec(), d.A, d.B);
    Exec().fence();
    checkResult(label + " first values", toHost(product.result()), referencesFor<Value>(first), mode);
    // The new values into the same Views.
    Kokkos::deep_copy(d.A.values, fresh.A.values);
    Kokkos::deep_copy(d.B.values, fresh.B.values);
    poison(product.result());
    product.numeric(Exec(), d.A, d.B);
    Exec().fence();
    const auto again = toHost(product.result());
    checkResult(label + " new values", again, referencesFor<Value>(second), mode);
    if (mode != Mode::Fast) {
      HandleOf<Cfg> other(Exec(), fresh.A, fresh.B, options);
      other.numeric(Exec(), fresh.A, fresh.B);
      Exec().fence();
      BOOST_TEST(hashCsr(product.result()) == hashCsr(other.result()), label << ": numeric() on new values differs from a new handle's product");
    }
    // The first values again, for the next mode.
    Kokkos::deep_copy(d.A.values, original.A.values);
    Kokkos::deep_copy(d.B.values, original.B.values);
  }
}

namespace {

/// The bytes the library holds at once in one memory space, measured through Kokkos' allocation
/// callbacks while the tracker lives: every allocation labelled "araios::..." (C's arrays and
/// the workspace, not Kokkos' own team scratch) from the tracker's construction on, less those
/// of them freed since. Independent of the product's own accounting (stats().peakBytes).
class AllocationTracker {
 public:
  explicit AllocationTracker(std::string space) : space_(std::move(space)) {
    current() = this;
    Kokkos::Tools::Experimental::set_allocate_data_callback(&onAllocate);
    Kokkos::Tools::Experimental::set_deallocate_data_callback(&onDeallocate);
  }
  ~AllocationTracker() {
    Kokkos::Tools::Experimental::set_allocate_data_callback(nullptr);
    Kokkos::Tools::Experimental::set_deallocate_data_callback(nullptr);
    current() = nullptr;
  }
  AllocationTracker(const AllocationTracker&) = delete;
  AllocationTracker& operator=(const AllocationTracker&) = delete;

  std::int64_t peakBytes() const { return peak_; }
  /// What Kokkos may add to the bytes asked for: each View's allocation is rounded up to a
  /// multiple of 8 bytes, so up to 7 bytes per allocation live at the peak.
  std::int64_t roundingAtPeak() const { return 7 * liveAtPeak_; }
  /// The allocations live at the peak, for the message.
  std::string atPeak() const { return atPeak_; }

 private:
  static AllocationTracker*& current() {
    static AllocationTracker* tracker = nullptr;
    return tracker;
  }
  static void onAllocate(const Kokkos::Tools::SpaceHandle handle, const char* label, const void* ptr, const std::uint64_t size) {
    AllocationTracker* t = current();
    if (!t || t->space_ != handle.name || std::strncmp(label, "araios::", 8) != 0) return;
    t->live_[ptr] = {label, static_cast<std::int64_t>(size)};
    t->bytes_ += static_cast<std::int64_t>(size);
    if (t->bytes_ > t->peak_) {
      t->peak_ = t->bytes_;
      t->liveAtPeak_ = static_cast<std::int64_t>(t->live_.size());
      std::ostringstream out;
      for (const auto& [p, entry] : t->live_) out << (p == t->live_.begin()->first ? "" : ", ") << entry.first << " " << entry.second;
      t->atPeak_ = out.str();
    }
  }
  static void onDeallocate(const Kokkos::Tools::SpaceHandle, const char*, const void* ptr, const std::uint64_t) {
    AllocationTracker* t = current();
    if (!t) return;
    const auto it = t->live_.find(ptr);
    if (it == t->live_.end()) return;
    t->bytes_ -= it->second.second;
    t->live_.erase(it);
  }

  std::string space_;
  std::map<const void*, std::pair<std::string, std::int64_t>> live_;
  std::int64_t bytes_ = 0, peak_ = 0, liveAtPeak_ = 0;
  std::string atPeak_;
};

}  // namespace

/// A memory limit a little above C's own bytes (C plus half the workspace of one pass): the
/// workspace no longer fits beside C, so the rows are processed in chunks, with the bits of one
/// pass, and the bytes the library allocates at once (measured) stay within the limit and within
/// stats().peakBytes. In Deterministic mode both phases must split; in Accurate mode the numeric
/// phase (its workspace is mostly one expansion per entry of C). A limit below C's bytes is
/// refused before anything is allocated, with the bytes needed in the message.
BOOST_AUTO_TEST_CASE_TEMPLATE(memory_limit_splits_the_rows_into_chunks, Cfg, test::AllConfigs) {
  using Value = ValueOf<Cfg>;
  using Exec = typename Cfg::execution_space;
  using Ordinal = typename Cfg::ordinal_type;
  using Offset = typename Cfg::size_type;
  const std::string space = Cfg::device_type::memory_space::name();
  std::vector<ProductCase> cases = {randomSquare(), denseRows()};
  for (const auto& c : cases) {
    const References<Value>& refs = referencesFor<Value>(c);
    const DeviceCase<Cfg> d(c);
    const std::int64_t cBytes = (refs.mpfr.rows + 1) * std::int64_t(sizeof(Offset)) +
                                refs.mpfr.nnz() * std::int64_t(sizeof(Ordinal) + sizeof(Value));
    for (const Mode mode : {Mode::Deterministic, Mode::Accurate}) {
      const std::string label = c.name + " " + configName<Cfg>() + " " + toString(mode);
      SpgemmOptions options;
      options.mode = mode;
      std::string want;
      SpgemmStats whole;
      {
        AllocationTracker tracker(space);
        HandleOf<Cfg> onePass(Exec(), d.A, d.B, options);
        onePass.numeric(Exec(), d.A, d.B);
        Exec().fence();
        whole = onePass.stats();
        want = hashCsr(onePass.result());
        BOOST_TEST(whole.chunks == 1, label << ": no limit, yet " << whole.chunks << " chunks");
        BOOST_TEST(whole.peakBytes >= cBytes, label << ": peakBytes " << whole.peakBytes << " below C's " << cBytes);
        BOOST_TEST(tracker.peakBytes() <= whole.peakBytes + tracker.roundingAtPeak(),
                   label << ": one pass allocated " << tracker.peakBytes() << " bytes at once (" << tracker.atPeak()
                         << "), stats().peakBytes says " << whole.peakBytes);
      }

      std::vector<SpgemmProgress> calls;
      options.memoryLimitBytes = cBytes + std::max<std::int64_t>(whole.workspaceBytes / 2, 1);
      options.progress = [&calls](const SpgemmProgress& p) { calls.push_back(p); };
      AllocationTracker tracker(space);
      HandleOf<Cfg> chunked(Exec(), d.A, d.B, options);
      const int symbolicChunks = chunked.stats().chunks;
      poison(chunked.result());
      calls.clear();
      chunked.numeric(Exec(), d.A, d.B);
      Exec().fence();
      const SpgemmStats& s = chunked.stats();
      BOOST_TEST_MESSAGE(label << ": C " << cBytes << " bytes, workspace " << whole.workspaceBytes << " bytes in one pass; limit "
                               << options.memoryLimitBytes << ": " << symbolicChunks << " symbolic chunks, " << s.chunks
                               << " numeric chunks, peakBytes " << s.peakBytes << ", measured " << tracker.peakBytes());
      if (mode == Mode::Deterministic) {
        BOOST_TEST(symbolicChunks > 1, label << ": the symbolic phase ran in " << symbolicChunks << " chunk(s) under limit "
                                             << options.memoryLimitBytes);
      }
      BOOST_TEST(s.chunks > 1, label << ": the numeric phase ran in " << s.chunks << " chunk(s) under limit "
                                     << options.memoryLimitBytes);
      BOOST_TEST(s.peakBytes <= options.memoryLimitBytes,
                 label << ": stats().peakBytes " << s.peakBytes << " past the limit " << options.memoryLimitBytes);
      BOOST_TEST(tracker.peakBytes() <= options.memoryLimitBytes + tracker.roundingAtPeak(),
                 label << ": allocated " << tracker.peakBytes() << " bytes at once (" << tracker.atPeak() << "), past the limit "
                       << options.memoryLimitBytes);
      BOOST_TEST(tracker.peakBytes() <= s.peakBytes + tracker.roundingAtPeak(), label << ": allocated " << tracker.peakBytes() << " bytes at once ("
                                                           << tracker.atPeak() << "), stats().peakBytes says " << s.peakBytes);
      BOOST_TEST(hashCsr(chunked.result()) == want, label << ": chunked product differs from one pass");
      checkResult(label + " chunked", toHost(chunked.result()), refs, mode);
      BOOST_TEST(!calls.empty(), label << ": no progress reported");
      if (!calls.empty()) {
        BOOST_TEST(std::string(calls.back().phase) == "numeric", label);
        BOOST_TEST(calls.back().chunks == s.chunks, label << ": progress reported " << calls.back().chunks << " chunks");
        BOOST_TEST(calls.back().chunk == s.chunks - 1, label);
        BOOST_TEST(calls.back().rowsDone == refs.mpfr.rows, label << ": progress ended at row " << calls.back().rowsDone);
        BOOST_TEST(calls.back().rows == refs.mpfr.rows, label);
      }

      options.progress = nullptr;
      options.memoryLimitBytes = cBytes - 1;
      try {
        HandleOf<Cfg> refused(Exec(), d.A, d.B, options);
        refused.numeric(Exec(), d.A, d.B);
        BOOST_ERROR(label << ": a limit of " << options.memoryLimitBytes << " bytes, below C's " << cBytes
                          << ", was not refused");
      } catch (const OutOfMemoryError& e) {
        const std::string message = e.what();
        BOOST_TEST(e.bytesNeeded() >= cBytes, label << ": bytesNeeded() " << e.bytesNeeded() << " below C's " << cBytes);
        BOOST_TEST((message.find(groupedDigits(e.bytesNeeded())) != std::string::npos ||
                    message.find(std::to_string(e.bytesNeeded())) != std::string::npos),
                   label << ": the message does not name the " << e.bytesNeeded() << " bytes needed: " << message);
      }
    }
  }
}

namespace {

/// A CSR on Cfg's device from row offsets and columns (values 1), unchecked: for bad inputs.
template <class Cfg>
CsrOf<Cfg> rawCsr(std::int64_t rows, std::int64_t cols, const std::vector<std::int64_t>& rowPtr,
                  const std::vector<std::int64_t>& colIdx) {
  CsrOf<Cfg> m;
  m.numRows = static_cast<typename Cfg::ordinal_type>(rows);
  m.numCols = static_cast<typename Cfg::ordinal_type>(cols);
  m.rowPtr = decltype(m.rowPtr)("rowPtr", rowPtr.size());
  m.colIdx = decltype(m.colIdx)("colIdx", colIdx.size());
  m.values = decltype(m.values)("values", colIdx.size());
  auto p = Kokkos::create_mirror_view(m.rowPtr);
  auto c = Kokkos::create_mirror_view(m.colIdx);
  for (std::size_t i = 0; i < rowPtr.size(); ++i) p(i) = static_cast<typename Cfg::size_type>(rowPtr[i]);
  for (std::size_t e = 0; e < colIdx.size(); ++e) c(e) = static_cast<typename Cfg::ordinal_type>(colIdx[e]);
  Kokkos::deep_copy(m.rowPtr, p);
  Kokkos::deep_copy(m.colIdx, c);
  Kokkos::deep_copy(m.values, typename Cfg::value_type(1));
  return m;
}

/// Runs f, which must throw E with a message holding every one of `parts`.
template <class E, class F>
void checkThrows(const std::string& label, const F& f, const std::vector<std::string>& parts) {
  try {
    f();
    BOOST_ERROR(label << ": nothing thrown");
  } catch (const E& e) {
    const std::string message = e.what();
    for (const auto& part : parts)
      BOOST_TEST(message.find(part) != std::string::npos, label << ": the message lacks \"" << part << "\": " << message);
  } catch (const std::exception& e) {
    BOOST_ERROR(label << ": the wrong exception type: " << e.what());
  }
}

}  // namespace

BOOST_AUTO_TEST_CASE_TEMPLATE(bad_inputs_are_refused, Cfg, test::AllConfigs) {
  using Exec = typename Cfg::execution_space;
  const std::string config = configName<Cfg>();
  const auto a = rawCsr<Cfg>(3, 4, {0, 2, 3, 4}, {0, 3, 1, 2});
  const auto b52 = rawCsr<Cfg>(5, 2, {0, 1, 1, 2, 2, 2}, {0, 1});
  checkThrows<InputError>(config + " shape mismatch", [&] { HandleOf<Cfg> p(Exec(), a, b52); }, {"3 x 4", "5 x 2"});
  checkThrows<InputError>(config + " shape mismatch (spgemm)", [&] { spgemm(Exec(), a, b52); }, {"3 x 4", "5 x 2"});
  // Row 2 of B holds its columns out of order, then the same column twice.
  const auto unsorted = rawCsr<Cfg>(4, 5, {0, 2, 3, 5, 6}, {0, 2, 1, 3, 1, 4});
  checkThrows<InputError>(config + " unsorted columns of B", [&] { HandleOf<Cfg> p(Exec(), a, unsorted); }, {"row 2"});
  const auto repeated = rawCsr<Cfg>(4, 5, {0, 2, 3, 5, 6}, {0, 2, 1, 3, 3, 4});
  checkThrows<InputError>(config + " repeated column in B", [&] { HandleOf<Cfg> p(Exec(), a, repeated); }, {"row 2"});
  // numeric() on matrices of other sizes than the handle's.
  const auto b = rawCsr<Cfg>(4, 5, {0, 2, 3, 5, 6}, {0, 2, 1, 1, 3, 4});
  const auto bigger = rawCsr<Cfg>(4, 5, {0, 2, 3, 5, 7}, {0, 2, 1, 1, 3, 0, 4});
  HandleOf<Cfg> product(Exec(), a, b);
  checkThrows<InputError>(config + " numeric() on another B", [&] { product.numeric(Exec(), a, bigger); }, {});
}

/// araios::spgemm in one call: the handle's product, and its statistics.
BOOST_AUTO_TEST_CASE_TEMPLATE(one_call_equals_the_handle, Cfg, test::AllConfigs) {
  using Value = ValueOf<Cfg>;
  using Exec = typename Cfg::execution_space;
  const ProductCase c = {"one_call", test::randomMatrix(250, 180, 0, 12, 71), test::randomMatrix(180, 220, 0, 12, 72)};
  const References<Value>& refs = referencesFor<Value>(c);
  const DeviceCase<Cfg> d(c);
  for (const Mode mode : {Mode::Deterministic, Mode::Accurate}) {
    const std::string label = c.name + " " + configName<Cfg>() + " " + toString(mode);
    SpgemmOptions options;
    options.mode = mode;
    SpgemmStats stats;
    const auto C = spgemm(Exec(), d.A, d.B, options, &stats);
    Exec().fence();
    checkStats(label, stats, refs.mpfr);
    checkResult(label, toHost(C), refs, mode);
  }
}

/// The Deterministic and Accurate bits of one fixed product, hashed (araios::hashCsr), equal on
/// every enabled execution space and for both index widths, and equal to the host references'.
/// The hashes are printed so that runs at other thread counts or on other machines can be
/// compared with this one.
BOOST_AUTO_TEST_CASE(same_bits_on_every_execution_space) {
  const ProductCase c = randomSquare();
  const auto referenceHash = [](const std::vector<double>& values, const MpfrProduct<double>& p) {
    CsrMatrix<double, std::int64_t, std::int64_t, Kokkos::HostSpace::device_type> h;
    h.numRows = p.rows;
    h.numCols = p.cols;
    h.rowPtr = decltype(h.rowPtr)("rowPtr", p.rowPtr.size());
    h.colIdx = decltype(h.colIdx)("colIdx", p.colIdx.size());
    h.values = decltype(h.values)("values", values.size());
    for (std::size_t i = 0; i < p.rowPtr.size(); ++i) h.rowPtr(i) = p.rowPtr[i];
    for (std::size_t e = 0; e < p.colIdx.size(); ++e) {
      h.colIdx(e) = p.colIdx[e];
      h.values(e) = values[e];
    }
    return hashCsr(h);
  };
  const References<double>& refs = referencesFor<double>(c);
  const std::map<Mode, std::string> want = {{Mode::Deterministic, referenceHash(refs.deterministic, refs.mpfr)},
                                            {Mode::Accurate, referenceHash(refs.mpfr.accurate, refs.mpfr)}};
  std::apply(
      [&](auto... spaces) {
        const auto run = [&](auto space) {
          using Exec = decltype(space);
          for (const Mode mode : {Mode::Deterministic, Mode::Accurate}) {
            const auto hashOn = [&](auto config) {
              using Cfg = decltype(config);
              const DeviceCase<Cfg> d(c);
              SpgemmOptions options;
              options.mode = mode;
              const auto C = spgemm(Exec(), d.A, d.B, options);
              Exec().fence();
              return hashCsr(C);
            };
            const std::string narrow = hashOn(test::Config<Exec, double>{});
            const std::string wide = hashOn(test::Config<Exec, double, std::int64_t, std::int64_t>{});
            BOOST_TEST_MESSAGE("spgemm " << c.name << " double " << toString(mode) << " on " << Exec::name() << " (concurrency "
                                         << Exec().concurrency() << "): " << narrow);
            BOOST_TEST(narrow == want.at(mode), c.name << " " << toString(mode) << " on " << Exec::name()
                                                       << ": hash " << narrow << ", the host reference's " << want.at(mode));
            BOOST_TEST(wide == narrow, c.name << " " << toString(mode) << " on " << Exec::name()
                                              << ": 64-bit indices give hash " << wide << ", 32-bit " << narrow);
          }
        };
        (run(spaces), ...);
      },
      test::EnabledSpaces{});
}
