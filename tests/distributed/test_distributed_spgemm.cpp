// The distributed SpGEMM against the one-process araios::spgemm: on 1, 2 and 3 ranks (CTest
// runs this under mpiexec), Deterministic and Accurate products must be the same bits as one
// process multiplying the whole matrices, for every partition of A and of B; Fast ones close.
// Real matrices (A*A, and A*A^T) with values spread over many binades, so that the summation
// order shows in the last bits; generated rectangular ones with empty rows, a dense row, ranks
// with no rows, and different partitions for A and B.
#define BOOST_TEST_MODULE distributed_spgemm
#include <boost/test/unit_test.hpp>

#include "distributed_support.hpp"
#include "support/generated.hpp"
#include "support/matrices.hpp"

#include <araios/distributed.hpp>
#include <araios/formats/coo/coo_convert.hpp>
#include <araios/formats/csr/csr_transpose.hpp>
#include <araios/hash.hpp>
#include <araios/spgemm.hpp>

#include <cmath>
#include <cstdint>
#include <limits>
#include <map>
#include <random>
#include <string>
#include <tuple>
#include <vector>

using araios::test::MpiKokkosFixture;
BOOST_TEST_GLOBAL_FIXTURE(MpiKokkosFixture);

namespace araios::test {
namespace {

using Exec = Kokkos::DefaultExecutionSpace;
using Csr = CsrMatrix<double, std::int32_t, std::int32_t, Exec::device_type>;
using Product = DistributedSpgemm<double, std::int32_t, std::int32_t, Exec>;

/// A real matrix from the collection, read once (only the ones the tests name).
const io::HostMatrix& realMatrix(const std::string& name) {
  static std::map<std::string, io::HostMatrix> cache;
  auto it = cache.find(name);
  if (it == cache.end()) it = cache.emplace(name, io::readMatrixMarket((matricesDir() / (name + ".mtx.gz")).string())).first;
  return it->second;
}

/// The same pattern with values over many binades, so that the summation order shows.
io::HostMatrix withRandomValues(io::HostMatrix m, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  for (double& v : m.value) v = u(rng) * std::ldexp(1.0, static_cast<int>(rng() % 40) - 20);
  return m;
}

io::HostMatrix transposed(const io::HostMatrix& m) {
  Exec exec;
  return hostFromCsr(transposeCsr(exec, csrFromHost<Csr>(m)));
}

/// C = A*B on one process (every rank computes it alone).
Csr oneProcess(const io::HostMatrix& A, const io::HostMatrix& B, Mode mode) {
  Exec exec;
  SpgemmOptions o;
  o.mode = mode;
  return spgemm(exec, csrFromHost<Csr>(A), csrFromHost<Csr>(B), o);
}

/// The whole matrix on every rank, from each rank's rows (the test's check only: the product
/// never gathers).
io::HostMatrix gatherRows(const DistributedHostMatrix& d) {
  const int ranks = commSize(d.comm);
  const int mine = static_cast<int>(d.local.row.size());
  std::vector<int> counts(ranks), starts(ranks, 0);
  ARAIOS_MPI_CHECK(MPI_Allgather(&mine, 1, MPI_INT, counts.data(), 1, MPI_INT, d.comm));
  for (int r = 1; r < ranks; ++r) starts[r] = starts[r - 1] + counts[r - 1];
  io::HostMatrix all;
  all.numRows = d.numRows();
  all.numCols = d.numCols();
  const std::size_t total = static_cast<std::size_t>(starts[ranks - 1] + counts[ranks - 1]);
  all.row.resize(total);
  all.col.resize(total);
  all.value.resize(total);
  ARAIOS_MPI_CHECK(MPI_Allgatherv(d.local.row.data(), mine, MPI_INT64_T, all.row.data(), counts.data(), starts.data(),
                                  MPI_INT64_T, d.comm));
  ARAIOS_MPI_CHECK(MPI_Allgatherv(d.local.col.data(), mine, MPI_INT64_T, all.col.data(), counts.data(), starts.data(),
                                  MPI_INT64_T, d.comm));
  ARAIOS_MPI_CHECK(MPI_Allgatherv(d.local.value.data(), mine, MPI_DOUBLE, all.value.data(), counts.data(),
                                  starts.data(), MPI_DOUBLE, d.comm));
  return all;
}

void poison(const Product& product) { Kokkos::deep_copy(product.localC().values, std::nan("")); }

/// The one-process product, as the distributed one is compared with it.
struct Expected {
  io::HostMatrix host;
  std::string hash;
  std::int64_t nnz;
};

Expected expected(const io::HostMatrix& A, const io::HostMatrix& B, Mode mode) {
  const Csr c = oneProcess(A, B, mode);
  return {hostFromCsr(c), hashCsr(c), static_cast<std::int64_t>(c.nnz())};
}

/// Distributes A and B, multiplies (values poisoned before numeric), and checks C bit for bit
/// against `want`, then once more after a second numeric phase.
void checkProduct(const io::HostMatrix& A, const io::HostMatrix& B, const RowPartition& pa, const RowPartition& pb,
                  Mode mode, const Expected& want) {
  Exec exec;
  SpgemmOptions o;
  o.mode = mode;
  Product product(exec, distributeRows(world(), A, &pa), distributeRows(world(), B, &pb), o);
  BOOST_TEST(product.localC().numRows == pa.rows(commRank(world())));
  BOOST_TEST(product.localC().numCols == B.numCols);
  BOOST_TEST(product.stats().globalNnz == want.nnz);
  poison(product);
  product.numeric(exec);
  const std::vector<double> first = toVector(product.localC().values);
  const io::HostMatrix got = gatherRows(product.hostC());
  BOOST_TEST(got.row == want.host.row);
  BOOST_TEST(got.col == want.host.col);
  BOOST_TEST(sameBits(got.value, want.host.value));
  BOOST_TEST(hashCsr(csrFromHost<Csr>(got)) == want.hash);
  poison(product);
  product.numeric(exec);
  BOOST_TEST(sameBits(toVector(product.localC().values), first));
}

/// Partitions of A and B to multiply under: both balanced by entries; one of them lopsided (a
/// sliver, an empty rank, uneven blocks: testPartitions) and the other balanced; and, with
/// `uniform`, both cut into equal numbers of rows.
std::vector<std::pair<RowPartition, RowPartition>> partitionPairs(const io::HostMatrix& A, const io::HostMatrix& B,
                                                                  bool uniform) {
  const int ranks = commSize(world());
  const std::vector<RowPartition> pa = testPartitions(rowCounts(A), ranks), pb = testPartitions(rowCounts(B), ranks);
  std::vector<std::pair<RowPartition, RowPartition>> out{{pa[0], pb[0]}, {pa[1], pb[0]}, {pa[0], pb[1]}};
  if (uniform) out.emplace_back(RowPartition::uniform(A.numRows, ranks), RowPartition::uniform(B.numRows, ranks));
  return out;
}

struct Case {
  std::string name;
  io::HostMatrix A, B;
};

void checkCases(const std::vector<Case>& cases, bool uniform) {
  for (const Case& c : cases) {
    for (Mode mode : {Mode::Deterministic, Mode::Accurate}) {
      const Expected want = expected(c.A, c.B, mode);
      for (const auto& [pa, pb] : partitionPairs(c.A, c.B, uniform)) {
        BOOST_TEST_CONTEXT(c.name << ", mode " << toString(mode) << ", A's rank 0 rows " << pa.rows(0)
                                  << ", B's rank 0 rows " << pb.rows(0)) {
          checkProduct(c.A, c.B, pa, pb, mode, want);
        }
      }
    }
  }
}

}  // namespace

BOOST_AUTO_TEST_CASE(real_matrices_equal_one_process_for_any_partition) {
  std::vector<Case> cases;
  // One with the file's own values; the others with values over many binades.
  cases.push_back({"USAir97 * USAir97 (file values)", realMatrix("USAir97"), realMatrix("USAir97")});
  std::uint64_t seed = 1;
  for (const char* name : {"USAir97", "Erdos971", "nos5", "orsirr_2", "rajat19", "gre_1107"}) {
    const io::HostMatrix a = withRandomValues(realMatrix(name), seed++);
    cases.push_back({std::string(name) + " * " + name, a, a});
  }
  {
    const io::HostMatrix a = withRandomValues(realMatrix("rajat19"), 99);
    cases.push_back({"rajat19 * rajat19^T", a, transposed(a)});
  }
  checkCases(cases, false);
}

BOOST_AUTO_TEST_CASE(generated_rectangular_products_equal_one_process) {
  std::vector<Case> cases;
  {
    // Rows of A from empty to 12 entries, one dense row (its rank fetches all of B); rows of B
    // from empty to 6 entries over 150 columns, the last 10 columns never used.
    io::HostMatrix a = withRandomValues(randomMatrix(300, 200, 0, 12, 5), 6);
    std::vector<std::tuple<std::int64_t, std::int64_t, double>> e;
    for (std::size_t k = 0; k < a.row.size(); ++k) {
      if (a.row[k] != 150) e.emplace_back(a.row[k], a.col[k], a.value[k]);
    }
    for (std::int64_t c = 0; c < 200; ++c) e.emplace_back(150, c, std::ldexp(1.0 + c, -(c % 30)));
    a = fromTriplets(300, 200, std::move(e));
    cases.push_back({"300x200 * 200x150", a, withRandomValues(randomMatrix(200, 140, 0, 6, 7), 8)});
    cases.back().B.numCols = 150;
  }
  cases.push_back({"all rows empty 500x80 * 80x3", withRandomValues(randomMatrix(500, 80, 0, 0, 1), 2),
                   withRandomValues(randomMatrix(80, 3, 1, 3, 3), 4)});
  {
    // Only every 37th row of A holds entries.
    const io::HostMatrix a = withRandomValues(randomMatrix(400, 60, 1, 9, 11), 12);
    std::vector<std::tuple<std::int64_t, std::int64_t, double>> e;
    for (std::size_t k = 0; k < a.row.size(); ++k) {
      if (a.row[k] % 37 == 0) e.emplace_back(a.row[k], a.col[k], a.value[k]);
    }
    cases.push_back({"mostly empty 400x60 * 60x900", fromTriplets(400, 60, std::move(e)),
                     withRandomValues(randomMatrix(60, 900, 0, 40, 13), 14)});
  }
  cases.push_back({"no rows 0x5 * 5x4", fromTriplets(0, 5, {}), withRandomValues(randomMatrix(5, 4, 1, 4, 15), 16)});
  cases.push_back({"fewer rows than ranks 2x3 * 3x7", withRandomValues(randomMatrix(2, 3, 1, 3, 17), 18),
                   withRandomValues(randomMatrix(3, 7, 0, 7, 19), 20)});
  cases.push_back({"banded * banded", banded(), banded()});
  checkCases(cases, true);
}

BOOST_AUTO_TEST_CASE(new_values_are_fetched_again_and_give_the_one_process_bits) {
  Exec exec;
  const int ranks = commSize(world());
  const io::HostMatrix a1 = withRandomValues(realMatrix("gre_1107"), 31), a2 = withRandomValues(a1, 32);
  const io::HostMatrix b1 = withRandomValues(transposed(a1), 33), b2 = withRandomValues(b1, 34);
  for (Mode mode : {Mode::Deterministic, Mode::Accurate}) {
    const Csr want1 = oneProcess(a1, b1, mode), want2 = oneProcess(a2, b2, mode);
    const RowPartition pa = testPartitions(rowCounts(a1), ranks).back();
    const RowPartition pb = RowPartition::balanced(rowCounts(b1), ranks);
    SpgemmOptions o;
    o.mode = mode;
    Product product(exec, distributeRows(world(), a1, &pa), distributeRows(world(), b1, &pb), o);
    product.numeric(exec);
    BOOST_TEST(hashCsr(csrFromHost<Csr>(gatherRows(product.hostC()))) == hashCsr(want1));
    const double commBefore = product.stats().commSeconds;
    const std::int64_t bytesBefore = product.stats().bytesReceived;
    poison(product);
    product.numeric(exec, distributeRows(world(), a2, &pa), distributeRows(world(), b2, &pb));
    BOOST_TEST_CONTEXT("mode " << toString(mode)) {
      BOOST_TEST(hashCsr(csrFromHost<Csr>(gatherRows(product.hostC()))) == hashCsr(want2));
      BOOST_TEST(product.stats().commSeconds >= commBefore);
      // Only the values travel again: 8 bytes per entry received from another rank.
      BOOST_TEST(product.stats().bytesReceived - bytesBefore == 8 * product.stats().entriesReceived);
      product.numeric(exec);
      BOOST_TEST(hashCsr(csrFromHost<Csr>(gatherRows(product.hostC()))) == hashCsr(want2));
    }
  }
}

BOOST_AUTO_TEST_CASE(fast_mode_is_close_to_the_deterministic_product) {
  Exec exec;
  const int ranks = commSize(world());
  const io::HostMatrix a = withRandomValues(realMatrix("orsirr_2"), 41);
  io::HostMatrix absA = a;
  for (double& v : absA.value) v = std::fabs(v);
  const io::HostMatrix exact = hostFromCsr(oneProcess(a, a, Mode::Accurate));
  const io::HostMatrix scale = hostFromCsr(oneProcess(absA, absA, Mode::Deterministic));  // sum |a_ik a_kj|
  for (const RowPartition& p : testPartitions(rowCounts(a), ranks)) {
    SpgemmOptions o;
    o.mode = Mode::Fast;
    Product product(exec, distributeRows(world(), a, &p), distributeRows(world(), a, &p), o);
    poison(product);
    product.numeric(exec);
    const io::HostMatrix got = gatherRows(product.hostC());
    BOOST_TEST(got.row == exact.row);
    BOOST_TEST(got.col == exact.col);
    bool close = got.value.size() == exact.value.size();
    for (std::size_t k = 0; close && k < got.value.size(); ++k) {
      close = std::fabs(got.value[k] - exact.value[k]) <= 1e-13 * scale.value[k];
    }
    BOOST_TEST(close);
  }
}

BOOST_AUTO_TEST_CASE(sizes_reports_and_errors) {
  Exec exec;
  const int ranks = commSize(world()), rank = commRank(world());
  const io::HostMatrix a = withRandomValues(banded(), 51);
  const RowPartition p = RowPartition::balanced(rowCounts(a), ranks);
  Product product(exec, distributeRows(world(), a, &p), distributeRows(world(), a, &p));
  // A band of half-width 5: each rank needs its own rows and 5 beyond each end of its block.
  const DistributedSpgemmStats& s = product.stats();
  const std::int64_t below = rank > 0 ? 5 : 0, above = rank + 1 < ranks ? 5 : 0;
  BOOST_TEST(s.rowsNeeded == p.rows(rank) + below + above);
  BOOST_TEST(s.rowsReceived == below + above);
  BOOST_TEST(s.rowsSent == below + above);
  BOOST_TEST(s.bytesReceived == 16 * (below + above) + 16 * s.entriesReceived);
  BOOST_TEST(product.partition().starts() == p.starts());
  BOOST_TEST(product.numCols() == a.numCols);

  // Shapes that do not match: refused on every rank (rank 0 throws its InputError, the others
  // RemoteError with its message).
  const io::HostMatrix b = randomMatrix(10, 4, 1, 2, 3);
  BOOST_CHECK_EXCEPTION(Product(exec, distributeRows(world(), a), distributeRows(world(), b)), Error,
                        [](const Error& err) { return std::string(err.what()).find("A's columns") != std::string::npos; });

  // Unsorted entries on the last rank only: every rank throws (that one InputError, the others
  // RemoteError with its message), none waits.
  DistributedHostMatrix bad = distributeRows(world(), a, &p);
  if (rank == ranks - 1 && bad.local.col.size() > 2) std::swap(bad.local.col[0], bad.local.col[1]);
  BOOST_CHECK_EXCEPTION(Product(exec, bad, distributeRows(world(), a, &p)), Error, [](const Error& e) {
    return std::string(e.what()).find("sorted by row") != std::string::npos;
  });

  // Global column ids past int32: refused with int32 ordinals, computed with int64 ones.
  const std::int64_t wide = 3'000'000'000;
  std::vector<std::tuple<std::int64_t, std::int64_t, double>> e;
  for (std::int64_t r = 0; r < 10; ++r) {
    e.emplace_back(r, r * 7, 1.0 + r);
    e.emplace_back(r, wide - 1 - r * 100, std::ldexp(1.0, -static_cast<int>(r)));
  }
  const io::HostMatrix bWide = fromTriplets(10, wide, std::move(e));
  const io::HostMatrix aNarrow = withRandomValues(randomMatrix(20, 10, 0, 5, 61), 62);
  BOOST_CHECK_EXCEPTION(Product(exec, distributeRows(world(), aNarrow), distributeRows(world(), bWide)), Error,
                        [](const Error& err) { return std::string(err.what()).find("64-bit") != std::string::npos; });
  using Csr64 = CsrMatrix<double, std::int64_t, std::int64_t, Exec::device_type>;
  DistributedSpgemm<double, std::int64_t, std::int64_t, Exec> product64(exec, distributeRows(world(), aNarrow),
                                                                       distributeRows(world(), bWide));
  product64.numeric(exec);
  const Csr64 want = spgemm(exec, csrFromHost<Csr64>(aNarrow), csrFromHost<Csr64>(bWide), SpgemmOptions{});
  BOOST_TEST(hashCsr(csrFromHost<Csr64>(gatherRows(product64.hostC()))) == hashCsr(want));
}

}  // namespace araios::test
