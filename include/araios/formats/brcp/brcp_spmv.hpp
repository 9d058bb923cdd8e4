#pragma once
// BRCP SpMV, the portable kernel (Algorithms 2 and 3 of Yang et al., 2019; the order of the
// operations is defined in brcp_kernel_parts.hpp). One team thread per block: on a GPU a
// thread is a warp of 32 vector lanes, one lane per slot row; on a CPU a thread runs the 32
// "lanes" as loops. The warp's scan goes through team scratch memory with a fixed step order,
// so every backend computes the same bits; backends/cuda/brcp_spmv_cuda.hpp does the same
// with register shuffles.
//
// Algorithms: auto is the deterministic kernel (rows that span blocks are completed by a
// second pass in block order); brcp-atomic is the paper's, which completes them with atomic
// adds (non-deterministic once beta != 0 or three or more blocks touch a row).
//
// Modes: Fast and Deterministic run the deterministic kernel (brcp-atomic keeps its atomics in
// Fast mode only). Accurate: the CSR Accurate product on the matrix's CSR form
// (csr_accurate.hpp): an operator's, the CSR matrix it was built from (kernel_builders.hpp);
// a bare matrix is converted on the call.
#include <araios/detail/backend_kernel.hpp>
#include <araios/detail/spmv_dispatch.hpp>
#include <araios/types.hpp>
#include <araios/detail/team_parallel_for.hpp>
#include <araios/formats/brcp/brcp.hpp>
#include <araios/formats/brcp/brcp_convert.hpp>
#include <araios/formats/brcp/brcp_kernel_parts.hpp>
#include <araios/formats/csr/csr.hpp>
#include <araios/formats/csr/csr_accurate.hpp>

#include <Kokkos_Core.hpp>

#include <cstdint>

namespace araios::Impl {

template <class ExecSpace, class Brcp, class XView, class YView, bool AtomicSplit>
struct BrcpBlockKernel {
  using Value = typename Brcp::value_type;
  using Offset = typename Brcp::size_type;
  using Ordinal = typename Brcp::ordinal_type;
  using Member = typename Kokkos::TeamPolicy<ExecSpace>::member_type;
  using Scratch = Kokkos::View<Value*, typename ExecSpace::scratch_memory_space, Kokkos::MemoryUnmanaged>;
  static constexpr int H = Brcp::blockRows;

  Brcp A;
  XView x;
  BrcpSegmentStore<Brcp, YView, AtomicSplit> store;

  /// Two arrays of H values per team thread: the scan reads one and writes the other.
  static std::size_t scratchBytes(int teamSize) { return Scratch::shmem_size(2 * H * teamSize); }

  KOKKOS_INLINE_FUNCTION void operator()(const Member& team) const {
    Scratch scratch(team.team_scratch(0), 2 * H * team.team_size());
    const Offset block = static_cast<Offset>(team.league_rank()) * team.team_size() + team.team_rank();
    if (block >= store.numBlocks) return;
    Value* scan = scratch.data() + 2 * H * team.team_rank();
    Value* next = scan + H;
    const Offset begin = A.blockPtr(block);
    const Offset width = (A.blockPtr(block + 1) - begin) / H;
    const Offset slotRow0 = block * H;

    Kokkos::parallel_for(Kokkos::ThreadVectorRange(team, H),
                         [&](const int lane) { scan[lane] = brcpLaneSum(A, x, begin, width, lane); });
    for (int d = 1; d < H; d *= 2) {
      Kokkos::parallel_for(Kokkos::ThreadVectorRange(team, H), [&](const int lane) {
        const bool sameRow = lane >= d && A.rowPerm(slotRow0 + lane - d) == A.rowPerm(slotRow0 + lane);
        next[lane] = sameRow ? unfusedSum(scan[lane - d], scan[lane]) : scan[lane];
      });
      Value* const done = scan;
      scan = next;
      next = done;
    }
    Kokkos::parallel_for(Kokkos::ThreadVectorRange(team, H), [&](const int lane) {
      const Ordinal length = A.rowSegLen(slotRow0 + lane);
      if (length != 0) store(block, lane, length, scan[lane + length - 1]);
    });
  }
};

/// The block pass as the portable Kokkos kernel: one team thread per block.
template <class ExecSpace>
struct BrcpPortableBlockPass {
  /// Blocks per team on a GPU: 4 warps make 128-thread thread blocks, so the 32 resident
  /// blocks an SM allows can fill all its 64 warp slots (one warp per team would cap occupancy
  /// at half). On a CPU a team is one thread and one block.
  static constexpr int kGpuBlocksPerTeam = 4;

