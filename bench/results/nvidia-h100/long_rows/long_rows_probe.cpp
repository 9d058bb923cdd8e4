// Deterministic mode's long rows on a GPU in the blocked CSR order (detail/blocked_sum.hpp,
// detail/long_rows_in_order.hpp), against Fast mode and cuSPARSE in the same process.
//
// Matrices, drawn here with seed 20261207 (none of them in the suite or in earlier draws):
//   rows3x900k   1,500,000 rows of 0 to 2 entries, three of 900,000;
//   row20k       20,000 rows of 1 to 3 entries, one of 20,000 (the shape of issue 16's table);
//   row4M        4,194,304 rows of 1 entry, one of 4,000,000;
//   powerlaw     2^20 rows, lengths Zipf-like (exponent 2.1, 2 to 2^18 entries);
//   circuit      1,200,000 rows of 1 to 9 entries, one in 500 of 300 to 30,000.
// Columns are drawn uniformly (sorted, distinct within a row), values in [1, 2) and x over
// 2^-14 to 2^14, so that the order shows in the last bits.
//
// Each product is timed back to back after warm-ups (median of 5 batches of 20, or of 2 where a
// product takes over 2 ms), as an operator runs it (SpmvOperator: the plan and the workspace
// made once). COO's walk is also run with other limits for summing a row by groups (`apart`:
// rows of more staged entries; "none" is the team walk alone, the walk before the groups, in
// the same order). Every deterministic y is compared, bit for bit, with a host loop written
// here from the definition of the blocked order.
//
// Its helpers (drawing, the host loop of the blocked order, timing) are in blocked_probe.hpp, shared
// with ../rows_apart. It builds against the library of fd0272f, whose walkRowsWithLongRowsApart
// later trees replaced (`git archive fd0272f include`, then -I to that folder instead of include).
//
// Built from the repository root with the cuda preset's Kokkos:
//   .deps/kokkos-cuda/bin/nvcc_wrapper -O3 -DNDEBUG -std=c++17 -arch=sm_90 -expt-extended-lambda -Xcompiler -fopenmp \
//       -ffp-contract=off -Iinclude -Ibench -Ibench/results/cpu-2core-xeon/drawn -isystem .deps/kokkos-cuda/include \
//       bench/results/nvidia-h100/long_rows/long_rows_probe.cpp -o long_rows_probe \
//       -L.deps/kokkos-cuda/lib -lkokkoscore -lcusparse -ldl -lcuda
#include <araios/araios.hpp>
#include <araios/detail/rows_in_order.hpp>
#include <araios/formats/coo/coo_spmv.hpp>

#include "cuda/cusparse_spmv.hpp"
#include "blocked_probe.hpp"
#include "probe_csr.hpp"

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdint>
#include <cstring>
#include <functional>
#include <limits>
#include <random>
#include <string>
#include <vector>

using namespace araios;
using Exec = Kokkos::Cuda;
using Device = Exec::device_type;
using Csr = CsrMatrix<double, int, int, Device>;
using Coo = CooMatrix<double, int, int, Device>;

std::vector<HostCsr> drawMatrices() {
  std::vector<HostCsr> all;
  std::mt19937_64 rng(20261207);
  {
    HostCsr m{"rows3x900k"};
    const int n = 1500000;
    for (int i = 0; i < n; ++i) addRow(m, (i == 100 || i == 700000 || i == 1400000) ? 900000 : rng() % 3, n, rng);
    all.push_back(std::move(m));
  }
  {
    HostCsr m{"row20k"};
    const int n = 20000;
    for (int i = 0; i < n; ++i) addRow(m, i == 7 ? 20000 : 1 + rng() % 3, n, rng);
    all.push_back(std::move(m));
  }
  {
    HostCsr m{"row4M"};
    const int n = 4194304;
    for (int i = 0; i < n; ++i) addRow(m, i == 123457 ? 4000000 : 1, n, rng);
    all.push_back(std::move(m));
  }
  {
    HostCsr m{"powerlaw"};
    const int n = 1 << 20;
    std::uniform_real_distribution<double> u(0.0, 1.0);
    for (int i = 0; i < n; ++i) {
      const double length = 2.0 * std::pow(1.0 - u(rng), -1.0 / 1.1);  // P(L > l) ~ l^-1.1: density exponent 2.1
      addRow(m, static_cast<std::int64_t>(std::min(length, double(1 << 18))), n, rng);
    }
    all.push_back(std::move(m));
  }
  {
    HostCsr m{"circuit"};
    const int n = 1200000;
    for (int i = 0; i < n; ++i) addRow(m, rng() % 500 == 0 ? 300 + rng() % 29701 : 1 + rng() % 9, n, rng);
    all.push_back(std::move(m));
  }
  return all;
}

