#pragma once
// The lanes kernel of Accurate mode on CSR (csr_accurate.hpp). A group of vector lanes takes a
// row of a set (every row, or a bin of csr_row_bins.hpp; a quarter of the rows' mean length on
// a GPU); lane l sums the row's entries l, l + V, l + 2V, ... into an ExpansionRowSum, so a
// warp's loads of a row coalesce, and the lanes' expansions are then joined by a tree in team
// scratch and the row stored (correctly rounded, or NaN for the exact pass). The cut of a row into lanes cannot change a decided value
// (ExpansionRowSum::join), so V may follow the matrix and the backend.
//
// Rows longer than kAccurateLanesLongestRow are skipped: their chunks are summed by whole
// teams (csr_long_rows.hpp), so no lane group walks a row of a million entries.
#include <araios/detail/backend_kernel.hpp>
#include <araios/detail/expansion_row_sum.hpp>
#include <araios/detail/team_parallel_for.hpp>
#include <araios/detail/team_scratch.hpp>
#include <araios/formats/csr/csr.hpp>
#include <araios/formats/csr/csr_accurate_path.hpp>
#include <araios/formats/csr/csr_lanes.hpp>
#include <araios/formats/csr/csr_row_bins.hpp>
#include <araios/formats/csr/csr_strided_expansion.hpp>

#include <Kokkos_Core.hpp>

#include <cstdint>

namespace araios::Impl {

/// The launch shape of the lanes kernel for `lanes` lanes a row. Each lane's expansion costs
/// some 30 floating-point operations an entry, and the join as much again per tree level, all
/// issued for the whole warp, so a lane should take several entries: on a GPU the caller asks
/// for accurateLanesPerRow of the rows' (mean) length, a quarter of it; on a CPU one lane. On an
/// H100 (double), a quarter beat a half, an eighth and the whole mean row length on FEM-like,
/// cage14 and 27-point stencil matrices (281 against 324 to 492 us on the FEM matrix of 33 M
/// entries).
template <class ExecSpace>
CsrVectorShape csrAccurateLanesShape(int lanes) {
  constexpr int kThreadsPerTeam = 256;
  if constexpr (isHostSpace<ExecSpace>()) {
    return csrVectorShape<ExecSpace>(lanes);
  } else {
    return {lanes, kThreadsPerTeam / lanes, kThreadsPerTeam / lanes};
  }
}

template <class ExecSpace, class Csr, class XView, class YView>
struct CsrAccurateLanesKernel {
  using Value = typename Csr::value_type;
  using Ordinal = typename Csr::ordinal_type;
  using Offset = typename Csr::size_type;
  using Member = typename Kokkos::TeamPolicy<ExecSpace>::member_type;
  using Partial = ExpansionRowSum<Value>;
  Csr A;
  CsrRowSet<Csr> set;
  XView x;
  YView y;
  Value alpha, beta;
  Ordinal rowsPerTeam;
  int vectorLength;
  static constexpr int kBatch = 4;

  static std::size_t scratchBytes(const CsrVectorShape& shape) {
    return scratchArrayBytes<Partial>(static_cast<std::size_t>(shape.teamSize) * shape.vectorLength);
  }

