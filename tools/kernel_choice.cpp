// --format auto in the commands: the named profile, and the choice as text and JSON.
#include "kernel_choice.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace araios::cli {

std::shared_ptr<const PerformanceProfile> namedProfile(const ChoiceArgs& choice, const std::string& backend) {
  if (choice.profile.empty()) return nullptr;
  try {
    return std::make_shared<const PerformanceProfile>(readProfile(choice.profile, backend));
  } catch (const ProfileError& e) {
    fmt::print(stderr, "araios: warning: {}; using the built-in constants\n", e.what());
    return std::make_shared<const PerformanceProfile>(builtinProfile(backend));
  }
}

std::string choiceText(const KernelChoice& choice) {
  return fmt::format("chosen by auto: {}; profile {}", choice.reason, choice.profile);
}

std::string choiceJson(const KernelChoice& choice, double chooseSeconds) {
  nlohmann::json ranking = nlohmann::json::array();
  for (const KernelEstimate& e : choice.ranking) {
    nlohmann::json row = {{"kernel", std::string(kernelEntry(e.kernel).name)},
                          {"product_s", e.productSeconds},
                          {"build_s", e.buildSeconds},
                          {"total_s", e.totalSeconds},
                          {"format_bytes", e.formatBytes},
                          {"padding", e.padding}};
    if (!e.excluded.empty()) row["excluded"] = e.excluded;
    ranking.push_back(row);
  }
  return nlohmann::json{{"kernel", std::string(kernelEntry(choice.kernel).name)},
                        {"reason", choice.reason},
                        {"profile", choice.profile},
                        {"choose_s", chooseSeconds},
                        {"ranking", ranking}}
      .dump();
}

}  // namespace araios::cli
