#pragma once
// Whether this process was started by an MPI launcher (mpirun, mpiexec, srun), from the
// variables the launchers set. Read before MPI is initialised, and without MPI's headers.
#include <cstdlib>

namespace araios::cli {

inline bool launchedByMpi() {
  for (const char* name : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_RANK", "MPI_LOCALNRANKS"}) {
    if (std::getenv(name) != nullptr) return true;
  }
  return false;
}

}  // namespace araios::cli
