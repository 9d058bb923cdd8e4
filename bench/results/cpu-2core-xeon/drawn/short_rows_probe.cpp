// Deterministic csr-vector on a CPU (CsrLanesHostKernel) against csr-scalar in one process,
// alternating, median of 20 timed products after 3 warm-ups, on rows of 1 to 3, 4, 7 to 9, 12 to
// 16 and 26 entries and power-law rows. With SAVE set it writes csr-vector's y to
// /tmp/mp/lanes-NAME; without, it compares y with that file, so a build of the old kernel run
// with SAVE=1 and then the new one checks that the bits are the same. Output:
// short_rows_probe.txt. Built against the Kokkos of the openmp preset, from the repository root:
//   mkdir -p /tmp/mp && g++ -O3 -DNDEBUG -ffp-contract=off -fopenmp -std=c++17 -Iinclude \
//       -Ibench/results/cpu-2core-xeon/drawn -isystem .deps/kokkos-openmp/include \
//       bench/results/cpu-2core-xeon/drawn/short_rows_probe.cpp -o /tmp/short_rows_probe \
//       -L.deps/kokkos-openmp/lib -lkokkoscore -ldl
//   OMP_NUM_THREADS=2 OMP_PROC_BIND=false /tmp/short_rows_probe
#include <araios/formats/csr/csr_spmv.hpp>
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
int main(int argc, char** argv) {
  Kokkos::ScopeGuard g(argc, argv);
  const bool save = std::getenv("SAVE") != nullptr;
  std::uniform_real_distribution<double> u(0, 1);
  struct Case { const char* name; int rows; int lo, hi; double pl; } cases[] = {
    {"rows-1-3", 2000000, 1, 3, 0}, {"rows-4", 1600000, 3, 5, 0}, {"rows-7-9", 1000000, 7, 9, 0}, {"rows-12-16", 700000, 12, 16, 0},
    {"rows-26", 500000, 25, 27, 0}, {"powerlaw", 1000000, 3, 0, 1.1}};
  for (auto& c : cases) {
    Csr A = randomCsr<Csr>(c.rows, 11, [&](int, std::mt19937& rng) {
      if (c.pl > 0) return std::min<int>(c.rows, int(c.lo * std::pow(1 - u(rng), -1.0 / c.pl)));
      return c.lo + int(rng() % (c.hi - c.lo + 1)); });
    Kokkos::View<double*> x("x", c.rows), y1("y1", c.rows), y2("y2", c.rows);
    { auto hx = Kokkos::create_mirror_view(x); for (int i = 0; i < c.rows; ++i) hx(i) = std::ldexp(0.25 + (i % 97) * 0.013, i % 19 - 9); Kokkos::deep_copy(x, hx); }
    Kokkos::View<const double*> xc = x;
    Exec exec;
    std::vector<double> tL, tS;
    for (int r = 0; r < 23; ++r) {
      Kokkos::Timer t;
      Impl::csrLanesSpmv(exec, A, xc, y1, 1.0, 0.0, double(A.nnz()) / c.rows, false);
      exec.fence(); if (r >= 3) tL.push_back(t.seconds());
      t.reset();
      Impl::csrRowSpmv(exec, A, xc, y2, 1.0, 0.0, Mode::Deterministic, "scalar");
      exec.fence(); if (r >= 3) tS.push_back(t.seconds());
    }
    std::sort(tL.begin(), tL.end()); std::sort(tS.begin(), tS.end());
    auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), y1);
    const char* verdict = saveOrCompareBits(std::string("/tmp/mp/lanes-") + c.name, h.data(), c.rows, save);
    std::printf("%-11s nnz %9ld  det csr-vector %7.2f ms  csr-scalar %7.2f ms  ratio %.2f  %s\n", c.name, (long)A.nnz(),
                tL[10] * 1e3, tS[10] * 1e3, tL[10] / tS[10], verdict);
  }
}
