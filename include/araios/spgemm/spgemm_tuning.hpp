#pragma once
// How the SpGEMM kernels split the rows by method, and how large each method's on-chip
// accumulator is, per backend.
//
// Each row of C is built by one team (one thread on the host backends) with an accumulator
// picked from the row's intermediate product count and its column span (the distance from the
// smallest to the largest column its products can reach):
//
//   symbolic (C's pattern)                     numeric (C's values)
//   Bitmap    span fits one on-chip bitmap     Dense   span fits an on-chip array of values,
//             and is not much wider than the           indexed by column
//             products: mark, count, read out  Shared  C's row fits on chip: its columns and
//   Hash      few products, wide span: an              values, the slot by binary search
//             on-chip hash, then a team sort   Global  the rest: the values in C itself, the
//   Windowed  the rest: the bitmap over the            slot by binary search in C's row
//             span window by window
//
// On CUDA, rows with at most 64 products from at most 16 rows of B (symbolic), or 32 entries of
// C from at most 64 products (numeric), take one thread each (tiny_rows.hpp); rows with few
// products get a 32-thread team and smaller accumulators, so that
// many teams share a multiprocessor; larger rows get 128 threads, and Global and Windowed rows
// 256. On the host a team is one thread, with accumulators sized for its caches.
#include <Kokkos_Core.hpp>

#include <cstdint>
#include <type_traits>

namespace araios::Impl {

enum SpgemmSymbolicMethod : std::uint8_t {
  kSymbolicEmpty = 0,  ///< no products: nothing to do
  kBitmapSmall,
  kBitmapLarge,
  kHashSmall,
  kHashLarge,
  kWindowed,
  kSymbolicTiny,  ///< one thread per row (CUDA, few products)
  kSymbolicMethods
};

enum SpgemmNumericMethod : std::uint8_t {
  kNumericEmpty = 0,
  kDenseSmall,
  kDenseLarge,
  kSharedSmall,
  kSharedLarge,
  kGlobal,
  kNumericTiny,  ///< one thread per row (CUDA, few entries)
  kNumericMethods
};

struct SpgemmTuning {
  int smallTeam = 1, largeTeam = 1, wideTeam = 1;
  /// Rows with at most twice this many products (symbolic), or this many entries of C from at
  /// most twice as many products (numeric), take one thread each (0: none).
  std::int64_t tinyProducts = 0;
  /// ... and whose row of A has at most this many entries, products x entries at most tinyScans
  /// (symbolic).
  std::int64_t tinyLists = 0, tinyScans = 0;
  /// Rows with at most this many products take the small team and accumulators.
  std::int64_t smallProducts = 0;
  /// Bitmap: the widest span (in columns) of the small and large one-window bitmaps.
  std::int64_t bitmapSmallBits = 0, bitmapLargeBits = 0;
  /// Hash: the most products of a row in the small and large hash (the table has twice as many
  /// slots, rounded up to a power of two).
  std::int64_t hashSmallProducts = 0, hashLargeProducts = 0;
  /// Windowed: the width of one window.
  std::int64_t windowBits = 0;
  /// Dense: the widest span of the small and large value arrays.
  std::int64_t denseSmallValues = 0, denseLargeValues = 0;
  /// Shared: the most entries of a row of C held on chip, small and large.
  std::int64_t sharedSmallEntries = 0, sharedLargeEntries = 0;

