#pragma once
// Every SpMV kernel of every format, built from one host matrix, each callable in any mode:
// what the reproducibility and accurate-mode tests iterate over. A padded format that refuses
// the matrix for its padding is left out (and listed in `refused`), as the format tests check
// those refusals already.
#include <araios/araios.hpp>

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <functional>
#include <limits>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace araios::test {

/// N_w of the SC-CSR layouts built here: the H100's default (0.5 x 132 SMs x 8 x 8).
constexpr double kScCsrFixedFoldingThreshold = 4224;

/// The kernels, by the names the CLI uses.
inline const std::vector<std::string>& allKernelNames() {
  static const std::vector<std::string> names = {"coo", "csr-scalar", "csr-vector", "csc",  "ell",
                                                 "hyb", "dia",        "jds",        "sell", "brc",
                                                 "brcp", "brcp-atomic", "sc-csr",   "vab"};
  return names;
}

template <class ExecSpace, class Value, class Ordinal = std::int32_t, class Offset = std::int32_t>
struct ModeKernels {
  using Device = typename ExecSpace::device_type;
  using Csr = CsrMatrix<Value, Ordinal, Offset, Device>;
  using Vector = Kokkos::View<Value*, Device>;
  using Run = std::function<void(const Vector& x, const Vector& y, Value alpha, Value beta, Mode mode)>;

  std::vector<std::pair<std::string, Run>> all;
  std::vector<std::string> refused;
  FormatOptions options;

  /// Builds the kernels named in `only` (all of them when empty), the padded formats with
  /// `formatOptions` (FormatOptions::force builds them whatever their padding).
  explicit ModeKernels(const io::HostMatrix& host, const std::vector<std::string>& only = {},
                       const FormatOptions& formatOptions = {})
      : options(formatOptions) {
    ExecSpace exec;
    const Csr csr = csrFromCoo(exec, cooFromHost<CooMatrix<Value, Ordinal, Offset, Device>>(host));
    exec.fence();
    for (const std::string& name : only.empty() ? allKernelNames() : only) {
      try {
        add(exec, name, csr);
      } catch (const PaddingError&) {
        refused.push_back(name);
      }
    }
    exec.fence();
  }

 private:
  template <class Matrix>
  void bind(const std::string& name, const ExecSpace& exec, const Matrix& A, SpmvAlgorithm algorithm) {
    all.emplace_back(name, [=](const Vector& x, const Vector& y, Value a, Value b, Mode mode) {
      SpmvOptions options;
      options.algorithm = algorithm;
      options.mode = mode;
      spmv(exec, A, x, y, a, b, options);
    });
  }

  void add(const ExecSpace& exec, const std::string& name, const Csr& csr) {
    const SpmvAlgorithm automatic = SpmvAlgorithm::Auto;
    if (name == "coo") {
      bind(name, exec, cooFromCsr(exec, csr), automatic);
    } else if (name == "csr-scalar") {
      bind(name, exec, csr, SpmvAlgorithm::CsrScalar);
    } else if (name == "csr-vector") {
      bind(name, exec, csr, SpmvAlgorithm::CsrVector);
    } else if (name == "csc") {
      bind(name, exec, cscFromCsr(exec, csr), automatic);
    } else if (name == "ell") {
      bind(name, exec, ellFromCsr(exec, csr, options), automatic);
    } else if (name == "hyb") {
      bind(name, exec, hybFromCsr(exec, csr, options), automatic);
    } else if (name == "dia") {
      bind(name, exec, diaFromCsr(exec, csr, options), automatic);
    } else if (name == "jds") {
      bind(name, exec, jdsFromCsr(exec, csr, options), automatic);
    } else if (name == "sell") {
      bind(name, exec, sellFromCsr(exec, csr, options), automatic);
    } else if (name == "brc") {
      bind(name, exec, brcFromCsr(exec, csr, options), automatic);
    } else if (name == "brcp") {
      bind(name, exec, brcpFromCsr(exec, csr, options), automatic);
    } else if (name == "brcp-atomic") {
      bind(name, exec, brcpFromCsr(exec, csr, options), SpmvAlgorithm::BrcpAtomic);
    } else if (name == "sc-csr") {
      // SC-CSR's default layout depends on the device (its folding threshold N_w follows the
      // thread or SM count), so the same CSR gives another SC-CSR on another backend or thread
      // count. A fixed N_w (the H100's, as in test_sccsr) gives one layout everywhere.
      ScCsrOptions fixedLayout;
      fixedLayout.foldingThreshold = kScCsrFixedFoldingThreshold;
      bind(name, exec, scCsrFromCsr(exec, csr, options, fixedLayout), automatic);
    } else if (name == "vab") {
      bind(name, exec, vabFromCsr(exec, csr, options), automatic);
    } else {
      throw std::invalid_argument("unknown kernel " + name);
    }
  }
};

/// y = alpha*A*x + beta*y0 on the device, back on the host. y starts as NaN when beta is 0,
/// so an unwritten entry shows.
template <class Value, class Device, class Run>
std::vector<Value> runOnce(const Run& run, const std::vector<Value>& x, const std::vector<Value>& y0, Value alpha,
                           Value beta, Mode mode) {
  Kokkos::View<Value*, Device> xd("x", x.size()), yd("y", y0.size());
  auto xm = Kokkos::create_mirror_view(xd);
  auto ym = Kokkos::create_mirror_view(yd);
  for (std::size_t j = 0; j < x.size(); ++j) xm(j) = x[j];
  for (std::size_t i = 0; i < y0.size(); ++i) ym(i) = beta == Value(0) ? std::numeric_limits<Value>::quiet_NaN() : y0[i];
  Kokkos::deep_copy(xd, xm);
  Kokkos::deep_copy(yd, ym);
  run(xd, yd, alpha, beta, mode);
  Kokkos::fence();
  Kokkos::deep_copy(ym, yd);
  return std::vector<Value>(ym.data(), ym.data() + ym.extent(0));
}

}  // namespace araios::test
