#pragma once
// The first pass over a chunk of rows: each row's intermediate product count and the span of
// columns its products reach, from A's columns and the first and last column of each row of
// B (sorted rows). One team per row shares row i of A.
#include <araios/spgemm/spgemm_views.hpp>
#include <araios/spgemm/symbolic_rows.hpp>

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <limits>

namespace araios::Impl {

template <class Value, class Ordinal, class Offset, class ExecSpace>
struct RowInfoPass {
  using Device = typename ExecSpace::device_type;
  using Member = typename Kokkos::TeamPolicy<ExecSpace>::member_type;
  SpgemmViews<Value, Ordinal, Offset, Device> v;
  SpgemmRowInfo<Device> info;
  Ordinal r0;

  KOKKOS_INLINE_FUNCTION void operator()(const Member& m) const {
    const Ordinal i = r0 + static_cast<Ordinal>(m.league_rank());
    std::int64_t products = 0, lo = INT64_MAX, hi = -1;  // (numeric_limits is host code to nvcc)
    const Offset aBegin = v.aPtr(i), aEnd = v.aPtr(i + 1);
    Kokkos::parallel_reduce(
        Kokkos::TeamThreadRange(m, aBegin, aEnd),
        [&](const Offset p, std::int64_t& sum) {
          const Ordinal k = v.aCol(p);
          sum += static_cast<std::int64_t>(v.bPtr(k + 1) - v.bPtr(k));
        },
        products);
    Kokkos::parallel_reduce(
        Kokkos::TeamThreadRange(m, aBegin, aEnd),
        [&](const Offset p, std::int64_t& low) {
          const Ordinal k = v.aCol(p);
          if (v.bPtr(k + 1) > v.bPtr(k) && v.bCol(v.bPtr(k)) < low) low = v.bCol(v.bPtr(k));
        },
        Kokkos::Min<std::int64_t>(lo));
    Kokkos::parallel_reduce(
        Kokkos::TeamThreadRange(m, aBegin, aEnd),
        [&](const Offset p, std::int64_t& high) {
          const Ordinal k = v.aCol(p);
          if (v.bPtr(k + 1) > v.bPtr(k) && v.bCol(v.bPtr(k + 1) - 1) > high) high = v.bCol(v.bPtr(k + 1) - 1);
        },
        Kokkos::Max<std::int64_t>(hi));
    Kokkos::single(Kokkos::PerTeam(m), [&]() {
      info.products(i - r0) = products;
      info.lo(i - r0) = products == 0 ? 0 : lo;
      info.hi(i - r0) = products == 0 ? 0 : hi + 1;
    });
  }
};

/// The first row of a CSR matrix whose columns are not strictly increasing or leave
/// [0, numCols), or -1.
template <class Ordinal, class Offset, class ExecSpace, class PtrView, class ColView>
std::int64_t firstBadRow(const ExecSpace& exec, const PtrView& ptr, const ColView& col, Ordinal numRows,
                         std::int64_t numCols, bool needIncreasing) {
  std::int64_t bad = std::numeric_limits<std::int64_t>::max();
  Kokkos::parallel_reduce(
      "araios::spgemm::checkRows", Kokkos::RangePolicy<ExecSpace>(exec, 0, numRows),
      KOKKOS_LAMBDA(const Ordinal r, std::int64_t& first) {
        for (Offset p = ptr(r); p < ptr(r + 1); ++p) {
          const Ordinal c = col(p);
          if (c < 0 || c >= numCols || (needIncreasing && p > ptr(r) && c <= col(p - 1))) {
            if (r < first) first = r;
            return;
          }
        }
      },
      Kokkos::Min<std::int64_t>(bad));
  return bad == std::numeric_limits<std::int64_t>::max() ? -1 : bad;
}

}  // namespace araios::Impl
