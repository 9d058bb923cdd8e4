// The calibration matrices' generators, one per family (matrix_plan.hpp), all from one
// RandomStream per matrix.
#include "matrix_generator.hpp"

#include "random_stream.hpp"

#include <araios/error.hpp>
#include <araios/types.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

namespace araios::cli::calibration {
namespace {

/// Appends rows to a GeneratedMatrix, each with values from the stream.
class CsrBuilder {
 public:
  CsrBuilder(GeneratedMatrix& m, RandomStream& random) : m_(m), random_(random) {}

  /// `columns`: sorted, distinct, within [0, cols).
  void addRow(const std::vector<std::int64_t>& columns) {
    if (m_.nnz() + static_cast<std::int64_t>(columns.size()) > std::numeric_limits<std::int32_t>::max()) {
      throw InputError("calibration matrix " + m_.name + ": more than " +
                       groupedDigits(std::numeric_limits<std::int32_t>::max()) +
                       " entries; expected the plan to keep every matrix within 32-bit offsets");
    }
    for (const std::int64_t c : columns) {
      m_.colIdx.push_back(static_cast<std::int32_t>(c));
      m_.values.push_back(random_.value());
    }
    m_.rowPtr.push_back(static_cast<std::int32_t>(m_.nnz()));
  }

 private:
  GeneratedMatrix& m_;
  RandomStream& random_;
};

/// `count` distinct columns of [first, first + n), sorted, into `out`.
void distinctSorted(RandomStream& random, std::int64_t count, std::int64_t first, std::int64_t n,
                    std::vector<std::int64_t>& out) {
  out.clear();
  count = std::min(count, n);
  if (4 * count > n) {
    // Dense: selection sampling, one pass over the range, each column kept with the
    // probability that leaves exactly `count` by the end.
    std::int64_t needed = count;
    for (std::int64_t c = 0; c < n && needed > 0; ++c) {
      if (random.below(n - c) < needed) {
        out.push_back(first + c);
        --needed;
      }
    }
    return;
  }
  // Sparse: draw, sort, drop the repeats, draw what is missing.
  while (static_cast<std::int64_t>(out.size()) < count) {
    for (std::int64_t k = static_cast<std::int64_t>(out.size()); k < count; ++k) out.push_back(first + random.below(n));
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
  }
}

void bandedRows(const MatrixSpec& s, GeneratedMatrix& m, CsrBuilder& b) {
  m.cols = m.rows;
  const std::int64_t length = std::min<std::int64_t>(s.rowLength, m.cols);
  std::vector<std::int64_t> columns(length);
  for (std::int64_t i = 0; i < m.rows; ++i) {
    // Centred on the diagonal, shifted at the edges to keep the row's length.
    const std::int64_t start = std::clamp<std::int64_t>(i - length / 2, 0, m.cols - length);
    std::iota(columns.begin(), columns.end(), start);
    b.addRow(columns);
  }
}

void scatteredRows(const MatrixSpec& s, GeneratedMatrix& m, CsrBuilder& b, RandomStream& random) {
  m.cols = m.rows;
  std::vector<std::int64_t> columns;
  for (std::int64_t i = 0; i < m.rows; ++i) {
    distinctSorted(random, s.rowLength, 0, m.cols, columns);
    b.addRow(columns);
  }
}

/// Chung-Lu-like: rank k has weight (k + 1)^(-1 / (exponent - 1)); row i's expected length is
/// its weight scaled (and capped) so that the mean is the spec's, and its columns are drawn in
/// proportion to the columns' weights. Ranks are shuffled over the rows, and column j has the
/// rank of row j, so the heavy rows and columns are spread through the matrix as in a graph.
void powerLaw(const MatrixSpec& s, GeneratedMatrix& m, CsrBuilder& b, RandomStream& random) {
  const std::int64_t n = m.rows;
  m.cols = n;
  const double beta = 1.0 / (s.exponent - 1.0);
  std::vector<double> weight(n), cumulative(n);
  for (std::int64_t k = 0; k < n; ++k) weight[k] = std::pow(static_cast<double>(k + 1), -beta);
  std::partial_sum(weight.begin(), weight.end(), cumulative.begin());
  // The cap keeps the heaviest row a small part of the matrix; the scale, found by bisection,
  // gives the spec's mean length after capping.
  const double cap = std::max<double>(s.rowLength, std::min(n / 4.0, std::sqrt(static_cast<double>(n)) * s.rowLength));
  const auto total = [&](double scale) {
    double sum = 0;
    for (const double w : weight) sum += std::min(scale * w, cap);
    return sum;
  };
  double low = 0, high = static_cast<double>(n) * s.rowLength / weight[n - 1];
  for (int step = 0; step < 60; ++step) {
    const double mid = (low + high) / 2;
    (total(mid) < static_cast<double>(n) * s.rowLength ? low : high) = mid;
  }
  const double scale = high;

  std::vector<std::int64_t> rankOfRow(n), columnOfRank(n);
  std::iota(rankOfRow.begin(), rankOfRow.end(), 0);
  for (std::int64_t i = n - 1; i > 0; --i) std::swap(rankOfRow[i], rankOfRow[random.below(i + 1)]);
  for (std::int64_t i = 0; i < n; ++i) columnOfRank[rankOfRow[i]] = i;

  std::vector<std::int64_t> columns;
  for (std::int64_t i = 0; i < n; ++i) {
    const double expected = std::min(scale * weight[rankOfRow[i]], cap);
    const auto whole = static_cast<std::int64_t>(expected);
    const std::int64_t length = whole + (random.uniform() < expected - static_cast<double>(whole) ? 1 : 0);
    columns.clear();
    // A few rounds of drawing: a heavy row repeats heavy columns often, and the rows of a
    // Chung-Lu graph merge their repeats too, so a row may end a little shorter.
    for (int round = 0; round < 3 && static_cast<std::int64_t>(columns.size()) < length; ++round) {
      for (std::int64_t k = static_cast<std::int64_t>(columns.size()); k < length; ++k) {
        const double u = random.uniform() * cumulative[n - 1];
        const auto rank = std::upper_bound(cumulative.begin(), cumulative.end(), u) - cumulative.begin();
        columns.push_back(columnOfRank[std::min<std::int64_t>(rank, n - 1)]);
      }
      std::sort(columns.begin(), columns.end());
      columns.erase(std::unique(columns.begin(), columns.end()), columns.end());
    }
    b.addRow(columns);
  }
}

/// Short rows of 2 to 6 entries within 8 columns of the diagonal, and `longRows` rows, evenly
/// spaced, of `longRowLength` columns drawn over the whole width.
void longRows(const MatrixSpec& s, GeneratedMatrix& m, CsrBuilder& b, RandomStream& random) {
  m.cols = m.rows;
  constexpr std::int64_t kHalfWindow = 8;
  std::vector<std::int64_t> longRowIndex;
  for (int k = 0; k < s.longRows; ++k) longRowIndex.push_back((2 * k + 1) * m.rows / (2 * s.longRows));
  std::vector<std::int64_t> columns;
  for (std::int64_t i = 0; i < m.rows; ++i) {
    if (std::find(longRowIndex.begin(), longRowIndex.end(), i) != longRowIndex.end()) {
      distinctSorted(random, s.longRowLength, 0, m.cols, columns);
    } else {
      const std::int64_t first = std::max<std::int64_t>(0, i - kHalfWindow);
      const std::int64_t last = std::min<std::int64_t>(m.cols - 1, i + kHalfWindow);
      distinctSorted(random, 2 + random.below(5), first, last - first + 1, columns);
    }
    b.addRow(columns);
  }
}

/// A grid of g^dims points, each coupled to its neighbours within one step in each dimension:
/// along the axes only (5 or 7 points) or with the corners too (9 or 27).
void stencil(const MatrixSpec& s, GeneratedMatrix& m, CsrBuilder& b) {
  const int d = s.dimensions;
  const auto g = std::max<std::int64_t>(2, std::llround(std::pow(static_cast<double>(s.rows), 1.0 / d)));
  std::int64_t points = 1;
  for (int k = 0; k < d; ++k) points *= g;
  m.rows = m.cols = points;
  std::vector<std::int64_t> columns;
  for (std::int64_t i = 0; i < points; ++i) {
    const std::int64_t x = i % g, y = (i / g) % g, z = d == 3 ? i / (g * g) : 0;
    columns.clear();
    // (dz, dy, dx) in lexicographic order: increasing linear offsets, so sorted columns.
    for (int dz = d == 3 ? -1 : 0; dz <= (d == 3 ? 1 : 0); ++dz) {
      for (int dy = -1; dy <= 1; ++dy) {
        for (int dx = -1; dx <= 1; ++dx) {
          if (!s.fullStencil && std::abs(dx) + std::abs(dy) + std::abs(dz) > 1) continue;
          if (x + dx < 0 || x + dx >= g || y + dy < 0 || y + dy >= g || z + dz < 0 || z + dz >= g) continue;
          columns.push_back(i + dx + dy * g + dz * g * g);
        }
      }
    }
    b.addRow(columns);
  }
}

/// Block rows of `blockSize` rows, each with the diagonal block and `blocksPerRow` - 1 others
/// at random block columns, every block dense.
void blocks(const MatrixSpec& s, GeneratedMatrix& m, CsrBuilder& b, RandomStream& random) {
  const std::int64_t size = s.blockSize;
  const std::int64_t blockRows = std::max<std::int64_t>(1, m.rows / size);
  m.rows = m.cols = blockRows * size;
  const std::int64_t perRow = std::min<std::int64_t>(s.blocksPerRow, blockRows);
  std::vector<std::int64_t> blockColumns, columns;
  for (std::int64_t br = 0; br < blockRows; ++br) {
    blockColumns.assign(1, br);
    while (static_cast<std::int64_t>(blockColumns.size()) < perRow) {
      const std::int64_t c = random.below(blockRows);
      if (std::find(blockColumns.begin(), blockColumns.end(), c) == blockColumns.end()) blockColumns.push_back(c);
    }
    std::sort(blockColumns.begin(), blockColumns.end());
    columns.clear();
    for (const std::int64_t bc : blockColumns) {
      for (std::int64_t k = 0; k < size; ++k) columns.push_back(bc * size + k);
    }
    for (std::int64_t r = 0; r < size; ++r) b.addRow(columns);
  }
}

}  // namespace

GeneratedMatrix generateMatrix(const MatrixSpec& spec) {
  GeneratedMatrix m;
  m.name = spec.name;
  m.rows = std::max<std::int64_t>(1, spec.rows);
  m.colIdx.reserve(static_cast<std::size_t>(spec.estimatedNnz));
  m.values.reserve(static_cast<std::size_t>(spec.estimatedNnz));
  m.rowPtr.reserve(static_cast<std::size_t>(m.rows + 1));
  RandomStream random(spec.seed);
  CsrBuilder builder(m, random);
  switch (spec.family) {
    case Family::BandedRows: bandedRows(spec, m, builder); break;
    case Family::ScatteredRows: scatteredRows(spec, m, builder, random); break;
    case Family::PowerLaw: powerLaw(spec, m, builder, random); break;
    case Family::LongRows: longRows(spec, m, builder, random); break;
    case Family::Stencil: stencil(spec, m, builder); break;
    case Family::Blocks: blocks(spec, m, builder, random); break;
  }
  return m;
}

}  // namespace araios::cli::calibration
