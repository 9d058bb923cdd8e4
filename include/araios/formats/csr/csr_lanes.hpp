#pragma once
// The parts of CSR SpMV that its portable kernels (csr_spmv.hpp) and a backend's hand-written
// csr-vector kernel (backends/<backend>/csr_lanes_<backend>.hpp) share: the canonical lane
// count, the launch shapes and the hook's tag.
#include <araios/detail/spmv_dispatch.hpp>

namespace araios::Impl {

/// Virtual lanes of the canonical order of the deterministic vector kernel: one NVIDIA warp.
/// Part of the definition of the result (another value changes the bits), not a tuning knob.
constexpr int kCanonicalLanes = 32;

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

/// Launch shape of the deterministic lanes kernel: Fast mode's shape (csrVectorShape) for a mean
/// row length of at least 4, so that on a GPU a 256-thread team holds at most 64 rows and its
/// scratch, 32 values per row, stays at 16 KB for double. The shape changes only the speed: the
/// canonical order is the same for any shape.
template <class ExecSpace>
CsrVectorShape csrLanesShape(double meanRowLength) {
  constexpr double kMinLanes = 4;
  return csrVectorShape<ExecSpace>(meanRowLength > kMinLanes ? meanRowLength : kMinLanes);
}

/// The deterministic csr-vector product, the part of CSR SpMV a backend may write by hand:
/// BackendKernel<CsrLanesPass, ExecSpace> (detail/backend_kernel.hpp) with
///   template <class Csr, class XView, class YView>
///   static void apply(const ExecSpace&, const Csr&, const XView&, const YView&, Value alpha, Value beta,
///                     double meanRowLength);
/// giving the bits of csrLanesPortableSpmv.
struct CsrLanesPass {};

}  // namespace araios::Impl
