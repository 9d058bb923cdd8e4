#pragma once
// The numeric phase's row kernels: for each row i of C in a list, one team sums the products
// of row i into C's values, C's pattern being known.
//
// Order. The team walks row i of A entry by entry (k in A's stored order); for each a_ik its
// threads share the entries of row k of B. Those have distinct columns, so no two threads touch
// the same entry of C at once. In Deterministic and Accurate mode a team barrier follows each
// a_ik: every c_ij then receives its products in A's order, one at a time, whatever the team
// size, which is the documented canonical order (and the one-thread teams of the host follow it
// trivially). Fast mode drops the barriers and adds with atomics.
//
// Where the sums live (the Method):
//   Dense    an on-chip array over the row's column span, indexed by column - lo;
//   Shared   C's row (columns and values) on chip, the slot by binary search;
//   Global   C's values themselves, the slot by binary search in C's columns.
// Accurate mode keeps, for every entry of C in the chunk, a two-term expansion with an error
// bound (ExpansionRowSum) in global memory, updated in the same order as Deterministic; each
// entry then either proves its correctly rounded value or is written NaN for the exact pass
// (accurate_entries.hpp).
#include <araios/detail/expansion_row_sum.hpp>
#include <araios/detail/spmv_dispatch.hpp>
#include <araios/mode.hpp>
#include <araios/spgemm/spgemm_tuning.hpp>
#include <araios/spgemm/spgemm_views.hpp>
#include <araios/spgemm/symbolic_rows.hpp>
#include <araios/spgemm/team_tools.hpp>

#include <Kokkos_Core.hpp>

#include <cstdint>

namespace araios::Impl {

template <class Value, class Ordinal, class Offset, class ExecSpace, int Method, Mode M>
struct NumericRows {
  using Device = typename ExecSpace::device_type;
  using Member = typename Kokkos::TeamPolicy<ExecSpace>::member_type;
  using Scratch = typename ExecSpace::scratch_memory_space;
  static constexpr bool kOneThread = kOneThreadTeams<ExecSpace>;
  static constexpr bool kOrdered = M != Mode::Fast;
  static constexpr bool kAccurate = M == Mode::Accurate;

  SpgemmViews<Value, Ordinal, Offset, Device> v;
  Kokkos::View<const Ordinal*, Device> rows;
  SpgemmRowInfo<Device> info;
  Ordinal r0;
  std::int64_t capacity;  ///< values of the dense array, or entries of the on-chip row
  /// Accurate mode: one expansion per entry of C from cBase on.
  Kokkos::View<ExpansionRowSum<Value>*, Device> expansions;
  Offset cBase = 0;

  static std::size_t scratchBytes(std::int64_t capacity, int teamSize) {
    const std::size_t batch = kOrdered && !kOneThread ? batchBytes(teamSize) : 0;
    if constexpr (kAccurate) {
      return batch;
    } else if constexpr (Method == kDenseSmall || Method == kDenseLarge) {
      return Kokkos::View<Value*, Scratch>::shmem_size(capacity) + batch;
    } else if constexpr (Method == kSharedSmall || Method == kSharedLarge) {
      return Kokkos::View<Value*, Scratch>::shmem_size(capacity) + Kokkos::View<Ordinal*, Scratch>::shmem_size(capacity) +
             batch;
    } else {
      return batch;
    }
  }

  KOKKOS_INLINE_FUNCTION static void add(Value& sum, Value a, Value b) {
    if constexpr (kOrdered || kOneThread) {
      accumulateProduct(sum, a, b);
    } else {
      Kokkos::atomic_add(&sum, unfusedProduct(a, b));
    }
  }

  /// The team scratch besides the accumulator: in the ordered modes, a batch of row i's entries
  /// of A (their k and value and the bounds of row k of B), read by the team at once.
  static std::size_t batchBytes(int teamSize) {
    return Kokkos::View<Ordinal*, Scratch>::shmem_size(teamSize) + Kokkos::View<Value*, Scratch>::shmem_size(teamSize) +
           2 * Kokkos::View<Offset*, Scratch>::shmem_size(teamSize);
  }

