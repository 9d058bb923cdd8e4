#pragma once
// The most bytes a product held at once in one Kokkos memory space, measured from Kokkos's own
// allocation events (Kokkos::Tools allocate/deallocate callbacks): what every Kokkos View of the
// product allocated while the tracker was on and had not yet freed. An independent measure of
// the peak, beside what each implementation reports of itself (SpgemmStats::peakBytes, the sum
// of cuSPARSE's buffers), and the only one for Kokkos Kernels. Memory a library allocates
// outside Kokkos (cudaMalloc inside cuSPARSE, if it does) is not seen.
//
// One tracker at a time, in one thread (the allocations of the Views the benchmark and the
// libraries create happen on the host thread that runs the product). Where a Kokkos tool is
// already loaded (KOKKOS_PROFILE_LIBRARY / KOKKOS_TOOLS_LIBS), the tracker stays off and
// reports nothing rather than replace the tool's callbacks. With only these two callbacks set,
// Kokkos adds no fences: its kernel-launch callbacks stay empty.
#include <Kokkos_Core.hpp>

#include <cstdint>
#include <cstring>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>

namespace araios::bench {

class AllocationTracker {
 public:
  /// Starts tracking allocations in the memory space named `spaceName` (MemorySpace::name()).
  explicit AllocationTracker(const char* spaceName) {
    if (Kokkos::Tools::profileLibraryLoaded()) return;
    State& s = state();
    std::lock_guard<std::mutex> lock(s.mutex);
    s.space = spaceName;
    s.live.clear();
    s.current = s.peak = 0;
    s.paused = false;
    Kokkos::Tools::Experimental::set_allocate_data_callback(&onAllocate);
    Kokkos::Tools::Experimental::set_deallocate_data_callback(&onDeallocate);
    active_ = true;
  }
  ~AllocationTracker() {
    if (!active_) return;
    Kokkos::Tools::Experimental::set_allocate_data_callback(nullptr);
    Kokkos::Tools::Experimental::set_deallocate_data_callback(nullptr);
  }
  AllocationTracker(const AllocationTracker&) = delete;
  AllocationTracker& operator=(const AllocationTracker&) = delete;

  /// The peak so far, or nothing when a loaded tool kept the tracker off.
  std::optional<std::int64_t> peakBytes() const {
    if (!active_) return std::nullopt;
    State& s = state();
    std::lock_guard<std::mutex> lock(s.mutex);
    return s.peak;
  }

  /// While one exists, allocations are not counted (the benchmark's own copies of a result);
  /// frees of counted allocations still are.
  class Pause {
   public:
    Pause() { set(true); }
    ~Pause() { set(false); }
    Pause(const Pause&) = delete;
    Pause& operator=(const Pause&) = delete;

   private:
    static void set(bool paused) {
      State& s = state();
      std::lock_guard<std::mutex> lock(s.mutex);
      s.paused = paused;
    }
  };

 private:
  struct State {
    std::mutex mutex;
    std::string space;
    std::unordered_map<const void*, std::uint64_t> live;
    std::int64_t current = 0;
    std::int64_t peak = 0;
    bool paused = false;
  };
  static State& state() {
    static State s;
    return s;
  }

  static void onAllocate(Kokkos_Profiling_SpaceHandle handle, const char*, const void* ptr, std::uint64_t size) {
    State& s = state();
    std::lock_guard<std::mutex> lock(s.mutex);
    if (s.paused || std::strncmp(handle.name, s.space.c_str(), sizeof handle.name) != 0) return;
    s.live[ptr] = size;
    s.current += static_cast<std::int64_t>(size);
    if (s.current > s.peak) s.peak = s.current;
  }

  static void onDeallocate(Kokkos_Profiling_SpaceHandle, const char*, const void* ptr, std::uint64_t) {
    State& s = state();
    std::lock_guard<std::mutex> lock(s.mutex);
    // Only what was allocated while tracking: A and B, made before, never count.
    const auto it = s.live.find(ptr);
    if (it == s.live.end()) return;
    s.current -= static_cast<std::int64_t>(it->second);
    s.live.erase(it);
  }

  bool active_ = false;
};

}  // namespace araios::bench
