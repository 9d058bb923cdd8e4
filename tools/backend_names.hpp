#pragma once
// The names of the backends compiled into this build, for option parsing and messages. No
// Kokkos header: the files that parse options compile on the host alone.
#include <enabled_backends.hpp>

#include <string>
#include <vector>

namespace araios::cli {

/// Backends compiled into this build, in the order they are listed to users.
inline std::vector<std::string> enabledBackends() { return {ARAIOS_BUILD_BACKEND_NAMES}; }

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

}  // namespace araios::cli
