#pragma once
// DistributedSpgemm: C = A*B for A and B distributed by rows over the ranks of a communicator,
// with C distributed like A. No rank ever holds all of A, B or C.
//
//   araios::DistributedSpgemm<double> product(exec, A, B, options);  // collective: fetch, symbolic
//   product.numeric(exec);                                            // collective: C's values
//   const auto& C = product.localC();   // this rank's rows of C (CSR on the device, global columns)
//   araios::DistributedHostMatrix c = product.hostC();                // the same rows on the host
//   ... new values in A and B, same patterns ...
//   product.numeric(exec, A2, B2);      // fetches B's new values, then only the numeric phase
//
// How. Row i of C needs row i of A and the rows k of B for the columns k of row i of A. Each
// rank:
//   1. collects the distinct columns of its rows of A (ascending): the rows of B it needs;
//   2. asks their owners (B's partition) for them: an all-to-all of counts, then point to point
//      the row ids; the owners reply with the rows' lengths, then their columns and values;
//   3. builds B_fetched (one row per needed row, in ascending global order, global columns) and
//      renumbers the columns of its rows of A to positions in the needed set. The renumbering is
//      monotone, so each row of A keeps its order;
//   4. runs the one-process product (SpgemmHandle) on those two: its rows of C, global columns.
// The owners keep, per request, where the rows sit in their B, so new values with the same
// patterns (numeric(exec, A, B)) move only B's values again.
//
// Cost. Each rank receives the rows of B its rows of A reach (stats(): rowsReceived,
// entriesReceived, bytesReceived) and sends those of its B that other ranks' rows of A reach,
// 8 bytes per row id and length and 16 bytes per entry (column and value); its own rows of B are
// copied, not sent. Memory per rank: its rows of A and B, the fetched rows (once on the host
// during construction, once on the device), and its rows of C. A rank whose rows of A reach
// every row of B fetches all of B: partitions that keep A's columns near its rows (banded,
// reordered matrices) fetch little.
//
// Bits. Row i of C depends only on row i of A, in its stored order, and the rows of B it
// reaches, which B_fetched holds unchanged. In Deterministic mode each c_ij is summed in A's
// stored order, in Accurate mode it is the correctly rounded exact sum: in both, C is bit for
// bit the one-process araios::spgemm of the same matrices, for any number of ranks and any
// partitions of A and B. Fast mode sums in any order: close, not equal.
//
// Requirements and refusals (on every rank, through agreeOnErrors): A.numCols() == B.numRows();
// each partition one block per rank over its matrix's rows; each rank's entries inside its
// block, sorted by row then column, no duplicates; Ordinal must hold B.numCols() (C keeps
// global column ids; 64-bit ordinals past 2^31 - 1 columns), Offset the entries of the local A
// and of B_fetched (nnz of the local C is checked by the product). Messages are split below
// 2^31 elements (MPI counts are int), so no count limit applies beyond memory.
#include <araios/distributed/collective_errors.hpp>
#include <araios/distributed/distributed_matrix.hpp>
#include <araios/distributed/mpi_check.hpp>
#include <araios/distributed/row_partition.hpp>
#include <araios/error.hpp>
#include <araios/formats/coo/coo_convert.hpp>
#include <araios/formats/csr/csr.hpp>
#include <araios/spgemm.hpp>
#include <araios/types.hpp>

#include <Kokkos_Core.hpp>
#include <mpi.h>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <memory>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace araios {

