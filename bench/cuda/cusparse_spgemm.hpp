#pragma once
// cuSPARSE's SpGEMM, C = A*B in CSR through its generic API, as the GPU baseline of the
// benchmark's SpGEMM suite (araios-bench --spgemm). Not part of the library: only the benchmark
// includes it, and only builds with Kokkos CUDA link cuSPARSE.
//
// One CusparseSpgemm object is one product run from scratch, the way an application without
// structure reuse calls it, in three timed phases:
//   work estimation  descriptors; cusparseSpGEMM_workEstimation (size query, then with buffer 1);
//                    for ALG2 and ALG3 also cusparseSpGEMM_getNumProducts and
//                    cusparseSpGEMM_estimateMemory (size query, then with buffer 3, which gives
//                    the size of buffer 2; buffer 3 is freed right after, as NVIDIA's example
//                    does);
//   compute          cusparseSpGEMM_compute: ALG1 asks for buffer 2's size first, ALG2 and ALG3
//                    take the size estimateMemory gave; C's structure and values go to buffer 2;
//   copy             nnz(C) from cusparseSpMatGetSize, C's column and value arrays allocated,
//                    cusparseCsrSetPointers, cusparseSpGEMM_copy into them.
// Each phase ends with a stream synchronization before its host timer is read, and includes
// the allocations it makes (the Araios handle's phases include theirs). Buffers and C are
// Kokkos Views in CudaSpace, so AllocationTracker sees them too; peakBytes() is the most the
// product held at once of C's row offsets, buffers 1, 2 and 3 and C's arrays, which stay
// allocated until the object goes (buffers 1 and 2 hold what the later phases read).
//
// Every cuSPARSE call is checked; a failure (CUSPARSE_STATUS_INSUFFICIENT_RESOURCES on a product
// too large for ALG1, for instance) throws araios::RuntimeError naming the call and the status,
// which the benchmark records as a failed row.
#include "cuda/cusparse_handle.hpp"
#include "cuda/cusparse_spgemm_algorithms.hpp"

#include <araios/backends/cuda/check_cuda.hpp>
#include <araios/error.hpp>
#include <araios/formats/csr/csr.hpp>

#include <Kokkos_Core.hpp>
#include <cusparse.h>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <string>
#include <type_traits>

namespace araios::cuda {

/// ALG3 computes the intermediate products in chunks of this fraction of them: the value of
/// NVIDIA's own example of the memory-saving algorithms (CUDALibrarySamples, cuSPARSE/spgemm_mem).
/// Smaller chunks hold less memory and take longer. ALG2 ignores it (one chunk).
constexpr float kAlg3ChunkFraction = 0.2f;

/// Seconds of each phase of one product (see the file comment).
struct CusparseSpgemmTimes {
  double workEstimation = 0;
  double compute = 0;
  double copy = 0;
  double total() const { return workEstimation + compute + copy; }
};

template <class Value>
class CusparseSpgemm {
  static_assert(std::is_same_v<Value, float> || std::is_same_v<Value, double>, "cuSPARSE baseline: float or double");

 public:
  using Device = Kokkos::Device<Kokkos::Cuda, Kokkos::CudaSpace>;
  using Csr = CsrMatrix<Value, std::int32_t, std::int32_t, Device>;

  CusparseSpgemm(const CusparseHandle& handle, cudaStream_t stream, CusparseSpgemmAlgorithm algorithm)
      : handle_(handle.get()), stream_(stream), algorithm_(algorithm) {}
  ~CusparseSpgemm() { destroyDescriptors(); }
  CusparseSpgemm(const CusparseSpgemm&) = delete;
  CusparseSpgemm& operator=(const CusparseSpgemm&) = delete;

  /// Computes C = A*B (A's columns must be B's rows, columns sorted within rows); call once.
  CusparseSpgemmTimes run(const Csr& A, const Csr& B) {
    CusparseSpgemmTimes times;
    Kokkos::Timer timer;
    estimateWork(A, B);
    synchronize();
    times.workEstimation = timer.seconds();
    timer.reset();
    compute();
    synchronize();
    times.compute = timer.seconds();
    timer.reset();
    copy();
    synchronize();
    times.copy = timer.seconds();
    return times;
  }

  /// C, after run(); its columns come sorted within each row.
  const Csr& result() const { return c_; }
  /// The most device bytes the product held at once: C's arrays and buffers 1, 2 and 3.
  std::int64_t peakBytes() const { return peak_; }
  /// Intermediate products as cusparseSpGEMM_getNumProducts counts them (ALG2, ALG3); -1 for
  /// ALG1, which has no such query.
  std::int64_t products() const { return products_; }

