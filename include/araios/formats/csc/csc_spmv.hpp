#pragma once
// CSC SpMV, by mode:
//   Fast           after y = beta*y, each team scatters alpha*a_ij*x_j into y atomically for
//                  an equal share of the entries (CscScatterKernel): a column of a million
//                  entries is spread over many teams, where one thread per column would walk it
//                  alone. The order of the additions into a row depends on scheduling.
//   Deterministic  no atomics: the entries are grouped by row (a bucket sort, ties by storage
//                  position, which is increasing column order), and each row's entries are
//                  summed in that order from -0.0, each product and sum rounded
//                  (RoundedRowSum): the order, and so the bits, of csr-scalar on the same
//                  (column-sorted) matrix. The walk of detail/rows_in_order.hpp: a thread per
//                  row, and on a GPU a whole team reads a long row.
//   Accurate       an operator runs the CSR Accurate product on the CSR matrix it was built
//                  from (csr_accurate.hpp); a bare matrix, the Deterministic walk with the
//                  Accurate accumulators (row_sum.hpp). Either is correctly rounded.
// The grouping by row (each entry's column and the row order) is a transpose of the index
// arrays, dearer than the product: an operator builds it once, as its state
// (detail/spmv_state.hpp), when its mode is Deterministic; a bare matrix, or an operator built
// for another mode and applied in Deterministic mode, allocates and sorts it on every call.
#include <araios/detail/compress.hpp>
#include <araios/detail/device_memory.hpp>
#include <araios/detail/host_space.hpp>
#include <araios/detail/light_parallel_for.hpp>
#include <araios/detail/row_sum.hpp>
#include <araios/detail/rows_in_order.hpp>
#include <araios/detail/spmv_dispatch.hpp>
#include <araios/detail/team_parallel_for.hpp>
#include <araios/formats/coo/coo_row_order.hpp>
#include <araios/formats/csc/csc.hpp>
#include <araios/formats/csr/csr.hpp>

#include <cstdint>
#include <string>

namespace araios::Impl {

/// Entries one team of the Fast kernel scatters: on a GPU eight per thread of 128, read
/// coalesced; on a CPU one thread's run, long enough to amortise finding its first column.
template <class ExecSpace>
constexpr int cscScatterEntriesPerTeam() {
  return isHostSpace<ExecSpace>() ? 4096 : 1024;
}
template <class ExecSpace>
constexpr int cscScatterTeamSize() {
  return isHostSpace<ExecSpace>() ? 1 : 128;
}

/// The column that holds entry k: the last j in [lo, hi] with colPtr(j) <= k (an empty column
/// starts where the next one does, so it is never the last).
template <class ColPtr>
KOKKOS_INLINE_FUNCTION std::int64_t cscColumnOf(const ColPtr& colPtr, std::int64_t k, std::int64_t lo,
                                                std::int64_t hi) {
  while (lo < hi) {
    const std::int64_t mid = lo + (hi - lo + 1) / 2;
    if (static_cast<std::int64_t>(colPtr(mid)) <= k) {
      lo = mid;
    } else {
      hi = mid - 1;
    }
  }
  return lo;
}

/// Fast mode: each team scatters an equal share of the entries, alpha*a_ij*x_j into y_i by
/// atomic adds. The team finds the columns of its first and last entries. On a GPU its threads
/// take the share's short columns a column each and its long ones an entry each; on a CPU the
/// one thread steps through the columns as it walks the entries.
template <class ExecSpace, class Csc, class XView, class YView>
struct CscScatterKernel {
  using Value = typename Csc::value_type;
  using Member = typename Kokkos::TeamPolicy<ExecSpace>::member_type;
  Csc A;
  XView x;
  YView y;
  Value alpha;
  static constexpr std::int64_t kEntriesPerTeam = cscScatterEntriesPerTeam<ExecSpace>();
  static constexpr bool kOnHost = isHostSpace<ExecSpace>();
  /// Entries of a column in a share up to which one GPU thread adds them all.
  static constexpr std::int64_t kShortPiece = 8;

