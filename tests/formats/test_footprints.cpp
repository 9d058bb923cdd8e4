// format_footprints.hpp against the formats themselves: every format is built from CSR on the
// real matrices and the format cases, and its bytes() and storedSlots(), or its refusal and
// message, must be exactly what the estimate from the row lengths says. Refused formats are
// also built with force (where that stays small), so that their layouts are compared too.
#define BOOST_TEST_MODULE footprints
#include <boost/test/unit_test.hpp>

#include "support/generated.hpp"
#include "support/kokkos_env.hpp"
#include "support/real_matrices.hpp"

#include <araios/araios.hpp>
#include <araios/format_footprints.hpp>

#include <cstdint>
#include <string>
#include <vector>

using araios::test::KokkosFixture;
BOOST_TEST_GLOBAL_FIXTURE(KokkosFixture);

namespace {

using namespace araios;

const std::vector<std::string> kFormats = {"coo", "csr", "csc", "ell", "hyb", "dia",
                                           "jds", "sell", "brc", "brcp", "sc-csr", "vab"};

/// Forced builds whose estimate passes this are skipped: a forced ELL of a power-law matrix
/// would take gigabytes. The unforced comparison still covers them (as a refusal).
constexpr std::int64_t kMaxForcedBytes = std::int64_t{256} << 20;

/// "bytes slots" of the built format, or "refused: message".
template <class Exec, class Csr>
std::string built(const Exec& exec, const std::string& format, const Csr& csr, const FormatOptions& options) {
  auto describe = [](const auto& m) { return std::to_string(m.bytes()) + " " + std::to_string(m.storedSlots()); };
  try {
    if (format == "coo") return describe(cooFromCsr(exec, csr));
    if (format == "csr") return describe(csr);
    if (format == "csc") return describe(cscFromCsr(exec, csr));
    if (format == "ell") return describe(ellFromCsr(exec, csr, options));
    if (format == "hyb") return describe(hybFromCsr(exec, csr, options));
    if (format == "dia") return describe(diaFromCsr(exec, csr, options));
    if (format == "jds") return describe(jdsFromCsr(exec, csr, options));
    if (format == "sell") return describe(sellFromCsr(exec, csr, SellOptions{}, options));
    if (format == "brc") return describe(brcFromCsr(exec, csr, options));
    if (format == "brcp") return describe(brcpFromCsr(exec, csr, options));
    if (format == "sc-csr") return describe(scCsrFromCsr(exec, csr, options));
    if (format == "vab") return describe(vabFromCsr(exec, csr, options));
  } catch (const Error& e) {
    return std::string("refused: ") + e.what();
  }
  return "unknown format " + format;
}

template <class Value, class Ordinal, class Offset>
std::string estimated(const std::string& format, const RowLengthStatistics& stats, const FormatOptions& options) {
  try {
    const FormatFootprint f = estimateFootprint<Value, Ordinal, Offset>(format, stats, options);
    return std::to_string(f.bytes) + " " + std::to_string(f.storedSlots);
  } catch (const Error& e) {
    return std::string("refused: ") + e.what();
  }
}

struct Counts {
  int compared = 0;
  int refusals = 0;
  int forced = 0;
};

template <class Value, class Ordinal, class Offset>
void compareAll(const std::string& name, const io::HostMatrix& host, Counts& counts) {
  using Exec = Kokkos::DefaultHostExecutionSpace;
  using Csr = CsrMatrix<Value, Ordinal, Offset, Exec::device_type>;
  const Exec exec;
  const Csr csr = csrFromHost<Csr>(host);
  const RowLengthStatistics stats =
      RowLengthStatistics::fromEntries(host.numRows, host.numCols, host.row.data(), host.col.data(), host.nnz());
  // What `araios info` prints from these statistics: the same as computeStats on the CSR.
  const MatrixStats reference = computeStats(exec, csr);
  BOOST_TEST_CONTEXT(name << ": statistics") {
    BOOST_TEST(stats.meanLength() == reference.meanRowLength);
    BOOST_TEST(stats.stdLength() == reference.stdRowLength);
    BOOST_TEST(stats.bandwidth == reference.bandwidth);
  }
  FormatOptions forced;
  forced.force = true;
  for (const std::string& format : kFormats) {
    BOOST_TEST_CONTEXT(name << ", " << format << ", " << typeName<Value>() << "/" << typeName<Ordinal>() << "/"
                            << typeName<Offset>()) {
      const std::string expected = estimated<Value, Ordinal, Offset>(format, stats, {});
      BOOST_TEST(built(exec, format, csr, {}) == expected);
      ++counts.compared;
      if (expected.rfind("refused: ", 0) != 0) continue;
      ++counts.refusals;
      const std::string whenForced = estimated<Value, Ordinal, Offset>(format, stats, forced);
      if (whenForced.rfind("refused: ", 0) != 0 && std::stoll(whenForced) > kMaxForcedBytes) continue;
      BOOST_TEST(built(exec, format, csr, forced) == whenForced);
      ++counts.forced;
    }
  }
}

}  // namespace

BOOST_AUTO_TEST_CASE(estimates_equal_the_built_formats_on_real_matrices) {
  Counts counts;
  for (const auto& [name, matrix] : test::realMatrices()) compareAll<double, std::int32_t, std::int32_t>(name, matrix, counts);
  BOOST_TEST(counts.compared == static_cast<int>(test::realMatrices().size() * kFormats.size()));
  // The real matrices include ones that ELL, DIA and others refuse: refusals are compared too.
  BOOST_TEST(counts.refusals > 10);
  BOOST_TEST(counts.forced > 5);
}

BOOST_AUTO_TEST_CASE(estimates_equal_the_built_formats_on_generated_matrices) {
  Counts counts;
  for (const auto& c : test::formatCases()) {
    compareAll<double, std::int32_t, std::int32_t>(c.name, c.matrix, counts);
    compareAll<float, std::int32_t, std::int32_t>(c.name, c.matrix, counts);
    compareAll<double, std::int64_t, std::int64_t>(c.name, c.matrix, counts);
  }
  BOOST_TEST(counts.refusals > 10);
  BOOST_TEST(counts.forced > 10);
}

BOOST_AUTO_TEST_CASE(int32_overflow_is_refused_as_the_conversion_refuses_it) {
  // 70,000 rows of which one holds 40,000 entries: ELL forced would need 2.8e9 slots, past
  // int32. The estimate alone is checked (building it is the point of not building it).
  RowLengthStatistics stats;
  stats.rows = 70000;
  stats.cols = 40000;
  stats.lengths.assign(70000, 1);
  stats.lengths[5] = 40000;
  stats.nnz = 70000 - 1 + 40000;
  FormatOptions forced;
  forced.force = true;
  const std::string message = estimated<double, std::int32_t, std::int32_t>("ell", stats, forced);
  BOOST_TEST(message.find("number of ELL slots (rows x width) = 2800000000 does not fit in int32") != std::string::npos,
             message);
  const std::string wide = estimated<double, std::int64_t, std::int64_t>("ell", stats, forced);
  BOOST_TEST(wide == std::to_string(std::int64_t{2800000000} * 16) + " 2800000000");
  const std::string unknown = estimated<double, std::int32_t, std::int32_t>("nope", stats, {});
  BOOST_TEST(unknown.find("no footprint for format 'nope'") != std::string::npos, unknown);
}
