#pragma once
// The operator options of --format auto from a command's ChoiceArgs, shared by spmv, solve and
// pagerank: the named profile (or the device's, whose refusal is reported once), the products
// the build is spread over, the memory limit and --csr-order-only.
//
// A device without a profile of its own is calibrated once, quickly (`araios calibrate
// --quick`), and its profile cached in the user's folder, where every later run finds it.
// ARAIOS_NO_CALIBRATION=1 (or a cache folder that cannot be written) keeps what findProfile
// gave instead: the nearest GPU's profile, or the built-in constants.
#include "command_args.hpp"
#include "kernel_choice.hpp"

#include <araios/model/describe_device.hpp>
#include <araios/operator.hpp>

#include <fmt/format.h>

#include <cstdlib>
#include <string>

namespace araios::cli {

template <class ExecSpace>
void setAutoOptions(OperatorOptions& options, const ExecSpace& exec, const ChoiceArgs& choice,
                    const std::string& backend, double defaultProducts) {
  if (options.kernel != Kernel::Auto) return;
  options.profile = namedProfile(choice, backend);
  if (!options.profile) {
    std::string warning;
    options.profile = Impl::deviceProfile(exec, &warning);
    if (!warning.empty()) fmt::print(stderr, "araios: warning: {}\n", warning);
    const char* noCalibration = std::getenv("ARAIOS_NO_CALIBRATION");
    const bool ownProfile = options.profile->source != "built-in" && options.profile->standsInFor.empty();
    if (!ownProfile && (noCalibration == nullptr || std::string(noCalibration) != "1")) {
      const DeviceDescription device = describeDevice(exec);
      fmt::print(stderr, "araios: no performance profile for {} ({}); calibrating it once (araios calibrate --quick) "
                 "into {}\n", device.name, backend, userProfileDirectory());
      CalibrateArgs calibrate;
      calibrate.run.backend = backend;
      calibrate.quick = true;
      calibrate.report = false;
      try {
        runCalibrate(calibrate);
        options.profile = std::make_shared<const PerformanceProfile>(findProfile(device));
      } catch (const Error& e) {
        fmt::print(stderr, "araios: warning: calibration failed ({}); using {}\n", e.what(),
                   options.profile->source == "built-in" ? std::string("the built-in constants")
                                                         : options.profile->device.name + "'s profile");
      }
    }
  }
  options.expectedProducts = choice.products > 0 ? choice.products : defaultProducts;
  options.memoryLimitBytes = choice.memoryLimit;
  options.csrOrderOnly = choice.csrOrderOnly;
}

}  // namespace araios::cli
