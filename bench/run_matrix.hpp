#pragma once
// Measuring one matrix on one backend in one precision: every kernel of the backend's plan
// (Araios kernels and baselines), one row each. Defined in run_matrix_impl.hpp and instantiated
// in instances/, one file per precision for the host backends and one for CUDA, so the heavy
// instantiations compile in parallel; backend_dispatch.cpp maps names to them.
#include "run_context.hpp"

namespace araios::bench {

template <class ExecSpace, class Value>
void runMatrix(const ExecSpace& exec, const MatrixCase& matrix, const BackendInfo& backend, RunContext& ctx);

/// Measures the copy ceiling of `backend` (writing its rows) and returns what every row of that
/// backend records.
BackendInfo startBackend(const std::string& backend, RunContext& ctx);

/// runMatrix for a backend and precision given by name.
void runMatrixOn(const std::string& precision, const MatrixCase& matrix, const BackendInfo& backend, RunContext& ctx);

}  // namespace araios::bench
