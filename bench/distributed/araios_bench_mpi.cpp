// araios-bench-mpi: the distributed benchmark. Each rank generates its rows of a 3-D 7-point
// Laplacian (n^3 rows, no file), then times on the default backend:
//   - the distributed SpMV (median of --repeat products, each ended by its slowest rank);
//   - CG for --cg-iterations iterations (deterministic, tolerance 0), time per iteration;
//   - dot products of --dot-length entries: Fast, Deterministic, Accurate, and a plain one
//     (each rank's Kokkos::parallel_reduce, then MPI_Allreduce), the baseline for the cost of
//     rank-count independence.
// Prints one JSON object (rank 0). Run it as: mpirun -np P araios-bench-mpi --n 400
#include <araios/distributed.hpp>

#include <Kokkos_Core.hpp>
#include <mpi.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace {

using Exec = Kokkos::DefaultExecutionSpace;
using Device = Exec::device_type;
using Vector = Kokkos::View<double*, Device>;

struct Options {
  std::int64_t n = 200;
  int repeat = 50;
  int cgIterations = 100;
  std::int64_t dotLength = 10000000;
};

Options parse(int argc, char** argv) {
  Options o;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string key = argv[i];
    const long long value = std::atoll(argv[i + 1]);
    if (key == "--n") o.n = value;
    else if (key == "--repeat") o.repeat = static_cast<int>(value);
    else if (key == "--cg-iterations") o.cgIterations = static_cast<int>(value);
    else if (key == "--dot-length") o.dotLength = value;
    else throw araios::InputError("araios-bench-mpi: unknown option " + key +
                                  "; expected --n, --repeat, --cg-iterations or --dot-length");
  }
  return o;
}

/// This rank's rows of the 7-point Laplacian on an n^3 grid (diagonal 6, neighbours -1).
araios::DistributedHostMatrix laplacianRows(MPI_Comm comm, std::int64_t n) {
  const std::int64_t rows = n * n * n;
  const int ranks = araios::commSize(comm), rank = araios::commRank(comm);
  araios::DistributedHostMatrix d;
  d.comm = comm;
  d.partition = araios::RowPartition::uniform(rows, ranks);
  d.local.numRows = d.local.numCols = rows;
  for (std::int64_t r = d.partition.begin(rank); r < d.partition.end(rank); ++r) {
    const std::int64_t i = r / (n * n), j = r / n % n, k = r % n;
    const std::int64_t neighbours[7] = {i > 0 ? r - n * n : -1, j > 0 ? r - n : -1, k > 0 ? r - 1 : -1, r,
                                        k + 1 < n ? r + 1 : -1, j + 1 < n ? r + n : -1, i + 1 < n ? r + n * n : -1};
    for (std::int64_t c : neighbours) {
      if (c < 0) continue;
      d.local.row.push_back(r);
      d.local.col.push_back(c);
      d.local.value.push_back(c == r ? 6.0 : -1.0);
    }
  }
  return d;
}

double medianOf(std::vector<double> t) {
  std::nth_element(t.begin(), t.begin() + t.size() / 2, t.end());
  return t[t.size() / 2];
}

double slowest(double seconds) {
  double result = seconds;
  ARAIOS_MPI_CHECK(MPI_Allreduce(&seconds, &result, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD));
  return result;
}

template <class F>
double timeCollective(int repeat, const F& f) {
  std::vector<double> times;
  f();  // warm-up
  for (int r = 0; r < repeat; ++r) {
    ARAIOS_MPI_CHECK(MPI_Barrier(MPI_COMM_WORLD));
    Kokkos::Timer timer;
    f();
    Exec().fence();
    times.push_back(slowest(timer.seconds()));
  }
  return medianOf(times);
}

