#pragma once
// What the distributed tests share: MPI and Kokkos owned by one global fixture, a world
// communicator that returns errors, and the gathering of a distributed vector on every rank.
#include <araios/distributed.hpp>

#include <Kokkos_Core.hpp>
#include <boost/test/unit_test.hpp>
#include <mpi.h>

#include <cstdint>
#include <cstring>
#include <vector>

namespace araios::test {

struct MpiKokkosFixture {
  MpiKokkosFixture() {
    MPI_Init(nullptr, nullptr);
    useReturnedErrors(MPI_COMM_WORLD);
    Kokkos::initialize();
  }
  ~MpiKokkosFixture() {
    Kokkos::finalize();
    MPI_Finalize();
  }
};

inline MPI_Comm world() { return MPI_COMM_WORLD; }

/// The whole vector on every rank, from each rank's block.
template <class View>
std::vector<typename View::non_const_value_type> gather(MPI_Comm comm, const RowPartition& p, const View& block) {
  using Value = typename View::non_const_value_type;
  const auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), block);
  std::vector<int> counts(p.ranks()), starts(p.ranks());
  for (int r = 0; r < p.ranks(); ++r) {
    counts[r] = static_cast<int>(p.rows(r)) * static_cast<int>(sizeof(Value));
    starts[r] = static_cast<int>(p.begin(r)) * static_cast<int>(sizeof(Value));
  }
  std::vector<Value> all(p.numRows());
  ARAIOS_MPI_CHECK(MPI_Allgatherv(host.data(), counts[commRank(comm)], MPI_BYTE, all.data(), counts.data(),
                                  starts.data(), MPI_BYTE, comm));
  return all;
}

/// This rank's block of a whole vector, on the device.
template <class Value, class Device>
Kokkos::View<Value*, Device> block(const RowPartition& p, int rank, const std::vector<Value>& whole) {
  Kokkos::View<Value*, Device> v("block", p.rows(rank));
  auto h = Kokkos::create_mirror_view(v);
  for (std::int64_t i = 0; i < p.rows(rank); ++i) h(i) = whole[p.begin(rank) + i];
  Kokkos::deep_copy(v, h);
  return v;
}

template <class View>
std::vector<typename View::non_const_value_type> toVector(const View& v) {
  const auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), v);
  return std::vector<typename View::non_const_value_type>(h.data(), h.data() + h.extent(0));
}

/// Bitwise equality (NaNs of the same payload equal, -0 and +0 different).
template <class Value>
bool sameBits(const std::vector<Value>& a, const std::vector<Value>& b) {
  return a.size() == b.size() && (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(Value)) == 0);
}

/// Partitions every test runs over: balanced by entries, and a lopsided one with an empty rank
/// and blocks that do not start at chunk or warp boundaries.
inline std::vector<RowPartition> testPartitions(const std::vector<std::int64_t>& rowCounts, int ranks) {
  const std::int64_t n = static_cast<std::int64_t>(rowCounts.size());
  std::vector<RowPartition> out{RowPartition::balanced(rowCounts, ranks)};
  std::vector<std::int64_t> starts(ranks + 1, n);
  starts[0] = 0;
  // Rank 0 gets a sliver, rank 1 nothing, the rest share what is left unevenly.
  if (ranks > 1) starts[1] = std::min<std::int64_t>(n, 37);
  if (ranks > 2) {
    starts[2] = starts[1];
    for (int r = 2; r < ranks; ++r) starts[r + 1] = r + 1 == ranks ? n : starts[r] + (n - starts[r]) * 2 / 3;
  }
  out.push_back(RowPartition::fromStarts(starts, n));
  return out;
}

}  // namespace araios::test
