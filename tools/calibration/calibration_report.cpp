// The report of araios calibrate (calibration_report.hpp).
#include "calibration_report.hpp"

#include "calibration_progress.hpp"

#include <araios/types.hpp>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace araios::cli::calibration {
namespace {

std::string percent(double fraction) { return fmt::format("{:.1f}%", 100 * fraction); }

/// "n mean max" of one fit, or "built-in" where there was none.
std::string errorColumns(int samples, double mean, double max, bool builtin) {
  if (builtin) return fmt::format("{:>4} {:>16}", samples, "built-in");
  return fmt::format("{:>4} {:>7} {:>8}", samples, percent(mean), percent(max));
}

std::string deviceText(const ProfileFit& fit) {
  const DeviceDescription& d = fit.profile.device;
  std::string text = d.name + " (" + d.backend;
  if (d.warpsPerMultiprocessor > 0) {
    text += fmt::format(", {} multiprocessors", d.multiprocessors);
  } else {
    text += fmt::format(", {} threads", d.threads);
  }
  if (fit.reportedCacheBytes > 0) text += fmt::format(", {:.3g} MiB last-level cache", fit.reportedCacheBytes / 1048576.0);
  if (d.cacheBytes != fit.reportedCacheBytes) text += fmt::format(", {:.3g} MiB of it fitted for x", d.cacheBytes / 1048576.0);
  return text + ")";
}

}  // namespace

void printReport(const ProfileFit& fit, const CalibrationRun& run) {
  const PerformanceProfile& p = fit.profile;
  fmt::print("device    {}\n", deviceText(fit));
  fmt::print("measured  {} of {} matrices in {} ({} values, 32-bit indices){}\n", run.matricesMeasured,
             run.matricesPlanned, clockText(run.seconds), run.precision,
             run.matricesMeasured < run.matricesPlanned ? fmt::format("; --budget {} s reached", run.budgetSeconds) : "");
  fmt::print("\nFit of one product, |predicted - measured| / measured over the calibration matrices:\n");
  fmt::print("{:<12}", "");
  for (std::size_t m = 0; m < kModeCount; ++m) fmt::print("  {:<21}", toString(static_cast<Mode>(m)));
  fmt::print("\n{:<12}", "kernel");
  for (std::size_t m = 0; m < kModeCount; ++m) fmt::print("  {:>4} {:>7} {:>8}", "n", "mean", "max");
  fmt::print("\n");
  for (std::size_t k = 0; k < kKernelCount; ++k) {
    fmt::print("{:<12}", kernelRegistry()[k].name);
    for (std::size_t m = 0; m < kModeCount; ++m) {
      const FitQuality& q = p.quality[k][m];
      fmt::print("  {}", errorColumns(q.samples, q.meanAbsRelError, q.maxAbsRelError, fit.builtin[k][m]));
    }
    fmt::print("\n");
  }
  fmt::print("\nFit of building each format from CSR:\n{:<12}  {:>4} {:>7} {:>8}\n", "format", "n", "mean", "max");
  for (std::size_t f = 0; f < kFormatCount; ++f) {
    if (static_cast<FormatId>(f) == FormatId::Csr) continue;
    const BuildFit& b = fit.build[f];
    fmt::print("{:<12}  {}\n", kFormatNames[f], errorColumns(b.samples, b.meanAbsRelError, b.maxAbsRelError, b.builtin));
  }
  if (!fit.notes.empty()) {
    fmt::print("\nnotes\n");
    for (const std::string& note : fit.notes) fmt::print("  {}\n", note);
  }
  fmt::print("\nprofile   {}\n", run.path);
}

void printReportJson(const ProfileFit& fit, const CalibrationRun& run) {
  const PerformanceProfile& p = fit.profile;
  nlohmann::json kernels = nlohmann::json::array();
  for (std::size_t k = 0; k < kKernelCount; ++k) {
    for (std::size_t m = 0; m < kModeCount; ++m) {
      const FitQuality& q = p.quality[k][m];
      kernels.push_back({{"kernel", std::string(kernelRegistry()[k].name)},
                         {"mode", toString(static_cast<Mode>(m))},
                         {"samples", q.samples},
                         {"mean_abs_rel_error", q.meanAbsRelError},
                         {"max_abs_rel_error", q.maxAbsRelError},
                         {"builtin", fit.builtin[k][m]}});
    }
  }
  nlohmann::json build = nlohmann::json::array();
  for (std::size_t f = 0; f < kFormatCount; ++f) {
    if (static_cast<FormatId>(f) == FormatId::Csr) continue;
    const BuildFit& b = fit.build[f];
    build.push_back({{"format", std::string(kFormatNames[f])},
                     {"samples", b.samples},
                     {"mean_abs_rel_error", b.meanAbsRelError},
                     {"max_abs_rel_error", b.maxAbsRelError},
                     {"builtin", b.builtin}});
  }
  const nlohmann::json j = {{"profile", run.path},
                            {"device",
                             {{"backend", p.device.backend},
                              {"name", p.device.name},
                              {"threads", p.device.threads},
                              {"multiprocessors", p.device.multiprocessors},
                              {"cache_bytes", fit.reportedCacheBytes},
                              {"fitted_cache_bytes", p.device.cacheBytes}}},
                            {"commit", p.commit},
                            {"created", p.created},
                            {"precision", run.precision},
                            {"seconds", run.seconds},
                            {"matrices_measured", run.matricesMeasured},
                            {"matrices_planned", run.matricesPlanned},
                            {"budget_s", run.budgetSeconds},
                            {"kernels", kernels},
                            {"build", build},
                            {"notes", fit.notes}};
  fmt::print("{}\n", j.dump());
}

}  // namespace araios::cli::calibration
