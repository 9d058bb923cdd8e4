#pragma once
// The symbolic phase's row kernels: for each row i of C in a list, one team finds the distinct
// columns of row i's products. Counting (Fill = false) writes their number to counts(i + 1);
// filling (Fill = true) writes them, sorted, to C's columns from cPtr(i) on. Counting and
// filling run the same code, so they agree on every row.
//
//   Bitmap and Windowed: the span [lo, hi) of the row's columns is covered by windows of
//   `capacity` bits (one window for Bitmap rows); in each, the products' columns set their
//   bits (an atomic OR: the order does not matter), then the set bits are counted or read out
//   in order through a team scan of the words' bit counts.
//   Hash: the columns go into an on-chip hash set of `capacity` slots; filling then compacts
//   the keys, sorts them (bitonic) and writes them.
#include <araios/spgemm/spgemm_tuning.hpp>
#include <araios/spgemm/spgemm_views.hpp>
#include <araios/spgemm/team_tools.hpp>

#include <Kokkos_Core.hpp>

#include <cstdint>

namespace araios::Impl {

/// Per row of a chunk (indexed by row - r0): the products, and the span [lo, hi) of the columns
/// they reach.
template <class Device>
struct SpgemmRowInfo {
  Kokkos::View<std::int64_t*, Device> products, lo, hi;
};

template <class Value, class Ordinal, class Offset, class ExecSpace, int Method, bool Fill>
struct SymbolicRows {
  using Device = typename ExecSpace::device_type;
  using Member = typename Kokkos::TeamPolicy<ExecSpace>::member_type;
  static constexpr bool kOneThread = kOneThreadTeams<ExecSpace>;
  static constexpr bool kHash = Method == kHashSmall || Method == kHashLarge;

  SpgemmViews<Value, Ordinal, Offset, Device> v;
  Kokkos::View<const Ordinal*, Device> rows;  ///< the rows of this launch
  SpgemmRowInfo<Device> info;
  Ordinal r0;                                 ///< the chunk's first row
  Kokkos::View<std::int64_t*, Device> counts; ///< counting: row i's count goes to counts(i + 1)
  std::int64_t capacity;                      ///< bits of a window, or slots of the hash table

  /// Team scratch for one row.
  static std::size_t scratchBytes(std::int64_t capacity) {
    if constexpr (kHash) {
      // The table, and as much again for the sort.
      return 2 * Kokkos::View<Ordinal*, typename ExecSpace::scratch_memory_space>::shmem_size(capacity);
    } else {
      return Kokkos::View<std::uint32_t*, typename ExecSpace::scratch_memory_space>::shmem_size(capacity / 32);
    }
  }

  /// Calls visit(q) for every entry q of B that row i's products read, in any order and from
  /// any thread: the team shares each row k of B when row i of A is short, and shares row i of
  /// A (each thread walking its rows of B alone) when it is at least as long as the team, so
  /// that a row of A with many entries does not walk them one after another. narrow(k, qBegin,
  /// qEnd) may shrink row k's range first.
  template <class Narrow, class Visit>
  KOKKOS_INLINE_FUNCTION void forEachProduct(const Member& m, Offset aBegin, Offset aEnd, const Narrow& narrow,
                                             const Visit& visit) const {
    if (aEnd - aBegin >= static_cast<Offset>(m.team_size()) && m.team_size() > 1) {
      Kokkos::parallel_for(Kokkos::TeamThreadRange(m, aBegin, aEnd), [&](const Offset p) {
        const Ordinal k = v.aCol(p);
        Offset qBegin = v.bPtr(k), qEnd = v.bPtr(k + 1);
        narrow(k, qBegin, qEnd);
        for (Offset q = qBegin; q < qEnd; ++q) visit(q);
      });
    } else {
      for (Offset p = aBegin; p < aEnd; ++p) {
        const Ordinal k = v.aCol(p);
        Offset qBegin = v.bPtr(k), qEnd = v.bPtr(k + 1);
        narrow(k, qBegin, qEnd);
        Kokkos::parallel_for(Kokkos::TeamThreadRange(m, qBegin, qEnd), visit);
      }
    }
  }

  KOKKOS_INLINE_FUNCTION void operator()(const Member& m) const {
    const Ordinal i = rows(m.league_rank());
    if constexpr (kHash) {
      hashRow(m, i);
    } else {
      bitmapRow(m, i);
    }
  }

