#pragma once
// A fingerprint of a vector's exact bits, for comparing results across runs and backends:
// FNV-1a (64-bit) over the bytes of the values, in index order, printed as 16 hex digits.
#include <Kokkos_Core.hpp>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>

namespace araios {

inline std::uint64_t fnv1a(const void* data, std::size_t bytes, std::uint64_t hash = 0xcbf29ce484222325ull) {
  const auto* p = static_cast<const unsigned char*>(data);
  for (std::size_t i = 0; i < bytes; ++i) {
    hash ^= p[i];
    hash *= 0x100000001b3ull;
  }
  return hash;
}

inline std::string toHex(std::uint64_t value) {
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(value));
  return buf;
}

/// Hash of the bits of a rank-1 View (copied to the host first if needed).
template <class View>
std::string hashBits(const View& v) {
  auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), v);
  return toHex(fnv1a(host.data(), host.extent(0) * sizeof(typename View::value_type)));
}

}  // namespace araios
