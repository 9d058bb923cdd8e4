#pragma once
// DistributedOperator: y = A x for a matrix distributed by rows over the ranks of a
// communicator, each rank applying its rows with an SpmvOperator.
//
//   auto local = araios::readMatrixMarketRows(comm, "A.mtx");             // or distributeRows
//   araios::DistributedOperator<double> A(exec, local, options);          // collective
//   A.apply(exec, x, y);   // x, y: this rank's blocks (A.localRows() entries); collective
//
// Every rank holds its rows with local column numbers in the extended vector of HaloPlan
// (ghosts below, owned entries, ghosts above, in global column order), so each row keeps its
// global order. A product:
//   1. packs the entries the neighbours need and starts the persistent sends and receives;
//   2. applies the interior rows (those with no ghost column) while the messages travel;
//   3. waits, and applies the boundary rows.
// The interior and boundary rows are two operators of the same kernel and mode, whose outputs
// are scattered to y. A kernel whose order for a row depends on that row alone gives the bits
// of its one-process run for any number of ranks (rowLocalOrder: the kernels that sum in CSR
// order, and every kernel in Accurate mode). In Deterministic mode Kernel::Auto chooses among
// those only, and a named kernel outside them is refused.
//
// On CUDA the messages go through pinned host buffers, or straight from device memory when the
// MPI library says it is CUDA-aware (MPIX_Query_cuda_support; ARAIOS_MPI_CUDA_AWARE=0 turns
// that off). cudaAwareMpi() reports which.
#include <araios/distributed/collective_errors.hpp>
#include <araios/distributed/distributed_matrix.hpp>
#include <araios/distributed/halo_plan.hpp>
#include <araios/distributed/mpi_check.hpp>
#include <araios/operator.hpp>

#include <Kokkos_Core.hpp>
#include <mpi.h>
#if defined(OPEN_MPI) && __has_include(<mpi-ext.h>)
#include <mpi-ext.h>
#endif

#include <cstdint>
#include <cstdlib>
#include <limits>
#include <memory>
#include <string>
#include <vector>

namespace araios {

/// Whether the kernel's order for a row depends on that row's entries alone in `mode`: then
/// its distributed result is the one-process result, bit for bit.
inline bool rowLocalOrder(Kernel kernel, Mode mode) { return mode == Mode::Accurate || sumsInCsrOrder(kernel); }

/// Whether the MPI library accepts CUDA device pointers (asked at run time).
inline bool mpiIsCudaAware() {
  if (const char* env = std::getenv("ARAIOS_MPI_CUDA_AWARE")) {
    if (std::string(env) == "0") return false;
  }
#if defined(MPIX_CUDA_AWARE_SUPPORT) && MPIX_CUDA_AWARE_SUPPORT
  return MPIX_Query_cuda_support() == 1;
#else
  return false;
#endif
}

namespace Impl {

template <class To, class From>
struct GatherKernel {  // to(i) = from(index(i))
  To to;
  From from;
  Kokkos::View<const std::int64_t*, typename To::device_type> index;
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t i) const { to(i) = from(index(i)); }
};

template <class To, class From>
struct ScatterKernel {  // to(index(i)) = from(i)
  To to;
  From from;
  Kokkos::View<const std::int64_t*, typename To::device_type> index;
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t i) const { to(index(i)) = from(i); }
};

/// Rows of one part of the local block, as a CSR matrix over the extended vector.
struct LocalRows {
  std::vector<std::int64_t> rows;  ///< local row numbers
  std::vector<std::int64_t> rowPtr{0};
  std::vector<std::int64_t> cols;  ///< slots of the extended vector
  std::vector<double> values;
};

