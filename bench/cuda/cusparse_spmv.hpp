#pragma once
// cuSPARSE's SpMV through its generic API, as the GPU baseline the benchmark measures Araios
// against. Not part of the library: only the benchmark includes it, and only builds with Kokkos
// CUDA link cuSPARSE (CUDA::cusparse).
//
// One CusparseSpmv object is one (matrix, algorithm, x, y, alpha, beta) product, set up
// completely in the constructor: the format arrays, the descriptors, the workspace
// (cusparseSpMV_bufferSize) and cusparseSpMV_preprocess. run() then only enqueues
// cusparseSpMV, so a timer around run() measures the product alone, as cuSPARSE's own
// documentation recommends for repeated products with one matrix.
//
// Algorithms (cusparseSpMVAlg_t), the ones the issue names:
//   CsrAlg1  CUSPARSE_SPMV_CSR_ALG1  CSR, the default; may be non-deterministic
//   CsrAlg2  CUSPARSE_SPMV_CSR_ALG2  CSR, deterministic (same bits every run)
//   CooAlg2  CUSPARSE_SPMV_COO_ALG2  COO, deterministic
//   SellAlg1 CUSPARSE_SPMV_SELL_ALG1 sliced ELLPACK
// The SELL arrays are built here from the CSR: slices of kSellSliceSize rows, each as wide as its
// longest row, stored column-major within the slice (slot t of the slice's row j at
// sliceOffset + t * sliceSize + j), padding slots holding column -1 and value 0, the last slice
// completed to a full slice (cuSPARSE's Sliced-ELL layout; rows are not reordered).
#include "cuda/cuda_event_timer.hpp"
#include "cuda/cusparse_algorithms.hpp"
#include "cuda/cusparse_handle.hpp"

#include <araios/detail/compress.hpp>
#include <araios/error.hpp>
#include <araios/types.hpp>
#include <araios/formats/csr/csr.hpp>

#include <Kokkos_Core.hpp>
#include <cusparse.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

namespace araios::cuda {

/// Rows per slice of the SELL baseline: one warp, the slice size cuSPARSE's documentation uses.
constexpr std::int64_t kSellSliceSize = 32;

template <class Value>
class CusparseSpmv {
  static_assert(std::is_same_v<Value, float> || std::is_same_v<Value, double>, "cuSPARSE baseline: float or double");

 public:
  using Device = Kokkos::Device<Kokkos::Cuda, Kokkos::CudaSpace>;
  using Csr = CsrMatrix<Value, std::int32_t, std::int32_t, Device>;
  using Vector = Kokkos::View<Value*, Device>;

