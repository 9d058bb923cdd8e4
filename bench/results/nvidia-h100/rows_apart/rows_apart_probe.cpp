// Deterministic mode's rows apart on a GPU (detail/rows_in_order.hpp): rows of 33 to 512 staged
// entries summed by a thread per chunk (detail/chunked_rows_in_order.hpp), longer ones by a team
// per group whose loads are staged in scratch (detail/long_rows_in_order.hpp), against Fast mode,
// csr-merge and cuSPARSE in the same process.
//
// Matrices, drawn here with seed 20261208 (none of them in the suite or in earlier draws):
//   powerlaw     2^20 rows, lengths Zipf-like (exponent 2.3, 2 to 2^16 entries);
//   medium       100,000 rows of 20 to 400 entries;
//   circuit      1,500,000 rows of 1 to 7 entries, one in 600 of 100 to 20,000;
//   row20k       20,000 rows of 1 to 3 entries, one of 20,000 (the shape of issue 16's table);
//   rows2x1200k  1,000,000 rows of 0 to 2 entries, two of 1,200,000;
//   blockfem     300,000 block rows of 3x3 blocks, 9 to 15 blocks a row near the diagonal (rows of
//                27 to 45 entries).
// Columns are drawn uniformly (sorted, distinct within a row; blockfem's blocks within 2,000
// block columns of the diagonal), values in [1, 2) and x over 2^-14 to 2^14, so that the order
// shows in the last bits.
//
// Each product is timed back to back after warm-ups (median of 5 batches of 20, or of 2 where a
// product takes over 2 ms), as an operator runs it (SpmvOperator: the plan and the workspace
// made once). Where the library has RowsApart, COO's walk is also run with other limits (rows of
// more staged entries than `chunks past` by chunks, of more than `groups past` by groups; none:
// no such rows). Every deterministic y is compared, bit for bit, with a host loop written here
// from the definition of the blocked order. The same source builds against a tree without
// RowsApart (the walk's lines are then left out), for the before column.
//
// Built from the repository root with the cuda preset's Kokkos (and the model's profile lookup,
// which SpmvOperator links to):
//   NW=.deps/kokkos-cuda/bin/nvcc_wrapper
//   FLAGS="-O3 -DNDEBUG -std=c++17 -arch=sm_90 -expt-extended-lambda -Xcompiler -fopenmp -ffp-contract=off"
//   $NW $FLAGS -Iinclude -Ibench -Ibench/results/cpu-2core-xeon/drawn -isystem .deps/kokkos-cuda/include \
//       -c bench/results/nvidia-h100/rows_apart/rows_apart_probe.cpp -o probe.o
//   g++ -O2 -std=c++17 -Iinclude -Ibuild/openmp/generated -isystem .deps/kokkos-cuda/include \
//       -c src/model/profile_file.cpp src/io/atomic_file.cpp
//   $NW $FLAGS probe.o profile_file.o atomic_file.o -o rows_apart_probe -L.deps/kokkos-cuda/lib -lkokkoscore \
//       -lcusparse -ldl -lcuda
#include <araios/araios.hpp>
#include <araios/detail/rows_in_order.hpp>
#include <araios/formats/coo/coo_spmv.hpp>

#include "cuda/cusparse_spmv.hpp"
#include "../long_rows/blocked_probe.hpp"
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

#if __has_include(<araios/detail/chunked_rows_in_order.hpp>)
#define PROBE_HAS_ROWS_APART 1
#else
#define PROBE_HAS_ROWS_APART 0
#endif

using namespace araios;
using Exec = Kokkos::Cuda;
using Device = Exec::device_type;
using Csr = CsrMatrix<double, int, int, Device>;
using Coo = CooMatrix<double, int, int, Device>;

