// araios: the command-line front end of the library.
#include "command_line.hpp"
#include "kokkos_session.hpp"

#include <araios/error.hpp>

#include <fmt/core.h>

#include <exception>

int main(int argc, char** argv) {
  try {
    const araios::cli::ParsedCommand command = araios::cli::parseCommandLine(argc, argv);
    if (!command.run) return command.exitCode;
    araios::cli::KokkosSession kokkos(command.threads);
    return command.run();
  } catch (const araios::Error& e) {
    fmt::print(stderr, "araios: error: {}\n", e.what());
    return 1;
  } catch (const std::exception& e) {
    fmt::print(stderr, "araios: internal error: {}\n", e.what());
    return 2;
  }
}
