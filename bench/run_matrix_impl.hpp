#pragma once
// runMatrix: see run_matrix.hpp. For one matrix, backend and precision:
//   1. the matrix to CSR (int32 indices) on the backend, x (and y0 when beta != 0) from the seed,
//      and the long-double host reference (include/araios/reference_spmv.hpp);
//   2. for each planned kernel: build its format from the CSR (timed: convert_s), one product
//      into a NaN-filled y checked against the reference (tools/accuracy.hpp), then the timed
//      products (timing.hpp). A format that refuses the matrix (PaddingError) or the backend
//      (UnsupportedError) gives a row with `refused` set; any other failure a row with `error`
//      set; the run goes on either way.
// Effective bandwidth counts the bytes the format's arrays occupy (padding included), x read
// once, y written once, and y read once more when beta != 0: the least any kernel on that
// format must move, so a kernel that caches well cannot exceed the copy ceiling by reading x
// from cache many times.
#include "bench_options.hpp"
#include "kokkos_kernels_spmv.hpp"
#include "model_columns.hpp"
#include "openmp_csr_loop.hpp"
#include "run_matrix.hpp"
#include "timing.hpp"

#include <accuracy.hpp>
#include <araios/operator.hpp>
#include <araios/seeded_vector.hpp>

#include <araios/araios.hpp>
#include <araios/format_options.hpp>
#include <araios/model/compute_features.hpp>
#include <araios/detail/l2_window.hpp>
#include <araios/reference_spmv.hpp>

#ifdef KOKKOS_ENABLE_CUDA
#include "cuda/cusparse_spmv.hpp"
#endif

#include <fmt/core.h>

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

namespace araios::bench {
namespace detail {

template <class View, class Value>
View deviceCopy(const std::vector<Value>& host, const char* label) {
  View v(Kokkos::view_alloc(Kokkos::WithoutInitializing, std::string(label)), host.size());
  auto mirror = Kokkos::create_mirror_view(v);
  for (std::size_t i = 0; i < host.size(); ++i) mirror(i) = host[i];
  Kokkos::deep_copy(v, mirror);
  return v;
}

/// Everything one matrix's kernels share.
template <class ExecSpace, class Value>
struct Workspace {
  using Device = typename ExecSpace::device_type;
  using Csr = CsrMatrix<Value, std::int32_t, std::int32_t, Device>;
  using Vector = Kokkos::View<Value*, Device>;

  ExecSpace exec;
  const io::HostMatrix& host;
  const BenchOptions& options;
  double copyGbps;
  Csr csr;
  Vector x, y, y0;
  ReferenceSpmv reference;
  Value alpha, beta;

  /// Bytes of the vectors a product moves at least: x read, y written (and read if beta != 0).
  double vectorBytes() const {
    const double yPasses = beta == Value(0) ? 1.0 : 2.0;
    return sizeof(Value) * (static_cast<double>(host.numCols) + yPasses * static_cast<double>(host.numRows));
  }

  void resetY() const {
    if (beta == Value(0)) {
      // NaN: with beta = 0 the kernel must overwrite every entry, and one it skips shows.
      Kokkos::deep_copy(exec, y, std::numeric_limits<Value>::quiet_NaN());
    } else {
      Kokkos::deep_copy(exec, y, y0);
    }
    exec.fence();
  }

  /// The correctness check and the timing of `run` (one product, asynchronous), into `row`.
  template <class Run>
  void measure(ResultRow& row, std::int64_t formatBytes, Run&& run) const {
    resetY();
    run();
    exec.fence();
    const auto yHost = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), y);
    const cli::Accuracy accuracy = cli::measureAccuracy<Value>(reference, yHost);
    row.maxRelError = accuracy.maxRelError;
    row.withinErrorBound = accuracy.withinBound;
    row.yHash = hashBits(yHost);
    resetY();
    const Timing t = timeRepeated(exec, options.reps, run);
    const double bytes = static_cast<double>(formatBytes) + vectorBytes();
    row.timeSeconds = t.median;
    row.timeMinSeconds = t.min;
    row.timeMaxSeconds = t.max;
    row.bytes = static_cast<long long>(bytes);
    if (t.median > 0) {
      row.gflops = 2.0 * static_cast<double>(host.nnz()) / t.median * 1e-9;
      row.gbps = bytes / t.median * 1e-9;
      if (copyGbps > 0) row.fractionOfCopy = *row.gbps / copyGbps;
    }
  }
};

