#pragma once
// What every subcommand shares: how it is registered, and the options common to all.
#include <CLI/CLI.hpp>

#include <functional>
#include <memory>
#include <string>

namespace araios::cli {

/// A subcommand: its CLI11 node and what runs when it is chosen. run() returns the exit code.
struct Command {
  CLI::App* app;
  std::function<int()> run;
  std::function<int()> threads;  ///< the --threads value, read after parsing
};

Command addInfoCommand(CLI::App& parent);
Command addSpmvCommand(CLI::App& parent);
Command addSolveCommand(CLI::App& parent);
Command addPageRankCommand(CLI::App& parent);
Command addReproCommand(CLI::App& parent);
Command addKernelsCommand(CLI::App& parent);

/// Options every command that runs kernels takes.
struct RunOptions {
  std::string backend;
  std::string precision = "double";
  int threads = 0;
  bool dropInvalid = false;
  bool json = false;
};

void addRunOptions(CLI::App& app, RunOptions& options);

/// --mode, its choices the three modes of araios/mode.hpp; `help` says what it governs here.
void addModeOption(CLI::App& app, std::string& mode, const std::string& help);

/// --force and --portable, for the commands that build one kernel of the format registry.
void addKernelBuildFlags(CLI::App& app, bool& force, bool& portable);

}  // namespace araios::cli
