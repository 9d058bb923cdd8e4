#pragma once
// --format auto in the commands: the profile the user named (or the device's), the options of
// the choice, and how the choice is printed.
#include "command_args.hpp"

#include <araios/model/choose_kernel.hpp>
#include <araios/model/performance_profile.hpp>

#include <memory>
#include <string>

namespace araios::cli {

/// The profile of --profile, read for `backend`; null when none was named (the operator then
/// uses the device's). A file that cannot be used is reported on stderr and the built-in
/// constants are used instead.
std::shared_ptr<const PerformanceProfile> namedProfile(const ChoiceArgs& choice, const std::string& backend);

/// "brc, chosen by auto: predicted ... (profile ...)" for the text output.
std::string choiceText(const KernelChoice& choice);

/// The choice as JSON text: kernel, reason, profile, choose_s and the ranking.
std::string choiceJson(const KernelChoice& choice, double chooseSeconds);

}  // namespace araios::cli
