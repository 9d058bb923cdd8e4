#pragma once
// The rows of a CSR matrix as the lanes kernel of Accurate mode takes them (csr_accurate.hpp):
// every row, or the rows of one length bin (accurateLaneBin), listed once on the device. A
// matrix of many short rows and a tail of longer ones (a circuit, a power-law graph) gives each
// bin a lane group as wide as its rows ask, so a row of 500 entries does not hold a warp of
// rows of 3, nor a row of 3 a group of 32 lanes.
#include <araios/formats/csr/csr.hpp>
#include <araios/formats/csr/csr_accurate_path.hpp>
#include <araios/formats/csr/csr_long_rows.hpp>

#include <Kokkos_Core.hpp>

#include <array>
#include <cstdint>

namespace araios::Impl {

/// Bins of the bins kernel: bin b holds the rows of at most kAccurateLanesLongestRow entries
/// whose own length gives 2^b lanes by accurateLanesPerRow (1 to 32 lanes).
constexpr int kAccurateLaneBins = 6;

/// The bin of a row of `length` entries (kAccurateLaneBins for a long row, which no bin holds):
/// the largest b with 2^b lanes of at least 4 entries each, 2^b = accurateLanesPerRow(length)
/// in integers, for the device.
KOKKOS_INLINE_FUNCTION int accurateLaneBin(std::int64_t length) {
  if (length > kAccurateLanesLongestRow) return kAccurateLaneBins;
  int bin = 0;
  while (bin + 1 < kAccurateLaneBins && (std::int64_t(8) << bin) <= length) ++bin;
  return bin;
}

/// The rows one launch of the lanes kernel takes: rows(first), ..., rows(first + count - 1)
/// where `listed`, else rows 0 to count - 1.
template <class Csr>
struct CsrRowSet {
  Kokkos::View<const typename Csr::ordinal_type*, typename Csr::device_type> rows;
  std::int64_t first = 0;
  std::int64_t count = 0;
  bool listed = false;
  KOKKOS_INLINE_FUNCTION typename Csr::ordinal_type row(std::int64_t k) const {
    return listed ? rows(first + k) : static_cast<typename Csr::ordinal_type>(k);
  }
};

/// Every row of A.
template <class Csr>
CsrRowSet<Csr> csrAllRows(const Csr& A) {
  CsrRowSet<Csr> set;
  set.count = A.numRows;
  return set;
}

/// A's rows of at most kAccurateLanesLongestRow entries by bin: bin b's rows, ascending, are
/// rows(begin[b]), ..., rows(begin[b + 1] - 1).
template <class Csr>
struct CsrRowBins {
  Kokkos::View<typename Csr::ordinal_type*, typename Csr::device_type> rows;
  std::array<std::int64_t, kAccurateLaneBins + 1> begin{};
  CsrRowSet<Csr> bin(int b) const { return {rows, begin[b], begin[b + 1] - begin[b], true}; }
  std::int64_t bytes() const { return static_cast<std::int64_t>(rows.span() * sizeof(typename Csr::ordinal_type)); }
};

template <class Csr>
struct CountBinRows {
  Csr A;
  int bin;
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t i, std::int64_t& count) const {
    if (accurateLaneBin(csrRowLength(A, i)) == bin) ++count;
  }
};

template <class Csr>
struct ListBinRows {
  Csr A;
  int bin;
  Kokkos::View<typename Csr::ordinal_type*, typename Csr::device_type> rows;
  std::int64_t first;
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t i, std::int64_t& before, const bool final) const {
    if (accurateLaneBin(csrRowLength(A, i)) != bin) return;
    if (final) rows(first + before) = static_cast<typename Csr::ordinal_type>(i);
    ++before;
  }
};

/// A's rows by bin, found on `exec`: a count per bin, read back, and a scan per bin that holds
/// rows. Set-up work, once per operator.
template <class ExecSpace, class Csr>
CsrRowBins<Csr> csrRowBins(const ExecSpace& exec, const Csr& A) {
  using Range = Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>;
  CsrRowBins<Csr> bins;
  for (int b = 0; b < kAccurateLaneBins; ++b) {
    std::int64_t count = 0;
    if (A.numRows > 0) {
      Kokkos::parallel_reduce("araios::spmv::csr_accurate::count_bin_rows", Range(exec, 0, A.numRows),
                              CountBinRows<Csr>{A, b}, count);
    }
    bins.begin[b + 1] = bins.begin[b] + count;
  }
  bins.rows = decltype(bins.rows)(Kokkos::view_alloc(Kokkos::WithoutInitializing, "araios::spmv::csr_accurate::bin_rows"),
                                  bins.begin[kAccurateLaneBins]);
  for (int b = 0; b < kAccurateLaneBins; ++b) {
    if (bins.begin[b + 1] == bins.begin[b]) continue;
    Kokkos::parallel_scan("araios::spmv::csr_accurate::list_bin_rows", Range(exec, 0, A.numRows),
                          ListBinRows<Csr>{A, b, bins.rows, bins.begin[b]});
  }
  return bins;
}

}  // namespace araios::Impl
