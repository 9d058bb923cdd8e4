// SpmvOperator: every registry kernel through one operator against the host reference, its
// bytes, its refusals, and products that run at once: two operators, and two applies of one
// operator, on two execution space instances (CUDA streams, OpenMP partitions), giving the bits
// of the same products run one at a time.
#define BOOST_TEST_MODULE operator
#include <boost/test/unit_test.hpp>

#include "support/kokkos_env.hpp"
#include "support/matrices.hpp"
#include "support/real_matrices.hpp"
#include "support/spmv_check.hpp"

#include <araios/araios.hpp>

#include <Kokkos_Core.hpp>

#ifdef KOKKOS_ENABLE_OPENMP
#include <omp.h>
#endif

#include <algorithm>
#include <string>
#include <thread>
#include <vector>

using namespace araios;

using araios::test::KokkosFixture;
BOOST_TEST_GLOBAL_FIXTURE(KokkosFixture);

namespace {

/// The real matrix `name`, read once per process.
const io::HostMatrix& realMatrix(const std::string& name) {
  for (const test::NamedMatrix& m : test::realMatrices()) {
    if (m.name == name) return m.matrix;
  }
  throw InputError("test matrix " + name + " not found in " + test::matricesDir().string());
}

/// The hash of a device vector's bits (fences first).
template <class View>
std::string hashOf(const View& v) {
  Kokkos::fence();
  return hashBits(Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), v));
}

/// Runs first(exec1) and second(exec2) at the same time: on two CUDA streams, or on OpenMP in two
/// partitions of the thread pool (Kokkos 3.x's partition_master, which runs the partitions only
/// when nested OpenMP is on). Serial, OpenMP on one thread, and OpenMP under Kokkos 4 (whose partition_space instances
/// need a host thread each), run them one after the other. Returns how many ran at once.
template <class ExecSpace, class F1, class F2>
int runConcurrently(const F1& first, const F2& second) {
#if defined(KOKKOS_ENABLE_OPENMP) && KOKKOS_VERSION < 40000
  if constexpr (std::is_same_v<ExecSpace, Kokkos::OpenMP>) {
    if (Kokkos::OpenMP().concurrency() < 2) {  // one thread cannot be split in two partitions
      first(Kokkos::OpenMP());
      second(Kokkos::OpenMP());
      return 1;
    }
    const int levels = omp_get_max_active_levels();
    omp_set_max_active_levels(2);
    int ran = 0;
    Kokkos::OpenMP::partition_master(
        [&](int partition, int) {
          if (partition == 0) {
            first(Kokkos::OpenMP());
          } else {
            second(Kokkos::OpenMP());
          }
#pragma omp atomic
          ++ran;
        },
        2, std::max(1, Kokkos::OpenMP().concurrency() / 2));
    omp_set_max_active_levels(levels);
    BOOST_REQUIRE_MESSAGE(ran == 2, "partition_master ran " << ran << " of 2 partitions");
    return 2;
  }
#endif
#ifdef KOKKOS_ENABLE_CUDA
  if constexpr (std::is_same_v<ExecSpace, Kokkos::Cuda>) {
    cudaStream_t s1, s2;
    cudaStreamCreate(&s1);
    cudaStreamCreate(&s2);
    {
      const Kokkos::Cuda e1(s1), e2(s2);
      first(e1);
      second(e2);  // queued while the first may still run
      e1.fence();
      e2.fence();
    }
    cudaStreamDestroy(s1);
    cudaStreamDestroy(s2);
    return 2;
  }
#endif
  first(ExecSpace());
  second(ExecSpace());
  return 1;
}

}  // namespace

BOOST_AUTO_TEST_CASE_TEMPLATE(every_registry_kernel_through_the_operator, Cfg, test::AllConfigs) {
  using Exec = typename Cfg::execution_space;
  using Value = typename Cfg::value_type;
  using Device = typename Cfg::device_type;
  using Csr = CsrMatrix<Value, typename Cfg::ordinal_type, typename Cfg::size_type, Device>;
  for (const char* name : {"sherman3", "USAir97"}) {
    const io::HostMatrix& host = realMatrix(name);
    const Csr csr = csrFromHost<Csr>(host);
    for (const KernelEntry& k : kernelRegistry()) {
      OperatorOptions options;
      options.kernel = k.kernel;
      options.format.force = true;
      const SpmvOperator<Value, typename Cfg::ordinal_type, typename Cfg::size_type, Exec> op(Exec(), csr, options);
      BOOST_TEST((op.kernel().name == k.name));
      BOOST_TEST(op.formatBytes() > 0);
      BOOST_TEST(op.storedSlots() >= host.nnz());
      test::checkSpmvAgainstReference<Value, Device>(
          std::string(name) + " " + std::string(k.name), host,
          [&](const auto& x, const auto& y, Value alpha, Value beta) { op.apply(Exec(), x, y, alpha, beta); });
    }
  }
}

