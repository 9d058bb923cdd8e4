#pragma once
// Seeded random numbers for the matrix generators. splitmix64 expands a seed into a state;
// xoshiro256** draws the stream (Blackman & Vigna, "Scrambled linear pseudorandom number
// generators", ACM TOMS 47(4), 2021). It costs about a nanosecond a draw, several times less
// than std::mt19937_64, which matters when a generator draws hundreds of millions of numbers.
// The draws are written out here rather than taken from std:: distributions, whose results
// differ between standard libraries: integer and uniform draws are exact functions of the seed;
// normal draws also go through libm's log, sin and cos (glibc gives the same bits on every
// x86-64 machine), so a seed gives the same matrix wherever the benchmark runs.
#include <cmath>
#include <cstdint>

namespace araios::bench::gen {

/// One step of splitmix64 (Steele, Lea & Flood, "Fast splittable pseudorandom number
/// generators", OOPSLA 2014): advances `state` and returns a well-mixed 64-bit value.
inline std::uint64_t splitmix64(std::uint64_t& state) {
  std::uint64_t z = (state += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

/// A 64-bit FNV-1a hash of a name: turns an entry's name into a seed of its own, so adding an
/// entry to the catalog never changes the matrices of the others.
inline std::uint64_t seedFromName(const char* name, std::uint64_t base) {
  std::uint64_t h = 0xcbf29ce484222325ull ^ base;
  for (; *name; ++name) {
    h ^= static_cast<unsigned char>(*name);
    h *= 0x100000001b3ull;
  }
  return h;
}

class Rng {
 public:
  /// `stream` selects an independent sequence for the same seed (one per generator phase).
  explicit Rng(std::uint64_t seed, std::uint64_t stream = 0) {
    std::uint64_t sm = seed ^ (stream * 0xd1b54a32d192ed03ull);
    for (auto& word : s_) word = splitmix64(sm);
  }

  std::uint64_t next() {
    const std::uint64_t result = rotl(s_[1] * 5, 7) * 9;
    const std::uint64_t t = s_[1] << 17;
    s_[2] ^= s_[0];
    s_[3] ^= s_[1];
    s_[1] ^= s_[2];
    s_[0] ^= s_[3];
    s_[2] ^= t;
    s_[3] = rotl(s_[3], 45);
    return result;
  }

  /// Uniform in [0, 1): the top 53 bits as a double's mantissa.
  double uniform() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }
  double uniform(double lo, double hi) { return lo + (hi - lo) * uniform(); }

  /// Uniform integer in [0, n), n > 0: the high half of a 64x64-bit product (Lemire, "Fast
  /// random integer generation in an interval", ACM TOMACS 29(1), 2019, without the rejection
  /// step: the bias is below n / 2^64, far under anything a benchmark matrix can show).
  std::uint64_t below(std::uint64_t n) {
    return static_cast<std::uint64_t>((static_cast<unsigned __int128>(next()) * n) >> 64);
  }

  /// Standard normal, by the Box-Muller transform (both values used).
  double normal() {
    if (haveSpare_) {
      haveSpare_ = false;
      return spare_;
    }
    double u1 = uniform();
    while (u1 <= 0.0) u1 = uniform();
    const double u2 = uniform();
    const double radius = std::sqrt(-2.0 * std::log(u1));
    constexpr double kTwoPi = 6.283185307179586476925286766559;
    spare_ = radius * std::sin(kTwoPi * u2);
    haveSpare_ = true;
    return radius * std::cos(kTwoPi * u2);
  }

 private:
  static std::uint64_t rotl(std::uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
  std::uint64_t s_[4];
  double spare_ = 0;
  bool haveSpare_ = false;
};

}  // namespace araios::bench::gen
