// csr-merge's product on a GPU: the same program built against several versions of the kernel:
// the library's (a launch per level of the tree above the teams), the one that joins that tree
// inside its one launch (branch csr-merge-one-launch, 7d17f4a), and copies of the library's
// include folder with other launch constants (README.md). On each matrix it times an operator's
// product (bounds searched once) and a bare product, 200 back to back after 20 warm-ups, and
// writes y to DIR/bits-NAME (SAVE set) or compares y with that file bit for bit. Matrices: one
// row of 2,000,000 entries among rows of 1, 95 rows of 41,232 among short rows, a circuit-like
// matrix (rows of 1 to 9, one in 400 of 2,000 to 27,000), power-law rows (exponent 2.1),
// uniform rows of 4, and small matrices of 20,000 rows where the fixed costs show.
// Built from the repository root with the cuda preset's Kokkos (INCLUDE: the include folder of
// the kernel to measure):
//   .deps/kokkos-cuda/bin/nvcc_wrapper -O3 -DNDEBUG -std=c++17 -arch=sm_90 -expt-extended-lambda -Xcompiler -fopenmp \
//       -IINCLUDE -Ibench/results/cpu-2core-xeon/drawn -isystem .deps/kokkos-cuda/include \
//       bench/results/nvidia-h100/merge_one_launch/merge_gpu_probe.cpp -o merge_gpu_probe \
//       -L.deps/kokkos-cuda/lib -lkokkoscore -ldl -lcuda
//   SAVE=1 DIR=/tmp/mp ./merge_gpu_probe_levels; DIR=/tmp/mp ./merge_gpu_probe_one_launch
#include <araios/formats/csr/csr_merge.hpp>
#include <Kokkos_Core.hpp>
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

int main(int argc, char** argv) {
  Kokkos::ScopeGuard guard(argc, argv);
  const bool save = std::getenv("SAVE") != nullptr;
  const std::string dir = std::getenv("DIR") ? std::getenv("DIR") : "/tmp/mp";
  const std::vector<ProbeCase> cases = gpuProbeCases();
  std::printf("%-14s %10s %6s %14s %12s  %s\n", "matrix", "nnz", "teams", "operator us", "bare us", "bits");
  int differ = 0;
  for (const auto& c : cases) {
    const Csr A = randomCsr<Csr>(c.rows, 17, c.length);
    Kokkos::View<double*> x("x", c.rows), y("y", c.rows);
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
    // y from a poisoned start, so that an unwritten row shows.
    Kokkos::deep_copy(y, std::nan(""));
    Impl::csrMergePass<Impl::RoundedMergeSum<double>>(exec, A, xc, y, 1.0, 0.0, work, bounds);
    exec.fence();
    const auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), y);
    const std::string verdict = saveOrCompareBits(dir + "/bits-" + c.name, h.data(), c.rows, save);
    differ += verdict == "BITS DIFFER" ? 1 : 0;
    std::printf("%-14s %10ld %6ld %14.1f %12.1f  %s\n", c.name, static_cast<long>(A.nnz()),
                static_cast<long>(layout.teams), op, bare, verdict.c_str());
    std::fflush(stdout);
  }
  return differ == 0 ? 0 : 1;
}
