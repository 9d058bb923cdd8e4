#pragma once
// CSR SpMV, three portable kernels, each in the three modes (araios/mode.hpp):
//   scalar: one thread per row (csr_rows.hpp); best for short, even rows (stencils, road
//           networks). Fast and Deterministic: row i's entries summed in the blocked CSR
//           order (chunks of 32 from -0.0, each product and sum rounded, then the chunks'
//           sums: RoundedRowSum): the same on every backend.
//   vector: a team of threads, each with a group of vector lanes, per block of rows; the lanes
//           of one row reduce together, so long rows are read coalesced on a GPU.
//           Fast: a Kokkos lane reduction, whose order follows the vector length.
//           Deterministic: the canonical 32-lane order (CsrLanesKernel), the same whatever
//           the backend or vector length.
//   merge:  the same work per thread whatever the row lengths (csr_merge.hpp).
// Accurate mode has one answer whatever the kernel: all three run csr_accurate.hpp's product,
// the row kernel on short rows, lane groups and chunks of long rows otherwise.
#include <araios/detail/backend_kernel.hpp>
#include <araios/detail/row_sum.hpp>
#include <araios/detail/spmv_dispatch.hpp>
#include <araios/detail/team_parallel_for.hpp>
#include <araios/formats/csr/csr.hpp>
#include <araios/formats/csr/csr_accurate.hpp>
#include <araios/formats/csr/csr_default.hpp>
#include <araios/formats/csr/csr_lanes.hpp>
#include <araios/formats/csr/csr_merge.hpp>
#include <araios/formats/csr/csr_rows.hpp>

#include <algorithm>
#include <utility>

namespace araios::Impl {

/// The canonical 32-lane order of a row (Deterministic mode of csr-vector): lane l sums the
/// entries l, l+32, l+64, ... of the row in order, from -0.0 (so an idle lane adds nothing);
/// then the 32 lane sums are added by a fixed tree, lane l += lane l+w for w = 16, 8, 4, 2, 1.
/// On a GPU a row has a group of physical lanes, each running the virtual lanes p, p+V, ...
/// of its group of V. The lane sums go through team scratch, so every shape performs the same
/// operations on the same values in the same order. A CPU runs CsrLanesHostKernel below, the
/// same operations a row at a time.
///
/// Lanes at or past the row's length keep -0.0, which is an exact identity of addition
/// (x + -0.0 has the bits of x for every x, -0.0 and NaN included). Leaving out those lanes and
/// the tree's additions of them therefore changes no bit of the result, and a row of 5 entries
/// costs 5 lane sums and 4 additions instead of 32 and 31.
template <class ExecSpace, class Csr, class XView, class YView>
struct CsrLanesKernel {
  using Value = typename Csr::value_type;
  using Ordinal = typename Csr::ordinal_type;
  using Offset = typename Csr::size_type;
  using Member = typename Kokkos::TeamPolicy<ExecSpace>::member_type;
  using LaneSums = Kokkos::View<Value**, typename ExecSpace::scratch_memory_space, Kokkos::MemoryUnmanaged>;
  Csr A;
  XView x;
  YView y;
  Value alpha, beta;
  Ordinal rowsPerTeam;