BOOST_AUTO_TEST_CASE_TEMPLATE(products_at_once_give_the_bits_of_products_in_turn, Cfg, test::AllConfigs) {
  using Exec = typename Cfg::execution_space;
  using Value = typename Cfg::value_type;
  using Device = typename Cfg::device_type;
  using Csr = CsrMatrix<Value, typename Cfg::ordinal_type, typename Cfg::size_type, Device>;
  using Op = SpmvOperator<Value, typename Cfg::ordinal_type, typename Cfg::size_type, Exec>;
  using Vector = Kokkos::View<Value*, Device>;
  const io::HostMatrix& host = realMatrix("NotreDame_www");  // long rows: BRCP splits rows
  const Csr csr = csrFromHost<Csr>(host);
  const auto xHost = test::randomVector<Value>(host.numCols, 77);
  Vector x("x", host.numCols);
  {
    auto m = Kokkos::create_mirror_view(x);
    for (std::int64_t j = 0; j < host.numCols; ++j) m(j) = xHost[j];
    Kokkos::deep_copy(x, m);
  }
  // The kernels whose products keep values in a workspace between passes.
  for (Kernel kernel : {Kernel::Brc, Kernel::Brcp, Kernel::Vab}) {
    OperatorOptions options;
    options.kernel = kernel;
    options.format.force = true;
    const Op a(Exec(), csr, options);
    const Op b(Exec(), csr, options);  // a second operator on the same CSR Views
    Vector alone("alone", host.numRows), y1("y1", host.numRows), y2("y2", host.numRows), y3("y3", host.numRows);
    a.apply(Exec(), x, alone);
    Exec().fence();
    const std::string expected = hashOf(alone);
    Kokkos::deep_copy(y1, std::numeric_limits<Value>::quiet_NaN());
    Kokkos::deep_copy(y2, std::numeric_limits<Value>::quiet_NaN());
    Kokkos::deep_copy(y3, std::numeric_limits<Value>::quiet_NaN());
    // Two operators at once, then one operator on two instances at once.
    const int atOnce = runConcurrently<Exec>([&](const Exec& e) { a.apply(e, x, y1); },
                                             [&](const Exec& e) { b.apply(e, x, y2); });
    runConcurrently<Exec>([&](const Exec& e) { a.apply(e, x, y1); }, [&](const Exec& e) { a.apply(e, x, y3); });
    const std::string label = std::string(toString(kernel)) + " on " + Exec::name() + " (" +
                              std::to_string(atOnce) + " at once)";
    BOOST_TEST(hashOf(y1) == expected, label);
    BOOST_TEST(hashOf(y2) == expected, label);
    BOOST_TEST(hashOf(y3) == expected, label);
  }
}

BOOST_AUTO_TEST_CASE(unknown_kernels_and_wrong_shapes_are_refused) {
  BOOST_CHECK_THROW(parseKernel("csr-sclar"), InputError);
  BOOST_TEST((parseKernel("auto") == Kernel::Auto));
  for (const KernelEntry& k : kernelRegistry()) BOOST_TEST((parseKernel(k.name) == k.kernel));
  using Exec = Kokkos::DefaultHostExecutionSpace;
  using Csr = CsrMatrix<double, std::int32_t, std::int32_t, Exec::device_type>;
  const Csr csr = csrFromHost<Csr>(realMatrix("sherman3"));
  const SpmvOperator<double, std::int32_t, std::int32_t, Exec> op(Exec(), csr);
  BOOST_TEST((op.kernel().name == "csr-scalar"));  // auto on a host backend
  Kokkos::View<double*, Exec::device_type> x("x", 3), y("y", csr.numRows);
  BOOST_CHECK_EXCEPTION(op.apply(Exec(), x, y), InputError, [](const InputError& e) {
    return std::string(e.what()).find("expected x of") != std::string::npos;
  });
  const SpmvOperator<double, std::int32_t, std::int32_t, Exec> unbuilt;
  BOOST_CHECK_THROW(unbuilt.numRows(), InputError);
}
