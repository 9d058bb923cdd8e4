#pragma once
// What each storage format would hold for a matrix, from its row lengths alone: the bytes of
// the format's arrays and its stored slots (padding included), as the format's bytes() and
// storedSlots() would give after building it, and the same refusals (PaddingError, or the
// InputError of a count that does not fit the index type) with the same messages. `araios info`
// answers in one pass over the entries instead of building every format.
//
// This header depends on row-length statistics only, not on the format headers (core sits
// below formats/). The layout rules are therefore restated here from each format's conversion
// (formats/<fmt>/<fmt>_convert.hpp and its plan): tests/formats/test_footprints.cpp builds
// every format on real and generated matrices and checks that the two agree exactly, so a
// change on either side shows up there. DIA alone needs more than the row lengths: the number
// of occupied diagonals.
#include <araios/error.hpp>
#include <araios/format_options.hpp>
#include <araios/types.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <string>
#include <string_view>
#include <vector>

namespace araios {

/// What the footprints are computed from.
struct RowLengthStatistics {
  std::int64_t rows = 0;
  std::int64_t cols = 0;
  std::int64_t nnz = 0;
  /// Entries of each row, in row order (SELL sorts rows within windows of the original order).
  std::vector<std::int64_t> lengths;
  /// Distinct values of column - row over the entries (DIA stores one column per diagonal).
  std::int64_t occupiedDiagonals = 0;
  /// max |column - row| over the entries (0 when there are none), for `araios info`.
  std::int64_t bandwidth = 0;

  /// The mean row length, and the population standard deviation, computed as computeStats
  /// does (exact integer sums, long double for the variance): the thresholds of BRC and BRCP
  /// round mean + std, which must come out the same.
  double meanLength() const { return rows > 0 ? static_cast<double>(nnz) / static_cast<double>(rows) : 0.0; }
  double stdLength() const {
    if (rows == 0) return 0.0;
    std::int64_t squares = 0;
    for (const std::int64_t l : lengths) squares += l * l;
    const long double meanSq = static_cast<long double>(squares) / rows;
    const long double mean = static_cast<long double>(nnz) / rows;
    const long double var = meanSq - mean * mean;
    return var > 0 ? static_cast<double>(std::sqrt(var)) : 0.0;
  }

