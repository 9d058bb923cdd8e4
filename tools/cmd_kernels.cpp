// araios kernels: the kernel registry (araios/kernel_registry.hpp), as a list or as the
// reproducibility table of docs/reproducibility.md (--markdown; a test checks the document
// holds it).
#include "command_args.hpp"

#include <araios/kernel_registry.hpp>

#include <fmt/core.h>

#include <string>

namespace araios::cli {
namespace {

/// One cell of the table: what is promised and the test that backs it.
std::string cell(bool promised, const char* test, std::string_view note = {}) {
  if (!promised) return note.empty() ? "no" : fmt::format("no ({})", note);
  return note.empty() ? fmt::format("yes: {}", test) : fmt::format("yes: {} ({})", test, note);
}

void printMarkdown() {
  fmt::print("| kernel | mode | run | threads | backends | GPUs | CR |\n");
  fmt::print("|---|---|---|---|---|---|---|\n");
  for (const KernelEntry& k : kernelRegistry()) {
    for (Mode mode : {Mode::Fast, Mode::Deterministic, Mode::Accurate}) {
      const ModePromise p = k.promise(mode);
      const std::string_view note = mode == Mode::Fast ? k.fastNote : std::string_view();
      fmt::print("| {} | {} | {} | {} | {} | {} | {} |\n", k.name, toString(mode),
                 cell(p.runToRun, "test_repro_spmv", note), cell(p.threadCounts, "test_repro_spmv_2_threads"),
                 p.backends ? "Serial = OpenMP = CUDA: test_repro_spmv (H100)" : "no",
                 p.backends ? "not tested" : "no", cell(p.correctlyRounded, "test_spmv_modes"));
    }
  }
}

}  // namespace

int runKernels(const KernelsArgs& args) {
  if (args.markdown) {
    printMarkdown();
    return 0;
  }
  for (const KernelEntry& k : kernelRegistry()) {
    fmt::print("{:<12} {:<7} {}\n", k.name, formatName(k.format), k.description);
  }
  return 0;
}

}  // namespace araios::cli
