// araios calibrate: fits the performance model's constants to this device and writes them as
// its profile, where Kernel::Auto finds them.
//   1. the plan: matrices sized by the device's parallelism and cache (calibration/matrix_plan);
//   2. for each, generated on the host and copied to the device: its features, then every
//      kernel's build and its products in each mode, timed (calibration/measure_matrix);
//   3. the fit: per kernel and mode, per format's build (calibration/fit_profile);
//   4. the profile written atomically, and the fit's errors reported.
// --budget stops starting new matrices once that many seconds have passed; the fit uses what
// was measured. Exit codes: 0, or 1 when the profile cannot be written or a kernel fails.
#include "backend.hpp"
#include "calibration/calibration_progress.hpp"
#include "calibration/calibration_report.hpp"
#include "calibration/fit_profile.hpp"
#include "calibration/matrix_generator.hpp"
#include "calibration/matrix_plan.hpp"
#include "calibration/measure_matrix.hpp"
#include "calibration/profile_destination.hpp"
#include "command_args.hpp"
#include "version.hpp"

#include <araios_source_commit.hpp>

#include <araios/model/describe_device.hpp>
#include <araios/model/performance_profile.hpp>

#include <Kokkos_Core.hpp>

#include <ctime>
#include <unistd.h>
#include <string>
#include <vector>

namespace araios::cli {
namespace {

using namespace calibration;

std::string utcNow() {
  const std::time_t now = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&now, &tm);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return text;
}

template <class Value, class ExecSpace>
int calibrate(const ExecSpace& exec, const CalibrateArgs& args) {
  Kokkos::Timer wall;
  const DeviceDescription device = describeDevice(exec);
  const std::string path = profileDestination(args.out, device);
  const std::vector<MatrixSpec> plan = calibrationPlan(planSizes(device, args.quick), args.quick);
  TimingRule rule;
  if (args.quick) rule.minSeconds = 0.01;

  std::vector<double> plannedNnz;
  for (const MatrixSpec& m : plan) plannedNnz.push_back(static_cast<double>(m.estimatedNnz));
  CalibrationProgress progress(plannedNnz, !args.run.json && (args.report || ::isatty(2) == 1), args.budgetSeconds);
  std::vector<MatrixTimings> timings;
  try {
    for (std::size_t i = 0; i < plan.size(); ++i) {
      if (args.budgetSeconds > 0 && progress.elapsedSeconds() >= args.budgetSeconds) break;
      progress.startMatrix(i, plan[i].name);
      progress.startKernel("generating");
      const GeneratedMatrix matrix = generateMatrix(plan[i]);
      timings.push_back(measureMatrix<Value>(
          exec, matrix, rule, [&](const KernelEntry& k) { progress.startKernel(std::string(k.name)); }));
      progress.finishMatrix(static_cast<double>(matrix.nnz()));
    }
  } catch (...) {
    progress.interrupt();
    throw;
  }
  const int measured = static_cast<int>(timings.size());
  progress.finish(measured < static_cast<int>(plan.size())
                      ? "--budget reached: " + std::to_string(plan.size() - measured) + " matrices not measured"
                      : std::string());

  ProfileFit fit = fitProfile(device, timings, {static_cast<int>(sizeof(Value)), 4, 4});
  fit.profile.commit = ARAIOS_SOURCE_COMMIT;
  fit.profile.created = utcNow();
  writeProfile(path, fit.profile);
  readProfile(path, device.backend);  // what Kernel::Auto will read: refused here rather than there

  if (!args.report) return 0;
  CalibrationRun run;
  run.path = path;
  run.precision = args.run.precision;
  run.seconds = wall.seconds();
  run.matricesMeasured = measured;
  run.matricesPlanned = static_cast<int>(plan.size());
  run.budgetSeconds = args.budgetSeconds;
  if (args.run.json) {
    printReportJson(fit, run);
  } else {
    printReport(fit, run);
  }
  return 0;
}

}  // namespace

int runCalibrate(const CalibrateArgs& args) {
  int code = 0;
  withBackend(args.run.backend, [&](auto exec) {
    code = args.run.precision == "float" ? calibrate<float>(exec, args) : calibrate<double>(exec, args);
  });
  return code;
}

}  // namespace araios::cli
