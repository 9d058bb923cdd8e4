#pragma once
// The commands run under an MPI launcher (mpirun -np N araios spmv|solve|pagerank|spgemm):
// the same options and JSON keys as on one process, plus ranks, halo_bytes and comm_s. Rank 0
// prints; every rank exits with the same code.
#include "command_args.hpp"
#include "mpi/mpi_launch.hpp"

namespace araios::cli {

int runSpmvDistributed(const SpmvArgs& args);
int runSolveDistributed(const SolveArgs& args);
int runPageRankDistributed(const PageRankArgs& args);
int runSpgemmDistributed(const SpgemmArgs& args);

}  // namespace araios::cli
