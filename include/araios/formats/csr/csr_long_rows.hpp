#pragma once
// The long rows of Accurate mode on CSR (csr_accurate.hpp): rows of more than
// kAccurateLanesLongestRow entries, which the lanes kernel skips. Each is cut into chunks of
// kAccurateChunkEntries entries; a team sums a chunk (a thread per strided share of it, the
// threads' expansions joined by a tree in scratch) into the workspace, and a team per long row
// then joins its chunks' expansions and stores the row. A row of a million entries is thus
// read by 489 teams at once, and a matrix without long rows pays nothing.
//
// The list of long rows and where each one's chunks start is found once, on the device, by
// an operator (CsrAccurateState) or by a bare call.
#include <araios/detail/expansion_row_sum.hpp>
#include <araios/detail/long_row_list.hpp>
#include <araios/formats/csr/csr_strided_expansion.hpp>
#include <araios/detail/spmv_dispatch.hpp>
#include <araios/detail/team_parallel_for.hpp>
#include <araios/detail/team_scratch.hpp>
#include <araios/formats/csr/csr.hpp>
#include <araios/formats/csr/csr_accurate_path.hpp>

#include <Kokkos_Core.hpp>

#include <cstdint>

namespace araios::Impl {

/// Entries of a long row one team sums (256 threads of 8 entries on a GPU).
constexpr std::int64_t kAccurateChunkEntries = 2048;

/// A's long rows, those of more than kAccurateLanesLongestRow entries (ascending), and for
/// each the index of its first chunk (firstPiece); firstPiece(count) is the number of chunks.
template <class Csr>
using CsrLongRows = LongRowList<typename Csr::ordinal_type, typename Csr::device_type>;

template <class Csr>
KOKKOS_INLINE_FUNCTION std::int64_t csrRowLength(const Csr& A, std::int64_t i) {
  return static_cast<std::int64_t>(A.rowPtr(i + 1) - A.rowPtr(i));
}

/// A's longest row and the sum of the squares of its row lengths (for their spread, as
/// MatrixFeatures counts it).
struct CsrRowLengthSums {
  std::int64_t longest;
  std::int64_t squares;
};

template <class Csr>
struct CsrRowLengthReduction {
  using value_type = CsrRowLengthSums;
  Csr A;
  KOKKOS_INLINE_FUNCTION void init(value_type& sums) const { sums.longest = sums.squares = 0; }
  KOKKOS_INLINE_FUNCTION void operator()(typename Csr::ordinal_type i, value_type& sums) const {
    const std::int64_t length = csrRowLength(A, i);
    if (length > sums.longest) sums.longest = length;
    sums.squares += length * length;
  }
  template <class Dst, class Src>
  KOKKOS_INLINE_FUNCTION static void joinInto(Dst& d, const Src& s) {
    if (s.longest > d.longest) d.longest = s.longest;
    d.squares += s.squares;
  }
  // Kokkos 3.x joins through volatile references, Kokkos 4 through plain ones.
  KOKKOS_INLINE_FUNCTION void join(value_type& d, const value_type& s) const { joinInto(d, s); }
  KOKKOS_INLINE_FUNCTION void join(volatile value_type& d, const volatile value_type& s) const { joinInto(d, s); }
};

/// A's longest row and sum of squared row lengths, in one reduction (zeros for a matrix
/// without rows).
template <class ExecSpace, class Csr>
CsrRowLengthSums csrRowLengthSums(const ExecSpace& exec, const Csr& A) {
  CsrRowLengthSums sums{0, 0};
  if (A.numRows == 0) return sums;
  Kokkos::parallel_reduce("araios::spmv::csr_row_length_sums",
                          Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<typename Csr::ordinal_type>>(exec, 0, A.numRows),
                          CsrRowLengthReduction<Csr>{A}, sums);
  return sums;
}

/// CSR's row lengths, for the list of long rows (detail/long_row_list.hpp).
template <class Csr>
struct CsrRowLengths {
  Csr A;
  std::int64_t numRows;
  KOKKOS_INLINE_FUNCTION std::int64_t longLength(std::int64_t i) const { return csrRowLength(A, i); }
  KOKKOS_INLINE_FUNCTION std::int64_t pieceLength(std::int64_t i) const { return csrRowLength(A, i); }
};

/// A's long rows, found on `exec` (a reduction, two scans and one value read back), for a
/// matrix whose longest row holds `longestRow` entries: none, without a launch, when that row
/// is not long.
template <class ExecSpace, class Csr>
CsrLongRows<Csr> csrLongRows(const ExecSpace& exec, const Csr& A, std::int64_t longestRow) {
  if (longestRow <= kAccurateLanesLongestRow) return {};
  return listLongRows<typename Csr::ordinal_type, typename Csr::device_type>(
      exec, CsrRowLengths<Csr>{A, static_cast<std::int64_t>(A.numRows)}, kAccurateLanesLongestRow,
      kAccurateChunkEntries, "araios::spmv::csr_accurate");
}

/// Values of workspace the chunks' expansions take.
template <class Value>
std::int64_t csrLongRowsWorkspaceValues(std::int64_t chunks) {
  if (chunks == 0) return 0;
  const std::int64_t bytes = static_cast<std::int64_t>(alignof(ExpansionRowSum<Value>)) +
                             chunks * static_cast<std::int64_t>(sizeof(ExpansionRowSum<Value>));
  return (bytes + static_cast<std::int64_t>(sizeof(Value)) - 1) / static_cast<std::int64_t>(sizeof(Value));
}

/// Team size of the chunk kernel (a power of two): on a GPU 256 threads of 8 entries each.
template <class ExecSpace>
constexpr int csrChunkTeamSize() {
  return isHostSpace<ExecSpace>() ? 1 : 256;
}

template <class ExecSpace, class Csr, class XView>
struct CsrLongRowChunkKernel {
  using Value = typename Csr::value_type;
  using Member = typename Kokkos::TeamPolicy<ExecSpace>::member_type;
  using Partial = ExpansionRowSum<Value>;
  Csr A;
  XView x;
  CsrLongRows<Csr> list;
  Kokkos::View<Partial*, typename Csr::device_type, Kokkos::MemoryUnmanaged> chunkSums;
  static constexpr int kBatch = 8;

