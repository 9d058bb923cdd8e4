#pragma once
// Timing every kernel of the registry on one calibration matrix, on the device: the matrix is
// copied into a CSR of the device, its features computed there (as Kernel::Auto computes
// them), then for each kernel its operator is built (the build timed by the operator, fenced)
// and its product timed in each mode.
#include "generated_matrix.hpp"
#include "matrix_timings.hpp"

#include <araios/araios.hpp>
#include <araios/seeded_vector.hpp>

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <functional>
#include <limits>
#include <vector>

namespace araios::cli::calibration {

/// How long each product is timed: a warm-up, then products one at a time (each fenced, as a
/// caller that waits for its result sees it) until there are at least `minProducts` and they
/// took `minSeconds` together, or `maxProducts` were run; the median is kept, which ignores the
/// odd product an interrupt stretched.
struct TimingRule {
  int minProducts = 5;
  int maxProducts = 5000;
  double minSeconds = 0.02;
};

namespace detail {

template <class View, class Source>
View deviceView(const std::vector<Source>& host, const char* label) {
  View v(Kokkos::view_alloc(Kokkos::WithoutInitializing, std::string(label)), host.size());
  auto mirror = Kokkos::create_mirror_view(v);
  for (std::size_t i = 0; i < host.size(); ++i) mirror(i) = static_cast<typename View::value_type>(host[i]);
  Kokkos::deep_copy(v, mirror);
  return v;
}

template <class ExecSpace, class Apply>
double medianSeconds(const ExecSpace& exec, const TimingRule& rule, Apply&& apply) {
  apply();  // warm-up: the first product touches the pages and loads the kernel
  exec.fence();
  std::vector<double> times;
  double total = 0;
  Kokkos::Timer timer;
  while (static_cast<int>(times.size()) < rule.maxProducts &&
         (static_cast<int>(times.size()) < rule.minProducts || total < rule.minSeconds)) {
    timer.reset();
    apply();
    exec.fence();
    times.push_back(timer.seconds());
    total += times.back();
  }
  std::nth_element(times.begin(), times.begin() + times.size() / 2, times.end());
  return times[times.size() / 2];
}

}  // namespace detail

/// Times every kernel on `matrix` with values of type Value and 32-bit indices. `onKernel` is
/// called before each kernel (the progress display). A format that refuses the matrix
/// (PaddingError, OutOfMemoryError, UnsupportedError) is recorded with the reason; any other
/// error is thrown again with the matrix and kernel in its message.
template <class Value, class ExecSpace>
MatrixTimings measureMatrix(const ExecSpace& exec, const GeneratedMatrix& matrix, const TimingRule& rule,
                            const std::function<void(const KernelEntry&)>& onKernel) {
  using Device = typename ExecSpace::device_type;
  using Csr = CsrMatrix<Value, std::int32_t, std::int32_t, Device>;
  using Vector = Kokkos::View<Value*, Device>;
  Csr csr;
  csr.numRows = static_cast<std::int32_t>(matrix.rows);
  csr.numCols = static_cast<std::int32_t>(matrix.cols);
  csr.rowPtr = detail::deviceView<decltype(csr.rowPtr)>(matrix.rowPtr, "araios::calibrate::rowPtr");
  csr.colIdx = detail::deviceView<decltype(csr.colIdx)>(matrix.colIdx, "araios::calibrate::colIdx");
  csr.values = detail::deviceView<decltype(csr.values)>(matrix.values, "araios::calibrate::values");
  const Vector x = detail::deviceView<Vector>(seededVector<Value>(matrix.cols, 42, 1), "araios::calibrate::x");
  const Vector y(Kokkos::view_alloc(Kokkos::WithoutInitializing, "araios::calibrate::y"), matrix.rows);

  MatrixTimings result;
  result.name = matrix.name;
  result.features = computeFeatures(exec, csr);
  for (const KernelEntry& entry : kernelRegistry()) {
    onKernel(entry);
    KernelTimings t;
    t.kernel = entry.kernel;
    OperatorOptions options;
    options.kernel = entry.kernel;
    try {
      const SpmvOperator<Value, std::int32_t, std::int32_t, ExecSpace> op(exec, csr, options);
      t.buildSeconds = op.buildSeconds();
      for (std::size_t m = 0; m < kModeCount; ++m) {
        const Mode mode = static_cast<Mode>(m);
        t.productSeconds[m] = detail::medianSeconds(exec, rule, [&] { op.apply(exec, x, y, Value(1), Value(0), mode); });
      }
    } catch (const PaddingError& e) {
      t.refused = e.what();
    } catch (const OutOfMemoryError& e) {
      t.refused = e.what();
    } catch (const UnsupportedError& e) {
      t.refused = e.what();
    } catch (const Error& e) {
      // Anything else is a failure of the kernel, not a refusal: stop, saying where.
      throw Error("calibration matrix " + matrix.name + ", kernel " + std::string(entry.name) + ": " + e.what());
    }
    result.kernels.push_back(t);
  }
  return result;
}

}  // namespace araios::cli::calibration
