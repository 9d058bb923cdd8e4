// COO -> CSR (from sorted and from shuffled input), CSR -> COO, CSR <-> CSC and the row
// statistics, each compared exactly against a plain host computation.
#define BOOST_TEST_MODULE conversions
#include <boost/test/unit_test.hpp>

#include "support/format_fixture.hpp"
#include "support/generated.hpp"
#include "support/kokkos_env.hpp"
#include "support/real_matrices.hpp"

#include <araios/araios.hpp>

#include <cmath>
#include <numeric>
#include <random>

using araios::test::KokkosFixture;
BOOST_TEST_GLOBAL_FIXTURE(KokkosFixture);

namespace {

using namespace araios;
using test::hostDoubles;
using test::hostInts;

/// Compressed form computed on the host: entries sorted by (major, minor, original position).
struct HostCompressed {
  std::vector<std::int64_t> ptr, minor;
  std::vector<double> values;
};

HostCompressed hostCompress(std::int64_t numMajor, const std::vector<std::int64_t>& major,
                            const std::vector<std::int64_t>& minor, const std::vector<double>& values) {
  std::vector<std::size_t> order(values.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return std::make_pair(major[a], minor[a]) < std::make_pair(major[b], minor[b]);
  });
  HostCompressed out;
  out.ptr.assign(numMajor + 1, 0);
  for (auto m : major) out.ptr[m + 1]++;
  for (std::int64_t i = 0; i < numMajor; ++i) out.ptr[i + 1] += out.ptr[i];
  for (auto k : order) {
    out.minor.push_back(minor[k]);
    out.values.push_back(values[k]);
  }
  return out;
}

template <class Value>
std::vector<double> rounded(const std::vector<double>& v) {
  std::vector<double> out(v.size());
  for (std::size_t i = 0; i < v.size(); ++i) out[i] = static_cast<double>(static_cast<Value>(v[i]));
  return out;
}

/// Same values bit for bit (NaN equal to NaN: a few real matrices store NaN).
bool sameBits(const std::vector<double>& a, const std::vector<double>& b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i)
    if (!(a[i] == b[i] || (std::isnan(a[i]) && std::isnan(b[i])))) return false;
  return true;
}

template <class Cfg>
void checkConversions(const std::string& name, const io::HostMatrix& host) {
  using T = test::FormatTypes<Cfg, CooMatrix>;
  using Exec = typename T::Exec;
  using Value = typename T::Value;
  using Coo = typename T::Matrix;
  using Csr = typename T::Csr;
  BOOST_TEST_CONTEXT(name) {
    Exec exec;
    const HostCompressed rows = hostCompress(host.numRows, host.row, host.col, host.value);
    const auto values = rounded<Value>(rows.values);

    const Csr csr = csrFromCoo(exec, cooFromHost<Coo>(host));
    BOOST_TEST(csr.numRows == host.numRows);
    BOOST_TEST(csr.numCols == host.numCols);
    BOOST_TEST(hostInts(csr.rowPtr) == rows.ptr, boost::test_tools::per_element());
    BOOST_TEST(hostInts(csr.colIdx) == rows.minor, boost::test_tools::per_element());
    BOOST_TEST(sameBits(hostDoubles(csr.values), values));

    // The same entries in a random order give the same CSR: the device sort does not rely on
    // the reader's order.
    io::HostMatrix shuffled = host;
    std::vector<std::size_t> order(host.value.size());
    std::iota(order.begin(), order.end(), 0);
    std::shuffle(order.begin(), order.end(), std::mt19937_64(99));
    for (std::size_t k = 0; k < order.size(); ++k) {
      shuffled.row[k] = host.row[order[k]];
      shuffled.col[k] = host.col[order[k]];
      shuffled.value[k] = host.value[order[k]];
    }
    const Csr fromShuffled = csrFromCoo(exec, cooFromHost<Coo>(shuffled));
    BOOST_TEST(hostInts(fromShuffled.rowPtr) == rows.ptr, boost::test_tools::per_element());
    BOOST_TEST(hostInts(fromShuffled.colIdx) == rows.minor, boost::test_tools::per_element());
    BOOST_TEST(sameBits(hostDoubles(fromShuffled.values), values));

    const Coo back = cooFromCsr(exec, csr);
    BOOST_TEST(hostInts(back.rowIdx) == host.row, boost::test_tools::per_element());
    BOOST_TEST(hostInts(back.colIdx) == host.col, boost::test_tools::per_element());

    const HostCompressed cols = hostCompress(host.numCols, host.col, host.row, host.value);
    const auto csc = cscFromCsr(exec, csr);
    BOOST_TEST(hostInts(csc.colPtr) == cols.ptr, boost::test_tools::per_element());
    BOOST_TEST(hostInts(csc.rowIdx) == cols.minor, boost::test_tools::per_element());
    BOOST_TEST(sameBits(hostDoubles(csc.values), rounded<Value>(cols.values)));

    const Csr roundTrip = csrFromCsc(exec, csc);
    BOOST_TEST(hostInts(roundTrip.rowPtr) == rows.ptr, boost::test_tools::per_element());
    BOOST_TEST(hostInts(roundTrip.colIdx) == rows.minor, boost::test_tools::per_element());
    BOOST_TEST(sameBits(hostDoubles(roundTrip.values), values));

    // Statistics against a plain host loop.
    const MatrixStats s = computeStats(exec, csr);
    std::int64_t lo = host.numRows ? std::numeric_limits<std::int64_t>::max() : 0, hi = 0, empty = 0, band = 0;
    long double sum = 0, sumSq = 0;
    for (std::int64_t i = 0; i < host.numRows; ++i) {
      const std::int64_t len = rows.ptr[i + 1] - rows.ptr[i];
      lo = std::min(lo, len);
      hi = std::max(hi, len);
      empty += len == 0;
      sum += len;
      for (std::int64_t k = rows.ptr[i]; k < rows.ptr[i + 1]; ++k) band = std::max(band, std::abs(rows.minor[k] - i));
    }
    const long double mean = host.numRows ? sum / host.numRows : 0;
    for (std::int64_t i = 0; i < host.numRows; ++i) {
      const long double d = (rows.ptr[i + 1] - rows.ptr[i]) - mean;
      sumSq += d * d;
    }
    BOOST_TEST(s.nnz == host.nnz());
    BOOST_TEST(s.minRowLength == lo);
    BOOST_TEST(s.maxRowLength == hi);
    BOOST_TEST(s.emptyRows == empty);
    BOOST_TEST(s.bandwidth == band);
    BOOST_TEST(s.meanRowLength == static_cast<double>(mean), boost::test_tools::tolerance(1e-12));
    const double stdRef = host.numRows ? static_cast<double>(std::sqrt(sumSq / host.numRows)) : 0.0;
    BOOST_TEST(s.stdRowLength == stdRef, boost::test_tools::tolerance(1e-9));
  }
}

}  // namespace