  KOKKOS_INLINE_FUNCTION void operator()(const Member& team) const {
    Partial* const lanes = scratchArray<Partial>(team, static_cast<std::size_t>(team.team_size()) * vectorLength);
    Partial* const mine = lanes + static_cast<std::size_t>(team.team_rank()) * vectorLength;
    const std::int64_t first = static_cast<std::int64_t>(team.league_rank()) * rowsPerTeam;
    const std::int64_t last = first + rowsPerTeam < set.count ? first + rowsPerTeam : set.count;
    Kokkos::parallel_for(Kokkos::TeamThreadRange(team, first, last), [&](const std::int64_t k) {
      const Ordinal i = set.row(k);
      const Offset begin = A.rowPtr(i), end = A.rowPtr(i + 1);
      const std::int64_t length = static_cast<std::int64_t>(end - begin);
      if (length > kAccurateLanesLongestRow) return;  // a long row: csr_long_rows.hpp
      // Lanes [0, active) hold a part of the row; lane 0 is always written.
      int active = length < vectorLength ? static_cast<int>(length) : vectorLength;
      if (active < 1) active = 1;
      Kokkos::parallel_for(Kokkos::ThreadVectorRange(team, active), [&](const int lane) {
        mine[lane] = stridedExpansion<kBatch>(A, x, static_cast<std::int64_t>(begin) + lane, static_cast<std::int64_t>(end),
                                              vectorLength);
      });
      for (int width = vectorLength / 2; width >= 1; width /= 2) {
        if (active <= width) continue;  // lanes past `active` hold nothing
        Kokkos::parallel_for(Kokkos::ThreadVectorRange(team, active - width),
                             [&](const int lane) { mine[lane].join(mine[lane + width]); });
        active = width;
      }
      Kokkos::single(Kokkos::PerThread(team), [&]() { mine[0].store(y, i, alpha, beta); });
    });
  }
};

/// The portable lanes kernel, shaped by csrAccurateLanesShape.
template <class ExecSpace, class Csr, class XView, class YView>
void csrAccurateLanesPortablePass(const ExecSpace& exec, const Csr& A, const CsrRowSet<Csr>& set, const XView& x,
                                  const YView& y, typename Csr::value_type alpha, typename Csr::value_type beta,
                                  int lanes) {
  using Kernel = CsrAccurateLanesKernel<ExecSpace, Csr, XView, YView>;
  const CsrVectorShape shape = csrAccurateLanesShape<ExecSpace>(lanes);
  const std::int64_t teams = (set.count + shape.rowsPerTeam - 1) / shape.rowsPerTeam;
  teamParallelFor(
      "araios::spmv::csr_accurate_lanes",
      Kokkos::TeamPolicy<ExecSpace>(exec, static_cast<int>(teams), shape.teamSize, shape.vectorLength)
          .set_scratch_size(0, Kokkos::PerTeam(Kernel::scratchBytes(shape))),
      Kernel{A, set, x, y, alpha, beta, static_cast<typename Csr::ordinal_type>(shape.rowsPerTeam), shape.vectorLength});
}

/// The lanes kernel, the part of Accurate mode on CSR a backend may write by hand:
/// BackendKernel<CsrAccurateLanesPass, ExecSpace> (detail/backend_kernel.hpp) with
///   template <class Csr, class XView, class YView>
///   static void apply(const ExecSpace&, const Csr&, const CsrRowSet<Csr>&, const XView&, const YView&,
///                     Value alpha, Value beta, int lanes);
/// storing each row of the set of at most kAccurateLanesLongestRow entries correctly rounded or
/// NaN (undecided), and leaving the longer rows alone, with `lanes` (a power of two up to 32) a
/// row where that suits the backend. A row's cut into lanes may differ from the portable kernel's.
struct CsrAccurateLanesPass {};

/// The expansion pass of Accurate mode over the rows of `set` of at most
/// kAccurateLanesLongestRow entries, `lanes` a row.
template <class ExecSpace, class Csr, class XView, class YView>
void csrAccurateLanesPass(const ExecSpace& exec, const Csr& A, const CsrRowSet<Csr>& set, const XView& x,
                          const YView& y, typename Csr::value_type alpha, typename Csr::value_type beta, int lanes) {
  if (set.count == 0) return;
  if constexpr (hasBackendKernel<CsrAccurateLanesPass, ExecSpace>) {
    BackendKernel<CsrAccurateLanesPass, ExecSpace>::apply(exec, A, set, x, y, alpha, beta, lanes);
  } else {
    csrAccurateLanesPortablePass(exec, A, set, x, y, alpha, beta, lanes);
  }
}

/// The bins kernel: the lanes kernel over each bin of A (csr_row_bins.hpp), with the bin's
/// lanes, so every row of at most kAccurateLanesLongestRow entries.
template <class ExecSpace, class Csr, class XView, class YView>
void csrAccurateBinsPass(const ExecSpace& exec, const Csr& A, const CsrRowBins<Csr>& bins, const XView& x,
                         const YView& y, typename Csr::value_type alpha, typename Csr::value_type beta) {
  for (int b = 0; b < kAccurateLaneBins; ++b) csrAccurateLanesPass(exec, A, bins.bin(b), x, y, alpha, beta, 1 << b);
}

/// The same over every row, with accurateLanesPerRow of the mean row length.
template <class ExecSpace, class Csr, class XView, class YView>
void csrAccurateLanesPass(const ExecSpace& exec, const Csr& A, const XView& x, const YView& y,
                          typename Csr::value_type alpha, typename Csr::value_type beta) {
  if (A.numRows == 0) return;
  const double meanRowLength = static_cast<double>(A.nnz()) / static_cast<double>(A.numRows);
  csrAccurateLanesPass(exec, A, csrAllRows(A), x, y, alpha, beta, accurateLanesPerRow(meanRowLength));
}

}  // namespace araios::Impl