  CusparseSpmv(const CusparseHandle& handle, const Csr& csr, CusparseAlgorithm algorithm, const Vector& x,
               const Vector& y, Value alpha, Value beta)
      : handle_(handle.get()), algorithm_(algorithm), alpha_(alpha), beta_(beta), x_(x), y_(y) {
    Kokkos::Timer timer;
    buildFormat(csr);
    Kokkos::fence();
    convertSeconds_ = timer.seconds();
    timer.reset();
    try {
      createDescriptors(csr);
      size_t workspace = 0;
      checkCusparse(cusparseSpMV_bufferSize(handle_, CUSPARSE_OPERATION_NON_TRANSPOSE, &alpha_, matrix_, xDescr_, &beta_,
                                            yDescr_, valueType(), cusparseAlgorithm(), &workspace),
                    "cusparseSpMV_bufferSize");
      workspace_ = Kokkos::View<unsigned char*, Device>(
          Kokkos::view_alloc(Kokkos::WithoutInitializing, "araios::cusparse::workspace"), workspace);
      // Preprocessing is optional for cuSPARSE; an algorithm that has none may answer "not
      // supported", which only means run() works on the unprocessed matrix.
      const cusparseStatus_t pre = cusparseSpMV_preprocess(handle_, CUSPARSE_OPERATION_NON_TRANSPOSE, &alpha_, matrix_,
                                                           xDescr_, &beta_, yDescr_, valueType(), cusparseAlgorithm(),
                                                           workspaceData());
      preprocessed_ = pre == CUSPARSE_STATUS_SUCCESS;
      if (pre != CUSPARSE_STATUS_NOT_SUPPORTED) checkCusparse(pre, "cusparseSpMV_preprocess");
      checkCuda(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
    } catch (...) {
      destroyDescriptors();
      throw;
    }
    setupSeconds_ = timer.seconds();
  }

  ~CusparseSpmv() { destroyDescriptors(); }
  CusparseSpmv(const CusparseSpmv&) = delete;
  CusparseSpmv& operator=(const CusparseSpmv&) = delete;

  /// Enqueues y = alpha*A*x + beta*y on the handle's stream; returns without waiting.
  void run() {
    checkCusparse(cusparseSpMV(handle_, CUSPARSE_OPERATION_NON_TRANSPOSE, &alpha_, matrix_, xDescr_, &beta_, yDescr_,
                               valueType(), cusparseAlgorithm(), workspaceData()),
                  "cusparseSpMV");
  }

  /// Bytes of the format's arrays (padding included), without the workspace.
  std::int64_t bytes() const { return bytes_; }
  std::int64_t workspaceBytes() const { return static_cast<std::int64_t>(workspace_.extent(0)); }
  /// Stored slots, padding included: nnz except for SELL.
  std::int64_t storedSlots() const { return storedSlots_; }
  /// Building the format's arrays from CSR (the COO row indices, the SELL slices).
  double convertSeconds() const { return convertSeconds_; }
  /// Descriptors, workspace query and allocation, cusparseSpMV_preprocess.
  double setupSeconds() const { return setupSeconds_; }
  /// Whether cusparseSpMV_preprocess ran (false where it answered "not supported").
  bool preprocessed() const { return preprocessed_; }

 private:
  static cudaDataType valueType() { return std::is_same_v<Value, double> ? CUDA_R_64F : CUDA_R_32F; }

  cusparseSpMVAlg_t cusparseAlgorithm() const {
    switch (algorithm_) {
      case CusparseAlgorithm::CsrAlg1: return CUSPARSE_SPMV_CSR_ALG1;
      case CusparseAlgorithm::CsrAlg2: return CUSPARSE_SPMV_CSR_ALG2;
      case CusparseAlgorithm::CooAlg2: return CUSPARSE_SPMV_COO_ALG2;
      case CusparseAlgorithm::SellAlg1: return CUSPARSE_SPMV_SELL_ALG1;
    }
    return CUSPARSE_SPMV_ALG_DEFAULT;
  }

  void* workspaceData() const { return workspace_.extent(0) > 0 ? workspace_.data() : nullptr; }

  void buildFormat(const Csr& csr) {
    const std::int64_t nnz = csr.nnz();
    rowPtr_ = csr.rowPtr;
    colIdx_ = csr.colIdx;
    values_ = csr.values;
    storedSlots_ = nnz;
    switch (algorithm_) {
      case CusparseAlgorithm::CsrAlg1:
      case CusparseAlgorithm::CsrAlg2:
        bytes_ = csr.bytes();
        break;
      case CusparseAlgorithm::CooAlg2:
        rowIdx_ = Impl::expand<std::int32_t>(Kokkos::Cuda(), csr.rowPtr, nnz, "araios::cusparse::cooRows");
        bytes_ = nnz * static_cast<std::int64_t>(2 * sizeof(std::int32_t) + sizeof(Value));
        break;
      case CusparseAlgorithm::SellAlg1:
        buildSell(csr);
        break;
    }
  }

  /// The sliced-ELL arrays, planned and filled on the host in O(slots).
  void buildSell(const Csr& csr) {
    const auto ptr = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), csr.rowPtr);
    const auto col = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), csr.colIdx);
    const auto val = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), csr.values);
    const std::int64_t rows = csr.numRows;
    const std::int64_t slices = (rows + kSellSliceSize - 1) / kSellSliceSize;
    std::vector<std::int64_t> offset(static_cast<std::size_t>(slices + 1), 0);
    for (std::int64_t s = 0; s < slices; ++s) {
      std::int64_t width = 0;
      for (std::int64_t r = s * kSellSliceSize; r < std::min(rows, (s + 1) * kSellSliceSize); ++r)
        width = std::max<std::int64_t>(width, ptr(r + 1) - ptr(r));
      offset[s + 1] = offset[s] + width * kSellSliceSize;
    }
    storedSlots_ = offset[slices];
    const std::int32_t slots32 = checkedNarrow<std::int32_t>(storedSlots_, "cuSPARSE SELL slots");
    sliceOffsets_ = Kokkos::View<std::int32_t*, Device>("araios::cusparse::sellSliceOffsets", slices + 1);
    sellCols_ = Kokkos::View<std::int32_t*, Device>(Kokkos::view_alloc(Kokkos::WithoutInitializing, "araios::cusparse::sellCols"), slots32);
    sellValues_ = Kokkos::View<Value*, Device>(Kokkos::view_alloc(Kokkos::WithoutInitializing, "araios::cusparse::sellValues"), slots32);
    auto hostOffsets = Kokkos::create_mirror_view(sliceOffsets_);
    auto hostCols = Kokkos::create_mirror_view(sellCols_);
    auto hostValues = Kokkos::create_mirror_view(sellValues_);
    for (std::int64_t s = 0; s <= slices; ++s) hostOffsets(s) = static_cast<std::int32_t>(offset[s]);
    for (std::int64_t s = 0; s < slices; ++s) {
      const std::int64_t width = (offset[s + 1] - offset[s]) / kSellSliceSize;
      for (std::int64_t j = 0; j < kSellSliceSize; ++j) {
        const std::int64_t r = s * kSellSliceSize + j;
        const std::int64_t begin = r < rows ? ptr(r) : 0, length = r < rows ? ptr(r + 1) - ptr(r) : 0;
        for (std::int64_t t = 0; t < width; ++t) {
          const std::int64_t slot = offset[s] + t * kSellSliceSize + j;
          hostCols(slot) = t < length ? col(begin + t) : -1;
          hostValues(slot) = t < length ? val(begin + t) : Value(0);
        }
      }
    }
    Kokkos::deep_copy(sliceOffsets_, hostOffsets);
    Kokkos::deep_copy(sellCols_, hostCols);
    Kokkos::deep_copy(sellValues_, hostValues);
    bytes_ = static_cast<std::int64_t>(slices + 1) * static_cast<std::int64_t>(sizeof(std::int32_t)) +
             storedSlots_ * static_cast<std::int64_t>(sizeof(std::int32_t) + sizeof(Value));
  }

  void createDescriptors(const Csr& csr) {
    const std::int64_t rows = csr.numRows, cols = csr.numCols, nnz = csr.nnz();
    switch (algorithm_) {
      case CusparseAlgorithm::CsrAlg1:
      case CusparseAlgorithm::CsrAlg2:
        checkCusparse(cusparseCreateCsr(&matrix_, rows, cols, nnz, rowPtr_.data(), colIdx_.data(), values_.data(),
                                        CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO, valueType()),
                      "cusparseCreateCsr");
        break;
      case CusparseAlgorithm::CooAlg2:
        checkCusparse(cusparseCreateCoo(&matrix_, rows, cols, nnz, rowIdx_.data(), colIdx_.data(), values_.data(),
                                        CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO, valueType()),
                      "cusparseCreateCoo");
        break;
      case CusparseAlgorithm::SellAlg1:
        checkCusparse(cusparseCreateSlicedEll(&matrix_, rows, cols, nnz, storedSlots_, kSellSliceSize, sliceOffsets_.data(),
                                              sellCols_.data(), sellValues_.data(), CUSPARSE_INDEX_32I,
                                              CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO, valueType()),
                      "cusparseCreateSlicedEll");
        break;
    }
    checkCusparse(cusparseCreateDnVec(&xDescr_, static_cast<std::int64_t>(x_.extent(0)), x_.data(), valueType()),
                  "cusparseCreateDnVec");
    checkCusparse(cusparseCreateDnVec(&yDescr_, static_cast<std::int64_t>(y_.extent(0)), y_.data(), valueType()),
                  "cusparseCreateDnVec");
  }

  void destroyDescriptors() {
    // Teardown must not throw: a failure here would only leak a descriptor.
    if (matrix_) cusparseDestroySpMat(matrix_);
    if (xDescr_) cusparseDestroyDnVec(xDescr_);
    if (yDescr_) cusparseDestroyDnVec(yDescr_);
    matrix_ = nullptr;
    xDescr_ = yDescr_ = nullptr;
  }

  cusparseHandle_t handle_;
  CusparseAlgorithm algorithm_;
  Value alpha_, beta_;
  Vector x_, y_;
  Kokkos::View<std::int32_t*, Device> rowPtr_, colIdx_, rowIdx_, sliceOffsets_, sellCols_;
  Kokkos::View<Value*, Device> values_, sellValues_;
  Kokkos::View<unsigned char*, Device> workspace_;
  cusparseSpMatDescr_t matrix_ = nullptr;
  cusparseDnVecDescr_t xDescr_ = nullptr, yDescr_ = nullptr;
  std::int64_t bytes_ = 0, storedSlots_ = 0;
  double convertSeconds_ = 0, setupSeconds_ = 0;
  bool preprocessed_ = false;
};

}  // namespace araios::cuda
