// araios spgemm under mpirun: A and C distributed by rows, each rank fetching the rows of B its
// columns reach (DistributedSpgemm). Rank 0 prints the one-process keys that apply, the hash of
// C (gathered for it), and ranks, halo_bytes (rows of B received, all ranks) and comm_s.
#include "mpi/distributed_commands.hpp"
#include "mpi/distributed_run.hpp"
#include "typed_run.hpp"

#include <araios/distributed.hpp>
#include <araios/hash.hpp>
#include <araios/mode.hpp>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

namespace araios::cli {
namespace {

/// hashCsr of the whole C, on rank 0 (an empty string elsewhere): each rank's row lengths,
/// columns and values gathered in rank order.
template <class Value>
std::string hashOfGathered(const DistributedHostMatrix& c) {
  const io::HostMatrix& m = c.local;
  const int rank = commRank(world()), ranks = commSize(world());
  std::vector<std::int64_t> lengths(c.localRows(), 0);
  for (std::int64_t r : m.row) ++lengths[r - c.firstRow()];
  auto gather = [&](const auto& mine, MPI_Datatype type) {
    using T = typename std::decay_t<decltype(mine)>::value_type;
    const int count = static_cast<int>(mine.size());
    std::vector<int> counts(ranks), starts(ranks, 0);
    ARAIOS_MPI_CHECK(MPI_Gather(&count, 1, MPI_INT, counts.data(), 1, MPI_INT, 0, world()));
    for (int r = 1; r < ranks; ++r) starts[r] = starts[r - 1] + counts[r - 1];
    std::vector<T> all(rank == 0 ? starts[ranks - 1] + counts[ranks - 1] : 0);
    ARAIOS_MPI_CHECK(MPI_Gatherv(mine.data(), count, type, all.data(), counts.data(), starts.data(), type, 0, world()));
    return all;
  };
  const std::vector<std::int64_t> allLengths = gather(lengths, MPI_INT64_T);
  const std::vector<std::int64_t> cols = gather(m.col, MPI_INT64_T);
  const std::vector<double> values = gather(m.value, MPI_DOUBLE);
  if (rank != 0) return {};
  using HostCsr = CsrMatrix<Value, std::int64_t, std::int64_t, Kokkos::HostSpace::device_type>;
  HostCsr h;
  h.numRows = c.numRows();
  h.numCols = c.numCols();
  h.rowPtr = decltype(h.rowPtr)("rowPtr", h.numRows + 1);
  h.colIdx = decltype(h.colIdx)("colIdx", cols.size());
  h.values = decltype(h.values)("values", values.size());
  for (std::int64_t i = 0; i < h.numRows; ++i) h.rowPtr(i + 1) = h.rowPtr(i) + allLengths[i];
  for (std::size_t k = 0; k < cols.size(); ++k) {
    h.colIdx(k) = cols[k];
    h.values(k) = static_cast<Value>(values[k]);
  }
  return hashCsr(h);
}

template <class ExecSpace, class Value>
int spgemmTyped(const ExecSpace& exec, const DistributedHostMatrix& a, const DistributedHostMatrix& b,
                const SpgemmArgs& args) {
  SpgemmOptions options;
  options.mode = parseMode(args.mode);
  options.memoryLimitBytes = args.memoryLimit;
  Kokkos::Timer timer;
  DistributedSpgemm<Value, std::int32_t, std::int32_t, ExecSpace> product(exec, a, b, options);
  const double symbolic = maxOverRanks(timer.seconds());
  std::vector<double> numeric;
  for (int r = 0; r < std::max(args.repeat, 1); ++r) {
    ARAIOS_MPI_CHECK(MPI_Barrier(world()));
    timer.reset();
    product.numeric(exec);
    exec.fence();
    numeric.push_back(maxOverRanks(timer.seconds()));
  }
  std::sort(numeric.begin(), numeric.end());
  const double median = numeric[numeric.size() / 2];
  const DistributedSpgemmStats& s = product.stats();
  const std::int64_t received = sumOverRanks(s.bytesReceived), rowsFetched = sumOverRanks(s.rowsReceived);
  const double comm = maxOverRanks(s.commSeconds);
  const std::string hash = hashOfGathered<Value>(product.hostC());
  if (commRank(world()) == 0) {
    if (args.run.json) {
      nlohmann::json j = {{"a", args.fileA},
                          {"b", args.fileB.empty() ? args.fileA : args.fileB},
                          {"mode", args.mode},
                          {"backend", args.run.backend},
                          {"precision", args.run.precision},
                          {"rows", a.numRows()},
                          {"cols", b.numCols()},
                          {"nnz", s.globalNnz},
                          {"repeat", args.repeat},
                          {"symbolic_s", symbolic},
                          {"numeric_s", median},
                          {"numeric_best_s", numeric.front()},
                          {"time_s", symbolic + median},
                          {"hash", hash},
                          {"ranks", commSize(world())},
                          {"halo_bytes", received},
                          {"rows_fetched", rowsFetched},
                          {"comm_s", comm}};
      fmt::print("{}\n", j.dump());
    } else {
      fmt::print("product   C = A * B: {} x {}, {} entries, on {} ranks ({} mode)\n", a.numRows(), b.numCols(),
                 s.globalNnz, commSize(world()), args.mode);
      fmt::print("time      symbolic {:.3f} ms (with the rows of B fetched), numeric {:.3f} ms (median of {})\n",
                 symbolic * 1e3, median * 1e3, numeric.size());
      fmt::print("fetched   {} rows of B, {} bytes, {:.3f} ms in MPI\n", rowsFetched, received, comm * 1e3);
      fmt::print("hash      {}\n", hash);
    }
  }
  return 0;
}

}  // namespace

int runSpgemmDistributed(const SpgemmArgs& args) {
  if (args.transposeB || args.algorithm != "gustavson" || !args.out.empty() || args.check) {
    throw UnsupportedError("araios spgemm under mpirun takes A, B, --mode, --repeat and --memory-limit; --transpose-b, "
                           "--algorithm dot, --out and --check run on one process only");
  }
  const DistributedHostMatrix a = readRows(args.fileA, args.run);
  const DistributedHostMatrix b = args.fileB.empty() ? a : readRows(args.fileB, args.run);
  return runTypedOnBackend(args.run, true, [&](auto exec, auto value, auto) {
    return spgemmTyped<decltype(exec), decltype(value)>(exec, a, b, args);
  });
}

}  // namespace araios::cli
