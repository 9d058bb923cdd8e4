// csr-merge on a CPU against csr-scalar, in one process, alternating, median of 20 timed runs
// after 3 warm-ups, on five generated matrices: uniform rows of 4 and of 26, power-law rows
// (exponent 2.1), four rows of 10^6 among rows of 3, one row of 20,000 among rows of 1. With SAVE
// set it writes csr-merge's y to /tmp/mp/bits-NAME; without, it compares y with that file, so a
// build of the old kernel run with SAVE=1 and then the new one checks that the bits are the same.
// Output: merge_probe.txt. Built against the Kokkos of the openmp preset, from the repository root:
//   mkdir -p /tmp/mp && g++ -O3 -DNDEBUG -ffp-contract=off -fopenmp -std=c++17 -Iinclude \
//       -isystem .deps/kokkos-openmp/include bench/results/cpu-2core-xeon/drawn/merge_probe.cpp \
//       -o /tmp/merge_probe -L.deps/kokkos-openmp/lib -lkokkoscore -ldl
//   OMP_NUM_THREADS=2 OMP_PROC_BIND=false /tmp/merge_probe
#include <araios/formats/csr/csr_merge.hpp>
#include <araios/formats/csr/csr_rows.hpp>
#include <Kokkos_Core.hpp>
#include "probe_csr.hpp"
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>
using namespace araios;
using Exec = Kokkos::OpenMP;
using Csr = CsrMatrix<double, int, int, Exec::device_type>;
Csr make(int rows, double per, int longRows, int longLen, double powerlaw, unsigned seed) {
  std::uniform_real_distribution<double> u(0, 1);
  return randomCsr<Csr>(rows, seed, [&](int i, std::mt19937& rng) {
    if (longRows && i % (rows / longRows) == 7) return longLen;
    if (powerlaw > 0) return std::min<int>(rows, int(per * std::pow(1 - u(rng), -1.0 / powerlaw)));
    return int(per) + int(rng() % 3) - 1;
  });
}
int main(int argc, char** argv) {
  Kokkos::ScopeGuard g(argc, argv);
  const bool save = std::getenv("SAVE") != nullptr;
  struct Case { const char* name; int rows; double per; int nlong, lenlong; double pl; } cases[] = {
    {"uniform-4", 1600000, 4, 0, 0, 0}, {"uniform-26", 500000, 26, 0, 0, 0}, {"powerlaw-2.1", 1000000, 3, 0, 0, 1.1},
    {"long-rows", 1000000, 3, 4, 1000000, 0}, {"one-row", 20000, 1, 1, 20000, 0}};
  for (auto& c : cases) {
    Csr A = make(c.rows, c.per, c.nlong, c.lenlong, c.pl, 11);
    Kokkos::View<double*> x("x", c.rows), y1("y1", c.rows), y3("y3", c.rows);
    Kokkos::deep_copy(x, 0.5);
    { auto hx = Kokkos::create_mirror_view(x); for (int i = 0; i < c.rows; ++i) hx(i) = 0.25 + (i % 97) * 0.013; Kokkos::deep_copy(x, hx); }
    using XV = Kokkos::View<const double*>; XV xc = x;
    Exec exec;
    Kokkos::View<double*> work("w", Impl::csrMergeWorkspaceValues<Exec>(A));
    std::vector<double> tM, tS;
    for (int r = 0; r < 23; ++r) {
      Kokkos::deep_copy(y1, std::nan(""));
      Kokkos::Timer t;
      Impl::csrMergePass<Impl::RoundedMergeSum<double>>(exec, A, xc, y1, 1.0, 0.0, work);
      exec.fence(); if (r >= 3) tM.push_back(t.seconds());
      t.reset();
      Impl::csrRowSpmv(exec, A, xc, y3, 1.0, 0.0, Mode::Deterministic, "scalar");
      exec.fence(); if (r >= 3) tS.push_back(t.seconds());
    }
    std::sort(tM.begin(), tM.end()); std::sort(tS.begin(), tS.end());
    auto h1 = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), y1);
    const char* verdict = saveOrCompareBits(std::string("/tmp/mp/bits-") + c.name, h1.data(), c.rows, save);
    std::printf("%-13s nnz %9ld  csr-merge %7.2f ms  csr-scalar %7.2f ms  merge/scalar %.2f  %s\n", c.name, (long)A.nnz(),
                tM[10] * 1e3, tS[10] * 1e3, tM[10] / tS[10], verdict);
  }
}