  /// Sends each product of row i to slot(j) (an index into the accumulator) and adds it there.
  template <class Slot, class Accumulate>
  KOKKOS_INLINE_FUNCTION void sumProducts(const Member& m, Ordinal i, const Slot& slot, const Accumulate& accumulate) const {
    const Offset aBegin = v.aPtr(i), aEnd = v.aPtr(i + 1);
    if constexpr (kOneThread) {
      for (Offset p = aBegin; p < aEnd; ++p) {
        const Ordinal k = v.aCol(p);
        const Value a = v.aVal(p);
        for (Offset q = v.bPtr(k); q < v.bPtr(k + 1); ++q) accumulate(slot(v.bCol(q)), a, v.bVal(q));
      }
    } else if constexpr (!kOrdered) {
      if (aEnd - aBegin >= static_cast<Offset>(m.team_size())) {
        // Row i of A at least as long as the team: each thread walks its own rows of B (the
        // additions are atomic, so any order will do).
        Kokkos::parallel_for(Kokkos::TeamThreadRange(m, aBegin, aEnd), [&](const Offset p) {
          const Ordinal k = v.aCol(p);
          const Value a = v.aVal(p);
          for (Offset q = v.bPtr(k); q < v.bPtr(k + 1); ++q) accumulate(slot(v.bCol(q)), a, v.bVal(q));
        });
      } else {
        for (Offset p = aBegin; p < aEnd; ++p) {
          const Ordinal k = v.aCol(p);
          const Value a = v.aVal(p);
          Kokkos::parallel_for(Kokkos::TeamThreadRange(m, v.bPtr(k), v.bPtr(k + 1)),
                               [&](const Offset q) { accumulate(slot(v.bCol(q)), a, v.bVal(q)); });
        }
      }
    } else {
      // In A's order, a barrier after each entry. The entries' k, values and the bounds of
      // their rows of B are read a team-size batch at a time, together, so that walking a long
      // row of A waits on one memory round trip per batch rather than per entry.
      const int batch = m.team_size();
      Kokkos::View<Ordinal*, Scratch, Kokkos::MemoryUnmanaged> kView(m.team_scratch(0), batch);
      Kokkos::View<Value*, Scratch, Kokkos::MemoryUnmanaged> aView(m.team_scratch(0), batch);
      Kokkos::View<Offset*, Scratch, Kokkos::MemoryUnmanaged> beginView(m.team_scratch(0), batch);
      Kokkos::View<Offset*, Scratch, Kokkos::MemoryUnmanaged> endView(m.team_scratch(0), batch);
      for (Offset first = aBegin; first < aEnd; first += batch) {
        const int n = aEnd - first < batch ? static_cast<int>(aEnd - first) : batch;
        Kokkos::parallel_for(Kokkos::TeamThreadRange(m, n), [&](const int t) {
          const Ordinal k = v.aCol(first + t);
          kView(t) = k;
          aView(t) = v.aVal(first + t);
          beginView(t) = v.bPtr(k);
          endView(t) = v.bPtr(k + 1);
        });
        m.team_barrier();
        for (int t = 0; t < n; ++t) {
          const Value a = aView(t);
          Kokkos::parallel_for(Kokkos::TeamThreadRange(m, beginView(t), endView(t)),
                               [&](const Offset q) { accumulate(slot(v.bCol(q)), a, v.bVal(q)); });
          m.team_barrier();
        }
      }
    }
    m.team_barrier();
  }

  KOKKOS_INLINE_FUNCTION void operator()(const Member& m) const {
    const Ordinal i = rows(m.league_rank());
    const Offset cBegin = v.cPtr(i), cEnd = v.cPtr(i + 1);
    const int n = static_cast<int>(cEnd - cBegin);
    if constexpr (kAccurate) {
      Kokkos::parallel_for(Kokkos::TeamThreadRange(m, cBegin, cEnd),
                           [&](const Offset c) { expansions(c - cBase) = ExpansionRowSum<Value>(); });
      m.team_barrier();
      sumProducts(
          m, i, [&](Ordinal j) { return lowerBound(v.cCol, cBegin, cEnd, j); },
          [&](Offset c, Value a, Value b) { expansions(c - cBase).add(a, b); });
      Kokkos::parallel_for(Kokkos::TeamThreadRange(m, cBegin, cEnd), [&](const Offset c) {
        expansions(c - cBase).store(v.cVal, c, Value(1), Value(0));
      });
    } else if constexpr (Method == kDenseSmall || Method == kDenseLarge) {
      const std::int64_t lo = info.lo(i - r0);
      const int span = static_cast<int>(info.hi(i - r0) - lo);
      Kokkos::View<Value*, Scratch, Kokkos::MemoryUnmanaged> scratch(m.team_scratch(0), capacity);
      Value* sums = scratch.data();
      Kokkos::parallel_for(Kokkos::TeamThreadRange(m, span), [&](const int s) { sums[s] = sumIdentity<Value>(); });
      m.team_barrier();
      sumProducts(
          m, i, [&](Ordinal j) { return static_cast<int>(j - lo); },
          [&](int s, Value a, Value b) { add(sums[s], a, b); });
      Kokkos::parallel_for(Kokkos::TeamThreadRange(m, cBegin, cEnd),
                           [&](const Offset c) { v.cVal(c) = sums[v.cCol(c) - lo]; });
    } else if constexpr (Method == kSharedSmall || Method == kSharedLarge) {
      Kokkos::View<Value*, Scratch, Kokkos::MemoryUnmanaged> sumView(m.team_scratch(0), capacity);
      Kokkos::View<Ordinal*, Scratch, Kokkos::MemoryUnmanaged> colView(m.team_scratch(0), capacity);
      Value* sums = sumView.data();
      Ordinal* cols = colView.data();
      Kokkos::parallel_for(Kokkos::TeamThreadRange(m, n), [&](const int s) {
        sums[s] = sumIdentity<Value>();
        cols[s] = v.cCol(cBegin + s);
      });
      m.team_barrier();
      sumProducts(
          m, i, [&](Ordinal j) { return lowerBound(cols, n, j); }, [&](int s, Value a, Value b) { add(sums[s], a, b); });
      Kokkos::parallel_for(Kokkos::TeamThreadRange(m, n), [&](const int s) { v.cVal(cBegin + s) = sums[s]; });
    } else {
      Kokkos::parallel_for(Kokkos::TeamThreadRange(m, cBegin, cEnd), [&](const Offset c) { v.cVal(c) = sumIdentity<Value>(); });
      m.team_barrier();
      sumProducts(
          m, i, [&](Ordinal j) { return lowerBound(v.cCol, cBegin, cEnd, j); },
          [&](Offset c, Value a, Value b) { add(v.cVal(c), a, b); });
    }
  }
};

}  // namespace araios::Impl
