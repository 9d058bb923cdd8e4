#include "mpi/mpi_session.hpp"

#include <araios/distributed/collective_errors.hpp>
#include <araios/distributed/mpi_check.hpp>

#include <fcntl.h>
#include <mpi.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>

namespace araios::cli {

MpiSession::MpiSession(int* argc, char*** argv) {
  int provided = 0;
  // One thread calls MPI; Kokkos' OpenMP threads never do.
  if (MPI_Init_thread(argc, argv, MPI_THREAD_FUNNELED, &provided) != MPI_SUCCESS) {
    std::fprintf(stderr, "araios: error: MPI_Init_thread failed\n");
    std::exit(1);
  }
  useReturnedErrors(MPI_COMM_WORLD);
  rank_ = commRank(MPI_COMM_WORLD);
  if (rank_ != 0) {
    std::fflush(stdout);
    std::fflush(stderr);
    stderrCopy_ = dup(STDERR_FILENO);
    const int devNull = open("/dev/null", O_WRONLY);
    if (devNull >= 0) {
      dup2(devNull, STDOUT_FILENO);
      dup2(devNull, STDERR_FILENO);
      close(devNull);
    }
  }
}

MpiSession::~MpiSession() {
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (!finalized) MPI_Finalize();
}

int MpiSession::fail(const std::string& message, int code) {
  if (Impl::errorAgreedByAllRanks()) {
    if (rank_ == 0) std::fprintf(stderr, "araios: %s\n", message.c_str());
    return code;
  }
  const std::string line = "araios (rank " + std::to_string(rank_) + "): " + message + "\n";
  const int fd = rank_ == 0 ? STDERR_FILENO : stderrCopy_;
  if (fd >= 0 && write(fd, line.data(), line.size()) < 0) {
    // Nothing more to try: the job ends below either way.
  }
  MPI_Abort(MPI_COMM_WORLD, code);
  return code;
}

}  // namespace araios::cli
