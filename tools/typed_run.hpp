#pragma once
// The one switch from a command's run options and matrix to compiled types: the backend's
// execution space, the value type (--precision) and the index width (32-bit where the matrix
// fits, else 64-bit).
#include "backend.hpp"
#include "command_args.hpp"
#include "load_matrix.hpp"

#include <araios/io/matrix_market.hpp>

#include <cstdint>
#include <limits>

namespace araios::cli {

/// Returns f(exec, Value{}, Index{}) for the backend and precision of `run`, with Index
/// int32_t when `narrow`, else int64_t.
template <class F>
int runTypedOnBackend(const RunOptions& run, bool narrow, const F& f) {
  int code = 0;
  withBackend(run.backend, [&](auto exec) {
    const auto withValue = [&](auto value) {
      code = narrow ? f(exec, value, std::int32_t{}) : f(exec, value, std::int64_t{});
    };
    if (run.precision == "float") {
      withValue(float{});
    } else {
      withValue(double{});
    }
  });
  return code;
}

/// Whether a count (rows, columns, entries) fits 32-bit indices.
inline bool fitsInt32(std::int64_t count) { return count <= std::numeric_limits<std::int32_t>::max(); }

/// Returns f(exec, Value{}, Index{}) for the backend and precision of `run`, with Index
/// int32_t when the matrix's rows, columns and stored entries all fit it, else int64_t.
template <class F>
int runTypedOnBackend(const RunOptions& run, const io::HostMatrix& host, const F& f) {
  return runTypedOnBackend(run, fitsInt32(host.numRows) && fitsInt32(host.numCols) && fitsInt32(host.nnz()), f);
}

/// Reads the matrix `args.file` and returns run(exec, Value{}, Index{}, host) on the backend,
/// precision and index width of `args.run` (spmv, solve, pagerank).
template <class Args, class Run>
int runOnMatrix(const Args& args, const Run& run) {
  const io::HostMatrix host = loadMatrix(args.file, args.run.dropInvalid, args.run.json);
  return runTypedOnBackend(args.run, host,
                           [&](auto exec, auto value, auto index) { return run(exec, value, index, host); });
}

}  // namespace araios::cli
