#pragma once
// computeFeatures: the features of a CSR matrix (matrix_features.hpp), computed on its own
// device. Nothing is copied to the host but the few hundred bytes of the result, so choosing a
// kernel costs a small fraction of one product: the pass reads the row offsets once (a product
// reads them, the columns, the values, x and y), the sample a few thousand rows.
#include <araios/formats/csr/csr.hpp>
#include <araios/model/matrix_features.hpp>

#include <Kokkos_Core.hpp>

#include <cstdint>

namespace araios {

namespace Impl {

/// rowLengthClass, callable on the device.
KOKKOS_INLINE_FUNCTION int lengthClass(std::int64_t length) {
  int c = 0;
  while (length > 0 && c < kRowLengthClasses - 1) {
    length >>= 1;
    ++c;
  }
  return c;
}

/// What one pass over the row offsets sums.
struct RowOffsetSums {
  std::int64_t squares;
  std::int64_t empty;
  std::int64_t maxLength;
  std::int64_t minLength;
  std::int64_t groupSlots;
  std::int64_t sellSlots;
  std::int64_t rowsByClass[kRowLengthClasses];
  std::int64_t entriesByClass[kRowLengthClasses];
};

/// One thread per window of kRowWindow rows: it reads the window's offsets once and sums the
/// statistics of its rows, its groups of kRowGroup rows, and its SELL slices.
template <class PtrView>
struct RowOffsetPass {
  using value_type = RowOffsetSums;
  PtrView ptr;
  std::int64_t rows;

  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t window, value_type& s) const {
    const std::int64_t first = window * kRowWindow;
    const std::int64_t last = first + kRowWindow < rows ? first + kRowWindow : rows;
    // The window's rows per length class and the longest of each, for SELL's sort.
    std::int64_t classRows[kRowLengthClasses] = {};
    std::int64_t classLongest[kRowLengthClasses] = {};
    std::int64_t groupLongest = 0;
    for (std::int64_t i = first; i < last; ++i) {
      const std::int64_t len = static_cast<std::int64_t>(ptr(i + 1)) - static_cast<std::int64_t>(ptr(i));
      s.squares += len * len;
      s.empty += len == 0 ? 1 : 0;
      if (len < s.minLength) s.minLength = len;
      if (len > s.maxLength) s.maxLength = len;
      const int c = lengthClass(len);
      s.rowsByClass[c] += 1;
      s.entriesByClass[c] += len;
      classRows[c] += 1;
      if (len > classLongest[c]) classLongest[c] = len;
      if (len > groupLongest) groupLongest = len;
      if ((i - first) % kRowGroup == kRowGroup - 1 || i + 1 == last) {
        s.groupSlots += kRowGroup * groupLongest;
        groupLongest = 0;
      }
    }
    // Sorted longest first, a slice starting at sorted position p is as wide as row p.
    std::int64_t position = 0;
    for (int c = kRowLengthClasses - 1; c >= 0; --c) {
      const std::int64_t n = classRows[c];
      for (std::int64_t p = (position + kRowGroup - 1) / kRowGroup * kRowGroup; p < position + n; p += kRowGroup) {
        s.sellSlots += kRowGroup * classLongest[c];
      }
      position += n;
    }
  }

  KOKKOS_INLINE_FUNCTION void init(value_type& s) const {
    s.squares = s.empty = s.maxLength = s.groupSlots = s.sellSlots = 0;
    s.minLength = 0x7fffffffffffffff;  // the largest int64: any row is shorter
    for (int c = 0; c < kRowLengthClasses; ++c) s.rowsByClass[c] = s.entriesByClass[c] = 0;
  }

  template <class Dst, class Src>
  KOKKOS_INLINE_FUNCTION static void joinInto(Dst& d, const Src& s) {
    d.squares += s.squares;
    d.empty += s.empty;
    d.groupSlots += s.groupSlots;
    d.sellSlots += s.sellSlots;
    if (s.maxLength > d.maxLength) d.maxLength = s.maxLength;
    if (s.minLength < d.minLength) d.minLength = s.minLength;
    for (int c = 0; c < kRowLengthClasses; ++c) {
      d.rowsByClass[c] += s.rowsByClass[c];
      d.entriesByClass[c] += s.entriesByClass[c];
    }
  }
  // Kokkos 3.x joins through volatile references, Kokkos 4 through plain ones.
  KOKKOS_INLINE_FUNCTION void join(value_type& d, const value_type& s) const { joinInto(d, s); }
  KOKKOS_INLINE_FUNCTION void join(volatile value_type& d, const volatile value_type& s) const { joinInto(d, s); }
};

/// What the sampled rows sum.
struct SampleSums {
  std::int64_t rows;
  std::int64_t entries;
  std::int64_t blocks;
  std::int64_t newBlocks;
};

/// One thread per sampled row: walks the row's column blocks beside the previous row's (both
/// sorted, as CSR's columns are), and marks the row's diagonals in a bitmap.
template <class PtrView, class ColView, class BitView>
struct SampledRowPass {
  using value_type = SampleSums;
  PtrView ptr;
  ColView col;
  BitView diagonals;  ///< one bit per diagonal, column - row + rows - 1
  std::int64_t rows;
  std::int64_t sampled;