template <class Csr>
Csr deviceCsr(const LocalRows& part, std::int64_t numCols) {
  using Ordinal = typename Csr::ordinal_type;
  using Offset = typename Csr::size_type;
  using Value = typename Csr::value_type;
  const std::int64_t maxOrdinal = static_cast<std::int64_t>(std::numeric_limits<Ordinal>::max());
  const std::int64_t maxOffset = static_cast<std::int64_t>(std::numeric_limits<Offset>::max());
  if (static_cast<std::int64_t>(part.rows.size()) > maxOrdinal || numCols > maxOrdinal ||
      static_cast<std::int64_t>(part.cols.size()) > maxOffset) {
    throw InputError("DistributedOperator: a rank's block has " + std::to_string(part.rows.size()) + " rows, " +
                     std::to_string(numCols) + " columns with its ghosts and " + std::to_string(part.cols.size()) +
                     " entries, past its " + std::to_string(8 * sizeof(Ordinal)) + "-bit ordinals or " +
                     std::to_string(8 * sizeof(Offset)) + "-bit offsets; expected more ranks or 64-bit index types");
  }
  Csr csr;
  csr.numRows = static_cast<Ordinal>(part.rows.size());
  csr.numCols = static_cast<Ordinal>(numCols);
  csr.rowPtr = decltype(csr.rowPtr)("araios::distributed::rowPtr", part.rowPtr.size());
  csr.colIdx = decltype(csr.colIdx)("araios::distributed::colIdx", part.cols.size());
  csr.values = decltype(csr.values)("araios::distributed::values", part.values.size());
  auto r = Kokkos::create_mirror_view(csr.rowPtr);
  auto c = Kokkos::create_mirror_view(csr.colIdx);
  auto v = Kokkos::create_mirror_view(csr.values);
  for (std::size_t i = 0; i < part.rowPtr.size(); ++i) r(i) = static_cast<Offset>(part.rowPtr[i]);
  for (std::size_t k = 0; k < part.cols.size(); ++k) {
    c(k) = static_cast<Ordinal>(part.cols[k]);
    v(k) = static_cast<Value>(part.values[k]);
  }
  Kokkos::deep_copy(csr.rowPtr, r);
  Kokkos::deep_copy(csr.colIdx, c);
  Kokkos::deep_copy(csr.values, v);
  return csr;
}

}  // namespace Impl

template <class Value, class Ordinal = std::int32_t, class Offset = std::int32_t,
          class ExecSpace = Kokkos::DefaultExecutionSpace>
class DistributedOperator {
 public:
  using value_type = Value;
  using execution_space = ExecSpace;
  using device_type = typename ExecSpace::device_type;
  using memory_space = typename device_type::memory_space;
  using Local = SpmvOperator<Value, Ordinal, Offset, ExecSpace>;
  using Vector = Kokkos::View<Value*, device_type>;
  using ConstVector = Kokkos::View<const Value*, device_type>;

  /// Builds this rank's part from its rows. `columns` partitions x (null: the row partition for
  /// a square matrix, equal blocks of columns otherwise). Collective; an error on any rank is
  /// thrown on every rank (agreeOnErrors).
  DistributedOperator(const ExecSpace& exec, const DistributedHostMatrix& matrix, const OperatorOptions& options = {},
                      const RowPartition* columns = nullptr)
      : state_(std::make_shared<State>()) {
    State& s = *state_;
    s.comm = matrix.comm;
    s.rank = commRank(s.comm);
    s.rows = matrix.partition;
    s.numRows = matrix.numRows();
    s.numCols = matrix.numCols();
    s.options = options;
    agreeOnErrors(s.comm, [&] {
      s.columns = columns ? *columns
                          : (s.numRows == s.numCols ? s.rows : RowPartition::uniform(s.numCols, commSize(s.comm)));
      if (s.columns.numRows() != s.numCols || s.columns.ranks() != commSize(s.comm)) {
        throw InputError("DistributedOperator: the column partition spans " + std::to_string(s.columns.numRows()) +
                         " columns in " + std::to_string(s.columns.ranks()) + " blocks; expected " +
                         std::to_string(s.numCols) + " in " + std::to_string(commSize(s.comm)));
      }
      if (options.mode == Mode::Deterministic) {
        if (options.kernel == Kernel::Auto) {
          s.options.csrOrderOnly = true;
        } else if (!rowLocalOrder(options.kernel, options.mode)) {
          std::string name;
          for (const KernelEntry& k : kernelRegistry()) {
            if (k.kernel == options.kernel) name = k.name;
          }
          throw UnsupportedError("DistributedOperator: kernel " + name +
                                 " orders a row's sum by its neighbours, so its deterministic bits would depend on "
                                 "the partition; expected a kernel that sums in CSR order (araios kernels) or "
                                 "Accurate mode");
        }
      }
    });
    s.halo = makeHaloPlan(s.comm, s.columns, matrix.local.col);
    agreeOnErrors(s.comm, [&] { build(exec, matrix); });
  }

