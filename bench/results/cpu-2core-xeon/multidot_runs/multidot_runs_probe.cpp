// GMRES's multi-dot chunk pass on a CPU (multiDotChunkPass, primitives/chunked_multi_dots.hpp), the same program
// built against the include folder of each version (README.md) and run alternately: best of 12 passes per shape,
// GB/s counting w and the columns read once, and a hash of every chunk sum, which must be the same in both builds.
//   g++ -O2 -std=c++17 -fopenmp -ffp-contract=off -IINCLUDE -isystem .deps/kokkos-openmp/include \
//       bench/results/cpu-2core-xeon/multidot_runs/multidot_runs_probe.cpp -o multidot_runs_probe \
//       -L.deps/kokkos-openmp/lib -lkokkoscore -ldl
//   OMP_NUM_THREADS=2 OMP_PROC_BIND=false ./multidot_runs_probe
#include <araios/hash.hpp>
#include <araios/primitives/chunked_multi_dots.hpp>
#include <Kokkos_Core.hpp>
#include <algorithm>
#include <cstdio>
using namespace araios::Impl;
int main(int argc, char** argv) {
  Kokkos::ScopeGuard guard(argc, argv);
  using Exec = Kokkos::DefaultHostExecutionSpace;
  using Dev = Exec::device_type;
  std::printf("# %s, %d threads, best of 12\n", Exec::name(), Exec().concurrency());
  for (const std::int64_t n : {std::int64_t(1) << 18, std::int64_t(1) << 21, std::int64_t(1) << 23}) {
    for (const int count : {1, 8, 31}) {
      Kokkos::View<double**, Kokkos::LayoutLeft, Dev> V("V", n, count);
      Kokkos::View<double*, Dev> w("w", n);
      Kokkos::parallel_for(Kokkos::RangePolicy<Exec>(0, n), KOKKOS_LAMBDA(std::int64_t i) {
        w(i) = 1.0 / static_cast<double>(i + 1);
        for (int j = 0; j < count; ++j) V(i, j) = 1.0 / static_cast<double>(i + j + 2);
      });
      auto partials = allocateMultiPartials<double, Dev>(n, count, "partials");
      double best = 1e9;
      for (int rep = 0; rep < 12; ++rep) {
        Kokkos::Timer timer;
        multiDotChunkPass("probe", Exec(), n, VectorEntry<decltype(w), double>{w}, V, count, partials);
        Exec().fence();
        best = std::min(best, timer.seconds());
      }
      auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), partials);
      const double bytes = 8.0 * static_cast<double>(n) * (count + 1);
      std::printf("n = 2^%-2d  columns %2d  %8.3f ms  %6.1f GB/s  %s\n", n == (1 << 18) ? 18 : n == (1 << 21) ? 21 : 23,
                  count, best * 1e3, bytes / best * 1e-9,
                  araios::toHex(araios::fnv1a(h.data(), h.size() * sizeof(double))).c_str());
    }
  }
  return 0;
}
