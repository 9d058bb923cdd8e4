#pragma once
// The matrices of a run: the real ones (every .mtx / .mtx.gz directly in the matrices folder,
// by name) followed by the generated ones of the chosen suite (generators/catalog.hpp), kept
// as recipes until their turn comes, so that only one matrix is in memory at a time.
#include "bench_options.hpp"

#include <araios/io/matrix_market.hpp>

#include <functional>
#include <string>
#include <vector>

namespace araios::bench {

struct MatrixSource {
  std::string name;
  std::string source;       ///< "real" or "generated"
  std::string matrixClass;  ///< stencil, fem-like, graph, power-law, random, other
  double estimatedNnz = 0;  ///< for the ETA, before the matrix exists
  std::string origin;       ///< the file, or the generator and its parameters
  std::function<io::HostMatrix()> load;
};

std::vector<MatrixSource> buildSuite(const BenchOptions& options);

/// The real matrices alone (every .mtx / .mtx.gz directly in the matrices folder, by name,
/// filtered by --matrix): the first part of buildSuite, and the real part of the SpGEMM suite.
std::vector<MatrixSource> realMatrixSources(const BenchOptions& options);

/// The class of a real matrix, from the kinds the collection's README gives it; "other"
/// for matrices it does not classify.
std::string realMatrixClass(const std::string& name);

}  // namespace araios::bench
