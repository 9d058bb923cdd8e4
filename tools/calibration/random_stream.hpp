#pragma once
// The random numbers of the calibration matrices: SplitMix64 draws from a seed, so that a
// matrix is the same on every machine and compiler (the standard distributions are not
// specified bit for bit, and a profile fitted on one machine should be reproducible on another).
#include <cstdint>

namespace araios::cli::calibration {

class RandomStream {
 public:
  explicit RandomStream(std::uint64_t seed) : state_(seed) {}

  std::uint64_t next() {
    std::uint64_t z = (state_ += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }

  /// Uniform in [0, 1), 53 bits.
  double uniform() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }

  /// Uniform in [0, n) for n > 0. The modulo's bias is below n / 2^64: nothing at the sizes
  /// of a calibration matrix.
  std::int64_t below(std::int64_t n) { return static_cast<std::int64_t>(next() % static_cast<std::uint64_t>(n)); }

  /// A stored value in [-1, 1), never 0 (a zero would read like a missing entry in a dump).
  double value() {
    const double v = 2.0 * uniform() - 1.0;
    return v == 0.0 ? 0.5 : v;
  }

 private:
  std::uint64_t state_;
};

}  // namespace araios::cli::calibration
