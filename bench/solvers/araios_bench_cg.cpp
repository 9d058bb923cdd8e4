// araios-bench-cg: the time of one Jacobi-preconditioned CG iteration against its memory-traffic
// bound, in Fast and Deterministic mode, on SPD matrices generated fresh (spd_system.hpp on the
// unseen suite's shapes: a 3-D stencil, block FEM, a circuit-like matrix and an R-MAT graph).
//
//   araios-bench-cg [--matrices a,b,...] [--seed S] [--iterations N] [--kernels auto,NAME,...]
//
// Per iteration: CG run for N and for 3N iterations (tolerance 0, so neither stops early),
// the difference divided by 2N, which leaves out the setup and the final residual. Best of
// three. The SpMV alone is timed as well (best of 20 products).
//
// The bound: the bytes an iteration must move at least, at the measured Kokkos::deep_copy
// bandwidth. The product reads the CSR arrays (values, column indices, row offsets), x once
// and writes y; p.Ap reads 2 vectors; the update reads p, q, x, r and the diagonal and writes
// x, r and z (8); the direction update reads z and p and writes p (3): 13 vector passes beside
// the product. Gathers of x beyond one read and the reductions' few partial sums are not
// counted, so the bound is optimistic on irregular matrices.
#include "best_seconds.hpp"
#include "generators/catalog.hpp"
#include "solvers/spd_system.hpp"

#include <araios/araios.hpp>
#include <araios/seeded_vector.hpp>
#include <araios/solvers/solvers.hpp>

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

