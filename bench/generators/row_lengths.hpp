#pragma once
// Row-length sequences that match a target's row count, nnz, minimum, maximum, mean and
// standard deviation: the statistics the BRCP paper's Table 2 gives for each matrix.
//
// How: every row gets a standard normal draw z_i. A row's length is
//     clip(round(T(mu + sigma * z_i)), min, max)
// with T the identity (a clipped normal, for the narrow distributions of FEM-like matrices,
// std/mean < kLogNormalAbove) or exp (a clipped log-normal, for the skewed ones, where the std
// exceeds the mean). (mu, sigma) are fitted to the z's actually drawn, so that the clipped,
// rounded lengths hit the target mean and std: for each sigma, mu is bisected until the mean
// is right (the mean grows with mu), and sigma is bisected until the std is right (at a fixed
// mean, the std grows with sigma); where the clipping caps the std below the target, the fit
// ends at the widest sigma it tries. Then the sum is made exactly nnz by
// moving single entries between random rows (never past min or max), and the minimum and the
// maximum are each given to one row if no row drew them. The mean is therefore exact, min and
// max are exact, and the std lands near the target: GENERATORS.md lists what each entry got.
#include "rng.hpp"

#include <araios/error.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

namespace araios::bench::gen {

struct RowLengthTarget {
  std::int64_t min = 0;
  std::int64_t max = 0;
  double mean = 0;  ///< informative only: the sequence's mean is nnz / rows exactly
  double std = 0;
};

namespace detail {

/// Past this coefficient of variation the lengths are drawn log-normal: a normal wide enough
/// would put much of its mass below the minimum.
constexpr double kLogNormalAbove = 0.6;
/// Bisection steps for mu and for sigma: 50 halvings leave both exact to 1e-15 of their range.
constexpr int kBisections = 50;

inline std::int64_t lengthOf(double z, double mu, double sigma, bool logNormal, const RowLengthTarget& t) {
  double v = mu + sigma * z;
  if (logNormal) v = std::exp(std::min(v, 50.0));  // exp(50) is far past any max; avoids inf
  const double r = std::nearbyint(v);
  if (!(r > static_cast<double>(t.min))) return t.min;  // also catches NaN
  if (r > static_cast<double>(t.max)) return t.max;
  return static_cast<std::int64_t>(r);
}

struct Moments {
  double mean = 0;
  double std = 0;
};

/// Mean and std of the lengths of all rows for (mu, sigma), in O((max - min) log rows) rather
/// than O(rows): with the z's sorted, the rows of length >= k are those with
/// z >= (Tinv(k - 1/2) - mu) / sigma, so sum = rows*min + sum_k count_k and
/// sum of squares = rows*min^2 + sum_k (2k - 1) count_k for k = min+1 .. max.
inline Moments momentsOf(const std::vector<double>& sortedZ, double mu, double sigma, bool logNormal,
                         const RowLengthTarget& t) {
  const auto n = static_cast<long double>(sortedZ.size());
  long double sum = n * t.min, squares = n * t.min * t.min;
  for (std::int64_t k = t.min + 1; k <= t.max; ++k) {
    const double edge = logNormal ? std::log(static_cast<double>(k) - 0.5) : static_cast<double>(k) - 0.5;
    const double threshold = (edge - mu) / sigma;
    const auto count = static_cast<long double>(sortedZ.end() -
                                                std::lower_bound(sortedZ.begin(), sortedZ.end(), threshold));
    if (count == 0) break;  // no row reaches k, nor any longer length
    sum += count;
    squares += (2.0L * k - 1) * count;
  }
  const long double mean = sum / n;
  const long double var = squares / n - mean * mean;
  return {static_cast<double>(mean), var > 0 ? static_cast<double>(std::sqrt(var)) : 0.0};
}

/// The mu that gives `mean` for this sigma.
inline double fitMu(const std::vector<double>& sortedZ, double sigma, bool logNormal, const RowLengthTarget& t,
                    double mean) {
  // Any mu outside these bounds puts every row at min or at max.
  double lo = logNormal ? -60.0 : static_cast<double>(t.min) - 40.0 * sigma - 1;
  double hi = logNormal ? 60.0 : static_cast<double>(t.max) + 40.0 * sigma + 1;
  for (int it = 0; it < kBisections; ++it) {
    const double mid = (lo + hi) / 2;
    (momentsOf(sortedZ, mid, sigma, logNormal, t).mean < mean ? lo : hi) = mid;
  }
  return (lo + hi) / 2;
}

}  // namespace detail

/// `rows` lengths summing to exactly `nnz`, each in [target.min, target.max], with mean nnz/rows
/// and a standard deviation near target.std. Deterministic in `rng`.
inline std::vector<std::int64_t> drawRowLengths(std::int64_t rows, std::int64_t nnz, const RowLengthTarget& target,
                                                Rng& rng) {
  using namespace detail;
  if (rows <= 0) return {};
  if (target.min > target.max || nnz < rows * target.min || nnz > rows * target.max) {
    throw InputError("row-length target min " + std::to_string(target.min) + ", max " + std::to_string(target.max) +
                     " cannot give " + std::to_string(nnz) + " entries in " + std::to_string(rows) +
                     " rows; expected rows*min <= nnz <= rows*max");
  }
  const double mean = static_cast<double>(nnz) / static_cast<double>(rows);
  std::vector<double> z(static_cast<std::size_t>(rows));
  for (auto& v : z) v = rng.normal();

  const bool logNormal = target.std > kLogNormalAbove * mean;
  std::vector<double> sortedZ = z;
  std::sort(sortedZ.begin(), sortedZ.end());
  // sigma's range: a normal wider than the whole [min, max] span, or a log-normal spreading over
  // e^12, already sits at the clipping bounds.
  double sigmaLo = 1e-9;
  double sigmaHi = logNormal ? 12.0 : static_cast<double>(target.max - target.min) + 1;
  for (int it = 0; it < kBisections && target.std > 0; ++it) {
    const double sigma = (sigmaLo + sigmaHi) / 2;
    const double mu = fitMu(sortedZ, sigma, logNormal, target, mean);
    (momentsOf(sortedZ, mu, sigma, logNormal, target).std < target.std ? sigmaLo : sigmaHi) = sigma;
  }
  const double bestSigma = target.std > 0 ? (sigmaLo + sigmaHi) / 2 : 0.0;
  const double bestMu = bestSigma > 0 ? fitMu(sortedZ, bestSigma, logNormal, target, mean) : (logNormal ? std::log(mean) : mean);

  std::vector<std::int64_t> length(z.size());
  std::int64_t sum = 0;
  for (std::size_t i = 0; i < z.size(); ++i) {
    length[i] = lengthOf(z[i], bestMu, bestSigma, logNormal, target);
    sum += length[i];
  }
  // One row holding the minimum and one holding the maximum (random rows made so, where none
  // drew them) are set aside: the balancing below leaves them alone.
  // Too few rows to set two aside (and keep one to balance with): balance only.
  constexpr std::size_t kRowsToForceExtremes = 3;
  const bool force = z.size() >= kRowsToForceExtremes;
  const auto rowWith = [&](std::int64_t v) {
    return static_cast<std::size_t>(std::find(length.begin(), length.end(), v) - length.begin());
  };
  std::size_t minRow = z.size(), maxRow = z.size();
  if (force) {
    minRow = rowWith(target.min);
    if (minRow == z.size()) minRow = static_cast<std::size_t>(rng.below(z.size()));
    maxRow = rowWith(target.max);
    while (maxRow == z.size() || maxRow == minRow) maxRow = static_cast<std::size_t>(rng.below(z.size()));
  }
  if (minRow < z.size()) {
    sum += target.min - length[minRow];
    length[minRow] = target.min;
  }
  if (maxRow < z.size()) {
    sum += target.max - length[maxRow];
    length[maxRow] = target.max;
  }
  // Move single entries until the total is nnz. Rows at the bound in the wrong direction are
  // skipped. nnz lies within [rows*min, rows*max]; with the two set-aside rows at min and max,
  // every catalog target leaves rows free to move (a target within one row of the bounds would
  // not, and none is).
  while (sum != nnz) {
    const auto i = static_cast<std::size_t>(rng.below(z.size()));
    if (i == minRow || i == maxRow) continue;
    if (sum < nnz && length[i] < target.max) {
      ++length[i];
      ++sum;
    } else if (sum > nnz && length[i] > target.min) {
      --length[i];
      --sum;
    }
  }
  return length;
}

}  // namespace araios::bench::gen