/// What a distributed product measured on this rank. Bytes and seconds in MPI add up over the
/// construction and every numeric(exec, A, B) that fetched new values.
struct DistributedSpgemmStats {
  std::int64_t rowsNeeded = 0;       ///< distinct rows of B this rank's rows of A reach (rows of B_fetched)
  std::int64_t rowsReceived = 0;     ///< of which owned by other ranks
  std::int64_t entriesReceived = 0;  ///< entries of B in the rows received
  std::int64_t rowsSent = 0;         ///< rows of this rank's B sent to other ranks
  std::int64_t entriesSent = 0;      ///< entries in them
  std::int64_t bytesReceived = 0;    ///< over MPI from other ranks: row ids, lengths, columns, values
  std::int64_t bytesSent = 0;        ///< over MPI to other ranks
  std::int64_t globalNnz = 0;        ///< entries of C over all ranks
  double commSeconds = 0;            ///< in MPI calls (the error agreement not counted)
  double symbolicSeconds = 0;        ///< the local product's symbolic phase
  double numericSeconds = 0;         ///< the local product's last numeric phase
  SpgemmStats local;                 ///< the local product's own measurements
};

namespace Impl {

/// Elements per MPI message of the SpGEMM exchange: MPI counts are int, and some MPI libraries
/// count a message's bytes in an int as well, so 2^27 elements of 8 bytes (1 GiB) stay clear of
/// both; a larger block goes as several messages.
constexpr std::int64_t kSpgemmMessageElements = std::int64_t(1) << 27;

/// Tags of the exchange's point-to-point messages, one per kind of content.
enum SpgemmExchangeTag : int { kSpgemmRowIdsTag = 7401, kSpgemmLengthsTag, kSpgemmColumnsTag, kSpgemmValuesTag };

/// Sends send[sendStart_r, + sendCount[r]) to every rank r and receives recv[recvStart_r, +
/// recvCount[r]) from it, the starts being the prefix sums of the counts (recv is sized by the
/// caller). This rank's own block is copied. Point to point, only between ranks with something
/// to send, each block in messages of at most kSpgemmMessageElements. Collective in effect: every
/// rank must call it with matching counts. Returns {bytes sent, bytes received} to other ranks.
template <class T>
std::pair<std::int64_t, std::int64_t> exchangeBlocks(MPI_Comm comm, int tag, const std::vector<T>& send,
                                                     const std::vector<std::int64_t>& sendCount, std::vector<T>& recv,
                                                     const std::vector<std::int64_t>& recvCount) {
  const int rank = commRank(comm), ranks = commSize(comm);
  std::vector<MPI_Request> requests;
  std::int64_t sendAt = 0, recvAt = 0, ownSendAt = 0, ownRecvAt = 0, sent = 0, received = 0;
  // Receives first, so that every send finds its receive posted.
  for (int r = 0; r < ranks; ++r) {
    if (r == rank) {
      ownRecvAt = recvAt;
    } else {
      for (std::int64_t done = 0; done < recvCount[r]; done += kSpgemmMessageElements) {
        const int n = static_cast<int>(std::min(kSpgemmMessageElements, recvCount[r] - done));
        requests.emplace_back();
        ARAIOS_MPI_CHECK(MPI_Irecv(recv.data() + recvAt + done, n, mpiType<T>(), r, tag, comm, &requests.back()));
      }
      received += recvCount[r];
    }
    recvAt += recvCount[r];
  }
  for (int r = 0; r < ranks; ++r) {
    if (r == rank) {
      ownSendAt = sendAt;
    } else {
      for (std::int64_t done = 0; done < sendCount[r]; done += kSpgemmMessageElements) {
        const int n = static_cast<int>(std::min(kSpgemmMessageElements, sendCount[r] - done));
        requests.emplace_back();
        ARAIOS_MPI_CHECK(MPI_Isend(send.data() + sendAt + done, n, mpiType<T>(), r, tag, comm, &requests.back()));
      }
      sent += sendCount[r];
    }
    sendAt += sendCount[r];
  }
  std::copy_n(send.begin() + ownSendAt, sendCount[rank], recv.begin() + ownRecvAt);
  if (!requests.empty()) {
    ARAIOS_MPI_CHECK(MPI_Waitall(static_cast<int>(requests.size()), requests.data(), MPI_STATUSES_IGNORE));
  }
  return {sent * static_cast<std::int64_t>(sizeof(T)), received * static_cast<std::int64_t>(sizeof(T))};
}

inline std::int64_t sumOf(const std::vector<std::int64_t>& v) {
  std::int64_t s = 0;
  for (std::int64_t x : v) s += x;
  return s;
}

}  // namespace Impl

