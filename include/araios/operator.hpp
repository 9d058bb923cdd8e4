#pragma once
// SpmvOperator: a CSR matrix prepared once for one kernel and mode, applied many times.
//
//   araios::SpmvOperator<double> A(exec, csr);                      // kernel auto, deterministic
//   araios::OperatorOptions options;
//   options.kernel = araios::Kernel::Brcp;  options.mode = araios::Mode::Accurate;
//   araios::SpmvOperator<double> B(exec, csr, options);
//   B.apply(exec, x, y);                                            // y = B*x
//   B.apply(exec, x, y, alpha, beta);                               // y = alpha*B*x + beta*y
//
// The operator owns the kernel's format (built from the CSR matrix on `exec` when it is
// constructed; a padded format may refuse the matrix with PaddingError, and a format or
// workspace that does not fit the memory of `exec`'s space is refused with OutOfMemoryError,
// naming the bytes needed and free, before it is allocated), the format's plan, what the
// product would otherwise make on every call (detail/spmv_state.hpp: CSC's grouping of its
// entries by row, built unless the operator's mode is Fast; where csr-merge's teams start on the
// merge path, found unless the mode is Accurate), and the workspace its product
// needs, one per execution space instance that applies it (a CUDA stream; on a host backend,
// the calling thread): two operators, or two applies of one operator on different CUDA
// streams, may run at once. It keeps a reference to the CSR Views it was built from (the
// solvers take the diagonal from them, and BRCP and SC-CSR run their Accurate mode on them
// instead of converting back to CSR), so a matrix whose values change needs a new operator.
// Copies share everything. apply() is asynchronous like any Kokkos kernel on `exec`.
//
// Kernel::Auto (the default) lets the performance model choose (araios/model/): the features of
// the matrix are computed on `exec`, the device's profile predicts every kernel's build and
// product, and the kernel with the least build + expectedProducts x product wins among those
// that fit the memory free, the padding limit and the other constraints. kernel() reports the
// choice and choice() the ranking with its reasons. A padded format whose real padding passes
// the limit (the features estimate it) is skipped for the next in the ranking.
//
// Deterministic bits are those of the kernel that runs, so with Auto they can differ between
// two devices that choose differently. For the same bits everywhere, name the kernel, choose
// with one profile everywhere (OperatorOptions::profile), or let Auto choose only among the
// kernels that sum in CSR order (OperatorOptions::csrOrderOnly): those give the bits of
// csr-scalar whichever of them runs. Accurate mode gives the same bits for every kernel.
#include <araios/detail/device_memory.hpp>
#include <araios/detail/l2_window.hpp>
#include <araios/error.hpp>
#include <araios/format_options.hpp>
#include <araios/kernel_builders.hpp>
#include <araios/kernel_registry.hpp>
#include <araios/mode.hpp>
#include <araios/formats/csr/csr.hpp>
#include <araios/model/choose_kernel.hpp>
#include <araios/model/compute_features.hpp>
#include <araios/model/describe_device.hpp>
#include <araios/model/performance_profile.hpp>

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <utility>
#include <vector>

namespace araios {

struct OperatorOptions {
  Kernel kernel = Kernel::Auto;
  Mode mode = Mode::Deterministic;
  /// Padding limit and --force of the padded formats.
  FormatOptions format{};
  /// Run the portable Kokkos kernel where a backend has a hand-written one (the tests compare
  /// the two bit for bit).
  bool portableOnly = false;
  /// Keep x in the device's last-level cache during each product (SpmvOptions::keepXInL2; on
  /// CUDA an L2 access-policy window, nothing on the host backends). Same bits either way.
  bool keepXInL2 = false;

