#pragma once
// Measuring one product on one backend in one precision: every implementation of the backend's
// plan, one row each. Defined in spgemm_run_impl.hpp and instantiated in spgemm/instances/, one
// file per precision for the host backends and one per precision for CUDA, so that the heavy
// instantiations compile in parallel; spgemm_dispatch.cpp maps names to them.
#include "spgemm/spgemm_suite.hpp"

namespace araios::bench {

template <class ExecSpace, class Value>
void runSpgemmProduct(const ExecSpace& exec, const SpgemmCase& product, const SpgemmBackend& backend,
                      SpgemmContext& ctx);

}  // namespace araios::bench
