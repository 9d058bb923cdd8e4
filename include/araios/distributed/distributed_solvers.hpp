#pragma once
// The solvers (CG, GMRES, Jacobi, PageRank) on a DistributedOperator: the same code as on one
// process, with SolverContext's reductions taken over the ranks (DistributedReduction). In
// Deterministic and Accurate modes every dot product and norm, hence every scalar of the
// recurrence, every iteration count and every solution bit, is the one-process run's for any
// number of ranks. Each rank passes its blocks of b and x; the calls are collective.
//
//   araios::DistributedOperator<double> A(exec, local, options);
//   araios::SolveResult r = araios::cg(exec, A, b, x, solverOptions);
#include <araios/distributed/collective_errors.hpp>
#include <araios/distributed/distributed_operator.hpp>
#include <araios/distributed/distributed_reduce.hpp>
#include <araios/solvers/solvers.hpp>

namespace araios::Impl {

template <class Value, class Ordinal, class Offset, class ExecSpace>
struct SolverContext<DistributedOperator<Value, Ordinal, Offset, ExecSpace>> {
  using Operator = DistributedOperator<Value, Ordinal, Offset, ExecSpace>;
  using Device = typename Operator::device_type;
  using Reduction = DistributedReduction<Value, Device>;
  using Diagonal = Kokkos::View<Value*, Device>;

  static Reduction reduction(const Operator& A) {
    if (!(A.partition() == A.columnPartition())) {
      throw InputError("araios solvers: the distributed matrix partitions its rows and columns differently; "
                       "expected the same partition for both (x and b are cut like the rows)");
    }
    return Reduction(A.comm(), A.partition());
  }
  static std::int64_t localRows(const Operator& A) { return A.localRows(); }
  template <class T>
  static T allMax(Reduction& ws, T value) {
    return ws.allMax(value);
  }
  template <class Step>
  static void collectively(const Operator& A, Step&& step) {
    agreeOnErrors(A.comm(), step);
  }
  template <class ExecSpaceArg>
  static Diagonal diagonal(const ExecSpaceArg&, const Operator& A) {
    return A.diagonal();
  }
};

}  // namespace araios::Impl
