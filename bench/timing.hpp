#pragma once
// Timing of repeated products: kWarmups untimed runs, then `reps` timed ones, each timed on
// its own. On the GPU, CUDA events recorded on the execution space's stream around the call
// (bench/cuda/cuda_event_timer.hpp); on the CPU, a host timer around the call and a fence.
// The median is reported: unlike the mean it ignores the odd rep that an interrupt or a clock
// change stretched, and unlike the minimum it does not reward a lucky rep.
#include "bench_options.hpp"

#include <Kokkos_Core.hpp>

#ifdef KOKKOS_ENABLE_CUDA
#include "cuda/cuda_event_timer.hpp"
#endif

#include <algorithm>
#include <type_traits>
#include <vector>

namespace araios::bench {

struct Timing {
  double median = 0;
  double min = 0;
  double max = 0;
};

inline Timing summarize(std::vector<double> times) {
  Timing t;
  if (times.empty()) return t;
  std::sort(times.begin(), times.end());
  const std::size_t n = times.size();
  t.median = n % 2 ? times[n / 2] : (times[n / 2 - 1] + times[n / 2]) / 2;
  t.min = times.front();
  t.max = times.back();
  return t;
}

/// Runs f() kWarmups + reps times on `exec` and times the last reps.
template <class ExecSpace, class F>
Timing timeRepeated(const ExecSpace& exec, int reps, F&& f) {
  for (int w = 0; w < kWarmups; ++w) f();
  exec.fence();
  std::vector<double> times;
  times.reserve(static_cast<std::size_t>(reps));
#ifdef KOKKOS_ENABLE_CUDA
  if constexpr (std::is_same_v<ExecSpace, Kokkos::Cuda>) {
    cuda::CudaEventTimer timer(exec.cuda_stream());
    for (int r = 0; r < reps; ++r) {
      timer.start();
      f();
      times.push_back(timer.stop());
    }
    exec.fence();
    return summarize(std::move(times));
  }
#endif
  Kokkos::Timer timer;
  for (int r = 0; r < reps; ++r) {
    timer.reset();
    f();
    exec.fence();
    times.push_back(timer.seconds());
  }
  return summarize(std::move(times));
}

}  // namespace araios::bench
