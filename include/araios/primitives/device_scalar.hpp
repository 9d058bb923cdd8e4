#pragma once
// Scalars that stay on the device. A Krylov solver computes a dot product, divides two of them
// and scales a vector by the quotient in every iteration; if each scalar made a round trip to
// the host, each would cost a synchronisation (tens of microseconds on a GPU, more than the
// kernels of a small matrix). The reductions therefore write their result into a slot of a
// device array, and the vector primitives read their coefficient from such a slot inside the
// kernel. Only the scalar a convergence test needs is copied back.
#include <Kokkos_Core.hpp>

#include <stdexcept>

namespace araios {

/// One slot of a device array of scalars, optionally read negated (negation is exact, so
/// y - h*v can reuse the slot that holds h).
template <class Value, class Device>
struct DeviceScalar {
  using value_type = Value;
  Kokkos::View<Value*, Device> slots;
  int index = 0;
  bool negate = false;

  KOKKOS_INLINE_FUNCTION Value read() const { return negate ? -slots(index) : slots(index); }
  KOKKOS_INLINE_FUNCTION Value& ref() const { return slots(index); }
  DeviceScalar negated() const { return {slots, index, !negate}; }
};

template <class T>
struct IsDeviceScalar : std::false_type {};
template <class Value, class Device>
struct IsDeviceScalar<DeviceScalar<Value, Device>> : std::true_type {};

namespace Impl {

/// A coefficient as a kernel sees it: a host value captured by copy, or a device slot read in
/// the kernel. Lets each vector primitive take either without two versions of its kernel.
template <class Value, class Coefficient>
KOKKOS_INLINE_FUNCTION Value coefficient(const Coefficient& c) {
  if constexpr (IsDeviceScalar<Coefficient>::value) {
    return c.read();
  } else {
    return static_cast<Value>(c);
  }
}

/// Runs f() once on the device: the scalar arithmetic between reductions (alpha = rho / pq,
/// a Givens rotation) stays where its operands are.
template <class ExecSpace, class F>
void runOnce(const char* label, const ExecSpace& exec, const F& f) {
  Kokkos::parallel_for(label, Kokkos::RangePolicy<ExecSpace>(exec, 0, 1), f);
}

}  // namespace Impl

/// Copies `count` scalars from slot `first` into host(0 .. count-1) and waits for them: the
/// one synchronisation a solver iteration makes. `host` must be a separate array
/// (Kokkos::create_mirror, not create_mirror_view, which on a host backend is `slots` itself).
template <class Value, class Device>
void readScalars(const Kokkos::View<Value*, Device>& slots, int first, int count,
                 const typename Kokkos::View<Value*, Device>::HostMirror& host) {
  if (static_cast<const void*>(host.data()) == static_cast<const void*>(slots.data()) && first != 0) {
    throw std::logic_error("araios::readScalars: `host` aliases `slots`; expected a separate host array");
  }
  Kokkos::deep_copy(Kokkos::subview(host, std::make_pair(0, count)),
                    Kokkos::subview(slots, std::make_pair(first, first + count)));
}

}  // namespace araios
