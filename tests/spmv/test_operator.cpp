// SpmvOperator: every registry kernel through one operator against the host reference, its
// bytes, its refusals, the plan it says it chose, and products that run at once: two operators,
// and two applies of one operator, on two execution space instances (CUDA streams, OpenMP
// partitions), giving the bits of the same products run one at a time.
#define BOOST_TEST_MODULE operator
#include <boost/test/unit_test.hpp>

#include "support/generated.hpp"
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
#include <atomic>
#include <chrono>
#include <exception>
#include <limits>
#include <string>
#include <thread>
#include <tuple>
#include <type_traits>
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
/// partitions of the thread pool. Serial and OpenMP on one thread run them one after the other.
/// Returns how many ran at once.
///
/// OpenMP under Kokkos 3.x: partition_master, which runs the partitions only when nested OpenMP
/// is on (it is turned on here for the call).
/// OpenMP under Kokkos 4, which has no partition_master: partition_space gives two instances of
/// about half the pool each. An OpenMP instance runs a kernel to completion on the host thread
/// that submits it, so from one thread the two products would run in turn: each instance gets a
/// std::thread of its own, and the two are released together from a gate. Each thread's
/// parallel regions are top-level regions of that thread, so no nested OpenMP is needed (from the
/// threads of an OpenMP parallel region instead, the instances would run serially unless nested
/// OpenMP were on). OMP_PROC_BIND must stay false (ctest sets it): when true, both std::threads
/// inherit the main thread's binding to the first place, so the two teams are put on the same
/// cores.
/// The OS may still run the two threads one after the other (with another process on one of
/// two cores, a product of a few milliseconds can finish within one time slice): the returned
/// count says whether the two products' spans overlapped, and a message gives the spans when not.
template <class ExecSpace, class F1, class F2>
int runConcurrently(const F1& first, const F2& second) {
#ifdef KOKKOS_ENABLE_OPENMP
  if constexpr (std::is_same_v<ExecSpace, Kokkos::OpenMP>) {
    if (Kokkos::OpenMP().concurrency() < 2) {  // one thread cannot be split in two partitions
      first(Kokkos::OpenMP());
      second(Kokkos::OpenMP());
      return 1;
    }
#if KOKKOS_VERSION >= 40000
    const std::vector<Kokkos::OpenMP> instances = Kokkos::Experimental::partition_space(Kokkos::OpenMP(), 1, 1);
    BOOST_REQUIRE_EQUAL(instances.size(), 2u);
    using Clock = std::chrono::steady_clock;
    std::atomic<int> waiting{2};
    Clock::time_point began[2], ended[2];
    std::exception_ptr failed[2];
    const auto run = [&](int i) {
      waiting.fetch_sub(1);
      while (waiting.load() > 0) std::this_thread::yield();
      began[i] = Clock::now();
      try {  // an exception may not leave a std::thread: it is rethrown on the test's thread
        if (i == 0) {
          first(instances[0]);
        } else {
          second(instances[1]);
        }
        instances[i].fence();
      } catch (...) {
        failed[i] = std::current_exception();
      }
      ended[i] = Clock::now();
    };
    std::thread t0(run, 0), t1(run, 1);
    t0.join();
    t1.join();
    instances[0].fence();
    instances[1].fence();
    for (const std::exception_ptr& e : failed) {
      if (e) std::rethrow_exception(e);
    }
    const bool overlapped = std::max(began[0], began[1]) < std::min(ended[0], ended[1]);
    if (!overlapped) {
      const auto us = [](Clock::duration d) {
        return std::chrono::duration_cast<std::chrono::microseconds>(d).count();
      };
      BOOST_TEST_MESSAGE("the two OpenMP instances' products did not overlap in time: " << us(ended[0] - began[0])
                         << " us and " << us(ended[1] - began[1]) << " us, starting " << us(began[1] - began[0])
                         << " us apart");
    }
    return overlapped ? 2 : 1;
#else
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
#endif
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
  // The kernels whose products keep values in a workspace between passes, and VAB, whose teams
  // of one product at once share the operator's plan.
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

/// An operator says what it chose for its products: csr-merge whether its short rows go apart
/// (where no team holds a row of more than 16 entries they do; where every team does, the whole
/// path runs), COO and CSC how they walk their rows in CSR order (by teams only on a GPU with a
/// row past 256 entries), and a kernel that chooses nothing says nothing.
BOOST_AUTO_TEST_CASE_TEMPLATE(operators_say_the_plan_they_chose, Cfg, test::AllConfigs) {
  using Exec = typename Cfg::execution_space;
  using Value = typename Cfg::value_type;
  using Csr = CsrMatrix<Value, typename Cfg::ordinal_type, typename Cfg::size_type, typename Cfg::device_type>;
  using Op = SpmvOperator<Value, typename Cfg::ordinal_type, typename Cfg::size_type, Exec>;
  const std::int64_t rows = 60000;
  std::vector<std::tuple<std::int64_t, std::int64_t, double>> shortRows, longRows;
  for (std::int64_t r = 0; r < rows; ++r) {
    for (std::int64_t k = 0; k < 5; ++k) shortRows.emplace_back(r, (r + 7 * k) % rows, 1.0 + k);
    // Rows of 20 entries everywhere, and one of 40,000: every team holds a long row's items.
    const std::int64_t length = r == 123 ? 40000 : 20;
    for (std::int64_t k = 0; k < length; ++k) longRows.emplace_back(r, (r + k) % rows, 0.5 + k % 3);
  }
  const io::HostMatrix shortHost = test::fromTriplets(rows, rows, std::move(shortRows));
  const io::HostMatrix longHost = test::fromTriplets(rows, rows, std::move(longRows));
  // Teams of the merge path: rows + nnz items, 16 a segment, csrMergeSegmentsPerTeam a team.
  const auto teamsOf = [&](const io::HostMatrix& m) {
    const std::int64_t segments = (m.numRows + m.nnz() + 15) / 16;
    const std::int64_t perTeam = Impl::csrMergeSegmentsPerTeam<Exec>();
    return std::to_string((segments + perTeam - 1) / perTeam);
  };
  const Csr shortCsr = csrFromHost<Csr>(shortHost), longCsr = csrFromHost<Csr>(longHost);
  const auto planOf = [](const Csr& csr, Kernel kernel, Mode mode) {
    OperatorOptions options;
    options.kernel = kernel;
    options.mode = mode;
    return Op(Exec(), csr, options).plan();
  };
  const bool keptOnPath = Impl::mergeShortRowsKeptOnPathByEnvironment();
  BOOST_TEST(planOf(shortCsr, Kernel::CsrMerge, Mode::Deterministic) ==
             (keptOnPath ? "csr-merge: the whole merge path, " + teamsOf(shortHost) + " teams"
                         : "csr-merge: short rows apart, then 0 of " + teamsOf(shortHost) + " teams on the merge path"));
  BOOST_TEST(planOf(longCsr, Kernel::CsrMerge, Mode::Fast) ==
             "csr-merge: the whole merge path, " + teamsOf(longHost) + " teams");
  BOOST_TEST(planOf(longCsr, Kernel::CsrScalar, Mode::Deterministic).empty());
  BOOST_TEST(planOf(shortCsr, Kernel::Ell, Mode::Deterministic).empty());
  const bool gpu = !Impl::isHostSpace<Exec>();
  BOOST_TEST(planOf(longCsr, Kernel::Coo, Mode::Deterministic) ==
             (gpu ? "rows in CSR order: by teams (some row is long)" : "rows in CSR order: a thread per row"));
  BOOST_TEST(planOf(shortCsr, Kernel::Coo, Mode::Deterministic) == "rows in CSR order: a thread per row");
  // CSC keeps its row order, and the walk's plan with it, for Deterministic mode only.
  BOOST_TEST(planOf(longCsr, Kernel::Csc, Mode::Deterministic) ==
             (gpu ? "rows in CSR order: by teams (some row is long)" : "rows in CSR order: a thread per row"));
  BOOST_TEST(planOf(longCsr, Kernel::Csc, Mode::Fast).empty());
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
