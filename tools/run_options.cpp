#include "backend_names.hpp"
#include "command.hpp"

#include <araios/mode.hpp>

namespace araios::cli {

void addRunOptions(CLI::App& app, RunOptions& options) {
  options.backend = defaultBackend();
  app.add_option("--backend", options.backend, "Kokkos backend to run on")
      ->check(CLI::IsMember(enabledBackends()))
      ->capture_default_str();
  app.add_option("--precision", options.precision, "value type of the matrix and vectors")
      ->check(CLI::IsMember({"double", "float"}))
      ->capture_default_str();
  app.add_option("--threads", options.threads, "OpenMP threads (default: OMP_NUM_THREADS, else all cores)")
      ->check(CLI::PositiveNumber);
  app.add_flag("--drop-invalid", options.dropInvalid,
               "skip Matrix Market entries whose indices lie outside the matrix, and report how many");
  app.add_flag("--json", options.json, "print one JSON object instead of text");
}

void addModeOption(CLI::App& app, std::string& mode, const std::string& help) {
  app.add_option("--mode", mode, help)
      ->check(CLI::IsMember({toString(Mode::Fast), toString(Mode::Deterministic), toString(Mode::Accurate)}))
      ->capture_default_str();
}

void addKernelBuildFlags(CLI::App& app, bool& force, bool& portable) {
  app.add_flag("--force", force, "build a padded format even past its padding limit (stored slots / nonzeros > 3)");
  app.add_flag("--portable", portable,
               "use the portable Kokkos kernel even where the backend has a hand-tuned one (backends/)");
}

}  // namespace araios::cli
