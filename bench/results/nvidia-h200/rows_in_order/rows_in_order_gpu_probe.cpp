// The walk in CSR order of COO, CSC and HYB (Deterministic mode) on a GPU: the same program
// built against the library before detail/rows_in_order.hpp (a thread per row, whatever its
// length) and after (a team per block of rows, a long row read by the whole team), and against
// copies of the include folder with other limits (kLongRowEntries). On each matrix it times
// each product, back to back after warm-ups (5 batches of 40, or of 2 where a product takes
// over 2 ms), and writes y to DIR/bits-NAME-KERNEL (SAVE set) or compares y with that file bit
// for bit. csr-scalar (CSR order too) and COO's Fast mode are timed beside them for scale, and,
// where the library has the walk, CSR through its team walk ("csr-walk", compared with
// csr-scalar's bits). Where the library plans the walk (RowWalkPlan), COO, CSC and HYB run with
// the plan an operator keeps, made once before the timing.
// Matrices: one row of 2,000,000 entries among rows of 1, 95 rows of 41,232 among short rows, a
// circuit-like matrix (rows of 1 to 9, one in 400 of 2,000 to 27,000), power-law rows
// (exponent 2.1), uniform rows of 4, and a small one with one row of 20,000.
// Built from the repository root with the cuda preset's Kokkos (INCLUDE: the include folder of
// the library to measure):
//   .deps/kokkos-cuda/bin/nvcc_wrapper -O3 -DNDEBUG -std=c++17 -arch=sm_90 -expt-extended-lambda -Xcompiler -fopenmp \
//       -IINCLUDE -Ibench/results/cpu-2core-xeon/drawn -isystem .deps/kokkos-cuda/include \
//       bench/results/nvidia-h200/rows_in_order/rows_in_order_gpu_probe.cpp -o probe \
//       -L.deps/kokkos-cuda/lib -lkokkoscore -ldl -lcuda
//   SAVE=1 DIR=/tmp/rio ./probe_before; DIR=/tmp/rio ./probe_after
#include <araios/formats/coo/coo_convert.hpp>
#include <araios/formats/coo/coo_spmv.hpp>
#include <araios/formats/csc/csc_convert.hpp>
#include <araios/formats/csc/csc_spmv.hpp>
#include <araios/formats/csr/csr_spmv.hpp>
#include <araios/formats/hyb/hyb_convert.hpp>
#include <araios/formats/hyb/hyb_spmv.hpp>
#include <Kokkos_Core.hpp>
#include "probe_csr.hpp"
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdint>
#include <cstdlib>
#include <functional>
#include <random>
#include <string>
#include <vector>
using namespace araios;
using Exec = Kokkos::DefaultExecutionSpace;
using Device = Exec::device_type;
using Csr = CsrMatrix<double, int, int, Device>;
using Coo = CooMatrix<double, int, int, Device>;
using Csc = CscMatrix<double, int, int, Device>;
using Hyb = HybMatrix<double, int, int, Device>;

#if __has_include(<araios/detail/rows_in_order.hpp>)
/// CSR's rows for the walk (as COO's, with the row offsets of CSR).
struct CsrRowWalk {
  Csr A;
  int numRows;
  template <class Acc, class XView>
  KOKKOS_INLINE_FUNCTION void head(Acc&, std::int64_t, const XView&) const {}
  KOKKOS_INLINE_FUNCTION int begin(std::int64_t i) const { return A.rowPtr(i); }
  KOKKOS_INLINE_FUNCTION int end(std::int64_t i) const { return A.rowPtr(i + 1); }
  KOKKOS_INLINE_FUNCTION void entry(int q, double& a, std::int64_t& column) const {
    a = A.values(q);
    column = A.colIdx(q);
  }
};
#endif

template <class Product>
double microsecondsPerProduct(const Exec& exec, const Product& product) {
  Kokkos::Timer once;
  product();
  exec.fence();
  const int perBatch = once.seconds() > 2e-3 ? 2 : 40;
  for (int r = 0; r < (perBatch == 2 ? 1 : 20); ++r) product();
  exec.fence();
  std::vector<double> batches;
  for (int b = 0; b < 5; ++b) {
    Kokkos::Timer t;
    for (int r = 0; r < perBatch; ++r) product();
    exec.fence();
    batches.push_back(t.seconds() / perBatch * 1e6);
  }
  std::sort(batches.begin(), batches.end());
  return batches[2];
}