  KOKKOS_INLINE_FUNCTION void bitmapRow(const Member& m, Ordinal i) const {
    using Words = Kokkos::View<std::uint32_t*, typename ExecSpace::scratch_memory_space, Kokkos::MemoryUnmanaged>;
    Words scratch(m.team_scratch(0), capacity / 32);
    std::uint32_t* bits = scratch.data();
    const std::int64_t lo = info.lo(i - r0), hi = info.hi(i - r0);
    const Offset aBegin = v.aPtr(i), aEnd = v.aPtr(i + 1);
    std::int64_t written = 0;  // columns of row i found in the windows before this one
    for (std::int64_t w0 = lo; w0 < hi; w0 += capacity) {
      const std::int64_t width = hi - w0 < capacity ? hi - w0 : capacity;
      const int words = static_cast<int>((width + 31) / 32);
      Kokkos::parallel_for(Kokkos::TeamThreadRange(m, words), [&](const int w) { bits[w] = 0; });
      m.team_barrier();
      const bool wholeSpan = w0 == lo && width == hi - lo;
      forEachProduct(m, aBegin, aEnd, [&](const Ordinal k, Offset& qBegin, Offset& qEnd) {
        if (!wholeSpan) {
          qBegin = lowerBound(v.bCol, qBegin, qEnd, static_cast<Ordinal>(w0));
          qEnd = lowerBound(v.bCol, qBegin, qEnd, static_cast<Ordinal>(w0 + width));
        }
        (void)k;
      }, [&](const Offset q) {
        const std::int64_t rel = static_cast<std::int64_t>(v.bCol(q)) - w0;
        const std::uint32_t bit = std::uint32_t(1) << (rel & 31);
        if constexpr (kOneThread) {
          bits[rel >> 5] |= bit;
        } else {
          Kokkos::atomic_or(&bits[rel >> 5], bit);
        }
      });
      m.team_barrier();
      std::int64_t found = 0;
      Kokkos::parallel_reduce(
          Kokkos::TeamThreadRange(m, words), [&](const int w, std::int64_t& sum) { sum += popCount32(bits[w]); },
          found);
      if constexpr (Fill) {
        const std::int64_t base = static_cast<std::int64_t>(v.cPtr(i)) + written;
        Kokkos::parallel_scan(Kokkos::TeamThreadRange(m, words), [&](const int w, std::int64_t& before, const bool last) {
          std::uint32_t word = bits[w];
          if (last) {
            std::int64_t at = base + before;
            while (word != 0) {
              const int b = lowestBit32(word);
              v.cCol(at++) = static_cast<Ordinal>(w0 + 32 * static_cast<std::int64_t>(w) + b);
              word &= word - 1;
            }
          }
          before += popCount32(bits[w]);
        });
      }
      written += found;
      m.team_barrier();  // the next window clears the words
    }
    if constexpr (!Fill) {
      Kokkos::single(Kokkos::PerTeam(m), [&]() { counts(static_cast<std::int64_t>(i) + 1) = written; });
    }
  }

  KOKKOS_INLINE_FUNCTION void hashRow(const Member& m, Ordinal i) const {
    using Keys = Kokkos::View<Ordinal*, typename ExecSpace::scratch_memory_space, Kokkos::MemoryUnmanaged>;
    const std::int64_t products = info.products(i - r0);
    const int slots = static_cast<int>(nextPowerOfTwo(2 * products));  // <= capacity
    Keys tableView(m.team_scratch(0), capacity);
    Keys sortView(m.team_scratch(0), capacity);
    Ordinal* table = tableView.data();
    Ordinal* sorted = sortView.data();
    const std::uint32_t mask = static_cast<std::uint32_t>(slots - 1);
    Kokkos::parallel_for(Kokkos::TeamThreadRange(m, slots), [&](const int s) { table[s] = emptyKey<Ordinal>(); });
    m.team_barrier();
    const Offset aBegin = v.aPtr(i), aEnd = v.aPtr(i + 1);
    forEachProduct(m, aBegin, aEnd, [&](Ordinal, Offset&, Offset&) {},
                   [&](const Offset q) { insertKey<kOneThread>(table, mask, v.bCol(q)); });
    m.team_barrier();
    std::int64_t found = 0;
    Kokkos::parallel_reduce(
        Kokkos::TeamThreadRange(m, slots),
        [&](const int s, std::int64_t& sum) { sum += table[s] != emptyKey<Ordinal>() ? 1 : 0; }, found);
    if constexpr (Fill) {
      Kokkos::parallel_scan(Kokkos::TeamThreadRange(m, slots), [&](const int s, int& before, const bool last) {
        const bool used = table[s] != emptyKey<Ordinal>();
        if (last && used) sorted[before] = table[s];
        before += used ? 1 : 0;
      });
      const int n = static_cast<int>(nextPowerOfTwo(found > 0 ? found : 1));
      Kokkos::parallel_for(Kokkos::TeamThreadRange(m, static_cast<int>(found), n),
                           [&](const int s) { sorted[s] = emptyKey<Ordinal>(); });
      m.team_barrier();
      teamBitonicSort(m, sorted, n);
      const Offset base = v.cPtr(i);
      Kokkos::parallel_for(Kokkos::TeamThreadRange(m, static_cast<int>(found)),
                           [&](const int s) { v.cCol(base + s) = sorted[s]; });
    } else {
      Kokkos::single(Kokkos::PerTeam(m), [&]() { counts(static_cast<std::int64_t>(i) + 1) = found; });
    }
  }
};

}  // namespace araios::Impl
