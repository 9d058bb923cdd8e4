#pragma once
// runSpgemmProduct: see spgemm_run.hpp. For one product, backend and precision:
//   1. A as CSR with int32 indices on the backend (as the SpMV suite builds it), and B: A itself
//      for A*A, araios::transposeCsr(A) for A*A^T;
//   2. for each implementation of the plan, one untimed run, then `reps` timed runs, each from
//      scratch (a new handle, new buffers, a new C):
//        Araios          symbolic_s: constructing the SpgemmHandle (the symbolic phase); numeric_s:
//                        its first numeric(); reuse_numeric_s: a second numeric() on the same
//                        handle (new values, same patterns: here the same values);
//        cuSPARSE        work_estimation_s, compute_s, copy_s (cuda/cusparse_spgemm.hpp);
//        Kokkos Kernels  symbolic_s: spgemm_symbolic and C's allocation; numeric_s:
//                        spgemm_numeric; reuse_numeric_s: spgemm_numeric again on the handle.
//      time_s is the median over the timed runs of one product from scratch (symbolic +
//      numeric, or the three cuSPARSE phases), each phase its own median. Host timers around
//      each phase, the execution space fenced at its end: phases take milliseconds to seconds,
//      and include host work (allocations, reading nnz(C)) that CUDA events would not show.
//   3. the untimed run's C is copied to the host, hashed (araios::hashCsr), and checked against
//      the host reference of tools/spgemm_check.hpp (a long-double Gustavson product sharing no
//      code with the library): C's pattern must be the structural product, every value within
//      the rounding-error bound of its sum (a C whose hash an earlier implementation's C of the
//      same product had is not checked again). Its reuse result is compared bit for bit with it
//      (reuse_same_bits), and the first timed run's C too (same_bits: two runs, the same bits).
//      The untimed run also measures the memory: the implementation's own account (Araios:
//      SpgemmStats::peakBytes; cuSPARSE: its buffers and C) and the peak of the Kokkos
//      allocations it made (tracked_peak_bytes, AllocationTracker; Kokkos Kernels has no other).
// An implementation that throws (cuSPARSE out of resources, Araios refusing a product too large
// for memory) gives a row with status "failed" and the message; the run goes on.
#include "kokkos_kernels_spgemm.hpp"
#include "spgemm/allocation_tracker.hpp"
#include "spgemm/spgemm_row.hpp"
#include "spgemm/spgemm_run.hpp"
#include "timing.hpp"

#include <spgemm_check.hpp>

#include <araios/error.hpp>
#include <araios/formats/coo/coo_convert.hpp>
#include <araios/formats/csr/csr.hpp>
#include <araios/formats/csr/csr_transpose.hpp>
#include <araios/hash.hpp>
#include <araios/spgemm.hpp>
#include <araios/types.hpp>

#ifdef KOKKOS_ENABLE_CUDA
#include "cuda/cusparse_spgemm.hpp"
#endif

#include <fmt/core.h>

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace araios::bench {
namespace spgemm_detail {

/// A product's C copied to the host: its own arrays, whatever memory C lives in (on a host
/// backend a mirror would share C's arrays, which the next numeric phase overwrites).
template <class Value>
struct HostProduct {
  std::int64_t numRows = 0, numCols = 0;
  Kokkos::View<std::int32_t*, Kokkos::HostSpace> rowPtr, colIdx;
  Kokkos::View<Value*, Kokkos::HostSpace> values;
  std::int64_t nnz() const { return static_cast<std::int64_t>(values.extent(0)); }
  std::int64_t bytes() const {
    return static_cast<std::int64_t>(rowPtr.extent(0) * sizeof(std::int32_t) +
                                     colIdx.extent(0) * sizeof(std::int32_t) + values.extent(0) * sizeof(Value));
  }
};

template <class Value, class Csr>
HostProduct<Value> copyToHost(const Csr& c) {
  HostProduct<Value> p;
  p.numRows = c.numRows;
  p.numCols = c.numCols;
  using Ints = Kokkos::View<std::int32_t*, Kokkos::HostSpace>;
  const auto uninitialized = [](const char* label) {
    return Kokkos::view_alloc(Kokkos::WithoutInitializing, std::string(label));
  };
  p.rowPtr = Ints(uninitialized("araios::bench::C::rowPtr"), c.rowPtr.extent(0));
  p.colIdx = Ints(uninitialized("araios::bench::C::colIdx"), c.colIdx.extent(0));
  p.values = Kokkos::View<Value*, Kokkos::HostSpace>(uninitialized("araios::bench::C::values"), c.values.extent(0));
  const auto rowPtr = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), c.rowPtr);
  const auto colIdx = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), c.colIdx);
  const auto values = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), c.values);
  std::copy_n(rowPtr.data(), rowPtr.extent(0), p.rowPtr.data());
  std::copy_n(colIdx.data(), colIdx.extent(0), p.colIdx.data());
  std::copy_n(values.data(), values.extent(0), p.values.data());
  return p;
}

