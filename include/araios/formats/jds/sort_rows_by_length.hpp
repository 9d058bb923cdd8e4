#pragma once
// The row order of JDS and SELL-C-sigma, planned on the host: rows sorted by length, longest
// first, within consecutive windows of `window` rows. JDS sorts in one window (all rows);
// SELL-C-sigma sorts within windows of sigma rows so that a row moves at most sigma - 1
// positions and the accesses to x and y stay close to the original row order.
#include <araios/detail/stable_order_by_key.hpp>
#include <araios/types.hpp>

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <string>
#include <vector>

namespace araios::Impl {

/// The length of every row, read from a device rowPtr.
template <class PtrView>
std::vector<std::int64_t> hostRowLengths(const PtrView& rowPtr) {
  auto ptr = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), rowPtr);
  const std::int64_t numRows = ptr.extent(0) > 0 ? static_cast<std::int64_t>(ptr.extent(0)) - 1 : 0;
  std::vector<std::int64_t> lengths(numRows);
  for (std::int64_t i = 0; i < numRows; ++i) lengths[i] = static_cast<std::int64_t>(ptr(i + 1) - ptr(i));
  return lengths;
}

/// order[k] = the original row placed at position k. A stable sort, so rows of equal length
/// keep their original order: the layout is a function of the matrix alone. O(n + longest row)
/// by counting sorts where the lengths allow it, else O(n log window).
inline std::vector<std::int64_t> sortRowsByLength(const std::vector<std::int64_t>& lengths, std::int64_t window) {
  const std::int64_t n = static_cast<std::int64_t>(lengths.size());
  std::vector<std::int64_t> order;
  order.reserve(static_cast<std::size_t>(n));
  const std::int64_t step = std::max<std::int64_t>(window, 1);  // the callers check the window; never loop forever
  for (std::int64_t begin = 0; begin < n;) {
    const std::int64_t end = n - begin <= step ? n : begin + step;  // no overflow for a huge window
    const std::vector<std::int64_t> sorted = stableOrderByKey(lengths, KeyOrder::LargestFirst, begin, end);
    order.insert(order.end(), sorted.begin(), sorted.end());
    begin = end;
  }
  return order;
}

/// A host vector of 64-bit integers as a device View of T, each entry narrowed with a check.
template <class T, class Device>
Kokkos::View<T*, Device> toDeviceView(const std::vector<std::int64_t>& values, const std::string& label,
                                      const char* what) {
  Kokkos::View<T*, Device> view(Kokkos::view_alloc(Kokkos::WithoutInitializing, label), values.size());
  auto mirror = Kokkos::create_mirror_view(view);
  for (std::size_t i = 0; i < values.size(); ++i) mirror(i) = checkedNarrow<T>(values[i], what);
  Kokkos::deep_copy(view, mirror);
  return view;
}

}  // namespace araios::Impl
