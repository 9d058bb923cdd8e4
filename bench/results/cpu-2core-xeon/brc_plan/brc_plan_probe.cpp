// BRC's host plan (planBrc, formats/brc/brc_convert.hpp) timed alone on 2.26 million rows of 8 to 16 and of 8 to 207
// entries: the same program built against the include folder of each version (README.md), run alternately. Each
// line prints a hash of the whole plan, which must be the same in both builds.
//   g++ -O3 -DNDEBUG -std=c++17 -fopenmp -IINCLUDE -isystem .deps/kokkos-openmp/include \
//       bench/results/cpu-2core-xeon/brc_plan/brc_plan_probe.cpp -o brc_plan_probe -L.deps/kokkos-openmp/lib -lkokkoscore -ldl
#include <araios/formats/brc/brc_convert.hpp>
#include <chrono>
#include <cstdio>
#include <random>
int main() {
  std::mt19937_64 rng(5);
  for (const int spread : {9, 200}) {
    std::vector<std::int64_t> ptr{0};
    for (int i = 0; i < 2260000; ++i) ptr.push_back(ptr.back() + 8 + static_cast<std::int64_t>(rng() % spread));
    for (int r = 0; r < 3; ++r) {
      const auto t0 = std::chrono::steady_clock::now();
      const auto plan = araios::Impl::planBrc(ptr, spread == 9 ? 14 : 120);
      const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
      std::uint64_t h = 0;
      for (std::size_t p = 0; p < plan.slotRows.row.size(); ++p) h = h * 1000003 + plan.slotRows.row[p] * 31 + plan.slotRows.first[p] * 7 + plan.slotRows.count[p];
      for (auto v : plan.nzPerBlock) h = h * 31 + v;
      std::printf("rows of 8-%d: planBrc %.1f ms  (%zu slot rows, hash %016llx)\n", 7 + spread, ms, plan.slotRows.row.size(), (unsigned long long)h);
    }
  }
}
