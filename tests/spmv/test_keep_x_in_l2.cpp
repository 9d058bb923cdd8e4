// SpmvOptions::keepXInL2 and OperatorOptions::keepXInL2 (detail/l2_window.hpp): a product that
// keeps x in L2 gives the bits of the same product without it, for every registry kernel in the
// modes that promise bits, and both stay within the rounding bound of the long-double host
// reference; y is poisoned before each product. On CUDA the window is on the stream while the
// product's kernels are queued and the stream's previous window is back afterwards, also when
// the product throws.
#define BOOST_TEST_MODULE keep_x_in_l2
#include <boost/test/unit_test.hpp>

#include "support/generated.hpp"
#include "support/kokkos_env.hpp"
#include "support/spmv_check.hpp"

#include <araios/araios.hpp>
#include <araios/detail/l2_window.hpp>

#include <Kokkos_Core.hpp>

#include <cstring>
#include <limits>
#include <optional>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

using namespace araios;

using araios::test::KokkosFixture;
BOOST_TEST_GLOBAL_FIXTURE(KokkosFixture);

namespace {

/// The two shapes the option is meant for: rows of 1 to 8 entries with one row of 22,000
/// (power-law-like), and uniform random rows.
std::vector<std::pair<std::string, io::HostMatrix>> testMatrices() {
  return {{"power_law_long_row", test::powerLawWithLongRow()}, {"random", test::randomMatrix(6000, 5000, 0, 24, 41)}};
}

/// y after run(y) on a y poisoned with NaN, on the host.
template <class Vector, class Run>
std::vector<typename Vector::non_const_value_type> productOnPoisonedY(const Vector& y, const Run& run) {
  using Value = typename Vector::non_const_value_type;
  Kokkos::deep_copy(y, std::numeric_limits<Value>::quiet_NaN());
  run();
  Kokkos::fence();
  const auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), y);
  return std::vector<Value>(h.data(), h.data() + h.extent(0));
}

template <class Value>
bool sameBits(const std::vector<Value>& a, const std::vector<Value>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(Value)) == 0;
}

#ifdef KOKKOS_ENABLE_CUDA
std::size_t windowBytesOn(cudaStream_t stream) {
  cudaStreamAttrValue value{};
  BOOST_REQUIRE(cudaStreamGetAttribute(stream, cudaStreamAttributeAccessPolicyWindow, &value) == cudaSuccess);
  return value.accessPolicyWindow.num_bytes;
}
#endif

}  // namespace

BOOST_AUTO_TEST_CASE_TEMPLATE(operator_products_keep_their_bits_with_x_in_l2, Cfg, test::AllConfigs) {
  using Exec = typename Cfg::execution_space;
  using Value = typename Cfg::value_type;
  using Device = typename Cfg::device_type;
  using Csr = CsrMatrix<Value, typename Cfg::ordinal_type, typename Cfg::size_type, Device>;
  using Op = SpmvOperator<Value, typename Cfg::ordinal_type, typename Cfg::size_type, Exec>;
  using Vector = Kokkos::View<Value*, Device>;
  for (const auto& [name, host] : testMatrices()) {
    const Csr csr = csrFromHost<Csr>(host);
    const auto xHost = test::randomVector<Value>(host.numCols, 91);
    Vector x("x", host.numCols), y("y", host.numRows);
    Kokkos::deep_copy(x, Kokkos::View<const Value*, Kokkos::HostSpace>(xHost.data(), xHost.size()));
    for (const KernelEntry& k : kernelRegistry()) {
      for (const Mode mode : {Mode::Fast, Mode::Deterministic, Mode::Accurate}) {
        const std::string label = name + " " + std::string(k.name) + " " + toString(mode);
        OperatorOptions options;
        options.kernel = k.kernel;
        options.mode = mode;
        OperatorOptions inL2 = options;
        inL2.keepXInL2 = true;
        std::optional<Op> usual, kept;
        try {
          usual.emplace(Exec(), csr, options);
          kept.emplace(Exec(), csr, inL2);
        } catch (const PaddingError&) {
          continue;  // a padded format that refuses this shape: the option is checked on the others
        }
        const auto without = productOnPoisonedY(y, [&] { usual->apply(Exec(), x, y); });
        const auto with = productOnPoisonedY(y, [&] { kept->apply(Exec(), x, y); });
        // Fast mode's atomics may order a sum differently from one run to the next on a GPU:
        // there the reference bound is the check.
        if (mode != Mode::Fast || k.fast.runToRun) {
          BOOST_TEST(sameBits(without, with), label << ": x in L2 changed the bits");
        }
        test::checkSpmvAgainstReference<Value, Device>(
            label + " x in L2", host,
            [&](const auto& xv, const auto& yv, Value alpha, Value beta) { kept->apply(Exec(), xv, yv, alpha, beta); });
      }
    }
  }
}

