#pragma once
// What the distributed commands share: reading this rank's rows, moving whole vectors to and
// from the ranks' blocks, and sums and maxima over the ranks.
#include "command_args.hpp"

#include <araios/distributed.hpp>

#include <Kokkos_Core.hpp>
#include <mpi.h>

#include <algorithm>
#include <limits>
#include <cstdint>
#include <string>
#include <vector>

namespace araios::cli {

inline MPI_Comm world() { return MPI_COMM_WORLD; }

/// This rank's rows of the Matrix Market file (collective; an error on any rank on all).
DistributedHostMatrix readRows(const std::string& file, const RunOptions& run);

template <class T>
T maxOverRanks(T value) {
  T result = value;
  ARAIOS_MPI_CHECK(MPI_Allreduce(&value, &result, 1, Impl::mpiType<T>(), MPI_MAX, world()));
  return result;
}

template <class T>
T sumOverRanks(T value) {
  T result = value;
  ARAIOS_MPI_CHECK(MPI_Allreduce(&value, &result, 1, Impl::mpiType<T>(), MPI_SUM, world()));
  return result;
}

/// This rank's block of a vector every rank can compute whole.
template <class Value, class Device>
Kokkos::View<Value*, Device> blockOf(const RowPartition& p, const std::vector<double>& whole, const char* label) {
  const int rank = commRank(world());
  Kokkos::View<Value*, Device> v(std::string(label), p.rows(rank));
  auto h = Kokkos::create_mirror_view(v);
  for (std::int64_t i = 0; i < p.rows(rank); ++i) h(i) = static_cast<Value>(whole[p.begin(rank) + i]);
  Kokkos::deep_copy(v, h);
  return v;
}

/// The whole vector on rank 0 (empty elsewhere), for its hash and the printed summary.
template <class View>
std::vector<typename View::non_const_value_type> gatherOnRankZero(const RowPartition& p, const View& block) {
  using Value = typename View::non_const_value_type;
  const auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), block);
  const int rank = commRank(world());
  if (p.numRows() > std::numeric_limits<int>::max()) {
    throw UnsupportedError("the result has " + std::to_string(p.numRows()) +
                           " entries, more than one MPI gather can count (2^31 - 1); expected fewer to print its hash");
  }
  std::vector<int> counts(p.ranks()), starts(p.ranks());
  for (int r = 0; r < p.ranks(); ++r) {
    counts[r] = static_cast<int>(p.rows(r));
    starts[r] = static_cast<int>(p.begin(r));
  }
  const MPI_Datatype type = Impl::mpiType<Value>();
  std::vector<Value> all(rank == 0 ? p.numRows() : 0);
  ARAIOS_MPI_CHECK(MPI_Gatherv(host.data(), counts[rank], type, all.data(), counts.data(), starts.data(), type, 0,
                               world()));
  return all;
}

}  // namespace araios::cli
