#pragma once
// Small team-level tools of the SpGEMM kernels: bit counting, an on-chip hash set of column
// indices, and a bitonic sort, each written once for a CUDA team and for the one-thread teams
// of the host backends (where no atomics are needed: a team's scratch is its thread's own).
#include <Kokkos_Core.hpp>

#include <cstdint>
#include <limits>
#include <type_traits>

namespace araios::Impl {

KOKKOS_INLINE_FUNCTION int popCount32(std::uint32_t x) {
#if defined(__CUDA_ARCH__)
  return __popc(x);
#else
  // The bit-slicing count: a portable build (no -mpopcnt) would otherwise call libgcc.
  x = x - ((x >> 1) & 0x55555555u);
  x = (x & 0x33333333u) + ((x >> 2) & 0x33333333u);
  x = (x + (x >> 4)) & 0x0f0f0f0fu;
  return static_cast<int>((x * 0x01010101u) >> 24);
#endif
}

KOKKOS_INLINE_FUNCTION int lowestBit32(std::uint32_t x) {
#if defined(__CUDA_ARCH__)
  return __ffs(static_cast<int>(x)) - 1;
#else
  return __builtin_ctz(x);
#endif
}

/// Whether a team of `ExecSpace` is one thread (the host backends, as the SpGEMM launches
/// them): its scratch is private, and plain stores replace atomics.
template <class ExecSpace>
constexpr bool kOneThreadTeams = std::is_same_v<typename ExecSpace::memory_space, Kokkos::HostSpace>;

/// The largest Ordinal (computed here: std::numeric_limits is host code to nvcc without
/// relaxed constexpr).
template <class Ordinal>
KOKKOS_INLINE_FUNCTION constexpr Ordinal emptyKey() {
  static_assert(std::is_signed_v<Ordinal>, "signed ordinals");
  return static_cast<Ordinal>(static_cast<std::make_unsigned_t<Ordinal>>(~std::make_unsigned_t<Ordinal>(0)) >> 1);
}

/// Inserts `key` into an open-addressing table of mask + 1 slots (linear probing, emptyKey()
/// for a free slot); true when the key was not there yet. Slots only ever go from empty to a
/// key, so a stale read of a free slot is caught by the compare-and-swap.
template <bool OneThread, class Ordinal>
KOKKOS_INLINE_FUNCTION bool insertKey(Ordinal* table, std::uint32_t mask, Ordinal key) {
  std::uint32_t h = (static_cast<std::uint32_t>(key) * 2654435761u) & mask;
  while (true) {
    Ordinal old = static_cast<volatile Ordinal*>(table)[h];
    if (old == key) return false;
    if (old == emptyKey<Ordinal>()) {
      if constexpr (OneThread) {
        table[h] = key;
        return true;
      } else {
        old = Kokkos::atomic_compare_exchange(&table[h], emptyKey<Ordinal>(), key);
        if (old == emptyKey<Ordinal>()) return true;
        if (old == key) return false;
      }
    }
    h = (h + 1) & mask;
  }
}

/// Sorts a[0, n) ascending, n a power of two, by a bitonic network: log2(n)(log2(n)+1)/2
/// rounds of n/2 compare-exchanges, a team barrier after each.
template <class Member, class T>
KOKKOS_INLINE_FUNCTION void teamBitonicSort(const Member& m, T* a, int n) {
  for (int size = 2; size <= n; size <<= 1) {
    for (int stride = size >> 1; stride > 0; stride >>= 1) {
      Kokkos::parallel_for(Kokkos::TeamThreadRange(m, n / 2), [&](const int t) {
        const int lo = 2 * stride * (t / stride) + t % stride;
        const int hi = lo + stride;
        const bool ascending = (lo & size) == 0;
        const T x = a[lo], y = a[hi];
        if ((x > y) == ascending) {
          a[lo] = y;
          a[hi] = x;
        }
      });
      m.team_barrier();
    }
  }
}

/// The smallest power of two >= n (n >= 1).
KOKKOS_INLINE_FUNCTION std::int64_t nextPowerOfTwo(std::int64_t n) {
  std::int64_t p = 1;
  while (p < n) p <<= 1;
  return p;
}

}  // namespace araios::Impl
