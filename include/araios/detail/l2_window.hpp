#pragma once
// SpmvOptions::keepXInL2 and OperatorOptions::keepXInL2: ask the device's last-level cache to
// keep x resident while one product runs. The gathers of x are the product's only reuse (every
// matrix entry is read once), and on a power-law or random matrix the matrix arrays streaming
// past evict x between its uses.
//
// The portable side does nothing. A device backend whose cache takes residency hints
// specialises BackendKernel<L2PersistingWindow, ItsExecSpace> (detail/backend_kernel.hpp) with
//   static L2WindowShape shapeFor(const ExecSpace&, std::size_t bytes);
//       the window it would give `bytes` of x (bytes 0: none on this device)
//   class Window {                 // the hint, held for one product
//     Window(const ExecSpace&, const void* base, std::size_t bytes);   // sets it
//     void close();                // removes it, checked; the destructor removes it unchecked
//   };                             // when an exception left the product first
// For CUDA: backends/cuda/l2_window_cuda.hpp. withXInL2 is the one place the entry layer
// (araios::spmv and SpmvOperator::apply) puts it around a product, whatever the format.
#include <araios/detail/backend_kernel.hpp>

#include <cstddef>
#include <type_traits>
#include <utility>

namespace araios::Impl {

/// BackendKernel tag: see above.
struct L2PersistingWindow {};

/// The window a backend gives x: what the benchmark reports beside its timings.
struct L2WindowShape {
  std::size_t bytes = 0;          ///< bytes of x under the hint (0: no hint on this device)
  std::size_t setAsideBytes = 0;  ///< the cache set aside for persisting lines
  float hitRatio = 0;             ///< the share of the window's lines that persist
};

/// product(), with x kept in the last-level cache while it runs when `keep` is set and the
/// backend can (x in the execution space's own memory, not empty). The hint is removed when
/// product() returns or throws.
template <class ExecSpace, class XView, class Product>
void withXInL2(const ExecSpace& exec, const XView& x, bool keep, Product&& product) {
  if constexpr (hasBackendKernel<L2PersistingWindow, ExecSpace> &&
                std::is_same_v<typename XView::memory_space, typename ExecSpace::memory_space>) {
    if (keep && x.span() > 0) {
      typename BackendKernel<L2PersistingWindow, ExecSpace>::Window window(
          exec, x.data(), x.span() * sizeof(typename XView::value_type));
      std::forward<Product>(product)();
      window.close();
      return;
    }
  } else {
    (void)exec, (void)x, (void)keep;
  }
  std::forward<Product>(product)();
}

}  // namespace araios::Impl
