#pragma once
// Vectors between the host and a device: a host vector's copy in a device view, and a device
// view's contents on the host.
#include <Kokkos_Core.hpp>

#include <string>
#include <vector>

namespace araios::test {

/// A device view holding v.
template <class Device, class T>
Kokkos::View<T*, Device> deviceVector(const std::vector<T>& v, const std::string& label) {
  Kokkos::View<T*, Device> d(label, v.size());
  Kokkos::deep_copy(d, Kokkos::View<const T*, Kokkos::HostSpace>(v.data(), v.size()));
  return d;
}

/// A device view's contents on the host, as they are.
template <class View>
std::vector<typename View::non_const_value_type> hostValues(const View& v) {
  auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), v);
  return std::vector<typename View::non_const_value_type>(h.data(), h.data() + h.extent(0));
}

}  // namespace araios::test
