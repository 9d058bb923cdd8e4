#pragma once
// The CPU baseline a hand-written code would use: a plain CSR loop, one row per iteration,
// rows split statically over the OpenMP threads. Built only with OpenMP.
#include <cstdint>

namespace araios::bench {

#ifdef _OPENMP
template <class Value, class Ordinal, class Offset>
void openmpCsrLoop(std::int64_t rows, const Offset* rowPtr, const Ordinal* colIdx, const Value* values, const Value* x,
                   Value* y, Value alpha, Value beta) {
#pragma omp parallel for schedule(static)
  for (std::int64_t i = 0; i < rows; ++i) {
    Value sum = 0;
    for (Offset k = rowPtr[i]; k < rowPtr[i + 1]; ++k) sum += values[k] * x[colIdx[k]];
    y[i] = beta == Value(0) ? alpha * sum : alpha * sum + beta * y[i];
  }
}
#endif

}  // namespace araios::bench
