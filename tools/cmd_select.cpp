// araios select FILE: ranks every kernel for a matrix by the performance model, says which one
// --format auto would choose and why; with --measure, also builds each one and times it.
// Exit codes: 0, or 1 for bad input.
#include "command_args.hpp"
#include "kernel_choice.hpp"
#include "typed_run.hpp"

#include <araios/araios.hpp>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

namespace araios::cli {
namespace {

struct Measured {
  double productSeconds = -1;  ///< -1: not measured
  double buildSeconds = -1;
  std::string refused;
};

/// Builds `kernel` and times `repeat` products (the median), y poisoned before the first.
template <class ExecSpace, class Csr>
Measured measureKernel(const ExecSpace& exec, const Csr& csr, Kernel kernel, Mode mode, bool force, int repeat) {
  using Value = typename Csr::value_type;
  Measured m;
  OperatorOptions options;
  options.kernel = kernel;
  options.mode = mode;
  options.format.force = force;
  try {
    const SpmvOperator<Value, typename Csr::ordinal_type, typename Csr::size_type, ExecSpace> op(exec, csr, options);
    m.buildSeconds = op.buildSeconds();
    Kokkos::View<Value*, typename Csr::device_type> x("x", csr.numCols), y("y", csr.numRows);
    Kokkos::deep_copy(x, Value(1));
    Kokkos::deep_copy(y, std::numeric_limits<Value>::quiet_NaN());
    op.apply(exec, x, y);  // warm-up
    exec.fence();
    std::vector<double> times;
    Kokkos::Timer timer;
    for (int r = 0; r < repeat; ++r) {
      timer.reset();
      op.apply(exec, x, y);
      exec.fence();
      times.push_back(timer.seconds());
    }
    std::nth_element(times.begin(), times.begin() + times.size() / 2, times.end());
    m.productSeconds = times[times.size() / 2];
  } catch (const PaddingError& e) {
    m.refused = e.what();
  } catch (const OutOfMemoryError& e) {
    m.refused = e.what();
  }
  return m;
}

template <class ExecSpace, class Value, class Index>
int runTyped(const ExecSpace& exec, const io::HostMatrix& host, const SelectArgs& args) {
  using Csr = CsrMatrix<Value, Index, Index, typename ExecSpace::device_type>;
  const Csr csr = csrFromHost<Csr>(host);
  const Mode mode = parseMode(args.mode);

  OperatorOptions options;
  options.mode = mode;
  options.format.force = args.force;
  options.expectedProducts = args.choice.products > 0 ? args.choice.products : 100;
  options.memoryLimitBytes = args.choice.memoryLimit;
  options.csrOrderOnly = args.choice.csrOrderOnly;
  std::string warning;
  std::shared_ptr<const PerformanceProfile> profile = namedProfile(args.choice, args.run.backend);
  if (!profile) profile = Impl::deviceProfile(exec, &warning);
  if (!warning.empty()) fmt::print(stderr, "araios: warning: {}\n", warning);

  Kokkos::Timer timer;
  const MatrixFeatures features = computeFeatures(exec, csr);
  const KernelChoice choice = chooseKernel(features, *profile, Impl::choiceConstraints(exec, options),
                                           {static_cast<int>(sizeof(Value)), static_cast<int>(sizeof(Index)),
                                            static_cast<int>(sizeof(Index))});
  const double chooseSeconds = timer.seconds();
  // Again, now that the features' kernels are loaded: what choosing costs an operator built
  // after the first.
  timer.reset();
  chooseKernel(computeFeatures(exec, csr), *profile, Impl::choiceConstraints(exec, options),
               {static_cast<int>(sizeof(Value)), static_cast<int>(sizeof(Index)), static_cast<int>(sizeof(Index))});
  const double chooseAgainSeconds = timer.seconds();

  std::vector<Measured> measured(choice.ranking.size());
  if (args.measure) {
    for (std::size_t r = 0; r < choice.ranking.size(); ++r) {
      if (!args.run.json) {
        fmt::print(stderr, "\rmeasuring {:>2}/{} {:<12}", r + 1, choice.ranking.size(),
                   kernelEntry(choice.ranking[r].kernel).name);
      }
      measured[r] = measureKernel(exec, csr, choice.ranking[r].kernel, mode, args.force, args.repeat);
    }
    if (!args.run.json) fmt::print(stderr, "\r{:40}\r", "");
  }
  double bestMeasured = std::numeric_limits<double>::infinity();
  for (const Measured& m : measured) {
    if (m.productSeconds > 0) bestMeasured = std::min(bestMeasured, m.productSeconds);
  }

  if (args.run.json) {
    nlohmann::json j = nlohmann::json::parse(choiceJson(choice, chooseSeconds));
    j["file"] = args.file;
    j["rows"] = host.numRows;
    j["cols"] = host.numCols;
    j["nnz"] = host.nnz();
    j["mode"] = toString(mode);
    j["backend"] = args.run.backend;
    j["precision"] = args.run.precision;
    j["expected_products"] = options.expectedProducts;
    j["choose_again_s"] = chooseAgainSeconds;
    // The terms whose counts "terms" lists but the profile holds no constants for.
    j["terms_absent_from_profile"] = nlohmann::json::array();
    for (std::size_t t = 0; t < kProductTerms; ++t) {
      if (!profile->termFitted[t]) j["terms_absent_from_profile"].push_back(std::string(kProductTermNames[t]));
    }
    j["features"] = {{"max_row_length", features.maxRowLength},     {"empty_rows", features.emptyRows},
                     {"mean_row_length", features.meanRowLength()}, {"std_row_length", features.stdRowLength()},
                     {"group_slots", features.groupSlots},          {"sell_slots", features.sellSlots},
                     {"new_block_fraction", features.newBlockFraction()},
                     {"sampled_diagonals", features.sampledDiagonals}};
    const ElementSizes sizes{static_cast<int>(sizeof(Value)), static_cast<int>(sizeof(Index)),
                             static_cast<int>(sizeof(Index))};
    for (std::size_t r = 0; r < choice.ranking.size(); ++r) {
      const ProductTerms terms = kernelTerms(choice.ranking[r].kernel, mode, features, sizes, profile->traits());
      nlohmann::json t = nlohmann::json::object();
      for (std::size_t k = 0; k < kProductTerms; ++k) t[std::string(kProductTermNames[k])] = terms[k];
      j["ranking"][r]["terms"] = t;
    }
    for (std::size_t r = 0; r < choice.ranking.size() && args.measure; ++r) {
      auto& row = j["ranking"][r];
      if (measured[r].productSeconds > 0) {
        row["measured_product_s"] = measured[r].productSeconds;
        row["measured_build_s"] = measured[r].buildSeconds;
      }
      if (!measured[r].refused.empty()) row["refused"] = measured[r].refused;
    }
    if (args.measure && std::isfinite(bestMeasured) && measured.front().productSeconds > 0) {
      j["chosen_vs_best_measured"] = measured.front().productSeconds / bestMeasured;
    }
    fmt::print("{}\n", j.dump());
    return 0;
  }
  fmt::print("matrix    {}: {} x {}, {} stored entries, {} on {}, {} mode\n", args.file, groupedDigits(host.numRows),
             groupedDigits(host.numCols), groupedDigits(host.nnz()), args.run.precision, args.run.backend,
             toString(mode));
  fmt::print("profile   {}\n", choice.profile);
  fmt::print("features  mean row {:.2f}, longest {}, new x lines per entry {:.3f}, diagonals (sampled) {}\n",
             features.meanRowLength(), groupedDigits(features.maxRowLength), features.newBlockFraction(),
             groupedDigits(features.sampledDiagonals));
  fmt::print("\n{:<12} {:>14} {:>14} {:>14}{}\n", "kernel", "product", "build", "total", args.measure ? fmt::format(
                                                                                              "  {:>14} {:>8}", "measured", "vs best") : "");
  for (std::size_t r = 0; r < choice.ranking.size(); ++r) {
    const KernelEstimate& e = choice.ranking[r];
    std::string line = fmt::format("{:<12} {:>14} {:>14} {:>14}", kernelEntry(e.kernel).name,
                                   Impl::secondsText(e.productSeconds), Impl::secondsText(e.buildSeconds),
                                   Impl::secondsText(e.totalSeconds));
    if (args.measure) {
      const Measured& m = measured[r];
      line += m.productSeconds > 0
                  ? fmt::format("  {:>14} {:>7.2f}x", Impl::secondsText(m.productSeconds), m.productSeconds / bestMeasured)
                  : fmt::format("  {:>14} {:>8}", "refused", "");
    }
    if (!e.excluded.empty()) line += "  excluded: " + e.excluded;
    fmt::print("{}\n", line);
  }
  fmt::print("\nauto      {}\n", choice.reason);
  fmt::print("choosing  {:.3f} ms the first time, {:.3f} ms again (features on the device, the model, the ranking)\n",
             chooseSeconds * 1e3, chooseAgainSeconds * 1e3);
  return 0;
}

}  // namespace

int runSelect(const SelectArgs& args) {
  return runOnMatrix(args, [&](auto exec, auto value, auto index, const io::HostMatrix& host) {
    return runTyped<decltype(exec), decltype(value), decltype(index)>(exec, host, args);
  });
}

}  // namespace araios::cli