template <class T>
bool sameBytes(const Kokkos::View<T*, Kokkos::HostSpace>& x, const Kokkos::View<T*, Kokkos::HostSpace>& y) {
  return x.extent(0) == y.extent(0) &&
         (x.extent(0) == 0 || std::memcmp(x.data(), y.data(), x.extent(0) * sizeof(T)) == 0);
}

/// Bit for bit: shape, row offsets, columns (in their stored order) and values.
template <class Value>
bool sameBits(const HostProduct<Value>& x, const HostProduct<Value>& y) {
  return x.numRows == y.numRows && x.numCols == y.numCols && sameBytes(x.rowPtr, y.rowPtr) &&
         sameBytes(x.colIdx, y.colIdx) && sameBytes(x.values, y.values);
}

/// Seconds of each phase of one run; the ones an implementation does not have stay empty.
struct RunTimes {
  std::optional<double> symbolic, numeric, reuse, workEstimation, compute, copy;
  double total = 0;  ///< one product from scratch: symbolic + numeric, or the cuSPARSE phases
};

/// What a run hands back beside its times: copies of C (only when asked, and outside the timed
/// phases, with the allocation tracker paused) and what the implementation says of itself.
template <class Value>
struct RunRecord {
  bool wantResult = false;  ///< copy C after the first numeric phase
  bool wantReuse = false;   ///< copy C after the reuse numeric phase
  std::optional<HostProduct<Value>> result, reuse;
  std::optional<std::int64_t> peakBytes, products, chunks;

  template <class Csr>
  void takeResult(const Csr& c) {
    if (!wantResult) return;
    AllocationTracker::Pause pause;
    result = copyToHost<Value>(c);
  }
  template <class Csr>
  void takeReuse(const Csr& c) {
    if (!wantReuse) return;
    AllocationTracker::Pause pause;
    reuse = copyToHost<Value>(c);
  }
};

/// What the host reference said of one C.
struct CheckOutcome {
  double maxRelError = 0;
  bool withinBound = false;
  std::string status, error;
};

/// The checks of one product's results, by C's hash: implementations that give the same bits
/// (deterministic algorithms often do) are checked once. The check costs seconds for the large
/// products, more than the products themselves on a GPU.
using CheckCache = std::map<std::string, CheckOutcome>;

template <class Value>
CheckOutcome checkProduct(const SpgemmCase& product, const HostProduct<Value>& c) {
  const cli::SpgemmCheck check = cli::checkSpgemm(product.a, product.b, hostFromCsr(c), std::is_same_v<Value, float>);
  CheckOutcome out;
  out.maxRelError = check.maxRelError;
  out.withinBound = check.patternMatches && check.withinBound;
  out.status = out.withinBound ? "ok" : "wrong";
  if (!check.patternMatches) {
    out.error = fmt::format("C's pattern is not the structural product: {} entries missing, {} extra (first in row {})",
                            check.missingEntries, check.extraEntries, check.firstPatternRow);
  } else if (!check.withinBound) {
    out.error = fmt::format("{} entries outside the rounding-error bound (first in row {})", check.entriesOutsideBound,
                            check.firstOutsideRow);
  }
  return out;
}

