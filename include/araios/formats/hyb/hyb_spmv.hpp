#pragma once
// HYB SpMV (Bell & Garland, SC '09, section "Hybrid format"), by mode:
//   Fast           the ELL kernel over the ELL part finishes every row's first K entries and
//                  applies alpha and beta through storeRow; then the COO part adds
//                  alpha * a_ij * x_j into y with atomics, a sum per run of a row's entries
//                  (coo_run_scatter.hpp). The two kernels run in order on the
//                  same execution space instance, so no fence separates them. The atomic
//                  additions make the low bits of rows with COO entries depend on scheduling.
//                  On a CPU, where atomic additions cost more than the row walk
//                  (fastModeScattersAtomically), Fast mode runs the Deterministic walk.
//   Deterministic  a row's ELL slots and then its COO entries (the COO part is sorted by row,
//                  in CSR order) summed in the blocked CSR order (RoundedRowSum), each product
//                  and sum rounded, and stored once: the row's entries in CSR order, the bits
//                  of csr-scalar. The walk of detail/rows_in_order.hpp: a thread per row, and
//                  on a GPU a whole team reads the COO entries of a long row, or many teams
//                  sum its chunks.
//   Accurate       the same walk with the Accurate accumulators (row_sum.hpp): correctly rounded.
//                  An operator runs the CSR Accurate product on the CSR matrix it was built
//                  from instead (csr_accurate.hpp): the same bits, and a long row is no
//                  longer one thread's walk.
#include <araios/detail/row_sum.hpp>
#include <araios/detail/rows_in_order.hpp>
#include <araios/detail/spmv_dispatch.hpp>
#include <araios/formats/coo/coo_spmv.hpp>
#include <araios/formats/ell/ell_spmv.hpp>
#include <araios/formats/hyb/hyb.hpp>

#include <cstdint>
#include <type_traits>

namespace araios::Impl {

/// HYB's rows for the walk in CSR order (detail/rows_in_order.hpp): a row's ELL slots, walked
/// by the row's thread, then its COO entries, which a long row's team reads on a GPU.
template <class Hyb, class Tail>
struct HybRowWalk {
  using Value = typename Hyb::value_type;
  using Offset = typename Hyb::size_type;
  decltype(Hyb::ell) ell;
  Tail tail;
  std::int64_t numRows;
  template <class Acc, class XView>
  KOKKOS_INLINE_FUNCTION void head(Acc& acc, std::int64_t i, const XView& x) const {
    addEllSlots(ell, acc, static_cast<typename Hyb::ordinal_type>(i), x);
  }
  /// The ELL slots of a row with COO entries, the only rows summed by chunks or groups: a row spills
  /// into COO only once its ELL slots are full.
  KOKKOS_INLINE_FUNCTION std::int64_t headLength(std::int64_t /*i*/) const {
    return static_cast<std::int64_t>(ell.width);
  }
  /// Entry k of row i's ELL slots.
  KOKKOS_INLINE_FUNCTION void headEntry(std::int64_t i, std::int64_t k, Value& a, std::int64_t& column) const {
    using Ordinal = typename Hyb::ordinal_type;
    const auto s = ell.slot(static_cast<Ordinal>(i), static_cast<Ordinal>(k));
    a = ell.values(s);
    column = static_cast<std::int64_t>(ell.colIdx(s));
  }
  KOKKOS_INLINE_FUNCTION Offset begin(std::int64_t i) const { return tail.begin(i); }
  KOKKOS_INLINE_FUNCTION Offset end(std::int64_t i) const { return tail.end(i); }
  KOKKOS_INLINE_FUNCTION void entry(Offset q, Value& a, std::int64_t& column) const { tail.entry(q, a, column); }
};

template <class ExecSpace, class Value, class Ordinal, class Offset, class Device>
struct Spmv<ExecSpace, HybMatrix<Value, Ordinal, Offset, Device>> {
  using Hyb = HybMatrix<Value, Ordinal, Offset, Device>;
  /// How the rows are walked, by the lengths of their COO parts (detail/rows_in_order.hpp),
  /// planned once for an operator whatever its mode.
  using State = RowWalkPlan<Device>;

  static auto rowWalk(const ExecSpace& exec, const Hyb& A) {
    const auto tail = cooRowWalk(exec, A.coo);
    return HybRowWalk<Hyb, std::decay_t<decltype(tail)>>{A.ell, tail, A.numRows};
  }

  template <class Csr>
  static State prepare(const ExecSpace& exec, const Hyb& A, const Csr& /*source*/, Mode /*mode*/) {
    const State plan = planRowWalkOf<Device>(exec, [&] { return rowWalk(exec, A); });
    exec.fence();  // a row order sorted for the plan (on a GPU) dies with this scope
    return plan;
  }

  template <class XView, class YView>
  static void apply(const ExecSpace& exec, const Hyb& A, const XView& x, const YView& y, Value alpha, Value beta,
                    const SpmvOptions& options, const Kokkos::View<Value*, Device>& work,
                    const State& plan = State()) {
    if (options.algorithm != SpmvAlgorithm::Auto) refuseAlgorithm(options.algorithm, "HYB");
    if (options.mode == Mode::Fast && fastModeScattersAtomically<ExecSpace>()) {
      // Also the beta pass for the rows held entirely in COO (their ELL slots are all padding).
      ellRowSpmv(exec, A.ell, x, y, alpha, beta, Mode::Fast, "araios::spmv::hyb::ell");
      scatterCooRuns(exec, A.coo, x, y, alpha, "araios::spmv::hyb::coo");
      return;
    }
    const auto rows = rowWalk(exec, A);
    const State walk = plan.ready() ? plan : planRowWalk<Device>(exec, rows);
    withRowAccumulator<Value>(exec, options.mode, y, beta, [&](auto tag, const auto& yv) {
      walkRowsInOrder<typename decltype(tag)::type, Ordinal>(exec, rows, x, yv, alpha, beta, "araios::spmv::hyb::rows",
                                                             walk, work);
    });
    if (!rows.tail.order.identity) exec.fence();  // the sorted order dies with this scope
  }
};

}  // namespace araios::Impl