  // Kernel::Auto only:
  /// The constants that rank the kernels; null: the device's profile (deviceProfile).
  std::shared_ptr<const PerformanceProfile> profile;
  /// Products the format's build is spread over (a solver passes its iteration limit).
  double expectedProducts = 100;
  /// Bytes the chosen format may take; negative: half the memory free on the device.
  std::int64_t memoryLimitBytes = -1;
  /// Choose only among the kernels that sum in CSR order (same deterministic bits for all).
  bool csrOrderOnly = false;
  /// In Fast mode, choose only kernels whose fast path repeats its bits from run to run.
  bool requireRunToRun = false;
};

namespace Impl {

/// The profile of the device `exec` runs on (findProfile), found once per backend and
/// process. `warning` receives, on the first call only, why a profile file was refused.
template <class ExecSpace>
std::shared_ptr<const PerformanceProfile> deviceProfile(const ExecSpace& exec, std::string* warning = nullptr) {
  static std::mutex mutex;
  static std::shared_ptr<const PerformanceProfile> profile;
  std::lock_guard<std::mutex> lock(mutex);
  if (!profile) profile = std::make_shared<const PerformanceProfile>(findProfile(describeDevice(exec), warning));
  return profile;
}

/// The constraints of Kernel::Auto for an operator's options on `exec`.
template <class ExecSpace>
ChoiceConstraints choiceConstraints(const ExecSpace& exec, const OperatorOptions& options) {
  ChoiceConstraints c;
  c.mode = options.mode;
  c.expectedProducts = options.expectedProducts;
  c.maxPaddingRatio = options.format.force ? 1e300 : options.format.maxPaddingRatio;
  c.requireRunToRun = options.requireRunToRun;
  if (options.memoryLimitBytes >= 0) {
    c.memoryLimitBytes = options.memoryLimitBytes;
  } else {
    // Half of what is free: the format's temporaries while it is built, and the caller's vectors.
    const std::int64_t free = freeBytes(exec);
    c.memoryLimitBytes = free >= 0 ? free / 2 : -1;
  }
  if (options.csrOrderOnly) {
    for (const KernelEntry& k : kernelRegistry()) {
      if (sumsInCsrOrder(k.kernel)) c.candidates.push_back(k.kernel);
    }
  }
  return c;
}

/// One workspace per execution space instance that applies the operator: work queued on a
/// CUDA stream is ordered, so that stream's workspace is free for its next product; a host
/// backend runs a product to completion on its calling thread, so that thread's is.
template <class Value, class ExecSpace>
class WorkspacePool {
 public:
  using Vector = Kokkos::View<Value*, typename ExecSpace::device_type>;

  explicit WorkspacePool(std::int64_t values) : values_(values) {}

  std::int64_t values() const { return values_; }

  Vector get(const ExecSpace& exec) {
    if (values_ == 0) return Vector();
    const std::size_t key = keyOf(exec);
    std::lock_guard<std::mutex> lock(mutex_);
    for (const auto& [k, v] : pool_) {
      if (k == key) return v;
    }
    const std::string what = "the workspace of a product (" + groupedDigits(values_) + " values)";
    requireMemory(exec, values_ * static_cast<std::int64_t>(sizeof(Value)), what);
    Vector workspace = refuseAllocationFailure(exec, what, [&] {
      return Vector(Kokkos::view_alloc(Kokkos::WithoutInitializing, "araios::operator::workspace"), values_);
    });
    pool_.emplace_back(key, workspace);
    return workspace;
  }

 private:
  static std::size_t keyOf([[maybe_unused]] const ExecSpace& exec) {
#ifdef KOKKOS_ENABLE_CUDA
    if constexpr (std::is_same_v<ExecSpace, Kokkos::Cuda>) {
      return reinterpret_cast<std::size_t>(exec.cuda_stream());
    }
#endif
    return std::hash<std::thread::id>{}(std::this_thread::get_id());
  }

