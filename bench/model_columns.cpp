// The model's columns of araios-bench --model (model_columns.hpp).
#include "model_columns.hpp"

#include <araios/model/choose_kernel.hpp>

namespace araios::bench {

std::shared_ptr<const PerformanceProfile> modelProfile(const DeviceDescription& device, const std::string& file,
                                                       std::string* warning) {
  if (!file.empty()) return std::make_shared<const PerformanceProfile>(readProfile(file, device.backend));
  return std::make_shared<const PerformanceProfile>(findProfile(device, warning));
}

MatrixModel::MatrixModel(std::shared_ptr<const PerformanceProfile> profile, const MatrixFeatures& features,
                         const ElementSizes& sizes)
    : profile_(std::move(profile)), features_(features), sizes_(sizes) {}

void MatrixModel::fill(ResultRow& row) {
  const Kernel kernel = parseKernel(row.kernel);
  const Mode mode = parseMode(row.mode);
  row.predictedSeconds = predictProductSeconds(*profile_, kernel, mode, features_, sizes_);
  std::optional<Kernel>& chosen = autoKernel_[modeIndex(mode)];
  if (!chosen) {
    ChoiceConstraints c;
    c.mode = mode;
    // The benchmark compares product times, so auto is asked for the fastest product: the
    // build spread over so many products that it no longer counts.
    c.expectedProducts = 1e12;
    c.memoryLimitBytes = -1;
    chosen = chooseKernel(features_, *profile_, c, sizes_).kernel;
  }
  row.autoKernel = std::string(kernelEntry(*chosen).name);
}

}  // namespace araios::bench
