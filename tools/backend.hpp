#pragma once
// The one switch that maps a backend's name to a Kokkos execution space compiled into this
// build.
#include "backend_names.hpp"

#include <araios/error.hpp>

#include <Kokkos_Core.hpp>

#include <string>

namespace araios::cli {

/// Calls f(ExecSpace{}) for the named backend.
template <class F>
void withBackend(const std::string& name, F&& f) {
#ifdef KOKKOS_ENABLE_SERIAL
  if (name == "serial") return f(Kokkos::Serial());
#endif
#ifdef KOKKOS_ENABLE_OPENMP
  if (name == "openmp") return f(Kokkos::OpenMP());
#endif
#ifdef KOKKOS_ENABLE_CUDA
  if (name == "cuda") return f(Kokkos::Cuda());
#endif
  throw UnsupportedError("backend '" + name + "' is not enabled in this build; expected one of: " +
                         joined(enabledBackends()));
}

}  // namespace araios::cli
