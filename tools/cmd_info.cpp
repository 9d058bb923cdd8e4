// araios info FILE: shape, row-length statistics and what each format would cost.
#include "backend.hpp"
#include "command.hpp"
#include "load_matrix.hpp"

#include <araios/araios.hpp>

#include <fmt/core.h>
#include <nlohmann/json.hpp>

namespace araios::cli {
namespace {

struct InfoArgs {
  std::string file;
  std::string precision = "double";
  int threads = 0;
  bool dropInvalid = false;
  bool json = false;
};

struct FormatCost {
  std::string name;
  std::int64_t bytes = 0;
  double paddingRatio = 0;
  std::string refusal;  ///< why the format cannot hold this matrix, if it cannot
};

template <class Value>
int runInfo(const InfoArgs& args) {
  using Exec = Kokkos::DefaultHostExecutionSpace;
  using Csr = CsrMatrix<Value, std::int64_t, std::int64_t, Exec::device_type>;
  const io::HostMatrix host = loadMatrix(args.file, args.dropInvalid, args.json);
  Exec exec;
  const Csr csr = csrFromHost<Csr>(host);
  const MatrixStats s = computeStats(exec, csr);

  // Footprints are given for 32-bit indices, which every matrix under 2^31 entries uses.
  using Csr32 = CsrMatrix<Value, std::int32_t, std::int32_t, Exec::device_type>;
  std::vector<FormatCost> costs;
  const bool fits32 = s.rows <= INT32_MAX && s.cols <= INT32_MAX && s.nnz <= INT32_MAX;
  const Csr32 csr32 = fits32 ? csrFromHost<Csr32>(host) : Csr32{};
  for (const KernelEntry& kernel : kernelRegistry()) {
    // Kernels that share a storage format share its footprint: list each format once.
    if (!costs.empty() && costs.back().name == formatName(kernel.format)) continue;
    FormatCost cost;
    cost.name = formatName(kernel.format);
    try {
      if (!fits32) throw UnsupportedError("needs 64-bit indices");
      OperatorOptions options;
      options.kernel = kernel.kernel;
      const SpmvOperator<Value, std::int32_t, std::int32_t, Exec> prepared(exec, csr32, options);
      cost.bytes = prepared.formatBytes();
      cost.paddingRatio = s.nnz ? static_cast<double>(prepared.storedSlots()) / s.nnz : 1.0;
    } catch (const Error& e) {
      cost.refusal = e.what();
    }
    costs.push_back(cost);
  }

  const auto& h = host.header;
  if (args.json) {
    nlohmann::json formats = nlohmann::json::array();
    for (const auto& c : costs) {
      nlohmann::json f = {{"format", c.name}};
      if (c.refusal.empty()) {
        f["bytes"] = c.bytes;
        f["padding_ratio"] = c.paddingRatio;
      } else {
        f["refused"] = c.refusal;
      }
      formats.push_back(f);
    }
    nlohmann::json j = {{"file", args.file},
                        {"rows", s.rows},
                        {"cols", s.cols},
                        {"nnz", s.nnz},
                        {"stored_entries", h.storedEntries},
                        {"format", io::toString(h.format)},
                        {"field", io::toString(h.field)},
                        {"symmetry", io::toString(h.symmetry)},
                        {"duplicates_summed", host.duplicatesSummed},
                        {"dropped_entries", host.droppedEntries},
                        {"row_length", {{"min", s.minRowLength}, {"max", s.maxRowLength},
                                        {"mean", s.meanRowLength}, {"std", s.stdRowLength}}},
                        {"empty_rows", s.emptyRows},
                        {"bandwidth", s.bandwidth},
                        {"precision", args.precision},
                        {"formats", formats}};
    fmt::print("{}\n", j.dump(2));
    return 0;
  }
  fmt::print("file        {}\n", args.file);
  fmt::print("shape       {} x {}, {} nonzeros ({} stored in the file)\n", s.rows, s.cols, s.nnz, h.storedEntries);
  fmt::print("kind        {} {} {}\n", io::toString(h.format), io::toString(h.field), io::toString(h.symmetry));
  fmt::print("row length  min {}, max {}, mean {:.3f}, std {:.3f}; {} empty rows\n", s.minRowLength, s.maxRowLength,
             s.meanRowLength, s.stdRowLength, s.emptyRows);
  fmt::print("bandwidth   {} (max |i - j|)\n", s.bandwidth);
  fmt::print("\nformat footprints ({} values, 32-bit indices):\n", args.precision);
  for (const auto& c : costs) {
    if (c.refusal.empty()) {
      fmt::print("  {:<12} {:>14} bytes   padding ratio {:.3f}\n", c.name, c.bytes, c.paddingRatio);
    } else {
      fmt::print("  {:<12} refused: {}\n", c.name, c.refusal);
    }
  }
  return 0;
}

}  // namespace

Command addInfoCommand(CLI::App& parent) {
  auto args = std::make_shared<InfoArgs>();
  CLI::App* app = parent.add_subcommand("info", "shape, row-length statistics and the bytes each format would take");
  app->add_option("file", args->file, "Matrix Market file (.mtx or .mtx.gz)")->required()->check(CLI::ExistingFile);
  app->add_option("--precision", args->precision, "value type for the footprints")
      ->check(CLI::IsMember({"double", "float"}))
      ->capture_default_str();
  app->add_option("--threads", args->threads, "OpenMP threads")->check(CLI::PositiveNumber);
  app->add_flag("--drop-invalid", args->dropInvalid, "skip entries with indices outside the matrix");
  app->add_flag("--json", args->json, "print one JSON object instead of text");
  Command command;
  command.app = app;
  command.threads = [args] { return args->threads; };
  command.run = [args] { return args->precision == "float" ? runInfo<float>(*args) : runInfo<double>(*args); };
  return command;
}

}  // namespace araios::cli