int main(int argc, char** argv) {
  Kokkos::ScopeGuard guard(argc, argv);
  const bool save = std::getenv("SAVE") != nullptr;
  const std::string dir = std::getenv("DIR") ? std::getenv("DIR") : "/tmp/rio";
  std::vector<ProbeCase> cases = gpuProbeCases();
  cases.erase(std::remove_if(cases.begin(), cases.end(), [](const ProbeCase& c) { return std::string(c.name) == "small-uniform"; }),
              cases.end());
  std::printf("%-14s %10s  %-14s %12s  %s\n", "matrix", "nnz", "kernel", "us", "bits");
  int differ = 0;
  for (const auto& c : cases) {
    const Exec exec;
    const Csr A = randomCsr<Csr>(c.rows, 23, c.length);
    const Coo coo = cooFromCsr(exec, A);
    const Csc csc = cscFromCsr(exec, A);
    const Hyb hyb = hybFromCsr(exec, A);
    const auto cscRows = Impl::Spmv<Exec, Csc>::prepare(exec, csc, A, Mode::Deterministic);
#if __has_include(<araios/detail/rows_in_order.hpp>)
    const auto cooPlan = Impl::Spmv<Exec, Coo>::prepare(exec, coo, A, Mode::Deterministic);
    const auto hybPlan = Impl::Spmv<Exec, Hyb>::prepare(exec, hyb, A, Mode::Deterministic);
#define PLAN(p) , p
#else
#define PLAN(p)
#endif
    Kokkos::View<double*> x("x", c.rows), y("y", c.rows);
    {
      auto hx = Kokkos::create_mirror_view(x);
      for (int i = 0; i < c.rows; ++i) hx(i) = std::ldexp(0.25 + (i % 97) * 0.013, i % 29 - 14);
      Kokkos::deep_copy(x, hx);
    }
    const Kokkos::View<const double*> xc = x;
    const Kokkos::View<double*, Device> none;
    SpmvOptions det;
    det.mode = Mode::Deterministic;
    SpmvOptions fast;
    fast.mode = Mode::Fast;
    SpmvOptions scalar{SpmvAlgorithm::CsrScalar};
    scalar.mode = Mode::Deterministic;
    const std::vector<std::pair<std::string, std::function<void()>>> kernels = {
        {"coo-det", [&] { Impl::Spmv<Exec, Coo>::apply(exec, coo, xc, y, 1.0, 0.0, det, none PLAN(cooPlan)); }},
        {"csc-det", [&] { Impl::Spmv<Exec, Csc>::apply(exec, csc, xc, y, 1.0, 0.0, det, none, cscRows); }},
        {"hyb-det", [&] { Impl::Spmv<Exec, Hyb>::apply(exec, hyb, xc, y, 1.0, 0.0, det, none PLAN(hybPlan)); }},
        {"csr-scalar", [&] { Impl::Spmv<Exec, Csr>::apply(exec, A, xc, y, 1.0, 0.0, scalar, none); }},
        {"coo-fast", [&] { Impl::Spmv<Exec, Coo>::apply(exec, coo, xc, y, 1.0, 0.0, fast, none); }},
#if __has_include(<araios/detail/rows_in_order.hpp>)
        {"csr-walk", [&] {
           Impl::walkRowsInOrderByTeams<Impl::RoundedRowSum<double>>(exec, CsrRowWalk{A, A.numRows}, xc, y, 1.0, 0.0,
                                                                     "probe::csr_walk", Impl::kRowTeamSize,
                                                                     Impl::kLongRowEntries);
         }},
#endif
    };
    for (const auto& [kernel, product] : kernels) {
      const double us = microsecondsPerProduct(exec, product);
      // y from a poisoned start, so that an unwritten row shows.
      Kokkos::deep_copy(y, std::nan(""));
      product();
      exec.fence();
      const auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), y);
      std::string verdict = "-";
      if (kernel != "coo-fast") {
        const std::string reference = kernel == "csr-walk" ? "csr-scalar" : kernel;
        verdict = saveOrCompareBits(dir + "/bits-" + c.name + "-" + reference, h.data(), c.rows,
                                    save && kernel != "csr-walk");
        differ += verdict == std::string("BITS DIFFER") ? 1 : 0;
      }
      std::printf("%-14s %10ld  %-14s %12.1f  %s\n", c.name, static_cast<long>(A.nnz()), kernel.c_str(), us,
                  verdict.c_str());
      std::fflush(stdout);
    }
  }
  return differ == 0 ? 0 : 1;
}