template <class Value, class Ordinal = std::int32_t, class Offset = std::int32_t,
          class ExecSpace = Kokkos::DefaultExecutionSpace>
class DistributedSpgemm {
 public:
  using value_type = Value;
  using execution_space = ExecSpace;
  using device_type = typename ExecSpace::device_type;
  using Csr = CsrMatrix<Value, Ordinal, Offset, device_type>;
  using Handle = SpgemmHandle<Value, Ordinal, Offset, device_type>;

  /// Fetches the rows of B this rank's rows of A reach and runs the symbolic phase of its rows
  /// of C. A: this rank's rows of A (global column ids); B: this rank's rows of B, under B's own
  /// partition; the same communicator. C's values are unset until numeric(). Collective; an
  /// error on any rank is thrown on every rank.
  DistributedSpgemm(const ExecSpace& exec, const DistributedHostMatrix& A, const DistributedHostMatrix& B,
                    const SpgemmOptions& options = {})
      : comm_(A.comm), rows_(A.partition), numRows_(A.numRows()), numCols_(B.numCols()) {
    const int rank = commRank(comm_), ranks = commSize(comm_);
    std::vector<std::int64_t> needed;  // the rows of B this rank needs, ascending
    rowsFrom_.assign(ranks, 0);
    rowsTo_.assign(ranks, 0);
    agreeOnErrors(comm_, [&] {
      checkInputs(A, B);
      needed = A.local.col;
      std::sort(needed.begin(), needed.end());
      needed.erase(std::unique(needed.begin(), needed.end()), needed.end());
      requireOrdinal(static_cast<std::int64_t>(needed.size()), "distinct columns in this rank's rows of A");
      for (std::int64_t k : needed) ++rowsFrom_[B.partition.owner(k)];
    });
    timed([&] { ARAIOS_MPI_CHECK(MPI_Alltoall(rowsFrom_.data(), 1, MPI_INT64_T, rowsTo_.data(), 1, MPI_INT64_T, comm_)); });

    // The owners learn which of their rows to send, and answer with the rows' lengths.
    std::vector<std::int64_t> asked(Impl::sumOf(rowsTo_));
    exchange(Impl::kSpgemmRowIdsTag, needed, rowsFrom_, asked, rowsTo_);
    std::vector<std::int64_t> lengthsOut, lengthsIn(needed.size());
    agreeOnErrors(comm_, [&] { lengthsOut = planSends(B, asked); });
    exchange(Impl::kSpgemmLengthsTag, lengthsOut, rowsTo_, lengthsIn, rowsFrom_);

    // The rows themselves: columns, then values.
    std::vector<std::int64_t> columnsOut, columnsIn;
    std::vector<double> valuesOut, valuesIn;
    agreeOnErrors(comm_, [&] {
      entriesTo_ = blockSums(lengthsOut, rowsTo_);
      entriesFrom_ = blockSums(lengthsIn, rowsFrom_);
      columnsOut.reserve(Impl::sumOf(entriesTo_));
      for (std::size_t k = 0; k < sendRowStart_.size(); ++k) {
        columnsOut.insert(columnsOut.end(), B.local.col.begin() + sendRowStart_[k],
                          B.local.col.begin() + sendRowStart_[k] + lengthsOut[k]);
      }
      valuesOut = packValues(B);
      columnsIn.resize(Impl::sumOf(entriesFrom_));
      valuesIn.resize(columnsIn.size());
    });
    exchange(Impl::kSpgemmColumnsTag, columnsOut, entriesTo_, columnsIn, entriesFrom_);
    exchange(Impl::kSpgemmValuesTag, valuesOut, entriesTo_, valuesIn, entriesFrom_);
    columnsOut = {};
    valuesOut = {};

    stats_.rowsNeeded = static_cast<std::int64_t>(needed.size());
    stats_.rowsReceived = stats_.rowsNeeded - rowsFrom_[rank];
    stats_.entriesReceived = Impl::sumOf(entriesFrom_) - entriesFrom_[rank];
    stats_.rowsSent = static_cast<std::int64_t>(asked.size()) - rowsTo_[rank];
    stats_.entriesSent = Impl::sumOf(entriesTo_) - entriesTo_[rank];

    // The local product on the device.
    std::int64_t localNnz = 0;
    agreeOnErrors(comm_, [&] {
      a_ = localA(A, needed);
      b_ = fetchedB(needed, lengthsIn, columnsIn, valuesIn);
      handle_ = std::make_shared<Handle>(exec, a_, b_, options);
      localNnz = static_cast<std::int64_t>(handle_->result().nnz());
    });
    timed([&] {
      ARAIOS_MPI_CHECK(MPI_Allreduce(&localNnz, &stats_.globalNnz, 1, MPI_INT64_T, MPI_SUM, comm_));
    });
    takeLocalStats();
  }

