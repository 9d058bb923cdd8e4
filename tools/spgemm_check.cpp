// The host reference of `araios spgemm` (spgemm_check.hpp).
#include "spgemm_check.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <functional>
#include <limits>
#include <thread>
#include <vector>

namespace araios::cli {
namespace {

/// Row offsets of a host matrix, whose entries are sorted by row.
std::vector<std::int64_t> rowOffsets(const io::HostMatrix& m) {
  std::vector<std::int64_t> offsets(m.numRows + 1, 0);
  for (const std::int64_t i : m.row) ++offsets[i + 1];
  for (std::int64_t i = 0; i < m.numRows; ++i) offsets[i + 1] += offsets[i];
  return offsets;
}

/// Rows each thread takes at a time: enough to keep the shared counter cold, few enough that a
/// matrix of a few thousand rows still spreads over the threads.
constexpr std::int64_t kRowsPerTake = 64;
/// Up to this many columns of B, each thread accumulates a row of C in a dense array of
/// 48 bytes per column (96 MiB at most); past it, it sorts the row's products by column.
constexpr std::int64_t kDenseColumnsLimit = std::int64_t{1} << 21;

/// One entry of a row of the reference.
struct RefEntry {
  std::int64_t col;
  long double sum;        ///< sum_k a_ik b_kj, in A's order of k
  long double magnitude;  ///< sum_k |a_ik b_kj|
  std::int64_t count;     ///< products summed
};

struct Slot {
  long double sum = 0, magnitude = 0;
  std::int64_t count = 0;
  std::int64_t stamp = -1;  ///< the row that last wrote it
};

/// Computes one row of A*B at a time, into entries sorted by column.
class RowReference {
 public:
  RowReference(const io::HostMatrix& a, const io::HostMatrix& b, const std::vector<std::int64_t>& aRows,
               const std::vector<std::int64_t>& bRows, bool singlePrecision)
      : a_(a), b_(b), aRows_(aRows), bRows_(bRows), single_(singlePrecision) {
    if (b.numCols <= kDenseColumnsLimit) slots_.resize(b.numCols);
  }

  const std::vector<RefEntry>& row(std::int64_t i) {
    entries_.clear();
    if (!slots_.empty()) {
      touched_.clear();
      forEachProduct(i, [&](std::int64_t j, long double p) {
        Slot& s = slots_[j];
        if (s.stamp != i) {
          s = Slot{0.0L, 0.0L, 0, i};
          touched_.push_back(j);
        }
        s.sum += p;
        s.magnitude += std::fabs(p);
        ++s.count;
      });
      std::sort(touched_.begin(), touched_.end());
      for (const std::int64_t j : touched_) {
        entries_.push_back({j, slots_[j].sum, slots_[j].magnitude, slots_[j].count});
      }
      return entries_;
    }
    products_.clear();
    forEachProduct(i, [&](std::int64_t j, long double p) { products_.push_back({j, p, std::fabs(p), 1}); });
    // Stable: the products of one column stay in A's order of k, as in the dense path.
    std::stable_sort(products_.begin(), products_.end(),
                     [](const RefEntry& x, const RefEntry& y) { return x.col < y.col; });
    for (const RefEntry& p : products_) {
      if (!entries_.empty() && entries_.back().col == p.col) {
        entries_.back().sum += p.sum;
        entries_.back().magnitude += p.magnitude;
        ++entries_.back().count;
      } else {
        entries_.push_back(p);
      }
    }
    return entries_;
  }

 private:
  long double rounded(double v) const {
    return single_ ? static_cast<long double>(static_cast<float>(v)) : static_cast<long double>(v);
  }

  template <class F>
  void forEachProduct(std::int64_t i, const F& f) const {
    for (std::int64_t ka = aRows_[i]; ka < aRows_[i + 1]; ++ka) {
      const std::int64_t k = a_.col[ka];
      const long double aik = rounded(a_.value[ka]);
      for (std::int64_t kb = bRows_[k]; kb < bRows_[k + 1]; ++kb) f(b_.col[kb], aik * rounded(b_.value[kb]));
    }
  }

