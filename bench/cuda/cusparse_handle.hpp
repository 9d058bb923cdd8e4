#pragma once
// The cuSPARSE library handle and status check that the benchmark's cuSPARSE baselines share
// (SpMV: cusparse_spmv.hpp, SpGEMM: cusparse_spgemm.hpp). Only for builds with Kokkos CUDA.
#include <araios/error.hpp>

#include <cuda_runtime.h>
#include <cusparse.h>

#include <string>

namespace araios::cuda {

/// Throws araios::RuntimeError naming the call and cuSPARSE's message when `status` is an error.
inline void checkCusparse(cusparseStatus_t status, const char* call) {
  if (status != CUSPARSE_STATUS_SUCCESS) {
    throw RuntimeError(std::string(call) + " failed: " + cusparseGetErrorName(status) + ": " +
                       cusparseGetErrorString(status));
  }
}

/// A cuSPARSE library handle bound to one stream. Creating one costs milliseconds, so one
/// handle serves every product of a run.
class CusparseHandle {
 public:
  explicit CusparseHandle(cudaStream_t stream) {
    checkCusparse(cusparseCreate(&handle_), "cusparseCreate");
    const cusparseStatus_t status = cusparseSetStream(handle_, stream);
    if (status != CUSPARSE_STATUS_SUCCESS) {
      cusparseDestroy(handle_);
      checkCusparse(status, "cusparseSetStream");
    }
  }
  ~CusparseHandle() { cusparseDestroy(handle_); }
  CusparseHandle(const CusparseHandle&) = delete;
  CusparseHandle& operator=(const CusparseHandle&) = delete;
  cusparseHandle_t get() const { return handle_; }

 private:
  cusparseHandle_t handle_ = nullptr;
};

}  // namespace araios::cuda
