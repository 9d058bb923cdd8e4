#pragma once
// The count of the model's scattered_entries term (kernel_model.hpp): the entries a GPU
// fetches a sector for one element of, because the thread reading them walks a row of its own
// beside 31 other rows.
//
// csr-scalar gives the 32 lanes of a warp 32 consecutive rows. At each step every lane loads
// the next value and column index of its row. Once a row holds 4 doubles or more, the 32 loads
// touch 32 different 32-byte sectors. That costs no extra traffic as long as L1 keeps each
// lane's 128-byte line until the lane has read the rest of it (16 doubles, 32 indices): then
// every sector is still fetched once. So L1 must hold, for every warp resident on the SM, the
// lines its lanes are in the middle of. For rows of L entries of v-byte values and o-byte
// indices that is, per warp,
//
//   min(32, 32 L v / 128) lines of values + min(32, 32 L o / 128) lines of indices.
//
// An H100 SM keeps 64 warps resident, and its L1 shares 256 KiB with shared memory (an A100's
// 64 warps, 192 KiB). For doubles and 32-bit indices, rows of 8 entries need 64 x 24 lines =
// 192 KiB, which still fits. Rows of 16 need 64 x 48 lines = 384 KiB, which does not: lines are
// evicted before their lane comes back to them, and each entry's sector is fetched again for
// that entry alone. Over 132 SMs those lines come to as much as the 50 MB L2, so L2 does not
// catch all the fetches either: csr-scalar runs 744 us on an H100 on a 3x3-block FEM matrix of
// 45 entries per row that SELL, whose slices read coalesced, runs in 327 us. The threshold is
// the first power of two whose lines pass L1, so the row-length classes (matrix_features.hpp)
// count it exactly.
//
// The L1 size and resident warps are the H100's. The fit (fit_constants.hpp) sets how much an
// entry costs on a device; on a CPU, where one thread walking a row reads cache lines in order,
// that comes out near 0.
#include <araios/model/matrix_features.hpp>

#include <algorithm>
#include <cstdint>

namespace araios {

/// L1's line: the unit L1 allocates, and so what a lane alone on its row holds.
inline constexpr std::int64_t kL1LineBytes = 128;
/// L1 per SM when a kernel takes no shared memory: an H100's 256 KiB.
inline constexpr std::int64_t kL1Bytes = std::int64_t{256} << 10;
/// Warps resident per SM at full occupancy (H100, A100): csr-scalar's kernel reaches it.
inline constexpr std::int64_t kResidentWarps = 64;

/// The shortest row, a power of two, whose walk by one lane among 32 defeats L1's reuse: 16 for
/// doubles or floats with 32-bit indices, 8 for doubles with 64-bit ones (see above).
inline std::int64_t scatteredRowLength(int valueBytes, int ordinalBytes) {
  const auto linesPerWarp = [](std::int64_t length, int bytes) {
    const std::int64_t span = kRowGroup * length * std::max(1, bytes);
    return std::min<std::int64_t>(kRowGroup, (span + kL1LineBytes - 1) / kL1LineBytes);
  };
  std::int64_t length = 1;
  while (kResidentWarps * (linesPerWarp(length, valueBytes) + linesPerWarp(length, ordinalBytes)) * kL1LineBytes <
         kL1Bytes) {
    length *= 2;
  }
  return length;
}

/// Entries read by scattered walks: rows whose walk, past their first `skip` entries (HYB's
/// ELL part; 0 for a whole row), reaches `length` entries, and of them the entries past
/// `skip`. The classes count rows from the power of two at or above skip + length: exact when
/// skip is 0 and length a power of two; otherwise the rows just short of that power are left
/// out.
inline std::int64_t scatteredEntries(const MatrixFeatures& f, std::int64_t length, std::int64_t skip = 0) {
  std::int64_t from = 1;
  while (from < skip + length) from *= 2;
  return f.entriesOfAtLeast(from) - skip * f.rowsOfAtLeast(from);
}

}  // namespace araios