namespace {

using namespace araios;
using Exec = Kokkos::DefaultExecutionSpace;
using Device = Exec::device_type;
using Csr = CsrMatrix<double, std::int32_t, std::int32_t, Device>;
using Vector = Kokkos::View<double*, Device>;
using Operator = SpmvOperator<double, std::int32_t, std::int32_t, Exec>;

struct Options {
  std::vector<std::string> matrices{"stencil7-128", "fem3x3-1.2M", "circuit-1.6M", "rmat-s20-ef24"};
  std::uint64_t seed = 4242;
  int iterations = 100;
  std::vector<std::string> kernels{"auto"};
};

/// Bytes per second of Kokkos::deep_copy between two vectors of 2^27 doubles.
double copyBandwidth(const Exec& exec) {
  const std::int64_t n = std::int64_t(1) << 27;
  Vector a(Kokkos::view_alloc("araios::bench::a", Kokkos::WithoutInitializing), n);
  Vector b(Kokkos::view_alloc("araios::bench::b", Kokkos::WithoutInitializing), n);
  Kokkos::deep_copy(exec, a, 1.0);
  const double s = bench::bestSeconds(exec, 10, [&] { Kokkos::deep_copy(exec, b, a); });
  return 2.0 * n * sizeof(double) / s;
}

/// Seconds per CG iteration: (time of 3N iterations - time of N) / 2N, best of three.
double secondsPerIteration(const Exec& exec, const Operator& op, const Vector& b, const Vector& diagonal,
                           ReductionMode mode, int n, SolveResult& last) {
  Vector x("araios::bench::x", b.extent(0));
  auto timed = [&](int iterations) {
    SolverOptions o;
    o.tolerance = 0;
    o.maxIterations = iterations;
    o.mode = mode;
    o.preconditioner = Preconditioner::Jacobi;
    return bench::bestSeconds(exec, 3, [&] {
      Kokkos::deep_copy(exec, x, 0.0);
      last = cg(exec, op, b, x, o, diagonal);
    });
  };
  const double shortRun = timed(n), longRun = timed(3 * n);
  return (longRun - shortRun) / (2.0 * n);
}

int run(const Options& options) {
  const Exec exec;
  const double bandwidth = copyBandwidth(exec);
  std::printf("# %s, deep_copy %.1f GB/s; CG with the Jacobi preconditioner, seed %llu, %d and %d iterations\n",
              Exec::name(), bandwidth * 1e-9, static_cast<unsigned long long>(options.seed), options.iterations,
              3 * options.iterations);
  std::printf("%-14s %9s %10s %-6s %-18s %9s %9s %9s %7s %s\n", "matrix", "rows", "entries", "mode", "kernel",
              "us/iter", "spmv us", "bound us", "x bound", "iterations, residual");
  const auto catalog = bench::gen::unseenCatalog();
  for (const std::string& name : options.matrices) {
    const auto entry = std::find_if(catalog.begin(), catalog.end(), [&](const auto& e) { return e.name == name; });
    if (entry == catalog.end()) {
      std::fprintf(stderr, "araios-bench-cg: no matrix %s in the unseen suite\n", name.c_str());
      return 2;
    }
    const io::HostMatrix host = bench::spdFromPattern(entry->make(options.seed));
    const Csr A = csrFromHost<Csr>(host);
    const std::int64_t n = host.numRows, nnz = host.nnz();
    const Vector diagonal = extractDiagonal(exec, A);
    Vector b("araios::bench::b", n);
    {
      const std::vector<double> bh = seededVector<double>(n, options.seed);
      Kokkos::deep_copy(exec, b, Kokkos::View<const double*, Kokkos::HostSpace>(bh.data(), bh.size()));
    }
    const double csrBytes = nnz * (sizeof(double) + sizeof(std::int32_t)) + (n + 1) * sizeof(std::int32_t);
    const double boundSeconds = (csrBytes + 2.0 * n * sizeof(double) + 13.0 * n * sizeof(double)) / bandwidth;
    for (const std::string& kernel : options.kernels) {
      for (Mode mode : {Mode::Fast, Mode::Deterministic}) {
        OperatorOptions oo;
        oo.mode = mode;
        oo.kernel = parseKernel(kernel);
        oo.expectedProducts = 4.0 * options.iterations;
        std::unique_ptr<Operator> op;
        try {
          op = std::make_unique<Operator>(exec, A, oo);
        } catch (const Error& e) {  // a padded format that refuses the matrix, a kernel without the mode
          std::printf("%-14s %9lld %10lld %-6s %-14s refused: %s\n", name.c_str(), static_cast<long long>(n),
                      static_cast<long long>(nnz), toString(mode), kernel.c_str(), e.what());
          continue;
        }
        Vector y("araios::bench::y", n);
        const double spmv = bench::bestSeconds(exec, 20, [&] { op->apply(exec, b, y); });
        SolveResult last;
        const ReductionMode reduction = mode == Mode::Fast ? ReductionMode::Fast : ReductionMode::Deterministic;
        const double perIteration = secondsPerIteration(exec, *op, b, diagonal, reduction, options.iterations, last);
        const std::string shown = std::string(kernel == "auto" ? "auto:" : "") + std::string(op->kernel().name);
        std::printf("%-14s %9lld %10lld %-6s %-18s %9.1f %9.1f %9.1f %7.2f %d, %.3e\n", name.c_str(),
                    static_cast<long long>(n), static_cast<long long>(nnz), toString(mode), shown.c_str(),
                    perIteration * 1e6, spmv * 1e6, boundSeconds * 1e6, perIteration / boundSeconds, last.iterations,
                    last.residual);
        std::fflush(stdout);
      }
    }
  }
  return 0;
}

std::vector<std::string> splitCommas(const std::string& s) {
  std::vector<std::string> out;
  std::stringstream in(s);
  for (std::string item; std::getline(in, item, ',');) {
    if (!item.empty()) out.push_back(item);
  }
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  Kokkos::ScopeGuard guard(argc, argv);  // takes the --kokkos-* options out of argv
  Options options;
  const char* usage =
      "usage: araios-bench-cg [--matrices a,b,...] [--seed S] [--iterations N] [--kernels auto,NAME,...]";
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (i + 1 >= argc) {
      std::fprintf(stderr, "araios-bench-cg: %s needs a value; %s\n", arg.c_str(), usage);
      return 2;
    }
    const std::string value = argv[++i];
    char* end = nullptr;
    if (arg == "--matrices") {
      options.matrices = splitCommas(value);
    } else if (arg == "--seed") {
      options.seed = std::strtoull(value.c_str(), &end, 10);
      if (*end != '\0') {
        std::fprintf(stderr, "araios-bench-cg: --seed %s; expected a non-negative integer\n", value.c_str());
        return 2;
      }
    } else if (arg == "--iterations") {
      const long v = std::strtol(value.c_str(), &end, 10);
      if (*end != '\0' || v < 1 || v > 100000) {
        std::fprintf(stderr, "araios-bench-cg: --iterations %s; expected an integer from 1 to 100000\n", value.c_str());
        return 2;
      }
      options.iterations = static_cast<int>(v);
    } else if (arg == "--kernels") {
      options.kernels = splitCommas(value);
      for (const std::string& k : options.kernels) {
        try {
          parseKernel(k);
        } catch (const InputError& e) {
          std::fprintf(stderr, "araios-bench-cg: --kernels: %s\n", e.what());
          return 2;
        }
      }
    } else {
      std::fprintf(stderr, "araios-bench-cg: unknown argument %s; %s\n", arg.c_str(), usage);
      return 2;
    }
  }
  try {
    return run(options);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "araios-bench-cg: %s\n", e.what());
    return 1;
  }
}