BOOST_AUTO_TEST_CASE_TEMPLATE(real_matrices, Cfg, test::AllConfigs) {
  for (const auto& m : test::realMatrices()) checkConversions<Cfg>(m.name, m.matrix);
}

BOOST_AUTO_TEST_CASE_TEMPLATE(generated_matrices, Cfg, test::AllConfigs) {
  for (const auto& c : test::generatedCases()) checkConversions<Cfg>(c.name, c.matrix);
}

BOOST_AUTO_TEST_CASE(duplicates_are_kept_in_input_order) {
  // The reader sums duplicates, but a user's own COO may hold them: CSR keeps each one.
  io::HostMatrix host;
  host.numRows = 2;
  host.numCols = 3;
  host.row = {1, 0, 1, 1};
  host.col = {2, 1, 0, 2};
  host.value = {5, 6, 7, 8};
  using Coo = CooMatrix<double>;
  Kokkos::DefaultExecutionSpace exec;
  const auto csr = csrFromCoo(exec, cooFromHost<Coo>(host));
  BOOST_TEST(hostInts(csr.rowPtr) == std::vector<std::int64_t>({0, 1, 4}), boost::test_tools::per_element());
  BOOST_TEST(hostInts(csr.colIdx) == std::vector<std::int64_t>({1, 0, 2, 2}), boost::test_tools::per_element());
  BOOST_TEST(hostDoubles(csr.values) == std::vector<double>({6, 7, 5, 8}), boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(narrowing_is_checked) {
  BOOST_TEST(checkedNarrow<std::int32_t>(std::int64_t{2147483647}, "n") == 2147483647);
  BOOST_CHECK_EXCEPTION(checkedNarrow<std::int32_t>(std::int64_t{2147483648}, "number of stored entries"), InputError,
                        [](const InputError& e) {
                          const std::string m = e.what();
                          return m.find("number of stored entries = 2147483648 does not fit in int32") !=
                                     std::string::npos &&
                                 m.find("64-bit") != std::string::npos;
                        });
  BOOST_CHECK_THROW(checkedNarrow<std::uint32_t>(-1, "n"), InputError);
  BOOST_CHECK_THROW(checkedNarrow<std::int32_t>(std::uint64_t{1} << 40, "n"), InputError);
  BOOST_CHECK_THROW(checkedNarrow<std::int32_t>(std::int64_t{-2147483649LL}, "n"), InputError);

  io::HostMatrix huge;
  huge.numRows = 3'000'000'000LL;
  huge.numCols = 10;
  BOOST_CHECK_EXCEPTION(cooFromHost<CooMatrix<double>>(huge), InputError, [](const InputError& e) {
    return std::string(e.what()).find("number of rows = 3000000000 does not fit in int32") != std::string::npos;
  });
  // The same matrix fits 64-bit ordinals.
  BOOST_CHECK_NO_THROW((cooFromHost<CooMatrix<double, std::int64_t, std::int64_t>>(huge)));
}
