// COO, CSR (scalar and vector) and CSC SpMV against the long-double host reference, on every
// real matrix and on the generated edge cases, for every enabled backend and index/value type.
#define BOOST_TEST_MODULE spmv_basic
#define BOOST_TEST_DYN_LINK
#include <boost/test/unit_test.hpp>

#include "support/generated.hpp"
#include "support/kokkos_env.hpp"
#include "support/real_matrices.hpp"

#include <araios/araios.hpp>
#include <araios/reference_spmv.hpp>

#include <functional>
#include <limits>

using araios::test::KokkosFixture;
BOOST_TEST_GLOBAL_FIXTURE(KokkosFixture);

namespace {

using namespace araios;

template <class Cfg>
struct Kernels {
  using Exec = typename Cfg::execution_space;
  using Value = typename Cfg::value_type;
  using Device = typename Cfg::device_type;
  using Coo = CooMatrix<Value, typename Cfg::ordinal_type, typename Cfg::size_type, Device>;
  using Csr = CsrMatrix<Value, typename Cfg::ordinal_type, typename Cfg::size_type, Device>;
  using Csc = CscMatrix<Value, typename Cfg::ordinal_type, typename Cfg::size_type, Device>;
  using Vector = Kokkos::View<Value*, Device>;
  using Run = std::function<void(const Vector& x, const Vector& y, Value alpha, Value beta)>;

  std::vector<std::pair<std::string, Run>> all;

  explicit Kernels(const io::HostMatrix& host) {
    Exec exec;
    Coo coo = cooFromHost<Coo>(host);
    Csr csr = csrFromCoo(exec, coo);
    Csc csc = cscFromCsr(exec, csr);
    exec.fence();
    all.emplace_back("coo", [=](auto x, auto y, Value a, Value b) { spmv(exec, coo, x, y, a, b); });
    all.emplace_back("csr-scalar", [=](auto x, auto y, Value a, Value b) {
      spmv(exec, csr, x, y, a, b, {SpmvAlgorithm::CsrScalar});
    });
    all.emplace_back("csr-vector", [=](auto x, auto y, Value a, Value b) {
      spmv(exec, csr, x, y, a, b, {SpmvAlgorithm::CsrVector});
    });
    all.emplace_back("csc", [=](auto x, auto y, Value a, Value b) { spmv(exec, csc, x, y, a, b); });
  }
};

template <class Cfg>
void checkKernels(const std::string& name, const io::HostMatrix& host) {
  using K = Kernels<Cfg>;
  using Value = typename K::Value;
  K kernels(host);
  const auto xHost = test::randomVector<Value>(host.numCols, 1234);
  const auto y0Host = test::randomVector<Value>(host.numRows, 5678);
  typename K::Vector x("x", host.numCols), y("y", host.numRows);
  auto xMirror = Kokkos::create_mirror_view(x);
  auto yMirror = Kokkos::create_mirror_view(y);
  for (std::int64_t j = 0; j < host.numCols; ++j) xMirror(j) = xHost[j];
  Kokkos::deep_copy(x, xMirror);

  const std::pair<Value, Value> scalings[] = {{Value(1), Value(0)}, {Value(-0.75), Value(0.5)}};
  for (const auto& [alpha, beta] : scalings) {
    const ReferenceSpmv ref = referenceSpmv<Value>(host, xHost, alpha, beta, y0Host);
    for (const auto& [kernel, run] : kernels.all) {
      // Poison y: with beta = 0 every entry must be overwritten; otherwise it holds y0.
      for (std::int64_t i = 0; i < host.numRows; ++i)
        yMirror(i) = beta == Value(0) ? std::numeric_limits<Value>::quiet_NaN() : y0Host[i];
      Kokkos::deep_copy(y, yMirror);
      run(x, y, alpha, beta);
      Kokkos::fence();
      Kokkos::deep_copy(yMirror, y);
      std::int64_t failures = 0;
      for (std::int64_t i = 0; i < host.numRows; ++i) {
        const long double err = std::fabs(static_cast<long double>(yMirror(i)) - ref.y[i]);
        const long double bound = spmvErrorBound<Value>(ref.rowLength[i], ref.magnitude[i]);
        if (!(err <= bound)) {
          if (failures++ == 0) {
            BOOST_ERROR(name << " " << kernel << " alpha=" << alpha << " beta=" << beta << ": row " << i << " got "
                             << yMirror(i) << ", reference " << static_cast<double>(ref.y[i]) << ", error "
                             << static_cast<double>(err) << " > bound " << static_cast<double>(bound));
          }
        }
      }
      BOOST_TEST(failures == 0, name << " " << kernel << ": " << failures << " rows outside the bound");
    }
  }
}

}  // namespace

BOOST_AUTO_TEST_CASE_TEMPLATE(real_matrices, Cfg, test::AllConfigs) {
  for (const auto& m : test::realMatrices()) checkKernels<Cfg>(m.name, m.matrix);
}

BOOST_AUTO_TEST_CASE_TEMPLATE(generated_matrices, Cfg, test::AllConfigs) {
  for (const auto& c : test::generatedCases()) checkKernels<Cfg>(c.name, c.matrix);
}

BOOST_AUTO_TEST_CASE_TEMPLATE(refuses_mismatched_vectors, Cfg, test::AllConfigs) {
  using K = Kernels<Cfg>;
  K kernels(test::randomMatrix(10, 7, 1, 3, 1));
  typename K::Vector x("x", 8), y("y", 10);
  for (const auto& [kernel, run] : kernels.all) {
    BOOST_CHECK_EXCEPTION(run(x, y, 1, 0), InputError, [](const InputError& e) {
      return std::string(e.what()).find("expected x of 7 and y of 10") != std::string::npos;
    });
  }
}

BOOST_AUTO_TEST_CASE_TEMPLATE(refuses_algorithm_of_another_format, Cfg, test::AllConfigs) {
  using K = Kernels<Cfg>;
  typename K::Exec exec;
  auto coo = cooFromHost<typename K::Coo>(test::randomMatrix(5, 5, 1, 2, 3));
  typename K::Vector x("x", 5), y("y", 5);
  BOOST_CHECK_THROW(spmv(exec, coo, x, y, 1, 0, {SpmvAlgorithm::CsrVector}), UnsupportedError);
}
