#pragma once
// The one way a format gives its CSR back: a pass that writes each row's entry count, an
// exclusive scan that turns the counts into row offsets, and a pass that gathers each row's
// entries into place. Each format supplies only its two row functors; the allocation, the
// scan and the read of nnz live here.
#include <araios/detail/device_memory.hpp>
#include <araios/detail/for_each_row_entry.hpp>
#include <araios/formats/csr/csr.hpp>
#include <araios/primitives/bucket_sort.hpp>
#include <araios/types.hpp>

#include <Kokkos_Core.hpp>

#include <cstddef>
#include <cstdint>
#include <string>

namespace araios::Impl {

/// The sum of ptr's counts in 64 bits, whatever the offset type.
template <class PtrView>
struct SumCounts64 {
  PtrView ptr;
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t i, std::int64_t& sum) const { sum += static_cast<std::int64_t>(ptr(i)); }
};

/// Turns ptr(0..n-1) = per-row counts (ptr(n) = 0) into row offsets in place, and returns the
/// total. With offsets narrower than 64 bits the counts are first summed in 64 bits, and a
/// total past the offset type is refused (InputError naming 64-bit offsets, `what` the
/// structure) before the scan could wrap and before the caller allocates for it.
template <class ExecSpace, class PtrView>
typename PtrView::value_type countsToOffsets(const ExecSpace& exec, const PtrView& ptr, const std::string& label,
                                             const std::string& what = "the scanned row counts") {
  using Offset = typename PtrView::value_type;
  if constexpr (sizeof(Offset) < sizeof(std::int64_t)) {
    std::int64_t total = 0;
    Kokkos::parallel_reduce(label + "::count64",
                            Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>(
                                exec, 0, static_cast<std::int64_t>(ptr.extent(0))),
                            SumCounts64<PtrView>{ptr}, total);
    checkedOffsetCount<Offset>(total, what);
  }
  const Offset n = static_cast<Offset>(ptr.extent(0));
  Kokkos::parallel_scan(label, Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<Offset>>(exec, 0, n),
                        ExclusiveScan<Offset, PtrView>{ptr});
  Offset total = 0;
  Kokkos::deep_copy(exec, total, Kokkos::subview(ptr, n - 1));
  exec.fence();
  return total;
}

/// CSR of numRows x numCols from two passes that launch their own kernels: writeLengths(rowPtr)
/// stores row r's entry count in rowPtr(r) (rowPtr arrives zeroed), gather(csr) copies row r's
/// entries to csr.colIdx and csr.values from csr.rowPtr(r) on. For formats whose rows come in
/// pieces (SC-CSR's ranges); the others use csrFromRowFunctors or csrFromRowEntries.
template <class Csr, class ExecSpace, class WriteLengths, class Gather>
Csr csrFromRowPasses(const ExecSpace& exec, typename Csr::ordinal_type numRows, typename Csr::ordinal_type numCols,
                     const std::string& label, const WriteLengths& writeLengths, const Gather& gather) {
  Csr csr;
  csr.numRows = numRows;
  csr.numCols = numCols;
  csr.rowPtr = decltype(csr.rowPtr)("araios::csr::rowPtr", static_cast<std::size_t>(numRows) + 1);
  writeLengths(csr.rowPtr);
  const std::string what = "CSR of " + groupedDigits(numRows) + " rows (" + label + ")";
  const auto nnz = countsToOffsets(exec, csr.rowPtr, label + "::scan", what);
  requireMemory(exec,
                static_cast<std::int64_t>(nnz) *
                    static_cast<std::int64_t>(sizeof(typename Csr::ordinal_type) + sizeof(typename Csr::value_type)),
                "building the " + what);
  csr.colIdx = decltype(csr.colIdx)(Kokkos::view_alloc(Kokkos::WithoutInitializing, "araios::csr::colIdx"), nnz);
  csr.values = decltype(csr.values)(Kokkos::view_alloc(Kokkos::WithoutInitializing, "araios::csr::values"), nnz);
  gather(csr);
  return csr;
}

/// csrFromRowPasses with one thread per row in each pass: makeLengths(rowPtr) and
/// makeGather(csr) return the row functors (operator()(Ordinal row)).
template <class Csr, class ExecSpace, class MakeLengths, class MakeGather>
Csr csrFromRowFunctors(const ExecSpace& exec, typename Csr::ordinal_type numRows, typename Csr::ordinal_type numCols,
                       const std::string& label, const MakeLengths& makeLengths, const MakeGather& makeGather) {
  using RowPolicy = Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<typename Csr::ordinal_type>>;
  return csrFromRowPasses<Csr>(
      exec, numRows, numCols, label,
      [&](const decltype(Csr::rowPtr)& rowPtr) {
        Kokkos::parallel_for(label + "::lengths", RowPolicy(exec, 0, numRows), makeLengths(rowPtr));
      },
      [&](const Csr& csr) { Kokkos::parallel_for(label + "::gather", RowPolicy(exec, 0, numRows), makeGather(csr)); });
}

/// csrFromRowPasses with a thread per row writing the lengths (makeLengths(rowPtr), as in
/// csrFromRowFunctors) and the entries copied by forEachRowEntry, so that a long row is shared
/// by a team: makeSpans(csr) gives the rows' spans of CSR positions (numRows of them, in the
/// order the format keeps its rows) and makeEntry(csr) the body(row, k, t) that copies the
/// format's entry t of that row to CSR position k.
template <class Csr, class ExecSpace, class MakeLengths, class MakeSpans, class MakeEntry>
Csr csrFromRowEntries(const ExecSpace& exec, typename Csr::ordinal_type numRows, typename Csr::ordinal_type numCols,
                      const std::string& label, const MakeLengths& makeLengths, const MakeSpans& makeSpans,
                      const MakeEntry& makeEntry) {
  using RowPolicy = Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<typename Csr::ordinal_type>>;
  return csrFromRowPasses<Csr>(
      exec, numRows, numCols, label,
      [&](const decltype(Csr::rowPtr)& rowPtr) {
        Kokkos::parallel_for(label + "::lengths", RowPolicy(exec, 0, numRows), makeLengths(rowPtr));
      },
      [&](const Csr& csr) { forEachRowEntry(label + "::gather", exec, numRows, makeSpans(csr), makeEntry(csr)); });
}

}  // namespace araios::Impl
