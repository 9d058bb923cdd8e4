#pragma once
// From calibration's timings to a profile: per kernel and mode, the product constants fitted to
// {kernelTerms, measured seconds} over every matrix the kernel accepted; per format, the build
// constants fitted to {buildTerms, build seconds}. A kernel and mode, or a format, that no
// matrix measured keeps the built-in constants, and the fit says so. The cache x may stay in
// (the model's miss term) is fitted too, among the reported size and its halves.
#include "matrix_timings.hpp"

#include <araios/detail/device_description.hpp>
#include <araios/model/kernel_model.hpp>
#include <araios/model/performance_profile.hpp>

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace araios::cli::calibration {

struct BuildFit {
  int samples = 0;
  double meanAbsRelError = 0;
  double maxAbsRelError = 0;
  bool builtin = false;  ///< no samples: the built-in constants were kept
};

struct ProfileFit {
  PerformanceProfile profile;
  /// Per kernel and mode: no samples, so the built-in constants were kept.
  std::array<std::array<bool, kModeCount>, kKernelCount> builtin{};
  std::array<BuildFit, kFormatCount> build{};
  /// The cache the device reports; profile.device.cacheBytes holds the one fitted for x.
  std::int64_t reportedCacheBytes = 0;
  /// One line per fallback or oddity, for the report.
  std::vector<std::string> notes;
};

/// Fits the constants for `device` from `timings` (values and indices of `sizes`).
ProfileFit fitProfile(const DeviceDescription& device, const std::vector<MatrixTimings>& timings,
                      const ElementSizes& sizes);

}  // namespace araios::cli::calibration
