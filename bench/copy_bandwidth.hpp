#pragma once
// The copy-bandwidth ceiling of a backend, measured at the start of the run with the same
// timing as the kernels, so every row's fraction_of_copy compares numbers from one run. Bytes
// count the read and the write: copying N bytes moves 2N, which is how SpMV's bytes are counted
// too (everything read plus everything written).
//
// Two copies, each of two buffers of `bytes` bytes (1 GiB on the GPU, 256 MiB on the CPU: both
// far past the last-level cache, so neither measures a cache):
//   copy-deep_copy  Kokkos::deep_copy between two Views (cudaMemcpyAsync on the GPU, a parallel
//                   memcpy on the host);
//   copy-kernel     a Kokkos parallel_for y(i) = x(i): the STREAM "Copy" kernel (McCalpin).
// The ceiling is the faster of the two: a kernel that beats one of them has not beaten the
// memory system.
#include "timing.hpp"

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <string>

namespace araios::bench {

struct CopyMeasurement {
  std::string kernel;
  std::int64_t bytesMoved = 0;  ///< read + written
  Timing timing;
  double gbps() const { return timing.median > 0 ? static_cast<double>(bytesMoved) / timing.median * 1e-9 : 0.0; }
};

template <class View>
struct CopyKernel {
  View to, from;
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t i) const { to(i) = from(i); }
};

template <class ExecSpace>
std::vector<CopyMeasurement> measureCopyBandwidth(const ExecSpace& exec, std::int64_t bytes, int reps) {
  using View = Kokkos::View<double*, typename ExecSpace::device_type>;
  const std::int64_t n = bytes / static_cast<std::int64_t>(sizeof(double));
  View from("araios::bench::copyFrom", n), to("araios::bench::copyTo", n);
  Kokkos::deep_copy(exec, from, 1.0);
  exec.fence();
  const std::int64_t moved = 2 * n * static_cast<std::int64_t>(sizeof(double));
  std::vector<CopyMeasurement> out;
  out.push_back({"copy-deep_copy", moved, timeRepeated(exec, reps, [&] { Kokkos::deep_copy(exec, to, from); })});
  out.push_back({"copy-kernel", moved, timeRepeated(exec, reps, [&] {
                   Kokkos::parallel_for("araios::bench::copy",
                                        Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>(exec, 0, n),
                                        CopyKernel<View>{to, from});
                 })});
  return out;
}

}  // namespace araios::bench
