// araios-bench-vector: bandwidth of the vector primitives against Kokkos::deep_copy, on the
// default execution space. A plain RangePolicy copy runs beside them: on a GPU with Kokkos 3.4
// it shows what araios::copy and axpy would reach without Impl::lightParallelFor.
//
//   araios-bench-vector [--n N]    (N doubles per vector, default 2^27 = 1 GiB)
//
// Each line: best of 20 runs, GB/s counting every byte read and written, and the ratio to
// deep_copy's GB/s. The dots count the two vectors they read.
#include "best_seconds.hpp"

#include <araios/primitives/deterministic_reduce.hpp>
#include <araios/vector_ops.hpp>

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

namespace {

constexpr int kRepeats = 20;

template <class View>
struct RangeCopy {
  View from, to;
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t i) const { to(i) = from(i); }
};

/// Best seconds of kRepeats runs of f, after one untimed warm-up run.
template <class ExecSpace, class F>
double bestSeconds(const ExecSpace& exec, const F& f) {
  f();
  exec.fence();
  return araios::bench::bestSeconds(exec, kRepeats, f);
}

int run(std::int64_t n) {
  using Exec = Kokkos::DefaultExecutionSpace;
  using View = Kokkos::View<double*, Exec::device_type>;
  const Exec exec;
  View x(Kokkos::view_alloc("araios::bench::x", Kokkos::WithoutInitializing), n);
  View y(Kokkos::view_alloc("araios::bench::y", Kokkos::WithoutInitializing), n);
  Kokkos::deep_copy(exec, x, 1.0);
  Kokkos::deep_copy(exec, y, 2.0);
  exec.fence();

  const double word = sizeof(double);
  std::printf("# %s, n = %lld doubles (%.1f MiB per vector), best of %d\n", Exec::name(), static_cast<long long>(n),
              n * word / (1 << 20), kRepeats);
  double reference = 0;
  auto report = [&](const char* name, double bytes, double seconds) {
    const double gbps = bytes / seconds * 1e-9;
    if (reference == 0) reference = gbps;
    std::printf("%-26s %9.1f GB/s  %5.2f of deep_copy\n", name, gbps, gbps / reference);
  };
  report("Kokkos::deep_copy", 2 * n * word, bestSeconds(exec, [&] { Kokkos::deep_copy(exec, y, x); }));
  report("araios::copy", 2 * n * word, bestSeconds(exec, [&] { araios::copy(exec, x, y); }));
  // alpha = 0 keeps y's values bounded over the repeats; the kernel still reads x and y.
  report("araios::axpy", 3 * n * word, bestSeconds(exec, [&] { araios::axpy(exec, 0.0, x, y); }));
  report("RangePolicy copy", 2 * n * word, bestSeconds(exec, [&] {
           Kokkos::parallel_for("araios::bench::rangeCopy",
                                Kokkos::RangePolicy<Exec, Kokkos::IndexType<std::int64_t>>(exec, 0, n),
                                RangeCopy<View>{x, y});
         }));
  // The reductions into a device slot, as the solvers call them (no copy back to the host).
  araios::ReductionWorkspace<double, Exec::device_type> ws;
  View slot("araios::bench::dot", 1);
  const araios::DeviceScalar<double, Exec::device_type> target{slot, 0};
  report("araios::dot fast", 2 * n * word, bestSeconds(exec, [&] {
           araios::dot(exec, x, y, target, araios::ReductionMode::Fast, ws);
         }));
  report("araios::dot deterministic", 2 * n * word, bestSeconds(exec, [&] {
           araios::dot(exec, x, y, target, araios::ReductionMode::Deterministic, ws);
         }));
  // Every chunk's limbs go to one shared accumulator by integer atomics: this line shows what they cost.
  report("araios::dot accurate", 2 * n * word, bestSeconds(exec, [&] {
           araios::dot(exec, x, y, target, araios::ReductionMode::Accurate, ws);
         }));
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  Kokkos::ScopeGuard guard(argc, argv);  // takes the --kokkos-* options out of argv
  std::int64_t n = std::int64_t(1) << 27;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--n") == 0 && i + 1 < argc) {
      char* end = nullptr;
      n = std::strtoll(argv[++i], &end, 10);
      if (*end != '\0' || n <= 0) {
        std::fprintf(stderr, "araios-bench-vector: --n %s; expected a positive integer\n", argv[i]);
        return 2;
      }
    } else {
      std::fprintf(stderr, "araios-bench-vector: unknown argument %s; usage: araios-bench-vector [--n N]\n", argv[i]);
      return 2;
    }
  }
  return run(n);
}