/// What --keep-x-in-l2 gave x on this device: the window, the share of it that persists and the
/// set-aside, or that the backend or device takes no such hint (the row then times the usual
/// product).
template <class ExecSpace>
std::string keepXInL2Note([[maybe_unused]] const ExecSpace& exec, [[maybe_unused]] std::size_t xBytes) {
  if constexpr (Impl::hasBackendKernel<Impl::L2PersistingWindow, ExecSpace>) {
    const Impl::L2WindowShape shape = Impl::BackendKernel<Impl::L2PersistingWindow, ExecSpace>::shapeFor(exec, xBytes);
    if (shape.bytes > 0) {
      return fmt::format("x in L2: window {} of {} bytes of x, hit ratio {:.3f}, persisting set-aside {} bytes",
                         shape.bytes, xBytes, shape.hitRatio, shape.setAsideBytes);
    }
  }
  return "x in L2: no persisting L2 on this device, so the usual product";
}

template <class ExecSpace, class Value>
void measureAraios(const Workspace<ExecSpace, Value>& w, const PlannedKernel& k, ResultRow& row) {
  OperatorOptions options;
  options.kernel = parseKernel(k.name);
  options.mode = parseMode(k.mode);
  options.keepXInL2 = k.keepXInL2;
  const SpmvOperator<Value, std::int32_t, std::int32_t, ExecSpace> op(w.exec, w.csr, options);
  row.convertSeconds = op.buildSeconds();
  row.footprintBytes = op.formatBytes();
  row.storedSlots = op.storedSlots();
  if (w.host.nnz() > 0) row.paddingRatio = static_cast<double>(op.storedSlots()) / static_cast<double>(w.host.nnz());
  const Value alpha = w.alpha, beta = w.beta;
  w.measure(row, op.formatBytes(), [&] { op.apply(w.exec, w.x, w.y, alpha, beta); });
  if (k.keepXInL2) row.note = keepXInL2Note(w.exec, w.x.span() * sizeof(Value));
  // What the operator chose for its products (csr-merge's plan, the row walk), so that a row
  // says which plan it timed.
  const std::string plan = op.plan();
  if (!plan.empty()) row.note = row.note.empty() ? plan : row.note + "; " + plan;
}

template <class ExecSpace, class Value>
void measureOpenMpLoop(const Workspace<ExecSpace, Value>& w, ResultRow& row) {
#ifdef _OPENMP
  if constexpr (std::is_same_v<typename ExecSpace::memory_space, Kokkos::HostSpace>) {
    // The backend's CSR lives in host memory already: the loop runs on the very same arrays.
    row.convertSeconds = 0.0;
    row.footprintBytes = w.csr.bytes();
    row.storedSlots = w.host.nnz();
    row.paddingRatio = 1.0;
    const auto& csr = w.csr;
    const std::int64_t rows = csr.numRows;
    const Value alpha = w.alpha, beta = w.beta;
    const Value* x = w.x.data();
    Value* y = w.y.data();
    w.measure(row, csr.bytes(), [&] {
      openmpCsrLoop(rows, csr.rowPtr.data(), csr.colIdx.data(), csr.values.data(), x, y, alpha, beta);
    });
    return;
  }
#endif
  (void)w;
  throw UnsupportedError("the OpenMP CSR loop runs on host backends of builds with OpenMP only");
}

template <class ExecSpace, class Value>
void measureKokkosKernels(const Workspace<ExecSpace, Value>& w, ResultRow& row) {
#if defined(ARAIOS_BENCH_HAVE_KOKKOS_KERNELS) && defined(KOKKOS_ENABLE_OPENMP)
  // Only OpenMP: the ETI of scripts/setup.sh --kokkos-kernels covers no other execution space,
  // and a baseline compiled here on the fly would not be the library as its users get it.
  if constexpr (std::is_same_v<ExecSpace, Kokkos::OpenMP>) {
    const KokkosKernelsSpmv<Value, typename ExecSpace::device_type> spmv(w.csr);
    row.convertSeconds = spmv.convertSeconds();
    row.footprintBytes = w.csr.bytes();
    row.storedSlots = w.host.nnz();
    row.paddingRatio = 1.0;
    const Value alpha = w.alpha, beta = w.beta;
    w.measure(row, w.csr.bytes(), [&] { spmv.run(w.x, w.y, alpha, beta); });
    return;
  }
#endif
  (void)w;
  (void)row;
  throw UnsupportedError("Kokkos Kernels' spmv runs on the openmp backend of builds that found Kokkos Kernels only");
}