  KOKKOS_INLINE_FUNCTION void operator()(const Member& team) const {
    const std::int64_t nnz = static_cast<std::int64_t>(A.values.extent(0));
    const std::int64_t first = static_cast<std::int64_t>(team.league_rank()) * kEntriesPerTeam;
    const std::int64_t last = first + kEntriesPerTeam < nnz ? first + kEntriesPerTeam : nnz;
    const std::int64_t lastColumn = static_cast<std::int64_t>(A.numCols) - 1;
    const std::int64_t firstColumn = cscColumnOf(A.colPtr, first, 0, lastColumn);
    const auto scatter = [&](std::int64_t k, std::int64_t j) {
      Kokkos::atomic_add(&y(A.rowIdx(k)), alpha * (A.values(k) * static_cast<Value>(x(j))));
    };
    if constexpr (kOnHost) {
      std::int64_t j = firstColumn;
      for (std::int64_t k = first; k < last; ++k) {
        while (static_cast<std::int64_t>(A.colPtr(j + 1)) <= k) ++j;
        scatter(k, j);
      }
    } else {
      // First the share's short column pieces, a thread each: on a banded matrix neighbouring
      // threads then add into neighbouring rows and the atomics coalesce. Then, only where the
      // share holds a long piece, its entries a thread each (read coalesced, each finding its
      // column between the share's first and last), so that no thread walks a long column.
      const std::int64_t endColumn = cscColumnOf(A.colPtr, last - 1, firstColumn, lastColumn);
      const auto piece = [&](std::int64_t j, std::int64_t& begin, std::int64_t& end) {
        begin = static_cast<std::int64_t>(A.colPtr(j));
        end = static_cast<std::int64_t>(A.colPtr(j + 1));
        begin = begin > first ? begin : first;
        end = end < last ? end : last;
        return end - begin <= kShortPiece;
      };
      int longPieces = 0;
      Kokkos::parallel_reduce(
          Kokkos::TeamThreadRange(team, firstColumn, endColumn + 1),
          [&](const std::int64_t j, int& count) {
            std::int64_t begin, end;
            if (!piece(j, begin, end)) {
              ++count;
              return;
            }
            for (std::int64_t k = begin; k < end; ++k) scatter(k, j);
          },
          longPieces);
      if (longPieces == 0) return;
      Kokkos::parallel_for(Kokkos::TeamThreadRange(team, first, last), [&](const std::int64_t k) {
        const std::int64_t j = cscColumnOf(A.colPtr, k, firstColumn, endColumn);
        std::int64_t begin, end;
        if (!piece(j, begin, end)) scatter(k, j);
      });
    }
  }
};

/// CSC's entries grouped by row: what the deterministic and accurate products walk. The
/// columns are kept in the order itself, so that a product gathers only the values (which the
/// user may change between products) through the permutation.
template <class Ordinal, class Offset, class Device>
struct CscRows {
  Kokkos::View<Ordinal*, Device> colOfPosition;  ///< the column of the entry at each position of the order
  RowOrder<Offset, Device> order;                 ///< the entries of each row, by increasing column
  RowWalkPlan<Device> walk;                       ///< how the product walks these rows (rows_in_order.hpp)

  /// Bytes of the grouping of nnz entries in `rows` rows: a column and an entry per position,
  /// and the row offsets.
  static std::int64_t bytesFor(std::int64_t nnz, std::int64_t rows) {
    return nnz * static_cast<std::int64_t>(sizeof(Ordinal)) +
           (nnz + rows + 1) * static_cast<std::int64_t>(sizeof(Offset));
  }
  /// Bytes while it is built: the column of each stored entry as well.
  static std::int64_t peakBytesFor(std::int64_t nnz, std::int64_t rows) {
    return bytesFor(nnz, rows) + nnz * static_cast<std::int64_t>(sizeof(Ordinal));
  }

  bool ready() const { return order.ptr.extent(0) != 0; }
  std::int64_t bytes() const {
    return ready() ? bytesFor(static_cast<std::int64_t>(colOfPosition.extent(0)),
                              static_cast<std::int64_t>(order.ptr.extent(0)) - 1) +
                         walk.bytes()
                   : 0;
  }
  /// Values of workspace a product needs (RowWalkPlan::workspaceValues).
  std::int64_t workspaceValues() const { return walk.workspaceValues(); }
  /// How a product walks the rows, in words (RowWalkPlan::describe); nothing when not built.
  std::string describe(SpmvAlgorithm algorithm) const { return ready() ? walk.describe(algorithm) : std::string(); }
};

/// columns(q) = colOfEntry(perm(q)): the columns put in the order of the grouping.
template <class Columns, class Perm>
struct ColumnsInOrder {
  Columns columns;
  Columns colOfEntry;
  Perm perm;
  template <class Index>
  KOKKOS_INLINE_FUNCTION void operator()(Index q) const {
    columns(q) = colOfEntry(perm(q));
  }
};

template <class ExecSpace, class Value, class Ordinal, class Offset, class Device>
struct Spmv<ExecSpace, CscMatrix<Value, Ordinal, Offset, Device>> {
  using Csc = CscMatrix<Value, Ordinal, Offset, Device>;
  using State = CscRows<Ordinal, Offset, Device>;

