#pragma once
// The calibration matrices, generated on the host from their spec (matrix_plan.hpp): the same
// matrix for the same spec on every machine.
#include "generated_matrix.hpp"
#include "matrix_plan.hpp"

namespace araios::cli::calibration {

GeneratedMatrix generateMatrix(const MatrixSpec& spec);

}  // namespace araios::cli::calibration
