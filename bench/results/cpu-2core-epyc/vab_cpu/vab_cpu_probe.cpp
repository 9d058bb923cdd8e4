// VAB's product on a CPU, three forms timed in one process on generated matrices, their bits compared:
//   two     the two kernels the library runs on a CPU (a thread per block, then a thread per row);
//   team    the GPU's one-kernel form with a team of one thread and 1,024 blocks (vab_team_sums.hpp);
//   walk    a thread per row that sums its own blocks, with no workspace (static and dynamic schedules).
// Build: g++ -O3 -fopenmp -ffp-contract=off -std=c++17 -I include -I .deps/kokkos-openmp/include \
//        vab_cpu_probe.cpp -L .deps/kokkos-openmp/lib -lkokkoscore -ldl
#include <araios/araios.hpp>
#include <araios/formats/vab/vab_convert.hpp>
#include <araios/formats/vab/vab_spmv.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <random>
#include <string>
#include <vector>

using namespace araios;
using Exec = Kokkos::OpenMP;
using Csr = CsrMatrix<double, int, int, Exec::device_type>;
using Vab = VabMatrix<double, int, int, Exec::device_type>;
using Vec = Kokkos::View<double*, Exec::device_type>;

template <class Schedule>
struct RowWalk {
  Vab A;
  Vec x, y;
  KOKKOS_INLINE_FUNCTION void operator()(int row) const {
    double sum = Impl::sumIdentity<double>();
    for (int b = A.rowBlockPtr(row); b < A.rowBlockPtr(row + 1); ++b) {
      double block = Impl::sumIdentity<double>();
      for (int k = 0; k < kVabBlockWidth; ++k) {
        const int slot = Vab::slot(b, k);
        const int col = A.colIdx(slot);
        if (col == Vab::paddingColumn) break;
        Impl::accumulateProduct(block, A.values(slot), x(col));
      }
      sum = Impl::unfusedSum(sum, block);
    }
    y(row) = sum;
  }
};

io::HostMatrix generate(const std::string& kind, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> value(-1, 1);
  io::HostMatrix m;
  const std::int64_t n = 1 << 19;
  m.numRows = m.numCols = n;
  auto push = [&](std::int64_t r, std::int64_t c) { m.row.push_back(r), m.col.push_back(c), m.value.push_back(value(rng)); };
  std::uniform_int_distribution<std::int64_t> any(0, n - 1);
  for (std::int64_t r = 0; r < n; ++r) {
    std::vector<std::int64_t> cols;
    std::int64_t len = 0;
    if (kind == "rows2") len = 2;
    if (kind == "rows8") len = 8;
    if (kind == "rows26") len = 26;
    if (kind == "band27") {
      for (std::int64_t d = -13; d <= 13; ++d) if (r + d >= 0 && r + d < n) cols.push_back(r + d);
    }
    if (kind == "powerlaw") len = std::min<std::int64_t>(n, static_cast<std::int64_t>(2.0 / std::pow(1 - std::uniform_real_distribution<double>(0, 1)(rng), 1 / 1.1)));
    if (kind == "longrow") len = r == 7 ? 400000 : 3;
    for (std::int64_t k = 0; k < len; ++k) cols.push_back(any(rng));
    std::sort(cols.begin(), cols.end());
    cols.erase(std::unique(cols.begin(), cols.end()), cols.end());
    for (const auto c : cols) push(r, c);
  }
  return m;
}

template <class F>
double median(F&& f, int reps) {
  std::vector<double> t;
  for (int i = 0; i < reps; ++i) {
    const auto a = std::chrono::steady_clock::now();
    f();
    Exec().fence();
    t.push_back(std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - a).count());
  }
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}

int main(int argc, char** argv) {
  Kokkos::ScopeGuard guard(argc, argv);
  Exec exec;
  std::printf("matrix nnz two team walk-static walk-dynamic (us, medians of 3 rounds x 15); bits\n");
  for (const std::string kind : {"rows2", "rows8", "rows26", "band27", "powerlaw", "longrow"}) {
    const auto host = generate(kind, 9001);
    const auto csr = csrFromHost<Csr>(host);
    FormatOptions force;
    force.force = true;
    const Vab A = vabFromCsr(exec, csr, force);
    Vec x("x", host.numCols), y1("y1", host.numRows), y2("y2", host.numRows), y3("y3", host.numRows),
        work("work", A.numBlocks);
    Kokkos::deep_copy(x, 0.5);
    {
      auto h = Kokkos::create_mirror_view(x);
      std::mt19937_64 rng(5);
      for (std::size_t i = 0; i < h.extent(0); ++i) h(i) = std::uniform_real_distribution<double>(-1, 1)(rng);
      Kokkos::deep_copy(x, h);
    }
    const auto plan = Impl::vabTeamPlan(exec, A, 1024);
    SpmvOptions options;
    auto two = [&] { Impl::Spmv<Exec, Vab>::apply(exec, A, x, y1, 1.0, 0.0, options, work, Impl::VabTeamPlan<int, Exec::device_type>()); };
    auto team = [&] { Impl::vabTeamProduct(exec, A, x, y2, 1.0, 0.0, plan, 1); };
    auto walkStatic = [&] {
      Kokkos::parallel_for(Kokkos::RangePolicy<Exec>(exec, 0, A.numRows), RowWalk<int>{A, x, y3});
    };
    auto walkDynamic = [&] {
      Kokkos::parallel_for(Kokkos::RangePolicy<Exec, Kokkos::Schedule<Kokkos::Dynamic>>(exec, 0, A.numRows),
                           RowWalk<int>{A, x, y3});
    };
    std::vector<double> best(4, 1e30);
    for (int round = 0; round < 3; ++round) {
      best[0] = std::min(best[0], median(two, 15));
      best[1] = std::min(best[1], median(team, 15));
      best[2] = std::min(best[2], median(walkStatic, 15));
      best[3] = std::min(best[3], median(walkDynamic, 15));
    }
    auto h1 = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), y1);
    auto h2 = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), y2);
    auto h3 = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), y3);
    const bool same = std::memcmp(h1.data(), h2.data(), h1.extent(0) * 8) == 0 &&
                      std::memcmp(h1.data(), h3.data(), h1.extent(0) * 8) == 0;
    std::printf("%s %lld %.1f %.1f %.1f %.1f %s\n", kind.c_str(), static_cast<long long>(host.nnz()), best[0], best[1],
                best[2], best[3], same ? "same" : "DIFFER");
  }
  return 0;
}