int main(int argc, char** argv) {
  Kokkos::ScopeGuard guard(argc, argv);
  int differ = 0;
  {
    const Exec exec;
    const cuda::CusparseHandle handle(exec.cuda_stream());
    std::printf("%-11s %9s %9s %8s  %-26s %10s  %s\n", "matrix", "rows", "nnz", "longest", "kernel", "us", "bits");
    for (const HostCsr& m : drawMatrices()) {
      int longest = 0;
      for (int i = 0; i < m.rows; ++i) longest = std::max(longest, m.ptr[i + 1] - m.ptr[i]);
      const Csr A = csrFromArrays<Csr>(m.rows, m.ptr, m.col, m.val);
      std::vector<double> hx(m.rows);
      for (int i = 0; i < m.rows; ++i) hx[i] = std::ldexp(0.25 + (i % 97) * 0.013, i % 29 - 14);
      const std::vector<double> expected = blockedReference(m, hx);
      Kokkos::View<double*, Device> x("x", m.rows), y("y", m.rows);
      {
        auto mx = Kokkos::create_mirror_view(x);
        for (int i = 0; i < m.rows; ++i) mx(i) = hx[i];
        Kokkos::deep_copy(x, mx);
      }
      const Kokkos::View<const double*, Device> xc = x;
      const auto report = [&](const std::string& kernel, bool deterministic, const std::function<void()>& product) {
        differ += reportProduct(m, longest, kernel, deterministic, product, y, expected, 26);
      };
      for (const Mode mode : {Mode::Deterministic, Mode::Fast}) {
        for (const Kernel kernel : {Kernel::Coo, Kernel::Hyb, Kernel::Csc, Kernel::CsrMerge}) {
          if (mode == Mode::Fast && kernel == Kernel::CsrMerge) continue;
          OperatorOptions options;
          options.kernel = kernel;
          options.mode = mode;
          const SpmvOperator<double, int, int, Exec> op(exec, A, options);
          const bool csrOrder = mode == Mode::Deterministic && kernel != Kernel::CsrMerge;
          report(std::string(op.kernel().name) + (mode == Mode::Fast ? " fast" : " det"), csrOrder,
                 [&] { op.apply(exec, xc, y, 1.0, 0.0); });
        }
      }
      // COO's walk with other limits for the groups.
      const Coo coo = cooFromCsr(exec, A);
      const auto rows = Impl::cooRowWalk(exec, coo);
      for (const std::int64_t apart : {std::int64_t(64), std::int64_t(256), std::int64_t(512), std::int64_t(2048),
                                       Impl::kNoRowsApart}) {
        const auto list = Impl::listLongRowsInOrder<Device>(exec, rows, apart);
        const Kokkos::View<double*, Device> work("work", list.pieces);
        const std::string name =
            "coo walk, groups past " + (apart == Impl::kNoRowsApart ? std::string("none") : std::to_string(apart));
        report(name, true, [&] {
          Impl::walkRowsWithLongRowsApart(exec, rows, xc, y, 1.0, 0.0, "probe::coo", Impl::kRowTeamSize,
                                          Impl::kLongRowEntries, apart, list, work);
        });
      }
      for (const auto& [algorithm, name] : {std::pair{cuda::CusparseAlgorithm::CsrAlg1, "cusparse csr-alg1"},
                                            std::pair{cuda::CusparseAlgorithm::CsrAlg2, "cusparse csr-alg2"}}) {
        cuda::CusparseSpmv<double> product(handle, A, algorithm, x, y, 1.0, 0.0);
        report(name, false, [&] { product.run(); });
      }
    }
  }
  std::printf("%s\n", differ == 0 ? "every deterministic y has the bits of the blocked order" : "SOME BITS DIFFER");
  return differ == 0 ? 0 : 1;
}
