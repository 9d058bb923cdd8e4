// The progress line of araios calibrate (calibration_progress.hpp).
#include "calibration_progress.hpp"

#include <fmt/core.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <unistd.h>

namespace araios::cli::calibration {

std::string clockText(double seconds) {
  const auto s = static_cast<long long>(std::max(0.0, std::round(seconds)));
  if (s >= 3600) return fmt::format("{}:{:02}:{:02}", s / 3600, (s / 60) % 60, s % 60);
  return fmt::format("{:02}:{:02}", s / 60, s % 60);
}

CalibrationProgress::CalibrationProgress(std::vector<double> plannedNnz, bool enabled, double budgetSeconds)
    : plannedNnz_(std::move(plannedNnz)),
      enabled_(enabled),
      terminal_(::isatty(::fileno(stderr)) == 1),
      budgetSeconds_(budgetSeconds) {}

double CalibrationProgress::elapsedSeconds() const {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
}

double CalibrationProgress::predictedSeconds(double nnz) const {
  const std::size_t n = doneSeconds_.size();
  if (n == 0) return 0;
  double meanNnz = 0, meanSeconds = 0;
  for (std::size_t i = 0; i < n; ++i) {
    meanNnz += doneNnz_[i] / n;
    meanSeconds += doneSeconds_[i] / n;
  }
  double covariance = 0, variance = 0;
  for (std::size_t i = 0; i < n; ++i) {
    covariance += (doneNnz_[i] - meanNnz) * (doneSeconds_[i] - meanSeconds);
    variance += (doneNnz_[i] - meanNnz) * (doneNnz_[i] - meanNnz);
  }
  // Least squares where the sizes differ; otherwise (or where the line would go negative) a
  // cost proportional to the fixed part alone.
  double slope = variance > 0 ? std::max(0.0, covariance / variance) : 0;
  double intercept = meanSeconds - slope * meanNnz;
  if (intercept < 0) {
    intercept = 0;
    slope = meanNnz > 0 ? meanSeconds / meanNnz : 0;
  }
  return intercept + slope * nnz;
}

void CalibrationProgress::startMatrix(std::size_t index, const std::string& name) {
  index_ = index;
  matrix_ = name;
  kernel_.clear();
  matrixStart_ = elapsedSeconds();
  if (!enabled_) return;
  if (!terminal_) {
    fmt::print(stderr, "calibrating {}/{} {}  elapsed {}\n", index + 1, plannedNnz_.size(), name,
               clockText(matrixStart_));
    return;
  }
  draw();
}

void CalibrationProgress::startKernel(const std::string& kernel) {
  kernel_ = kernel;
  if (enabled_ && terminal_) draw();
}

void CalibrationProgress::finishMatrix(double nnz) {
  doneNnz_.push_back(nnz);
  doneSeconds_.push_back(elapsedSeconds() - matrixStart_);
}

void CalibrationProgress::draw() {
  const double elapsed = elapsedSeconds();
  std::string eta = "--:--";
  if (!doneSeconds_.empty()) {
    double remaining = std::max(0.0, predictedSeconds(plannedNnz_[index_]) - (elapsed - matrixStart_));
    double later = 0;
    for (std::size_t i = index_ + 1; i < plannedNnz_.size(); ++i) later += predictedSeconds(plannedNnz_[i]);
    // No new matrix starts past the budget.
    if (budgetSeconds_ > 0) later = std::min(later, std::max(0.0, budgetSeconds_ - elapsed));
    eta = clockText(remaining + later);
  }
  constexpr int kBarWidth = 20;
  const int filled = static_cast<int>(kBarWidth * index_ / std::max<std::size_t>(1, plannedNnz_.size()));
  const std::string line =
      fmt::format("calibrating [{}{}] {:>3}/{} {:<28} {:<12} elapsed {}  eta {}", std::string(filled, '#'),
                  std::string(kBarWidth - filled, '.'), index_ + 1, plannedNnz_.size(), matrix_, kernel_,
                  clockText(elapsed), eta);
  // Spaces over whatever a longer line left behind.
  fmt::print(stderr, "\r{}{}", line, std::string(drawnWidth_ > line.size() ? drawnWidth_ - line.size() : 0, ' '));
  std::fflush(stderr);
  drawnWidth_ = line.size();
}

void CalibrationProgress::finish(const std::string& remark) {
  if (!enabled_) return;
  if (terminal_ && drawnWidth_ > 0) fmt::print(stderr, "\r{}\r", std::string(drawnWidth_, ' '));
  fmt::print(stderr, "calibrated {} matrices in {}{}\n", doneSeconds_.size(), clockText(elapsedSeconds()),
             remark.empty() ? "" : "; " + remark);
}

void CalibrationProgress::interrupt() {
  if (enabled_ && terminal_ && drawnWidth_ > 0) fmt::print(stderr, "\n");
  drawnWidth_ = 0;
}

}  // namespace araios::cli::calibration
