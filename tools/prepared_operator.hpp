#pragma once
// A prepared SpMV kernel of the registry (any format) as an operator for the library's
// iterations (the solvers, PageRank): they call araios::spmv on it, and the Impl::Spmv
// specialisation below forwards to the kernel, in the mode the call's SpmvOptions name.
#include "format_registry.hpp"

#include <araios/araios.hpp>

#include <cstdint>
#include <memory>

namespace araios::cli {

template <class ExecSpace, class Value>
struct PreparedOperator {
  using value_type = Value;
  using ordinal_type = std::int64_t;
  using size_type = std::int64_t;
  using device_type = typename ExecSpace::device_type;
  using execution_space = ExecSpace;
  using memory_space = typename device_type::memory_space;
  std::int64_t numRows = 0;
  std::int64_t numCols = 0;
  std::shared_ptr<const PreparedSpmv<ExecSpace, Value>> kernel;
};

}  // namespace araios::cli

namespace araios::Impl {

template <class ExecSpace, class Value>
struct Spmv<ExecSpace, cli::PreparedOperator<ExecSpace, Value>> {
  template <class XView, class YView>
  static void apply(const ExecSpace&, const cli::PreparedOperator<ExecSpace, Value>& A, const XView& x,
                    const YView& y, Value alpha, Value beta, const SpmvOptions& options) {
    using Vector = typename cli::PreparedSpmv<ExecSpace, Value>::Vector;
    // The registry's kernels take plain contiguous Views; the iterations' vectors (columns of
    // the GMRES basis included) are contiguous, so they are passed as unmanaged Views of the data.
    if (x.span() != x.extent(0) || y.span() != y.extent(0)) {
      throw UnsupportedError("the SpMV operator needs contiguous vectors");
    }
    A.kernel->runInMode(Vector(const_cast<Value*>(x.data()), x.extent(0)), Vector(y.data(), y.extent(0)), alpha,
                        beta, options.mode);
  }
};

}  // namespace araios::Impl
