#pragma once
// The registry of Araios's SpMV kernels: one row per kernel, read by the operator
// (araios/operator.hpp), the `araios` command, araios-bench, the tests and the reproducibility
// table of docs/reproducibility.md (`araios kernels --markdown` prints it; a test checks that
// the document holds it). Adding a kernel is its folder under formats/, one row here and its
// test; a new storage format also adds its FormatId and its builder (kernel_builders.hpp).
//
// A row says what the kernel promises in each mode (araios/mode.hpp):
//   runToRun       the same bits on every run, on one backend and thread count;
//   threadCounts   the same bits at any OpenMP thread count;
//   backends       the same bits on Serial, OpenMP and CUDA;
//   correctlyRounded  each y_i is the correctly rounded value.
// Deterministic and Accurate promise all of them but correct rounding (Accurate promises that
// too) for every kernel; Fast promises what the kernel's fast path allows, said in `fastNote`.
#include <araios/error.hpp>
#include <araios/mode.hpp>
#include <araios/spmv_options.hpp>

#include <array>
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace araios {

/// The storage formats, one folder each under araios/formats/.
enum class FormatId { Coo, Csr, Csc, Ell, Hyb, Dia, Jds, Sell, Brc, Brcp, ScCsr, Vab };
inline constexpr std::size_t kFormatCount = 12;

inline constexpr std::array<std::string_view, kFormatCount> kFormatNames = {
    "coo", "csr", "csc", "ell", "hyb", "dia", "jds", "sell", "brc", "brcp", "sc-csr", "vab"};

inline std::string_view formatName(FormatId format) { return kFormatNames[static_cast<std::size_t>(format)]; }

/// Every kernel, by the names the command line uses; Auto lets the operator choose.
enum class Kernel {
  Auto,
  Coo,
  CsrScalar,
  CsrVector,
  CsrMerge,
  Csc,
  Ell,
  Hyb,
  Dia,
  Jds,
  Sell,
  Brc,
  Brcp,
  BrcpAtomic,
  ScCsr,
  Vab,
};

/// What a kernel promises in one mode.
struct ModePromise {
  bool runToRun = true;
  bool threadCounts = true;
  bool backends = true;
  bool correctlyRounded = false;
};

struct KernelEntry {
  Kernel kernel;
  std::string_view name;
  FormatId format;
  SpmvAlgorithm algorithm;  ///< passed to the format's SpMV
  std::string_view description;
  ModePromise fast;
  std::string_view fastNote;  ///< why Fast promises what it does

  ModePromise promise(Mode mode) const {
    if (mode == Mode::Fast) return fast;
    if (mode == Mode::Accurate) return {true, true, true, true};
    return {true, true, true, false};
  }
};

namespace Impl {
inline constexpr ModePromise kNoPromise{false, false, false, false};
inline constexpr ModePromise kDeterministicPromise{true, true, true, false};
}  // namespace Impl

/// The kernels. Their order is the order of every listing (CLI help, benchmark, docs).
inline const std::array<KernelEntry, 15>& kernelRegistry() {
  using Impl::kDeterministicPromise;
  using Impl::kNoPromise;
  static const std::array<KernelEntry, 15> rows = {{
      {Kernel::Coo, "coo", FormatId::Coo, SpmvAlgorithm::Auto,
       "COO, runs of a row's stored entries summed, atomic adds into y", kNoPromise,
       "atomics, a sum per run of a row's entries; on a CPU the deterministic row walk, where the entries are "
       "sorted by row"},
      {Kernel::CsrScalar, "csr-scalar", FormatId::Csr, SpmvAlgorithm::CsrScalar, "CSR, one thread per row",
       kDeterministicPromise, "runs the deterministic kernel"},
      {Kernel::CsrVector, "csr-vector", FormatId::Csr, SpmvAlgorithm::CsrVector,
       "CSR, vector lanes per row with a lane reduction", kNoPromise,
       "Kokkos reduction order; on CUDA the deterministic warp kernel"},
      {Kernel::CsrMerge, "csr-merge", FormatId::Csr, SpmvAlgorithm::CsrMerge,
       "CSR, equal work per thread along the merge path; split rows joined by a fixed tree", kDeterministicPromise,
       "runs the deterministic kernel"},
      {Kernel::Csc, "csc", FormatId::Csc, SpmvAlgorithm::Auto,
       "CSC, equal shares of the entries per thread, atomic adds into y", kNoPromise, "atomics"},
      {Kernel::Ell, "ell", FormatId::Ell, SpmvAlgorithm::Auto,
       "ELLPACK, rows padded to the longest, column-major, one thread per row", kDeterministicPromise,
       "runs the deterministic kernel"},
      {Kernel::Hyb, "hyb", FormatId::Hyb, SpmvAlgorithm::Auto,
       "ELL for the first K entries of each row, COO for the rest (Bell & Garland)", kNoPromise,
       "atomics on the COO part, a sum per run of a row's entries; on a CPU the deterministic row walk"},
      {Kernel::Dia, "dia", FormatId::Dia, SpmvAlgorithm::Auto, "diagonals, column-major, one thread per row",
       kDeterministicPromise, "runs the deterministic kernel"},
      {Kernel::Jds, "jds", FormatId::Jds, SpmvAlgorithm::Auto,
       "jagged diagonals, rows sorted by length, one thread per sorted row", kDeterministicPromise,
       "runs the deterministic kernel"},
      {Kernel::Sell, "sell", FormatId::Sell, SpmvAlgorithm::Auto, "sliced ELL (SELL-C-sigma), C = 32",
       kDeterministicPromise, "runs the deterministic kernel"},
      {Kernel::Brc, "brc", FormatId::Brc, SpmvAlgorithm::Auto, "blocked row-column (Ashari et al.), atomic adds into y",
       kNoPromise, "atomics; on a CPU the deterministic kernel"},
      {Kernel::Brcp, "brcp", FormatId::Brcp, SpmvAlgorithm::Auto,
       "BRC filled row by row with a warp segmented sum, deterministic (Yang et al.)", kDeterministicPromise,
       "runs the deterministic kernel"},
      {Kernel::BrcpAtomic, "brcp-atomic", FormatId::Brcp, SpmvAlgorithm::BrcpAtomic,
       "BRCP as published: rows spanning blocks completed with atomic adds", kNoPromise,
       "atomics, once a row spans 3+ blocks or beta != 0"},
      {Kernel::ScCsr, "sc-csr", FormatId::ScCsr, SpmvAlgorithm::Auto,
       "segmented, combined CSR (Liang): rows merged by length range", kDeterministicPromise,
       "runs the deterministic kernel"},
      {Kernel::Vab, "vab", FormatId::Vab, SpmvAlgorithm::Auto, "vertical aligned blocks of 4 (Liang); one kernel, no workspace",
       kDeterministicPromise, "runs the deterministic kernel"},
  }};
  return rows;
}

inline std::vector<std::string> kernelNames() {
  std::vector<std::string> names;
  for (const KernelEntry& k : kernelRegistry()) names.emplace_back(k.name);
  return names;
}

/// Whether `kernel` sums each row in CSR order in Deterministic mode (docs/reproducibility.md,
/// "Canonical orders"): these kernels give the bits of csr-scalar on a matrix whose rows are
/// sorted by column, whichever of them runs. The others (csr-vector's 32 lanes, BRC, BRCP,
/// SC-CSR, VAB) each have an order of their own.
inline bool sumsInCsrOrder(Kernel kernel) {
  switch (kernel) {
    case Kernel::Coo:
    case Kernel::CsrScalar:
    case Kernel::Csc:
    case Kernel::Ell:
    case Kernel::Hyb:
    case Kernel::Dia:
    case Kernel::Jds:
    case Kernel::Sell: return true;
    default: return false;
  }
}

/// The row of `kernel` (not Auto).
inline const KernelEntry& kernelEntry(Kernel kernel) {
  for (const KernelEntry& k : kernelRegistry()) {
    if (k.kernel == kernel) return k;
  }
  throw InputError("no kernel entry for auto; expected a concrete kernel");
}

/// "auto" or a kernel's name; anything else is an InputError that lists the names.
inline Kernel parseKernel(std::string_view name) {
  if (name == "auto") return Kernel::Auto;
  std::string names;
  for (const KernelEntry& k : kernelRegistry()) {
    if (k.name == name) return k.kernel;
    names += (names.empty() ? "" : ", ") + std::string(k.name);
  }
  throw InputError("unknown kernel '" + std::string(name) + "'; expected auto or one of " + names);
}

inline std::string_view toString(Kernel kernel) {
  return kernel == Kernel::Auto ? std::string_view("auto") : kernelEntry(kernel).name;
}

}  // namespace araios
