// araios spmv FILE --format F: times one SpMV kernel and checks it against the host reference.
#include "accuracy.hpp"
#include "backend.hpp"
#include "command.hpp"
#include "format_registry.hpp"
#include "load_matrix.hpp"

#include <araios/araios.hpp>

#include <fmt/core.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <random>

namespace araios::cli {
namespace {

struct SpmvArgs {
  RunOptions run;
  std::string file;
  std::string format = "csr-vector";
  int repeat = 100;
  std::uint64_t seed = 42;
};

/// x in [-1, 1), from a seed: the same vector on every backend and every run.
template <class Value>
std::vector<Value> makeX(std::int64_t n, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> dist(-1.0, 1.0);
  std::vector<Value> x(n);
  for (auto& v : x) v = static_cast<Value>(dist(rng));
  return x;
}

template <class ExecSpace, class Value, class Ordinal, class Offset>
int runTyped(const ExecSpace& exec, const io::HostMatrix& host, const SpmvArgs& args) {
  using Device = typename ExecSpace::device_type;
  using Csr = CsrMatrix<Value, Ordinal, Offset, Device>;
  Kokkos::Timer timer;
  const Csr csr = csrFromHost<Csr>(host);
  const double toCsrSeconds = timer.seconds();
  const auto kernel = prepareSpmv(exec, args.format, csr);

  const std::vector<Value> xHost = makeX<Value>(host.numCols, args.seed);
  Kokkos::View<Value*, Device> x("x", host.numCols), y("y", host.numRows);
  auto xMirror = Kokkos::create_mirror_view(x);
  for (std::int64_t j = 0; j < host.numCols; ++j) xMirror(j) = xHost[j];
  Kokkos::deep_copy(x, xMirror);
  // y starts as NaN: with beta = 0 the kernel must overwrite every entry.
  Kokkos::deep_copy(y, std::numeric_limits<Value>::quiet_NaN());

  const Value alpha = 1, beta = 0;
  kernel.run(x, y, alpha, beta);  // warm-up: first-touch pages, load kernels
  exec.fence();
  std::vector<double> times;
  for (int r = 0; r < args.repeat; ++r) {
    timer.reset();
    kernel.run(x, y, alpha, beta);
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
  const double bytes = static_cast<double>(kernel.bytes) + sizeof(Value) * double(host.numCols + host.numRows);
  const std::string hash = hashBits(y);
  const int threads = ExecSpace().concurrency();

  if (args.run.json) {
    nlohmann::json j = {{"file", args.file},
                        {"rows", host.numRows},
                        {"cols", host.numCols},
                        {"nnz", host.nnz()},
                        {"format", args.format},
                        {"backend", args.run.backend},
                        {"threads", threads},
                        {"precision", args.run.precision},
                        {"ordinal_bits", 8 * sizeof(Ordinal)},
                        {"offset_bits", 8 * sizeof(Offset)},
                        {"repeat", args.repeat},
                        {"time_s", seconds},
                        {"gflops", flops / seconds * 1e-9},
                        {"gbps", bytes / seconds * 1e-9},
                        {"format_bytes", kernel.bytes},
                        {"csr_build_s", toCsrSeconds},
                        {"convert_s", kernel.convertSeconds},
                        {"max_rel_error", accuracy.maxRelError},
                        {"within_error_bound", accuracy.withinBound},
                        {"hash", hash}};
    fmt::print("{}\n", j.dump());
  } else {
    fmt::print("matrix    {}: {} x {}, {} stored entries\n", args.file, host.numRows, host.numCols, host.nnz());
    fmt::print("kernel    {} on {} ({} threads), {}, {}-bit indices\n", args.format, args.run.backend, threads,
               args.run.precision, 8 * sizeof(Offset));
    fmt::print("time      {:.3f} us per product (median of {})\n", seconds * 1e6, args.repeat);
    fmt::print("rate      {:.2f} GFLOP/s, {:.2f} GB/s effective ({} bytes of {})\n", flops / seconds * 1e-9,
               bytes / seconds * 1e-9, kernel.bytes, args.format);
    fmt::print("error     {:.3e} max relative vs the long-double reference; error bound {}\n", accuracy.maxRelError,
               accuracy.withinBound ? "holds on every row" : "VIOLATED");
    fmt::print("hash      {}\n", hash);
  }
  return accuracy.withinBound ? 0 : 3;
}

template <class Value, class ExecSpace>
int runWithIndexWidth(const ExecSpace& exec, const io::HostMatrix& host, const SpmvArgs& args) {
  constexpr std::int64_t kInt32Max = std::numeric_limits<std::int32_t>::max();
  if (host.numRows <= kInt32Max && host.numCols <= kInt32Max && host.nnz() <= kInt32Max) {
    return runTyped<ExecSpace, Value, std::int32_t, std::int32_t>(exec, host, args);
  }
  return runTyped<ExecSpace, Value, std::int64_t, std::int64_t>(exec, host, args);
}

}  // namespace

Command addSpmvCommand(CLI::App& parent) {
  auto args = std::make_shared<SpmvArgs>();
  CLI::App* app = parent.add_subcommand("spmv", "time y = A*x with one kernel and check it against the host reference");
  app->add_option("file", args->file, "Matrix Market file (.mtx or .mtx.gz)")->required()->check(CLI::ExistingFile);
  app->add_option("--format", args->format, "kernel: " + joined(kernelNames()))
      ->check(CLI::IsMember(kernelNames()))
      ->capture_default_str();
  app->add_option("--repeat", args->repeat, "timed products; the median is reported")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  app->add_option("--seed", args->seed, "seed of the random x in [-1, 1)")->capture_default_str();
  addRunOptions(*app, args->run);
  Command command;
  command.app = app;
  command.threads = [args] { return args->run.threads; };
  command.run = [args] {
    const io::HostMatrix host = loadMatrix(args->file, args->run.dropInvalid, args->run.json);
    int code = 0;
    withBackend(args->run.backend, [&](auto exec) {
      code = args->run.precision == "float" ? runWithIndexWidth<float>(exec, host, *args)
                                            : runWithIndexWidth<double>(exec, host, *args);
    });
    return code;
  };
  return command;
}

}  // namespace araios::cli