  KOKKOS_INLINE_FUNCTION void operator()(const Member& team) const {
    const LaneSums lanes(team.team_scratch(0), team.team_size(), kCanonicalLanes);
    const int me = team.team_rank();
    const Ordinal first = static_cast<Ordinal>(team.league_rank()) * rowsPerTeam;
    const Ordinal last = first + rowsPerTeam < A.numRows ? first + rowsPerTeam : A.numRows;
    Kokkos::parallel_for(Kokkos::TeamThreadRange(team, first, last), [&](const Ordinal i) {
      const Offset begin = A.rowPtr(i), end = A.rowPtr(i + 1);
      // Lanes [0, active) may hold something other than -0.0; lane 0 is always written.
      int active = end - begin < Offset(kCanonicalLanes) ? static_cast<int>(end - begin) : kCanonicalLanes;
      Kokkos::parallel_for(Kokkos::ThreadVectorRange(team, active > 0 ? active : 1), [&](const int lane) {
        Value sum = sumIdentity<Value>();
        for (Offset k = begin + lane; k < end; k += kCanonicalLanes) accumulateProduct(sum, A.values(k), x(A.colIdx(k)));
        lanes(me, lane) = sum;
      });
      for (int width = kCanonicalLanes / 2; width >= 1; width /= 2) {
        if (active <= width) continue;  // every partner lane l + width holds -0.0
        Kokkos::parallel_for(Kokkos::ThreadVectorRange(team, active - width), [&](const int lane) {
          lanes(me, lane) = unfusedSum(lanes(me, lane), lanes(me, lane + width));
        });
        active = width;
      }
      Kokkos::single(Kokkos::PerThread(team), [&]() { storeRow(y, i, lanes(me, 0), alpha, beta); });
    });
  }
};

/// The canonical 32-lane order on a CPU thread, a row at a time: the row is read once, in
/// chunks of 32 entries, entry begin + 32c + l going to lane l, so each lane adds the same
/// products in the same order as CsrLanesKernel's; then the same tree over the lanes that can
/// hold something other than -0.0. CsrLanesKernel's walk on a CPU (each lane a strided pass
/// over the row, the sums through team scratch) reads a row that does not stay in cache once
/// per lane, and its team machinery costs on short rows: on a 2-core Xeon it took 1.4 to 4.6
/// times csr-scalar's time, and this kernel takes 0.29 to 0.76 of its time
/// (bench/results/cpu-2core-xeon/). A row of up to 32 entries, one product per lane, takes
/// shortRow, unrolled for its length: 0.92 to 1.58 times csr-scalar's time instead of 1.2 to
/// 2.1 (the longer the row, the closer; short_rows_probe.cpp there). A longer row fills every
/// lane, so the whole tree runs. Rows of 1 to 4 entries take upToFour, inline; every other row
/// takes the out-of-line otherRow, which keeps the row loop small.
template <class Csr, class XView, class YView>
struct CsrLanesHostKernel {
  using Value = typename Csr::value_type;
  using Ordinal = typename Csr::ordinal_type;
  using Offset = typename Csr::size_type;
  Csr A;
  XView x;
  YView y;
  Value alpha, beta;

  /// The tree over lanes [0, Active), Width its next level, unrolled at compile time.
  template <int Active, int Width>
  KOKKOS_INLINE_FUNCTION static void laneTree(Value* lanes) {
    if constexpr (Width >= 1) {
      if constexpr (Active > Width) {
        for (int lane = 0; lane < Active - Width; ++lane) lanes[lane] = unfusedSum(lanes[lane], lanes[lane + Width]);
        laneTree<Width, Width / 2>(lanes);
      } else {
        laneTree<Active, Width / 2>(lanes);  // every partner lane holds -0.0
      }
    }
  }

  /// A row of L entries, L known at compile time: lane l holds entry l's product, then the
  /// same tree, so the lanes stay in registers and no loop bound is read. On rows of a few
  /// entries a walk over 32 lanes in memory costs more than the sums.
  template <int L>
  KOKKOS_INLINE_FUNCTION Value shortRow(Offset begin) const {
    Value lanes[L];
    for (int lane = 0; lane < L; ++lane) {
      lanes[lane] = sumIdentity<Value>();
      accumulateProduct(lanes[lane], A.values(begin + lane), x(A.colIdx(begin + lane)));
    }
    laneTree<L, kCanonicalLanes / 2>(lanes);
    return lanes[0];
  }

  /// shortRow<L + 1> for the row's length, one of L + 1... (1 to kCanonicalLanes); an empty
  /// row's sum is -0.0.
  template <int... L>
  KOKKOS_INLINE_FUNCTION Value shortRowOf(Offset length, Offset begin, std::integer_sequence<int, L...>) const {
    Value sum = sumIdentity<Value>();
    ((length == Offset(L + 1) ? (sum = shortRow<L + 1>(begin), true) : false) || ...);
    return sum;
  }

