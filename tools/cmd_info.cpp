// araios info FILE: shape, row-length statistics and what each format would cost, the costs
// estimated from the row lengths (format_footprints.hpp) rather than by building every format.
#include "backend.hpp"
#include "command_args.hpp"
#include "load_matrix.hpp"

#include <araios/araios.hpp>
#include <araios/format_footprints.hpp>

#include <fmt/core.h>
#include <nlohmann/json.hpp>

#include <algorithm>

namespace araios::cli {
namespace {

struct FormatCost {
  std::string name;
  std::int64_t bytes = 0;
  double paddingRatio = 0;
  std::string refusal;  ///< why the format cannot hold this matrix, if it cannot
};

/// Shape and row-length statistics, as computeStats gives them for the CSR of `host`, from
/// one pass over the entries on the host.
MatrixStats statsOf(const RowLengthStatistics& r) {
  MatrixStats s;
  s.rows = r.rows;
  s.cols = r.cols;
  s.nnz = r.nnz;
  if (r.rows == 0) return s;
  s.minRowLength = *std::min_element(r.lengths.begin(), r.lengths.end());
  s.maxRowLength = *std::max_element(r.lengths.begin(), r.lengths.end());
  s.emptyRows = std::count(r.lengths.begin(), r.lengths.end(), std::int64_t{0});
  s.meanRowLength = r.meanLength();
  s.stdRowLength = r.stdLength();
  s.bandwidth = r.bandwidth;
  return s;
}

template <class Value>
int runInfoTyped(const InfoArgs& args) {
  const io::HostMatrix host = loadMatrix(args.file, args.dropInvalid, args.json, args.threads);
  // Everything below comes from the row lengths: no format is built, so info costs one pass
  // over the entries after the read, and no memory beyond the matrix and its row lengths.
  const RowLengthStatistics rows =
      RowLengthStatistics::fromEntries(host.numRows, host.numCols, host.row.data(), host.col.data(), host.nnz());
  const MatrixStats s = statsOf(rows);

  // Footprints are given for 32-bit indices, which every matrix under 2^31 entries uses.
  std::vector<FormatCost> costs;
  const bool fits32 = s.rows <= INT32_MAX && s.cols <= INT32_MAX && s.nnz <= INT32_MAX;
  for (const KernelEntry& kernel : kernelRegistry()) {
    // Kernels that share a storage format share its footprint: list each format once.
    if (!costs.empty() && costs.back().name == formatName(kernel.format)) continue;
    FormatCost cost;
    cost.name = formatName(kernel.format);
    try {
      if (!fits32) throw UnsupportedError("needs 64-bit indices");
      const FormatFootprint footprint =
          estimateFootprint<Value, std::int32_t, std::int32_t>(std::string(formatName(kernel.format)), rows);
      cost.bytes = footprint.bytes;
      cost.paddingRatio = s.nnz ? static_cast<double>(footprint.storedSlots) / s.nnz : 1.0;
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

int runInfo(const InfoArgs& args) {
  return args.precision == "float" ? runInfoTyped<float>(args) : runInfoTyped<double>(args);
}

}  // namespace araios::cli
