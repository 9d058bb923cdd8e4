#pragma once
// Whether an execution space runs in host memory (Serial, OpenMP): kernels pick their team
// shape by it, one thread per team on a CPU, a block of threads on a GPU, and Fast mode its
// path (fastModeScattersAtomically).
#include <Kokkos_Core.hpp>

#include <type_traits>

namespace araios::Impl {

template <class ExecSpace>
constexpr bool isHostSpace() {
  return std::is_same_v<typename ExecSpace::memory_space, Kokkos::HostSpace>;
}

/// Whether Fast mode scatters products into y with atomic additions on ExecSpace, for the
/// formats that have such a path (COO, HYB's COO part, BRC). On a GPU atomics are cheap and a
/// thread per entry or slot row balances any row lengths. On a CPU the atomic addition of a
/// double is a compare-and-swap loop on a shared cache line: on a 2-core Xeon, over sixteen
/// matrices of the drawn suite, COO's scatter took 2.5 to 12 times its own row walk, HYB's 0.87
/// to 6.2 times and BRC's 1.03 to 1.73 times (bench/results/cpu-2core-xeon/). So Fast mode
/// walks the rows there, and its bits are then Deterministic mode's.
template <class ExecSpace>
constexpr bool fastModeScattersAtomically() {
  return !isHostSpace<ExecSpace>();
}

}  // namespace araios::Impl
