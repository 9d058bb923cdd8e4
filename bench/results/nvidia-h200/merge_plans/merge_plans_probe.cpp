// csr-merge's two plans on a GPU, the same program built against several versions of the
// kernel (README.md): on each matrix it times an operator's product under the rule (auto), with
// the short rows forced apart, and with every row forced onto the merge path, beside cuSPARSE's
// CSR algorithm 1, each the median of five batches of 40 products after 20 warm-ups
// (probe_csr.hpp). It prints the share of teams that hold a long row's items, which the rule
// compares with an eighth. The three plans' y must agree bit for bit in one run (y poisoned
// before each), and the auto plan's y with the file DIR/bits-NAME another build saved (SAVE set).
//
// Matrices: the unseen suite, the drawn suite for the seeds in SEEDS (default 6151 and 80713,
// never drawn before), the GPU probes' seven (probe_csr.hpp), and a sweep of the share of marked
// teams (sweepCsr), built on the host (the suites by the benchmark's own generators) and cached
// in CACHE (default /tmp/mcache) for the next build's run, all of them in parallel before the
// first is timed.
// MEANS=1 adds rows of 1 to 2m - 1 entries (m = 8 to 24, the longest 47), in random columns and
// in a band of 129 columns about the diagonal (meanCsr): where the rule's bound on the mean
// (csrMergeShortRowsGoApart) sits between the short rows' pass and the path.
// ONLY=NAME runs one matrix.
//
// Built from the repository root with the cuda preset's Kokkos (INCLUDE: the include folder of
// the kernel to measure):
//   .deps/kokkos-cuda/bin/nvcc_wrapper -O3 -DNDEBUG -std=c++17 -arch=sm_90 -expt-extended-lambda -Xcompiler -fopenmp \
//       -IINCLUDE -Ibench -Ibench/results/cpu-2core-xeon/drawn -isystem .deps/kokkos-cuda/include \
//       bench/results/nvidia-h200/merge_plans/merge_plans_probe.cpp -o merge_plans_probe \
//       -L.deps/kokkos-cuda/lib -lkokkoscore -lcusparse -ldl -lcuda
#include <araios/backends/backends.hpp>
#include <araios/formats/csr/csr_merge.hpp>
#include <Kokkos_Core.hpp>
#include "cuda/cusparse_spmv.hpp"
#include "generators/catalog.hpp"
#include "generators/drawn_catalog.hpp"
#include "probe_csr.hpp"
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <numeric>
#include <sstream>
#include <type_traits>
#include <string>
#include <vector>
using namespace araios;
using Exec = Kokkos::DefaultExecutionSpace;
using Csr = CsrMatrix<double, int, int, Exec::device_type>;

/// A matrix in CSR on the host, as the cache keeps it.
struct HostCsr {
  int rows = 0, cols = 0;
  std::vector<int> ptr, col;
  std::vector<double> val;
};

HostCsr fromCoordinates(const io::HostMatrix& m) {
  HostCsr h;
  h.rows = static_cast<int>(m.numRows);
  h.cols = static_cast<int>(m.numCols);
  std::vector<std::int64_t> order(m.value.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](std::int64_t a, std::int64_t b) {
    return m.row[a] != m.row[b] ? m.row[a] < m.row[b] : m.col[a] < m.col[b];
  });
  h.ptr.assign(h.rows + 1, 0);
  for (std::int64_t k : order) {
    ++h.ptr[m.row[k] + 1];
    h.col.push_back(static_cast<int>(m.col[k]));
    h.val.push_back(m.value[k]);
  }
  for (int i = 0; i < h.rows; ++i) h.ptr[i + 1] += h.ptr[i];
  return h;
}

/// A square matrix of `rows` rows on the host: row i has length(i, rng) entries in columns
/// column(i, rng) (sorted, repeats kept), values in [1, 2).
template <class Length, class Column>
HostCsr hostRows(int rows, unsigned seed, const Length& length, const Column& column) {
  std::mt19937 rng(seed);
  HostCsr h;
  h.rows = h.cols = rows;
  h.ptr.assign(rows + 1, 0);
  for (int i = 0; i < rows; ++i) {
    std::vector<int> cols(length(i, rng));
    for (auto& v : cols) v = column(i, rng);
    std::sort(cols.begin(), cols.end());
    for (int v : cols) {
      h.col.push_back(v);
      h.val.push_back(1.0 + (rng() % 1000) * 1e-3);
    }
    h.ptr[i + 1] = static_cast<int>(h.col.size());
  }
  return h;
}

/// The same in columns drawn uniformly.
template <class Length>
HostCsr hostRows(int rows, unsigned seed, const Length& length) {
  return hostRows(rows, seed, length,
                  [rows](int, std::mt19937& rng) { return static_cast<int>(rng() % static_cast<unsigned>(rows)); });
}

/// The same rows as randomCsr (probe_csr.hpp) with seed 17, kept on the host.
HostCsr fromProbeCase(const ProbeCase& c) { return hostRows(c.rows, 17, c.length); }

template <class T>
bool readArray(FILE* f, std::vector<T>& v, std::size_t n) {
  v.resize(n);
  return std::fread(v.data(), sizeof(T), n, f) == n;
}

