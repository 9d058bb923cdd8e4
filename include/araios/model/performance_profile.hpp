#pragma once
// A device's performance profile: the constants of the model (kernel_model.hpp) for every
// kernel and mode, and for building every format, fitted by `araios calibrate` on one device
// and backend, with what identifies them (device name, clocks, thread count, commit).
//
// Profiles are JSON files (format in docs/model.md). readProfile refuses a file that is not
// one, or that is another backend's, with a ProfileError that names the file and the problem;
// findProfileFile looks for the device's profile where calibration and the installation put
// them; builtinProfile is the fallback when there is none: rough constants for a GPU or a CPU,
// enough to keep a kernel choice sensible, not tuned to any device.
#include <araios/detail/device_description.hpp>
#include <araios/error.hpp>
#include <araios/kernel_registry.hpp>
#include <araios/mode.hpp>
#include <araios/model/kernel_model.hpp>

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace araios {

inline constexpr int kProfileVersion = 1;
inline constexpr std::size_t kKernelCount = 15;
inline constexpr std::size_t kModeCount = 3;
/// The product terms every profile holds, those of the first profiles (kProductTermNames up to
/// longest_row). A term added since may be absent from a profile fitted before it.
inline constexpr std::size_t kRequiredProductTerms = 7;

/// A profile file that cannot be used: not JSON, not a profile, another version, another
/// backend or device, an unknown kernel or term, a constant missing, negative or not finite.
class ProfileError : public InputError {
 public:
  using InputError::InputError;
};

/// Whether a backend runs on a GPU (its built-in constants, findProfile's fallback and the
/// model's counts for COO and HYB in Fast mode differ).
inline bool isGpuBackend(const std::string& backend) { return backend == "cuda"; }

/// How well the fit matched the calibration's own measurements, per kernel and mode.
struct FitQuality {
  int samples = 0;
  double meanAbsRelError = 0;
  double maxAbsRelError = 0;
};

struct PerformanceProfile {
  int version = kProfileVersion;
  DeviceDescription device;
  std::string commit;
  std::string created;  ///< ISO 8601, UTC
  /// Where it came from: a file's path, or "built-in".
  std::string source = "built-in";
  /// The GPU this profile stands in for when findProfile found none of that GPU's own and took
  /// the nearest other GPU's; empty when the profile is the device's own or built-in.
  std::string standsInFor;
  /// Constants of t_product, by kernel (registry order) and mode (Fast, Deterministic, Accurate).
  std::array<std::array<ProductTerms, kModeCount>, kKernelCount> product{};
  std::array<std::array<FitQuality, kModeCount>, kKernelCount> quality{};
  /// Whether the profile holds constants for the kernel. A profile written before a kernel
  /// existed lacks it: Kernel::Auto then leaves that kernel out until `araios calibrate` runs.
  std::array<bool, kKernelCount> calibrated = allTrue<kKernelCount>();
  /// Whether the profile holds the term's constants. A profile fitted before a term existed
  /// lacks it (the committed CPU profile predates scattered_entries): its constants are 0
  /// there, so the term adds nothing to any prediction until `araios calibrate` runs again.
  std::array<bool, kProductTerms> termFitted = allTrue<kProductTerms>();

  template <std::size_t N>
  static constexpr std::array<bool, N> allTrue() {
    std::array<bool, N> all{};
    for (bool& b : all) b = true;
    return all;
  }
  /// Constants of t_build by format (FormatId order).
  std::array<BuildTerms, kFormatCount> build{};

  DeviceTraits traits() const {
    DeviceTraits t;
    if (device.cacheBytes > 0) t.cacheBytes = device.cacheBytes;
    t.gpu = isGpuBackend(device.backend);
    return t;
  }
};

inline std::size_t kernelIndex(Kernel kernel) {
  const auto& rows = kernelRegistry();
  for (std::size_t k = 0; k < rows.size(); ++k) {
    if (rows[k].kernel == kernel) return k;
  }
  throw InputError("no kernel entry for auto; expected a concrete kernel");
}
inline std::size_t modeIndex(Mode mode) { return static_cast<std::size_t>(mode); }

/// Predicted seconds of one product of `kernel` in `mode`.
inline double predictProductSeconds(const PerformanceProfile& p, Kernel kernel, Mode mode, const MatrixFeatures& f,
                                    const ElementSizes& e) {
  return dotTerms(kernelTerms(kernel, mode, f, e, p.traits()), p.product[kernelIndex(kernel)][modeIndex(mode)]);
}

/// The terms the profile lacks (fitted before they existed), comma-separated; empty when none.
inline std::string absentTermNames(const PerformanceProfile& p) {
  std::string names;
  for (std::size_t t = 0; t < kProductTerms; ++t) {
    if (!p.termFitted[t]) names += (names.empty() ? "" : ", ") + std::string(kProductTermNames[t]);
  }
  return names;
}

/// Predicted seconds of building the format of `kernel` from CSR.
inline double predictBuildSeconds(const PerformanceProfile& p, Kernel kernel, const MatrixFeatures& f) {
  return dotTerms(buildTerms(kernel, f), p.build[static_cast<std::size_t>(kernelEntry(kernel).format)]);
}

/// The fallback when no profile fits the device: a GPU's constants (gpu) or a CPU's.
inline PerformanceProfile builtinProfile(const std::string& backend) {
  const bool gpu = isGpuBackend(backend);
  PerformanceProfile p;
  p.device.backend = backend;
  p.device.name = "built-in";
  p.device.cacheBytes = gpu ? (50 << 20) : (32 << 20);
  // launch, stream byte, gathered line, missed line, row, irregular step, step of the longest
  // row, scattered entry (a GPU: an H100's csr-scalar took 417 us longer than SELL over the
  // 54 M entries of a block FEM matrix; a CPU walks a row in order). A GPU's step of the longest
  // row is a dependent load from memory, about 0.3 us: the H100's fitted constants lie between
  // 0.27 and 0.37 us for ELL, SELL, DIA, JDS, BRC, VAB and csr-vector, and an H200 walked a
  // power-law graph's longest row (2,477 entries) with JDS in 1.4 ms.
  const ProductTerms base = gpu ? ProductTerms{6e-6, 1 / 2.5e12, 4e-12, 4e-11, 4e-12, 4e-13, 3e-7, 8e-12}
                                : ProductTerms{4e-6, 1 / 2.0e10, 2e-10, 3e-9, 5e-10, 0, 1e-9, 0};
  for (std::size_t k = 0; k < kKernelCount; ++k) {
    const KernelEntry& entry = kernelRegistry()[k];
    // Kernels with more than one pass over the data (a second phase, a plan) pay for it.
    const bool multiPass = entry.format == FormatId::Hyb ||
                           entry.format == FormatId::Brcp || entry.format == FormatId::ScCsr ||
                           entry.format == FormatId::Csc || entry.format == FormatId::Coo ||
                           entry.kernel == Kernel::CsrMerge;
    for (std::size_t m = 0; m < kModeCount; ++m) {
      ProductTerms c = base;
      double factor = multiPass ? 1.5 : 1.0;
      if (m == modeIndex(Mode::Deterministic) && !entry.fast.runToRun) factor *= 1.5;
      if (m == modeIndex(Mode::Accurate)) factor *= 4.0;
      for (std::size_t j = 1; j < kProductTerms; ++j) c[j] *= factor;
      p.product[k][m] = c;
    }
  }
  const BuildTerms build = gpu ? BuildTerms{2e-4, 2e-10, 1e-10, 2e-10} : BuildTerms{1e-4, 2e-8, 1e-8, 1e-8};
  for (auto& b : p.build) b = build;
  return p;
}

/// Refuses (ProfileError) a profile whose constants are missing, negative or not finite, whose
/// absent term has a constant other than 0, or that belongs to another backend than `backend`
/// (empty: any). `where` names it in messages.
void validateProfile(const PerformanceProfile& profile, const std::string& backend, const std::string& where);

/// Reads a profile file (readProfile also validates it against `backend`, empty for any). A
/// term past kRequiredProductTerms that no kernel's constants name is absent (termFitted);
/// one that some kernels name and others lack, or a name that is no term, is refused.
PerformanceProfile readProfile(const std::string& path, const std::string& backend = "");
/// Writes `profile` to `path` atomically (a temporary file renamed when complete); an absent
/// term stays absent.
void writeProfile(const std::string& path, const PerformanceProfile& profile);

/// "cuda-nvidia-h100-80gb-hbm3.json": the file name of a device's profile.
std::string profileFileName(const DeviceDescription& device);
/// The folder calibration writes to by default: $XDG_CACHE_HOME/araios/profiles, else
/// $HOME/.cache/araios/profiles.
std::string userProfileDirectory();
/// The folders searched for a device's profile, in order: $ARAIOS_PROFILE_DIR, the user's
/// cache folder, the installed profiles (share/araios/profiles) and the source tree's.
std::vector<std::string> profileSearchPath();

/// The profile for `device`: the file $ARAIOS_PROFILE names, else profileFileName(device) in
/// the first folder of profileSearchPath() that holds it; else, for a GPU, the profile of the
/// nearest other GPU of the same backend in those folders (fewest differences in
/// multiprocessors, clocks and cache; its standsInFor names `device`, and `warning` says so);
/// else builtinProfile. A CPU gets the built-in constants rather than another CPU's profile,
/// whose constants depend on its thread count. A file that is found but refused is reported in
/// `warning` and the search goes on.
PerformanceProfile findProfile(const DeviceDescription& device, std::string* warning = nullptr);

}  // namespace araios
