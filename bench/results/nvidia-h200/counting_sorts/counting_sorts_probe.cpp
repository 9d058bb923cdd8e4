// The conversions built on counting sorts and integer atomic counts, timed with 32- and 64-bit
// offsets: COO -> CSR and CSR -> CSC (primitives/bucket_sort.hpp: its count, cursor and sorts of
// the buckets) and CSR -> DIA (its count per diagonal). Built against the include folder of each
// version to compare (README.md); every line prints the hash of the result's arrays, which must
// be the same in every build.
//
// Matrices: the unseen suite (bench/generators/catalog.hpp) at SEED (default 606061, never drawn
// before); DIA on the stencil only. Each time is the median of REPS builds (default 5) after one
// warm-up. ONLY=NAME runs one matrix. A compare-and-swap loop on a contended counter can take
// minutes: run the build before the change with REPS=1 and a timeout.
//
// Built from the repository root with the cuda preset's Kokkos:
//   .deps/kokkos-cuda/bin/nvcc_wrapper -O3 -DNDEBUG -std=c++17 -arch=sm_90 -expt-extended-lambda \
//       -Xcompiler -fopenmp -IINCLUDE -Ibench -isystem .deps/kokkos-cuda/include \
//       bench/results/nvidia-h200/counting_sorts/counting_sorts_probe.cpp -o counting_sorts_probe \
//       -L.deps/kokkos-cuda/lib -lkokkoscore -ldl -lcuda
#include <araios/formats/coo/coo_convert.hpp>
#include <araios/formats/csc/csc_convert.hpp>
#include <araios/formats/dia/dia_convert.hpp>
#include <araios/hash.hpp>
#include <Kokkos_Core.hpp>
#include "generators/catalog.hpp"

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

using namespace araios;
using Exec = Kokkos::DefaultExecutionSpace;
using Device = Exec::device_type;

int repeats() {
  const char* text = std::getenv("REPS");
  return text ? std::max(1, std::atoi(text)) : 5;
}

template <class F>
double medianMs(const Exec& exec, const F& f) {
  f();
  exec.fence();
  std::vector<double> ms;
  for (int r = 0; r < repeats(); ++r) {
    const auto t0 = std::chrono::steady_clock::now();
    f();
    exec.fence();
    ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
  }
  std::sort(ms.begin(), ms.end());
  return ms[ms.size() / 2];
}

template <class Index>
Kokkos::View<Index*, Device> toDevice(const std::vector<std::int64_t>& v, const char* label) {
  Kokkos::View<Index*, Device> d(std::string(label), v.size());
  auto h = Kokkos::create_mirror_view(d);
  for (std::size_t i = 0; i < v.size(); ++i) h(i) = static_cast<Index>(v[i]);
  Kokkos::deep_copy(d, h);
  return d;
}

template <class Index>
void timeOne(const std::string& name, const io::HostMatrix& m) {
  const Exec exec;
  using Coo = CooMatrix<double, Index, Index, Device>;
  Coo coo;
  coo.numRows = static_cast<Index>(m.numRows);
  coo.numCols = static_cast<Index>(m.numCols);
  coo.rowIdx = toDevice<Index>(m.row, "rowIdx");
  coo.colIdx = toDevice<Index>(m.col, "colIdx");
  Kokkos::View<double*, Device> values("values", m.value.size());
  {
    auto h = Kokkos::create_mirror_view(values);
    for (std::size_t i = 0; i < m.value.size(); ++i) h(i) = m.value[i];
    Kokkos::deep_copy(values, h);
  }
  coo.values = values;
  const int bits = 8 * static_cast<int>(sizeof(Index));
  CsrMatrix<double, Index, Index, Device> csr;
  const double cooMs = medianMs(exec, [&] { csr = csrFromCoo(exec, coo); });
  std::printf("%-16s %2d-bit  coo->csr %9.3f ms  %s\n", name.c_str(), bits, cooMs, hashCsr(csr).c_str());
  CscMatrix<double, Index, Index, Device> csc;
  const double cscMs = medianMs(exec, [&] { csc = cscFromCsr(exec, csr); });
  std::printf("%-16s %2d-bit  csr->csc %9.3f ms  %s %s\n", name.c_str(), bits, cscMs, hashBits(csc.colPtr).c_str(),
              hashBits(csc.rowIdx).c_str());
  if (name.rfind("stencil", 0) == 0) {
    DiaMatrix<double, Index, Index, Device> dia;
    const double diaMs = medianMs(exec, [&] { dia = diaFromCsr(exec, csr); });
    std::printf("%-16s %2d-bit  csr->dia %9.3f ms  %s\n", name.c_str(), bits, diaMs, hashBits(dia.offsets).c_str());
  }
}

int main(int argc, char** argv) {
  Kokkos::ScopeGuard guard(argc, argv);
  std::setvbuf(stdout, nullptr, _IONBF, 0);  // a run stopped by its timeout keeps every line it printed
  const char* seedText = std::getenv("SEED");
  const std::uint64_t seed = seedText ? std::strtoull(seedText, nullptr, 10) : 606061;
  const char* only = std::getenv("ONLY");
  std::printf("# %s, unseen suite at seed %llu, median of %d after a warm-up\n", Exec::name(),
              static_cast<unsigned long long>(seed), repeats());
  for (const auto& e : bench::gen::unseenCatalog()) {
    if (e.name == "onerow-20k" || (only && e.name != only)) continue;
    const io::HostMatrix m = e.make(seed);
    timeOne<std::int32_t>(e.name, m);
    timeOne<std::int64_t>(e.name, m);
  }
  return 0;
}