/// The matrix from the cache, or made and then cached.
HostCsr cachedOrMade(const std::string& dir, const std::string& name, const std::function<HostCsr()>& make) {
  const std::string path = dir + "/" + name + ".csr";
  if (FILE* f = std::fopen(path.c_str(), "rb")) {
    HostCsr h;
    std::int64_t head[3];
    const bool ok = std::fread(head, sizeof head, 1, f) == 1 && readArray(f, h.ptr, head[0] + 1) &&
                    readArray(f, h.col, h.ptr.back()) && readArray(f, h.val, h.ptr.back());
    std::fclose(f);
    h.rows = static_cast<int>(head[0]);
    h.cols = static_cast<int>(head[1]);
    if (ok) return h;
  }
  HostCsr h = make();
  if (FILE* f = std::fopen((path + ".part").c_str(), "wb")) {
    const std::int64_t head[3] = {h.rows, h.cols, h.ptr.back()};
    std::fwrite(head, sizeof head, 1, f);
    std::fwrite(h.ptr.data(), sizeof(int), h.ptr.size(), f);
    std::fwrite(h.col.data(), sizeof(int), h.col.size(), f);
    std::fwrite(h.val.data(), sizeof(double), h.val.size(), f);
    std::fclose(f);
    std::rename((path + ".part").c_str(), path.c_str());
  }
  return h;
}

Csr onDevice(const HostCsr& h) {
  Csr A;
  A.numRows = h.rows;
  A.numCols = h.cols;
  A.rowPtr = decltype(A.rowPtr)("p", h.ptr.size());
  A.colIdx = decltype(A.colIdx)("c", h.col.size());
  A.values = decltype(A.values)("v", h.val.size());
  Kokkos::deep_copy(A.rowPtr, Kokkos::View<const int*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(h.ptr.data(), h.ptr.size()));
  Kokkos::deep_copy(A.colIdx, Kokkos::View<const int*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(h.col.data(), h.col.size()));
  Kokkos::deep_copy(A.values,
                    Kokkos::View<const double*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(h.val.data(), h.val.size()));
  return A;
}

/// `rows` rows of minShort to maxShort entries, `longRows` of them (spread evenly) of longLength
/// entries instead; columns drawn uniformly (seed 5077).
HostCsr sweepCsr(int rows, int minShort, int maxShort, int longRows, int longLength) {
  const int every = longRows > 0 ? rows / longRows : rows + 1;
  return hostRows(rows, 5077, [&](int i, std::mt19937& rng) {
    const bool isLong = longRows > 0 && i % every == every / 2 && i / every < longRows;
    return isLong ? longLength : minShort + static_cast<int>(rng() % static_cast<unsigned>(maxShort - minShort + 1));
  });
}

/// 1.5 x 10^6 rows of 1 to 2 mean - 1 entries (seed 7919 + mean), in random columns or in
/// columns within 64 of the diagonal (sorted, repeats kept), values in [1, 2).
HostCsr meanCsr(int mean, bool band) {
  const int rows = 1500000;
  const auto length = [mean](int, std::mt19937& rng) {
    return 1 + static_cast<int>(rng() % static_cast<unsigned>(2 * mean - 1));
  };
  if (!band) return hostRows(rows, 7919 + mean, length);
  return hostRows(rows, 7919 + mean, length, [rows](int i, std::mt19937& rng) {
    return std::min(rows - 1, std::max(0, i - 64 + static_cast<int>(rng() % 129u)));
  });
}

/// Whether a plan puts the short rows apart (a member function since ce613ee, a flag before).
template <class Bounds>
bool apartIn(const Bounds& b) {
  if constexpr (std::is_member_function_pointer_v<decltype(&Bounds::shortRowsApart)>) {
    return b.shortRowsApart();
  } else {
    return b.shortRowsApart;
  }
}

struct Case {
  std::string name;
  std::function<HostCsr()> make;
};

