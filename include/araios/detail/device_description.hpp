#pragma once
// What the performance model needs to know of the device a backend runs on, read at run time:
// its name (profiles are kept by name), its parallelism and its last-level cache. No Kokkos
// here: describeDevice (araios/model/describe_device.hpp) asks the backend.
#include <cstdint>
#include <string>

namespace araios {

struct DeviceDescription {
  std::string backend;  ///< "cuda", "openmp" or "serial"
  std::string name;     ///< "NVIDIA H100 80GB HBM3", or the CPU's model name
  int threads = 1;      ///< threads the backend runs: OpenMP's pool, or a GPU's resident threads
  int multiprocessors = 0;
  int warpsPerMultiprocessor = 0;
  int threadsPerMultiprocessor = 0;
  std::int64_t cacheBytes = 0;  ///< L2 (GPU) or last-level (CPU) cache, 0 when unknown
  double clockMHz = 0;
  double memoryClockMHz = 0;
  std::int64_t memoryBytes = 0;
};

/// The host's description for a host backend running `threads` threads (/proc/cpuinfo's model
/// name, the last-level cache, the memory); compiled in the library (src/model).
DeviceDescription describeHost(const std::string& backend, int threads);

namespace Impl {
/// BackendKernel tag: a device backend's specialisation has
///   static DeviceDescription describe(const ExecSpace&);
struct DeviceQuery {};
}  // namespace Impl

}  // namespace araios
