#pragma once
// y = alpha*A*x + beta*y for every Araios format, on any enabled Kokkos backend.
//
//   araios::spmv(exec, A, x, y, alpha, beta);                       // the format's default kernel
//   araios::spmv(exec, A, x, y, alpha, beta, {araios::SpmvAlgorithm::CsrVector});
//
// x and y are any rank-1 Kokkos Views that `exec` can access (the caller's own Views work).
// When beta is zero, y is overwritten without being read. The call is asynchronous with
// respect to the host, like any Kokkos kernel on `exec`: fence before reading y on the host.
#include <araios/detail/spmv_dispatch.hpp>
#include <araios/error.hpp>
#include <formats/brc/brc_spmv.hpp>
#include <formats/brcp/brcp_spmv.hpp>
#include <formats/coo/coo_spmv.hpp>
#include <formats/csc/csc_spmv.hpp>
#include <formats/csr/csr_spmv.hpp>
#include <formats/dia/dia_spmv.hpp>
#include <formats/ell/ell_spmv.hpp>
#include <formats/hyb/hyb_spmv.hpp>
#include <formats/jds/jds_spmv.hpp>
#include <formats/sccsr/sccsr_spmv.hpp>
#include <formats/sell/sell_spmv.hpp>
#include <formats/vab/vab_spmv.hpp>

#include <Kokkos_Core.hpp>

#include <string>

namespace araios {

template <class ExecSpace, class Matrix, class XView, class YView>
void spmv(const ExecSpace& exec, const Matrix& A, const XView& x, const YView& y,
          typename Matrix::value_type alpha, typename Matrix::value_type beta, const SpmvOptions& options = {}) {
  static_assert(Kokkos::is_view<XView>::value && XView::rank == 1, "x must be a rank-1 Kokkos::View");
  static_assert(Kokkos::is_view<YView>::value && YView::rank == 1, "y must be a rank-1 Kokkos::View");
  static_assert(Kokkos::SpaceAccessibility<ExecSpace, typename Matrix::memory_space>::accessible,
                "the matrix lives in a memory space this execution space cannot access");
  static_assert(Kokkos::SpaceAccessibility<ExecSpace, typename XView::memory_space>::accessible,
                "x lives in a memory space this execution space cannot access");
  static_assert(Kokkos::SpaceAccessibility<ExecSpace, typename YView::memory_space>::accessible,
                "y lives in a memory space this execution space cannot access");
  static_assert(std::is_same_v<typename YView::value_type, typename Matrix::value_type>,
                "y must hold non-const values of the matrix's value type");
  if (static_cast<std::int64_t>(x.extent(0)) != static_cast<std::int64_t>(A.numCols) ||
      static_cast<std::int64_t>(y.extent(0)) != static_cast<std::int64_t>(A.numRows)) {
    throw InputError("spmv: the matrix is " + std::to_string(A.numRows) + " x " + std::to_string(A.numCols) +
                     " but x has " + std::to_string(x.extent(0)) + " and y " + std::to_string(y.extent(0)) +
                     " entries; expected x of " + std::to_string(A.numCols) + " and y of " +
                     std::to_string(A.numRows));
  }
  Impl::Spmv<ExecSpace, Matrix>::apply(exec, A, x, y, alpha, beta, options);
}

}  // namespace araios