  template <bool AtomicSplit, class Brcp, class XView, class Store>
  static void launch(const ExecSpace& exec, const Brcp& A, const XView& x, const Store& store) {
    using Kernel = BrcpBlockKernel<ExecSpace, Brcp, XView, typename Store::y_view, AtomicSplit>;
    const std::int64_t numBlocks = A.numBlocks();
    const int teamSize = isHostSpace<ExecSpace>() ? 1 : kGpuBlocksPerTeam;
    const int vectorLength = isHostSpace<ExecSpace>() ? 1 : Brcp::blockRows;
    const int league = checkedNarrow<int>((numBlocks + teamSize - 1) / teamSize, "number of BRCP teams");
    Kokkos::TeamPolicy<ExecSpace> policy(exec, league, teamSize, vectorLength);
    policy.set_scratch_size(0, Kokkos::PerTeam(Kernel::scratchBytes(teamSize)));
    teamParallelFor(AtomicSplit ? "araios::spmv::brcp_atomic" : "araios::spmv::brcp", policy,
                    Kernel{A, x, store});
  }
};

/// The block pass on `exec`: the backend's hand-written one where it has one
/// (BackendKernel<BrcpBlockPass, ExecSpace>) unless portableOnly, else the portable kernel.
template <bool AtomicSplit, class ExecSpace, class Brcp, class XView, class Store>
void brcpBlockPass(const ExecSpace& exec, const Brcp& A, const XView& x, const Store& store, bool portableOnly) {
  if (A.numBlocks() == 0) return;
  if constexpr (hasBackendKernel<BrcpBlockPass, ExecSpace>) {
    if (!portableOnly) {
      BackendKernel<BrcpBlockPass, ExecSpace>::template launch<AtomicSplit>(exec, A, x, store);
      return;
    }
  }
  BrcpPortableBlockPass<ExecSpace>::template launch<AtomicSplit>(exec, A, x, store);
}

template <class ExecSpace, class Value, class Ordinal, class Offset, class Device>
struct Spmv<ExecSpace, BrcpMatrix<Value, Ordinal, Offset, Device>> {
  using Brcp = BrcpMatrix<Value, Ordinal, Offset, Device>;

  static std::int64_t workspaceValues(const Brcp& A) { return brcpWorkspaceValues(A); }

  template <class XView, class YView>
  static void apply(const ExecSpace& exec, const Brcp& A, const XView& x, const YView& y, Value alpha, Value beta,
                    const SpmvOptions& options, const Kokkos::View<Value*, Device>& work) {
    const bool atomicSplit = brcpAtomicSplit(options);
    if (options.mode == Mode::Accurate) {
      csrAccurateSpmv(exec, csrFromBrcp(exec, A), x, y, alpha, beta, work);
      return;
    }
    checkWorkspace(work, workspaceValues(A), "BRCP");
    // The atomic variant scales the split rows by beta before the blocks add into them; the
    // deterministic one completes them from the partials after the blocks.
    if (atomicSplit) {
      brcpOutsideRows(exec, A, y, alpha, beta, true, work);
      brcpBlockPass<true>(exec, A, x, BrcpSegmentStore<Brcp, YView, true>{A, y, alpha, beta, A.numBlocks(), work},
                          options.portableOnly);
    } else {
      brcpBlockPass<false>(exec, A, x, BrcpSegmentStore<Brcp, YView, false>{A, y, alpha, beta, A.numBlocks(), work},
                           options.portableOnly);
      brcpOutsideRows(exec, A, y, alpha, beta, false, work);
    }
  }
};

}  // namespace araios::Impl
