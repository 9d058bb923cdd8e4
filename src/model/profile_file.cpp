// Performance profiles as JSON files: reading (with every check a file from elsewhere needs),
// writing (atomically), and finding the one for a device.
#include "araios_profile_dirs.hpp"

#include <araios/io/atomic_file.hpp>
#include <araios/model/performance_profile.hpp>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <sys/stat.h>

namespace araios {
namespace {

using nlohmann::json;

constexpr const char* kProfileKind = "araios-performance-profile";

[[noreturn]] void refuse(const std::string& where, const std::string& what) {
  throw ProfileError(where + ": " + what);
}

/// The constants of the terms `fitted` marks (all when null).
template <std::size_t N>
json termsToJson(const std::array<double, N>& terms, const std::array<std::string_view, N>& names,
                 const std::array<bool, N>* fitted = nullptr) {
  json j = json::object();
  for (std::size_t t = 0; t < N; ++t) {
    if (fitted == nullptr || (*fitted)[t]) j[std::string(names[t])] = terms[t];
  }
  return j;
}

/// The constants named in `j`; the first `required` names must be there, a later one may be
/// missing (0, and false in `present`), a name that is no term is refused: with missing terms
/// tolerated, a misspelt one would otherwise pass for absent.
template <std::size_t N>
std::array<double, N> termsFromJson(const json& j, const std::array<std::string_view, N>& names, std::size_t required,
                                    std::array<bool, N>& present, const std::string& where, const std::string& path) {
  if (!j.is_object()) refuse(where, path + " is not an object of constants; expected {\"launch\": ..., ...}");
  std::array<double, N> terms{};
  for (std::size_t t = 0; t < N; ++t) {
    const std::string name(names[t]);
    present[t] = j.contains(name);
    if (!present[t] && t >= required) continue;
    if (!present[t] || !j[name].is_number()) {
      refuse(where, path + "." + name + " is missing or not a number; expected a constant in seconds per unit");
    }
    terms[t] = j[name].get<double>();
  }
  for (const auto& [name, value] : j.items()) {
    if (std::find(names.begin(), names.end(), name) != names.end()) continue;
    std::string expected;
    for (const std::string_view known : names) expected += (expected.empty() ? "" : ", ") + std::string(known);
    refuse(where, path + " has a constant for an unknown term '" + name + "'; expected the terms of this build: " +
                      expected);
  }
  return terms;
}

const json& member(const json& j, const std::string& key, const std::string& where, const std::string& expected) {
  if (!j.contains(key)) refuse(where, "no \"" + key + "\"; expected " + expected);
  return j[key];
}

std::string slug(const std::string& text) {
  std::string out;
  for (const char c : text) {
    if (std::isalnum(static_cast<unsigned char>(c))) {
      out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    } else if (!out.empty() && out.back() != '-') {
      out += '-';
    }
  }
  while (!out.empty() && out.back() == '-') out.pop_back();
  return out.empty() ? "unknown" : out;
}

bool isFile(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

/// The files BACKEND-*.json in `dir`, by name; none when it cannot be listed.
std::vector<std::string> backendProfileFiles(const std::string& dir, const std::string& backend) {
  std::vector<std::string> files;
  std::error_code error;
  const std::string prefix = slug(backend) + "-";
  for (std::filesystem::directory_iterator it(dir, error), end; !error && it != end; it.increment(error)) {
    const std::string name = it->path().filename().string();
    if (name.size() > prefix.size() + 5 && name.compare(0, prefix.size(), prefix) == 0 &&
        name.compare(name.size() - 5, 5, ".json") == 0 && isFile(it->path().string())) {
      files.push_back(it->path().string());
    }
  }
  std::sort(files.begin(), files.end());
  return files;
}

/// How unlike two GPUs are: the summed |log ratio| of their multiprocessors, clocks, memory
/// clocks and caches, over the attributes both descriptions give.
double deviceDistance(const DeviceDescription& a, const DeviceDescription& b) {
  double distance = 0;
  const auto add = [&](double x, double y) {
    if (x > 0 && y > 0) distance += std::abs(std::log(x / y));
  };
  add(a.multiprocessors, b.multiprocessors);
  add(a.clockMHz, b.clockMHz);
  add(a.memoryClockMHz, b.memoryClockMHz);
  add(static_cast<double>(a.cacheBytes), static_cast<double>(b.cacheBytes));
  return distance;
}

}  // namespace

void validateProfile(const PerformanceProfile& p, const std::string& backend, const std::string& where) {
  if (p.version != kProfileVersion) {
    refuse(where, "profile version " + std::to_string(p.version) + "; expected " + std::to_string(kProfileVersion) +
                      " (run `araios calibrate` again)");
  }
  if (!backend.empty() && p.device.backend != backend) {
    refuse(where, "a profile of the " + p.device.backend + " backend (" + p.device.name + "); expected one of the " +
                      backend + " backend");
  }
  const auto checkTerm = [&](double v, const std::string& what) {
    if (!std::isfinite(v) || v < 0) {
      refuse(where, what + " is " + std::to_string(v) + "; expected a finite constant of 0 or more");
    }
  };
  for (std::size_t k = 0; k < kKernelCount; ++k) {
    for (std::size_t m = 0; m < kModeCount; ++m) {
      for (std::size_t t = 0; t < kProductTerms; ++t) {
        const std::string what = std::string("kernels.") + std::string(kernelRegistry()[k].name) + "." +
                                 toString(static_cast<Mode>(m)) + "." + std::string(kProductTermNames[t]);
        checkTerm(p.product[k][m][t], what);
        if (!p.termFitted[t] && p.product[k][m][t] != 0) {
          refuse(where, what + " is " + std::to_string(p.product[k][m][t]) +
                            " for a term absent from the profile; expected 0");
        }
      }
    }
  }
  for (std::size_t f = 0; f < kFormatCount; ++f) {
    for (std::size_t t = 0; t < kBuildTerms; ++t) {
      checkTerm(p.build[f][t], "build." + std::string(kFormatNames[f]) + "." + std::string(kBuildTermNames[t]));
    }
  }
}

PerformanceProfile readProfile(const std::string& path, const std::string& backend) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw ProfileError(path + ": cannot open the profile; expected a readable file written by araios calibrate");
  std::stringstream text;
  text << in.rdbuf();
  json j;
  try {
    j = json::parse(text.str());
  } catch (const json::exception& e) {
    refuse(path, std::string("not JSON (") + e.what() + "); expected a profile written by araios calibrate");
  }
  if (!j.is_object() || j.value("kind", "") != kProfileKind) {
    refuse(path, std::string("not an Araios performance profile; expected \"kind\": \"") + kProfileKind + "\"");
  }
  PerformanceProfile p;
  p.source = path;
  try {
    p.version = member(j, "version", path, "the profile version").get<int>();
    if (p.version != kProfileVersion) validateProfile(p, "", path);
    const json& d = member(j, "device", path, "the device the profile was fitted on");
    p.device.backend = member(d, "backend", path, "device.backend").get<std::string>();
    p.device.name = member(d, "name", path, "device.name").get<std::string>();
    p.device.threads = d.value("threads", 1);
    p.device.multiprocessors = d.value("multiprocessors", 0);
    p.device.warpsPerMultiprocessor = d.value("warps_per_multiprocessor", 0);
    p.device.threadsPerMultiprocessor = d.value("threads_per_multiprocessor", 0);
    p.device.cacheBytes = d.value("cache_bytes", std::int64_t{0});
    p.device.clockMHz = d.value("clock_mhz", 0.0);
    p.device.memoryClockMHz = d.value("memory_clock_mhz", 0.0);
    p.device.memoryBytes = d.value("memory_bytes", std::int64_t{0});
    p.commit = j.value("commit", "");
    p.created = j.value("created", "");
    const json& kernels = member(j, "kernels", path, "the constants of every kernel");
    // Per optional term, the constants that name it and the first that does not: a profile
    // fitted before the term names it nowhere, one that names it in part is damaged.
    std::array<int, kProductTerms> naming{};
    std::array<std::string, kProductTerms> firstLacking;
    int constantSets = 0;
    for (std::size_t k = 0; k < kKernelCount; ++k) {
      const std::string name(kernelRegistry()[k].name);
      if (!kernels.contains(name)) {
        p.calibrated[k] = false;  // a kernel newer than the profile: Auto leaves it out
        continue;
      }
      const json& modes = member(kernels, name, path, "constants for kernel " + name);
      for (std::size_t m = 0; m < kModeCount; ++m) {
        const std::string mode = toString(static_cast<Mode>(m));
        const json& c = member(modes, mode, path, "kernels." + name + "." + mode);
        const std::string where = "kernels." + name + "." + mode + ".constants";
        std::array<bool, kProductTerms> present{};
        p.product[k][m] = termsFromJson(member(c, "constants", path, where), kProductTermNames, kRequiredProductTerms,
                                        present, path, where);
        ++constantSets;
        for (std::size_t t = 0; t < kProductTerms; ++t) {
          naming[t] += present[t] ? 1 : 0;
          if (!present[t] && firstLacking[t].empty()) firstLacking[t] = where;
        }
        if (c.contains("fit")) {
          p.quality[k][m].samples = c["fit"].value("samples", 0);
          p.quality[k][m].meanAbsRelError = c["fit"].value("mean_abs_rel_error", 0.0);
          p.quality[k][m].maxAbsRelError = c["fit"].value("max_abs_rel_error", 0.0);
        }
      }
    }
    for (std::size_t t = kRequiredProductTerms; t < kProductTerms; ++t) {
      p.termFitted[t] = naming[t] > 0;
      if (naming[t] > 0 && naming[t] < constantSets) {
        refuse(path, firstLacking[t] + " lacks " + std::string(kProductTermNames[t]) + ", which " +
                         std::to_string(naming[t]) + " other kernel-mode constants name; expected it in all or none " +
                         "(a profile fitted before the term names it nowhere)");
      }
    }
    for (const auto& [name, value] : kernels.items()) {
      bool known = false;
      for (const KernelEntry& entry : kernelRegistry()) known = known || entry.name == name;
      if (!known) refuse(path, "constants for an unknown kernel '" + name + "'; expected the kernels of this build");
    }
    const json& build = member(j, "build", path, "the constants of every format's build");
    for (std::size_t f = 0; f < kFormatCount; ++f) {
      const std::string name(kFormatNames[f]);
      std::array<bool, kBuildTerms> present{};
      p.build[f] = termsFromJson(member(build, name, path, "build." + name), kBuildTermNames, kBuildTerms, present,
                                 path, "build." + name);
    }
  } catch (const json::exception& e) {
    refuse(path, std::string("a field has the wrong type (") + e.what() + ")");
  }
  validateProfile(p, backend, path);
  return p;
}

void writeProfile(const std::string& path, const PerformanceProfile& p) {
  validateProfile(p, "", path);
  json j;
  j["kind"] = kProfileKind;
  j["version"] = p.version;
  j["device"] = {{"backend", p.device.backend},
                 {"name", p.device.name},
                 {"threads", p.device.threads},
                 {"multiprocessors", p.device.multiprocessors},
                 {"warps_per_multiprocessor", p.device.warpsPerMultiprocessor},
                 {"threads_per_multiprocessor", p.device.threadsPerMultiprocessor},
                 {"cache_bytes", p.device.cacheBytes},
                 {"clock_mhz", p.device.clockMHz},
                 {"memory_clock_mhz", p.device.memoryClockMHz},
                 {"memory_bytes", p.device.memoryBytes}};
  j["commit"] = p.commit;
  j["created"] = p.created;
  j["units"] = "seconds per unit of each term (docs/model.md)";
  json kernels = json::object();
  for (std::size_t k = 0; k < kKernelCount; ++k) {
    if (!p.calibrated[k]) continue;
    json modes = json::object();
    for (std::size_t m = 0; m < kModeCount; ++m) {
      const FitQuality& q = p.quality[k][m];
      modes[toString(static_cast<Mode>(m))] = {
          {"constants", termsToJson(p.product[k][m], kProductTermNames, &p.termFitted)},
          {"fit", {{"samples", q.samples}, {"mean_abs_rel_error", q.meanAbsRelError}, {"max_abs_rel_error", q.maxAbsRelError}}}};
    }
    kernels[std::string(kernelRegistry()[k].name)] = modes;
  }
  j["kernels"] = kernels;
  json build = json::object();
  for (std::size_t f = 0; f < kFormatCount; ++f) build[std::string(kFormatNames[f])] = termsToJson(p.build[f], kBuildTermNames);
  j["build"] = build;
  io::writeFileAtomically(path, j.dump(2) + "\n");
}

std::string profileFileName(const DeviceDescription& device) {
  return slug(device.backend) + "-" + slug(device.name) + ".json";
}

std::string userProfileDirectory() {
  if (const char* cache = std::getenv("XDG_CACHE_HOME"); cache != nullptr && *cache != '\0') {
    return std::string(cache) + "/araios/profiles";
  }
  if (const char* home = std::getenv("HOME"); home != nullptr && *home != '\0') {
    return std::string(home) + "/.cache/araios/profiles";
  }
  return "";
}

std::vector<std::string> profileSearchPath() {
  std::vector<std::string> dirs;
  if (const char* dir = std::getenv("ARAIOS_PROFILE_DIR"); dir != nullptr && *dir != '\0') dirs.emplace_back(dir);
  if (const std::string user = userProfileDirectory(); !user.empty()) dirs.push_back(user);
  for (const char* dir : {ARAIOS_INSTALLED_PROFILE_DIR, ARAIOS_SOURCE_PROFILE_DIR}) {
    if (*dir != '\0') dirs.emplace_back(dir);
  }
  return dirs;
}

PerformanceProfile findProfile(const DeviceDescription& device, std::string* warning) {
  const auto note = [&](const std::string& text) {
    if (warning != nullptr) *warning += (warning->empty() ? "" : "\n") + text;
  };
  std::vector<std::string> candidates;
  if (const char* file = std::getenv("ARAIOS_PROFILE"); file != nullptr && *file != '\0') candidates.emplace_back(file);
  for (const std::string& dir : profileSearchPath()) {
    const std::string path = dir + "/" + profileFileName(device);
    if (isFile(path)) candidates.push_back(path);
  }
  for (const std::string& path : candidates) {
    try {
      return readProfile(path, device.backend);
    } catch (const ProfileError& e) {
      note(std::string(e.what()) + "; ignored");
    }
  }
  if (!isGpuBackend(device.backend)) return builtinProfile(device.backend);
  // A GPU without a profile of its own: the nearest other GPU's fitted constants rank the
  // kernels far better than the built-in ones (docs/model.md, "Devices without a profile").
  std::optional<PerformanceProfile> nearest;
  double nearestDistance = 0;
  for (const std::string& dir : profileSearchPath()) {
    for (const std::string& path : backendProfileFiles(dir, device.backend)) {
      // The device's own file was read above, and refused if it is here: not again.
      if (std::find(candidates.begin(), candidates.end(), path) != candidates.end()) continue;
      try {
        PerformanceProfile p = readProfile(path, device.backend);
        const double distance = deviceDistance(device, p.device);
        if (!nearest || distance < nearestDistance) {
          nearest = std::move(p);
          nearestDistance = distance;
        }
      } catch (const ProfileError& e) {
        note(std::string(e.what()) + "; ignored");
      }
    }
  }
  if (!nearest) return builtinProfile(device.backend);
  nearest->standsInFor = device.name;
  note("no performance profile for " + device.name + " (" + device.backend + "); using the one of " +
       nearest->device.name + ", the nearest GPU with one (" + nearest->source +
       "); `araios calibrate` fits one for this device");
  return *nearest;
}

}  // namespace araios