  int teamSize(SpgemmSymbolicMethod m) const {
    return m == kWindowed ? wideTeam : (m == kBitmapSmall || m == kHashSmall) ? smallTeam : largeTeam;
  }
  int teamSize(SpgemmNumericMethod m) const {
    return m == kGlobal ? wideTeam : (m == kDenseSmall || m == kSharedSmall || m == kNumericTiny) ? smallTeam : largeTeam;
  }
};

template <class ExecSpace>
SpgemmTuning spgemmTuning() {
  SpgemmTuning t;
  if constexpr (std::is_same_v<typename ExecSpace::memory_space, Kokkos::HostSpace>) {
    // One thread per row: the accumulators live in the thread's caches (256 KiB and less).
    t.smallProducts = std::int64_t(1) << 62;
    t.bitmapSmallBits = t.bitmapLargeBits = std::int64_t(1) << 20;  // 128 KiB
    t.hashSmallProducts = t.hashLargeProducts = std::int64_t(1) << 14;  // 32,768 slots
    t.windowBits = std::int64_t(1) << 20;
    t.denseSmallValues = t.denseLargeValues = std::int64_t(1) << 14;
    t.sharedSmallEntries = t.sharedLargeEntries = std::int64_t(1) << 13;
  } else {
    // 48 KiB of team scratch at most (no opt-in needed), and far less for the 32-thread
    // teams so that up to 32 of them share a multiprocessor.
    t.tinyProducts = 32;  // kTinyProducts
    t.tinyLists = 16;     // kTinyLists
    t.tinyScans = 384;
    t.smallTeam = 32;
    t.largeTeam = 128;
    t.wideTeam = 256;
    t.smallProducts = 512;
    t.bitmapSmallBits = std::int64_t(1) << 15;  // 4 KiB
    t.bitmapLargeBits = std::int64_t(1) << 16;  // 8 KiB: 16 teams of 128 threads per multiprocessor
    t.hashSmallProducts = 512;                  // 1,024 slots, 4 or 8 KiB of keys
    t.hashLargeProducts = 2048;                 // 4,096 slots, and as many for the sort
    t.windowBits = std::int64_t(1) << 18;
    t.denseSmallValues = 512;
    t.denseLargeValues = 4096;
    t.sharedSmallEntries = 256;
    t.sharedLargeEntries = 2048;
  }
  return t;
}

/// The symbolic method of a row with `products` products over `span` columns, from
/// `rowLengthA` entries of A.
KOKKOS_INLINE_FUNCTION SpgemmSymbolicMethod symbolicMethod(const SpgemmTuning& t, std::int64_t products,
                                                           std::int64_t span, std::int64_t rowLengthA) {
  if (products == 0) return kSymbolicEmpty;
  // The one-thread merge scans the heads of rowLengthA rows of B per product: measured on an
  // H100, it beats the team kernels on a 7-point stencil's A*A (49 products from 7 rows, 4x) and
  // loses on uniform random rows (64 products from 8 rows, 0.9x).
  if (products <= 2 * t.tinyProducts && rowLengthA <= t.tinyLists && products * rowLengthA <= t.tinyScans)
    return kSymbolicTiny;
  const bool small = products <= t.smallProducts;
  // A bitmap costs a word per 32 columns of span to clear and read; measured on 3-D stencils
  // (125 columns in a span of 40,000), it still beats the hash and its sort while the words stay
  // within a few times the products.
  const bool narrow = span <= 32 * (4 * products + 64);
  if (narrow && span <= (small ? t.bitmapSmallBits : t.bitmapLargeBits)) return small ? kBitmapSmall : kBitmapLarge;
  if (products <= t.hashSmallProducts && small) return kHashSmall;
  if (products <= t.hashLargeProducts) return kHashLarge;
  return kWindowed;
}

/// The numeric method of a row of C with `entries` entries, `products` products over `span`
/// columns.
KOKKOS_INLINE_FUNCTION SpgemmNumericMethod numericMethod(const SpgemmTuning& t, std::int64_t products,
                                                         std::int64_t entries, std::int64_t span) {
  if (entries == 0) return kNumericEmpty;
  if (entries <= t.tinyProducts && products <= 2 * t.tinyProducts) return kNumericTiny;
  const bool small = products <= t.smallProducts;
  // A dense array is cleared and read over its whole span: worth it while the span stays
  // within a few times the row's entries.
  if (span <= 4 * entries + 64 && span <= (small ? t.denseSmallValues : t.denseLargeValues))
    return small ? kDenseSmall : kDenseLarge;
  if (entries <= (small ? t.sharedSmallEntries : t.sharedLargeEntries)) return small ? kSharedSmall : kSharedLarge;
  if (entries <= t.sharedLargeEntries) return kSharedLarge;
  return kGlobal;
}

}  // namespace araios::Impl
