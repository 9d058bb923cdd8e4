#pragma once
// Where the tests find real matrices: the ARAIOS_MATRICES_DIR environment variable if set,
// else the folder configured at build time (../shared/matrices beside the checkout).
// A missing folder is an error, never a silent skip.
#include "test_paths.hpp"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <vector>

namespace araios::test {

inline std::filesystem::path matricesDir() {
  const char* env = std::getenv("ARAIOS_MATRICES_DIR");
  std::filesystem::path dir = (env && *env) ? env : ARAIOS_TEST_MATRICES_DIR;
  if (!std::filesystem::is_directory(dir)) {
    throw std::runtime_error("test matrices folder '" + dir.string() +
                             "' does not exist; set ARAIOS_MATRICES_DIR to the folder of .mtx.gz files");
  }
  return dir;
}

/// The real matrices (every *.mtx.gz directly in the folder), sorted by name.
inline std::vector<std::filesystem::path> realMatrixFiles() {
  std::vector<std::filesystem::path> files;
  for (const auto& entry : std::filesystem::directory_iterator(matricesDir())) {
    const std::string name = entry.path().filename().string();
    if (entry.is_regular_file() && name.size() > 7 && name.substr(name.size() - 7) == ".mtx.gz") {
      files.push_back(entry.path());
    }
  }
  std::sort(files.begin(), files.end());
  if (files.empty()) throw std::runtime_error("no .mtx.gz files in " + matricesDir().string());
  return files;
}

}  // namespace araios::test
