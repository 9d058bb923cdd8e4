// araios spmv FILE --format F: times one SpMV kernel and checks it against the host reference.
#include "accuracy.hpp"
#include "auto_options.hpp"
#include "backend.hpp"
#include "command_args.hpp"
#include "kernel_choice.hpp"
#include "spmv_x.hpp"
#include "typed_run.hpp"
#ifdef ARAIOS_CLI_MPI
#include "mpi/distributed_commands.hpp"
#endif

#include <araios/araios.hpp>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <cstring>
#include <random>
#include <set>
#include <type_traits>

namespace araios::cli {
namespace {

struct Repeatability {
  int runs = 0;
  int distinctResults = 0;
  std::int64_t maxUlpDistance = 0;  ///< between any run and the first one
};

/// Runs the product `runs` more times, each into a NaN-filled y, and compares the bits.
template <class Value, class Operator, class Vector>
Repeatability measureRepeatability(const Operator& kernel, const Vector& x, const Vector& y, int runs) {
  Repeatability r;
  r.runs = runs;
  std::set<std::string> hashes;
  std::vector<Value> first;
  for (int run = 0; run < runs; ++run) {
    Kokkos::deep_copy(y, std::numeric_limits<Value>::quiet_NaN());
    kernel.apply(typename Operator::execution_space(), x, y, Value(1), Value(0));
    auto yHost = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), y);
    hashes.insert(hashBits(yHost));
    if (run == 0) {
      first.assign(yHost.data(), yHost.data() + yHost.extent(0));
      continue;
    }
    for (std::size_t i = 0; i < first.size(); ++i)
      r.maxUlpDistance = std::max(r.maxUlpDistance, ulpDistance(first[i], yHost(i)));
  }
  r.distinctResults = static_cast<int>(hashes.size());
  return r;
}

