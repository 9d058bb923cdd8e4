#pragma once
// The options of one product (algorithm, mode, portable-only), apart from the dispatch so that
// code which only names kernels (the registry, the command line's option parsing) does not
// pull in Kokkos.
#include <araios/mode.hpp>

namespace araios {

/// Which kernel computes the product. Auto lets the format choose its default; CSR's
/// (formats/csr/csr_default.hpp) depends on the matrix alone in Deterministic mode.
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
  /// Ask the device to keep x in its last-level cache while the product runs, the matrix's
  /// arrays streaming past it: on CUDA an L2 access-policy window over x on the execution
  /// space instance's stream (backends/cuda/l2_window_cuda.hpp, which says what it does to the
  /// device's persisting-L2 set-aside); nothing on the host backends. The same bits either way.
  /// Off by default: it is measured per matrix (araios-bench --keep-x-in-l2); where x fits L2
  /// anyway it gains nothing (H100: 0.99 to 1.10 times the time without it).
  bool keepXInL2 = false;
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