  /// y = A x on this rank's block: x and y hold localRows() entries (the column block for x).
  /// Collective: every rank must call it. Synchronises `exec`.
  void apply(const ExecSpace& exec, const ConstVector& x, const Vector& y) const {
    const State& s = *state_;
    if (static_cast<std::int64_t>(x.extent(0)) != s.halo.owned() ||
        static_cast<std::int64_t>(y.extent(0)) != localRows()) {
      throw InputError("DistributedOperator::apply: this rank's x has " + std::to_string(x.extent(0)) + " and y " +
                       std::to_string(y.extent(0)) + " entries; expected " + std::to_string(s.halo.owned()) +
                       " and " + std::to_string(localRows()));
    }
    if (!s.exchanges) {
      s.whole.apply(exec, x, y);
      return;
    }
    using Policy = Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>;
    const std::int64_t below = s.halo.ghostsBelow, owned = s.halo.owned();
    const auto ownedPart = Kokkos::subview(s.extended, std::make_pair(below, below + owned));
    Kokkos::deep_copy(exec, ownedPart, x);
    if (s.sendBuffer.extent(0) > 0) {
      Kokkos::parallel_for("araios::distributed::pack", Policy(exec, 0, s.sendBuffer.extent(0)),
                           Impl::GatherKernel<Vector, ConstVector>{s.sendBuffer, x, s.sendIndex});
      if (!s.direct) Kokkos::deep_copy(exec, s.stagedSend, s.sendBuffer);
    }
    exec.fence();
    Kokkos::Timer timer;
    if (!s.requests.empty()) {
      ARAIOS_MPI_CHECK(MPI_Startall(static_cast<int>(s.requests.size()), s.requests.data()));
    }
    s.commSeconds += timer.seconds();
    if (s.split) {
      s.interior.apply(exec, s.extended, s.interiorY);
      Kokkos::parallel_for("araios::distributed::scatter_interior", Policy(exec, 0, s.interiorY.extent(0)),
                           Impl::ScatterKernel<Vector, Vector>{y, s.interiorY, s.interiorRows});
    }
    timer.reset();
    if (!s.requests.empty()) {
      ARAIOS_MPI_CHECK(MPI_Waitall(static_cast<int>(s.requests.size()), s.requests.data(), MPI_STATUSES_IGNORE));
    }
    s.commSeconds += timer.seconds();
    if (!s.direct) {
      const std::int64_t ghosts = s.halo.ghostEntries();
      if (below > 0) {
        Kokkos::deep_copy(exec, Kokkos::subview(s.extended, std::make_pair(std::int64_t(0), below)),
                          Kokkos::subview(s.stagedReceive, std::make_pair(std::int64_t(0), below)));
      }
      if (ghosts > below) {
        Kokkos::deep_copy(exec, Kokkos::subview(s.extended, std::make_pair(below + owned, owned + ghosts)),
                          Kokkos::subview(s.stagedReceive, std::make_pair(below, ghosts)));
      }
    }
    if (s.split) {
      s.boundary.apply(exec, s.extended, s.boundaryY);
      Kokkos::parallel_for("araios::distributed::scatter_boundary", Policy(exec, 0, s.boundaryY.extent(0)),
                           Impl::ScatterKernel<Vector, Vector>{y, s.boundaryY, s.boundaryRows});
    } else {
      s.whole.apply(exec, s.extended, y);
    }
    exec.fence();
  }

