#include "progress.hpp"

#include <fmt/core.h>

#include <algorithm>
#include <cmath>

namespace araios::bench {

std::string clockTime(double seconds) {
  const auto s = static_cast<long long>(std::max(0.0, std::round(seconds)));
  if (s >= 3600) return fmt::format("{}:{:02}:{:02}", s / 3600, (s / 60) % 60, s % 60);
  return fmt::format("{:02}:{:02}", s / 60, s % 60);
}

void Progress::begin(const std::string& matrix, const std::string& kernel, const std::string& precision,
                     double weight) {
  doneWeight_ += currentWeight_;
  currentWeight_ = weight;
  ++started_;
  const double elapsed = elapsedSeconds();
  std::string eta = "--:--";
  if (doneWeight_ > 0) eta = clockTime(elapsed / doneWeight_ * std::max(0.0, totalWeight_ - doneWeight_));
  fmt::print(stderr, "[{}/{}] {} {} {}  elapsed {}  eta {}\n", started_, std::max(total_, started_), matrix, kernel,
             precision, clockTime(elapsed), eta);
}

void Progress::note(const std::string& text) const {
  fmt::print(stderr, "        {}  (elapsed {})\n", text, clockTime(elapsedSeconds()));
}

}  // namespace araios::bench