  std::int64_t values_;
  std::mutex mutex_;
  std::vector<std::pair<std::size_t, Vector>> pool_;
};

}  // namespace Impl

template <class Value, class Ordinal = std::int32_t, class Offset = std::int32_t,
          class ExecSpace = Kokkos::DefaultExecutionSpace>
class SpmvOperator {
 public:
  using value_type = Value;
  using ordinal_type = Ordinal;
  using size_type = Offset;
  using execution_space = ExecSpace;
  using device_type = typename ExecSpace::device_type;
  using memory_space = typename device_type::memory_space;
  using Csr = CsrMatrix<Value, Ordinal, Offset, device_type>;
  using Vector = Kokkos::View<Value*, device_type>;
  using ConstVector = Kokkos::View<const Value*, device_type>;

  SpmvOperator() = default;

  /// Builds the kernel's format from `csr` on `exec` (the Views are the caller's; the
  /// operator keeps a reference to them). Throws PaddingError when a padded format refuses the
  /// matrix, InputError for a kernel that does not exist or a count the index types cannot
  /// hold, OutOfMemoryError when the format or one product's workspace does not fit the
  /// memory of `exec`'s space (checked before allocating; an allocation that fails anyway is
  /// reported the same way, its partial format released).
  SpmvOperator(const ExecSpace& exec, const Csr& csr, const OperatorOptions& options = {}) {
    auto state = std::make_shared<State>();
    State& s = *state;
    s.csr = csr;
    s.options = options;
    std::vector<Kernel> tries{options.kernel};
    if (options.kernel == Kernel::Auto) {
      Kokkos::Timer chooseTimer;
      const std::shared_ptr<const PerformanceProfile> profile = options.profile ? options.profile : Impl::deviceProfile(exec);
      ElementSizes sizes{static_cast<int>(sizeof(Value)), static_cast<int>(sizeof(Ordinal)), static_cast<int>(sizeof(Offset))};
      s.choice = std::make_shared<KernelChoice>(
          chooseKernel(computeFeatures(exec, csr), *profile, Impl::choiceConstraints(exec, options), sizes));
      s.chooseSeconds = chooseTimer.seconds();
      tries.clear();
      for (const KernelEstimate& e : s.choice->ranking) {
        if (e.excluded.empty()) tries.push_back(e.kernel);
      }
    }
    for (std::size_t t = 0; t < tries.size(); ++t) {
      s.entry = &kernelEntry(tries[t]);
      const std::string what = "building the " + std::string(s.entry->name) + " operator for a " +
                               groupedDigits(csr.numRows) + " x " + groupedDigits(csr.numCols) + " matrix";
      Kokkos::Timer timer;
      try {
        s.prepared = refuseAllocationFailure(exec, what, [&] {
          auto prepared = Impl::buildPreparedKernel(exec, s.entry->format, csr, options.format, options.mode);
          exec.fence();
          return prepared;
        });
      } catch (const PaddingError& e) {
        // Auto estimated the padding within the limit and the format found it past: the next.
        if (!s.choice || t + 1 == tries.size()) throw;
        s.choice->reason += std::string("; ") + std::string(s.entry->name) + " refused: " + e.what();
        continue;
      }
      s.buildSeconds = timer.seconds();
      if (s.choice) s.choice->kernel = tries[t];
      break;
    }
    const std::int64_t workspaceValues = s.prepared->workspaceValues(s.entry->algorithm);
    const std::string what = "building the " + std::string(s.entry->name) + " operator for a " +
                             groupedDigits(csr.numRows) + " x " + groupedDigits(csr.numCols) + " matrix";
    requireMemory(exec, workspaceValues * static_cast<std::int64_t>(sizeof(Value)),
                  what + ": the workspace of one product (" + groupedDigits(workspaceValues) + " values)");
    s.workspace = std::make_unique<Impl::WorkspacePool<Value, ExecSpace>>(workspaceValues);
    state_ = std::move(state);  // only a complete operator is ever held
  }

