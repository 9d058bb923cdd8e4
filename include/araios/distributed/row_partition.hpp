#pragma once
// RowPartition: a 1-D partition of a matrix's rows into contiguous blocks, one per rank.
//
//   araios::RowPartition p = araios::RowPartition::balanced(rowCounts, ranks);   // by entries
//   araios::RowPartition q = araios::RowPartition::fromStarts({0, 100, 250}, 250); // your own
//
// Rank r owns the rows [begin(r), end(r)); every vector distributed with the matrix is cut the
// same way. Ranks may own no rows. The partition decides where work goes, never what a
// deterministic result is: every distributed kernel gives the bits of the one-process run for
// any partition.
#include <araios/error.hpp>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

namespace araios {

class RowPartition {
 public:
  RowPartition() : starts_{0, 0} {}

  /// A partition from the first row of every rank followed by the number of rows. Refuses
  /// starts that do not begin at 0, end at numRows or decrease.
  static RowPartition fromStarts(std::vector<std::int64_t> starts, std::int64_t numRows) {
    if (starts.size() < 2) {
      throw InputError("RowPartition: " + std::to_string(starts.size()) +
                       " boundaries; expected one more than the number of ranks (at least 2)");
    }
    if (starts.front() != 0 || starts.back() != numRows) {
      throw InputError("RowPartition: the blocks span rows [" + std::to_string(starts.front()) + ", " +
                       std::to_string(starts.back()) + "); expected [0, " + std::to_string(numRows) + ")");
    }
    for (std::size_t r = 1; r < starts.size(); ++r) {
      if (starts[r] < starts[r - 1]) {
        throw InputError("RowPartition: the block of rank " + std::to_string(r - 1) + " starts at row " +
                         std::to_string(starts[r - 1]) + " and ends at " + std::to_string(starts[r]) +
                         "; expected non-decreasing boundaries");
      }
    }
    RowPartition p;
    p.starts_ = std::move(starts);
    return p;
  }

  /// Rows in equal numbers (the last ranks get one fewer when they do not divide).
  static RowPartition uniform(std::int64_t numRows, int ranks) {
    std::vector<std::int64_t> starts(ranks + 1);
    for (int r = 0; r <= ranks; ++r) starts[r] = numRows / ranks * r + std::min<std::int64_t>(r, numRows % ranks);
    return fromStarts(std::move(starts), numRows);
  }

  /// Blocks of about equal numbers of entries, with each row's entries given (rowCounts has one
  /// count per row). A row is never split, so one long row makes its block heavy. Rank r's
  /// block ends at the first row where the entries before it reach r+1 shares of the total.
  static RowPartition balanced(const std::vector<std::int64_t>& rowCounts, int ranks) {
    const std::int64_t n = static_cast<std::int64_t>(rowCounts.size());
    std::int64_t total = 0;
    for (std::int64_t c : rowCounts) total += c;
    std::vector<std::int64_t> starts(ranks + 1, n);
    starts[0] = 0;
    std::int64_t row = 0, before = 0;
    for (int r = 1; r < ranks; ++r) {
      // Entries before the block of rank r: r shares of the total, in 128-bit-safe arithmetic.
      const long double target = static_cast<long double>(total) * r / ranks;
      while (row < n && static_cast<long double>(before) + rowCounts[row] / 2.0L <= target) before += rowCounts[row++];
      starts[r] = row;
    }
    return fromStarts(std::move(starts), n);
  }

  int ranks() const { return static_cast<int>(starts_.size()) - 1; }
  std::int64_t numRows() const { return starts_.back(); }
  std::int64_t begin(int rank) const { return starts_.at(rank); }
  std::int64_t end(int rank) const { return starts_.at(rank + 1); }
  std::int64_t rows(int rank) const { return end(rank) - begin(rank); }
  const std::vector<std::int64_t>& starts() const { return starts_; }

  /// The rank that owns `row` (the last of the ranks whose block starts at or before it that
  /// owns any rows).
  int owner(std::int64_t row) const {
    const auto it = std::upper_bound(starts_.begin(), starts_.end(), row);
    return static_cast<int>(it - starts_.begin()) - 1;
  }

  bool operator==(const RowPartition& other) const { return starts_ == other.starts_; }

 private:
  std::vector<std::int64_t> starts_;
};

}  // namespace araios
