// Times Accurate mode's dot product (araios::dot, ReductionMode::Accurate) on vectors generated on
// the device, beside Deterministic mode and a copy of both vectors, and prints each result's bits,
// so that builds against two include trees (the kernel before and after) can be compared in one
// session. Built with -DARAIOS_PROBE_TERMS, it also times the expansion with 2, 3, 4 and 6 terms, with and
// without the early exit, and without one (every product as integers).
//
// Env: N (elements, default 2^27), REPS (timed runs, default 10), SEED (default 20261207).
#include <araios/primitives/deterministic_reduce.hpp>

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

using Exec = Kokkos::DefaultExecutionSpace;
using Device = Exec::device_type;

KOKKOS_INLINE_FUNCTION std::uint64_t mix(std::uint64_t z) {
  z += 0x9e3779b97f4a7c15ull;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}
KOKKOS_INLINE_FUNCTION double unit(std::uint64_t h) { return static_cast<double>(h >> 11) * 0x1p-53; }

template <class Value>
struct Fill {
  Kokkos::View<Value*, Device> x, y;
  int kind;
  std::uint64_t seed;
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t i) const {
    const std::uint64_t h1 = mix(seed ^ (2 * i)), h2 = mix(seed ^ (2 * i + 1)), h3 = mix(h1 ^ h2);
    double a = 0, b = 0;
    if (kind == 0) {  // uniform in (-1, 1)
      a = 2 * unit(h1) - 1;
      b = 2 * unit(h2) - 1;
    } else if (kind == 1) {  // a sum of squares: x . x, x in [0, 1)
      a = unit(h1);
      b = a;
    } else if (kind == 2) {  // random signs, exponents in [-300, 300]
      a = ldexp(0.5 + 0.5 * unit(h1), static_cast<int>(h3 % 601) - 300) * ((h3 >> 20) & 1 ? -1 : 1);
      b = ldexp(0.5 + 0.5 * unit(h2), static_cast<int>((h3 >> 32) % 601) - 300);
    } else {  // pairs that cancel (a, b) and (-a, b), exponents in [-200, 200], and a small survivor in 8
      const std::int64_t pair = i / 2;
      const std::uint64_t g1 = mix(seed ^ (3 * pair)), g2 = mix(seed ^ (3 * pair + 1)), g3 = mix(g1 ^ g2);
      a = ldexp(0.5 + 0.5 * unit(g1), static_cast<int>(g3 % 401) - 200) * ((g3 >> 20) & 1 ? -1 : 1);
      b = ldexp(0.5 + 0.5 * unit(g2), static_cast<int>((g3 >> 32) % 401) - 200);
      if (i % 2 == 1) a = -a;
      if (pair % 8 == 0 && i % 2 == 1) a = 0.5 + unit(h1);
    }
    x(i) = static_cast<Value>(a);
    y(i) = static_cast<Value>(b);
  }
};

template <class F>
double medianMs(int reps, const F& f) {
  std::vector<double> t;
  for (int r = 0; r < reps + 2; ++r) {
    Kokkos::fence();
    const auto s = std::chrono::steady_clock::now();
    f();
    Kokkos::fence();
    const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - s).count();
    if (r >= 2) t.push_back(ms);
  }
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}

template <class Value>
std::string bitsOf(Value v) {
  char buf[64];
  if constexpr (sizeof(Value) == 8) {
    std::uint64_t b;
    std::memcpy(&b, &v, 8);
    std::snprintf(buf, sizeof buf, "%.17g 0x%016llx", static_cast<double>(v), static_cast<unsigned long long>(b));
  } else {
    std::uint32_t b;
    std::memcpy(&b, &v, 4);
    std::snprintf(buf, sizeof buf, "%.9g 0x%08x", static_cast<double>(v), b);
  }
  return buf;
}