#ifdef KOKKOS_ENABLE_CUDA
template <class Value>
void measureCusparse(const Workspace<Kokkos::Cuda, Value>& w, const cuda::CusparseHandle& handle,
                     const PlannedKernel& k, ResultRow& row) {
  std::optional<cuda::CusparseAlgorithm> algorithm;
  for (const auto a : cuda::allCusparseAlgorithms())
    if (k.name == cuda::kernelName(a)) algorithm = a;
  if (!algorithm) throw InputError("unknown cuSPARSE kernel '" + k.name + "'");
  cuda::CusparseSpmv<Value> spmv(handle, w.csr, *algorithm, w.x, w.y, w.alpha, w.beta);
  row.convertSeconds = spmv.convertSeconds();
  row.setupSeconds = spmv.setupSeconds();
  row.footprintBytes = spmv.bytes() + spmv.workspaceBytes();
  row.storedSlots = spmv.storedSlots();
  if (w.host.nnz() > 0) row.paddingRatio = static_cast<double>(spmv.storedSlots()) / static_cast<double>(w.host.nnz());
  if (!spmv.preprocessed()) row.note = "cusparseSpMV_preprocess: not supported for this algorithm";
  w.measure(row, spmv.bytes(), [&] { spmv.run(); });
}
#endif

/// "kernel" for the baselines, "kernel/mode" for the Araios kernels ("kernel/mode+L2x" with x
/// kept in L2).
inline std::string kernelLabel(const ResultRow& row) {
  if (row.library != "araios") return row.kernel;
  return row.kernel + "/" + row.mode + (row.keepXInL2.value_or(false) ? "+L2x" : "");
}

/// One line per measurement on stdout: the numbers a person watching the run wants.
inline void echo(const ResultRow& row) {
  if (!row.refused.empty()) {
    fmt::print("  {:<24} {:<26} {:<6} refused: {}\n", row.matrix, kernelLabel(row), row.precision, row.refused.substr(0, 160));
  } else if (!row.error.empty()) {
    fmt::print("  {:<24} {:<26} {:<6} ERROR: {}\n", row.matrix, kernelLabel(row), row.precision, row.error);
  } else if (row.timeSeconds) {
    fmt::print("  {:<24} {:<26} {:<6} {:>10.2f} us {:>8.2f} GFLOP/s {:>8.2f} GB/s {:>5.2f} of copy  err {:.1e} {}\n",
               row.matrix, kernelLabel(row), row.precision, *row.timeSeconds * 1e6, row.gflops.value_or(0),
               row.gbps.value_or(0), row.fractionOfCopy.value_or(0), row.maxRelError.value_or(0),
               row.withinErrorBound.value_or(false) ? "ok" : "OUTSIDE BOUND");
  }
  std::fflush(stdout);
}

}  // namespace detail

