#pragma once
// Every SpMV kernel the command line (and the benchmark) can run, by name. Each entry turns a
// CSR matrix into the kernel's format and hands back a callable product, so callers handle
// every format the same way. A new format adds one entry to kernelNames() and one branch to
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
};

template <class ExecSpace, class Value, class Ordinal, class Offset, class Device>
PreparedSpmv<ExecSpace, Value> prepareSpmv(const ExecSpace& exec, const std::string& kernel,
                                           const CsrMatrix<Value, Ordinal, Offset, Device>& csr) {
  PreparedSpmv<ExecSpace, Value> p;
  p.kernel = kernel;
  p.storedSlots = csr.nnz();
  Kokkos::Timer timer;
  if (kernel == "coo") {
    auto coo = cooFromCsr(exec, csr);
    p.bytes = coo.bytes();
    p.run = [=](auto x, auto y, Value a, Value b) { spmv(exec, coo, x, y, a, b); };
  } else if (kernel == "csr-scalar" || kernel == "csr-vector") {
    const SpmvOptions options{kernel == "csr-scalar" ? SpmvAlgorithm::CsrScalar : SpmvAlgorithm::CsrVector};
    p.bytes = csr.bytes();
    p.run = [=](auto x, auto y, Value a, Value b) { spmv(exec, csr, x, y, a, b, options); };
  } else if (kernel == "csc") {
    auto csc = cscFromCsr(exec, csr);
    p.bytes = csc.bytes();
    p.run = [=](auto x, auto y, Value a, Value b) { spmv(exec, csc, x, y, a, b); };
  } else {
    throw InputError("unknown format '" + kernel + "'; expected one of the kernels `araios spmv --help` lists");
  }
  exec.fence();
  p.convertSeconds = timer.seconds();
  return p;
}

}  // namespace araios::cli