int run(const Options& o) {
  MPI_Comm comm = MPI_COMM_WORLD;
  const int rank = araios::commRank(comm), ranks = araios::commSize(comm);
  Exec exec;
  const araios::DistributedHostMatrix rows = laplacianRows(comm, o.n);
  std::int64_t nnz = rows.local.nnz(), totalNnz = 0;
  ARAIOS_MPI_CHECK(MPI_Allreduce(&nnz, &totalNnz, 1, MPI_INT64_T, MPI_SUM, comm));
  araios::OperatorOptions options;
  options.kernel = araios::Kernel::CsrScalar;
  araios::DistributedOperator<double, std::int32_t, std::int32_t, Exec> A(exec, rows, options);
  Vector x("x", A.localRows()), y("y", A.localRows());
  Kokkos::deep_copy(x, 1.0);
  const double comm0 = A.commSeconds();
  const double spmv = timeCollective(o.repeat, [&] { A.apply(exec, x, y); });
  const double spmvComm = (A.commSeconds() - comm0) / (o.repeat + 1);

  araios::SolverOptions so;
  so.tolerance = 0;
  so.maxIterations = o.cgIterations;
  Vector b("b", A.localRows()), solution("solution", A.localRows());
  Kokkos::deep_copy(b, 1.0);
  ARAIOS_MPI_CHECK(MPI_Barrier(comm));
  const araios::SolveResult cg = araios::cg(exec, A, b, solution, so);
  const double cgPerIteration = slowest(cg.iterations > 0 ? (cg.seconds - cg.setupSeconds) / cg.iterations : 0);

  // Dots over --dot-length entries split evenly.
  const araios::RowPartition dots = araios::RowPartition::uniform(o.dotLength, ranks);
  Vector u("u", dots.rows(rank)), v("v", dots.rows(rank));
  Kokkos::deep_copy(u, 0.5);
  Kokkos::deep_copy(v, 0.25);
  araios::DistributedReduction<double, Device> ws(comm, dots);
  Kokkos::View<double*, Device> slot("slot", 1);
  const araios::DeviceScalar<double, Device> target{slot, 0};
  auto dotTime = [&](araios::ReductionMode mode) {
    return timeCollective(o.repeat, [&] { araios::dot(exec, u, v, target, mode, ws); });
  };
  const double plain = timeCollective(o.repeat, [&] {
    double local = 0, sum = 0;
    Kokkos::parallel_reduce("plain_dot", Kokkos::RangePolicy<Exec>(exec, 0, u.extent(0)),
                            KOKKOS_LAMBDA(const int i, double& s) { s += u(i) * v(i); }, local);
    ARAIOS_MPI_CHECK(MPI_Allreduce(&local, &sum, 1, MPI_DOUBLE, MPI_SUM, comm));
  });
  const double fast = dotTime(araios::ReductionMode::Fast);
  const double deterministic = dotTime(araios::ReductionMode::Deterministic);
  const double accurate = dotTime(araios::ReductionMode::Accurate);
  std::int64_t halo = A.haloBytesReceived(), haloTotal = 0;
  ARAIOS_MPI_CHECK(MPI_Allreduce(&halo, &haloTotal, 1, MPI_INT64_T, MPI_SUM, comm));
  if (rank == 0) {
    std::printf(
        "{\"ranks\": %d, \"backend\": \"%s\", \"n\": %lld, \"rows\": %lld, \"nnz\": %lld, \"direct_messages\": %s, "
        "\"spmv_s\": %.9g, \"spmv_comm_s\": %.9g, \"halo_bytes\": %lld, \"cg_iterations\": %d, "
        "\"cg_per_iteration_s\": %.9g, \"cg_residual\": %.17g, \"dot_length\": %lld, \"dot_plain_s\": %.9g, "
        "\"dot_fast_s\": %.9g, \"dot_deterministic_s\": %.9g, \"dot_accurate_s\": %.9g}\n",
        ranks, Exec::name(), static_cast<long long>(o.n), static_cast<long long>(o.n * o.n * o.n),
        static_cast<long long>(totalNnz), A.directMessages() ? "true" : "false", spmv, spmvComm,
        static_cast<long long>(haloTotal), cg.iterations, cgPerIteration, cg.residual,
        static_cast<long long>(o.dotLength), plain, fast, deterministic, accurate);
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  araios::useReturnedErrors(MPI_COMM_WORLD);
  int code = 0;
  {
    Kokkos::ScopeGuard kokkos(argc, argv);
    try {
      code = run(parse(argc, argv));
    } catch (const std::exception& e) {
      std::fprintf(stderr, "araios-bench-mpi (rank %d): %s\n", araios::commRank(MPI_COMM_WORLD), e.what());
      MPI_Abort(MPI_COMM_WORLD, 1);
    }
  }
  MPI_Finalize();
  return code;
}
