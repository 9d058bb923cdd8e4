// The host's description for the performance model: the CPU's model name from /proc/cpuinfo,
// its last-level cache from sysconf, and its memory. Each falls back to "unknown" or 0 where
// the system does not say.
#include <araios/detail/device_description.hpp>

#include <fstream>
#include <string>
#include <thread>
#include <unistd.h>

namespace araios {
namespace {

std::string cpuModelName() {
  std::ifstream in("/proc/cpuinfo");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("model name", 0) != 0) continue;
    const auto colon = line.find(':');
    if (colon == std::string::npos) break;
    std::string name = line.substr(colon + 1);
    const auto first = name.find_first_not_of(" \t");
    return first == std::string::npos ? "unknown CPU" : name.substr(first);
  }
  return "unknown CPU";
}

std::int64_t sysconfValue([[maybe_unused]] int name) {
#ifdef _SC_LEVEL3_CACHE_SIZE
  const long value = ::sysconf(name);
  return value > 0 ? static_cast<std::int64_t>(value) : 0;
#else
  return 0;
#endif
}

}  // namespace

DeviceDescription describeHost(const std::string& backend, int threads) {
  DeviceDescription d;
  d.backend = backend;
  d.name = cpuModelName();
  d.threads = threads;
  d.multiprocessors = static_cast<int>(std::thread::hardware_concurrency());
#ifdef _SC_LEVEL3_CACHE_SIZE
  d.cacheBytes = sysconfValue(_SC_LEVEL3_CACHE_SIZE);
  if (d.cacheBytes == 0) d.cacheBytes = sysconfValue(_SC_LEVEL2_CACHE_SIZE);
#endif
  const long pages = ::sysconf(_SC_PHYS_PAGES), pageSize = ::sysconf(_SC_PAGESIZE);
  if (pages > 0 && pageSize > 0) d.memoryBytes = static_cast<std::int64_t>(pages) * pageSize;
  return d;
}

}  // namespace araios
