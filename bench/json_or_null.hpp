#pragma once
// JSON values of the result rows: an absent optional or an empty string is written as null, so
// that a missing measurement reads as missing rather than as 0 or "".
#include <nlohmann/json.hpp>

#include <optional>
#include <string>

namespace araios::bench {

template <class T>
nlohmann::ordered_json orNull(const std::optional<T>& v) {
  return v ? nlohmann::ordered_json(*v) : nlohmann::ordered_json(nullptr);
}

inline nlohmann::ordered_json orNull(const std::string& s) {
  return s.empty() ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(s);
}

}  // namespace araios::bench