  /// C's values from the values of A and B given at construction (or at the last
  /// numeric(exec, A, B)). Repeatable: the same bits each time. Collective (the ranks agree on
  /// errors; nothing is sent).
  void numeric(const ExecSpace& exec) {
    agreeOnErrors(comm_, [&] { handle_->numeric(exec, a_, b_); });
    takeLocalStats();
  }

  /// C's values for new values of A and B, whose local patterns must be those of construction
  /// (their sizes are checked, their columns are not): B's values are fetched again along the
  /// same routes, then the numeric phase runs. Collective.
  void numeric(const ExecSpace& exec, const DistributedHostMatrix& A, const DistributedHostMatrix& B) {
    std::vector<double> valuesOut, valuesIn;
    agreeOnErrors(comm_, [&] {
      if (static_cast<std::int64_t>(A.local.value.size()) != static_cast<std::int64_t>(a_.nnz()) ||
          A.numRows() != numRows_ || static_cast<std::int64_t>(B.local.value.size()) != bLocalNnz_ ||
          B.numCols() != numCols_) {
        throw InputError("DistributedSpgemm::numeric: this rank holds " + groupedDigits(A.local.value.size()) +
                         " entries of A and " + groupedDigits(B.local.value.size()) +
                         " of B, but the product was set up with " + groupedDigits(a_.nnz()) + " and " +
                         groupedDigits(bLocalNnz_) + "; expected the patterns of construction with new values");
      }
      copyToDevice(a_.values, A.local.value);
      valuesOut = packValues(B);
      valuesIn.resize(Impl::sumOf(entriesFrom_));
    });
    exchange(Impl::kSpgemmValuesTag, valuesOut, entriesTo_, valuesIn, entriesFrom_);
    agreeOnErrors(comm_, [&] {
      copyToDevice(b_.values, valuesIn);
      handle_->numeric(exec, a_, b_);
    });
    takeLocalStats();
  }

  /// This rank's rows of C: numRows = localRows(), numCols = the global columns, global column
  /// ids, sorted within each row. Values valid after numeric(). Shares its Views with the product.
  const Csr& localC() const { return handle_->result(); }

  /// This rank's rows of C on the host with global row and column ids, under A's partition.
  DistributedHostMatrix hostC() const {
    DistributedHostMatrix c;
    c.comm = comm_;
    c.partition = rows_;
    c.local = hostFromCsr(localC());
    const std::int64_t first = firstRow();
    for (std::int64_t& r : c.local.row) r += first;
    c.local.numRows = numRows_;
    c.local.header.rows = numRows_;
    c.local.header.cols = numCols_;
    c.local.header.storedEntries = stats_.globalNnz;
    return c;
  }

