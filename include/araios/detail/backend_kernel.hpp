#pragma once
// The one way a backend plugs a hand-written kernel into Araios: a narrow hook per kernel part.
//
// A format (or primitive) names the part of its product that a backend may replace with a tag
// type (BrcpBlockPass, CsrLanesPass, BlockInnerScanPass<Width>) and asks
// hasBackendKernel<Tag, ExecSpace> before running its portable Kokkos version. A backend file
// (araios/backends/<backend>/) specialises BackendKernel<Tag, ItsExecSpace> with
// `specialised = true` and the static function the tag's comment names. Everything else (the
// mode, the Accurate path, SpmvOptions::portableOnly, workspace) stays in the format's own
// SpMV, written once for every backend. araios/backends/backends.hpp includes every backend
// file; the entry headers (araios/spmv.hpp, araios/operator.hpp) include it, so a product
// called through them always sees the specialisations.
namespace araios::Impl {

template <class Tag, class ExecSpace>
struct BackendKernel {
  static constexpr bool specialised = false;
};

template <class Tag, class ExecSpace>
inline constexpr bool hasBackendKernel = BackendKernel<Tag, ExecSpace>::specialised;

}  // namespace araios::Impl
