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

/// Hash of a CSR matrix's pattern and values (any type with numRows, numCols, rowPtr, colIdx and
/// values, such as CsrMatrix): the shape, the row offsets and the column indices as 64-bit
/// integers, then the values' bits. The index types do not enter it, so a product computed with
/// 32-bit and with 64-bit indices hashes alike when its values are the same.
template <class Csr>
std::string hashCsr(const Csr& a) {
  auto rowPtr = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), a.rowPtr);
  auto colIdx = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), a.colIdx);
  auto values = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), a.values);
  const std::int64_t shape[2] = {static_cast<std::int64_t>(a.numRows), static_cast<std::int64_t>(a.numCols)};
  std::uint64_t hash = fnv1a(shape, sizeof shape);
  for (std::size_t i = 0; i < rowPtr.extent(0); ++i) {
    const std::int64_t v = static_cast<std::int64_t>(rowPtr(i));
    hash = fnv1a(&v, sizeof v, hash);
  }
  for (std::size_t i = 0; i < colIdx.extent(0); ++i) {
    const std::int64_t v = static_cast<std::int64_t>(colIdx(i));
    hash = fnv1a(&v, sizeof v, hash);
  }
  return toHex(fnv1a(values.data(), values.extent(0) * sizeof(typename decltype(values)::value_type), hash));
}

}  // namespace araios
