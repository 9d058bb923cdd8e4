#pragma once
// The cuSPARSE SpMV algorithms the benchmark measures, and their names in its output. No CUDA or
// Kokkos header: the kernel plan lists them in a source that compiles on the host alone.
#include <vector>

namespace araios::cuda {

enum class CusparseAlgorithm { CsrAlg1, CsrAlg2, CooAlg2, SellAlg1 };

inline const std::vector<CusparseAlgorithm>& allCusparseAlgorithms() {
  static const std::vector<CusparseAlgorithm> all = {CusparseAlgorithm::CsrAlg1, CusparseAlgorithm::CsrAlg2,
                                                     CusparseAlgorithm::CooAlg2, CusparseAlgorithm::SellAlg1};
  return all;
}

/// The benchmark's name for each algorithm.
inline const char* kernelName(CusparseAlgorithm a) {
  switch (a) {
    case CusparseAlgorithm::CsrAlg1: return "cusparse-csr-alg1";
    case CusparseAlgorithm::CsrAlg2: return "cusparse-csr-alg2";
    case CusparseAlgorithm::CooAlg2: return "cusparse-coo-alg2";
    case CusparseAlgorithm::SellAlg1: return "cusparse-sell-alg1";
  }
  return "cusparse-unknown";
}

inline const char* formatName(CusparseAlgorithm a) {
  switch (a) {
    case CusparseAlgorithm::CsrAlg1:
    case CusparseAlgorithm::CsrAlg2: return "csr";
    case CusparseAlgorithm::CooAlg2: return "coo";
    case CusparseAlgorithm::SellAlg1: return "sell";
  }
  return "unknown";
}

}  // namespace araios::cuda