  /// A row of 1 to 4 entries: four lanes, those past the row holding -0.0, and the tree of
  /// four, (l0 + l2) + (l1 + l3). Adding -0.0 changes no bit, so these are shortRow<L>'s sums,
  /// with no branch on the length among them (rows of mixed short lengths would mispredict it)
  /// and little code. Lanes past the row read the row's first entry, so every load stays
  /// inside the row.
  KOKKOS_INLINE_FUNCTION Value upToFour(Offset begin, Offset length) const {
    Value lanes[4];
    for (int lane = 0; lane < 4; ++lane) {
      const Offset k = begin + (Offset(lane) < length ? Offset(lane) : Offset(0));
      Value product = sumIdentity<Value>();
      accumulateProduct(product, A.values(k), x(A.colIdx(k)));
      lanes[lane] = Offset(lane) < length ? product : sumIdentity<Value>();
    }
    return unfusedSum(unfusedSum(lanes[0], lanes[2]), unfusedSum(lanes[1], lanes[3]));
  }

  KOKKOS_INLINE_FUNCTION void operator()(const Ordinal i) const {
    const Offset begin = A.rowPtr(i), end = A.rowPtr(i + 1);
    if (end - begin <= Offset(4) && end > begin) {
      storeRow(y, i, upToFour(begin, end - begin), alpha, beta);
      return;
    }
    otherRow(i, begin, end);
  }

  /// Every other row (empty, or of 5 entries or more), out of line: inlined, its 32 shortRow<L>
  /// and the general walk made the row loop around operator() so large that the same walk over
  /// rows of 1 to 3 entries took 1.6x csr-scalar's time (2-core EPYC,
  /// bench/results/cpu-2core-epyc/csr_vector_short_rows/).
  KOKKOS_INLINE_FUNCTION __attribute__((noinline)) void otherRow(const Ordinal i, const Offset begin,
                                                                 const Offset end) const {
    if (end - begin <= Offset(kCanonicalLanes)) {
      storeRow(y, i, shortRowOf(end - begin, begin, std::make_integer_sequence<int, kCanonicalLanes>()), alpha, beta);
      return;
    }
    Value lanes[kCanonicalLanes];
    for (int lane = 0; lane < kCanonicalLanes; ++lane) lanes[lane] = sumIdentity<Value>();
    Offset k = begin;
    for (; end - k >= Offset(kCanonicalLanes); k += kCanonicalLanes) {
      for (int lane = 0; lane < kCanonicalLanes; ++lane) {
        accumulateProduct(lanes[lane], A.values(k + lane), x(A.colIdx(k + lane)));
      }
    }
    for (int lane = 0; k + lane < end; ++lane) accumulateProduct(lanes[lane], A.values(k + lane), x(A.colIdx(k + lane)));
    laneTree<kCanonicalLanes, kCanonicalLanes / 2>(lanes);
    storeRow(y, i, lanes[0], alpha, beta);
  }
};

template <class ExecSpace, class Csr, class XView, class YView>
struct CsrVectorKernel {
  using Value = typename Csr::value_type;
  using Ordinal = typename Csr::ordinal_type;
  using Offset = typename Csr::size_type;
  using Member = typename Kokkos::TeamPolicy<ExecSpace>::member_type;
  Csr A;
  XView x;
  YView y;
  Value alpha, beta;
  Ordinal rowsPerTeam;