  KOKKOS_INLINE_FUNCTION void operator()(const Member& team) const {
    Partial* const sums = scratchArray<Partial>(team, team.team_size());
    const std::int64_t c = team.league_rank();
    const std::int64_t lo = list.rowOfPiece(c);
    const std::int64_t row = list.rows(lo), rowEnd = static_cast<std::int64_t>(A.rowPtr(row + 1));
    const std::int64_t begin = static_cast<std::int64_t>(A.rowPtr(row)) + (c - list.firstPiece(lo)) * kAccurateChunkEntries;
    const std::int64_t end = begin + kAccurateChunkEntries < rowEnd ? begin + kAccurateChunkEntries : rowEnd;
    const int me = team.team_rank(), size = team.team_size();
    // A thread's entries of the chunk (8 on a GPU) are loaded together, then summed.
    sums[me] = stridedExpansion<kBatch>(A, x, begin + me, end, size);
    team.team_barrier();
    for (int width = size / 2; width >= 1; width /= 2) {
      if (me < width) sums[me].join(sums[me + width]);
      team.team_barrier();
    }
    if (me == 0) chunkSums(c) = sums[0];
  }
};

/// A team per long row joins its chunks' expansions: thread t those of chunks t, t + size, ...,
/// then the threads' by a tree in scratch. The order of the joins cannot change a decided value
/// (ExpansionRowSum::join), and a row of a million entries has 489 chunks to join.
template <class ExecSpace, class Csr, class YView>
struct CsrLongRowJoinKernel {
  using Value = typename Csr::value_type;
  using Member = typename Kokkos::TeamPolicy<ExecSpace>::member_type;
  using Partial = ExpansionRowSum<Value>;
  CsrLongRows<Csr> list;
  Kokkos::View<Partial*, typename Csr::device_type, Kokkos::MemoryUnmanaged> chunkSums;
  YView y;
  Value alpha, beta;

  KOKKOS_INLINE_FUNCTION void operator()(const Member& team) const {
    Partial* const sums = scratchArray<Partial>(team, team.team_size());
    const std::int64_t r = team.league_rank();
    const int me = team.team_rank(), size = team.team_size();
    Partial sum;
    for (std::int64_t c = list.firstPiece(r) + me; c < list.firstPiece(r + 1); c += size) sum.join(chunkSums(c));
    sums[me] = sum;
    team.team_barrier();
    for (int width = size / 2; width >= 1; width /= 2) {
      if (me < width) sums[me].join(sums[me + width]);
      team.team_barrier();
    }
    if (me == 0) sums[0].store(y, list.rows(r), alpha, beta);
  }
};

/// The expansion pass of Accurate mode over A's long rows, `work` holding at least
/// csrLongRowsWorkspaceValues(list.pieces) values.
template <class ExecSpace, class Csr, class XView, class YView>
void csrLongRowsPass(const ExecSpace& exec, const Csr& A, const CsrLongRows<Csr>& list, const XView& x,
                     const YView& y, typename Csr::value_type alpha, typename Csr::value_type beta,
                     const Kokkos::View<typename Csr::value_type*, typename Csr::device_type>& work) {
  using Value = typename Csr::value_type;
  using Partial = ExpansionRowSum<Value>;
  if (list.count == 0) return;
  checkWorkspace(work, csrLongRowsWorkspaceValues<Value>(list.pieces), "CSR long rows (Accurate mode)");
  const std::uintptr_t address =
      (reinterpret_cast<std::uintptr_t>(work.data()) + alignof(Partial) - 1) / alignof(Partial) * alignof(Partial);
  const Kokkos::View<Partial*, typename Csr::device_type, Kokkos::MemoryUnmanaged> chunkSums(
      reinterpret_cast<Partial*>(address), list.pieces);
  const int teamSize = csrChunkTeamSize<ExecSpace>();
  teamParallelFor("araios::spmv::csr_accurate_chunks",
                  Kokkos::TeamPolicy<ExecSpace, Kokkos::LaunchBounds<csrChunkTeamSize<ExecSpace>(), 2>>(
                      exec, static_cast<int>(list.pieces), teamSize)
                      .set_scratch_size(0, Kokkos::PerTeam(scratchArrayBytes<Partial>(teamSize))),
                  CsrLongRowChunkKernel<ExecSpace, Csr, XView>{A, x, list, chunkSums});
  teamParallelFor("araios::spmv::csr_accurate_long_rows",
                  Kokkos::TeamPolicy<ExecSpace, Kokkos::LaunchBounds<csrChunkTeamSize<ExecSpace>(), 2>>(
                      exec, static_cast<int>(list.count), teamSize)
                      .set_scratch_size(0, Kokkos::PerTeam(scratchArrayBytes<Partial>(teamSize))),
                  CsrLongRowJoinKernel<ExecSpace, Csr, YView>{list, chunkSums, y, alpha, beta});
}

}  // namespace araios::Impl
