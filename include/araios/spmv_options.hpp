#pragma once
// The options of one product (algorithm, mode, portable-only), apart from the dispatch so that
// code which only names kernels (the registry, the command line's option parsing) does not
// pull in Kokkos.
#include <araios/mode.hpp>

namespace araios {

/// Which kernel computes the product. Auto lets the format choose its default.
enum class SpmvAlgorithm {
  Auto,
  CsrScalar,  ///< CSR, one thread per row.
  CsrVector,  ///< CSR, a group of vector lanes per row with a lane reduction.
  CsrMerge,   ///< CSR, equal work per thread along the merge path of row ends and entries.
  BrcpAtomic, ///< BRCP as published: rows that span blocks are completed with atomic adds.
};

struct SpmvOptions {
  SpmvAlgorithm algorithm = SpmvAlgorithm::Auto;
  /// Fast, Deterministic (the default: the same bits on every backend) or Accurate
  /// (correctly rounded). See araios/mode.hpp.
  Mode mode = Mode::Deterministic;
  /// Run the portable Kokkos kernel even where a backend has a hand-tuned specialisation
  /// (backends/). The tests use it to check each specialisation against the portable kernel.
  bool portableOnly = false;
};

inline const char* toString(SpmvAlgorithm algorithm) {
  switch (algorithm) {
    case SpmvAlgorithm::Auto: return "auto";
    case SpmvAlgorithm::CsrScalar: return "csr-scalar";
    case SpmvAlgorithm::CsrVector: return "csr-vector";
    case SpmvAlgorithm::CsrMerge: return "csr-merge";
    case SpmvAlgorithm::BrcpAtomic: return "brcp-atomic";
  }
  return "unknown";
}

}  // namespace araios