  KOKKOS_INLINE_FUNCTION void operator()(const Member& team) const {
    const Ordinal first = static_cast<Ordinal>(team.league_rank()) * rowsPerTeam;
    const Ordinal last = first + rowsPerTeam < A.numRows ? first + rowsPerTeam : A.numRows;
    Kokkos::parallel_for(Kokkos::TeamThreadRange(team, first, last), [&](const Ordinal i) {
      Value sum = 0;
      Kokkos::parallel_reduce(
          Kokkos::ThreadVectorRange(team, A.rowPtr(i), A.rowPtr(i + 1)),
          [&](const Offset k, Value& partial) { partial += A.values(k) * x(A.colIdx(k)); }, sum);
      Kokkos::single(Kokkos::PerThread(team), [&]() { storeRow(y, i, sum, alpha, beta); });
    });
  }
};

/// The portable deterministic csr-vector product (the canonical 32-lane order).
template <class ExecSpace, class Csr, class XView, class YView>
void csrLanesPortableSpmv(const ExecSpace& exec, const Csr& A, const XView& x, const YView& y,
                          typename Csr::value_type alpha, typename Csr::value_type beta, double meanRowLength) {
  if (A.numRows == 0) return;
  if constexpr (isHostSpace<ExecSpace>()) {
    Kokkos::parallel_for("araios::spmv::csr_vector_lanes",
                         Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<typename Csr::ordinal_type>>(exec, 0, A.numRows),
                         CsrLanesHostKernel<Csr, XView, YView>{A, x, y, alpha, beta});
    return;
  }
  using Kernel = CsrLanesKernel<ExecSpace, Csr, XView, YView>;
  const CsrVectorShape shape = csrLanesShape<ExecSpace>(meanRowLength);
  const std::int64_t teams = (static_cast<std::int64_t>(A.numRows) + shape.rowsPerTeam - 1) / shape.rowsPerTeam;
  teamParallelFor(
      "araios::spmv::csr_vector_lanes",
      Kokkos::TeamPolicy<ExecSpace>(exec, static_cast<int>(teams), shape.teamSize, shape.vectorLength)
          .set_scratch_size(0, Kokkos::PerTeam(Kernel::LaneSums::shmem_size(shape.teamSize, kCanonicalLanes))),
      Kernel{A, x, y, alpha, beta, static_cast<typename Csr::ordinal_type>(shape.rowsPerTeam)});
}

template <class ExecSpace, class Csr, class XView, class YView>
void csrLanesSpmv(const ExecSpace& exec, const Csr& A, const XView& x, const YView& y, typename Csr::value_type alpha,
                  typename Csr::value_type beta, double meanRowLength, bool portableOnly) {
  if constexpr (hasBackendKernel<CsrLanesPass, ExecSpace>) {
    if (!portableOnly) {
      BackendKernel<CsrLanesPass, ExecSpace>::apply(exec, A, x, y, alpha, beta, meanRowLength);
      return;
    }
  }
  csrLanesPortableSpmv(exec, A, x, y, alpha, beta, meanRowLength);
}

template <class ExecSpace, class Value, class Ordinal, class Offset, class Device>
struct Spmv<ExecSpace, CsrMatrix<Value, Ordinal, Offset, Device>> {
  using Csr = CsrMatrix<Value, Ordinal, Offset, Device>;

  static double meanRowLength(const Csr& A) {
    return A.numRows > 0 ? static_cast<double>(A.nnz()) / A.numRows : 0.0;
  }

  /// Refuses an algorithm that is not CSR's.
  static void checkAlgorithm(SpmvAlgorithm algorithm) {
    if (algorithm != SpmvAlgorithm::Auto && algorithm != SpmvAlgorithm::CsrScalar &&
        algorithm != SpmvAlgorithm::CsrVector && algorithm != SpmvAlgorithm::CsrMerge) {
      refuseAlgorithm(algorithm, "CSR");
    }
  }

  /// An operator's state: csr-merge's team bounds and plan (whether its short rows go apart),
  /// made once when the operator is built (a few thousand rows and a byte per team even for 10^8
  /// entries; every CSR operator but an Accurate one keeps them, since the kernel is named at
  /// apply). A bare product searches the bounds on each call and walks the whole path.
  using State = CsrMergeBounds<Ordinal, Device>;
  static State prepare(const ExecSpace& exec, const Csr& A, const Csr& /*source*/, Mode mode) {
    return mode == Mode::Accurate ? State{} : csrMergeBounds(exec, A);
  }