 private:
  using Buffer = Kokkos::View<unsigned char*, Device>;

  static cudaDataType valueType() { return std::is_same_v<Value, double> ? CUDA_R_64F : CUDA_R_32F; }

  cusparseSpGEMMAlg_t cusparseAlgorithm() const {
    switch (algorithm_) {
      case CusparseSpgemmAlgorithm::Alg1: return CUSPARSE_SPGEMM_ALG1;
      case CusparseSpgemmAlgorithm::Alg2: return CUSPARSE_SPGEMM_ALG2;
      case CusparseSpgemmAlgorithm::Alg3: return CUSPARSE_SPGEMM_ALG3;
    }
    return CUSPARSE_SPGEMM_DEFAULT;
  }
  bool estimatesMemory() const { return algorithm_ != CusparseSpgemmAlgorithm::Alg1; }

  void synchronize() const { checkCuda(cudaStreamSynchronize(stream_), "cudaStreamSynchronize"); }

  /// A buffer of `bytes` (at least one: a null pointer would turn the call into a size query).
  Buffer allocate(std::size_t bytes, const char* label) {
    Buffer b(Kokkos::view_alloc(Kokkos::WithoutInitializing, std::string(label)), std::max<std::size_t>(bytes, 1));
    held(static_cast<std::int64_t>(b.extent(0)));
    return b;
  }
  void held(std::int64_t bytes) {
    live_ += bytes;
    peak_ = std::max(peak_, live_);
  }

  void createCsr(cusparseSpMatDescr_t* descr, const Csr& m, const char* what) {
    checkCusparse(cusparseCreateCsr(descr, m.numRows, m.numCols, m.nnz(), m.rowPtr.data(), m.colIdx.data(),
                                    m.values.data(), CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO,
                                    valueType()),
                  what);
  }

  void estimateWork(const Csr& A, const Csr& B) {
    if (A.numCols != B.numRows) {
      throw InputError("cuSPARSE SpGEMM: A has " + std::to_string(A.numCols) + " columns and B " +
                       std::to_string(B.numRows) + " rows; expected them equal");
    }
    rows_ = A.numRows;
    cols_ = B.numCols;
    rowPtrC_ = Kokkos::View<std::int32_t*, Device>(
        Kokkos::view_alloc(Kokkos::WithoutInitializing, "araios::cusparse::spgemm::rowPtrC"), rows_ + 1);
    held(static_cast<std::int64_t>(rowPtrC_.extent(0) * sizeof(std::int32_t)));
    createCsr(&matA_, A, "cusparseCreateCsr (A)");
    createCsr(&matB_, B, "cusparseCreateCsr (B)");
    checkCusparse(cusparseCreateCsr(&matC_, rows_, cols_, 0, rowPtrC_.data(), nullptr, nullptr, CUSPARSE_INDEX_32I,
                                    CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO, valueType()),
                  "cusparseCreateCsr (C)");
    checkCusparse(cusparseSpGEMM_createDescr(&spgemm_), "cusparseSpGEMM_createDescr");

    std::size_t size1 = 0;
    checkCusparse(cusparseSpGEMM_workEstimation(handle_, kOp, kOp, &alpha_, matA_, matB_, &beta_, matC_, valueType(),
                                                cusparseAlgorithm(), spgemm_, &size1, nullptr),
                  "cusparseSpGEMM_workEstimation (size query)");
    buffer1_ = allocate(size1, "araios::cusparse::spgemm::buffer1");
    checkCusparse(cusparseSpGEMM_workEstimation(handle_, kOp, kOp, &alpha_, matA_, matB_, &beta_, matC_, valueType(),
                                                cusparseAlgorithm(), spgemm_, &size1, buffer1_.data()),
                  "cusparseSpGEMM_workEstimation");
    if (!estimatesMemory()) return;
    std::int64_t products = 0;
    checkCusparse(cusparseSpGEMM_getNumProducts(spgemm_, &products), "cusparseSpGEMM_getNumProducts");
    products_ = products;
    const float chunk = algorithm_ == CusparseSpgemmAlgorithm::Alg3 ? kAlg3ChunkFraction : 1.0f;
    std::size_t size3 = 0;
    checkCusparse(cusparseSpGEMM_estimateMemory(handle_, kOp, kOp, &alpha_, matA_, matB_, &beta_, matC_, valueType(),
                                                cusparseAlgorithm(), spgemm_, chunk, &size3, nullptr, nullptr),
                  "cusparseSpGEMM_estimateMemory (size query)");
    {
      Buffer buffer3 = allocate(size3, "araios::cusparse::spgemm::buffer3");
      checkCusparse(cusparseSpGEMM_estimateMemory(handle_, kOp, kOp, &alpha_, matA_, matB_, &beta_, matC_,
                                                  valueType(), cusparseAlgorithm(), spgemm_, chunk, &size3,
                                                  buffer3.data(), &size2_),
                    "cusparseSpGEMM_estimateMemory");
      // Freed once the call has finished with it.
      synchronize();
      held(-static_cast<std::int64_t>(buffer3.extent(0)));
    }
  }

