#pragma once
// What a format's product may keep from one call to the next: arrays derived from the matrix
// that some modes need and that cost more than the product to make (CSC's grouping of its
// entries by row, say). They never live in the matrix, which stays plain data: SpmvOperator
// builds them once with the format and passes them to every product; araios::spmv on a bare
// matrix passes an empty state, and the product then makes what it needs on the call.
//
// A format opts in through its Impl::Spmv specialisation (detail/spmv_dispatch.hpp):
//   using State = ...;   default-constructed: empty; `bool ready() const` says whether it
//                        holds what the product needs, `std::int64_t bytes() const` what it
//                        allocated (0 for what it only refers to)
//   static State prepare(const ExecSpace&, const Matrix&, const Csr& source, Mode mode);
//                        `source`: the CSR matrix the format was built from; `mode`: the
//                        operator's, so that a state no product in that mode reads is not built
//   static void apply(..., const View& work, const State& state);   // apply's arguments, then it
//   std::string describe(SpmvAlgorithm) const   (optional) what the state chose for that
//                        algorithm's products, in words, or nothing (SpmvOperator::plan)
//   std::int64_t workspaceValues() const        (optional) the workspace its products need,
//                        in values, beyond the format's own (spmvWorkspaceValues)
// Formats without a State keep their apply and are passed nothing.
#include <araios/detail/spmv_dispatch.hpp>
#include <araios/mode.hpp>

#include <cstdint>
#include <string>
#include <type_traits>
#include <utility>

namespace araios::Impl {

/// The state of a format that keeps none.
struct NoSpmvState {
  bool ready() const { return false; }
  std::int64_t bytes() const { return 0; }
};

template <class SpmvImpl, class = void>
struct SpmvStateOf {
  using type = NoSpmvState;
};
template <class SpmvImpl>
struct SpmvStateOf<SpmvImpl, std::void_t<typename SpmvImpl::State>> {
  using type = typename SpmvImpl::State;
};

/// The state the product on Matrix keeps on ExecSpace (NoSpmvState for most formats).
template <class ExecSpace, class Matrix>
using SpmvState = typename SpmvStateOf<Spmv<ExecSpace, Matrix>>::type;

template <class ExecSpace, class Matrix>
inline constexpr bool hasSpmvState = !std::is_same_v<SpmvState<ExecSpace, Matrix>, NoSpmvState>;

template <class State, class = void>
struct DescribesItself : std::false_type {};
template <class State>
struct DescribesItself<State, std::void_t<decltype(std::declval<const State&>().describe(SpmvAlgorithm{}))>>
    : std::true_type {};

template <class State, class = void>
struct StateNeedsWorkspace : std::false_type {};
template <class State>
struct StateNeedsWorkspace<State, std::void_t<decltype(std::declval<const State&>().workspaceValues())>>
    : std::true_type {};

/// Values of workspace a product with `state` needs beyond what the format asks for (0 for
/// states that need none).
template <class State>
std::int64_t spmvStateWorkspaceValues(const State& state) {
  if constexpr (StateNeedsWorkspace<State>::value) {
    return state.workspaceValues();
  } else {
    (void)state;
    return 0;
  }
}

/// What `state` chose for the products of `algorithm`, in words; empty where it chose nothing.
template <class State>
std::string describeSpmvState(const State& state, SpmvAlgorithm algorithm) {
  if constexpr (DescribesItself<State>::value) {
    return state.describe(algorithm);
  } else {
    (void)state, (void)algorithm;
    return {};
  }
}

/// The state of the products on A in `mode`, built from A and the CSR matrix A was built from.
template <class ExecSpace, class Matrix, class Csr>
SpmvState<ExecSpace, Matrix> prepareSpmvState(const ExecSpace& exec, const Matrix& A, const Csr& source, Mode mode) {
  if constexpr (hasSpmvState<ExecSpace, Matrix>) {
    return Spmv<ExecSpace, Matrix>::prepare(exec, A, source, mode);
  } else {
    (void)exec, (void)A, (void)source, (void)mode;
    return {};
  }
}

/// Spmv<ExecSpace, Matrix>::apply, given the state where the format keeps one.
template <class ExecSpace, class Matrix, class XView, class YView, class Work>
void applySpmv(const ExecSpace& exec, const Matrix& A, const XView& x, const YView& y,
               typename Matrix::value_type alpha, typename Matrix::value_type beta, const SpmvOptions& options,
               const Work& work, const SpmvState<ExecSpace, Matrix>& state) {
  if constexpr (hasSpmvState<ExecSpace, Matrix>) {
    Spmv<ExecSpace, Matrix>::apply(exec, A, x, y, alpha, beta, options, work, state);
  } else {
    (void)state;
    Spmv<ExecSpace, Matrix>::apply(exec, A, x, y, alpha, beta, options, work);
  }
}

}  // namespace araios::Impl
