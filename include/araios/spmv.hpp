#pragma once
// y = alpha*A*x + beta*y for every Araios format, on any enabled Kokkos backend.
//
//   araios::spmv(exec, A, x, y, alpha, beta);                       // the format's default kernel
//   araios::spmv(exec, A, x, y, alpha, beta, {araios::SpmvAlgorithm::CsrVector});
//
// x and y are any rank-1 Kokkos Views that `exec` can access (the caller's own Views work).
// When beta is zero, y is overwritten without being read. The call is asynchronous with
// respect to the host, like any Kokkos kernel on `exec` (fence before reading y on the host),
// except for the products that need workspace (BRC, BRCP with split rows, csr-merge, and CSR's
// default, which may choose csr-merge): the workspace is allocated for the call and the call
// fences before freeing it. CSR's default first finds the longest row, on a GPU and in
// Deterministic mode (a pass over the rows that the call waits for; formats/csr/csr_default.hpp;
// an SpmvOperator names its kernel and needs none). Pass a workspace
// of your own (spmvWorkspaceValues) to keep those asynchronous, or hold an SpmvOperator
// (araios/operator.hpp), which keeps its workspace and its format for many products.
// A bare matrix has no prepared state (detail/spmv_state.hpp), so the products that need one
// make it on every call and fence before freeing it: CSC in deterministic and accurate modes
// groups its entries by row, BRCP and SC-CSR in accurate mode convert to CSR, VAB on a GPU finds
// where each team's rows begin. An SpmvOperator makes it once.
// SpmvOptions::keepXInL2 puts the backend's cache hint for x (detail/l2_window.hpp) around the
// product here, for every format.
#include <araios/backends/backends.hpp>
#include <araios/detail/l2_window.hpp>
#include <araios/detail/spmv_dispatch.hpp>
#include <araios/detail/spmv_state.hpp>
#include <araios/error.hpp>
#include <araios/formats/brc/brc_spmv.hpp>
#include <araios/formats/brcp/brcp_spmv.hpp>
#include <araios/formats/coo/coo_spmv.hpp>
#include <araios/formats/csc/csc_spmv.hpp>
#include <araios/formats/csr/csr_spmv.hpp>
#include <araios/formats/dia/dia_spmv.hpp>
#include <araios/formats/ell/ell_spmv.hpp>
#include <araios/formats/hyb/hyb_spmv.hpp>
#include <araios/formats/jds/jds_spmv.hpp>
#include <araios/formats/sccsr/sccsr_spmv.hpp>
#include <araios/formats/sell/sell_spmv.hpp>
#include <araios/formats/vab/vab_spmv.hpp>

#include <Kokkos_Core.hpp>

#include <string>

namespace araios {
namespace Impl {

/// The product on the Views every compiled instantiation takes (araios/instantiations.hpp):
/// x and y contiguous in the matrix's memory space, with the format's prepared state (an
/// operator's, or empty). Not inline, so that an explicit instantiation declaration keeps it
/// out of the caller's translation unit.
template <class ExecSpace, class Matrix>
void spmvCanonical(const ExecSpace& exec, const Matrix& A,
                   const Kokkos::View<const typename Matrix::value_type*, typename Matrix::device_type>& x,
                   const Kokkos::View<typename Matrix::value_type*, typename Matrix::device_type>& y,
                   typename Matrix::value_type alpha, typename Matrix::value_type beta, const SpmvOptions& options,
                   const Kokkos::View<typename Matrix::value_type*, typename Matrix::device_type>& workspace,
                   const SpmvState<ExecSpace, Matrix>& state);

/// Whether a View of type V passes to spmvCanonical as it is: same memory space and layout.
template <class V, class Matrix>
inline constexpr bool isCanonicalVector =
    std::is_same_v<typename V::memory_space, typename Matrix::memory_space> &&
    std::is_same_v<typename V::array_layout,
                   typename Kokkos::View<typename Matrix::value_type*, typename Matrix::device_type>::array_layout>;

}  // namespace Impl

/// Values of workspace spmv on A with `options` needs (0 for most formats).
template <class ExecSpace, class Matrix>
std::int64_t spmvWorkspaceValues(const ExecSpace&, const Matrix& A, const SpmvOptions& options = {}) {
  return Impl::spmvWorkspaceValues<ExecSpace, Matrix>(A, options.algorithm);
}

/// y = alpha*A*x + beta*y with a workspace of the caller's (at least spmvWorkspaceValues
/// values, in the matrix's memory space), which the product may use until it completes.
template <class ExecSpace, class Matrix, class XView, class YView>
void spmv(const ExecSpace& exec, const Matrix& A, const XView& x, const YView& y,
          typename Matrix::value_type alpha, typename Matrix::value_type beta, const SpmvOptions& options,
          const Kokkos::View<typename Matrix::value_type*, typename Matrix::device_type>& workspace) {
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
  Impl::withXInL2(exec, x, options.keepXInL2, [&] {
    if constexpr (Impl::isCanonicalVector<XView, Matrix> && Impl::isCanonicalVector<YView, Matrix>) {
      Impl::spmvCanonical(exec, A, x, y, alpha, beta, options, workspace, Impl::SpmvState<ExecSpace, Matrix>());
    } else {
      Impl::applySpmv(exec, A, x, y, alpha, beta, options, workspace, Impl::SpmvState<ExecSpace, Matrix>());
    }
  });
}

template <class ExecSpace, class Matrix, class XView, class YView>
void spmv(const ExecSpace& exec, const Matrix& A, const XView& x, const YView& y,
          typename Matrix::value_type alpha, typename Matrix::value_type beta, const SpmvOptions& options = {}) {
  using Workspace = Kokkos::View<typename Matrix::value_type*, typename Matrix::device_type>;
  const std::int64_t values = Impl::spmvWorkspaceValues<ExecSpace, Matrix>(A, options.algorithm);
  const Workspace workspace =
      values > 0 ? Workspace(Kokkos::view_alloc(Kokkos::WithoutInitializing, "araios::spmv::workspace"), values)
                 : Workspace();
  spmv(exec, A, x, y, alpha, beta, options, workspace);
  if (values > 0) exec.fence();  // the workspace is freed on return
}

namespace Impl {

template <class ExecSpace, class Matrix>
void spmvCanonical(const ExecSpace& exec, const Matrix& A,
                   const Kokkos::View<const typename Matrix::value_type*, typename Matrix::device_type>& x,
                   const Kokkos::View<typename Matrix::value_type*, typename Matrix::device_type>& y,
                   typename Matrix::value_type alpha, typename Matrix::value_type beta, const SpmvOptions& options,
                   const Kokkos::View<typename Matrix::value_type*, typename Matrix::device_type>& workspace,
                   const SpmvState<ExecSpace, Matrix>& state) {
  applySpmv(exec, A, x, y, alpha, beta, options, workspace, state);
}

}  // namespace Impl
}  // namespace araios

#include <araios/instantiations.hpp>
#ifdef ARAIOS_COMPILED_INSTANTIATIONS
ARAIOS_ETI_FOR_EACH(ARAIOS_ETI_DECLARE_SPMV)
#endif