  /// From entries sorted by row (as a HostMatrix holds them), 0-based, no duplicates.
  static RowLengthStatistics fromEntries(std::int64_t rows, std::int64_t cols, const std::int64_t* row,
                                         const std::int64_t* col, std::int64_t count) {
    RowLengthStatistics s;
    s.rows = rows;
    s.cols = cols;
    s.nnz = count;
    s.lengths.assign(static_cast<std::size_t>(rows), 0);
    const std::int64_t possible = rows > 0 && cols > 0 ? rows + cols - 1 : 0;
    std::vector<bool> occupied(static_cast<std::size_t>(possible), false);
    for (std::int64_t k = 0; k < count; ++k) {
      ++s.lengths[static_cast<std::size_t>(row[k])];
      s.bandwidth = std::max(s.bandwidth, col[k] > row[k] ? col[k] - row[k] : row[k] - col[k]);
      const auto d = static_cast<std::size_t>(col[k] - row[k] + rows - 1);
      if (!occupied[d]) {
        occupied[d] = true;
        ++s.occupiedDiagonals;
      }
    }
    return s;
  }
};

struct FormatFootprint {
  std::int64_t bytes = 0;
  std::int64_t storedSlots = 0;
};

namespace footprint_detail {

// Layout constants, as the formats define them (the test catches a change on either side).
constexpr std::int64_t kSlotRowsPerBlock = 32;       // BRC, BRCP: brc_slot_rows.hpp
constexpr std::int64_t kBrcpLongRowDivisor = 64;     // BRCP: brcp_plan.hpp, eq. (3)
constexpr double kHybEllSpeedup = 3.0;               // HYB: hyb_convert.hpp
constexpr std::int64_t kHybMinRowsPerEllColumn = 4096;
constexpr std::int64_t kSellSliceHeight = 32;        // SELL: sell_convert.hpp, C
constexpr std::int64_t kSellSortWindow = 8 * 32;     // SELL: sigma
constexpr std::int64_t kVabBlockWidth = 4;           // VAB: vab.hpp
constexpr std::int64_t kVabBlocksPerGroup = 32;
constexpr std::int64_t kDiaBitsPerWord = 32;         // DIA: dia.hpp, the presence mask
constexpr std::int64_t kDiaMaskWordBytes = 4;
// SC-CSR: sccsr_plan.hpp, the length classes (minimum length, merge factor) and the portable N_w.
constexpr std::array<std::array<std::int64_t, 2>, 4> kScCsrClasses = {{{0, 32}, {8, 16}, {16, 8}, {32, 4}}};
constexpr double kScCsrFoldingThreshold = 4224;

/// rowsOfLength[l] = rows of length l, l = 0 .. longest.
inline std::vector<std::int64_t> histogram(const RowLengthStatistics& s) {
  std::int64_t longest = 0;
  for (const std::int64_t l : s.lengths) longest = std::max(longest, l);
  std::vector<std::int64_t> rowsOfLength(static_cast<std::size_t>(longest) + 1, 0);
  for (const std::int64_t l : s.lengths) ++rowsOfLength[static_cast<std::size_t>(l)];
  return rowsOfLength;
}

/// T = round(mean + std) of the row lengths, at least 1 (brc_slot_rows.hpp's lengthThreshold).
inline std::int64_t lengthThreshold(const RowLengthStatistics& s) {
  if (s.rows == 0) return 1;
  return std::max<std::int64_t>(1, std::llround(s.meanLength() + s.stdLength()));
}

/// Non-empty row lengths, longest first (the order of BRC and BRCP, whose layouts depend only
/// on the lengths in that order, not on which row has which).
inline std::vector<std::int64_t> nonEmptyLengthsLongestFirst(const std::vector<std::int64_t>& rowsOfLength) {
  std::vector<std::int64_t> sorted;
  for (std::size_t l = rowsOfLength.size(); l-- > 1;) sorted.insert(sorted.end(), static_cast<std::size_t>(rowsOfLength[l]), static_cast<std::int64_t>(l));
  return sorted;
}

inline std::string formatWhy(const char* pattern, long long a) {
  char why[160];
  std::snprintf(why, sizeof why, pattern, a);
  return why;
}

template <class Value, class Ordinal, class Offset>
FormatFootprint ell(const RowLengthStatistics& s, const FormatOptions& options) {
  std::int64_t longest = 0;
  for (const std::int64_t l : s.lengths) longest = std::max(longest, l);
  if (longest > 0 && s.rows > std::numeric_limits<std::int64_t>::max() / longest) {
    throw InputError("ELL of " + std::to_string(s.rows) + " rows of width " + std::to_string(longest) +
                     " has more slots than an int64 counts; expected a matrix with fewer rows or a shorter longest row");
  }
  const std::int64_t slots = s.rows * longest;
  char why[160];
  std::snprintf(why, sizeof why, "every row is padded to the longest row, of %lld entries, while rows average %.1f",
                static_cast<long long>(longest), s.rows > 0 ? static_cast<double>(s.nnz) / static_cast<double>(s.rows) : 0.0);
  checkPadding("ELL", slots, s.nnz, options, why);
  checkedNarrow<Ordinal>(longest, "ELL width (the longest row)");
  checkedNarrow<Offset>(slots, "number of ELL slots (rows x width)");
  return {slots * static_cast<std::int64_t>(sizeof(Ordinal) + sizeof(Value)), slots};
}

/// K: the largest width such that at least max(4096, rows / 3) rows have K or more entries.
inline std::int64_t hybEllWidth(const RowLengthStatistics& s, const std::vector<std::int64_t>& rowsOfLength) {
  const double needed = std::max(static_cast<double>(kHybMinRowsPerEllColumn), s.rows / kHybEllSpeedup);
  std::int64_t rowsAtLeast = 0;
  for (auto k = static_cast<std::int64_t>(rowsOfLength.size()) - 1; k >= 1; --k) {
    rowsAtLeast += rowsOfLength[static_cast<std::size_t>(k)];
    if (static_cast<double>(rowsAtLeast) >= needed) return k;
  }
  return 0;
}

template <class Value, class Ordinal, class Offset>
FormatFootprint hyb(const RowLengthStatistics& s, const FormatOptions& options) {
  const std::int64_t width = hybEllWidth(s, histogram(s));
  checkedNarrow<Ordinal>(width, "HYB ELL width");
  std::int64_t inCoo = 0;
  for (const std::int64_t l : s.lengths) inCoo += std::max<std::int64_t>(0, l - width);
  if (width > 0 && s.rows > std::numeric_limits<std::int64_t>::max() / width) {
    throw InputError("HYB of " + std::to_string(s.rows) + " rows with an ELL part of width " + std::to_string(width) +
                     " has more slots than an int64 counts; expected a smaller width");
  }
  const std::int64_t ellSlots = s.rows * width;
  checkPadding("HYB", ellSlots + inCoo, s.nnz, options,
               formatWhy("the ELL part pads every row to %lld entries", static_cast<long long>(width)));
  checkedNarrow<Offset>(ellSlots, "number of ELL slots (rows x width)");
  return {ellSlots * static_cast<std::int64_t>(sizeof(Ordinal) + sizeof(Value)) +
              inCoo * static_cast<std::int64_t>(2 * sizeof(Ordinal) + sizeof(Value)),
          ellSlots + inCoo};
}

template <class Value, class Ordinal, class Offset>
FormatFootprint dia(const RowLengthStatistics& s, const FormatOptions& options) {
  const std::int64_t numDiags = s.occupiedDiagonals;
  if (numDiags > 0 && s.rows > std::numeric_limits<std::int64_t>::max() / numDiags) {
    throw InputError("DIA of " + std::to_string(s.rows) + " rows and " + std::to_string(numDiags) +
                     " diagonals has more slots than an int64 counts; expected fewer occupied diagonals");
  }
  const std::int64_t slots = s.rows * numDiags;
  char why[160];
  std::snprintf(why, sizeof why, "the entries lie on %lld diagonals, each stored over all %lld rows",
                static_cast<long long>(numDiags), static_cast<long long>(s.rows));
  checkPadding("DIA", slots, s.nnz, options, why);
  checkedNarrow<Ordinal>(numDiags, "number of DIA diagonals");
  checkedNarrow<Offset>(slots, "number of DIA slots (rows x diagonals)");
  const std::int64_t maskWords = (slots + kDiaBitsPerWord - 1) / kDiaBitsPerWord;
  return {numDiags * static_cast<std::int64_t>(sizeof(Ordinal)) + slots * static_cast<std::int64_t>(sizeof(Value)) +
              maskWords * kDiaMaskWordBytes,
          slots};
}

template <class Value, class Ordinal, class Offset>
FormatFootprint jds(const RowLengthStatistics& s) {
  std::int64_t longest = 0;
  for (const std::int64_t l : s.lengths) longest = std::max(longest, l);
  return {s.rows * static_cast<std::int64_t>(sizeof(Ordinal)) + (longest + 1) * static_cast<std::int64_t>(sizeof(Offset)) +
              s.nnz * static_cast<std::int64_t>(sizeof(Ordinal) + sizeof(Value)),
          s.nnz};
}

/// SELL-C-sigma: rows sorted by length (longest first, stably) within windows of sigma rows,
/// then cut into slices of C rows, each as wide as its longest row.
template <class Value, class Ordinal, class Offset>
FormatFootprint sell(const RowLengthStatistics& s, const FormatOptions& options) {
  const std::int64_t n = s.rows, C = kSellSliceHeight, sigma = kSellSortWindow;
  std::vector<std::int64_t> sorted(s.lengths);
  for (std::int64_t begin = 0; begin < n;) {
    const std::int64_t end = n - begin <= sigma ? n : begin + sigma;
    std::sort(sorted.begin() + begin, sorted.begin() + end, std::greater<std::int64_t>());
    begin = end;
  }
  const std::int64_t numSlices = (n + C - 1) / C;
  std::int64_t slots = 0, longestRow = 0;
  for (std::int64_t slice = 0; slice < numSlices; ++slice) {
    std::int64_t width = 0;
    for (std::int64_t p = slice * C; p < std::min(n, (slice + 1) * C); ++p) width = std::max(width, sorted[p]);
    longestRow = std::max(longestRow, width);
    if (width > (std::numeric_limits<std::int64_t>::max() - slots) / C) {
      throw InputError("SELL: the slots of " + std::to_string(n) + " rows in slices of " + std::to_string(C) +
                       " overflow a 64-bit count; expected a smaller slice height");
    }
    slots += width * C;
  }
  checkPadding("SELL", slots, s.nnz, options,
               "each slice of C = " + std::to_string(C) + " rows is as wide as its longest row (longest row " +
                   std::to_string(longestRow) + " entries, sort window sigma = " + std::to_string(sigma) +
                   ") and the last slice is completed with " + std::to_string(numSlices * C - n) +
                   " empty rows (" + std::to_string(n) + " rows in all); rows of very different lengths share slices");
  checkedNarrow<Offset>(slots, "number of SELL slots");
  return {(numSlices + 1) * static_cast<std::int64_t>(sizeof(Offset)) + n * static_cast<std::int64_t>(sizeof(Ordinal)) +
              slots * static_cast<std::int64_t>(sizeof(Ordinal) + sizeof(Value)),
          slots};
}

/// BRC: every non-empty row cut into pieces of at most W = T entries; the pieces, longest first,
/// fill blocks of 32, each as wide as its first (longest) piece.
template <class Value, class Ordinal, class Offset>
FormatFootprint brc(const RowLengthStatistics& s, const FormatOptions& options) {
  const std::int64_t H = kSlotRowsPerBlock;
  const std::int64_t W = lengthThreshold(s);
  // Pieces by length: full pieces of W, and each row's remainder.
  std::vector<std::int64_t> piecesOfLength(static_cast<std::size_t>(W) + 1, 0);
  for (const std::int64_t l : s.lengths) {
    piecesOfLength[static_cast<std::size_t>(W)] += l / W;
    if (l % W > 0) ++piecesOfLength[static_cast<std::size_t>(l % W)];
  }
  // Block b starts at piece 32 b: walk the lengths down, counting the block starts in each.
  std::int64_t first = 0, slots = 0, numPieces = 0;
  for (std::int64_t l = W; l >= 1; --l) {
    const std::int64_t count = piecesOfLength[static_cast<std::size_t>(l)];
    const std::int64_t starts = (first + count + H - 1) / H - (first + H - 1) / H;
    if (starts > 0 && l > (std::numeric_limits<std::int64_t>::max() - slots) / (H * starts)) {
      throw InputError("BRC: the slot count overflows a 64-bit count; expected a matrix whose padded size fits 64 bits");
    }
    slots += starts * H * l;
    first += count;
  }
  numPieces = first;
  const std::int64_t numBlocks = (numPieces + H - 1) / H;
  checkPadding("BRC", slots, s.nnz, options,
               "each block of 32 row pieces (at most W = round(mean + std) = " + std::to_string(W) +
                   " entries each) is as wide as its longest piece, and its shorter pieces are padded");
  checkedNarrow<Offset>(slots, "number of BRC slots");
  const auto ord = static_cast<std::int64_t>(sizeof(Ordinal)), off = static_cast<std::int64_t>(sizeof(Offset)),
             val = static_cast<std::int64_t>(sizeof(Value));
  return {numBlocks * H * ord + (2 * numBlocks + s.rows + 1 + numPieces) * off + slots * (val + ord), slots};
}

/// BRCP (eq. (3) of Yang et al.): blocks of 32 slot rows over the non-empty rows, longest
/// first; a block's width depends on the entries left of its first row and the next row's
/// length. Rows that continue from one block into the next are counted once each.
template <class Value, class Ordinal, class Offset>
FormatFootprint brcp(const RowLengthStatistics& s, const FormatOptions& options) {
  const std::int64_t H = kSlotRowsPerBlock;
  const std::int64_t T = lengthThreshold(s);
  const std::vector<std::int64_t> rowsOfLength = histogram(s);
  const std::vector<std::int64_t> length = nonEmptyLengthsLongestFirst(rowsOfLength);
  const auto m = static_cast<std::int64_t>(length.size());
  std::int64_t p = 0, placed = 0, slots = 0, numBlocks = 0, splitRows = 0, lastSplit = -1;
  while (p < m) {
    if (placed > 0 && lastSplit != p) {  // the row goes on from the previous block
      ++splitRows;
      lastSplit = p;
    }
    const std::int64_t remaining = length[p] - placed;
    const std::int64_t next = p + 1 < m ? length[p + 1] : 0;
    const std::int64_t V = remaining > kBrcpLongRowDivisor * T
                               ? (remaining + kBrcpLongRowDivisor - 1) / kBrcpLongRowDivisor
                               : std::min(T, std::max(remaining, next));
    for (std::int64_t slot = 0; slot < H && p < m; ++slot) {
      placed += std::min(V, length[p] - placed);
      if (placed == length[p]) {
        ++p;
        placed = 0;
      }
    }
    if (V > (std::numeric_limits<std::int64_t>::max() - slots) / H) {
      throw InputError("BRCP: the slot count of block " + std::to_string(numBlocks) +
                       " overflows a 64-bit count; expected a matrix whose padded size fits 64 bits");
    }
    slots += H * V;
    ++numBlocks;
  }
  checkPadding("BRCP", slots, s.nnz, options,
               "each block of 32 rows is as wide as eq. (3) makes it (T = round(mean + std) = " + std::to_string(T) +
                   "), and its shorter rows are padded to that width");
  checkedNarrow<Offset>(slots, "number of BRCP slots");
  const std::int64_t emptyRows = rowsOfLength.empty() ? 0 : rowsOfLength[0];
  const auto ord = static_cast<std::int64_t>(sizeof(Ordinal)), off = static_cast<std::int64_t>(sizeof(Offset)),
             val = static_cast<std::int64_t>(sizeof(Value));
  return {(numBlocks + 1 + 2 * splitRows) * off + (2 * numBlocks * H + splitRows + emptyRows) * ord +
              slots * (val + ord),
          slots};
}

/// SC-CSR (Liang): rows sorted by ascending length, in length classes that merge c rows into
/// one; a class too small for N_w merged rows folds into the next. Each merged row holds c
/// slots per entry of its longest row.
template <class Value, class Ordinal, class Offset>
FormatFootprint scCsr(const RowLengthStatistics& s, const FormatOptions& options) {
  const std::vector<std::int64_t> rowsOfLength = histogram(s);
  std::array<std::int64_t, kScCsrClasses.size()> classRows{};
  for (std::size_t l = 0; l < rowsOfLength.size(); ++l) {
    std::size_t k = 0;
    while (k + 1 < kScCsrClasses.size() && static_cast<std::int64_t>(l) >= kScCsrClasses[k + 1][0]) ++k;
    classRows[k] += rowsOfLength[l];
  }
  // The length of the i-th shortest row, walking the histogram forward.
  std::size_t lengthAt = 0;
  std::int64_t rowsBelow = 0;  // rows shorter than lengthAt
  auto lengthOfSorted = [&](std::int64_t i) {
    while (rowsBelow + rowsOfLength[lengthAt] <= i) rowsBelow += rowsOfLength[lengthAt++];
    return static_cast<std::int64_t>(lengthAt);
  };
  std::int64_t firstRow = 0, rows = 0, merged = 0, slots = 0;
  for (std::size_t k = 0; k < kScCsrClasses.size(); ++k) {
    const std::int64_t c = kScCsrClasses[k][1];
    rows += classRows[k];
    const bool last = k + 1 == kScCsrClasses.size();
    if (!last && static_cast<double>(rows) / c < kScCsrFoldingThreshold) continue;
    for (std::int64_t first = 0; first < rows; first += c) {
      slots += c * lengthOfSorted(firstRow + std::min(first + c, rows) - 1);
      ++merged;
    }
    firstRow += rows;
    rows = 0;
  }
  checkPadding("SC-CSR", slots, s.nnz, options,
               "each row is padded to the longest of the c rows it is merged with, and the last group of each "
               "length range to c rows");
  checkedNarrow<Offset>(slots, "SC-CSR stored slots");
  return {(merged + 1) * static_cast<std::int64_t>(sizeof(Offset)) +
              slots * static_cast<std::int64_t>(sizeof(Ordinal) + sizeof(Value)) +
              s.rows * static_cast<std::int64_t>(sizeof(Ordinal)),
          slots};
}

template <class Value, class Ordinal, class Offset>
FormatFootprint vab(const RowLengthStatistics& s, const FormatOptions& options) {
  std::int64_t blocks = 0;
  for (const std::int64_t l : s.lengths) blocks += (l + kVabBlockWidth - 1) / kVabBlockWidth;
  checkPadding("VAB", blocks * kVabBlockWidth, s.nnz, options,
               "each row is cut into blocks of 4 entries and its last block is padded");
  const std::int64_t groups = (blocks + kVabBlocksPerGroup - 1) / kVabBlocksPerGroup;
  const std::int64_t allocated =
      checkedNarrow<Offset>(groups * kVabBlocksPerGroup * kVabBlockWidth, "VAB stored slots");
  return {(s.rows + 1) * static_cast<std::int64_t>(sizeof(Offset)) +
              allocated * static_cast<std::int64_t>(sizeof(Ordinal) + sizeof(Value)),
          blocks * kVabBlockWidth};
}

}  // namespace footprint_detail

/// The footprint of `format` (a format name of the kernel registry: coo, csr, csc, ell, hyb,
/// dia, jds, sell, brc, brcp, sc-csr, vab) with the formats' default options and `options`'
/// padding limit. Throws what the conversion would throw: PaddingError past the limit, and
/// InputError for a count the index types cannot hold or an unknown format.
template <class Value, class Ordinal, class Offset>
FormatFootprint estimateFootprint(std::string_view format, const RowLengthStatistics& s,
                                  const FormatOptions& options = {}) {
  namespace d = footprint_detail;
  const auto ord = static_cast<std::int64_t>(sizeof(Ordinal)), off = static_cast<std::int64_t>(sizeof(Offset)),
             val = static_cast<std::int64_t>(sizeof(Value));
  if (format == "coo") return {s.nnz * (2 * ord + val), s.nnz};
  if (format == "csr") return {(s.rows + 1) * off + s.nnz * (ord + val), s.nnz};
  if (format == "csc") return {(s.cols + 1) * off + s.nnz * (ord + val), s.nnz};
  if (format == "ell") return d::ell<Value, Ordinal, Offset>(s, options);
  if (format == "hyb") return d::hyb<Value, Ordinal, Offset>(s, options);
  if (format == "dia") return d::dia<Value, Ordinal, Offset>(s, options);
  if (format == "jds") return d::jds<Value, Ordinal, Offset>(s);
  if (format == "sell") return d::sell<Value, Ordinal, Offset>(s, options);
  if (format == "brc") return d::brc<Value, Ordinal, Offset>(s, options);
  if (format == "brcp") return d::brcp<Value, Ordinal, Offset>(s, options);
  if (format == "sc-csr") return d::scCsr<Value, Ordinal, Offset>(s, options);
  if (format == "vab") return d::vab<Value, Ordinal, Offset>(s, options);
  throw InputError("no footprint for format '" + std::string(format) +
                   "'; expected coo, csr, csc, ell, hyb, dia, jds, sell, brc, brcp, sc-csr or vab");
}

}  // namespace araios