template <class ExecSpace, class Value>
void runMatrix(const ExecSpace& exec, const MatrixCase& matrix, const BackendInfo& backend, RunContext& ctx) {
  using W = detail::Workspace<ExecSpace, Value>;
  const io::HostMatrix& host = matrix.host;
  const BenchOptions& o = ctx.options;
  const double weight = itemWeight(matrix.source.estimatedNnz);

  ResultRow base;
  base.matrix = matrix.source.name;
  base.source = matrix.source.source;
  base.matrixClass = matrix.source.matrixClass;
  base.rows = host.numRows;
  base.cols = host.numCols;
  base.nnz = host.nnz();
  base.backend = backend.backend;
  base.device = backend.device;
  if (backend.threads > 0) base.threads = backend.threads;
  base.precision = typeName<Value>();
  base.alpha = o.alpha;
  base.beta = o.beta;
  base.reps = o.reps;
  base.warmups = kWarmups;
  base.copyGbps = backend.copyGbps;
  base.commit = ctx.commit;
  base.date = ctx.date;

  const auto rowFor = [&](const PlannedKernel& k) {
    ResultRow row = base;
    row.kernel = k.name;
    row.format = k.format;
    row.library = k.library;
    row.mode = k.mode;
    if (k.library == "araios") row.keepXInL2 = k.keepXInL2;
    return row;
  };

  constexpr std::int64_t kInt32Max = std::numeric_limits<std::int32_t>::max();
  if (host.numRows > kInt32Max || host.numCols > kInt32Max || host.nnz() > kInt32Max) {
    for (const auto& k : backend.plan) {
      ctx.progress.begin(matrix.source.name, k.name, base.precision, weight);
      ResultRow row = rowFor(k);
      row.refused = "the benchmark builds every format with int32 indices, and this matrix needs int64";
      ctx.sink.write(row);
      detail::echo(row);
    }
    return;
  }

  W w{exec, host, o, backend.copyGbps, {}, {}, {}, {}, {}, static_cast<Value>(o.alpha), static_cast<Value>(o.beta)};
  w.csr = csrFromHost<typename W::Csr>(host);
  const std::vector<Value> xHost = araios::seededVector<Value>(host.numCols, o.vectorSeed, 1);
  const std::vector<Value> y0Host =
      w.beta == Value(0) ? std::vector<Value>{} : araios::seededVector<Value>(host.numRows, o.vectorSeed, 2);
  w.x = detail::deviceCopy<typename W::Vector>(xHost, "araios::bench::x");
  w.y = typename W::Vector(Kokkos::view_alloc(Kokkos::WithoutInitializing, "araios::bench::y"), host.numRows);
  if (w.beta != Value(0)) w.y0 = detail::deviceCopy<typename W::Vector>(y0Host, "araios::bench::y0");
  w.reference = referenceSpmv<Value>(host, xHost, w.alpha, w.beta, y0Host);
  // --model: the features once per matrix and precision, on the device as Kernel::Auto
  // computes them; predictions and auto's choice come from them row by row.
  std::optional<MatrixModel> model;
  if (backend.profile) {
    model.emplace(backend.profile, computeFeatures(exec, w.csr),
                  ElementSizes{static_cast<int>(sizeof(Value)), static_cast<int>(sizeof(std::int32_t)),
                               static_cast<int>(sizeof(std::int32_t))});
  }

#ifdef KOKKOS_ENABLE_CUDA
  std::unique_ptr<cuda::CusparseHandle> cusparse;
#endif
  for (const auto& k : backend.plan) {
    ctx.progress.begin(matrix.source.name, k.name + " " + k.mode + (k.keepXInL2 ? " +L2x" : ""), base.precision, weight);
    ResultRow row = rowFor(k);
    if (model && k.library == "araios") model->fill(row);
    try {
      if (k.library == "araios") {
        detail::measureAraios(w, k, row);
      } else if (k.library == "openmp-loop") {
        detail::measureOpenMpLoop(w, row);
      } else if (k.library == "kokkos-kernels") {
        detail::measureKokkosKernels(w, row);
      } else if (k.library == "cusparse") {
#ifdef KOKKOS_ENABLE_CUDA
        if constexpr (std::is_same_v<ExecSpace, Kokkos::Cuda>) {
          if (!cusparse) cusparse = std::make_unique<cuda::CusparseHandle>(exec.cuda_stream());
          detail::measureCusparse(w, *cusparse, k, row);
        } else {
          throw UnsupportedError("cuSPARSE runs on the cuda backend only");
        }
#else
        throw UnsupportedError("cuSPARSE needs a build with Kokkos CUDA");
#endif
      } else {
        throw InputError("unknown library '" + k.library + "'");
      }
    } catch (const PaddingError& e) {
      row.refused = e.what();
    } catch (const UnsupportedError& e) {
      row.refused = e.what();
    } catch (const std::exception& e) {
      row.error = e.what();
      // A failed kernel may leave an error pending on the device; let the next one start clean.
      try {
        exec.fence();
      } catch (...) {
      }
    }
    ctx.sink.write(row);
    detail::echo(row);
  }
}

}  // namespace araios::bench