int main(int argc, char** argv) {
  Kokkos::ScopeGuard guard(argc, argv);
  const bool save = std::getenv("SAVE") != nullptr;
  const std::string dir = std::getenv("DIR") ? std::getenv("DIR") : "/tmp/mp";
  const std::string cache = std::getenv("CACHE") ? std::getenv("CACHE") : "/tmp/mcache";
  const char* only = std::getenv("ONLY");
  std::vector<Case> cases;
  const auto addCatalog = [&](const std::vector<bench::gen::CatalogEntry>& catalog, std::uint64_t seed) {
    for (const auto& e : catalog) {
      const std::uint64_t s = bench::gen::seedFromName(e.name.c_str(), seed);
      const auto make = e.make;
      cases.push_back({e.name, [make, s] { return fromCoordinates(make(s)); }});
    }
  };
  addCatalog(bench::gen::unseenCatalog(), bench::gen::kCatalogSeed);
  std::istringstream seeds(std::getenv("SEEDS") ? std::getenv("SEEDS") : "6151 80713");
  for (std::uint64_t seed; seeds >> seed;) addCatalog(bench::gen::drawnCatalog(seed), seed);
  for (const auto& c : gpuProbeCases()) cases.push_back({c.name, [c] { return fromProbeCase(c); }});
  // The share of marked teams swept: long rows of 20,000 among rows of 1-3 and of 5-12, and of
  // 2,000 among 100,000 rows of 1-3, where the extra launch weighs most.
  for (int n : {5, 10, 20, 40, 80, 160}) {
    cases.push_back({"sweep-1to3-x" + std::to_string(n), [n] { return sweepCsr(1000000, 1, 3, n, 20000); }});
    cases.push_back({"sweep-5to12-x" + std::to_string(n), [n] { return sweepCsr(500000, 5, 12, n, 20000); }});
  }
  for (int n : {1, 2, 4, 8, 16}) {
    cases.push_back({"sweep-small-x" + std::to_string(n), [n] { return sweepCsr(100000, 1, 3, n, 2000); }});
  }
  if (std::getenv("MEANS") != nullptr) {
    for (int m : {8, 12, 16, 20, 24}) {
      cases.push_back({"mean-random-" + std::to_string(m), [m] { return meanCsr(m, false); }});
      cases.push_back({"mean-band-" + std::to_string(m), [m] { return meanCsr(m, true); }});
    }
  }

  std::printf("%-28s %10s %10s %6s %7s %5s %10s %10s %10s %10s  %s\n", "matrix", "rows", "nnz", "teams", "long", "auto",
              "auto us", "apart us", "path us", "cuSPARSE", "bits");
  const cuda::CusparseHandle handle(Exec().cuda_stream());
  int differ = 0;
  // Every matrix made first, on all the host's cores: made one after another they took most of a
  // run's time.
  std::vector<HostCsr> hosts(cases.size());
#pragma omp parallel for schedule(dynamic, 1)
  for (std::size_t i = 0; i < cases.size(); ++i) {
    if (only == nullptr || cases[i].name == only) hosts[i] = cachedOrMade(cache, cases[i].name, cases[i].make);
  }
  for (std::size_t i = 0; i < cases.size(); ++i) {
    const Case& c = cases[i];
    if (only != nullptr && c.name != only) continue;
    const Csr A = onDevice(hosts[i]);
    hosts[i] = HostCsr();
    Kokkos::View<double*> x("x", A.numCols), y("y", A.numRows);
    fillProbeX(x);
    const Kokkos::View<const double*> xc = x;
    const Exec exec;
    const Kokkos::View<double*> work("work", Impl::csrMergeWorkspaceValues<Exec>(A));
    const Impl::CsrMergeLayout<Exec, Csr> layout(A);
    const auto automatic = Impl::csrMergeBounds(exec, A);
    const auto apart = Impl::csrMergeBounds(exec, A, Impl::MergeShortRows::Apart);
    const auto path = Impl::csrMergeBounds(exec, A, Impl::MergeShortRows::OnThePath);
    const auto timeOf = [&](const auto& bounds) {
      return probeMicrosecondsPerProduct(exec, [&] {
        Impl::csrMergePass<Impl::RoundedMergeSum<double>>(exec, A, xc, y, 1.0, 0.0, work, bounds);
      });
    };
    const double tAuto = timeOf(automatic), tApart = timeOf(apart), tPath = timeOf(path);
    const double tCusparse = [&] {
      cuda::CusparseSpmv<double> product(handle, A, cuda::CusparseAlgorithm::CsrAlg1, x, y, 1.0, 0.0);
      return probeMicrosecondsPerProduct(exec, [&] { product.run(); });
    }();
    // Each plan's y from a poisoned start, so that an unwritten row shows.
    const auto bitsOf = [&](const auto& bounds) {
      Kokkos::deep_copy(y, std::nan(""));
      Impl::csrMergePass<Impl::RoundedMergeSum<double>>(exec, A, xc, y, 1.0, 0.0, work, bounds);
      exec.fence();
      return Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), y);
    };
    const auto hAuto = bitsOf(automatic), hApart = bitsOf(apart), hPath = bitsOf(path);
    std::string verdict = saveOrCompareBits(dir + "/bits-" + c.name, hAuto.data(), A.numRows, save);
    const std::size_t bytes = sizeof(double) * A.numRows;
    if (std::memcmp(hAuto.data(), hApart.data(), bytes) != 0) verdict += ", APART DIFFERS";
    if (std::memcmp(hAuto.data(), hPath.data(), bytes) != 0) verdict += ", PATH DIFFERS";
    differ += verdict != "same bits" && verdict != "saved" ? 1 : 0;
    std::printf("%-28s %10d %10ld %6ld %6.1f%% %5s %10.1f %10.1f %10.1f %10.1f  %s\n", c.name.c_str(), A.numRows,
                static_cast<long>(A.nnz()), static_cast<long>(layout.teams),
                100.0 * static_cast<double>(apart.longRowTeamCount) / static_cast<double>(layout.teams),
                apartIn(automatic) ? "apart" : "path", tAuto, tApart, tPath, tCusparse, verdict.c_str());
    std::fflush(stdout);
  }
  return differ == 0 ? 0 : 1;
}
