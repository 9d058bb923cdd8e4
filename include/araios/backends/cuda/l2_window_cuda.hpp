#pragma once
// SpmvOptions::keepXInL2 on CUDA (detail/l2_window.hpp's L2PersistingWindow): an access-policy
// window over x on the execution space instance's stream for the kernels of one product, its
// hits persisting in the L2 set-aside and its misses streaming. Every call is checked.
//
// The set-aside (cudaLimitPersistingL2CacheSize) is a device-wide setting. Araios changes it
// only when it is 0, the driver's default, and then raises it to the device's maximum
// (cudaDevAttrMaxPersistingL2CacheSize) for the rest of the process: persisting lines have
// priority in that part of L2, and other accesses use what they leave free. A set-aside the
// application chose (anything but 0) is used as it is. Where the device has no set-aside to give
// (compute capability below 8.0; a MIG instance; an MPS client, which cannot change it) the
// product runs without the window.
//
// The window is a stream attribute, read when a kernel is launched: the kernels the product
// queues keep it after close() has put the stream's previous attribute back, and kernels queued
// later do not get it. The persisting lines of x are not reset after the product:
// cudaCtxResetPersistingL2Cache acts when it is called, not in stream order, so called after an
// asynchronous product it would race with the product's own kernels, and it clears every
// persisting line of the context, an application's own included. The lines of x stay persisting
// until later persisting accesses evict them or the application resets them.
#include <araios/backends/cuda/check_cuda.hpp>
#include <araios/detail/backend_kernel.hpp>
#include <araios/detail/l2_window.hpp>

#include <Kokkos_Core.hpp>
#include <cuda_runtime.h>

#include <algorithm>
#include <cstddef>

namespace araios::Impl {

template <>
struct BackendKernel<L2PersistingWindow, Kokkos::Cuda> {
  static constexpr bool specialised = true;

  /// The window `bytes` of x get on the device of `exec`: at most the device's largest window,
  /// with as many of its lines persisting as the set-aside holds. Raises the set-aside from 0
  /// to the device's maximum (see above); bytes 0 where the device has none to give.
  static L2WindowShape shapeFor(const Kokkos::Cuda& exec, std::size_t bytes) {
    L2WindowShape shape;
    int maxWindow = 0, maxSetAside = 0;
    cuda::checkCuda(cudaDeviceGetAttribute(&maxWindow, cudaDevAttrMaxAccessPolicyWindowSize, exec.cuda_device()),
                    "cudaDeviceGetAttribute(cudaDevAttrMaxAccessPolicyWindowSize)");
    cuda::checkCuda(cudaDeviceGetAttribute(&maxSetAside, cudaDevAttrMaxPersistingL2CacheSize, exec.cuda_device()),
                    "cudaDeviceGetAttribute(cudaDevAttrMaxPersistingL2CacheSize)");
    if (maxWindow <= 0 || maxSetAside <= 0 || bytes == 0) return shape;
    std::size_t setAside = 0;
    cuda::checkCuda(cudaDeviceGetLimit(&setAside, cudaLimitPersistingL2CacheSize),
                    "cudaDeviceGetLimit(cudaLimitPersistingL2CacheSize)");
    if (setAside == 0) {
      const cudaError_t status = cudaDeviceSetLimit(cudaLimitPersistingL2CacheSize, static_cast<std::size_t>(maxSetAside));
      if (status == cudaErrorUnsupportedLimit || status == cudaErrorNotSupported) {
        (void)cudaGetLastError();  // an answer, not a failure: leave no error behind for the next check
        return shape;
      }
      cuda::checkCuda(status, "cudaDeviceSetLimit(cudaLimitPersistingL2CacheSize)");
      // The limit is a hint the driver may clamp: read back what it kept.
      cuda::checkCuda(cudaDeviceGetLimit(&setAside, cudaLimitPersistingL2CacheSize),
                      "cudaDeviceGetLimit(cudaLimitPersistingL2CacheSize)");
      if (setAside == 0) return shape;
    }
    shape.bytes = std::min(bytes, static_cast<std::size_t>(maxWindow));
    shape.setAsideBytes = setAside;
    shape.hitRatio = static_cast<float>(std::min(1.0, static_cast<double>(setAside) / static_cast<double>(shape.bytes)));
    return shape;
  }

  class Window {
   public:
    Window(const Kokkos::Cuda& exec, const void* base, std::size_t bytes) : stream_(exec.cuda_stream()) {
      const L2WindowShape shape = shapeFor(exec, bytes);
      if (shape.bytes == 0) return;
      cudaStreamAttrValue window{};
      window.accessPolicyWindow.base_ptr = const_cast<void*>(base);
      window.accessPolicyWindow.num_bytes = shape.bytes;
      window.accessPolicyWindow.hitRatio = shape.hitRatio;
      window.accessPolicyWindow.hitProp = cudaAccessPropertyPersisting;
      window.accessPolicyWindow.missProp = cudaAccessPropertyStreaming;
      cuda::checkCuda(cudaStreamGetAttribute(stream_, cudaStreamAttributeAccessPolicyWindow, &previous_),
                      "cudaStreamGetAttribute(cudaStreamAttributeAccessPolicyWindow)");
      cuda::checkCuda(cudaStreamSetAttribute(stream_, cudaStreamAttributeAccessPolicyWindow, &window),
                      "cudaStreamSetAttribute(cudaStreamAttributeAccessPolicyWindow)");
      set_ = true;
    }
    Window(const Window&) = delete;
    Window& operator=(const Window&) = delete;

    /// Puts the stream's previous window back (none, unless the application had set one).
    void close() {
      if (!set_) return;
      set_ = false;
      cuda::checkCuda(cudaStreamSetAttribute(stream_, cudaStreamAttributeAccessPolicyWindow, &previous_),
                      "cudaStreamSetAttribute(cudaStreamAttributeAccessPolicyWindow) restoring the stream's window");
    }

    /// Reached with the window still set only when the product threw: restore it, and let the
    /// product's exception, not a second one, leave.
    ~Window() {
      if (set_ && cudaStreamSetAttribute(stream_, cudaStreamAttributeAccessPolicyWindow, &previous_) != cudaSuccess) {
        (void)cudaGetLastError();
      }
    }

   private:
    cudaStream_t stream_;
    cudaStreamAttrValue previous_{};
    bool set_ = false;
  };
};

}  // namespace araios::Impl