  /// y = alpha*A*x + beta*y on `exec` in the operator's mode. With beta == 0, y is not read.
  void apply(const ExecSpace& exec, const ConstVector& x, const Vector& y, Value alpha = Value(1),
             Value beta = Value(0)) const {
    apply(exec, x, y, alpha, beta, mode());
  }

  /// The same product in another mode than the operator's (the tools compare modes on one
  /// prepared format).
  void apply(const ExecSpace& exec, const ConstVector& x, const Vector& y, Value alpha, Value beta, Mode mode) const {
    const State& s = state();
    if (static_cast<std::int64_t>(x.extent(0)) != numCols() || static_cast<std::int64_t>(y.extent(0)) != numRows()) {
      throw InputError("SpmvOperator::apply: the operator is " + std::to_string(numRows()) + " x " +
                       std::to_string(numCols()) + " but x has " + std::to_string(x.extent(0)) + " and y " +
                       std::to_string(y.extent(0)) + " entries; expected x of " + std::to_string(numCols()) +
                       " and y of " + std::to_string(numRows()));
    }
    SpmvOptions options;
    options.algorithm = s.entry->algorithm;
    options.mode = mode;
    options.portableOnly = s.options.portableOnly;
    const Vector workspace = s.workspace->get(exec);
    Impl::withXInL2(exec, x, s.options.keepXInL2,
                    [&] { s.prepared->apply(exec, x, y, alpha, beta, options, workspace); });
  }

  const KernelEntry& kernel() const { return *state().entry; }
  Mode mode() const { return state().options.mode; }
  const OperatorOptions& options() const { return state().options; }
  /// The CSR matrix the operator was built from (the caller's Views).
  const Csr& csr() const { return state().csr; }
  std::int64_t numRows() const { return static_cast<std::int64_t>(state().csr.numRows); }
  std::int64_t numCols() const { return static_cast<std::int64_t>(state().csr.numCols); }
  std::int64_t nnz() const { return static_cast<std::int64_t>(state().csr.nnz()); }

  /// Bytes of the kernel's format, its plan and the state its products keep (for csr-scalar and
  /// csr-vector: the CSR itself; not the CSR that the other formats refer to for Accurate mode).
  std::int64_t formatBytes() const { return state().prepared->formatBytes(); }
  /// Bytes of workspace one product needs; the operator holds one per execution space instance
  /// that has applied it.
  std::int64_t workspaceBytes() const { return state().workspace->values() * static_cast<std::int64_t>(sizeof(Value)); }
  /// What the operator chose for its products when it was built, in words: csr-merge's plan for
  /// its short rows, or how COO, HYB and CSC (Deterministic) walk their rows in CSR order. Empty
  /// where the kernel chooses nothing.
  std::string plan() const { return state().prepared->plan(state().entry->algorithm); }
  /// Stored slots of the format, padding included (storedSlots / nnz is its padding ratio).
  std::int64_t storedSlots() const { return state().prepared->storedSlots(); }
  /// Seconds the construction spent building the format (fenced).
  double buildSeconds() const { return state().buildSeconds; }
  /// Kernel::Auto's ranking and reasons; null when the kernel was named.
  const KernelChoice* choice() const { return state().choice.get(); }
  /// Seconds Kernel::Auto spent choosing (features, profile, ranking); 0 when the kernel was named.
  double chooseSeconds() const { return state().chooseSeconds; }

 private:
  struct State {
    Csr csr;
    OperatorOptions options;
    const KernelEntry* entry = nullptr;
    std::shared_ptr<const Impl::PreparedKernel<Value, ExecSpace>> prepared;
    std::unique_ptr<Impl::WorkspacePool<Value, ExecSpace>> workspace;
    std::shared_ptr<KernelChoice> choice;
    double buildSeconds = 0;
    double chooseSeconds = 0;
  };

  const State& state() const {
    if (!state_) throw InputError("SpmvOperator: used before it was built from a matrix");
    return *state_;
  }

  std::shared_ptr<State> state_;
};

}  // namespace araios