template <class Value>
void runCase(const char* build, const char* name, int kind, std::int64_t n, int reps, std::uint64_t seed) {
  Kokkos::View<Value*, Device> x("x", n), y("y", n), copy("copy", n);
  Kokkos::parallel_for("fill", Kokkos::RangePolicy<Exec, Kokkos::IndexType<std::int64_t>>(0, n),
                       Fill<Value>{x, y, kind, seed});
  Kokkos::fence();
  Exec exec;
  araios::ReductionWorkspace<Value, Device> ws;
  Kokkos::View<Value*, Device> slot("slot", 1);
  const araios::DeviceScalar<Value, Device> target{slot, 0};
  const double bytes = 2.0 * n * sizeof(Value);
  auto report = [&](const char* mode, const char* variant, double ms) {
    Value v;
    Kokkos::deep_copy(v, Kokkos::subview(slot, 0));
    std::printf("%s %s %s n=%lld %s %s %.4f ms %.1f GB/s %s\n", build, name, sizeof(Value) == 8 ? "double" : "float",
                static_cast<long long>(n), mode, variant, ms, bytes / ms * 1e-6, bitsOf(v).c_str());
  };
  const double copyMs = medianMs(reps, [&] {
    Kokkos::deep_copy(exec, copy, x);
    Kokkos::deep_copy(exec, copy, y);
  });
  std::printf("%s %s %s n=%lld copy-both deep_copy %.4f ms %.1f GB/s (read and written)\n", build, name,
              sizeof(Value) == 8 ? "double" : "float", static_cast<long long>(n), copyMs, 2 * bytes / copyMs * 1e-6);
  report("deterministic", "-",
         medianMs(reps, [&] { araios::dot(exec, x, y, target, araios::ReductionMode::Deterministic, ws); }));
  report("accurate", "library",
         medianMs(reps, [&] { araios::dot(exec, x, y, target, araios::ReductionMode::Accurate, ws); }));
#ifdef ARAIOS_PROBE_TERMS
  auto terms = [&](auto t, auto e) {
    constexpr int T = decltype(t)::value;
    constexpr bool E = decltype(e)::value;
    const double ms = medianMs(reps, [&] {
      Kokkos::deep_copy(exec, ws.exact, std::int64_t(0));
      araios::Impl::addExactDot<T, E>(exec, x, y, ws.exact, n);
      araios::Impl::runOnce("round", exec,
                            araios::Impl::ExactFinalize<Value, Device>{ws.exact, target, araios::Impl::ReduceTransform::Identity});
    });
    report("accurate", ("terms" + std::to_string(T) + (E ? "-exit" : "-full")).c_str(), ms);
  };
  using Yes = std::true_type;
  using No = std::false_type;
  terms(std::integral_constant<int, 0>{}, No{});
  terms(std::integral_constant<int, 2>{}, Yes{});
  terms(std::integral_constant<int, 3>{}, Yes{});
  terms(std::integral_constant<int, 4>{}, Yes{});
  terms(std::integral_constant<int, 6>{}, Yes{});
  terms(std::integral_constant<int, 2>{}, No{});
  terms(std::integral_constant<int, 3>{}, No{});
  terms(std::integral_constant<int, 4>{}, No{});
  terms(std::integral_constant<int, 6>{}, No{});
#endif
}

int main(int argc, char** argv) {
  Kokkos::initialize(argc, argv);
  {
    const char* build = argc > 1 ? argv[1] : "build";
    const std::int64_t n = std::getenv("N") ? std::atoll(std::getenv("N")) : (std::int64_t(1) << 27);
    const int reps = std::getenv("REPS") ? std::atoi(std::getenv("REPS")) : 10;
    const std::uint64_t seed = std::getenv("SEED") ? std::strtoull(std::getenv("SEED"), nullptr, 10) : 20261207ull;
    runCase<double>(build, "uniform", 0, n, reps, seed);
    runCase<double>(build, "squares", 1, n, reps, seed);
    runCase<double>(build, "spread300", 2, n, reps, seed);
    runCase<double>(build, "cancelling200", 3, n, reps, seed);
    runCase<float>(build, "uniform", 0, n, reps, seed);
    runCase<double>(build, "uniform-short", 0, 1 << 20, reps * 10, seed + 1);
  }
  Kokkos::finalize();
}