  MPI_Comm comm() const { return comm_; }
  /// The rows of C (and of A) each rank owns.
  const RowPartition& partition() const { return rows_; }
  std::int64_t numRows() const { return numRows_; }
  std::int64_t numCols() const { return numCols_; }
  std::int64_t firstRow() const { return rows_.begin(commRank(comm_)); }
  std::int64_t localRows() const { return rows_.rows(commRank(comm_)); }
  const SpgemmOptions& options() const { return handle_->options(); }
  const DistributedSpgemmStats& stats() const { return stats_; }

  // Host-only steps: no device lambdas here (CUDA refuses them in private member functions).
 private:
  void checkInputs(const DistributedHostMatrix& A, const DistributedHostMatrix& B) const {
    int same = MPI_UNEQUAL;
    ARAIOS_MPI_CHECK(MPI_Comm_compare(A.comm, B.comm, &same));
    if (same != MPI_IDENT && same != MPI_CONGRUENT) {
      throw InputError("DistributedSpgemm: A and B live on different communicators; expected the same ranks");
    }
    if (A.numCols() != B.numRows()) {
      throw InputError("DistributedSpgemm: A is " + groupedDigits(A.numRows()) + " x " + groupedDigits(A.numCols()) +
                       " and B is " + groupedDigits(B.numRows()) + " x " + groupedDigits(B.numCols()) +
                       "; expected A's columns to equal B's rows");
    }
    const int ranks = commSize(comm_);
    for (const auto* m : {&A, &B}) {
      const char* name = m == &A ? "A" : "B";
      if (m->partition.ranks() != ranks || m->partition.numRows() != m->numRows()) {
        throw InputError(std::string("DistributedSpgemm: the partition of ") + name + " has " +
                         std::to_string(m->partition.ranks()) + " blocks over " +
                         groupedDigits(m->partition.numRows()) + " rows; expected " + std::to_string(ranks) +
                         " blocks (one per rank) over " + groupedDigits(m->numRows()));
      }
      const std::string who = std::string("araios::DistributedSpgemm (") + name + ")";
      Impl::requireSortedByRow(m->local, who.c_str());
      const std::size_t n = m->local.row.size();
      if (m->local.col.size() != n || m->local.value.size() != n) {
        throw InputError(who + ": " + std::to_string(n) + " rows, " + std::to_string(m->local.col.size()) +
                         " columns and " + std::to_string(m->local.value.size()) +
                         " values; expected one of each per entry");
      }
      const std::int64_t begin = m->firstRow(), end = begin + m->localRows();
      for (std::size_t k = 0; k < n; ++k) {
        const std::int64_t r = m->local.row[k], c = m->local.col[k];
        if (r < begin || r >= end || c < 0 || c >= m->numCols()) {
          throw InputError(who + ": entry " + std::to_string(k) + " at (" + std::to_string(r) + ", " +
                           std::to_string(c) + ") lies outside this rank's rows [" + std::to_string(begin) + ", " +
                           std::to_string(end) + ") of the " + groupedDigits(m->numRows()) + " x " +
                           groupedDigits(m->numCols()) + " matrix; expected entries of this rank's block");
        }
      }
    }
    requireOrdinal(B.numCols(), "columns of B (and C, which keeps global column ids)");
    requireOrdinal(A.localRows(), "rows of A on this rank");
  }

  static void requireOrdinal(std::int64_t count, const std::string& what) {
    if (count > static_cast<std::int64_t>(std::numeric_limits<Ordinal>::max())) {
      throw InputError("DistributedSpgemm: " + groupedDigits(count) + " " + what + " do not fit the " +
                       typeName<Ordinal>() + " ordinal type; expected DistributedSpgemm<Value, std::int64_t, ...> "
                       "(64-bit ordinals)");
    }
  }

