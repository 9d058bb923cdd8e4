// COO, CSR (scalar and vector) and CSC SpMV against the long-double host reference, on every
// real matrix and on the generated edge cases, for every enabled backend and index/value type.
#define BOOST_TEST_MODULE spmv_basic
#include <boost/test/unit_test.hpp>

#include "support/generated.hpp"
#include "support/kokkos_env.hpp"
#include "support/real_matrices.hpp"
#include "support/spmv_check.hpp"

#include <araios/araios.hpp>

#include <functional>

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
  Kernels<Cfg> kernels(host);
  for (const auto& [kernel, run] : kernels.all) {
    test::checkSpmvAgainstReference<typename Cfg::value_type, typename Cfg::device_type>(name + " " + kernel, host, run);
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
