// csr-vector's Deterministic product on a CPU, three ways in one process, alternating, median of
// 20 timed runs after 3 warm-ups: the team kernel CPUs ran before (CsrLanesKernel, each lane a
// strided pass over its row, lane sums in team scratch), the row kernel they run now
// (csrLanesPortableSpmv -> CsrLanesHostKernel) and csr-scalar (csrRowSpmv) for scale; the first
// two must give the same bits. Output: lanes_probe.txt. Built against the Kokkos of the openmp
// preset, from the repository root:
//   g++ -O3 -DNDEBUG -ffp-contract=off -fopenmp -std=c++17 -Iinclude -isystem .deps/kokkos-openmp/include \
//       bench/results/cpu-2core-xeon/drawn/lanes_probe.cpp -o /tmp/lanes_probe \
//       -L.deps/kokkos-openmp/lib -lkokkoscore -ldl
//   OMP_NUM_THREADS=2 OMP_PROC_BIND=false /tmp/lanes_probe
#include <araios/formats/csr/csr_spmv.hpp>
#include <Kokkos_Core.hpp>
#include "probe_csr.hpp"
#include <algorithm>
#include <cstring>
#include <cstdio>
#include <random>
#include <vector>
using namespace araios;
using Exec = Kokkos::OpenMP;
using Csr = CsrMatrix<double, int, int, Exec::device_type>;
Csr make(int rows, int perRow, int longRows, int longLen, unsigned seed) {
  return randomCsr<Csr>(rows, seed, [&](int i, std::mt19937&) {
    return (i % (rows / std::max(1, longRows) + 1) == 0 && longRows) ? longLen : perRow;
  });
}
int main(int argc, char** argv) {
  Kokkos::ScopeGuard g(argc, argv);
  struct Case { const char* name; int rows, per, nlong, lenlong; } cases[] = {
    {"uniform-4", 1600000, 4, 0, 0}, {"uniform-26", 700000, 26, 0, 0}, {"rows-of-200", 60000, 200, 0, 0}, {"long-rows", 1000000, 3, 4, 1000000}};
  for (auto& c : cases) {
    Csr A = make(c.rows, c.per, c.nlong, c.lenlong, 7);
    Kokkos::View<double*> x("x", c.rows), y1("y1", c.rows), y2("y2", c.rows);
    Kokkos::deep_copy(x, 0.5);
    using XV = Kokkos::View<const double*>; XV xc = x;
    std::vector<double> tOld, tNew, tRow;
    Kokkos::View<double*> y3("y3", c.rows);
    Exec exec;
    using Old = Impl::CsrLanesKernel<Exec, Csr, XV, Kokkos::View<double*>>;
    const auto shape = Impl::csrLanesShape<Exec>(double(A.nnz()) / A.numRows);
    const int teams = (A.numRows + shape.rowsPerTeam - 1) / shape.rowsPerTeam;
    for (int r = 0; r < 23; ++r) {
      Kokkos::Timer t;
      Kokkos::parallel_for(Kokkos::TeamPolicy<Exec>(exec, teams, shape.teamSize, shape.vectorLength)
          .set_scratch_size(0, Kokkos::PerTeam(Old::LaneSums::shmem_size(shape.teamSize, Impl::kCanonicalLanes))),
          Old{A, xc, y1, 1.0, 0.0, shape.rowsPerTeam});
      exec.fence(); if (r >= 3) tOld.push_back(t.seconds());
      t.reset();
      Impl::csrLanesPortableSpmv(exec, A, xc, y2, 1.0, 0.0, double(A.nnz()) / A.numRows);
      exec.fence(); if (r >= 3) tNew.push_back(t.seconds());
      t.reset();
      Impl::csrRowSpmv(exec, A, xc, y3, 1.0, 0.0, Mode::Deterministic, "scalar");
      exec.fence(); if (r >= 3) tRow.push_back(t.seconds());
    }
    std::sort(tOld.begin(), tOld.end()); std::sort(tNew.begin(), tNew.end()); std::sort(tRow.begin(), tRow.end());
    auto h1 = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), y1), h2 = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), y2);
    bool same = true; for (int i = 0; i < c.rows; ++i) same &= std::memcmp(&h1(i), &h2(i), 8) == 0;
    std::printf("%-12s nnz %9ld  team kernel %7.2f ms  row kernel %7.2f ms  ratio %.2f  same bits %s  csr-scalar %7.2f ms (row kernel / csr-scalar %.2f)\n", c.name, (long)A.nnz(), tOld[10]*1e3, tNew[10]*1e3, tNew[10]/tOld[10], same ? "yes" : "NO", tRow[10]*1e3, tNew[10]/tRow[10]);
  }
}