  /// The algorithm a product in `mode` runs: `algorithm`, or for Auto the default
  /// (csr_default.hpp), with one pass over the rows where the default reads the longest. Only a
  /// bare product names Auto: an operator's kernel is always a named one (kernel_registry.hpp).
  static SpmvAlgorithm resolve(const ExecSpace& exec, const Csr& A, SpmvAlgorithm algorithm, Mode mode) {
    if (algorithm != SpmvAlgorithm::Auto) return algorithm;
    const std::int64_t longest = csrDefaultReadsLongestRow<ExecSpace>(mode) ? csrRowLengthSums(exec, A).longest : 0;
    return csrDefaultAlgorithm<ExecSpace>(mode, meanRowLength(A), longest);
  }

  /// The merge kernel keeps values between its launches, and the default may choose it. Accurate
  /// mode's chunks of long rows need workspace whatever the algorithm: an operator holds it
  /// (kernel_builders.hpp), and a bare call makes its own.
  static std::int64_t workspaceValues(const Csr& A, SpmvAlgorithm algorithm) {
    checkAlgorithm(algorithm);
    const bool mayMerge = algorithm == SpmvAlgorithm::CsrMerge || algorithm == SpmvAlgorithm::Auto;
    return mayMerge ? csrMergeWorkspaceValues<ExecSpace>(A) : 0;
  }

  template <class XView, class YView>
  static void apply(const ExecSpace& exec, const Csr& A, const XView& x, const YView& y, Value alpha, Value beta,
                    const SpmvOptions& options, const Kokkos::View<Value*, Device>& work) {
    apply(exec, A, x, y, alpha, beta, options, work, State{});
  }

  template <class XView, class YView>
  static void apply(const ExecSpace& exec, const Csr& A, const XView& x, const YView& y, Value alpha, Value beta,
                    const SpmvOptions& options, const Kokkos::View<Value*, Device>& work, const State& state) {
    checkAlgorithm(options.algorithm);
    if (options.mode == Mode::Accurate) {
      // An operator runs this on the longest row and long rows it keeps (kernel_builders.hpp).
      csrAccurateSpmv(exec, A, x, y, alpha, beta, work);
      return;
    }
    const SpmvAlgorithm algorithm = resolve(exec, A, options.algorithm, options.mode);
    if (algorithm == SpmvAlgorithm::CsrMerge) {
      csrMergePass<RoundedMergeSum<Value>>(exec, A, x, y, alpha, beta, work, state);
    } else if (algorithm == SpmvAlgorithm::CsrScalar) {
      csrRowSpmv(exec, A, x, y, alpha, beta, options.mode, "araios::spmv::csr_scalar");
    } else if (options.mode == Mode::Deterministic || (hasBackendKernel<CsrLanesPass, ExecSpace> && !options.portableOnly)) {
      // Fast mode too where the backend has its own lanes kernel: on CUDA its warp kernel runs
      // 1.6 to 2.6x faster than the portable team kernel below (H100, unseen suite), and Fast
      // mode may take any order, the canonical one included.
      csrLanesSpmv(exec, A, x, y, alpha, beta, meanRowLength(A), options.portableOnly);
    } else {
      if (A.numRows == 0) return;
      const CsrVectorShape shape = csrVectorShape<ExecSpace>(meanRowLength(A));
      const std::int64_t teams = (static_cast<std::int64_t>(A.numRows) + shape.rowsPerTeam - 1) / shape.rowsPerTeam;
      teamParallelFor("araios::spmv::csr_vector",
                      Kokkos::TeamPolicy<ExecSpace>(exec, static_cast<int>(teams), shape.teamSize, shape.vectorLength),
                      CsrVectorKernel<ExecSpace, Csr, XView, YView>{A, x, y, alpha, beta,
                                                                    static_cast<Ordinal>(shape.rowsPerTeam)});
    }
  }
};

}  // namespace araios::Impl