/// Steps 2 and 3 of the file comment, for one implementation whose run is `runOnce(record)`.
template <class Value, class ExecSpace, class RunOnce>
void measure(const ExecSpace& exec, const SpgemmCase& product, int reps, CheckCache& checks, SpgemmRow& row,
             RunOnce&& runOnce) {
  using MemorySpace = typename ExecSpace::memory_space;
  RunRecord<Value> first;
  first.wantResult = first.wantReuse = true;
  exec.fence();
  {
    AllocationTracker tracker(MemorySpace::name());
    runOnce(first);
    if (const auto peak = tracker.peakBytes()) row.trackedPeakBytes = *peak;
  }
  if (!first.result) throw RuntimeError("the implementation's run returned no result");
  const HostProduct<Value>& c = *first.result;
  row.nnzC = c.nnz();
  row.resultBytes = c.bytes();
  row.hash = hashCsr(c);
  if (first.reuse) row.reuseSameBits = sameBits(c, *first.reuse);
  first.reuse.reset();  // C's size again in host memory, no longer needed
  // Kokkos Kernels reports no peak of its own: the tracked one stands for it.
  if (first.peakBytes) {
    row.peakBytes = *first.peakBytes;
  } else {
    row.peakBytes = row.trackedPeakBytes;
  }
  if (first.chunks) row.chunks = *first.chunks;
  if (first.products && *first.products != product.products) {
    row.note = fmt::format("reports {} intermediate products; the patterns give {}", *first.products, product.products);
  }

  auto known = checks.find(row.hash);
  if (known == checks.end()) known = checks.emplace(row.hash, checkProduct(product, c)).first;
  const CheckOutcome& check = known->second;
  row.maxRelError = check.maxRelError;
  row.withinErrorBound = check.withinBound;
  row.status = check.status;
  row.error = check.error;

  std::vector<double> total, symbolic, numeric, reuse, workEstimation, compute, copy;
  for (int r = 0; r < reps; ++r) {
    RunRecord<Value> record;
    record.wantResult = r == 0;
    exec.fence();
    const RunTimes t = runOnce(record);
    if (r == 0) row.sameBits = record.result && sameBits(c, *record.result);
    total.push_back(t.total);
    const auto add = [](std::vector<double>& to, const std::optional<double>& v) {
      if (v) to.push_back(*v);
    };
    add(symbolic, t.symbolic);
    add(numeric, t.numeric);
    add(reuse, t.reuse);
    add(workEstimation, t.workEstimation);
    add(compute, t.compute);
    add(copy, t.copy);
  }
  const auto median = [](const std::vector<double>& v) -> std::optional<double> {
    if (v.empty()) return std::nullopt;
    return summarize(v).median;
  };
  const Timing t = summarize(total);
  row.timeSeconds = t.median;
  row.timeMinSeconds = t.min;
  row.timeMaxSeconds = t.max;
  row.symbolicSeconds = median(symbolic);
  row.numericSeconds = median(numeric);
  row.reuseNumericSeconds = median(reuse);
  row.workEstimationSeconds = median(workEstimation);
  row.computeSeconds = median(compute);
  row.copySeconds = median(copy);
  if (t.median > 0) row.gflops = 2.0 * static_cast<double>(product.products) / t.median * 1e-9;
}

template <class ExecSpace, class Value>
struct Operands {
  using Device = typename ExecSpace::device_type;
  using Csr = CsrMatrix<Value, std::int32_t, std::int32_t, Device>;
  Csr a, b;
};

template <class ExecSpace, class Value>
void measureAraios(const ExecSpace& exec, const Operands<ExecSpace, Value>& m, const SpgemmCase& product,
                   const SpgemmImplementation& impl, int reps, CheckCache& checks, SpgemmRow& row) {
  using Device = typename ExecSpace::device_type;
  SpgemmOptions options;
  options.mode = parseMode(impl.mode);
  measure<Value>(exec, product, reps, checks, row, [&](RunRecord<Value>& record) {
    RunTimes t;
    Kokkos::Timer timer;
    SpgemmHandle<Value, std::int32_t, std::int32_t, Device> handle(exec, m.a, m.b, options);
    exec.fence();
    t.symbolic = timer.seconds();
    timer.reset();
    handle.numeric(exec, m.a, m.b);
    exec.fence();
    t.numeric = timer.seconds();
    record.takeResult(handle.result());
    timer.reset();
    handle.numeric(exec, m.a, m.b);
    exec.fence();
    t.reuse = timer.seconds();
    record.takeReuse(handle.result());
    const SpgemmStats& stats = handle.stats();
    record.peakBytes = stats.peakBytes;
    record.products = stats.products;
    record.chunks = stats.chunks;
    t.total = *t.symbolic + *t.numeric;
    return t;
  });
}

