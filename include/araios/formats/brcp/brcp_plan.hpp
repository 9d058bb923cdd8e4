#pragma once
// The BRCP layout planned on the host from the row pointers: which entries each slot row
// holds (section 2 and eq. (3) of Yang et al., 2019; see brcp.hpp), the per-block segment
// lengths, and the rows that span blocks. O(n + longest row) for the row sort (stableOrderByKey),
// O(slot rows) after.
#include <araios/error.hpp>
#include <araios/formats/brc/brc_slot_rows.hpp>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

namespace araios::Impl {

/// The 64 of eq. (3): a row with more than 64*T entries left gets V = ceil(rem/64), so the 32
/// slot rows of one block take about half of what remains.
constexpr std::int64_t kBrcpLongRowDivisor = 64;

struct BrcpPlan {
  std::vector<std::int64_t> blockPtr{0};  ///< numBlocks + 1
  SlotRowPlan slotRows;                   ///< numBlocks * H
  std::vector<std::int64_t> rowSegLen;    ///< numBlocks * H
  std::vector<std::int64_t> splitRow, splitFirstBlock, splitLastBlock;
  std::vector<std::int64_t> emptyRow;

  std::int64_t numBlocks() const { return static_cast<std::int64_t>(blockPtr.size()) - 1; }
};

/// Eq. (3): the width V of a block that starts with `remaining` entries of its first row,
/// `nextLength` being the length of the row after it (0 if none).
inline std::int64_t brcpBlockWidth(std::int64_t remaining, std::int64_t nextLength, std::int64_t threshold) {
  if (remaining > kBrcpLongRowDivisor * threshold) return (remaining + kBrcpLongRowDivisor - 1) / kBrcpLongRowDivisor;
  return std::min(threshold, std::max(remaining, nextLength));
}

/// rowSegLen for one block: at the first slot row of each run of equal rowPerm, the run's
/// length; 0 elsewhere and on padding slot rows.
inline void brcpSegmentLengths(const std::vector<std::int64_t>& rowPerm, std::int64_t block,
                               std::vector<std::int64_t>& rowSegLen) {
  const std::int64_t H = kSlotRowsPerBlock, base = block * H;
  for (std::int64_t s = 0; s < H;) {
    std::int64_t e = s + 1;
    while (e < H && rowPerm[base + e] == rowPerm[base + s]) ++e;
    if (rowPerm[base + s] != kSlotPadding) rowSegLen[base + s] = e - s;
    s = e;
  }
}

/// The layout of a matrix with row pointers rowPtr and threshold T (see brcp.hpp).
inline BrcpPlan planBrcp(const std::vector<std::int64_t>& rowPtr, std::int64_t threshold) {
  const std::int64_t H = kSlotRowsPerBlock;
  const std::vector<std::int64_t> length = rowLengths(rowPtr);
  const std::vector<std::int64_t> order = nonEmptyRowsLongestFirst(length);
  const std::int64_t m = static_cast<std::int64_t>(order.size());
  BrcpPlan plan;
  plan.emptyRow = emptyRows(length);

  std::int64_t p = 0, placed = 0;  // the current row is order[p]; `placed` of its entries are in blocks
  while (p < m) {
    const std::int64_t next = p + 1 < m ? length[order[p + 1]] : 0;
    const std::int64_t V = brcpBlockWidth(length[order[p]] - placed, next, threshold);
    for (std::int64_t s = 0; s < H; ++s) {
      if (p == m) {
        plan.slotRows.addPadding();
        continue;
      }
      const std::int64_t r = order[p];
      const std::int64_t take = std::min(V, length[r] - placed);
      plan.slotRows.add(r, rowPtr[r] + placed, take);
      placed += take;
      if (placed == length[r]) {
        ++p;
        placed = 0;
      }
    }
    if (V > (std::numeric_limits<std::int64_t>::max() - plan.blockPtr.back()) / H) {
      throw InputError("BRCP: the slot count of block " + std::to_string(plan.numBlocks()) +
                       " overflows a 64-bit count; expected a matrix whose padded size fits 64 bits");
    }
    plan.blockPtr.push_back(plan.blockPtr.back() + H * V);
  }

  const std::vector<std::int64_t>& rowPerm = plan.slotRows.row;
  plan.rowSegLen.assign(rowPerm.size(), 0);
  for (std::int64_t b = 0; b < plan.numBlocks(); ++b) brcpSegmentLengths(rowPerm, b, plan.rowSegLen);

  // A row continues from block b-1 into block b exactly when it holds both the last slot row
  // of b-1 and the first of b (a row's slot rows are consecutive).
  for (std::int64_t b = 1; b < plan.numBlocks(); ++b) {
    const std::int64_t r = rowPerm[b * H];
    if (r == kSlotPadding || r != rowPerm[b * H - 1]) continue;
    if (!plan.splitRow.empty() && plan.splitRow.back() == r && plan.splitLastBlock.back() == b - 1) {
      plan.splitLastBlock.back() = b;
    } else {
      plan.splitRow.push_back(r);
      plan.splitFirstBlock.push_back(b - 1);
      plan.splitLastBlock.push_back(b);
    }
  }
  return plan;
}

}  // namespace araios::Impl