  void compute() {
    if (!estimatesMemory()) {
      checkCusparse(cusparseSpGEMM_compute(handle_, kOp, kOp, &alpha_, matA_, matB_, &beta_, matC_, valueType(),
                                           cusparseAlgorithm(), spgemm_, &size2_, nullptr),
                    "cusparseSpGEMM_compute (size query)");
    }
    buffer2_ = allocate(size2_, "araios::cusparse::spgemm::buffer2");
    checkCusparse(cusparseSpGEMM_compute(handle_, kOp, kOp, &alpha_, matA_, matB_, &beta_, matC_, valueType(),
                                         cusparseAlgorithm(), spgemm_, &size2_, buffer2_.data()),
                  "cusparseSpGEMM_compute");
  }

  void copy() {
    std::int64_t rows = 0, cols = 0, nnz = 0;
    checkCusparse(cusparseSpMatGetSize(matC_, &rows, &cols, &nnz), "cusparseSpMatGetSize (C)");
    if (nnz > std::numeric_limits<std::int32_t>::max()) {
      throw UnsupportedError("cuSPARSE SpGEMM: C has " + std::to_string(nnz) +
                             " entries, more than the 32-bit indices of the benchmark's CSR hold");
    }
    Kokkos::View<std::int32_t*, Device> colIdx(
        Kokkos::view_alloc(Kokkos::WithoutInitializing, "araios::cusparse::spgemm::colIdxC"), nnz);
    Kokkos::View<Value*, Device> values(
        Kokkos::view_alloc(Kokkos::WithoutInitializing, "araios::cusparse::spgemm::valuesC"), nnz);
    held(nnz * static_cast<std::int64_t>(sizeof(std::int32_t) + sizeof(Value)));
    checkCusparse(cusparseCsrSetPointers(matC_, rowPtrC_.data(), colIdx.data(), values.data()),
                  "cusparseCsrSetPointers (C)");
    checkCusparse(cusparseSpGEMM_copy(handle_, kOp, kOp, &alpha_, matA_, matB_, &beta_, matC_, valueType(),
                                      cusparseAlgorithm(), spgemm_),
                  "cusparseSpGEMM_copy");
    c_ = Csr{static_cast<std::int32_t>(rows_), static_cast<std::int32_t>(cols_), rowPtrC_, colIdx, values};
  }

  void destroyDescriptors() {
    // Teardown must not throw: a failure here would only leak a descriptor.
    if (spgemm_) cusparseSpGEMM_destroyDescr(spgemm_);
    if (matA_) cusparseDestroySpMat(matA_);
    if (matB_) cusparseDestroySpMat(matB_);
    if (matC_) cusparseDestroySpMat(matC_);
    spgemm_ = nullptr;
    matA_ = matB_ = matC_ = nullptr;
  }

  static constexpr cusparseOperation_t kOp = CUSPARSE_OPERATION_NON_TRANSPOSE;

  cusparseHandle_t handle_;
  cudaStream_t stream_;
  CusparseSpgemmAlgorithm algorithm_;
  Value alpha_ = 1, beta_ = 0;
  std::int64_t rows_ = 0, cols_ = 0;
  cusparseSpMatDescr_t matA_ = nullptr, matB_ = nullptr, matC_ = nullptr;
  cusparseSpGEMMDescr_t spgemm_ = nullptr;
  Kokkos::View<std::int32_t*, Device> rowPtrC_;
  Buffer buffer1_, buffer2_;
  std::size_t size2_ = 0;
  Csr c_;
  std::int64_t live_ = 0, peak_ = 0, products_ = -1;
};

}  // namespace araios::cuda
