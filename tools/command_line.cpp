// The araios command line: every subcommand's options, and the parse. The one source of the
// program that compiles CLI11, a header-only library that costs each source using it seconds.
#include "command_line.hpp"

#include "backend_names.hpp"
#include "command_args.hpp"
#include "version.hpp"

#include <araios/kernel_registry.hpp>
#include <araios/mode.hpp>

#include <CLI/CLI.hpp>

#include <memory>
#include <string>
#include <vector>

namespace araios::cli {
namespace {

/// A subcommand's node in the parser, what runs when it is chosen, and its --threads value
/// (read after parsing).
struct Subcommand {
  CLI::App* app;
  std::function<int()> run;
  std::function<int()> threads;
};

/// The options of every command that runs kernels.
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

/// The options of Kernel::Auto.
void addChoiceOptions(CLI::App& app, ChoiceArgs& choice, const std::string& productsHelp) {
  app.add_option("--profile", choice.profile,
                 "performance profile for --format auto (default: the device's, found by name in the user's cache "
                 "folder and the installed profiles, else built-in constants)");
  app.add_option("--products", choice.products, productsHelp)->check(CLI::PositiveNumber);
  app.add_option("--memory-limit", choice.memoryLimit,
                 "bytes the chosen format may take (default: half the free memory)")
      ->check(CLI::NonNegativeNumber);
  app.add_flag("--csr-order-only", choice.csrOrderOnly,
               "auto chooses only among kernels that sum in CSR order: the deterministic bits of csr-scalar "
               "whichever is chosen, on every device");
}

Subcommand addInfo(CLI::App& parent) {
  auto args = std::make_shared<InfoArgs>();
  CLI::App* app = parent.add_subcommand("info", "shape, row-length statistics and the bytes each format would take");
  app->add_option("file", args->file, "Matrix Market file (.mtx or .mtx.gz)")->required()->check(CLI::ExistingFile);
  app->add_option("--precision", args->precision, "value type for the footprints")
      ->check(CLI::IsMember({"double", "float"}))
      ->capture_default_str();
  app->add_option("--threads", args->threads, "threads, for reading the file as for OpenMP")->check(CLI::PositiveNumber);
  app->add_flag("--drop-invalid", args->dropInvalid, "skip entries with indices outside the matrix");
  app->add_flag("--json", args->json, "print one JSON object instead of text");
  return {app, [args] { return runInfo(*args); }, [args] { return args->threads; }};
}

Subcommand addSpmv(CLI::App& parent) {
  auto args = std::make_shared<SpmvArgs>();
  CLI::App* app = parent.add_subcommand("spmv", "time y = A*x with one kernel and check it against the host reference");
  app->add_option("file", args->file, "Matrix Market file (.mtx or .mtx.gz)")->required()->check(CLI::ExistingFile);
  app->add_option("--format", args->format,
                  "kernel: auto (the performance model's choice, printed) or " + joined(kernelNames()))
      ->check(CLI::IsMember(withAuto(kernelNames())))
      ->capture_default_str();
  addModeOption(*app, args->mode, "fast, deterministic (the same bits on every backend) or accurate (correctly rounded)");
  addChoiceOptions(*app, args->choice, "products auto spreads the format's build over (default: --repeat)");
  app->add_option("--repeat", args->repeat, "timed products; the median is reported")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  app->add_option("--repeatability", args->repeatability,
                  "after timing, run N more products and report how many distinct results (bit patterns) they gave")
      ->check(CLI::NonNegativeNumber);
  addKernelBuildFlags(*app, args->force, args->portable);
  app->add_option("--seed", args->seed, "seed of the random x in [-1, 1)")->capture_default_str();
  addRunOptions(*app, args->run);
  return {app, [args] { return runSpmv(*args); }, [args] { return args->run.threads; }};
}

Subcommand addSolve(CLI::App& parent) {
  auto args = std::make_shared<SolveArgs>();
  CLI::App* app = parent.add_subcommand("solve", "solve A x = b with Jacobi, CG or GMRES(m) on the device");
  app->add_option("file", args->file, "Matrix Market file (.mtx or .mtx.gz)")->required()->check(CLI::ExistingFile);
  app->add_option("--method", args->method, "solver")->required()->check(CLI::IsMember({"jacobi", "cg", "gmres"}));
  app->add_option("--rhs", args->rhs, "right-hand side: ones, random:SEED, or a Matrix Market file of n x 1")
      ->capture_default_str();
  app->add_option("--tol", args->tol,
                  "tolerance: ||b - Ax|| <= tol ||b|| (CG, GMRES); max |x_k+1 - x_k| < tol (Jacobi)")
      ->check(CLI::NonNegativeNumber)
      ->capture_default_str();
  app->add_option("--maxiter", args->maxIterations, "iterations at most (GMRES: Arnoldi steps over all cycles)")
      ->check(CLI::NonNegativeNumber)
      ->capture_default_str();
  app->add_option("--restart", args->restart, "GMRES restart length m")->check(CLI::PositiveNumber)->capture_default_str();
  app->add_flag("--reorthogonalize", args->reorthogonalize, "GMRES: accepted for compatibility; every step already orthogonalises twice (CGS2)");
  app->add_option("--precond", args->precond, "preconditioner (default: jacobi for CG, none for GMRES)")
      ->check(CLI::IsMember({"jacobi", "none"}));
  app->add_option("--format", args->format,
                  "SpMV kernel of the operator: auto (the performance model's choice, printed) or " +
                      joined(kernelNames()))
      ->check(CLI::IsMember(withAuto(kernelNames())))
      ->capture_default_str();
  addChoiceOptions(*app, args->choice, "products auto spreads the format's build over (default: --maxiter, 1000 at most)");
  addModeOption(*app, args->mode,
                "SpMV and reductions: fast (atomics, backend order), deterministic (the same bits on every "
                "backend), accurate (correctly rounded products, dot products and norms)");
  addKernelBuildFlags(*app, args->force, args->portable);
  app->add_option("--progress", args->progressEvery, "print the residual every N iterations (default: every second)")
      ->check(CLI::NonNegativeNumber);
  addRunOptions(*app, args->run);
  return {app, [args] { return runSolve(*args); }, [args] { return args->run.threads; }};
}

Subcommand addPageRank(CLI::App& parent) {
  auto args = std::make_shared<PageRankArgs>();
  CLI::App* app = parent.add_subcommand(
      "pagerank",
      "rank the nodes of a graph (row = source, column = target) by PageRank on the device\n"
      "R = alpha G^T R + (1 - alpha) E with E all ones, so ranks have mean 1 (the paper's scale; divide by\n"
      "the node count for probabilities). The iteration stops when ||R_k+1 - R_k||_1 < --tol on this scale\n"
      "(a deterministic sum; --norm max gives the paper's looser max-norm test), which means the same for\n"
      "any graph size; a max-norm test on probabilities (sum 1) would stop at once on large graphs.\n"
      "Edge weights are |a_ij| normalised per source row (1 for pattern files or with --unweighted).");
  app->add_option("file", args->file, "Matrix Market file (.mtx or .mtx.gz)")->required()->check(CLI::ExistingFile);
  app->add_option("--format", args->format,
                  "SpMV kernel for G^T: auto (the performance model's choice, printed) or " + joined(kernelNames()))
      ->check(CLI::IsMember(withAuto(kernelNames())))
      ->capture_default_str();
  addChoiceOptions(*app, args->choice, "products auto spreads the format's build over (default: --maxiter, 1000 at most)");
  addModeOption(*app, args->mode,
                "SpMV and reductions: fast, deterministic (the same bits on every backend), accurate (correctly "
                "rounded products)");
  app->add_option("--top", args->top, "print the K best nodes")->check(CLI::NonNegativeNumber)->capture_default_str();
  app->add_flag("--check", args->check,
                "compare with a long-double host reference iterated to 1e-17 relative: how many of the top 100 "
                "places hold the same node (nodes whose reference scores agree to 1e-15 relative are "
                "interchangeable), and the max relative score error");
  app->add_option("--alpha", args->alpha, "damping factor")->check(CLI::Range(0.0, 0.999999))->capture_default_str();
  app->add_option("--tol", args->tol, "stop when ||R_k+1 - R_k|| < tol (mean-1 scale)")
      ->check(CLI::NonNegativeNumber)
      ->capture_default_str();
  app->add_option("--norm", args->norm,
                  "stopping test: l1 (sum of |R_k+1,i - R_k,i|) or max (the paper's max |R_k+1,i - R_k,i|, looser "
                  "by up to a factor n)")
      ->check(CLI::IsMember({"l1", "max"}))
      ->capture_default_str();
  app->add_option("--maxiter", args->maxIterations, "iterations at most")->check(CLI::NonNegativeNumber)->capture_default_str();
  app->add_option("--dangling", args->dangling,
                  "nodes without out-edges: uniform (spread their rank over all nodes) or drop (the paper's plain "
                  "formula; the rank leaks)")
      ->check(CLI::IsMember({"uniform", "drop"}))
      ->capture_default_str();
  app->add_flag("--unweighted", args->unweighted, "every stored nonzero entry is an edge of weight 1");
  addKernelBuildFlags(*app, args->force, args->portable);
  addRunOptions(*app, args->run);
  return {app, [args] { return runPageRank(*args); }, [args] { return args->run.threads; }};
}

Subcommand addRepro(CLI::App& parent) {
  auto args = std::make_shared<ReproArgs>();
  CLI::App* app = parent.add_subcommand(
      "repro",
      "run y = A*x with every kernel, in every mode, on every backend (Serial; OpenMP at 1, 2 and the most\n"
      "threads, each in a child process; CUDA) and tabulate the hash of y, whether it is the same on every\n"
      "backend, the drift between repeated runs, and the error against the correctly rounded product");
  app->add_option("file", args->file, "Matrix Market file (.mtx or .mtx.gz)")->required()->check(CLI::ExistingFile);
  app->add_option("--runs", args->runs, "products per kernel and mode (for the run-to-run drift)")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  app->add_option("--seed", args->seed, "seed of x in [-1, 1)")->capture_default_str();
  app->add_option("--save", args->save,
                  "write the hashes (and the matrix's fingerprint) to this file, whole or not at all (through "
                  "FILE.tmp-XXXXXX beside it, renamed when complete)");
  app->add_option("--check", args->check,
                  "compare the deterministic and accurate hashes with a file written by --save (on another machine, "
                  "say); exit 3 on any mismatch")
      ->check(CLI::ExistingFile);
  app->add_flag("--force", args->force, "build padded formats even past their padding limit");
  app->add_option("--precision", args->run.precision, "value type of the matrix and vectors")
      ->check(CLI::IsMember({"double", "float"}))
      ->capture_default_str();
  app->add_option("--threads", args->run.threads,
                  "the most OpenMP threads to try (default: OMP_NUM_THREADS, else all cores)")
      ->check(CLI::PositiveNumber);
  app->add_flag("--drop-invalid", args->run.dropInvalid, "skip Matrix Market entries outside the matrix");
  app->add_flag("--json", args->run.json, "print the runs as one JSON list instead of the table");
  // The worker's own options, not listed in --help.
  app->add_flag("--worker", args->worker, "run one backend and thread count, print JSON")->group("");
  args->run.backend = defaultBackend();
  app->add_option("--backend", args->run.backend, "the worker's backend")
      ->check(CLI::IsMember(enabledBackends()))
      ->group("");
  return {app, [args] { return runRepro(*args); }, [args] { return args->run.threads; }};
}

Subcommand addSpgemm(CLI::App& parent) {
  auto args = std::make_shared<SpgemmArgs>();
  CLI::App* app = parent.add_subcommand(
      "spgemm",
      "multiply two sparse matrices, C = A*B, with the two-phase SpGEMM on the device: time the symbolic\n"
      "phase (C's pattern) and the numeric phase (C's values), check C against a long-double host reference,\n"
      "and optionally write it out");
  app->add_option("A", args->fileA, "Matrix Market file of A (.mtx or .mtx.gz)")->required()->check(CLI::ExistingFile);
  app->add_option("B", args->fileB, "Matrix Market file of B (default: A)")->check(CLI::ExistingFile);
  app->add_flag("--transpose-b", args->transposeB, "multiply by B^T (A*A^T for a rectangular A given alone)");
  app->add_option("--out", args->out,
                  "write C to this Matrix Market file (.gz: compressed), whole or not at all (through FILE.tmp-XXXXXX "
                  "beside it, renamed when complete)");
  addModeOption(*app, args->mode,
                "fast (any summation order), deterministic (the same bits on every backend) or accurate (each "
                "entry correctly rounded)");
  app->add_option("--algorithm", args->algorithm,
                  "gustavson (the library's product on the device) or dot (the host reference: one dot product "
                  "per row of A and column of B, quadratic; for comparison on small matrices)")
      ->check(CLI::IsMember({"gustavson", "dot"}))
      ->capture_default_str();
  app->add_option("--repeat", args->repeat,
                  "numeric phases run through one symbolic phase; the best and the median are reported")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  app->add_option("--memory-limit", args->memoryLimit,
                  "device bytes the product may hold at once beyond A and B, C included (suffixes K, M, G, T: "
                  "powers of 1024; default: the free memory). Below C plus the workspace the rows are processed "
                  "in chunks, with the same bits; below C alone the product is refused")
      ->transform(CLI::AsSizeValue(false))
      ->check(CLI::NonNegativeNumber);
  auto* check = app->add_flag("--check", args->check,
                              "check C against the host reference even past 2e8 intermediate products (the default "
                              "skips it there)");
  auto* noCheck = app->add_flag("--no-check", args->noCheck, "skip the check against the host reference");
  check->excludes(noCheck);
  addRunOptions(*app, args->run);
  return {app, [args] { return runSpgemm(*args); }, [args] { return args->run.threads; }};
}

Subcommand addSelect(CLI::App& parent) {
  auto args = std::make_shared<SelectArgs>();
  CLI::App* app = parent.add_subcommand(
      "select",
      "rank every kernel for a matrix by the performance model: predicted build and product times, the\n"
      "kernels the constraints exclude and why, and the one --format auto would choose");
  app->add_option("file", args->file, "Matrix Market file (.mtx or .mtx.gz)")->required()->check(CLI::ExistingFile);
  addModeOption(*app, args->mode, "the mode the kernels are ranked for");
  addChoiceOptions(*app, args->choice, "products the format's build is spread over (default: 100)");
  app->add_flag("--measure", args->measure, "also build every kernel and time its product, beside the prediction");
  app->add_option("--repeat", args->repeat, "timed products per kernel with --measure; the median is reported")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  app->add_flag("--force", args->force, "rank padded formats even past their padding limit");
  addRunOptions(*app, args->run);
  return {app, [args] { return runSelect(*args); }, [args] { return args->run.threads; }};
}

Subcommand addCalibrate(CLI::App& parent) {
  auto args = std::make_shared<CalibrateArgs>();
  CLI::App* app = parent.add_subcommand(
      "calibrate",
      "fit the performance model to this device: generate benchmark matrices sized by the device, time\n"
      "every kernel in every mode and every format's build, fit the constants, write the profile");
  app->add_option("--out", args->out,
                  "profile file to write (default: the user's profile folder, under the device's name, where "
                  "--format auto finds it)");
  app->add_flag("--quick", args->quick, "fewer, smaller matrices: a rough profile in a fraction of the time");
  app->add_option("--budget", args->budgetSeconds, "seconds after which no new matrix is timed (0: no limit)")
      ->check(CLI::NonNegativeNumber);
  addRunOptions(*app, args->run);
  return {app, [args] { return runCalibrate(*args); }, [args] { return args->run.threads; }};
}

Subcommand addKernels(CLI::App& parent) {
  auto args = std::make_shared<KernelsArgs>();
  CLI::App* app = parent.add_subcommand("kernels", "list the SpMV kernels and what each mode promises");
  app->add_flag("--markdown", args->markdown, "print the reproducibility table of docs/reproducibility.md");
  return {app, [args] { return runKernels(*args); }, [args] { return 0; }};
}

}  // namespace

ParsedCommand parseCommandLine(int argc, char** argv) {
  CLI::App app{"araios: portable, reproducible sparse-matrix kernels (Kokkos)"};
  app.set_version_flag("--version", ARAIOS_VERSION);
  app.require_subcommand(1);
  const std::vector<Subcommand> commands = {addInfo(app),     addSpmv(app),   addSolve(app),
                                            addPageRank(app), addRepro(app),  addSpgemm(app),
                                            addKernels(app),  addSelect(app), addCalibrate(app)};
  ParsedCommand parsed;
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    // --help and --version end here too, with 0; any refused argument is bad input: 1.
    parsed.exitCode = app.exit(e) == 0 ? 0 : 1;
    return parsed;
  }
  for (const auto& command : commands) {
    if (command.app->parsed()) {
      parsed.run = command.run;
      parsed.threads = command.threads();
    }
  }
  return parsed;
}

}  // namespace araios::cli
