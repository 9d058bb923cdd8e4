#pragma once
// Options shared by every conversion from CSR, and the padding guard of the padded formats.
//
// A padded format (ELL, DIA, SELL, BRC, BRCP, SC-CSR, VAB) stores more slots than the matrix
// has nonzeros. Its padding ratio is stored slots / nnz. Past kDefaultMaxPaddingRatio the
// format would move more padding than data, and every kernel on it would run slower than CSR,
// so the conversion refuses unless asked to force it.
#include <araios/error.hpp>

#include <cstdint>
#include <cstdio>
#include <string>

namespace araios {

/// Three slots per nonzero: the format then moves at most three times CSR's value and index
/// bytes, past which CSR is faster on every device we measure.
constexpr double kDefaultMaxPaddingRatio = 3.0;

struct FormatOptions {
  /// Refuse when stored slots / nnz exceeds this.
  double maxPaddingRatio = kDefaultMaxPaddingRatio;
  /// Build the format whatever its padding (the CLI's --force).
  bool force = false;
};

/// Thrown when a format would exceed its padding limit.
class PaddingError : public InputError {
 public:
  PaddingError(const std::string& message, double ratio) : InputError(message), ratio_(ratio) {}
  double ratio() const { return ratio_; }

 private:
  double ratio_;
};

/// Refuses (PaddingError) a format of `slots` stored slots for `nnz` nonzeros when the ratio
/// passes the limit and the caller did not force it. `why` says what causes the padding.
inline void checkPadding(const char* format, std::int64_t slots, std::int64_t nnz, const FormatOptions& options,
                         const std::string& why) {
  const double ratio = nnz > 0 ? static_cast<double>(slots) / static_cast<double>(nnz) : 1.0;
  if (options.force || ratio <= options.maxPaddingRatio) return;
  char numbers[160];
  std::snprintf(numbers, sizeof numbers, "%.2f slots per nonzero (%lld slots for %lld nonzeros), limit %.2f",
                ratio, static_cast<long long>(slots), static_cast<long long>(nnz), options.maxPaddingRatio);
  throw PaddingError(std::string(format) + " would store " + numbers + (why.empty() ? "" : ": " + why) +
                         "; expected a padding ratio within the limit. Use another format, raise "
                         "FormatOptions::maxPaddingRatio, or force it (FormatOptions::force, --force in the CLI)",
                     ratio);
}

}  // namespace araios
