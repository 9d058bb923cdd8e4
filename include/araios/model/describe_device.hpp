#pragma once
// describeDevice(exec): the description of the device an execution space runs on, from the
// backend's query where it has one (CUDA: backends/cuda/device_description_cuda.hpp), else the
// host's.
#include <araios/backends/backends.hpp>
#include <araios/detail/backend_kernel.hpp>
#include <araios/detail/device_description.hpp>

#include <Kokkos_Core.hpp>

#include <cctype>
#include <string>

namespace araios {

/// The lower-case name of a Kokkos execution space: "cuda", "openmp", "serial".
template <class ExecSpace>
std::string backendName() {
  std::string name = ExecSpace::name();
  for (char& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return name;
}

template <class ExecSpace>
DeviceDescription describeDevice(const ExecSpace& exec) {
  if constexpr (Impl::hasBackendKernel<Impl::DeviceQuery, ExecSpace>) {
    return Impl::BackendKernel<Impl::DeviceQuery, ExecSpace>::describe(exec);
  } else {
    return describeHost(backendName<ExecSpace>(), exec.concurrency());
  }
}

}  // namespace araios
