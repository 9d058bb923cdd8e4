#pragma once
// A fresh folder under the system temporary folder for a test's files, removed with everything
// in it at the end, and the names a folder holds (to check that nothing was left behind).
#include <boost/test/unit_test.hpp>

#include <stdlib.h>

#include <filesystem>
#include <set>
#include <string>
#include <system_error>

namespace araios::test {

class TemporaryDirectory {
 public:
  /// A folder named `prefix` followed by six random characters (mkdtemp: never one that exists).
  explicit TemporaryDirectory(const std::string& prefix = "araios_test_") {
    std::string pattern = (std::filesystem::temp_directory_path() / (prefix + "XXXXXX")).string();
    BOOST_TEST_REQUIRE(::mkdtemp(pattern.data()) != nullptr);
    path_ = pattern;
  }
  ~TemporaryDirectory() {
    std::error_code ignored;
    std::filesystem::remove_all(path_, ignored);
  }
  TemporaryDirectory(const TemporaryDirectory&) = delete;
  TemporaryDirectory& operator=(const TemporaryDirectory&) = delete;

  const std::filesystem::path& path() const { return path_; }
  /// The path of `name` inside the folder.
  std::string file(const std::string& name) const { return (path_ / name).string(); }

 private:
  std::filesystem::path path_;
};

/// The names of the entries of `dir`.
inline std::set<std::string> fileNamesIn(const std::filesystem::path& dir) {
  std::set<std::string> names;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) names.insert(entry.path().filename().string());
  return names;
}

}  // namespace araios::test