BOOST_AUTO_TEST_CASE_TEMPLATE(bare_products_keep_their_bits_with_x_in_l2, Cfg, test::AllConfigs) {
  using Exec = typename Cfg::execution_space;
  using Value = typename Cfg::value_type;
  using Device = typename Cfg::device_type;
  using Csr = CsrMatrix<Value, typename Cfg::ordinal_type, typename Cfg::size_type, Device>;
  using Vector = Kokkos::View<Value*, Device>;
  for (const auto& [name, host] : testMatrices()) {
    const Csr csr = csrFromHost<Csr>(host);
    const auto coo = cooFromCsr(Exec(), csr);
    const auto xHost = test::randomVector<Value>(host.numCols, 92);
    Vector x("x", host.numCols), y("y", host.numRows);
    Kokkos::deep_copy(x, Kokkos::View<const Value*, Kokkos::HostSpace>(xHost.data(), xHost.size()));
    for (const SpmvAlgorithm algorithm : {SpmvAlgorithm::CsrScalar, SpmvAlgorithm::CsrVector, SpmvAlgorithm::CsrMerge}) {
      SpmvOptions options;
      options.algorithm = algorithm;
      SpmvOptions inL2 = options;
      inL2.keepXInL2 = true;
      const std::string label = name + " " + toString(algorithm);
      const auto without = productOnPoisonedY(y, [&] { spmv(Exec(), csr, x, y, Value(1), Value(0), options); });
      const auto with = productOnPoisonedY(y, [&] { spmv(Exec(), csr, x, y, Value(1), Value(0), inL2); });
      BOOST_TEST(sameBits(without, with), label << ": x in L2 changed the bits");
      test::checkSpmvAgainstReference<Value, Device>(
          label + " x in L2", host,
          [&](const auto& xv, const auto& yv, Value alpha, Value beta) { spmv(Exec(), csr, xv, yv, alpha, beta, inL2); });
    }
    // A format without a choice of algorithm, through the same entry.
    SpmvOptions inL2;
    inL2.keepXInL2 = true;
    const auto without = productOnPoisonedY(y, [&] { spmv(Exec(), coo, x, y, Value(1), Value(0)); });
    const auto with = productOnPoisonedY(y, [&] { spmv(Exec(), coo, x, y, Value(1), Value(0), inL2); });
    BOOST_TEST(sameBits(without, with), name << " coo: x in L2 changed the bits");
  }
}

BOOST_AUTO_TEST_CASE_TEMPLATE(the_window_covers_the_product_and_is_removed_after, Exec, test::EnabledSpaces) {
  using Vector = Kokkos::View<double*, typename Exec::device_type>;
  const Vector x("x", 100000);
  const Exec exec;
  bool ran = false;
  Impl::withXInL2(exec, x, true, [&] {
    ran = true;
#ifdef KOKKOS_ENABLE_CUDA
    if constexpr (std::is_same_v<Exec, Kokkos::Cuda>) {
      const Impl::L2WindowShape shape =
          Impl::BackendKernel<Impl::L2PersistingWindow, Kokkos::Cuda>::shapeFor(exec, x.span() * sizeof(double));
      BOOST_TEST_MESSAGE("x in L2 on this device: window " << shape.bytes << " bytes, hit ratio " << shape.hitRatio
                                                           << ", set-aside " << shape.setAsideBytes << " bytes");
      BOOST_TEST(windowBytesOn(exec.cuda_stream()) == shape.bytes);
    }
#endif
  });
  BOOST_TEST(ran);
  // A product that throws: the exception leaves unchanged and the window is removed.
  BOOST_CHECK_THROW(Impl::withXInL2(exec, x, true, [] { throw std::runtime_error("a failed product"); }),
                    std::runtime_error);
#ifdef KOKKOS_ENABLE_CUDA
  if constexpr (std::is_same_v<Exec, Kokkos::Cuda>) {
    BOOST_TEST(windowBytesOn(exec.cuda_stream()) == 0u);
    // A window the application put on its own stream is the one left there afterwards.
    cudaStream_t stream;
    BOOST_REQUIRE(cudaStreamCreate(&stream) == cudaSuccess);
    {
      const Kokkos::Cuda own(stream);
      const Vector other("other", 4096);
      cudaStreamAttrValue mine{};
      mine.accessPolicyWindow.base_ptr = other.data();
      mine.accessPolicyWindow.num_bytes = other.span() * sizeof(double);
      mine.accessPolicyWindow.hitRatio = 0.5f;
      mine.accessPolicyWindow.hitProp = cudaAccessPropertyPersisting;
      mine.accessPolicyWindow.missProp = cudaAccessPropertyStreaming;
      BOOST_REQUIRE(cudaStreamSetAttribute(stream, cudaStreamAttributeAccessPolicyWindow, &mine) == cudaSuccess);
      Impl::withXInL2(own, x, true, [] {});
      BOOST_TEST(windowBytesOn(stream) == mine.accessPolicyWindow.num_bytes);
      own.fence();
    }
    BOOST_REQUIRE(cudaStreamDestroy(stream) == cudaSuccess);
  }
#endif
}