std::vector<HostCsr> drawMatrices() {
  std::vector<HostCsr> all;
  std::mt19937_64 rng(20261208);
  {
    HostCsr m{"powerlaw"};
    const int n = 1 << 20;
    std::uniform_real_distribution<double> u(0.0, 1.0);
    for (int i = 0; i < n; ++i) {
      const double length = 2.0 * std::pow(1.0 - u(rng), -1.0 / 1.3);  // P(L > l) ~ l^-1.3: density exponent 2.3
      addRow(m, static_cast<std::int64_t>(std::min(length, double(1 << 16))), n, rng);
    }
    all.push_back(std::move(m));
  }
  {
    HostCsr m{"medium"};
    const int n = 100000;
    for (int i = 0; i < n; ++i) addRow(m, 20 + rng() % 381, n, rng);
    all.push_back(std::move(m));
  }
  {
    HostCsr m{"circuit"};
    const int n = 1500000;
    for (int i = 0; i < n; ++i) addRow(m, rng() % 600 == 0 ? 100 + rng() % 19901 : 1 + rng() % 7, n, rng);
    all.push_back(std::move(m));
  }
  {
    HostCsr m{"row20k"};
    const int n = 20000;
    for (int i = 0; i < n; ++i) addRow(m, i == 12345 ? 20000 : 1 + rng() % 3, n, rng);
    all.push_back(std::move(m));
  }
  {
    HostCsr m{"rows2x1200k"};
    const int n = 1000000;
    for (int i = 0; i < n; ++i) addRow(m, (i == 4321 || i == 765432) ? 1200000 : rng() % 3, 1200000, rng);
    all.push_back(std::move(m));
  }
  {
    HostCsr m{"blockfem"};
    const int blocks = 300000, reach = 2000;
    for (int b = 0; b < blocks; ++b) {
      // The block row's block columns: the diagonal and 8 to 14 others near it.
      std::vector<int> near{b};
      const int count = 9 + static_cast<int>(rng() % 7);
      while (static_cast<int>(near.size()) < count) {
        const int c = b - reach + static_cast<int>(rng() % (2 * reach + 1));
        if (c >= 0 && c < blocks && std::find(near.begin(), near.end(), c) == near.end()) near.push_back(c);
      }
      std::sort(near.begin(), near.end());
      for (int r = 0; r < 3; ++r) {
        for (int c : near) {
          for (int k = 0; k < 3; ++k) {
            m.col.push_back(3 * c + k);
            m.val.push_back(1.0 + static_cast<double>(rng() % 1000000) * 1e-6);
          }
        }
        m.ptr.push_back(static_cast<int>(m.col.size()));
        ++m.rows;
      }
    }
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
    std::printf("rows apart: %s\n", PROBE_HAS_ROWS_APART ? "by chunks and by groups" : "by groups only (before)");
    std::printf("%-11s %9s %9s %8s  %-34s %10s  %s\n", "matrix", "rows", "nnz", "longest", "kernel", "us", "bits");
    for (const HostCsr& m : drawMatrices()) {
      int longest = 0;
      for (int i = 0; i < m.rows; ++i) longest = std::max(longest, m.ptr[i + 1] - m.ptr[i]);
      int cols = m.rows;
      for (int c : m.col) cols = std::max(cols, c + 1);
      const Csr A = [&] {
        Csr a = csrFromArrays<Csr>(m.rows, m.ptr, m.col, m.val);
        a.numCols = cols;
        return a;
      }();
      std::vector<double> hx(cols);
      for (int i = 0; i < cols; ++i) hx[i] = std::ldexp(0.25 + (i % 97) * 0.013, i % 29 - 14);
      const std::vector<double> expected = blockedReference(m, hx);
      Kokkos::View<double*, Device> x("x", cols), y("y", m.rows);
      {
        auto mx = Kokkos::create_mirror_view(x);
        for (int i = 0; i < cols; ++i) mx(i) = hx[i];
        Kokkos::deep_copy(x, mx);
      }
      const Kokkos::View<const double*, Device> xc = x;
      const auto report = [&](const std::string& kernel, bool deterministic, const std::function<void()>& product) {
        differ += reportProduct(m, longest, kernel, deterministic, product, y, expected, 34);
      };
      for (const Mode mode : {Mode::Deterministic, Mode::Fast}) {
        for (const Kernel kernel : {Kernel::Coo, Kernel::Hyb, Kernel::Csc, Kernel::CsrMerge, Kernel::CsrScalar}) {
          if (mode == Mode::Fast && (kernel == Kernel::CsrMerge || kernel == Kernel::CsrScalar)) continue;
          OperatorOptions options;
          options.kernel = kernel;
          options.mode = mode;
          const SpmvOperator<double, int, int, Exec> op(exec, A, options);
          const bool csrOrder = mode == Mode::Deterministic && kernel != Kernel::CsrMerge;
          report(std::string(op.kernel().name) + (mode == Mode::Fast ? " fast" : " det"), csrOrder,
                 [&] { op.apply(exec, xc, y, 1.0, 0.0); });
        }
      }
#if PROBE_HAS_ROWS_APART
      // COO's walk with other limits.
      const Coo coo = cooFromCsr(exec, A);
      const auto rows = Impl::cooRowWalk(exec, coo);
      const auto limit = [](std::int64_t n) { return n == Impl::kNoRowsApart ? std::string("none") : std::to_string(n); };
      for (const auto& [chunked, grouped] :
           {std::pair{Impl::kNoRowsApart, std::int64_t(512)}, std::pair{std::int64_t(32), std::int64_t(512)},
            std::pair{std::int64_t(32), std::int64_t(2048)}, std::pair{std::int64_t(32), std::int64_t(8192)},
            std::pair{std::int64_t(32), std::int64_t(32768)}, std::pair{std::int64_t(32), Impl::kNoRowsApart},
            std::pair{std::int64_t(64), std::int64_t(512)}}) {
        const auto apart = Impl::listRowsApart<Device>(exec, rows, chunked, grouped);
        const Kokkos::View<double*, Device> work("work", apart.workspaceValues());
        report("coo walk, chunks past " + limit(chunked) + ", groups past " + limit(grouped), true, [&] {
          Impl::walkRowsWithRowsApart(exec, rows, xc, y, 1.0, 0.0, "probe::coo", Impl::kRowTeamSize,
                                      Impl::kLongRowEntries, apart, work);
        });
      }
#endif
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
