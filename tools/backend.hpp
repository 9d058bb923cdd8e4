#pragma once
// The execution spaces the command line can run on, and the one switch that maps a name to a
// Kokkos execution space compiled into this build.
#include <araios/error.hpp>

#include <Kokkos_Core.hpp>

#include <string>
#include <vector>

namespace araios::cli {

enum class Backend { Serial, OpenMP, Cuda };

/// Backends compiled into this build, in the order they are listed to users.
inline std::vector<std::string> enabledBackends() {
  std::vector<std::string> names;
#ifdef KOKKOS_ENABLE_SERIAL
  names.push_back("serial");
#endif
#ifdef KOKKOS_ENABLE_OPENMP
  names.push_back("openmp");
#endif
#ifdef KOKKOS_ENABLE_CUDA
  names.push_back("cuda");
#endif
  return names;
}

/// The default backend: the GPU when there is one in the build, else OpenMP.
inline std::string defaultBackend() { return enabledBackends().back(); }

inline std::string joined(const std::vector<std::string>& items) {
  std::string out;
  for (const auto& s : items) out += (out.empty() ? "" : ", ") + s;
  return out;
}

/// "auto" followed by `names`: the choices of a --format option.
inline std::vector<std::string> withAuto(std::vector<std::string> names) {
  names.insert(names.begin(), "auto");
  return names;
}

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
