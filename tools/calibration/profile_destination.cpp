// The profile's destination (profile_destination.hpp).
#include "profile_destination.hpp"

#include <araios/error.hpp>
#include <araios/model/performance_profile.hpp>

#include <filesystem>
#include <system_error>
#include <unistd.h>

namespace araios::cli::calibration {

std::string profileDestination(const std::string& out, const DeviceDescription& device) {
  namespace fs = std::filesystem;
  fs::path path;
  if (!out.empty()) {
    path = out;
  } else {
    const std::string folder = userProfileDirectory();
    if (folder.empty()) {
      throw InputError("no folder for the profile: neither XDG_CACHE_HOME nor HOME is set; expected one of them, "
                       "or --out FILE");
    }
    path = fs::path(folder) / profileFileName(device);
  }
  std::error_code error;
  if (fs::is_directory(path, error)) {
    throw InputError("--out " + path.string() + " is a folder; expected the name of the profile file to write");
  }
  const fs::path folder = path.has_parent_path() ? path.parent_path() : fs::path(".");
  fs::create_directories(folder, error);
  if (error || !fs::is_directory(folder)) {
    throw InputError("cannot create the folder " + folder.string() + " for the profile (" +
                     (error ? error.message() : std::string("a file of that name is in the way")) +
                     "); expected a folder that can be created, or --out FILE elsewhere");
  }
  if (::access(folder.c_str(), W_OK) != 0) {
    throw InputError("the folder " + folder.string() +
                     " is not writable; expected write permission there for the profile, or --out FILE elsewhere");
  }
  return path.string();
}

}  // namespace araios::cli::calibration
