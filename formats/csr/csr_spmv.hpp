#pragma once
// CSR SpMV, two portable kernels:
//   scalar: one thread per row; best for short, even rows (stencils, road networks).
//   vector: a team of threads, each with a group of vector lanes, per block of rows; the lanes
//           of one row reduce together, so long rows are read coalesced on a GPU.
#include <araios/detail/spmv_dispatch.hpp>
#include <formats/csr/csr.hpp>

#include <algorithm>

namespace araios::Impl {

template <class Csr, class XView, class YView>
struct CsrScalarKernel {
  using Value = typename Csr::value_type;
  Csr A;
  XView x;
  YView y;
  Value alpha, beta;
  KOKKOS_INLINE_FUNCTION void operator()(typename Csr::ordinal_type i) const {
    Value sum = 0;
    for (auto k = A.rowPtr(i); k < A.rowPtr(i + 1); ++k) sum += A.values(k) * x(A.colIdx(k));
    storeRow(y, i, sum, alpha, beta);
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

/// Launch shape of the vector kernel. On a GPU the lanes per row follow the mean row length
/// (a power of two up to the warp width) and a team holds 256 threads, a block size that keeps
/// every Hopper/Ampere SM busy; on a CPU one thread takes a chunk of rows with one lane.
struct CsrVectorShape {
  int vectorLength;
  int teamSize;
  int rowsPerTeam;
};

template <class ExecSpace>
CsrVectorShape csrVectorShape(double meanRowLength) {
  constexpr int kThreadsPerTeam = 256;
  constexpr int kHostRowsPerTeam = 128;  // enough work per team to amortise scheduling
  if constexpr (isHostSpace<ExecSpace>()) {
    return {1, 1, kHostRowsPerTeam};
  } else {
    int lanes = 1;
    while (lanes < 32 && lanes < meanRowLength) lanes *= 2;
    const int teamSize = kThreadsPerTeam / lanes;
    return {lanes, teamSize, teamSize};
  }
}

template <class ExecSpace, class Value, class Ordinal, class Offset, class Device>
struct Spmv<ExecSpace, CsrMatrix<Value, Ordinal, Offset, Device>> {
  using Csr = CsrMatrix<Value, Ordinal, Offset, Device>;

  template <class XView, class YView>
  static void apply(const ExecSpace& exec, const Csr& A, const XView& x, const YView& y, Value alpha, Value beta,
                    const SpmvOptions& options) {
    const double meanRowLength = A.numRows > 0 ? static_cast<double>(A.nnz()) / A.numRows : 0.0;
    SpmvAlgorithm algorithm = options.algorithm;
    if (algorithm == SpmvAlgorithm::Auto) {
      // Rows of more than a few entries leave scalar threads waiting on uncoalesced loads.
      constexpr double kVectorFromMeanRowLength = 8.0;
      algorithm = !isHostSpace<ExecSpace>() && meanRowLength > kVectorFromMeanRowLength ? SpmvAlgorithm::CsrVector
                                                                                          : SpmvAlgorithm::CsrScalar;
    }
    if (algorithm == SpmvAlgorithm::CsrScalar) {
      Kokkos::parallel_for("araios::spmv::csr_scalar",
                           Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<Ordinal>>(exec, 0, A.numRows),
                           CsrScalarKernel<Csr, XView, YView>{A, x, y, alpha, beta});
    } else if (algorithm == SpmvAlgorithm::CsrVector) {
      if (A.numRows == 0) return;
      const CsrVectorShape shape = csrVectorShape<ExecSpace>(meanRowLength);
      const std::int64_t teams = (static_cast<std::int64_t>(A.numRows) + shape.rowsPerTeam - 1) / shape.rowsPerTeam;
      Kokkos::parallel_for("araios::spmv::csr_vector",
                           Kokkos::TeamPolicy<ExecSpace>(exec, static_cast<int>(teams), shape.teamSize, shape.vectorLength),
                           CsrVectorKernel<ExecSpace, Csr, XView, YView>{A, x, y, alpha, beta,
                                                                         static_cast<Ordinal>(shape.rowsPerTeam)});
    } else {
      refuseAlgorithm(algorithm, "CSR");
    }
  }
};

}  // namespace araios::Impl
