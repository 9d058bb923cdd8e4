// Accurate mode on a CPU with the exact accumulator's split of a double read from its bits, against
// frexp and ldexp: the same program built against the include folder of each version (README.md)
// and run alternately. Times the accurate dot of two vectors and CSR's product in Fast and
// Accurate mode (csr-scalar and csr-vector; Accurate runs the CSR accurate kernel either way) on
// three generated matrices, each the median of 7 runs after one warm-up, and prints the hash of
// every accurate result, which must be the same in both builds.
//
// Built from the repository root with the openmp preset's Kokkos, header-only (hence no
// contraction, as Araios::araios_header_only asks):
//   g++ -O3 -DNDEBUG -std=c++17 -fopenmp -ffp-contract=off -IINCLUDE -isystem .deps/kokkos-openmp/include \
//       bench/results/cpu-2core-xeon/accurate_split/accurate_split_probe.cpp -o accurate_split_probe \
//       -L.deps/kokkos-openmp/lib -lkokkoscore -ldl
#include <araios/formats/csr/csr.hpp>
#include <araios/hash.hpp>
#include <araios/primitives/deterministic_reduce.hpp>
#include <araios/spmv.hpp>

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

using namespace araios;
using Exec = Kokkos::DefaultExecutionSpace;
using Device = Exec::device_type;
using Csr = CsrMatrix<double, int, int, Device>;
using Vector = Kokkos::View<double*, Device>;

template <class F>
double medianMs(const F& f) {
  f();
  Kokkos::fence();
  std::vector<double> ms;
  for (int r = 0; r < 7; ++r) {
    const auto t0 = std::chrono::steady_clock::now();
    f();
    Kokkos::fence();
    ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
  }
  std::sort(ms.begin(), ms.end());
  return ms[ms.size() / 2];
}

/// rows rows of `length(i)` entries in columns drawn from [i - band, i + band] (band 0: anywhere),
/// values in [-1, 1) so that the sums cancel.
template <class Length>
Csr makeCsr(int rows, int band, std::uint64_t seed, const Length& length) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> value(-1.0, 1.0);
  std::vector<int> ptr{0}, col;
  std::vector<double> val;
  for (int i = 0; i < rows; ++i) {
    const int n = length(i);
    std::vector<int> c(n);
    for (int& v : c) {
      const std::int64_t lo = band ? std::max(0, i - band) : 0, hi = band ? std::min(rows - 1, i + band) : rows - 1;
      v = static_cast<int>(lo + static_cast<std::int64_t>(rng() % static_cast<std::uint64_t>(hi - lo + 1)));
    }
    std::sort(c.begin(), c.end());
    for (int v : c) {
      col.push_back(v);
      val.push_back(value(rng));
    }
    ptr.push_back(static_cast<int>(col.size()));
  }
  Csr A;
  A.numRows = A.numCols = rows;
  A.rowPtr = Kokkos::View<int*, Device>("ptr", ptr.size());
  A.colIdx = Kokkos::View<int*, Device>("col", col.size());
  A.values = Kokkos::View<double*, Device>("val", val.size());
  Kokkos::deep_copy(A.rowPtr, Kokkos::View<int*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(ptr.data(), ptr.size()));
  Kokkos::deep_copy(A.colIdx, Kokkos::View<int*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(col.data(), col.size()));
  Kokkos::deep_copy(A.values, Kokkos::View<double*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(val.data(), val.size()));
  return A;
}

Vector randomVector(std::int64_t n, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> value(-1.0, 1.0);
  Vector v("v", n);
  auto h = Kokkos::create_mirror_view(v);
  for (std::int64_t i = 0; i < n; ++i) h(i) = value(rng);
  Kokkos::deep_copy(v, h);
  return v;
}

void timeProducts(const std::string& name, const Csr& A) {
  const Exec exec;
  const Vector x = randomVector(A.numCols, 7), y("y", A.numRows);
  for (const auto algorithm : {SpmvAlgorithm::CsrScalar, SpmvAlgorithm::CsrVector}) {
    const double fast = medianMs([&] { spmv(exec, A, x, y, 1.0, 0.0, {algorithm, Mode::Fast}); });
    const double accurate = medianMs([&] { spmv(exec, A, x, y, 1.0, 0.0, {algorithm, Mode::Accurate}); });
    std::printf("%-22s %-10s fast %9.3f ms  accurate %9.3f ms  %5.2fx  %s\n", name.c_str(), toString(algorithm), fast,
                accurate, accurate / fast, hashBits(y).c_str());
  }
}

int main(int argc, char** argv) {
  Kokkos::ScopeGuard guard(argc, argv);
  std::printf("# %s, %d threads, median of 7 after a warm-up\n", Exec::name(), Exec().concurrency());
  {
    const std::int64_t n = std::int64_t(1) << 24;
    const Vector x = randomVector(n, 1), y = randomVector(n, 2);
    ReductionWorkspace<double, Device> ws;
    Vector slot("slot", 1);
    const DeviceScalar<double, Device> target{slot, 0};
    const double ms = medianMs([&] { dot(Exec(), x, y, target, ReductionMode::Accurate, ws); });
    std::printf("%-22s %-10s accurate %9.3f ms  %6.2f GB/s  %s\n", "dot, 2^24 doubles", "", ms, 2.0 * n * 8 / ms * 1e-6,
                hashBits(slot).c_str());
  }
  timeProducts("rows of 4, band 16", makeCsr(1 << 20, 16, 11, [](int) { return 4; }));
  timeProducts("rows of 27, band 64", makeCsr(1 << 18, 64, 12, [](int) { return 27; }));
  timeProducts("rows of 1-200, random", makeCsr(1 << 17, 0, 13, [](int i) { return 1 + (i * 7919) % 200; }));
  return 0;
}
