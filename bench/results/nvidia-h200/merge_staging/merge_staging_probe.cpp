// csr-merge's product on a GPU, the same program built against several versions of the team
// kernel's staging (README.md): on each matrix it times an operator's product (bounds and plan
// made once) and a bare product, 200 back to back after 20 warm-ups (median of five batches of
// 40) beside cuSPARSE's CSR algorithm 1 on the same matrix, and writes y to DIR/bits-NAME (SAVE set) or compares y with that file bit for bit.
// ONLY=NAME runs one matrix. Matrices (seed 4049, none of them in the suites): the seven of merge_gpu_probe.cpp and five
// more shapes: one row of 10^6 among rows of 1, 99 rows of 270,000 among short rows, FEM-like
// rows of 25 to 29 entries in a band, a 7-point-like band, and power-law rows in a band.
// Built from the repository root with the cuda preset's Kokkos (INCLUDE: the include folder of
// the kernel to measure):
//   .deps/kokkos-cuda/bin/nvcc_wrapper -O3 -DNDEBUG -std=c++17 -arch=sm_90 -expt-extended-lambda -Xcompiler -fopenmp \
//       -IINCLUDE -Ibench -Ibench/results/cpu-2core-xeon/drawn -isystem .deps/kokkos-cuda/include \
//       bench/results/nvidia-h200/merge_staging/merge_staging_probe.cpp -o merge_staging_probe \
//       -L.deps/kokkos-cuda/lib -lkokkoscore -lcusparse -ldl -lcuda
//   SAVE=1 DIR=/tmp/mp ./probe_base; DIR=/tmp/mp ./probe_other
#include <araios/formats/csr/csr_merge.hpp>
#include <Kokkos_Core.hpp>
#include "cuda/cusparse_spmv.hpp"
#include "probe_csr.hpp"
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <random>
#include <string>
#include <vector>
using namespace araios;
using Exec = Kokkos::DefaultExecutionSpace;
using Csr = CsrMatrix<double, int, int, Exec::device_type>;

/// Row i has length(i, rng) entries; a positive band draws its columns within i +- band (a mesh's
/// locality), else anywhere.
template <class Length>
Csr bandedCsr(int rows, unsigned seed, int band, const Length& length) {
  std::mt19937 rng(seed);
  std::vector<int> ptr(rows + 1, 0), col;
  std::vector<double> val;
  for (int i = 0; i < rows; ++i) {
    std::vector<int> c(length(i, rng));
    for (auto& v : c) {
      if (band > 0) {
        const int lo = std::max(0, i - band), hi = std::min(rows - 1, i + band);
        v = lo + static_cast<int>(rng() % static_cast<unsigned>(hi - lo + 1));
      } else {
        v = static_cast<int>(rng() % static_cast<unsigned>(rows));
      }
    }
    std::sort(c.begin(), c.end());
    for (int v : c) {
      col.push_back(v);
      val.push_back(1.0 + (rng() % 1000) * 1e-3);
    }
    ptr[i + 1] = static_cast<int>(col.size());
  }
  return csrFromArrays<Csr>(rows, ptr, col, val);
}

struct Case {
  std::string name;
  std::function<Csr()> make;
};

int main(int argc, char** argv) {
  Kokkos::ScopeGuard guard(argc, argv);
  const bool save = std::getenv("SAVE") != nullptr;
  const std::string dir = std::getenv("DIR") ? std::getenv("DIR") : "/tmp/mp";
  std::vector<Case> cases;
  for (const auto& c : gpuProbeCases()) {
    cases.push_back({c.name, [c] { return randomCsr<Csr>(c.rows, 17, c.length); }});
  }
  const auto u = std::make_shared<std::uniform_real_distribution<double>>(0, 1);
  cases.push_back({"onerow-1M", [] { return bandedCsr(1000000, 4049, 0, [](int i, std::mt19937&) { return i == 777 ? 1000000 : 1; }); }});
  cases.push_back({"rows-270k-x99", [] {
                     return bandedCsr(560000, 4049, 0,
                                      [](int i, std::mt19937& r) { return i % 5656 == 9 ? 270000 : int(r() % 3); });
                   }});
  cases.push_back({"fem-25-29", [] {
                     return bandedCsr(1200000, 4049, 3000, [](int, std::mt19937& r) { return 25 + int(r() % 5); });
                   }});
  cases.push_back({"band-7", [] { return bandedCsr(2000000, 4049, 20000, [](int, std::mt19937&) { return 7; }); }});
  cases.push_back({"powerlaw-band", [u] {
                     return bandedCsr(1500000, 4049, 50000, [u](int, std::mt19937& r) {
                       return std::min(300000, int(2 * std::pow(1 - (*u)(r), -1 / 1.3)));
                     });
                   }});
  std::printf("%-14s %10s %6s %6s %14s %12s %12s  %s\n", "matrix", "nnz", "teams", "apart", "operator us", "bare us",
              "cuSPARSE us", "bits");
  const cuda::CusparseHandle handle(Exec().cuda_stream());
  int differ = 0;
  const char* only = std::getenv("ONLY");  // one matrix by name, for a profiler
  for (const auto& c : cases) {
    if (only != nullptr && c.name != only) continue;
    const Csr A = c.make();
    const int rows = A.numRows;
    Kokkos::View<double*> x("x", rows), y("y", rows);
    fillProbeX(x);
    const Kokkos::View<const double*> xc = x;
    const Exec exec;
    const Kokkos::View<double*> work("work", Impl::csrMergeWorkspaceValues<Exec>(A));
    const auto bounds = Impl::csrMergeBounds(exec, A);
    const Impl::CsrMergeLayout<Exec, Csr> layout(A);
    const double op = probeMicrosecondsPerProduct(exec, [&] {
      Impl::csrMergePass<Impl::RoundedMergeSum<double>>(exec, A, xc, y, 1.0, 0.0, work, bounds);
    });
    const double bare = probeMicrosecondsPerProduct(exec, [&] {
      Impl::csrMergePass<Impl::RoundedMergeSum<double>>(exec, A, xc, y, 1.0, 0.0, work);
    });
    const double cusparse = [&] {
      cuda::CusparseSpmv<double> product(handle, A, cuda::CusparseAlgorithm::CsrAlg1, x, y, 1.0, 0.0);
      return probeMicrosecondsPerProduct(exec, [&] { product.run(); });
    }();
    // y from a poisoned start, so that an unwritten row shows; then the bare product's bits too.
    Kokkos::deep_copy(y, std::nan(""));
    Impl::csrMergePass<Impl::RoundedMergeSum<double>>(exec, A, xc, y, 1.0, 0.0, work, bounds);
    exec.fence();
    const auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), y);
    Kokkos::deep_copy(y, std::nan(""));
    Impl::csrMergePass<Impl::RoundedMergeSum<double>>(exec, A, xc, y, 1.0, 0.0, work);
    exec.fence();
    const auto hb = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), y);
    std::string verdict = saveOrCompareBits(dir + "/bits-" + c.name, h.data(), rows, save);
    if (std::memcmp(h.data(), hb.data(), sizeof(double) * rows) != 0) verdict += ", BARE DIFFERS";
    differ += verdict != "same bits" && verdict != "saved" ? 1 : 0;
    std::printf("%-14s %10ld %6ld %6s %14.1f %12.1f %12.1f  %s\n", c.name.c_str(), static_cast<long>(A.nnz()),
                static_cast<long>(layout.teams), bounds.shortRowsApart() ? "yes" : "no", op, bare, cusparse,
                verdict.c_str());
    std::fflush(stdout);
  }
  return differ == 0 ? 0 : 1;
}
