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

/// The kernels, by the names the CLI uses: the registry's.
inline const std::vector<std::string>& allKernelNames() {
  static const std::vector<std::string> names = kernelNames();
  return names;
}

template <class ExecSpace, class Value, class Ordinal = std::int32_t, class Offset = std::int32_t>
struct ModeKernels {
  using Device = typename ExecSpace::device_type;
  using Csr = CsrMatrix<Value, Ordinal, Offset, Device>;
  using Vector = Kokkos::View<Value*, Device>;
  using Operator = SpmvOperator<Value, Ordinal, Offset, ExecSpace>;
  using Run = std::function<void(const Vector& x, const Vector& y, Value alpha, Value beta, Mode mode)>;

  std::vector<std::pair<std::string, Run>> all;
  std::vector<std::string> refused;
  FormatOptions options;

  /// Builds the kernels named in `only` (all of them when empty), the padded formats with
  /// `formatOptions` (FormatOptions::force builds them whatever their padding), each as an
  /// SpmvOperator. With `alsoBare`, each also as its bare format, named "<kernel> (bare)" and
  /// run by araios::spmv: without an operator's state, the formats whose operators run
  /// Accurate mode on CSR run their own Accurate walks.
  explicit ModeKernels(const io::HostMatrix& host, const std::vector<std::string>& only = {},
                       const FormatOptions& formatOptions = {}, bool alsoBare = false)
      : options(formatOptions) {
    ExecSpace exec;
    const Csr csr = csrFromCoo(exec, cooFromHost<CooMatrix<Value, Ordinal, Offset, Device>>(host));
    exec.fence();
    for (const std::string& name : only.empty() ? allKernelNames() : only) {
      OperatorOptions operatorOptions;
      operatorOptions.kernel = parseKernel(name);
      operatorOptions.format = options;
      try {
        const Operator op(exec, csr, operatorOptions);
        all.emplace_back(name, [op](const Vector& x, const Vector& y, Value a, Value b, Mode mode) {
          op.apply(ExecSpace(), x, y, a, b, mode);
        });
        if (alsoBare) addBare(exec, csr, kernelEntry(operatorOptions.kernel));
      } catch (const PaddingError&) {
        refused.push_back(name);
      }
    }
    exec.fence();
  }

 private:
  void addBare(const ExecSpace& exec, const Csr& csr, const KernelEntry& entry) {
    Impl::visitFormat(entry.format, [&](auto builder) {
      const auto format = decltype(builder)::fromCsr(exec, csr, options);
      const SpmvAlgorithm algorithm = entry.algorithm;
      all.emplace_back(std::string(entry.name) + " (bare)",
                       [format, algorithm](const Vector& x, const Vector& y, Value a, Value b, Mode mode) {
                         SpmvOptions spmvOptions;
                         spmvOptions.algorithm = algorithm;
                         spmvOptions.mode = mode;
                         spmv(ExecSpace(), format, x, y, a, b, spmvOptions);
                       });
    });
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
