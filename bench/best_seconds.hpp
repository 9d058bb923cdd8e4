#pragma once
// The small benchmark programs' timer (araios-bench-vector, araios-bench-cg): the best of a few
// runs, each fenced on both sides, so a run's time holds its whole work and nothing before it.
// araios-bench itself reports medians with CUDA events (timing.hpp).
#include <Kokkos_Core.hpp>

#include <algorithm>

namespace araios::bench {

/// Best seconds of `repeats` runs of f on `exec`.
template <class ExecSpace, class F>
double bestSeconds(const ExecSpace& exec, int repeats, const F& f) {
  double best = 1e300;
  for (int r = 0; r < repeats; ++r) {
    exec.fence();
    Kokkos::Timer timer;
    f();
    exec.fence();
    best = std::min(best, timer.seconds());
  }
  return best;
}

}  // namespace araios::bench
