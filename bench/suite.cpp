#include "suite.hpp"

#include "generators/catalog.hpp"
#include "generators/drawn_catalog.hpp"

#include <araios/error.hpp>

#include <algorithm>
#include <filesystem>
#include <map>

namespace araios::bench {

std::string realMatrixClass(const std::string& name) {
  // ../shared/matrices/README.md, column "kind": a = power-law/web/social graph (ct2010 and
  // vt2010 are graphs but not power-law), b = FEM/structural. The rest (systems for Jacobi and
  // GMRES, odd Matrix Market variants) has no bandwidth target of its own.
  static const std::map<std::string, std::string> classes = {
      {"NotreDame_www", "power-law"}, {"USAir97", "power-law"}, {"Erdos971", "power-law"},
      {"ct2010", "graph"},            {"vt2010", "graph"},      {"Andrews", "fem-like"},
      {"bcsstk13", "fem-like"},       {"nos5", "fem-like"},
  };
  const auto it = classes.find(name);
  return it == classes.end() ? "other" : it->second;
}

namespace {

std::string stemOf(const std::filesystem::path& p) {
  std::string name = p.filename().string();
  for (const char* ext : {".gz", ".mtx"})
    if (name.size() > std::char_traits<char>::length(ext) &&
        name.compare(name.size() - std::char_traits<char>::length(ext), std::string::npos, ext) == 0)
      name.resize(name.size() - std::char_traits<char>::length(ext));
  return name;
}

bool isMatrixFile(const std::filesystem::path& p) {
  const std::string name = p.filename().string();
  const auto endsWith = [&](const std::string& s) {
    return name.size() > s.size() && name.compare(name.size() - s.size(), s.size(), s) == 0;
  };
  return endsWith(".mtx") || endsWith(".mtx.gz");
}

}  // namespace

std::vector<MatrixSource> realMatrixSources(const BenchOptions& options) {
  std::vector<MatrixSource> suite;
  if (options.matricesDir != "none") {
    namespace fs = std::filesystem;
    if (options.matricesDir.empty() || !fs::is_directory(options.matricesDir)) {
      throw InputError("matrices folder '" + options.matricesDir +
                       "' does not exist; expected --matrices DIR (or ARAIOS_MATRICES_DIR) to name the folder of "
                       "real .mtx.gz files, or --matrices none to run the generated matrices only");
    }
    std::vector<fs::path> files;
    for (const auto& entry : fs::directory_iterator(options.matricesDir))
      if (entry.is_regular_file() && isMatrixFile(entry.path())) files.push_back(entry.path());
    std::sort(files.begin(), files.end());
    for (const auto& path : files) {
      MatrixSource m;
      m.name = stemOf(path);
      if (!matchesAny(m.name, options.matrices)) continue;
      m.source = "real";
      m.matrixClass = realMatrixClass(m.name);
      // About 3 bytes of gzip per stored entry for these files; only the ETA uses it.
      constexpr double kGzipBytesPerEntry = 3.0;
      m.estimatedNnz = static_cast<double>(fs::file_size(path)) / kGzipBytesPerEntry;
      m.origin = path.string();
      const std::string file = path.string();
      m.load = [file] { return io::readMatrixMarket(file); };
      suite.push_back(std::move(m));
    }
  }
  return suite;
}

std::vector<MatrixSource> buildSuite(const BenchOptions& options) {
  std::vector<MatrixSource> suite = realMatrixSources(options);
  const auto catalog = options.suite == "quick"    ? gen::quickCatalog()
                       : options.suite == "unseen" ? gen::unseenCatalog()
                       : options.suite == "drawn"  ? gen::drawnCatalog(options.seed)
                                                   : gen::fullCatalog();
  for (const auto& e : catalog) {
    if (!matchesAny(e.name, options.matrices)) continue;
    MatrixSource m;
    m.name = e.name;
    m.source = "generated";
    m.matrixClass = e.matrixClass;
    m.estimatedNnz = static_cast<double>(e.expectedNnz);
    m.origin = e.family + ": " + e.model;
    const std::uint64_t seed = gen::seedFromName(e.name.c_str(), options.seed);
    const auto make = e.make;
    m.load = [make, seed] { return make(seed); };
    suite.push_back(std::move(m));
  }
  return suite;
}

}  // namespace araios::bench
