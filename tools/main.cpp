// araios: the command-line front end of the library.
#include "command_line.hpp"
#include "kokkos_session.hpp"
#ifdef ARAIOS_CLI_MPI
#include "mpi/mpi_launch.hpp"
#include "mpi/mpi_session.hpp"
#endif

#include <araios/error.hpp>

#include <fmt/core.h>

#include <exception>
#include <memory>
#include <string>

namespace {

/// Under an MPI launcher: MPI before Kokkos, and an error path that never leaves a rank waiting.
struct Launch {
#ifdef ARAIOS_CLI_MPI
  std::unique_ptr<araios::cli::MpiSession> mpi;
  Launch(int* argc, char*** argv) {
    if (araios::cli::launchedByMpi()) mpi = std::make_unique<araios::cli::MpiSession>(argc, argv);
  }
#else
  Launch(int*, char***) {}
#endif
  int fail(const std::string& message, int code) {
#ifdef ARAIOS_CLI_MPI
    if (mpi) return mpi->fail(message, code);
#endif
    fmt::print(stderr, "araios: {}\n", message);
    return code;
  }
};

}  // namespace

int main(int argc, char** argv) {
  Launch launch(&argc, &argv);
  try {
    const araios::cli::ParsedCommand command = araios::cli::parseCommandLine(argc, argv);
    if (!command.run) return command.exitCode;
    araios::cli::KokkosSession kokkos(command.threads);
    return command.run();
  } catch (const araios::Error& e) {
    return launch.fail(std::string("error: ") + e.what(), 1);
  } catch (const std::exception& e) {
    return launch.fail(std::string("internal error: ") + e.what(), 2);
  }
}
