#pragma once
// Every SpMV kernel the command line (and the benchmark) can run, by name. Each entry turns a
// CSR matrix into the kernel's format and hands back a callable product, so callers handle
// every format the same way. A new format adds one entry to kernelInfos() and one branch to
// prepareSpmv().
#include <araios/araios.hpp>

#include <Kokkos_Core.hpp>

#include <functional>
#include <string>
#include <vector>

namespace araios::cli {

struct KernelInfo {
  const char* name;
  const char* format;  ///< the storage format the kernel runs on
  const char* description;
};

inline const std::vector<KernelInfo>& kernelInfos() {
  static const std::vector<KernelInfo> infos = {
      {"coo", "coo", "COO, one thread per stored entry, atomic adds into y"},
      {"csr-scalar", "csr", "CSR, one thread per row"},
      {"csr-vector", "csr", "CSR, vector lanes per row with a lane reduction"},
      {"csc", "csc", "CSC, one thread per column, atomic adds into y"},
      {"ell", "ell", "ELLPACK, rows padded to the longest, column-major, one thread per row"},
      {"hyb", "hyb", "ELL for the first K entries of each row, COO for the rest (Bell & Garland)"},
      {"dia", "dia", "diagonals, column-major, one thread per row"},
      {"jds", "jds", "jagged diagonals, rows sorted by length, one thread per sorted row"},
      {"sell", "sell", "sliced ELL (SELL-C-sigma), C = 32"},
      {"brc", "brc", "blocked row-column (Ashari et al.), atomic adds into y"},
      {"brcp", "brcp", "BRC filled row by row with a warp segmented sum, deterministic (Yang et al.)"},
      {"brcp-atomic", "brcp", "BRCP as published: rows spanning blocks completed with atomic adds"},
      {"sc-csr", "sc-csr", "segmented, combined CSR (Liang): rows merged by length range"},
      {"vab", "vab", "vertical aligned blocks of 4 (Liang), two phases"},
  };
  return infos;
}

inline std::vector<std::string> kernelNames() {
  std::vector<std::string> names;
  for (const auto& k : kernelInfos()) names.push_back(k.name);
  return names;
}

template <class ExecSpace, class Value>
struct PreparedSpmv {
  using Vector = Kokkos::View<Value*, typename ExecSpace::device_type>;
  std::string kernel;
  std::int64_t bytes = 0;        ///< memory held by the format's arrays
  std::int64_t storedSlots = 0;  ///< stored entries including padding; / nnz gives the padding ratio
  double convertSeconds = 0;     ///< time to build the format from CSR
  std::function<void(const Vector& x, const Vector& y, Value alpha, Value beta)> run;
  /// The same product in a given mode (run uses SpmvOptions' default, Deterministic).
  std::function<void(const Vector& x, const Vector& y, Value alpha, Value beta, Mode mode)> runInMode;
};

namespace detail {

template <class ExecSpace, class Value, class Matrix>
void bind(PreparedSpmv<ExecSpace, Value>& p, const ExecSpace& exec, const Matrix& matrix, SpmvOptions options,
          bool portableOnly) {
  options.portableOnly = portableOnly;
  p.bytes = matrix.bytes();
  p.storedSlots = matrix.storedSlots();
  p.run = [=](auto x, auto y, Value a, Value b) { spmv(exec, matrix, x, y, a, b, options); };
  p.runInMode = [=](auto x, auto y, Value a, Value b, Mode mode) {
    SpmvOptions withMode = options;
    withMode.mode = mode;
    spmv(exec, matrix, x, y, a, b, withMode);
  };
}

}  // namespace detail

/// Builds `kernel`'s format from CSR (timed) and binds its product. Padded formats may refuse
/// the matrix with PaddingError unless formatOptions.force is set. portableOnly selects the
/// portable Kokkos kernel where a backend has a hand-tuned one.
template <class ExecSpace, class Value, class Ordinal, class Offset, class Device>
PreparedSpmv<ExecSpace, Value> prepareSpmv(const ExecSpace& exec, const std::string& kernel,
                                           const CsrMatrix<Value, Ordinal, Offset, Device>& csr,
                                           const FormatOptions& formatOptions = {}, bool portableOnly = false) {
  PreparedSpmv<ExecSpace, Value> p;
  p.kernel = kernel;
  const auto bind = [&](const auto& matrix, SpmvOptions options = {}) {
    detail::bind(p, exec, matrix, options, portableOnly);
  };
  Kokkos::Timer timer;
  if (kernel == "coo") {
    bind(cooFromCsr(exec, csr));
  } else if (kernel == "csr-scalar") {
    bind(csr, SpmvOptions{SpmvAlgorithm::CsrScalar});
  } else if (kernel == "csr-vector") {
    bind(csr, SpmvOptions{SpmvAlgorithm::CsrVector});
  } else if (kernel == "csc") {
    bind(cscFromCsr(exec, csr));
  } else if (kernel == "ell") {
    bind(ellFromCsr(exec, csr, formatOptions));
  } else if (kernel == "hyb") {
    bind(hybFromCsr(exec, csr, formatOptions));
  } else if (kernel == "dia") {
    bind(diaFromCsr(exec, csr, formatOptions));
  } else if (kernel == "jds") {
    bind(jdsFromCsr(exec, csr, formatOptions));
  } else if (kernel == "sell") {
    bind(sellFromCsr(exec, csr, formatOptions));
  } else if (kernel == "brc") {
    bind(brcFromCsr(exec, csr, formatOptions));
  } else if (kernel == "brcp" || kernel == "brcp-atomic") {
    bind(brcpFromCsr(exec, csr, formatOptions),
         SpmvOptions{kernel == "brcp" ? SpmvAlgorithm::Auto : SpmvAlgorithm::BrcpAtomic});
  } else if (kernel == "sc-csr") {
    bind(scCsrFromCsr(exec, csr, formatOptions));
  } else if (kernel == "vab") {
    bind(vabFromCsr(exec, csr, formatOptions));
  } else {
    throw InputError("unknown format '" + kernel + "'; expected one of the kernels `araios spmv --help` lists");
  }
  exec.fence();
  p.convertSeconds = timer.seconds();
  return p;
}

}  // namespace araios::cli
