#pragma once
// The araios command line: every subcommand and its options, parsed in one place.
#include <functional>

namespace araios::cli {

/// What the command line asks for: a command to run with its thread count (the --threads
/// value, for starting Kokkos), or, when `run` is empty, the program's exit code (--help,
/// --version, refused arguments).
struct ParsedCommand {
  std::function<int()> run;
  int threads = 0;
  int exitCode = 0;
};

ParsedCommand parseCommandLine(int argc, char** argv);

}  // namespace araios::cli
