#pragma once
// What each subcommand is given, and the function that runs it. Plain structs: the command
// line (command_line.cpp, the one source that compiles CLI11) fills them; the commands'
// sources, which compile the kernels' types, never see the option parser.
#include <cstdint>
#include <string>

namespace araios::cli {

/// Options every command that runs kernels takes.
struct RunOptions {
  std::string backend;
  std::string precision = "double";
  int threads = 0;
  bool dropInvalid = false;
  bool json = false;
};

/// How Kernel::Auto chooses (spmv, solve, pagerank, select).
struct ChoiceArgs {
  /// A profile file; empty: the device's (found by name, else the built-in constants).
  std::string profile;
  /// Products the format's build is spread over; 0: the command's own count.
  double products = 0;
  /// Bytes the format may take; negative: half the free memory.
  std::int64_t memoryLimit = -1;
  bool csrOrderOnly = false;
};

struct InfoArgs {
  std::string file;
  std::string precision = "double";
  int threads = 0;
  bool dropInvalid = false;
  bool json = false;
};

struct SpmvArgs {
  RunOptions run;
  ChoiceArgs choice;
  std::string file;
  std::string format = "auto";
  std::string mode = "deterministic";
  int repeat = 100;
  int repeatability = 0;
  std::uint64_t seed = 42;
  bool force = false;
  bool portable = false;
};

struct SolveArgs {
  RunOptions run;
  std::string file;
  std::string method;
  std::string rhs = "ones";
  double tol = 1e-8;
  int maxIterations = 10000;
  int restart = 30;
  std::string precond;  // empty: the method's default
  std::string format = "auto";
  ChoiceArgs choice;
  std::string mode = "deterministic";
  bool reorthogonalize = false;
  int progressEvery = 0;  // 0: a line every second
  bool force = false;
  bool portable = false;
};

struct PageRankArgs {
  RunOptions run;
  ChoiceArgs choice;
  std::string file;
  std::string format = "auto";
  std::string mode = "deterministic";
  std::string dangling = "uniform";
  std::string norm = "l1";
  int top = 10;
  double alpha = 0.85;
  double tol = 1e-5;
  int maxIterations = 1000;
  bool unweighted = false;
  bool check = false;
  bool force = false;
  bool portable = false;
};

struct ReproArgs {
  RunOptions run;
  std::string file;
  std::string save;
  std::string check;
  int runs = 5;
  std::uint64_t seed = 42;
  bool force = false;
  bool worker = false;
};

struct SpgemmArgs {
  RunOptions run;
  std::string fileA;
  /// Empty: B = A.
  std::string fileB;
  bool transposeB = false;
  /// Matrix Market file to write C to (empty: none).
  std::string out;
  std::string mode = "deterministic";
  /// gustavson (the library's SpgemmHandle) or dot (the host reference, quadratic).
  std::string algorithm = "gustavson";
  /// Numeric phases run through the handle; the best and the median are reported.
  int repeat = 1;
  /// SpgemmOptions::memoryLimitBytes; negative: the memory free on the device.
  std::int64_t memoryLimit = -1;
  /// Check against the host reference past the default limit of intermediate products.
  bool check = false;
  bool noCheck = false;
};

struct KernelsArgs {
  bool markdown = false;
};

struct SelectArgs {
  RunOptions run;
  ChoiceArgs choice;
  std::string file;
  std::string mode = "deterministic";
  bool measure = false;
  int repeat = 20;
  bool force = false;
};

struct CalibrateArgs {
  RunOptions run;
  /// Empty: the user's profile folder, under the device's file name.
  std::string out;
  /// Fewer and smaller matrices: a rough profile in a fraction of the time.
  bool quick = false;
  /// Stop timing new matrices after this many seconds (0: no limit).
  double budgetSeconds = 0;
  /// Print the fit's report (off when --format auto calibrates a device on first use).
  bool report = true;
};

// Each returns the command's exit code (documented at the top of its source).
int runInfo(const InfoArgs& args);
int runSpmv(const SpmvArgs& args);
int runSolve(const SolveArgs& args);
int runPageRank(const PageRankArgs& args);
int runRepro(const ReproArgs& args);
int runSpgemm(const SpgemmArgs& args);
int runKernels(const KernelsArgs& args);
int runSelect(const SelectArgs& args);
int runCalibrate(const CalibrateArgs& args);

}  // namespace araios::cli
