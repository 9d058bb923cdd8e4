#pragma once
// Whether an execution space runs in host memory (Serial, OpenMP): kernels pick their team
// shape by it, one thread per team on a CPU, a block of threads on a GPU.
#include <Kokkos_Core.hpp>

#include <type_traits>

namespace araios::Impl {

template <class ExecSpace>
constexpr bool isHostSpace() {
  return std::is_same_v<typename ExecSpace::memory_space, Kokkos::HostSpace>;
}

}  // namespace araios::Impl
