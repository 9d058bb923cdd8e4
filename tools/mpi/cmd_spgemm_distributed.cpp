// araios spgemm under mpirun: filled in with the distributed product.
#include "mpi/distributed_commands.hpp"

#include <araios/error.hpp>

namespace araios::cli {

int runSpgemmDistributed(const SpgemmArgs&) {
  throw UnsupportedError("araios spgemm does not run under mpirun yet; expected a one-process run");
}

}  // namespace araios::cli
