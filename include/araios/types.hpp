#pragma once
// Index types and checked narrowing. Araios supports int32 and int64 ordinals (row and column
// indices) and offsets (positions in the nonzero arrays). A conversion that would not fit is
// refused with a message; it never wraps.
#include <araios/error.hpp>

#include <cstdint>
#include <limits>
#include <string>
#include <type_traits>

namespace araios {

template <class T>
constexpr const char* typeName() {
  if constexpr (std::is_same_v<T, float>) return "float";
  else if constexpr (std::is_same_v<T, double>) return "double";
  else if constexpr (std::is_same_v<T, std::int32_t>) return "int32";
  else if constexpr (std::is_same_v<T, std::int64_t>) return "int64";
  else if constexpr (std::is_same_v<T, std::uint32_t>) return "uint32";
  else if constexpr (std::is_same_v<T, std::uint64_t>) return "uint64";
  else return "unknown type";
}

/// 2181038080 -> "2,181,038,080": the sizes in messages, readable at a glance.
inline std::string groupedDigits(std::int64_t value) {
  // The magnitude as unsigned, so that INT64_MIN has one too.
  const std::uint64_t magnitude = value < 0 ? std::uint64_t(0) - static_cast<std::uint64_t>(value)
                                            : static_cast<std::uint64_t>(value);
  const std::string digits = std::to_string(magnitude);
  std::string out = value < 0 ? "-" : "";
  const std::size_t lead = digits.size() % 3;
  for (std::size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (i + 3 - lead) % 3 == 0) out += ',';
    out += digits[i];
  }
  return out;
}

/// Refuses (InputError) `count` stored entries or slots that the offset type cannot index,
/// before anything that large is allocated. `what` names the structure, e.g. "CSR of
/// 33,554,432 rows": "CSR of 33,554,432 rows: 2,181,038,080 entries do not fit 32-bit offsets
/// (at most 2,147,483,647); use 64-bit offsets (Offset = std::int64_t)".
template <class Offset>
Offset checkedOffsetCount(std::int64_t count, const std::string& what, const char* items = "entries") {
  static_assert(std::is_integral_v<Offset>, "integers only");
  if (count >= 0 && static_cast<std::uint64_t>(count) <= static_cast<std::uint64_t>(std::numeric_limits<Offset>::max())) {
    return static_cast<Offset>(count);
  }
  throw InputError(what + ": " + groupedDigits(count) + " " + items + " do not fit " +
                   std::to_string(8 * sizeof(Offset)) + "-bit offsets (at most " +
                   groupedDigits(static_cast<std::int64_t>(std::numeric_limits<Offset>::max())) +
                   "); use 64-bit offsets (Offset = std::int64_t)");
}

/// Converts an integer to a narrower (or differently signed) integer type, throwing
/// InputError when the value does not fit. `what` names the quantity for the message.
template <class To, class From>
To checkedNarrow(From value, const char* what) {
  static_assert(std::is_integral_v<To> && std::is_integral_v<From>, "integers only");
  bool fits;
  if constexpr (std::is_signed_v<From> == std::is_signed_v<To>) {
    // Same signedness: the usual conversions compare in the wider of the two types.
    fits = value >= std::numeric_limits<To>::lowest() && value <= std::numeric_limits<To>::max();
  } else if constexpr (std::is_signed_v<From>) {  // signed -> unsigned
    fits = value >= 0 && static_cast<std::make_unsigned_t<From>>(value) <= std::numeric_limits<To>::max();
  } else {  // unsigned -> signed
    fits = value <= static_cast<std::make_unsigned_t<To>>(std::numeric_limits<To>::max());
  }
  if (!fits) {
    throw InputError(std::string(what) + " = " + std::to_string(value) + " does not fit in " +
                     typeName<To>() + "; expected at most " +
                     std::to_string(std::numeric_limits<To>::max()) +
                     " (use 64-bit ordinals/offsets for matrices this large)");
  }
  return static_cast<To>(value);
}

}  // namespace araios
