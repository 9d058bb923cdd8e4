#pragma once
// What calibration measured on one matrix: its features and, per kernel, the seconds of its
// format's build and of one product in each mode (or why the kernel refused the matrix).
// No Kokkos: the fit and the report read these on the host.
#include <araios/kernel_registry.hpp>
#include <araios/model/matrix_features.hpp>
#include <araios/model/performance_profile.hpp>

#include <array>
#include <string>
#include <vector>

namespace araios::cli::calibration {

struct KernelTimings {
  Kernel kernel = Kernel::CsrScalar;
  double buildSeconds = 0;
  /// Median seconds of one product, by mode (modeIndex); 0 when not measured.
  std::array<double, kModeCount> productSeconds{};
  /// Why the kernel's format refused the matrix; empty when it was measured.
  std::string refused;
};

struct MatrixTimings {
  std::string name;
  MatrixFeatures features;
  std::vector<KernelTimings> kernels;
};

}  // namespace araios::cli::calibration
