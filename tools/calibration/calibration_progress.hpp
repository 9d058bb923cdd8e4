#pragma once
// The progress of a calibration on stderr, one line redrawn in place:
//   calibrating [#######.............]  12/51 banded-L8-stream  csr-vector  elapsed 01:23  eta 02:10
// The estimate fits seconds = a + b * nnz to the matrices done so far (a: the fixed cost of
// timing every kernel in every mode, b: the cost per entry) and sums it over the matrices left,
// within --budget. Where stderr is not a terminal, one line per matrix instead.
#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

namespace araios::cli::calibration {

class CalibrationProgress {
 public:
  /// `plannedNnz`: the estimated entries of every planned matrix; `enabled` false prints nothing.
  CalibrationProgress(std::vector<double> plannedNnz, bool enabled, double budgetSeconds);

  void startMatrix(std::size_t index, const std::string& name);
  void startKernel(const std::string& kernel);
  void finishMatrix(double nnz);
  /// Ends the line (the display stays on screen), with a closing remark.
  void finish(const std::string& remark);
  /// Ends the line where it stands, so that an error message starts on a line of its own.
  void interrupt();

  double elapsedSeconds() const;

 private:
  double predictedSeconds(double nnz) const;
  void draw();

  std::vector<double> plannedNnz_;
  bool enabled_;
  bool terminal_;
  double budgetSeconds_;
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
  double matrixStart_ = 0;
  std::size_t index_ = 0;
  std::string matrix_, kernel_;
  std::vector<double> doneNnz_, doneSeconds_;
  std::size_t drawnWidth_ = 0;
};

/// mm:ss, or h:mm:ss past an hour.
std::string clockText(double seconds);

}  // namespace araios::cli::calibration
