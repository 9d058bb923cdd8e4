// araios: the command-line front end of the library.
#include "command.hpp"
#include "kokkos_session.hpp"
#include "version.hpp"

#include <araios/error.hpp>

#include <fmt/core.h>

#include <exception>
#include <vector>

int main(int argc, char** argv) {
  CLI::App app{"araios: portable, reproducible sparse-matrix kernels (Kokkos)"};
  app.set_version_flag("--version", ARAIOS_VERSION);
  app.require_subcommand(1);
  const std::vector<araios::cli::Command> commands = {araios::cli::addInfoCommand(app),
                                                      araios::cli::addSpmvCommand(app),
                                                      araios::cli::addSolveCommand(app),
                                                      araios::cli::addPageRankCommand(app),
                                                      araios::cli::addReproCommand(app),
                                                      araios::cli::addKernelsCommand(app)};
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    // --help and --version end here too, with 0; any refused argument is bad input: 1.
    return app.exit(e) == 0 ? 0 : 1;
  }
  try {
    for (const auto& command : commands) {
      if (command.app->parsed()) {
        araios::cli::KokkosSession kokkos(command.threads());
        return command.run();
      }
    }
  } catch (const araios::Error& e) {
    fmt::print(stderr, "araios: error: {}\n", e.what());
    return 1;
  } catch (const std::exception& e) {
    fmt::print(stderr, "araios: internal error: {}\n", e.what());
    return 2;
  }
  return 0;
}
