#pragma once
// What every format test needs besides its checks: the types of one test configuration
// (kokkos_env.hpp's AllConfigs) for a format, and host copies of device views to compare.
// Builds are checked by format_check.hpp's buildChecked.
#include "device_vectors.hpp"

#include <araios/formats/csr/csr.hpp>

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <vector>

namespace araios::test {

/// The types of configuration Cfg for the format template Format (EllMatrix, DiaMatrix, ...).
template <class Cfg, template <class, class, class, class> class Format>
struct FormatTypes {
  using Exec = typename Cfg::execution_space;
  using Value = typename Cfg::value_type;
  using Ordinal = typename Cfg::ordinal_type;
  using Offset = typename Cfg::size_type;
  using Device = typename Cfg::device_type;
  using Csr = CsrMatrix<Value, Ordinal, Offset, Device>;
  using Matrix = Format<Value, Ordinal, Offset, Device>;
  using Vector = Kokkos::View<Value*, Device>;
};

/// A device view of indices on the host, widened to 64 bits (to compare with io::HostMatrix).
template <class View>
std::vector<std::int64_t> hostInts(const View& v) {
  auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), v);
  return std::vector<std::int64_t>(h.data(), h.data() + h.extent(0));
}

/// A device view of values on the host, widened to double (float -> double is exact).
template <class View>
std::vector<double> hostDoubles(const View& v) {
  auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), v);
  return std::vector<double>(h.data(), h.data() + h.extent(0));
}

}  // namespace araios::test
