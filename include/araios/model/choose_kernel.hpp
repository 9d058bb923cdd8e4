#pragma once
// Kernel::Auto: the kernel that minimises building its format plus the expected number of
// products times the predicted time of one, among the kernels the constraints allow.
//
//   total(k) = t_build(k) + expectedProducts * t_product(k, mode)
//
// The caller says how many products it expects (a solver passes its iteration limit, a single
// product passes 1), the mode, a memory limit and the padding limit. A kernel is excluded, with
// the reason, when its format would not fit the memory limit, would pass the padding limit, or
// (when asked) would not repeat its bits from run to run in Fast mode. The CSR kernels build
// nothing and are never excluded, so there is always a choice.
#include <araios/format_options.hpp>
#include <araios/kernel_registry.hpp>
#include <araios/mode.hpp>
#include <araios/model/kernel_model.hpp>
#include <araios/model/matrix_features.hpp>
#include <araios/model/performance_profile.hpp>
#include <araios/types.hpp>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

namespace araios {

struct ChoiceConstraints {
  Mode mode = Mode::Deterministic;
  /// Products the format's build is spread over.
  double expectedProducts = 100;
  /// Bytes the format may take beyond the CSR matrix; negative: no limit.
  std::int64_t memoryLimitBytes = -1;
  double maxPaddingRatio = kDefaultMaxPaddingRatio;
  /// In Fast mode, only kernels whose fast path gives the same bits on every run.
  bool requireRunToRun = false;
  /// The kernels to choose among; empty: every kernel.
  std::vector<Kernel> candidates;
};

struct KernelEstimate {
  Kernel kernel = Kernel::CsrScalar;
  double productSeconds = 0;
  double buildSeconds = 0;
  double totalSeconds = 0;
  /// Bytes of the format beyond the caller's CSR (0 for the CSR kernels).
  std::int64_t formatBytes = 0;
  /// Stored slots per nonzero, as estimated.
  double padding = 1;
  /// Why the kernel cannot be chosen; empty when it can.
  std::string excluded;
};

struct KernelChoice {
  Kernel kernel = Kernel::CsrScalar;
  /// The kernels that can be chosen, fastest total first, then the excluded ones.
  std::vector<KernelEstimate> ranking;
  /// One line: the winner, its predicted times, and the runner-up.
  std::string reason;
  /// The profile's device and source, and the model's terms it lacks.
  std::string profile;
};

namespace Impl {
inline std::string secondsText(double s) {
  char text[32];
  if (s >= 1) {
    std::snprintf(text, sizeof text, "%.3g s", s);
  } else if (s >= 1e-3) {
    std::snprintf(text, sizeof text, "%.3g ms", s * 1e3);
  } else {
    std::snprintf(text, sizeof text, "%.3g us", s * 1e6);
  }
  return text;
}
}  // namespace Impl

/// Ranks the kernels for a matrix of features `f` with the constants of `profile`.
inline KernelChoice chooseKernel(const MatrixFeatures& f, const PerformanceProfile& profile,
                                 const ChoiceConstraints& c, const ElementSizes& sizes = {}) {
  KernelChoice choice;
  choice.profile = profile.source == "built-in" ? std::string("built-in constants (no profile for this device)")
                                                : profile.device.name + " (" + profile.source + ")";
  if (!profile.standsInFor.empty()) choice.profile += ", the nearest GPU's: none for " + profile.standsInFor;
  // Say so rather than predict as if the profile had measured the term and found it free.
  if (const std::string absent = absentTermNames(profile); !absent.empty()) {
    choice.profile += "; fitted before the term " + absent + ", taken as 0 until araios calibrate runs again";
  }
  const double products = std::max(0.0, c.expectedProducts);
  for (const KernelEntry& entry : kernelRegistry()) {
    if (!c.candidates.empty() && std::find(c.candidates.begin(), c.candidates.end(), entry.kernel) == c.candidates.end()) {
      continue;
    }
    KernelEstimate e;
    e.kernel = entry.kernel;
    e.productSeconds = predictProductSeconds(profile, entry.kernel, c.mode, f, sizes);
    e.buildSeconds = predictBuildSeconds(profile, entry.kernel, f);
    e.totalSeconds = e.buildSeconds + products * e.productSeconds;
    const std::int64_t slots = estimatedSlots(entry.kernel, f);
    e.padding = f.nnz > 0 ? static_cast<double>(slots) / static_cast<double>(f.nnz) : 1.0;
    const bool csr = entry.format == FormatId::Csr;
    e.formatBytes = csr ? 0 : slots * (sizes.value + sizes.ordinal) + f.rows * (sizes.ordinal + sizes.offset);
    if (!profile.calibrated[kernelIndex(entry.kernel)]) {
      e.excluded = "not in the profile " + profile.source + " (araios calibrate measures it)";
    } else if (!csr) {
      char text[160];
      if (e.padding > c.maxPaddingRatio) {
        std::snprintf(text, sizeof text, "%.2f slots per nonzero, limit %.2f", e.padding, c.maxPaddingRatio);
        e.excluded = text;
      } else if (c.memoryLimitBytes >= 0 && e.formatBytes > c.memoryLimitBytes) {
        e.excluded = "needs " + groupedDigits(e.formatBytes) + " bytes, limit " + groupedDigits(c.memoryLimitBytes);
      } else if (c.mode == Mode::Fast && c.requireRunToRun && !entry.fast.runToRun) {
        e.excluded = "fast mode does not repeat its bits (" + std::string(entry.fastNote) + ")";
      }
    } else if (c.mode == Mode::Fast && c.requireRunToRun && !entry.fast.runToRun) {
      e.excluded = "fast mode does not repeat its bits (" + std::string(entry.fastNote) + ")";
    }
    choice.ranking.push_back(e);
  }
  // Eligible first, then by predicted total; the registry order breaks ties, so the choice is
  // the same on every machine that predicts the same times.
  std::stable_sort(choice.ranking.begin(), choice.ranking.end(), [](const KernelEstimate& a, const KernelEstimate& b) {
    if (a.excluded.empty() != b.excluded.empty()) return a.excluded.empty();
    return a.excluded.empty() && a.totalSeconds < b.totalSeconds;
  });
  if (choice.ranking.empty() || !choice.ranking.front().excluded.empty()) {
    // Nothing allowed (every candidate excluded): csr-scalar builds nothing and always runs.
    KernelEstimate e;
    e.kernel = Kernel::CsrScalar;
    e.productSeconds = predictProductSeconds(profile, e.kernel, c.mode, f, sizes);
    e.totalSeconds = products * e.productSeconds;
    choice.ranking.insert(choice.ranking.begin(), e);
    choice.kernel = e.kernel;
    choice.reason = "csr-scalar: no candidate kernel fits the constraints";
    return choice;
  }
  const KernelEstimate& best = choice.ranking.front();
  choice.kernel = best.kernel;
  choice.reason = std::string(kernelEntry(best.kernel).name) + ": predicted " + Impl::secondsText(best.productSeconds) +
                  " per product" +
                  (best.buildSeconds > 0 ? " + " + Impl::secondsText(best.buildSeconds) + " to build" : std::string()) +
                  " (" + toString(c.mode) + " mode, " + groupedDigits(static_cast<std::int64_t>(products)) +
                  " products expected)";
  if (choice.ranking.size() > 1 && choice.ranking[1].excluded.empty()) {
    const KernelEstimate& next = choice.ranking[1];
    char ratio[32];
    std::snprintf(ratio, sizeof ratio, "%.2fx", best.totalSeconds > 0 ? next.totalSeconds / best.totalSeconds : 1.0);
    choice.reason += "; next " + std::string(kernelEntry(next.kernel).name) + " at " +
                     Impl::secondsText(next.productSeconds) + " per product, " + ratio + " the total";
  }
  return choice;
}

}  // namespace araios
