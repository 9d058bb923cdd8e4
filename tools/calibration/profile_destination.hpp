#pragma once
// Where araios calibrate writes its profile, settled before any matrix is timed: a folder
// that cannot be created or written to is reported at once, not after minutes of measuring.
#include <araios/detail/device_description.hpp>

#include <string>

namespace araios::cli::calibration {

/// `out` when given, else the user's profile folder (userProfileDirectory) under the device's
/// file name (profileFileName), where the device's profile is found by default. Creates the
/// folder; throws InputError, saying why and what to do, when it cannot or may not write there.
std::string profileDestination(const std::string& out, const DeviceDescription& device);

}  // namespace araios::cli::calibration