template <class ExecSpace, class Value, class Ordinal, class Offset>
int runTyped(const ExecSpace& exec, const io::HostMatrix& host, const SpmvArgs& args) {
  using Device = typename ExecSpace::device_type;
  using Csr = CsrMatrix<Value, Ordinal, Offset, Device>;
  Kokkos::Timer timer;
  const Csr csr = csrFromHost<Csr>(host);
  const double toCsrSeconds = timer.seconds();
  FormatOptions formatOptions;
  formatOptions.force = args.force;
  const Mode mode = parseMode(args.mode);
  OperatorOptions operatorOptions;
  operatorOptions.kernel = parseKernel(args.format);
  operatorOptions.mode = mode;
  operatorOptions.format = formatOptions;
  operatorOptions.portableOnly = args.portable;
  setAutoOptions(operatorOptions, exec, args.choice, args.run.backend, args.repeat);
  const SpmvOperator<Value, Ordinal, Offset, ExecSpace> kernel(exec, csr, operatorOptions);
  const std::string kernelName(kernel.kernel().name);

  const std::vector<Value> xHost = makeX<Value>(host.numCols, args.seed);
  Kokkos::View<Value*, Device> x("x", host.numCols), y("y", host.numRows);
  auto xMirror = Kokkos::create_mirror_view(x);
  for (std::int64_t j = 0; j < host.numCols; ++j) xMirror(j) = xHost[j];
  Kokkos::deep_copy(x, xMirror);
  // y starts as NaN: with beta = 0 the kernel must overwrite every entry.
  Kokkos::deep_copy(y, std::numeric_limits<Value>::quiet_NaN());

  const Value alpha = 1, beta = 0;
  kernel.apply(exec, x, y, alpha, beta);  // warm-up: first-touch pages, load kernels
  exec.fence();
  std::vector<double> times;
  for (int r = 0; r < args.repeat; ++r) {
    timer.reset();
    kernel.apply(exec, x, y, alpha, beta);
    exec.fence();
    times.push_back(timer.seconds());
  }
  std::nth_element(times.begin(), times.begin() + times.size() / 2, times.end());
  const double seconds = times[times.size() / 2];

  auto yHost = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), y);
  const ReferenceSpmv ref = referenceSpmv<Value>(host, xHost, alpha, beta, {});
  const Accuracy accuracy = measureAccuracy<Value>(ref, yHost);
  const double flops = 2.0 * static_cast<double>(host.nnz());
  // Bytes a kernel must move at least: the format's arrays, x read once, y written once.
  const double bytes = static_cast<double>(kernel.formatBytes()) + sizeof(Value) * double(host.numCols + host.numRows);
  const std::string hash = hashBits(y);
  const int threads = ExecSpace().concurrency();
  const Repeatability repeat = measureRepeatability<Value>(kernel, x, y, args.repeatability);
  const std::string plan = kernel.plan();  // what the operator chose (csr-merge's plan, the row walk)

  if (args.run.json) {
    nlohmann::json j = {{"file", args.file},
                        {"rows", host.numRows},
                        {"cols", host.numCols},
                        {"nnz", host.nnz()},
                        {"format", kernelName},
                        {"mode", toString(mode)},
                        {"backend", args.run.backend},
                        {"threads", threads},
                        {"precision", args.run.precision},
                        {"ordinal_bits", 8 * sizeof(Ordinal)},
                        {"offset_bits", 8 * sizeof(Offset)},
                        {"repeat", args.repeat},
                        {"time_s", seconds},
                        {"gflops", flops / seconds * 1e-9},
                        {"gbps", bytes / seconds * 1e-9},
                        {"format_bytes", kernel.formatBytes()},
                        {"workspace_bytes", kernel.workspaceBytes()},
                        {"csr_build_s", toCsrSeconds},
                        {"convert_s", kernel.buildSeconds()},
                        {"max_rel_error", accuracy.maxRelError},
                        {"within_error_bound", accuracy.withinBound},
                        {"hash", hash}};
    if (kernel.choice() != nullptr) j["auto"] = nlohmann::json::parse(choiceJson(*kernel.choice(), kernel.chooseSeconds()));
    if (!plan.empty()) j["plan"] = plan;
    if (repeat.runs > 0) {
      j["repeatability"] = {{"runs", repeat.runs},
                            {"distinct_results", repeat.distinctResults},
                            {"max_ulp_distance", repeat.maxUlpDistance}};
    }
    fmt::print("{}\n", j.dump());
  } else {
    fmt::print("matrix    {}: {} x {}, {} stored entries\n", args.file, host.numRows, host.numCols, host.nnz());
    fmt::print("kernel    {} ({} mode) on {} ({} threads), {}, {}-bit indices\n", kernelName, toString(mode),
               args.run.backend, threads, args.run.precision, 8 * sizeof(Offset));
    if (kernel.choice() != nullptr) fmt::print("auto      {}\n", choiceText(*kernel.choice()));
    if (!plan.empty()) fmt::print("plan      {}\n", plan);
    fmt::print("time      {:.3f} us per product (median of {})\n", seconds * 1e6, args.repeat);
    fmt::print("rate      {:.2f} GFLOP/s, {:.2f} GB/s effective ({} bytes of {})\n", flops / seconds * 1e-9,
               bytes / seconds * 1e-9, kernel.formatBytes(), kernelName);
    fmt::print("error     {:.3e} max relative vs the long-double reference; error bound {}\n", accuracy.maxRelError,
               accuracy.withinBound ? "holds on every row" : "VIOLATED");
    fmt::print("hash      {}\n", hash);
    if (repeat.runs > 0) {
      fmt::print("repeat    {} runs: {} distinct result{}{}\n", repeat.runs, repeat.distinctResults,
                 repeat.distinctResults == 1 ? " (bitwise repeatable)" : "s",
                 repeat.distinctResults == 1 ? "" : fmt::format(", at most {} ulp apart", repeat.maxUlpDistance));
    }
  }
  return accuracy.withinBound ? 0 : 3;
}

}  // namespace

int runSpmv(const SpmvArgs& args) {
#ifdef ARAIOS_CLI_MPI
  if (launchedByMpi()) return runSpmvDistributed(args);
#endif
  return runOnMatrix(args, [&](auto exec, auto value, auto index, const io::HostMatrix& host) {
    using Index = decltype(index);
    return runTyped<decltype(exec), decltype(value), Index, Index>(exec, host, args);
  });
}

}  // namespace araios::cli
