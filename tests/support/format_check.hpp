#pragma once
// What every format test does with one matrix: build the format from CSR (or check that it is
// refused for its padding, with a message that says so), and convert it back to CSR, which
// must give the identical matrix.
#include <araios/araios.hpp>
#include <araios/format_options.hpp>

#include <Kokkos_Core.hpp>
#include <boost/test/unit_test.hpp>

#include <cstring>
#include <optional>
#include <string>

namespace araios::test {

template <class View>
bool sameContents(const View& a, const View& b) {
  if (a.extent(0) != b.extent(0)) return false;
  auto ha = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), a);
  auto hb = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), b);
  return a.extent(0) == 0 || std::memcmp(ha.data(), hb.data(), a.extent(0) * sizeof(typename View::value_type)) == 0;
}

/// True when both CSR matrices hold the same shape, structure and value bits.
template <class Csr>
bool identicalCsr(const Csr& a, const Csr& b) {
  return a.numRows == b.numRows && a.numCols == b.numCols && sameContents(a.rowPtr, b.rowPtr) &&
         sameContents(a.colIdx, b.colIdx) && sameContents(a.values, b.values);
}

/// Builds the format with build(exec, csr). If the format refuses the matrix for its padding,
/// checks the refusal (ratio past the limit, message naming the way to force it) and returns
/// nothing. Otherwise checks that toCsr(exec, format) gives back `csr` exactly.
template <class ExecSpace, class Csr, class Build, class ToCsr>
auto buildChecked(const std::string& label, const ExecSpace& exec, const Csr& csr, const Build& build,
                  const ToCsr& toCsr) -> std::optional<decltype(build(exec, csr))> {
  using Format = decltype(build(exec, csr));
  std::optional<Format> format;
  try {
    format = build(exec, csr);
  } catch (const PaddingError& e) {
    BOOST_TEST(e.ratio() > kDefaultMaxPaddingRatio, label << ": refused at padding ratio " << e.ratio());
    BOOST_TEST(std::string(e.what()).find("force") != std::string::npos, label << ": " << e.what());
    return std::nullopt;
  }
  exec.fence();
  BOOST_TEST(identicalCsr(toCsr(exec, *format), csr), label << ": conversion back to CSR differs");
  return format;
}

}  // namespace araios::test