  MPI_Comm comm() const { return state_->comm; }
  const RowPartition& partition() const { return state_->rows; }
  const RowPartition& columnPartition() const { return state_->columns; }
  std::int64_t numRows() const { return state_->numRows; }
  std::int64_t numCols() const { return state_->numCols; }
  std::int64_t localRows() const { return state_->rows.rows(state_->rank); }
  std::int64_t firstRow() const { return state_->rows.begin(state_->rank); }
  Mode mode() const { return state_->options.mode; }
  /// The kernel this rank's rows run (with Kernel::Auto, ranks may choose differently).
  const KernelEntry& kernel() const { return (state_->split ? state_->boundary : state_->whole).kernel(); }
  /// This rank's rows of the diagonal (square matrices with equal row and column partitions).
  const Vector& diagonal() const { return state_->diagonal; }
  /// Bytes this rank receives per product (its ghost entries) and sends.
  std::int64_t haloBytesReceived() const { return state_->halo.ghostEntries() * std::int64_t(sizeof(Value)); }
  std::int64_t haloBytesSent() const { return state_->halo.sentEntries() * std::int64_t(sizeof(Value)); }
  std::int64_t interiorRows() const { return state_->split ? std::int64_t(state_->interiorRows.extent(0)) : 0; }
  /// Seconds this rank spent starting and waiting for halo messages.
  double commSeconds() const { return state_->commSeconds; }
  /// Whether halo messages go straight from device memory (CUDA-aware MPI or a host backend).
  bool directMessages() const { return state_->direct; }

 private:
  // Messages staged through the host use pinned memory where the device has it: the copies
  // then run at full speed and asynchronously on `exec`.
#ifdef KOKKOS_ENABLE_CUDA
  using StagingSpace = std::conditional_t<std::is_same_v<memory_space, Kokkos::CudaSpace>, Kokkos::CudaHostPinnedSpace,
                                          Kokkos::HostSpace>;
#else
  using StagingSpace = Kokkos::HostSpace;
#endif
  struct State {
    MPI_Comm comm = MPI_COMM_NULL;
    int rank = 0;
    RowPartition rows, columns;
    std::int64_t numRows = 0, numCols = 0;
    OperatorOptions options;
    HaloPlan halo;
    bool exchanges = false;  ///< any rank has a ghost: products exchange messages
    bool split = false;      ///< interior and boundary rows apart
    bool direct = true;
    Local whole, interior, boundary;
    Vector interiorY, boundaryY, extended, sendBuffer, diagonal;
    Kokkos::View<std::int64_t*, device_type> interiorRows, boundaryRows, sendIndex;
    Kokkos::View<Value*, StagingSpace> stagedSend, stagedReceive;
    mutable std::vector<MPI_Request> requests;
    mutable double commSeconds = 0;
    ~State() {
      int finalized = 1;
      MPI_Finalized(&finalized);
      if (!finalized) {
        for (MPI_Request& r : requests) MPI_Request_free(&r);
      }
    }
  };

  static Kokkos::View<std::int64_t*, device_type> deviceIndex(const std::vector<std::int64_t>& host,
                                                              const std::string& label) {
    Kokkos::View<std::int64_t*, device_type> d(label, host.size());
    auto h = Kokkos::create_mirror_view(d);
    for (std::size_t i = 0; i < host.size(); ++i) h(i) = host[i];
    Kokkos::deep_copy(d, h);
    return d;
  }