  KOKKOS_INLINE_FUNCTION std::int64_t sampledRow(std::int64_t k) const {
    // floor(k * (rows - 1) / (sampled - 1)): evenly spaced, the first and the last row
    // included, in integers (the same rows on every backend) split so that nothing overflows.
    if (sampled < 2) return 0;
    const std::int64_t step = (rows - 1) / (sampled - 1), rest = (rows - 1) % (sampled - 1);
    return k * step + (k * rest) / (sampled - 1);
  }

  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t k, value_type& s) const {
    const std::int64_t i = sampledRow(k);
    const std::int64_t begin = ptr(i);
    const std::int64_t rowEnd = ptr(i + 1);
    const std::int64_t end = rowEnd - begin > kSampledEntriesPerRow ? begin + kSampledEntriesPerRow : rowEnd;
    std::int64_t p = i > 0 ? static_cast<std::int64_t>(ptr(i - 1)) : 0;
    const std::int64_t prevEnd = i > 0 ? static_cast<std::int64_t>(ptr(i)) : 0;
    std::int64_t lastBlock = -1;
    s.rows += 1;
    for (std::int64_t e = begin; e < end; ++e) {
      const std::int64_t c = col(e);
      const std::int64_t d = c - i + rows - 1;
      Kokkos::atomic_fetch_or(&diagonals(d >> 5), 1u << (d & 31));
      s.entries += 1;
      const std::int64_t block = c / kColumnBlock;
      if (block == lastBlock) continue;
      lastBlock = block;
      s.blocks += 1;
      // Advance in the previous row to the first column of this block or after it.
      while (p < prevEnd && static_cast<std::int64_t>(col(p)) / kColumnBlock < block) ++p;
      if (!(p < prevEnd && static_cast<std::int64_t>(col(p)) / kColumnBlock == block)) s.newBlocks += 1;
    }
  }

  KOKKOS_INLINE_FUNCTION void init(value_type& s) const { s.rows = s.entries = s.blocks = s.newBlocks = 0; }
  template <class Dst, class Src>
  KOKKOS_INLINE_FUNCTION static void joinInto(Dst& d, const Src& s) {
    d.rows += s.rows;
    d.entries += s.entries;
    d.blocks += s.blocks;
    d.newBlocks += s.newBlocks;
  }
  KOKKOS_INLINE_FUNCTION void join(value_type& d, const value_type& s) const { joinInto(d, s); }
  KOKKOS_INLINE_FUNCTION void join(volatile value_type& d, const volatile value_type& s) const { joinInto(d, s); }
};

template <class BitView>
struct CountBits {
  BitView bits;
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t w, std::int64_t& count) const {
    std::uint32_t v = bits(w);
    while (v != 0) {  // portable popcount: the loop runs once per set bit
      v &= v - 1;
      ++count;
    }
  }
};

}  // namespace Impl

/// The features of `A` (CSR with sorted columns), computed on `exec`: one reduction over the
/// row offsets, one over the sampled rows and one over the sample's diagonal bitmap. Fences
/// `exec`.
template <class ExecSpace, class Csr>
MatrixFeatures computeFeatures(const ExecSpace& exec, const Csr& A) {
  MatrixFeatures f;
  f.rows = A.numRows;
  f.cols = A.numCols;
  f.nnz = A.nnz();
  if (f.rows == 0) return f;
  using Policy = Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>;
  using Ptr = decltype(A.rowPtr);
  using Col = decltype(A.colIdx);

  Impl::RowOffsetSums sums;
  const std::int64_t windows = (f.rows + kRowWindow - 1) / kRowWindow;
  Kokkos::parallel_reduce("araios::features::offsets", Policy(exec, 0, windows),
                          Impl::RowOffsetPass<Ptr>{A.rowPtr, f.rows}, sums);

  const std::int64_t sampled = f.rows < kSampledRows ? f.rows : kSampledRows;
  const std::int64_t diagonalSlots = f.cols > 0 ? f.rows + f.cols - 1 : 1;
  using Bits = Kokkos::View<std::uint32_t*, typename Csr::device_type>;
  Bits diagonals("araios::features::diagonals", static_cast<std::size_t>((diagonalSlots + 31) / 32));
  Impl::SampleSums sample;
  Kokkos::parallel_reduce("araios::features::sample", Policy(exec, 0, sampled),
                          Impl::SampledRowPass<Ptr, Col, Bits>{A.rowPtr, A.colIdx, diagonals, f.rows, sampled},
                          sample);
  std::int64_t diagonalCount = 0;
  Kokkos::parallel_reduce("araios::features::diagonals", Policy(exec, 0, static_cast<std::int64_t>(diagonals.extent(0))),
                          Impl::CountBits<Bits>{diagonals}, diagonalCount);
  exec.fence();

  f.rowLengthSquares = sums.squares;
  f.emptyRows = sums.empty;
  f.maxRowLength = sums.maxLength;
  f.minRowLength = sums.minLength;
  f.groupSlots = sums.groupSlots;
  f.sellSlots = sums.sellSlots;
  for (int c = 0; c < kRowLengthClasses; ++c) {
    f.rowsByClass[c] = sums.rowsByClass[c];
    f.entriesByClass[c] = sums.entriesByClass[c];
  }
  f.sampledRows = sample.rows;
  f.sampledEntries = sample.entries;
  f.sampledBlocks = sample.blocks;
  f.sampledNewBlocks = sample.newBlocks;
  f.sampledDiagonals = diagonalCount;
  return f;
}

}  // namespace araios

#include <araios/instantiations.hpp>
#ifdef ARAIOS_COMPILED_INSTANTIATIONS
ARAIOS_ETI_FOR_EACH(ARAIOS_ETI_DECLARE_FEATURES)
#endif
