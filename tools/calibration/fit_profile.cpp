// Fitting a profile to calibration's timings (fit_profile.hpp).
#include "fit_profile.hpp"

#include <araios/model/fit_constants.hpp>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <string>

namespace araios::cli::calibration {
namespace {

template <std::size_t N>
bool allZero(const std::array<double, N>& constants) {
  return std::all_of(constants.begin(), constants.end(), [](double c) { return c == 0; });
}

const KernelTimings* timingsOf(const MatrixTimings& matrix, Kernel kernel) {
  for (const KernelTimings& k : matrix.kernels) {
    if (k.kernel == kernel && k.refused.empty()) return &k;
  }
  return nullptr;
}

/// The product fits of every kernel and mode for one value of the device's cache.
struct ProductFits {
  std::array<std::array<FitResult<kProductTerms>, kModeCount>, kKernelCount> fits{};
  /// The mean relative error over every sample of every fit: what the cache is chosen by.
  double meanError = 0;
};

ProductFits fitProducts(const std::vector<MatrixTimings>& timings, const ElementSizes& sizes,
                        const DeviceTraits& traits) {
  ProductFits result;
  double errorSum = 0;
  int samplesSum = 0;
  for (std::size_t k = 0; k < kKernelCount; ++k) {
    const Kernel kernel = kernelRegistry()[k].kernel;
    for (std::size_t m = 0; m < kModeCount; ++m) {
      std::vector<FitSample<kProductTerms>> samples;
      for (const MatrixTimings& matrix : timings) {
        const KernelTimings* t = timingsOf(matrix, kernel);
        if (t == nullptr || !(t->productSeconds[m] > 0)) continue;
        samples.push_back({kernelTerms(kernel, static_cast<Mode>(m), matrix.features, sizes, traits),
                           t->productSeconds[m]});
      }
      if (samples.empty()) continue;  // samples 0: the caller keeps the built-in constants
      result.fits[k][m] = fitConstants(samples);
      errorSum += result.fits[k][m].meanAbsRelError * result.fits[k][m].samples;
      samplesSum += result.fits[k][m].samples;
    }
  }
  result.meanError = samplesSum > 0 ? errorSum / samplesSum : 0;
  return result;
}

/// The cache sizes tried for x besides the reported one: its halves, down to 256 KiB. The
/// reported size is not always the one x may stay in: a CPU reports its whole last-level
/// cache, of which one core complex, or a virtual machine's share, holds a fraction.
std::vector<std::int64_t> smallerCaches(std::int64_t reported) {
  constexpr std::int64_t kSmallest = std::int64_t{256} << 10;
  std::vector<std::int64_t> candidates;
  for (std::int64_t c = reported / 2; c >= kSmallest; c /= 2) candidates.push_back(c);
  return candidates;
}

std::string percent(double fraction) {
  char text[32];
  std::snprintf(text, sizeof text, "%.1f%%", 100 * fraction);
  return text;
}

std::string mebibytes(std::int64_t bytes) {
  char text[32];
  std::snprintf(text, sizeof text, "%.3g MiB", static_cast<double>(bytes) / (1 << 20));
  return text;
}

}  // namespace

ProfileFit fitProfile(const DeviceDescription& device, const std::vector<MatrixTimings>& timings,
                      const ElementSizes& sizes) {
  ProfileFit fit;
  const PerformanceProfile builtin = builtinProfile(device.backend);
  PerformanceProfile& p = fit.profile;
  p = builtin;
  p.device = device;
  p.source = "calibration";
  fit.reportedCacheBytes = device.cacheBytes;

  // The cache x may stay in, fitted with the constants: the one whose fits predict the
  // timings best, the reported one unless another is better by more than the noise (2%).
  // Predictions read it from the profile's device (PerformanceProfile::traits), so that is
  // where it goes.
  ProductFits best = fitProducts(timings, sizes, p.traits());
  const double reportedError = best.meanError;
  for (const std::int64_t cache : smallerCaches(p.traits().cacheBytes)) {
    PerformanceProfile trial = p;
    trial.device.cacheBytes = cache;
    ProductFits candidate = fitProducts(timings, sizes, trial.traits());
    if (candidate.meanError < 0.98 * best.meanError) {
      best = candidate;
      p.device.cacheBytes = cache;
    }
  }
  if (p.device.cacheBytes != device.cacheBytes) {
    fit.notes.push_back("the cache x stays in is fitted to " + mebibytes(p.device.cacheBytes) + " (" +
                        (device.cacheBytes > 0 ? "the device reports " + mebibytes(device.cacheBytes)
                                               : std::string("the device reports none")) +
                        "): the timings fit best with the lines of x past it missing (mean error " +
                        percent(best.meanError) + ", against " + percent(reportedError) + " with the reported size)");
  }

  int looseFits = 0;  // fitted from fewer matrices than constants
  for (std::size_t k = 0; k < kKernelCount; ++k) {
    for (std::size_t m = 0; m < kModeCount; ++m) {
      const FitResult<kProductTerms>& r = best.fits[k][m];
      const std::string what = std::string(kernelRegistry()[k].name) + " " + toString(static_cast<Mode>(m));
      if (r.samples == 0) {
        fit.builtin[k][m] = true;
        fit.notes.push_back(what + ": no matrix was measured (every one refused or none timed); the built-in "
                                   "constants are kept");
      } else if (allZero(r.constants)) {
        fit.builtin[k][m] = true;
        fit.notes.push_back(what + ": the fit found no positive constant; the built-in constants are kept");
      } else {
        p.product[k][m] = r.constants;
        p.quality[k][m] = {r.samples, r.meanAbsRelError, r.maxAbsRelError};
        if (r.samples < static_cast<int>(kProductTerms)) ++looseFits;
      }
    }
  }

  if (looseFits > 0) {
    fit.notes.push_back(std::to_string(looseFits) + " kernel-mode fits had fewer matrices than their " +
                        std::to_string(kProductTerms) + " constants: their constants are loose (a longer --budget helps)");
  }

  for (std::size_t f = 0; f < kFormatCount; ++f) {
    const auto format = static_cast<FormatId>(f);
    BuildFit& quality = fit.build[f];
    if (format == FormatId::Csr) {
      p.build[f] = BuildTerms{};  // the CSR kernels use the caller's CSR: nothing to build
      continue;
    }
    std::vector<FitSample<kBuildTerms>> samples;
    for (const MatrixTimings& matrix : timings) {
      for (const KernelTimings& t : matrix.kernels) {
        if (kernelEntry(t.kernel).format != format || !t.refused.empty() || !(t.buildSeconds > 0)) continue;
        samples.push_back({buildTerms(t.kernel, matrix.features), t.buildSeconds});
      }
    }
    const std::string what = "build of " + std::string(kFormatNames[f]);
    const FitResult<kBuildTerms> r = samples.empty() ? FitResult<kBuildTerms>{} : fitConstants(samples);
    if (samples.empty() || allZero(r.constants)) {
      quality.builtin = true;
      fit.notes.push_back(what + (samples.empty() ? ": no matrix was accepted" : ": the fit found no positive constant") +
                          "; the built-in constants are kept");
      continue;
    }
    p.build[f] = r.constants;
    quality = {r.samples, r.meanAbsRelError, r.maxAbsRelError, false};
  }
  return fit;
}

}  // namespace araios::cli::calibration
