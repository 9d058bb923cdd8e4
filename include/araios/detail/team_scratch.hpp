#pragma once
// Arrays in a team's scratch (shared memory on a GPU) taken as raw pointers. A scratch View
// constructed in a kernel costs a bounds-checked allocation per team on every backend, and
// on CUDA its constructor has tripped device asserts; a pointer from get_shmem_aligned does
// neither.
#include <Kokkos_Core.hpp>

#include <cstddef>

namespace araios::Impl {

/// Bytes of team scratch for an array of n T, with room to align it.
template <class T>
constexpr std::size_t scratchArrayBytes(std::size_t n) {
  return n * sizeof(T) + alignof(T);
}

/// An array of n T in the team's scratch, aligned (each of the team's threads gets the same one).
template <class T, class Member>
KOKKOS_INLINE_FUNCTION T* scratchArray(const Member& team, std::size_t n) {
  return static_cast<T*>(team.team_scratch(0).get_shmem_aligned(static_cast<std::ptrdiff_t>(n * sizeof(T)),
                                                                 static_cast<std::ptrdiff_t>(alignof(T))));
}

}  // namespace araios::Impl
