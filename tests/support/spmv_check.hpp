#pragma once
// The checks every SpMV kernel gets: the result against the long-double host reference within
// the rounding-error bound (y poisoned with NaN first), and bitwise repeatability.
#include "support/generated.hpp"

#include <araios/reference_spmv.hpp>

#include <Kokkos_Core.hpp>
#include <boost/test/unit_test.hpp>

#include <cmath>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

namespace araios::test {

/// run(x, y, alpha, beta) computes y = alpha*A*x + beta*y for the matrix `host` on the device.
/// Checked with (alpha, beta) = (1, 0) on a NaN-filled y, and (-0.75, 0.5) on a random y.
template <class Value, class Device, class Run>
void checkSpmvAgainstReference(const std::string& label, const io::HostMatrix& host, const Run& run) {
  const auto xHost = randomVector<Value>(host.numCols, 1234);
  const auto y0Host = randomVector<Value>(host.numRows, 5678);
  Kokkos::View<Value*, Device> x("x", host.numCols), y("y", host.numRows);
  auto xMirror = Kokkos::create_mirror_view(x);
  auto yMirror = Kokkos::create_mirror_view(y);
  for (std::int64_t j = 0; j < host.numCols; ++j) xMirror(j) = xHost[j];
  Kokkos::deep_copy(x, xMirror);

  const std::pair<Value, Value> scalings[] = {{Value(1), Value(0)}, {Value(-0.75), Value(0.5)}};
  for (const auto& [alpha, beta] : scalings) {
    const ReferenceSpmv ref = referenceSpmv<Value>(host, xHost, alpha, beta, y0Host);
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
      if (!(err <= bound) && failures++ == 0) {
        BOOST_ERROR(label << " alpha=" << alpha << " beta=" << beta << ": row " << i << " got " << yMirror(i)
                          << ", reference " << static_cast<double>(ref.y[i]) << ", error " << static_cast<double>(err)
                          << " > bound " << static_cast<double>(bound));
      }
    }
    BOOST_TEST(failures == 0, label << ": " << failures << " rows outside the error bound");
  }
}

/// Runs the product `runs` times on the same input and requires bitwise-identical y.
template <class Value, class Device, class Run>
void checkRepeatable(const std::string& label, const io::HostMatrix& host, const Run& run, int runs) {
  const auto xHost = randomVector<Value>(host.numCols, 4321);
  Kokkos::View<Value*, Device> x("x", host.numCols), y("y", host.numRows);
  auto xMirror = Kokkos::create_mirror_view(x);
  for (std::int64_t j = 0; j < host.numCols; ++j) xMirror(j) = xHost[j];
  Kokkos::deep_copy(x, xMirror);
  std::vector<Value> first;
  for (int r = 0; r < runs; ++r) {
    Kokkos::deep_copy(y, std::numeric_limits<Value>::quiet_NaN());
    run(x, y, Value(1), Value(0));
    Kokkos::fence();
    auto yHost = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), y);
    std::vector<Value> now(yHost.data(), yHost.data() + yHost.extent(0));
    if (r == 0) {
      first = now;
    } else if (!first.empty() && std::memcmp(first.data(), now.data(), first.size() * sizeof(Value)) != 0) {
      BOOST_ERROR(label << ": run " << r << " differs in its bits from run 0");
      return;
    }
  }
}

}  // namespace araios::test