  static void requireOffset(std::int64_t count, const std::string& what) {
    if (count > static_cast<std::int64_t>(std::numeric_limits<Offset>::max())) {
      throw InputError("DistributedSpgemm: " + groupedDigits(count) + " " + what + " do not fit the " +
                       typeName<Offset>() + " offset type; expected DistributedSpgemm<Value, Ordinal, "
                       "std::int64_t> (64-bit offsets)");
    }
  }

  /// The owner's side: where each asked row sits in this rank's B (kept for later fetches of new
  /// values), and the rows' lengths, in the order asked.
  std::vector<std::int64_t> planSends(const DistributedHostMatrix& B, const std::vector<std::int64_t>& asked) {
    const std::int64_t begin = B.firstRow(), rows = B.localRows();
    std::vector<std::int64_t> start(rows + 1, 0);
    for (std::int64_t r : B.local.row) ++start[r - begin + 1];
    for (std::int64_t i = 0; i < rows; ++i) start[i + 1] += start[i];
    bLocalNnz_ = static_cast<std::int64_t>(B.local.row.size());
    sendRowStart_.resize(asked.size());
    std::vector<std::int64_t> lengths(asked.size());
    for (std::size_t k = 0; k < asked.size(); ++k) {
      const std::int64_t i = asked[k] - begin;
      if (i < 0 || i >= rows) {
        throw InputError("DistributedSpgemm: asked for row " + std::to_string(asked[k]) + " of B, outside this rank's rows [" +
                         std::to_string(begin) + ", " + std::to_string(begin + rows) +
                         "); expected the same partition of B on every rank");
      }
      sendRowStart_[k] = start[i];
      lengths[k] = start[i + 1] - start[i];
    }
    sendRowLength_ = lengths;
    return lengths;
  }

  /// Per rank, the sum of that rank's consecutive block of `lengths` (blocks of `rowCounts`).
  static std::vector<std::int64_t> blockSums(const std::vector<std::int64_t>& lengths,
                                             const std::vector<std::int64_t>& rowCounts) {
    std::vector<std::int64_t> sums(rowCounts.size(), 0);
    std::size_t k = 0;
    for (std::size_t r = 0; r < rowCounts.size(); ++r) {
      for (std::int64_t j = 0; j < rowCounts[r]; ++j) sums[r] += lengths[k++];
    }
    return sums;
  }

  /// The values of the rows other ranks asked for (and this rank's own), in the order asked.
  std::vector<double> packValues(const DistributedHostMatrix& B) const {
    std::vector<double> out;
    out.reserve(Impl::sumOf(entriesTo_));
    for (std::size_t k = 0; k < sendRowStart_.size(); ++k) {
      out.insert(out.end(), B.local.value.begin() + sendRowStart_[k],
                 B.local.value.begin() + sendRowStart_[k] + sendRowLength_[k]);
    }
    return out;
  }

  template <class View, class Source>
  static void copyToDevice(const View& target, const std::vector<Source>& source) {
    auto host = Kokkos::create_mirror_view(target);
    for (std::size_t k = 0; k < source.size(); ++k) host(k) = static_cast<typename View::value_type>(source[k]);
    Kokkos::deep_copy(target, host);
  }

  /// This rank's rows of A with local row numbers and columns renumbered to positions in `needed`
  /// (monotone: each row keeps its order).
  Csr localA(const DistributedHostMatrix& A, const std::vector<std::int64_t>& needed) const {
    const std::int64_t rows = A.localRows(), first = A.firstRow(), nnz = static_cast<std::int64_t>(A.local.col.size());
    requireOffset(nnz, "entries of A on this rank");
    std::vector<Offset> rowPtr(rows + 1, 0);
    for (std::int64_t r : A.local.row) ++rowPtr[r - first + 1];
    for (std::int64_t i = 0; i < rows; ++i) rowPtr[i + 1] += rowPtr[i];
    std::vector<Ordinal> cols(nnz);
    for (std::int64_t k = 0; k < nnz; ++k) {
      cols[k] = static_cast<Ordinal>(std::lower_bound(needed.begin(), needed.end(), A.local.col[k]) - needed.begin());
    }
    return deviceCsr(rows, static_cast<std::int64_t>(needed.size()), rowPtr, cols, A.local.value, "araios::distributed_spgemm::A");
  }