  void build(const ExecSpace& exec, const DistributedHostMatrix& matrix) {
    State& s = *state_;
    const int rank = s.rank;
    const HaloPlan& h = s.halo;
    const io::HostMatrix& m = matrix.local;
    const std::int64_t firstRow = s.rows.begin(rank), rows = s.rows.rows(rank);
    // Interior rows touch owned columns only; the others wait for the halo.
    Impl::LocalRows interior, boundary;
    std::vector<double> diag(rows, 0.0);
    std::int64_t k = 0;
    for (std::int64_t i = 0; i < rows; ++i) {
      const std::int64_t row = firstRow + i;
      const std::int64_t begin = k;
      bool inside = true;
      while (k < static_cast<std::int64_t>(m.row.size()) && m.row[k] == row) {
        inside = inside && m.col[k] >= h.ownedBegin && m.col[k] < h.ownedEnd;
        if (m.col[k] == row) diag[i] += m.value[k];
        ++k;
      }
      Impl::LocalRows& part = inside ? interior : boundary;
      part.rows.push_back(i);
      for (std::int64_t e = begin; e < k; ++e) {
        part.cols.push_back(h.slotOf(m.col[e]));
        part.values.push_back(m.value[e]);
      }
      part.rowPtr.push_back(static_cast<std::int64_t>(part.cols.size()));
    }
    if (k != static_cast<std::int64_t>(m.row.size())) {
      throw InputError("DistributedOperator: rank " + std::to_string(rank) + " holds an entry of row " +
                       std::to_string(m.row[k]) + " outside its rows [" + std::to_string(firstRow) + ", " +
                       std::to_string(firstRow + rows) + ") or out of order; expected its rows only, sorted");
    }
    std::int64_t anyGhost = h.ghostEntries() + h.sentEntries(), total = 0;
    ARAIOS_MPI_CHECK(MPI_Allreduce(&anyGhost, &total, 1, MPI_INT64_T, MPI_SUM, s.comm));
    s.exchanges = total > 0;
    using Csr = typename Local::Csr;
    const std::int64_t extended = h.extendedLength();
    // Splitting pays for its scatters only when both parts have rows to overlap.
    s.split = s.exchanges && !interior.rows.empty() && !boundary.rows.empty();
    if (s.split) {
      s.interior = Local(exec, Impl::deviceCsr<Csr>(interior, extended), s.options);
      s.boundary = Local(exec, Impl::deviceCsr<Csr>(boundary, extended), s.options);
      s.interiorRows = deviceIndex(interior.rows, "araios::distributed::interior_rows");
      s.boundaryRows = deviceIndex(boundary.rows, "araios::distributed::boundary_rows");
      s.interiorY = Vector("araios::distributed::interior_y", interior.rows.size());
      s.boundaryY = Vector("araios::distributed::boundary_y", boundary.rows.size());
    } else {
      // Unsplit, one part holds every row in order: without exchanges no row has a ghost, and
      // otherwise one part is empty.
      s.whole = Local(exec, Impl::deviceCsr<Csr>(boundary.rows.empty() ? interior : boundary, extended), s.options);
    }
    s.diagonal = Vector(Kokkos::view_alloc(Kokkos::WithoutInitializing, "araios::distributed::diagonal"), rows);
    auto d = Kokkos::create_mirror_view(s.diagonal);
    for (std::int64_t i = 0; i < rows; ++i) d(i) = static_cast<Value>(diag[i]);
    Kokkos::deep_copy(s.diagonal, d);
    if (!s.exchanges) return;

    s.extended = Vector("araios::distributed::x_extended", extended);
    s.sendIndex = deviceIndex(h.sendIndex, "araios::distributed::send_index");
    s.sendBuffer = Vector("araios::distributed::send", h.sendIndex.size());
    constexpr bool hostMemory = Kokkos::SpaceAccessibility<Kokkos::HostSpace, memory_space>::accessible;
    s.direct = hostMemory || mpiIsCudaAware();
    Value* sendBase = s.sendBuffer.data();
    Value* receiveBase = s.extended.data();
    if (!s.direct) {
      s.stagedSend = Kokkos::View<Value*, StagingSpace>("araios::distributed::send_host", h.sendIndex.size());
      s.stagedReceive = Kokkos::View<Value*, StagingSpace>("araios::distributed::receive_host", h.ghostEntries());
      sendBase = s.stagedSend.data();
      receiveBase = s.stagedReceive.data();
    }
    const MPI_Datatype type = Impl::mpiType<Value>();
    constexpr int kTag = 7201;
    for (const HaloPlan::Message& r : h.receives) {
      // Staged, the ghosts are packed without the owned gap.
      const std::int64_t first = s.direct || r.first < h.ghostsBelow ? r.first : r.first - h.owned();
      s.requests.emplace_back();
      ARAIOS_MPI_CHECK(MPI_Recv_init(receiveBase + first, static_cast<int>(r.count), type, r.rank, kTag, s.comm,
                                     &s.requests.back()));
    }
    for (const HaloPlan::Message& m2 : h.sends) {
      s.requests.emplace_back();
      ARAIOS_MPI_CHECK(MPI_Send_init(sendBase + m2.first, static_cast<int>(m2.count), type, m2.rank, kTag, s.comm,
                                     &s.requests.back()));
    }
  }

  std::shared_ptr<State> state_;
};

}  // namespace araios
