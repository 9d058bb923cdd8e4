#pragma once
// What araios calibrate prints when it is done: the fit's errors per kernel and mode and per
// format's build, where the profile went, and any fallback to the built-in constants; as a
// table, or as one JSON object (--json).
#include "fit_profile.hpp"

#include <string>

namespace araios::cli::calibration {

struct CalibrationRun {
  std::string path;       ///< where the profile was written
  std::string precision;  ///< the value type of the timed products
  double seconds = 0;     ///< the whole calibration, wall clock
  int matricesMeasured = 0;
  int matricesPlanned = 0;
  double budgetSeconds = 0;  ///< 0: none
};

void printReport(const ProfileFit& fit, const CalibrationRun& run);
void printReportJson(const ProfileFit& fit, const CalibrationRun& run);

}  // namespace araios::cli::calibration
