#pragma once
// Fitting the model's constants: non-negative least squares on relative errors.
//
// Each measurement i gives the term counts a_i (kernelTerms or buildTerms) and a measured time
// t_i; the constants c >= 0 minimise  sum_i ((a_i . c - t_i) / t_i)^2 , so a product of 10 us
// weighs as much as one of 10 ms (the model must rank kernels on small matrices too). Solved by
// Lawson and Hanson's active-set method ("Solving Least Squares Problems", 1974, ch. 23) on
// columns scaled to unit norm, with the unconstrained steps solved from the normal equations
// by Cholesky: at most a handful of terms, so the normal equations are well within double's
// range after the scaling.
#include <araios/error.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <vector>

namespace araios {

template <std::size_t N>
struct FitSample {
  std::array<double, N> terms{};
  double seconds = 0;
};

template <std::size_t N>
struct FitResult {
  std::array<double, N> constants{};
  double meanAbsRelError = 0;
  double maxAbsRelError = 0;
  int samples = 0;
};

namespace Impl {

/// Solves the normal equations of the columns in `active` (unconstrained least squares on
/// them); the others stay 0. Returns false when the system is singular.
template <std::size_t N>
bool solvePassive(const std::vector<std::array<double, N>>& A, const std::vector<double>& b,
                  const std::array<bool, N>& active, std::array<double, N>& z) {
  std::array<std::size_t, N> cols{};
  std::size_t n = 0;
  for (std::size_t j = 0; j < N; ++j) {
    if (active[j]) cols[n++] = j;
  }
  z.fill(0);
  if (n == 0) return true;
  std::array<std::array<double, N>, N> G{};
  std::array<double, N> r{};
  for (std::size_t i = 0; i < A.size(); ++i) {
    for (std::size_t p = 0; p < n; ++p) {
      r[p] += A[i][cols[p]] * b[i];
      for (std::size_t q = 0; q < n; ++q) G[p][q] += A[i][cols[p]] * A[i][cols[q]];
    }
  }
  for (std::size_t p = 0; p < n; ++p) G[p][p] *= 1 + 1e-12;  // a whisker of ridge for ties
  // Cholesky G = L L^T, in place in the lower triangle.
  for (std::size_t p = 0; p < n; ++p) {
    for (std::size_t q = 0; q <= p; ++q) {
      double s = G[p][q];
      for (std::size_t k = 0; k < q; ++k) s -= G[p][k] * G[q][k];
      if (p == q) {
        if (!(s > 0)) return false;
        G[p][p] = std::sqrt(s);
      } else {
        G[p][q] = s / G[q][q];
      }
    }
  }
  std::array<double, N> y{};
  for (std::size_t p = 0; p < n; ++p) {
    double s = r[p];
    for (std::size_t k = 0; k < p; ++k) s -= G[p][k] * y[k];
    y[p] = s / G[p][p];
  }
  for (std::size_t p = n; p-- > 0;) {
    double s = y[p];
    for (std::size_t k = p + 1; k < n; ++k) s -= G[k][p] * y[k];
    y[p] = s / G[p][p];
  }
  for (std::size_t p = 0; p < n; ++p) z[cols[p]] = y[p];
  return true;
}

}  // namespace Impl

/// The non-negative constants that best predict `samples` in relative error. A term that is 0
/// in every sample gets constant 0. Throws InputError when a sample's time is not positive.
template <std::size_t N>
FitResult<N> fitConstants(const std::vector<FitSample<N>>& samples) {
  FitResult<N> result;
  result.samples = static_cast<int>(samples.size());
  if (samples.empty()) return result;
  // Rows divided by the measured time; columns scaled to unit norm.
  std::vector<std::array<double, N>> A(samples.size());
  std::vector<double> b(samples.size(), 1.0);
  std::array<double, N> scale{};
  for (std::size_t i = 0; i < samples.size(); ++i) {
    if (!(samples[i].seconds > 0) || !std::isfinite(samples[i].seconds)) {
      throw InputError("fitConstants: a measured time of " + std::to_string(samples[i].seconds) +
                       " s; expected a positive time");
    }
    for (std::size_t j = 0; j < N; ++j) {
      A[i][j] = samples[i].terms[j] / samples[i].seconds;
      scale[j] += A[i][j] * A[i][j];
    }
  }
  for (std::size_t j = 0; j < N; ++j) {
    scale[j] = scale[j] > 0 ? std::sqrt(scale[j]) : 0;
    for (auto& row : A) row[j] = scale[j] > 0 ? row[j] / scale[j] : 0;
  }

  std::array<double, N> x{};
  std::array<bool, N> passive{};
  const auto gradient = [&](std::size_t j) {  // (A^T (b - A x))_j
    double g = 0;
    for (std::size_t i = 0; i < A.size(); ++i) {
      double r = b[i];
      for (std::size_t k = 0; k < N; ++k) r -= A[i][k] * x[k];
      g += A[i][j] * r;
    }
    return g;
  };
  for (int outer = 0; outer < 3 * static_cast<int>(N) + 10; ++outer) {
    std::size_t best = N;
    double bestGradient = 1e-10;
    for (std::size_t j = 0; j < N; ++j) {
      if (passive[j] || scale[j] == 0) continue;
      const double g = gradient(j);
      if (g > bestGradient) {
        bestGradient = g;
        best = j;
      }
    }
    if (best == N) break;
    passive[best] = true;
    for (int inner = 0; inner < 3 * static_cast<int>(N) + 10; ++inner) {
      std::array<double, N> z{};
      if (!Impl::solvePassive(A, b, passive, z)) {
        passive[best] = false;  // a column dependent on the others adds nothing
        break;
      }
      bool feasible = true;
      for (std::size_t j = 0; j < N; ++j) feasible = feasible && (!passive[j] || z[j] > 0);
      if (feasible) {
        x = z;
        break;
      }
      // Step from x towards z as far as every constant stays non-negative; drop those at 0.
      double alpha = 1;
      for (std::size_t j = 0; j < N; ++j) {
        if (passive[j] && z[j] <= 0) alpha = std::min(alpha, x[j] / (x[j] - z[j]));
      }
      for (std::size_t j = 0; j < N; ++j) {
        x[j] += alpha * (z[j] - x[j]);
        if (passive[j] && x[j] <= 1e-15) {
          passive[j] = false;
          x[j] = 0;
        }
      }
    }
  }
  for (std::size_t j = 0; j < N; ++j) result.constants[j] = scale[j] > 0 ? std::max(0.0, x[j] / scale[j]) : 0;
  double sum = 0;
  for (const FitSample<N>& s : samples) {
    double predicted = 0;
    for (std::size_t j = 0; j < N; ++j) predicted += s.terms[j] * result.constants[j];
    const double err = std::abs(predicted - s.seconds) / s.seconds;
    sum += err;
    result.maxAbsRelError = std::max(result.maxAbsRelError, err);
  }
  result.meanAbsRelError = sum / static_cast<double>(samples.size());
  return result;
}

}  // namespace araios