template <class ExecSpace, class Value>
void measureKokkosKernels(const ExecSpace& exec, const Operands<ExecSpace, Value>& m, const SpgemmCase& product,
                          int reps, CheckCache& checks, SpgemmRow& row) {
#if defined(ARAIOS_BENCH_HAVE_KOKKOS_KERNELS) && defined(KOKKOS_ENABLE_OPENMP)
  // Only OpenMP: the ETI of scripts/setup.sh --kokkos-kernels covers no other execution space,
  // and a baseline compiled here on the fly would not be the library as its users get it.
  if constexpr (std::is_same_v<ExecSpace, Kokkos::OpenMP>) {
    measure<Value>(exec, product, reps, checks, row, [&](RunRecord<Value>& record) {
      RunTimes t;
      Kokkos::Timer timer;
      KokkosKernelsSpgemm<Value, ExecSpace> kk(m.a, m.b);
      t.symbolic = timer.seconds();
      timer.reset();
      kk.numeric(m.a, m.b);
      t.numeric = timer.seconds();
      record.takeResult(kk.result());
      timer.reset();
      kk.numeric(m.a, m.b);
      t.reuse = timer.seconds();
      record.takeReuse(kk.result());
      t.total = *t.symbolic + *t.numeric;
      return t;
    });
    return;
  }
#endif
  (void)exec;
  (void)m;
  (void)product;
  (void)reps;
  (void)checks;
  (void)row;
  throw UnsupportedError("Kokkos Kernels' SpGEMM runs on the openmp backend of builds that found Kokkos Kernels only");
}

#ifdef KOKKOS_ENABLE_CUDA
template <class Value>
void measureCusparse(const Kokkos::Cuda& exec, const cuda::CusparseHandle& handle,
                     const Operands<Kokkos::Cuda, Value>& m, const SpgemmCase& product,
                     const SpgemmImplementation& impl, int reps, CheckCache& checks, SpgemmRow& row) {
  std::optional<cuda::CusparseSpgemmAlgorithm> algorithm;
  for (const auto a : cuda::allCusparseSpgemmAlgorithms())
    if (impl.name == cuda::implementationName(a)) algorithm = a;
  if (!algorithm) throw InputError("unknown cuSPARSE SpGEMM implementation '" + impl.name + "'");
  measure<Value>(exec, product, reps, checks, row, [&](RunRecord<Value>& record) {
    cuda::CusparseSpgemm<Value> spgemm(handle, exec.cuda_stream(), *algorithm);
    const cuda::CusparseSpgemmTimes times = spgemm.run(m.a, m.b);
    RunTimes t;
    t.workEstimation = times.workEstimation;
    t.compute = times.compute;
    t.copy = times.copy;
    t.total = times.total();
    record.takeResult(spgemm.result());
    record.peakBytes = spgemm.peakBytes();
    if (spgemm.products() >= 0) record.products = spgemm.products();
    return t;
  });
}
#endif

inline std::string megabytes(const std::optional<long long>& bytes) {
  return bytes ? fmt::format("{:.1f} MB", static_cast<double>(*bytes) * 1e-6) : std::string("-");
}

/// One line per measurement on stdout.
inline void echo(const SpgemmRow& row) {
  if (row.status == "failed" || row.status == "refused") {
    fmt::print("  {:<24} {:<6} {:<22} {:<6} {}: {}\n", row.matrix, row.product, row.implementation, row.precision,
               row.status == "failed" ? "FAILED" : "refused", row.error);
  } else if (row.timeSeconds) {
    const auto flag = [](const std::optional<bool>& b) { return b ? (*b ? "yes" : "NO") : "-"; };
    fmt::print("  {:<24} {:<6} {:<22} {:<6} {:>10.3f} ms {:>7.2f} GFLOP/s  peak {:>10}  same bits {:<3} reuse {:<3} "
               "{}{}\n",
               row.matrix, row.product, row.implementation, row.precision, *row.timeSeconds * 1e3,
               row.gflops.value_or(0), megabytes(row.peakBytes), flag(row.sameBits), flag(row.reuseSameBits),
               row.status == "ok" ? "ok" : "WRONG: ", row.status == "ok" ? "" : row.error);
  }
  std::fflush(stdout);
}

}  // namespace spgemm_detail

