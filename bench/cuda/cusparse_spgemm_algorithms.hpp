#pragma once
// The cuSPARSE SpGEMM algorithms the benchmark measures, and their names in its output. No CUDA
// or Kokkos header: the SpGEMM plan lists them in a source that compiles on the host alone.
#include <vector>

namespace araios::cuda {

/// cusparseSpGEMMAlg_t's CUSPARSE_SPGEMM_ALG1 (the default), _ALG2 and _ALG3.
enum class CusparseSpgemmAlgorithm { Alg1, Alg2, Alg3 };

inline const std::vector<CusparseSpgemmAlgorithm>& allCusparseSpgemmAlgorithms() {
  static const std::vector<CusparseSpgemmAlgorithm> all = {CusparseSpgemmAlgorithm::Alg1, CusparseSpgemmAlgorithm::Alg2,
                                                           CusparseSpgemmAlgorithm::Alg3};
  return all;
}

/// The benchmark's name for each algorithm (the `implementation` column).
inline const char* implementationName(CusparseSpgemmAlgorithm a) {
  switch (a) {
    case CusparseSpgemmAlgorithm::Alg1: return "cusparse-alg1";
    case CusparseSpgemmAlgorithm::Alg2: return "cusparse-alg2";
    case CusparseSpgemmAlgorithm::Alg3: return "cusparse-alg3";
  }
  return "cusparse-unknown";
}

}  // namespace araios::cuda
