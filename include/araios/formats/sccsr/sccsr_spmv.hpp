#pragma once
// SC-CSR SpMV (Liang, HUST 2012): one launch per range, one warp of 32 vector lanes per merged
// row.
//
// Lane l reads slots l, l+32, l+64, ... of its merged row: the warp's loads are consecutive.
// Since slot j*c + r holds entry j of row r and c divides 32, every slot lane l reads belongs
// to row l % c, so each lane accumulates part of one row. The 32/c lanes of a row are then
// added in log2(32/c) halving steps (lane l += lane l + w, for w = 16, 8, ..., c), after which
// lanes 0..c-1 hold the c row sums, written to y through rowIndex.
//
// The lane sums go through team scratch, and the reduction tree is fixed, so the order of the
// additions depends only on the layout: results are bitwise repeatable. A host backend runs
// the same kernel with one vector lane, which walks the 32 lanes in a loop and performs the
// very same additions in the same order.
//
// Modes: lane sums start from -0.0 and every product and sum is rounded on its own, so the
// bits are the same on every backend; Fast runs this kernel too. Accurate: the CSR Accurate
// product on the matrix's CSR form (csr_accurate.hpp): an operator's, the CSR matrix it was
// built from (kernel_builders.hpp); a bare matrix is converted on the call.
#include <araios/detail/spmv_dispatch.hpp>
#include <araios/detail/team_parallel_for.hpp>
#include <araios/types.hpp>
#include <araios/formats/csr/csr.hpp>
#include <araios/formats/csr/csr_accurate.hpp>
#include <araios/formats/sccsr/sccsr.hpp>
#include <araios/formats/sccsr/sccsr_convert.hpp>
#include <araios/formats/sccsr/sccsr_plan.hpp>

namespace araios::Impl {

template <class ExecSpace, class Sc, class XView, class YView>
struct ScCsrRangeKernel {
  using Value = typename Sc::value_type;
  using Ordinal = typename Sc::ordinal_type;
  using Offset = typename Sc::size_type;
  using Member = typename Kokkos::TeamPolicy<ExecSpace>::member_type;
  /// Row team_rank holds the 32 lane sums of the merged row that team thread is working on.
  using LaneSums = Kokkos::View<Value**, typename ExecSpace::scratch_memory_space, Kokkos::MemoryUnmanaged>;

  Sc A;
  XView x;
  YView y;
  Value alpha, beta;
  ScCsrRange range;
  std::int64_t mergedRowsPerTeam;

  KOKKOS_INLINE_FUNCTION void operator()(const Member& team) const {
    const LaneSums lanes(team.team_scratch(0), team.team_size(), kScCsrLanes);
    const int me = team.team_rank();
    const int c = range.mergeFactor;
    const std::int64_t first = range.firstMergedRow + static_cast<std::int64_t>(team.league_rank()) * mergedRowsPerTeam;
    const std::int64_t rangeEnd = range.firstMergedRow + range.numMergedRows;
    const std::int64_t last = first + mergedRowsPerTeam < rangeEnd ? first + mergedRowsPerTeam : rangeEnd;
    Kokkos::parallel_for(Kokkos::TeamThreadRange(team, first, last), [&](const std::int64_t m) {
      const Offset begin = A.rowPtr(m), end = A.rowPtr(m + 1);
      Kokkos::parallel_for(Kokkos::ThreadVectorRange(team, kScCsrLanes), [&](const int lane) {
        Value sum = sumIdentity<Value>();
        for (Offset slot = begin + lane; slot < end; slot += kScCsrLanes) {
          const Ordinal col = A.colIdx(slot);
          if (col == Sc::paddingColumn) break;  // the rest of this lane's row is padding too
          accumulateProduct(sum, A.values(slot), x(col));
        }
        lanes(me, lane) = sum;
      });
      for (int width = kScCsrLanes / 2; width >= c; width /= 2) {
        Kokkos::parallel_for(Kokkos::ThreadVectorRange(team, width),
                             [&](const int lane) { lanes(me, lane) = unfusedSum(lanes(me, lane), lanes(me, lane + width)); });
      }
      Kokkos::parallel_for(Kokkos::ThreadVectorRange(team, c), [&](const int r) {
        const std::int64_t sorted = range.firstRow + (m - range.firstMergedRow) * c + r;
        if (sorted < range.firstRow + range.numRows) storeRow(y, A.rowIndex(sorted), lanes(me, r), alpha, beta);
      });
    });
  }
};

/// Launch shape. On a GPU a block of kScCsrBlockSize threads is 8 warps, each on one merged row.
/// On a host one thread with one vector lane takes a chunk of merged rows, enough work per
/// team to amortise the scheduling.
struct ScCsrShape {
  int teamSize;
  int vectorLength;
  int mergedRowsPerTeam;
};

template <class ExecSpace>
constexpr ScCsrShape scCsrShape() {
  constexpr int kHostMergedRowsPerTeam = 32;
  if constexpr (isHostSpace<ExecSpace>()) {
    return {1, 1, kHostMergedRowsPerTeam};
  } else {
    return {kScCsrBlockSize / kScCsrLanes, kScCsrLanes, kScCsrBlockSize / kScCsrLanes};
  }
}

template <class ExecSpace, class Value, class Ordinal, class Offset, class Device>
struct Spmv<ExecSpace, ScCsrMatrix<Value, Ordinal, Offset, Device>> {
  using Sc = ScCsrMatrix<Value, Ordinal, Offset, Device>;

  template <class XView, class YView>
  static void apply(const ExecSpace& exec, const Sc& A, const XView& x, const YView& y, Value alpha, Value beta,
                    const SpmvOptions& options, const Kokkos::View<Value*, Device>& work) {
    if (options.algorithm != SpmvAlgorithm::Auto) refuseAlgorithm(options.algorithm, "SC-CSR");
    if (options.mode == Mode::Accurate) {
      csrAccurateSpmv(exec, csrFromScCsr(exec, A), x, y, alpha, beta, work);
      return;
    }
    using Kernel = ScCsrRangeKernel<ExecSpace, Sc, XView, YView>;
    constexpr ScCsrShape shape = scCsrShape<ExecSpace>();
    const std::size_t scratch = Kernel::LaneSums::shmem_size(shape.teamSize, kScCsrLanes);
    for (std::size_t k = 0; k < A.ranges.extent(0); ++k) {
      const ScCsrRange& range = A.ranges(k);
      const std::int64_t teams = (range.numMergedRows + shape.mergedRowsPerTeam - 1) / shape.mergedRowsPerTeam;
      teamParallelFor("araios::spmv::sccsr",
                      Kokkos::TeamPolicy<ExecSpace>(exec, checkedNarrow<int>(teams, "SC-CSR teams per launch"),
                                                    shape.teamSize, shape.vectorLength)
                          .set_scratch_size(0, Kokkos::PerTeam(scratch)),
                      Kernel{A, x, y, alpha, beta, range, shape.mergedRowsPerTeam});
    }
  }
};

}  // namespace araios::Impl