  const io::HostMatrix& a_;
  const io::HostMatrix& b_;
  const std::vector<std::int64_t>& aRows_;
  const std::vector<std::int64_t>& bRows_;
  bool single_;
  std::vector<Slot> slots_;
  std::vector<std::int64_t> touched_;
  std::vector<RefEntry> products_;
  std::vector<RefEntry> entries_;
};

/// gamma_(n+1) * magnitude (spgemm_check.hpp), plus (n+1) * the smallest subnormal for underflow.
long double errorBound(std::int64_t count, long double magnitude, bool singlePrecision) {
  const long double u = singlePrecision ? std::numeric_limits<float>::epsilon() / 2.0L
                                        : std::numeric_limits<double>::epsilon() / 2.0L;
  const long double tiny = singlePrecision ? std::numeric_limits<float>::denorm_min()
                                           : std::numeric_limits<double>::denorm_min();
  const long double k = static_cast<long double>(count + 1);
  return k * u / (1 - k * u) * magnitude + k * tiny;
}

void merge(SpgemmCheck& into, const SpgemmCheck& part) {
  if (part.maxRelError > into.maxRelError || std::isnan(part.maxRelError)) {
    if (!std::isnan(into.maxRelError)) into.maxRelError = part.maxRelError;
  }
  into.missingEntries += part.missingEntries;
  into.extraEntries += part.extraEntries;
  into.entriesOutsideBound += part.entriesOutsideBound;
  const auto first = [](std::int64_t x, std::int64_t y) { return x < 0 ? y : y < 0 ? x : std::min(x, y); };
  into.firstPatternRow = first(into.firstPatternRow, part.firstPatternRow);
  into.firstOutsideRow = first(into.firstOutsideRow, part.firstOutsideRow);
}

}  // namespace

io::HostMatrix hostTranspose(const io::HostMatrix& b) {
  io::HostMatrix t;
  t.numRows = b.numCols;
  t.numCols = b.numRows;
  t.header = b.header;
  std::swap(t.header.rows, t.header.cols);
  const std::int64_t nnz = b.nnz();
  std::vector<std::int64_t> next(b.numCols + 1, 0);
  for (const std::int64_t j : b.col) ++next[j + 1];
  for (std::int64_t j = 0; j < b.numCols; ++j) next[j + 1] += next[j];
  t.row.resize(nnz);
  t.col.resize(nnz);
  t.value.resize(nnz);
  // B's entries come by row, so each row of B^T receives its columns in increasing order.
  for (std::int64_t k = 0; k < nnz; ++k) {
    const std::int64_t at = next[b.col[k]]++;
    t.row[at] = b.col[k];
    t.col[at] = b.row[k];
    t.value[at] = b.value[k];
  }
  return t;
}

ProductCount countProducts(const io::HostMatrix& a, const io::HostMatrix& b, bool transposeB) {
  // The row lengths of B as multiplied: those of B, or the column counts of B for B^T.
  const std::vector<std::int64_t>& bIndex = transposeB ? b.col : b.row;
  std::vector<std::int64_t> bRowLength(transposeB ? b.numCols : b.numRows, 0);
  for (const std::int64_t k : bIndex) ++bRowLength[k];
  ProductCount count;
  std::int64_t rowProducts = 0;
  for (std::int64_t e = 0; e < a.nnz(); ++e) {
    if (e > 0 && a.row[e] != a.row[e - 1]) rowProducts = 0;
    rowProducts += bRowLength[a.col[e]];
    count.products += bRowLength[a.col[e]];
    count.maxRowProducts = std::max(count.maxRowProducts, rowProducts);
  }
  return count;
}

SpgemmCheck checkSpgemm(const io::HostMatrix& a, const io::HostMatrix& b, const io::HostMatrix& c, bool singlePrecision,
                        int threads) {
  const auto start = std::chrono::steady_clock::now();
  SpgemmCheck check;
  if (c.numRows != a.numRows || c.numCols != b.numCols) {
    check.patternMatches = false;
    check.firstPatternRow = 0;
    return check;
  }
  const std::vector<std::int64_t> aRows = rowOffsets(a), bRows = rowOffsets(b), cRows = rowOffsets(c);
  if (threads <= 0) threads = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  std::atomic<std::int64_t> nextRow{0};
  std::vector<SpgemmCheck> parts(threads);

  const auto work = [&](SpgemmCheck& part) {
    RowReference reference(a, b, aRows, bRows, singlePrecision);
    for (;;) {
      const std::int64_t begin = nextRow.fetch_add(kRowsPerTake);
      if (begin >= a.numRows) return;
      const std::int64_t end = std::min(a.numRows, begin + kRowsPerTake);
      for (std::int64_t i = begin; i < end; ++i) {
        const std::vector<RefEntry>& ref = reference.row(i);
        std::size_t r = 0;
        std::int64_t e = cRows[i];
        const std::int64_t cEnd = cRows[i + 1];
        bool patternOk = true;
        while (r < ref.size() || e < cEnd) {
          if (e == cEnd || (r < ref.size() && ref[r].col < c.col[e])) {
            ++part.missingEntries;
            patternOk = false;
            ++r;
            continue;
          }
          if (r == ref.size() || c.col[e] < ref[r].col) {
            ++part.extraEntries;
            patternOk = false;
            ++e;
            continue;
          }
          const RefEntry& x = ref[r];
          const long double err = std::fabs(static_cast<long double>(c.value[e]) - x.sum);
          const long double scale = x.sum != 0 ? std::fabs(x.sum) : x.magnitude;
          const double rel = static_cast<double>(scale > 0 ? err / scale : err);
          if (rel > part.maxRelError || std::isnan(rel)) {
            if (!std::isnan(part.maxRelError)) part.maxRelError = rel;
          }
          if (!(err <= errorBound(x.count, x.magnitude, singlePrecision))) {
            ++part.entriesOutsideBound;
            if (part.firstOutsideRow < 0) part.firstOutsideRow = i;
          }
          ++r;
          ++e;
        }
        if (!patternOk && part.firstPatternRow < 0) part.firstPatternRow = i;
      }
    }
  };

  std::vector<std::thread> pool;
  for (int t = 1; t < threads; ++t) pool.emplace_back(work, std::ref(parts[t]));
  work(parts[0]);
  for (std::thread& t : pool) t.join();

  for (const SpgemmCheck& part : parts) merge(check, part);
  check.patternMatches = check.missingEntries == 0 && check.extraEntries == 0;
  check.withinBound = check.entriesOutsideBound == 0;
  check.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return check;
}

}  // namespace araios::cli