  /// The fetched rows of B, one per needed row, in ascending global order, global columns.
  Csr fetchedB(const std::vector<std::int64_t>& needed, const std::vector<std::int64_t>& lengths,
               const std::vector<std::int64_t>& columns, const std::vector<double>& values) const {
    const std::int64_t rows = static_cast<std::int64_t>(needed.size());
    requireOffset(static_cast<std::int64_t>(columns.size()), "entries of the rows of B this rank needs");
    std::vector<Offset> rowPtr(rows + 1, 0);
    for (std::int64_t i = 0; i < rows; ++i) rowPtr[i + 1] = rowPtr[i] + static_cast<Offset>(lengths[i]);
    std::vector<Ordinal> cols(columns.begin(), columns.end());
    return deviceCsr(rows, numCols_, rowPtr, cols, values, "araios::distributed_spgemm::B");
  }

  static Csr deviceCsr(std::int64_t rows, std::int64_t cols, const std::vector<Offset>& rowPtr,
                       const std::vector<Ordinal>& colIdx, const std::vector<double>& values, const std::string& label) {
    Csr m;
    m.numRows = static_cast<Ordinal>(rows);
    m.numCols = static_cast<Ordinal>(cols);
    m.rowPtr = decltype(m.rowPtr)(Kokkos::view_alloc(Kokkos::WithoutInitializing, label + "::rowPtr"), rowPtr.size());
    m.colIdx = decltype(m.colIdx)(Kokkos::view_alloc(Kokkos::WithoutInitializing, label + "::colIdx"), colIdx.size());
    m.values = decltype(m.values)(Kokkos::view_alloc(Kokkos::WithoutInitializing, label + "::values"), values.size());
    copyToDevice(m.rowPtr, rowPtr);
    copyToDevice(m.colIdx, colIdx);
    copyToDevice(m.values, values);
    return m;
  }

  template <class T>
  void exchange(int tag, const std::vector<T>& send, const std::vector<std::int64_t>& sendCount, std::vector<T>& recv,
                const std::vector<std::int64_t>& recvCount) {
    timed([&] {
      const auto [sent, received] = Impl::exchangeBlocks(comm_, tag, send, sendCount, recv, recvCount);
      stats_.bytesSent += sent;
      stats_.bytesReceived += received;
    });
  }

  template <class F>
  void timed(F&& f) {
    Kokkos::Timer timer;
    f();
    stats_.commSeconds += timer.seconds();
  }

  void takeLocalStats() {
    stats_.local = handle_->stats();
    stats_.symbolicSeconds = stats_.local.symbolicSeconds;
    stats_.numericSeconds = stats_.local.numericSeconds;
  }

  MPI_Comm comm_;
  RowPartition rows_;
  std::int64_t numRows_ = 0, numCols_ = 0;
  // The routes, kept for fetching new values: rows and entries to and from each rank, and, as
  // the owner, where each row asked for starts in this rank's B and how long it is.
  std::vector<std::int64_t> rowsFrom_, rowsTo_, entriesFrom_, entriesTo_;
  std::vector<std::int64_t> sendRowStart_, sendRowLength_;
  std::int64_t bLocalNnz_ = 0;
  Csr a_, b_;  ///< this rank's rows of A (columns renumbered) and the fetched rows of B
  std::shared_ptr<Handle> handle_;
  DistributedSpgemmStats stats_;
};

}  // namespace araios
