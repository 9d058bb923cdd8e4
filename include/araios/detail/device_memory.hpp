#pragma once
// Memory checks before large allocations: what an execution space's memory has free, and the
// refusal (OutOfMemoryError) of a conversion, product or solver that would not fit, naming the
// bytes needed and the bytes free. A refused call has allocated nothing of its large arrays, so
// no partial result escapes.
//
// The free memory of host spaces is read here (Linux: MemAvailable, bounded by the cgroup's
// limit; elsewhere sysconf). A device backend answers through the BackendKernel hook
// (detail/backend_kernel.hpp) with the tag FreeMemoryQuery: its specialisation (for CUDA,
// backends/cuda/free_memory_cuda.hpp, cudaMemGetInfo) is seen wherever the entry headers are
// included. A space that cannot say (-1) is not refused in advance; an allocation that fails
// anyway is turned into the same error by refuseAllocationFailure at the operator's and the
// solvers' entry.
#include <araios/detail/backend_kernel.hpp>
#include <araios/error.hpp>
#include <araios/types.hpp>

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <cstdio>
#include <fstream>
#include <limits>
#include <new>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>

#if defined(__unix__) || defined(__APPLE__)
#include <unistd.h>
#endif

namespace araios {

namespace Impl {

/// BackendKernel tag: a device backend's specialisation has
///   static std::int64_t freeBytes(const ExecSpace&);   // bytes free in its memory space
struct FreeMemoryQuery {};

/// The value (in bytes) of a "Key:   N kB" line of /proc/meminfo, or -1.
inline std::int64_t meminfoBytes(const char* key) {
  std::ifstream in("/proc/meminfo");
  std::string name;
  long long kib = 0;
  std::string unit;
  while (in >> name >> kib) {
    std::getline(in, unit);
    if (name == key) return static_cast<std::int64_t>(kib) * 1024;
  }
  return -1;
}

/// A number read from a one-line file (a cgroup limit), or -1 ("max", absent, unreadable).
inline std::int64_t numberInFile(const char* path) {
  std::ifstream in(path);
  long long value = -1;
  if (!(in >> value)) return -1;
  return static_cast<std::int64_t>(value);
}

/// Host memory available to this process without swapping: MemAvailable (which counts
/// reclaimable caches, unlike MemFree), bounded by the cgroup v2 limit left when one is set;
/// sysconf's available pages where /proc is absent; -1 when nothing says.
inline std::int64_t hostAvailableBytes() {
  std::int64_t available = meminfoBytes("MemAvailable:");
#if defined(_SC_AVPHYS_PAGES) && defined(_SC_PAGESIZE)
  if (available < 0) {
    const long pages = sysconf(_SC_AVPHYS_PAGES), pageSize = sysconf(_SC_PAGESIZE);
    if (pages > 0 && pageSize > 0) available = static_cast<std::int64_t>(pages) * pageSize;
  }
#endif
  const std::int64_t limit = numberInFile("/sys/fs/cgroup/memory.max");
  const std::int64_t used = numberInFile("/sys/fs/cgroup/memory.current");
  if (limit > 0 && used >= 0) {
    const std::int64_t left = limit > used ? limit - used : 0;
    if (available < 0 || left < available) available = left;
  }
  return available;
}

}  // namespace Impl

/// Bytes free in the memory space of `exec` (HostSpace: available host memory; CUDA: what
/// cudaMemGetInfo reports for the current device), or -1 when the space cannot say.
template <class ExecSpace>
std::int64_t freeBytes(const ExecSpace& exec) {
  if constexpr (Impl::hasBackendKernel<Impl::FreeMemoryQuery, ExecSpace>) {
    return Impl::BackendKernel<Impl::FreeMemoryQuery, ExecSpace>::freeBytes(exec);
  } else if constexpr (std::is_same_v<typename ExecSpace::memory_space, Kokkos::HostSpace>) {
    (void)exec;
    return Impl::hostAvailableBytes();
  } else {
    (void)exec;
    return -1;
  }
}

namespace Impl {

/// "building ELL for a 1,000 x 2,000 matrix": the subject of a conversion's refusal.
inline std::string buildingWhat(const char* format, std::int64_t rows, std::int64_t cols) {
  return std::string("building ") + format + " for a " + groupedDigits(rows) + " x " + groupedDigits(cols) + " matrix";
}

inline std::string freeBytesText(std::int64_t free) {
  return free < 0 ? std::string("the free memory is unknown") : groupedDigits(free) + " bytes are free";
}

}  // namespace Impl

/// Refuses (OutOfMemoryError, before anything is allocated) `what` when its `bytes` exceed the
/// free memory of `exec`'s space. `what` reads as the subject of the message, e.g. "building
/// ELL for a 1,000 x 1,000 matrix": "... needs 12,000 bytes on Cuda; 10,000 bytes are free".
template <class ExecSpace>
void requireMemory(const ExecSpace& exec, std::int64_t bytes, const std::string& what) {
  const std::int64_t free = freeBytes(exec);
  if (free < 0 || bytes <= free) return;
  throw OutOfMemoryError(what + " needs " + groupedDigits(bytes) + " bytes on " + ExecSpace::name() + "; " +
                             Impl::freeBytesText(free) + ". Expected a matrix (or options) that fit the device",
                         bytes, free);
}

namespace Impl {

/// Whether `message` is Kokkos 3.x's report of a failed View allocation. Kokkos 3.x turns the
/// allocator's RawMemoryAllocationFailure into a std::runtime_error with this text
/// (impl/Kokkos_MemorySpace.cpp, safe_throw_allocation_with_header_failure); Kokkos 4.x throws
/// the RawMemoryAllocationFailure itself, a std::bad_alloc.
inline bool isKokkosAllocationFailure(const std::string& message) {
  return message.rfind("Kokkos failed to allocate memory", 0) == 0 ||
         message.rfind("Kokkos encountered an allocation failure", 0) == 0;
}

template <class ExecSpace>
[[noreturn]] void throwAllocationFailure(const ExecSpace& exec, const std::string& what, const char* allocator) {
  std::int64_t free = -1;
  try {
    free = freeBytes(exec);
  } catch (const Error&) {
    // The query failed as well: report the allocation failure alone.
  }
  throw OutOfMemoryError(what + " ran out of memory on " + std::string(ExecSpace::name()) + " (" + allocator + "); " +
                             freeBytesText(free),
                         -1, free);
}

}  // namespace Impl

/// Runs f(); a failed allocation inside it comes out as OutOfMemoryError naming `what`, the
/// allocator's own message (the label and the bytes it asked for) and the bytes free: Kokkos
/// 4.x throws a std::bad_alloc (RawMemoryAllocationFailure), Kokkos 3.4 a std::runtime_error
/// with a fixed text (Impl::isKokkosAllocationFailure). Araios' own errors pass through. The
/// Views f() had allocated are released by the unwinding, so nothing partial is left behind.
template <class ExecSpace, class F>
decltype(auto) refuseAllocationFailure(const ExecSpace& exec, const std::string& what, F&& f) {
  try {
    return std::forward<F>(f)();
  } catch (const Error&) {
    throw;
  } catch (const std::bad_alloc& e) {
    Impl::throwAllocationFailure(exec, what, e.what());
  } catch (const std::runtime_error& e) {
    if (!Impl::isKokkosAllocationFailure(e.what())) throw;
    Impl::throwAllocationFailure(exec, what, e.what());
  }
}

}  // namespace araios
