// forEachRowEntry timed alone: COO's row expansion (each position gets its row) of 2,097,152
// power-law rows of 1 to 4,877 entries, three calls, on the default execution space.
//
//   g++ -O2 -std=c++17 -fopenmp -Iinclude -isystem .deps/kokkos-openmp/include \
//       bench/results/nvidia-h200/row_entries_fill/row_entries_probe.cpp -o /tmp/row_entries_probe \
//       -L.deps/kokkos-openmp/lib -lkokkoscore -ldl
//   OMP_NUM_THREADS=2 /tmp/row_entries_probe
#include <araios/detail/for_each_row_entry.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <random>

struct ExpandRows {
  Kokkos::View<int*> major;
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t row, std::int64_t k, std::int64_t) const {
    major(k) = static_cast<int>(row);
  }
};

int main(int argc, char** argv) {
  Kokkos::ScopeGuard kokkos(argc, argv);
  const std::int64_t n = 2097152;
  std::mt19937_64 rng(5);
  std::uniform_real_distribution<double> uniform(0, 1);
  Kokkos::View<std::int64_t*> ptr("ptr", n + 1);
  auto host = Kokkos::create_mirror_view(ptr);
  std::int64_t longRows = 0;
  for (std::int64_t i = 0; i < n; ++i) {
    const std::int64_t length = std::min<std::int64_t>(4877, static_cast<std::int64_t>(3.0 / std::pow(uniform(rng) + 1e-9, 0.6)));
    longRows += length > 64;
    host(i + 1) = host(i) + length;
  }
  Kokkos::deep_copy(ptr, host);
  Kokkos::View<int*> major("major", host(n));
  std::printf("entries %lld, rows past 64 entries %lld\n", static_cast<long long>(host(n)),
              static_cast<long long>(longRows));
  for (int call = 0; call < 3; ++call) {
    const auto start = std::chrono::steady_clock::now();
    araios::Impl::forEachRowEntry("probe", Kokkos::DefaultExecutionSpace(), ptr, ExpandRows{major});
    Kokkos::fence();
    std::printf("%.2f ms\n", std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
  }
}
