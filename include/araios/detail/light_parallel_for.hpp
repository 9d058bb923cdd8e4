#pragma once
// A parallel_for for kernels with little work per index (vector updates, copies, fills,
// scatters): f(i) runs once for every i in [0, n).
//
// On a host backend it is a plain RangePolicy. On a GPU it is a TeamPolicy, because Kokkos 3.4's
// block-size deduction (cuda_deduce_block_size) gives a light RangePolicy kernel 64-thread
// blocks, whatever its LaunchBounds: on an H100 such a copy reaches 0.57 of cudaMemcpy's
// bandwidth, limited by how fast blocks launch, while 256-thread teams that each cover a
// contiguous chunk reach 0.95 (shared/probes/README.md).
#include <araios/detail/host_space.hpp>

#include <Kokkos_Core.hpp>

#include <climits>
#include <cstdint>

namespace araios {
namespace Impl {

/// Threads per team: the probe's block size; 128 and 256 measured alike, 64 is the slow case.
constexpr std::int64_t kLightTeamSize = 256;
/// Indices per thread on long vectors: 8 (2,048 per team) is the shape measured at 0.95.
constexpr std::int64_t kLightMaxPerThread = 8;
/// The fewest teams a launch aims for: about one full wave of 256-thread blocks on an H100
/// (132 SMs x 8). Under 2,048 x 1,024 indices the chunks shrink (down to one index per thread),
/// so that a vector of a few hundred thousand entries still keeps every SM busy.
constexpr std::int64_t kLightFillTeams = 1024;

/// Indices per team for n > 0 indices: a multiple of kLightTeamSize, so a warp's threads touch
/// consecutive entries, and large enough that the number of teams fits an int.
inline std::int64_t lightChunk(std::int64_t n) {
  const std::int64_t wave = kLightTeamSize * kLightFillTeams;
  std::int64_t perThread = n / wave;
  if (perThread < 1) perThread = 1;
  if (perThread > kLightMaxPerThread) perThread = kLightMaxPerThread;
  const std::int64_t leagueLimit = (n - 1) / (kLightTeamSize * INT_MAX) + 1;
  if (perThread < leagueLimit) perThread = leagueLimit;
  return kLightTeamSize * perThread;
}

/// One team's chunk [rank * chunk, min((rank + 1) * chunk, n)), thread t taking t, t + 256, ...
template <class Functor, class Member>
struct LightChunks {
  Functor f;
  std::int64_t n;
  std::int64_t chunk;
  KOKKOS_INLINE_FUNCTION void operator()(const Member& team) const {
    const std::int64_t begin = static_cast<std::int64_t>(team.league_rank()) * chunk;
    const std::int64_t end = n - begin < chunk ? n : begin + chunk;
    Kokkos::parallel_for(Kokkos::TeamThreadRange(team, begin, end), f);
  }
};

/// f(i) for every i in [0, n) on `exec`, asynchronously like any Kokkos kernel.
template <class ExecSpace, class Functor>
void lightParallelFor(const char* label, const ExecSpace& exec, std::int64_t n, const Functor& f) {
  if (n <= 0) return;
  if constexpr (isHostSpace<ExecSpace>()) {
    Kokkos::parallel_for(label, Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>(exec, 0, n), f);
  } else {
    using Policy = Kokkos::TeamPolicy<ExecSpace>;
    const std::int64_t chunk = lightChunk(n);
    const int teams = static_cast<int>((n - 1) / chunk + 1);
    Kokkos::parallel_for(label, Policy(exec, teams, static_cast<int>(kLightTeamSize)),
                         LightChunks<Functor, typename Policy::member_type>{f, n, chunk});
  }
}

}  // namespace Impl
}  // namespace araios
