#pragma once
// The iterative solvers, and one entry point that picks a method by name:
//
//   araios::SolverOptions options;                 // tolerance, reduction mode, ...
//   auto result = araios::solve(exec, A, b, x, araios::SolverMethod::Gmres, options);
//
// A is an SpmvOperator (araios/operator.hpp) of any kernel and mode: its mode makes the
// products reproducible, SolverOptions::mode the reductions. x holds the initial guess on
// entry. Jacobi and the Jacobi preconditioner take A's diagonal from the CSR matrix the
// operator was built from, or the one you pass (the overload with `diagonal`).
#include <araios/error.hpp>
#include <araios/solvers/cg.hpp>
#include <araios/solvers/gmres.hpp>
#include <araios/solvers/jacobi.hpp>
#include <araios/solvers/pagerank.hpp>

#include <string>

namespace araios {

enum class SolverMethod { Jacobi, Cg, Gmres };

inline const char* toString(SolverMethod m) {
  switch (m) {
    case SolverMethod::Jacobi: return "jacobi";
    case SolverMethod::Cg: return "cg";
    case SolverMethod::Gmres: return "gmres";
  }
  return "unknown";
}

inline SolverMethod solverMethodFromString(const std::string& name) {
  if (name == "jacobi") return SolverMethod::Jacobi;
  if (name == "cg") return SolverMethod::Cg;
  if (name == "gmres") return SolverMethod::Gmres;
  throw InputError("unknown solver method '" + name + "'; expected jacobi, cg or gmres");
}

/// Whether the method divides by A's diagonal with these options.
inline bool needsDiagonal(SolverMethod method, Preconditioner p) {
  switch (method) {
    case SolverMethod::Jacobi: return true;
    case SolverMethod::Cg: return p != Preconditioner::None;
    case SolverMethod::Gmres: return p == Preconditioner::Jacobi;
  }
  return false;
}

template <class ExecSpace, class Operator, class BView, class XView, class DView>
SolveResult solve(const ExecSpace& exec, const Operator& A, const BView& b, const XView& x, SolverMethod method,
                  const SolverOptions& options, const DView& diagonal) {
  switch (method) {
    case SolverMethod::Jacobi: return jacobi(exec, A, b, x, options, diagonal);
    case SolverMethod::Cg: return cg(exec, A, b, x, options, diagonal);
    case SolverMethod::Gmres: return gmres(exec, A, b, x, options, diagonal);
  }
  throw InputError("unknown solver method");
}

template <class ExecSpace, class Operator, class BView, class XView>
SolveResult solve(const ExecSpace& exec, const Operator& A, const BView& b, const XView& x, SolverMethod method,
                  const SolverOptions& options = {}) {
  switch (method) {
    case SolverMethod::Jacobi: return jacobi(exec, A, b, x, options);
    case SolverMethod::Cg: return cg(exec, A, b, x, options);
    case SolverMethod::Gmres: return gmres(exec, A, b, x, options);
  }
  throw InputError("unknown solver method");
}

}  // namespace araios