template <class ExecSpace, class Value>
void runSpgemmProduct(const ExecSpace& exec, const SpgemmCase& product, const SpgemmBackend& backend,
                      SpgemmContext& ctx) {
  using Operands = spgemm_detail::Operands<ExecSpace, Value>;
  const io::HostMatrix& host = product.a;
  const double weight = spgemmItemWeight(static_cast<double>(product.products));

  SpgemmRow base;
  base.matrix = product.source.name;
  base.source = product.source.source;
  base.matrixClass = product.source.matrixClass;
  base.product = product.product;
  base.rows = host.numRows;
  base.cols = host.numCols;
  base.nnzA = host.nnz();
  base.nnzB = product.b.nnz();
  base.products = product.products;
  base.maxRowProducts = product.maxRowProducts;
  base.backend = backend.backend;
  base.device = backend.device;
  if (backend.threads > 0) base.threads = backend.threads;
  base.precision = typeName<Value>();
  base.reps = ctx.reps;
  base.warmups = 1;
  base.commit = ctx.commit;
  base.date = ctx.date;
  const auto rowFor = [&](const SpgemmImplementation& impl) {
    SpgemmRow row = base;
    row.implementation = impl.name;
    row.library = impl.library;
    row.mode = impl.mode;
    return row;
  };

  constexpr std::int64_t kInt32Max = std::numeric_limits<std::int32_t>::max();
  if (host.numRows > kInt32Max || host.numCols > kInt32Max || host.nnz() > kInt32Max) {
    for (const auto& impl : backend.plan) {
      ctx.progress.begin(product.source.name, impl.name, base.precision, weight);
      SpgemmRow row = rowFor(impl);
      row.status = "refused";
      row.error = "the benchmark builds CSR with int32 indices, and this matrix needs int64";
      writeRow(ctx.sink, row, false);
      spgemm_detail::echo(row);
    }
    return;
  }

  Operands m;
  m.a = csrFromHost<typename Operands::Csr>(host);
  m.b = product.product == "A*A^T" ? transposeCsr(exec, m.a) : m.a;
  exec.fence();

  spgemm_detail::CheckCache checks;
#ifdef KOKKOS_ENABLE_CUDA
  std::unique_ptr<cuda::CusparseHandle> cusparse;
#endif
  for (const auto& impl : backend.plan) {
    ctx.progress.begin(product.source.name, impl.name, base.precision, weight);
    SpgemmRow row = rowFor(impl);
    try {
      if (impl.library == "araios") {
        spgemm_detail::measureAraios(exec, m, product, impl, ctx.reps, checks, row);
      } else if (impl.library == "kokkos-kernels") {
        spgemm_detail::measureKokkosKernels(exec, m, product, ctx.reps, checks, row);
      } else if (impl.library == "cusparse") {
#ifdef KOKKOS_ENABLE_CUDA
        if constexpr (std::is_same_v<ExecSpace, Kokkos::Cuda>) {
          if (!cusparse) cusparse = std::make_unique<cuda::CusparseHandle>(exec.cuda_stream());
          spgemm_detail::measureCusparse(exec, *cusparse, m, product, impl, ctx.reps, checks, row);
        } else {
          throw UnsupportedError("cuSPARSE runs on the cuda backend only");
        }
#else
        throw UnsupportedError("cuSPARSE needs a build with Kokkos CUDA");
#endif
      } else {
        throw InputError("unknown library '" + impl.library + "'");
      }
    } catch (const std::exception& e) {
      row.status = "failed";
      row.error = e.what();
      // A failed product may leave an error pending on the device; let the next one start clean.
      try {
        exec.fence();
      } catch (...) {
      }
    }
    const bool araios = impl.library == "araios";
    const bool promisesBits = araios && impl.mode != "fast";
    const bool notReproducible =
        promisesBits && row.status != "failed" && (row.sameBits == false || row.reuseSameBits == false);
    if (notReproducible) {
      row.note += std::string(row.note.empty() ? "" : "; ") + "mode " + impl.mode + " gave other bits " +
                  (row.sameBits == false ? "in a second run" : "in the reuse numeric phase");
    }
    if (row.status == "failed") (araios ? ctx.tally.araiosFailures : ctx.tally.baselineFailures) += 1;
    if (row.status == "wrong") ++ctx.tally.wrongResults;
    if (notReproducible) ++ctx.tally.notReproducible;
    writeRow(ctx.sink, row, (araios && row.status == "failed") || row.status == "wrong" || notReproducible);
    spgemm_detail::echo(row);
  }
}

}  // namespace araios::bench