  /// A's rows through the grouping `rows`, for the walk in CSR order (detail/rows_in_order.hpp).
  static auto rowWalk(const Csc& A, const State& rows) {
    return rowOrderWalk<ColumnsAt::Position>(A.values, rows.colOfPosition, rows.order, A.numRows);
  }

  static State groupByRow(const ExecSpace& exec, const Csc& A, const std::string& label) {
    State rows;
    const auto colOfEntry = expand<Ordinal>(exec, A.colPtr, A.nnz(), label + "::colOfEntry");
    rows.order = rowOrder<Offset>(exec, A.numRows, A.rowIdx, Kokkos::View<Offset*, Device>(), label + "::rowOrder");
    rows.colOfPosition = Kokkos::View<Ordinal*, Device>(
        Kokkos::view_alloc(Kokkos::WithoutInitializing, label + "::colOfPosition"), A.nnz());
    const std::string gather = label + "::colOfPosition";
    lightParallelFor(gather.c_str(), exec, static_cast<std::int64_t>(A.nnz()),
                     ColumnsInOrder<decltype(colOfEntry), decltype(rows.order.perm)>{rows.colOfPosition, colOfEntry,
                                                                                   rows.order.perm});
    rows.walk = planRowWalk<Device>(exec, rowWalk(A, rows));
    exec.fence();  // colOfEntry dies with this scope
    return rows;
  }

  /// The grouping by row, for an operator in Deterministic mode, the one mode whose products
  /// read it there (an operator's Accurate mode runs on its CSR matrix: kernel_builders.hpp).
  static State prepare(const ExecSpace& exec, const Csc& A, const CsrMatrix<Value, Ordinal, Offset, Device>&,
                       Mode mode) {
    if (mode != Mode::Deterministic) return State();
    requireMemory(exec, State::peakBytesFor(static_cast<std::int64_t>(A.nnz()), static_cast<std::int64_t>(A.numRows)),
                  buildingWhat("CSC's row order", A.numRows, A.numCols));
    return groupByRow(exec, A, "araios::operator::csc");
  }

  template <class XView, class YView>
  static void apply(const ExecSpace& exec, const Csc& A, const XView& x, const YView& y, Value alpha, Value beta,
                    const SpmvOptions& options, const Kokkos::View<Value*, Device>& work, const State& state) {
    if (options.algorithm != SpmvAlgorithm::Auto) refuseAlgorithm(options.algorithm, "CSC");
    if (options.mode == Mode::Fast) {
      scaleByBeta(exec, y, beta);
      const std::int64_t teams = (static_cast<std::int64_t>(A.nnz()) + cscScatterEntriesPerTeam<ExecSpace>() - 1) /
                                 cscScatterEntriesPerTeam<ExecSpace>();
      if (teams == 0) return;
      teamParallelFor(
          "araios::spmv::csc",
          Kokkos::TeamPolicy<ExecSpace>(exec, static_cast<int>(teams), cscScatterTeamSize<ExecSpace>()),
          CscScatterKernel<ExecSpace, Csc, XView, YView>{A, x, y, alpha});
      return;
    }
    const State rows = state.ready() ? state : groupByRow(exec, A, "araios::spmv::csc");
    withRowAccumulator<Value>(exec, options.mode, y, beta, [&](auto tag, const auto& yv) {
      walkRowsInOrder<typename decltype(tag)::type, Ordinal>(exec, rowWalk(A, rows), x, yv, alpha, beta,
                                                             "araios::spmv::csc_rows", rows.walk, work);
    });
    if (!state.ready()) exec.fence();  // the row order made for this call dies with this scope
  }
};

}  // namespace araios::Impl
