#pragma once
// Atomic additions to integer counters, cursors and fixed-point limbs at the hardware's own speed.
//
// Kokkos 3.4's CUDA atomics add natively on int, unsigned int and unsigned long long only. A
// signed 64-bit integer, the offset type of large matrices and the exact accumulator's limb,
// falls back to a compare-and-swap loop there: on a contended counter every competing thread
// retries, and the additions to one address run one round trip at a time. Two's-complement
// addition gives the same bits in the unsigned type of the same width, so on a GPU a signed
// 64-bit addition goes through unsigned long long. Host code keeps the type it was given.
#include <Kokkos_Core.hpp>

#include <type_traits>

namespace araios::Impl {

/// Adds value to *target atomically and returns the value it held before.
template <class Int>
KOKKOS_INLINE_FUNCTION Int atomicFetchAddInteger(Int* target, Int value) {
  static_assert(std::is_integral_v<Int>, "atomicFetchAddInteger adds integers");
#if defined(__CUDA_ARCH__)
  if constexpr (std::is_signed_v<Int> && sizeof(Int) == sizeof(unsigned long long)) {
    return static_cast<Int>(Kokkos::atomic_fetch_add(reinterpret_cast<unsigned long long*>(target),
                                                     static_cast<unsigned long long>(value)));
  } else {
    return Kokkos::atomic_fetch_add(target, value);
  }
#else
  return Kokkos::atomic_fetch_add(target, value);
#endif
}

}  // namespace araios::Impl
