#pragma once
// The three reproducibility modes shared by araios::spmv, the reductions and the solvers.
//
//   Fast           anything goes: atomics, backend-chosen reduction orders, whatever is quickest.
//   Deterministic  a summation order fixed per kernel and independent of the hardware: the same
//                  bits on Serial, OpenMP at any thread count and CUDA on any NVIDIA GPU.
//   Accurate       correctly rounded: the exact result rounded once, hence the same bits for
//                  every format and kernel as well.
//
// docs/reproducibility.md states, kernel by kernel, which guarantees each mode gives and which
// test backs each claim.
#include <araios/error.hpp>

#include <string>

namespace araios {

enum class Mode { Fast, Deterministic, Accurate };

/// The reductions' name for the same choice (primitives/deterministic_reduce.hpp).
using ReductionMode = Mode;

inline const char* toString(Mode mode) {
  switch (mode) {
    case Mode::Fast: return "fast";
    case Mode::Deterministic: return "deterministic";
    case Mode::Accurate: return "accurate";
  }
  return "unknown";
}

/// "fast", "deterministic" or "accurate"; anything else is an InputError naming the choices.
inline Mode parseMode(const std::string& text) {
  if (text == "fast") return Mode::Fast;
  if (text == "deterministic") return Mode::Deterministic;
  if (text == "accurate") return Mode::Accurate;
  throw InputError("unknown mode '" + text + "'; expected fast, deterministic or accurate");
}

}  // namespace araios
