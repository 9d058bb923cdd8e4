#pragma once
// Araios over MPI (built with ARAIOS_ENABLE_MPI; link Araios::distributed): matrices
// distributed by rows, their product with a vector, the solvers, SpGEMM and the reader, with
// Deterministic and Accurate results that do not depend on the number of ranks.
// docs/distributed.md describes how, and what it costs.
#include <araios/distributed/collective_errors.hpp>
#include <araios/distributed/distributed_matrix.hpp>
#include <araios/distributed/distributed_operator.hpp>
#include <araios/distributed/distributed_reduce.hpp>
#include <araios/distributed/distributed_solvers.hpp>
#include <araios/distributed/distributed_spgemm.hpp>
#include <araios/distributed/halo_plan.hpp>
#include <araios/distributed/mpi_check.hpp>
#include <araios/distributed/read_matrix_market_rows.hpp>
#include <araios/distributed/row_partition.hpp>
