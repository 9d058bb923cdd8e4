#pragma once
// araios-bench --model: the performance model's columns of the Araios kernels' rows, so that a
// run measures the model as well as the kernels (bench/model_report.py reads them):
//   predicted_s  the profile's prediction of one product of the row's kernel in its mode;
//   auto_kernel  the kernel Kernel::Auto would choose for the matrix and mode, for one product
//                (the build spread over 10^12 products, so the fastest product wins, as the benchmark's
//                oracle counts it) and no memory limit.
// No Kokkos here: the features are computed on the device by the caller (run_matrix_impl.hpp).
#include "result_row.hpp"

#include <araios/detail/device_description.hpp>
#include <araios/model/kernel_model.hpp>
#include <araios/model/matrix_features.hpp>
#include <araios/model/performance_profile.hpp>

#include <array>
#include <memory>
#include <optional>
#include <string>

namespace araios::bench {

/// The profile --model uses on a device: `file` when given (read for the device's backend;
/// a file of another backend is refused with a ProfileError), else the device's own
/// (findProfile: the calibrated profile, else the built-in constants). `warning` receives why
/// a profile file that was found could not be used.
std::shared_ptr<const PerformanceProfile> modelProfile(const DeviceDescription& device, const std::string& file,
                                                       std::string* warning);

/// The model's view of one matrix in one precision.
class MatrixModel {
 public:
  MatrixModel(std::shared_ptr<const PerformanceProfile> profile, const MatrixFeatures& features,
              const ElementSizes& sizes);

  /// Sets predicted_s and auto_kernel of an Araios row from its kernel and mode; auto's choice
  /// is ranked once per mode.
  void fill(ResultRow& row);

 private:
  std::shared_ptr<const PerformanceProfile> profile_;
  MatrixFeatures features_;
  ElementSizes sizes_;
  std::array<std::optional<Kernel>, kModeCount> autoKernel_;
};

}  // namespace araios::bench
