#pragma once
// Runs this program again as a child process and collects what it prints. `araios repro`
// needs it because Kokkos 3.4 fixes the OpenMP thread count once per process: each thread
// count (and each backend) is measured in a process of its own.
#include <string>
#include <vector>

namespace araios::cli {

struct ChildOutput {
  int exitCode = -1;  ///< the child's exit status; 128 + N when killed by signal N
  std::string out;    ///< everything the child wrote to stdout (its stderr goes to ours)
};

/// Runs the executable of this process (/proc/self/exe) with `arguments` (argv[1..]) and waits
/// for it. Throws RuntimeError when the child cannot be started.
ChildOutput runSelf(const std::vector<std::string>& arguments);

}  // namespace araios::cli
