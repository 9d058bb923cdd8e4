// The multi-dot chunk pass on the host with the lane chains through libm (hostFma false) and with the FMA
// instruction (true), alternately in one process; best of 12 each, and whether the chunk sums have the same bits.
// Built against the openmp preset's Kokkos, from the repository root:
//   g++ -O2 -std=c++17 -fopenmp -ffp-contract=off -Iinclude -isystem .deps/kokkos-openmp/include \
//       bench/results/cpu-2core-xeon/dot_fma/multidot_probe.cpp -o /tmp/multidot_probe \
//       -L.deps/kokkos-openmp/lib -lkokkoscore -ldl
//   OMP_NUM_THREADS=2 OMP_PROC_BIND=spread /tmp/multidot_probe
#include <araios/primitives/chunked_multi_dots.hpp>
#include <Kokkos_Core.hpp>
#include <cstdio>
#include <cstring>
#include <algorithm>
using namespace araios::Impl;
int main(int argc, char** argv) {
  Kokkos::ScopeGuard g(argc, argv);
  using Exec = Kokkos::DefaultHostExecutionSpace;
  using Dev = Exec::device_type;
  for (const std::int64_t n : {std::int64_t(1) << 18, std::int64_t(1) << 21}) {
    for (const int count : {1, 8, 31}) {
      Kokkos::View<double**, Kokkos::LayoutLeft, Dev> V("V", n, count);
      Kokkos::View<double*, Dev> w("w", n);
      Kokkos::parallel_for(Kokkos::RangePolicy<Exec>(0, n), KOKKOS_LAMBDA(std::int64_t i) {
        w(i) = 1.0 / (i + 1); for (int j = 0; j < count; ++j) V(i, j) = 1.0 / (i + j + 2); });
      auto partials = allocateMultiPartials<double, Dev>(n, count, "p");
      using Entry = VectorEntry<decltype(w), double>;
      using Kernel = ChunkedMultiDotsKernel<Exec, double, Dev, decltype(V), Entry>;
      double best[2] = {1e9, 1e9};
      std::vector<double> bits[2];
      for (int rep = 0; rep < 12; ++rep) {
        for (int f = 0; f < 2; ++f) {
          Kokkos::TeamPolicy<Exec> policy(static_cast<int>(dotChunks(n)), 1);
          Kokkos::Timer t;
          Kokkos::parallel_for("x", policy.set_scratch_size(0, Kokkos::PerTeam(Kernel::scratchBytes())),
                               Kernel{Entry{w}, V, partials, count, n, f == 1});
          Kokkos::fence();
          best[f] = std::min(best[f], t.seconds());
          if (rep == 0) { auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), partials); bits[f].assign(h.data(), h.data() + h.size()); }
        }
      }
      const bool same = bits[0].size() == bits[1].size() && std::memcmp(bits[0].data(), bits[1].data(), bits[0].size() * 8) == 0;
      std::printf("n=%lld count=%d  libm %.3f ms  fma %.3f ms  ratio %.2f  same bits %s  (%.1f / %.1f GB/s)\n", (long long)n, count,
                  best[0] * 1e3, best[1] * 1e3, best[0] / best[1], same ? "yes" : "NO",
                  (count + 1) * n * 8.0 / best[0] / 1e9, (count + 1) * n * 8.0 / best[1] / 1e9);
    }
  }
}
