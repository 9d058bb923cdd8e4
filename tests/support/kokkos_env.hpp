#pragma once
// Shared by every test that runs kernels: a global fixture that owns Kokkos, and the list of
// (execution space, value, ordinal, offset) configurations each kernel test runs over. The
// list holds every backend enabled in the Kokkos build, so one test source covers them all.
#include <Kokkos_Core.hpp>
#include <boost/test/unit_test.hpp>

#include <cstdint>
#include <tuple>

namespace araios::test {

struct KokkosFixture {
  KokkosFixture() { Kokkos::initialize(); }
  ~KokkosFixture() { Kokkos::finalize(); }
};

template <class ExecSpace, class Value, class Ordinal = std::int32_t, class Offset = std::int32_t>
struct Config {
  using execution_space = ExecSpace;
  using device_type = typename ExecSpace::device_type;
  using value_type = Value;
  using ordinal_type = Ordinal;
  using size_type = Offset;
};

template <class... Lists>
using Concat = decltype(std::tuple_cat(std::declval<Lists>()...));

#ifdef KOKKOS_ENABLE_SERIAL
using SerialConfigs = std::tuple<Config<Kokkos::Serial, double>, Config<Kokkos::Serial, float>,
                                 Config<Kokkos::Serial, double, std::int32_t, std::int64_t>>;
#else
using SerialConfigs = std::tuple<>;
#endif
#ifdef KOKKOS_ENABLE_OPENMP
using OpenMPConfigs = std::tuple<Config<Kokkos::OpenMP, double>, Config<Kokkos::OpenMP, float>,
                                 Config<Kokkos::OpenMP, double, std::int64_t, std::int64_t>>;
#else
using OpenMPConfigs = std::tuple<>;
#endif
#ifdef KOKKOS_ENABLE_CUDA
using CudaConfigs = std::tuple<Config<Kokkos::Cuda, double>, Config<Kokkos::Cuda, float>,
                               Config<Kokkos::Cuda, double, std::int64_t, std::int64_t>>;
#else
using CudaConfigs = std::tuple<>;
#endif

using AllConfigs = Concat<SerialConfigs, OpenMPConfigs, CudaConfigs>;

/// Every enabled execution space, once: for the tests that compare bits across backends.
#ifdef KOKKOS_ENABLE_SERIAL
using SerialSpaces = std::tuple<Kokkos::Serial>;
#else
using SerialSpaces = std::tuple<>;
#endif
#ifdef KOKKOS_ENABLE_OPENMP
using OpenMPSpaces = std::tuple<Kokkos::OpenMP>;
#else
using OpenMPSpaces = std::tuple<>;
#endif
#ifdef KOKKOS_ENABLE_CUDA
using CudaSpaces = std::tuple<Kokkos::Cuda>;
#else
using CudaSpaces = std::tuple<>;
#endif
using EnabledSpaces = Concat<SerialSpaces, OpenMPSpaces, CudaSpaces>;

}  // namespace araios::test
