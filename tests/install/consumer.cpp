// An application that owns its Kokkos Views and hands them to Araios: a 1-D Laplacian in CSR
// built by hand, y = 2*A*x - y computed by an araios::SpmvOperator and by araios::spmv, checked
// against a host loop.
#include <araios/araios.hpp>

#include <Kokkos_Core.hpp>

#include <cmath>
#include <cstdio>
#include <vector>

int main(int argc, char** argv) {
  Kokkos::ScopeGuard guard(argc, argv);
  using Device = Kokkos::DefaultExecutionSpace::device_type;
  const int n = 1000;
  Kokkos::View<int*, Device> rowPtr("rowPtr", n + 1);
  Kokkos::View<int*, Device> colIdx("colIdx", 3 * n - 2);
  Kokkos::View<double*, Device> values("values", 3 * n - 2);
  Kokkos::View<double*, Device> x("x", n), y("y", n);
  Kokkos::parallel_for(
      "laplacian", n, KOKKOS_LAMBDA(int i) {
        int k = i == 0 ? 0 : 3 * i - 1;
        rowPtr(i) = k;
        if (i > 0) { colIdx(k) = i - 1; values(k++) = -1.0; }
        colIdx(k) = i; values(k++) = 2.0;
        if (i < n - 1) { colIdx(k) = i + 1; values(k++) = -1.0; }
        if (i == n - 1) rowPtr(n) = k;
        x(i) = 0.001 * i * i;
        y(i) = 1.0;
      });
  araios::CsrMatrix<double, int, int, Device> A{n, n, rowPtr, colIdx, values};
  // The same product twice: through an operator prepared for BRCP (which keeps a workspace),
  // and through the free function on the CSR matrix; both must be right.
  Kokkos::View<double*, Device> y2("y2", n);
  Kokkos::deep_copy(y2, y);
  araios::OperatorOptions options;
  options.kernel = araios::Kernel::Brcp;
  const araios::SpmvOperator<double, int, int> op(Kokkos::DefaultExecutionSpace(), A, options);
  op.apply(Kokkos::DefaultExecutionSpace(), x, y2, 2.0, -1.0);
  araios::spmv(Kokkos::DefaultExecutionSpace(), A, x, y, 2.0, -1.0);
  Kokkos::fence();
  auto y2Host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), y2);

  auto yHost = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), y);
  int wrong = 0;
  for (int i = 0; i < n; ++i) {
    auto xv = [](int j) { return 0.001 * j * j; };
    double ax = 2.0 * xv(i) - (i > 0 ? xv(i - 1) : 0.0) - (i < n - 1 ? xv(i + 1) : 0.0);
    double expected = 2.0 * ax - 1.0;
    if (std::fabs(yHost(i) - expected) > 1e-12 * (1.0 + std::fabs(expected))) ++wrong;
    if (std::fabs(y2Host(i) - expected) > 1e-12 * (1.0 + std::fabs(expected))) ++wrong;
  }
  std::printf("consumer: %s, %d of %d entries wrong\n", wrong ? "FAILED" : "ok", wrong, n);

  // With a matrix file: y = A*x with the x of `araios repro` (seed 42) through an operator of
  // each kernel named, deterministic mode, and the hash of y's bits, which must be repro's.
  if (argc > 2) {
    const araios::io::HostMatrix host = araios::io::readMatrixMarket(argv[1]);
    using Exec = Kokkos::DefaultExecutionSpace;
    using Csr = araios::CsrMatrix<double, int, int, Exec::device_type>;
    const Csr csr = araios::csrFromHost<Csr>(host);
    const std::vector<double> xHost = araios::seededVector<double>(host.numCols, 42);
    Kokkos::View<double*, Device> xs("x", host.numCols), ys("y", host.numRows);
    auto xm = Kokkos::create_mirror_view(xs);
    for (std::int64_t j = 0; j < host.numCols; ++j) xm(j) = xHost[j];
    Kokkos::deep_copy(xs, xm);
    for (int k = 2; k < argc; ++k) {
      araios::OperatorOptions kernel;
      kernel.kernel = araios::parseKernel(argv[k]);
      const araios::SpmvOperator<double, int, int, Exec> A(Exec(), csr, kernel);
      A.apply(Exec(), xs, ys);
      Kokkos::fence();
      std::printf("hash %s %s\n", argv[k], araios::hashBits(Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), ys)).c_str());
    }
  }
  return wrong ? 1 : 0;
}
