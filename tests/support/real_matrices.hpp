#pragma once
// The real matrices the reader accepts, each read once per test process. A file the reader
// refuses is allowed only for the one reason the collection documents (complex values);
// anything else fails the test.
#include "support/matrices.hpp"

#include <araios/error.hpp>
#include <araios/io/matrix_market.hpp>

#include <map>
#include <string>
#include <utility>
#include <vector>

namespace araios::test {

struct NamedMatrix {
  std::string name;
  io::HostMatrix matrix;
};

inline const std::vector<NamedMatrix>& realMatrices() {
  static const std::vector<NamedMatrix> matrices = [] {
    std::vector<NamedMatrix> out;
    for (const auto& path : realMatrixFiles()) {
      try {
        out.push_back({path.stem().stem().string(), io::readMatrixMarket(path.string())});
      } catch (const ParseError& e) {
        if (std::string(e.what()).find("complex") == std::string::npos) throw;
      }
    }
    return out;
  }();
  return matrices;
}

}  // namespace araios::test
