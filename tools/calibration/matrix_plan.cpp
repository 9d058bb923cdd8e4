// The calibration plan: the matrices, sized by the device (matrix_plan.hpp).
#include "matrix_plan.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace araios::cli::calibration {
namespace {

/// Bytes of a CSR entry (a double and a 32-bit column) and of a row (its 32-bit offset).
constexpr double kEntryBytes = 12;
constexpr double kRowBytes = 4;

/// The largest CSR calibration builds: beyond the GPU's L2 several times, so the largest
/// products stream from memory; on a CPU, smaller, as its products run tens of times slower
/// and the whole calibration must stay within minutes.
constexpr std::int64_t kGpuMaxCsrBytes = std::int64_t{160} << 20;
constexpr std::int64_t kGpuQuickMaxCsrBytes = std::int64_t{48} << 20;
constexpr std::int64_t kCpuMaxCsrBytes = std::int64_t{32} << 20;
constexpr std::int64_t kCpuQuickMaxCsrBytes = std::int64_t{8} << 20;

enum class Size { Launch, Cache, Stream };

const char* sizeName(Size size) {
  switch (size) {
    case Size::Launch: return "launch";
    case Size::Cache: return "cache";
    case Size::Stream: return "stream";
  }
  return "?";
}

/// Target bytes of the CSR arrays for the cache and stream sizes.
struct ByteTargets {
  double cache = 0;
  double stream = 0;
};

ByteTargets byteTargets(const PlanSizes& s) {
  ByteTargets t;
  t.stream = static_cast<double>(s.maxCsrBytes);
  // Half the cache holds the matrix, the rest x and y. Where that is not well between the
  // launch size and the largest (a CPU's last-level cache can be larger than the largest
  // matrix calibration builds), the geometric mean of the two still gives a middle regime.
  const double launch = static_cast<double>(s.ellStrips) * (kEntryBytes + kRowBytes);
  t.cache = static_cast<double>(s.cacheBytes) / 2;
  if (!(t.cache > 2 * launch && t.cache < t.stream / 2)) t.cache = std::sqrt(launch * t.stream);
  return t;
}

std::int64_t rowsFor(double bytes, double entriesPerRow) {
  return std::max<std::int64_t>(1, static_cast<std::int64_t>(bytes / (kEntryBytes * entriesPerRow + kRowBytes)));
}

/// Rows of a constant-length family at `size`: at the launch size about one entry per thread
/// the device runs at once (S_ell), in at least S_csr rows (one per warp, or per CPU thread).
std::int64_t constantRows(const PlanSizes& s, const ByteTargets& t, int length, Size size) {
  switch (size) {
    case Size::Launch: return std::clamp<std::int64_t>(s.ellStrips / length, s.csrStrips, s.ellStrips);
    case Size::Cache: return rowsFor(t.cache, length);
    case Size::Stream: return rowsFor(t.stream, length);
  }
  return 1;
}

double targetBytes(const ByteTargets& t, Size size) { return size == Size::Stream ? t.stream : t.cache; }

MatrixSpec constantRows(const PlanSizes& s, const ByteTargets& t, Family family, int length, Size size) {
  MatrixSpec m;
  m.family = family;
  m.rowLength = length;
  m.rows = constantRows(s, t, length, size);
  m.estimatedNnz = m.rows * length;
  m.name = std::string(family == Family::BandedRows ? "banded" : "scattered") + "-L" + std::to_string(length) + "-" +
           sizeName(size);
  return m;
}

MatrixSpec powerLaw(const ByteTargets& t, double exponent, int meanLength, Size size) {
  MatrixSpec m;
  m.family = Family::PowerLaw;
  m.exponent = exponent;
  m.rowLength = meanLength;
  m.rows = rowsFor(targetBytes(t, size), meanLength);
  m.estimatedNnz = m.rows * meanLength;
  char exponentText[16];
  std::snprintf(exponentText, sizeof exponentText, "%.1f", exponent);
  m.name = std::string("powerlaw-g") + exponentText + "-mean" + std::to_string(meanLength) + "-" + sizeName(size);
  return m;
}

MatrixSpec longRows(const ByteTargets& t, int count, std::int64_t length, Size size) {
  MatrixSpec m;
  m.family = Family::LongRows;
  m.longRows = count;
  m.longRowLength = length;
  // Square, and with room for the long rows' columns.
  m.rows = std::max<std::int64_t>(rowsFor(targetBytes(t, size), 4), 2 * length);
  m.estimatedNnz = 4 * m.rows + count * length;
  m.name = "longrows-" + std::to_string(count) + "x" + std::to_string(length) + "-" + sizeName(size);
  return m;
}

MatrixSpec stencil(const ByteTargets& t, int dimensions, bool full, Size size) {
  MatrixSpec m;
  m.family = Family::Stencil;
  m.dimensions = dimensions;
  m.fullStencil = full;
  const int points = full ? (dimensions == 2 ? 9 : 27) : 2 * dimensions + 1;
  m.rows = rowsFor(targetBytes(t, size), points);
  m.estimatedNnz = m.rows * points;
  m.name = "stencil-" + std::to_string(dimensions) + "d" + std::to_string(points) + "-" + sizeName(size);
  return m;
}

MatrixSpec blocks(const ByteTargets& t, int blockSize, int blocksPerRow, Size size) {
  MatrixSpec m;
  m.family = Family::Blocks;
  m.blockSize = blockSize;
  m.blocksPerRow = blocksPerRow;
  m.rows = std::max<std::int64_t>(rowsFor(targetBytes(t, size), blockSize * blocksPerRow), blockSize * blocksPerRow);
  m.estimatedNnz = m.rows * blockSize * blocksPerRow;
  m.name = "blocks-" + std::to_string(blockSize) + "x" + std::to_string(blockSize) + "x" +
           std::to_string(blocksPerRow) + "-" + sizeName(size);
  return m;
}

/// The i-th matrix of every list in turn, then the (i+1)-th.
std::vector<MatrixSpec> interleaved(const std::vector<std::vector<MatrixSpec>>& lists) {
  std::vector<MatrixSpec> plan;
  for (std::size_t i = 0;; ++i) {
    bool any = false;
    for (const auto& list : lists) {
      if (i < list.size()) {
        plan.push_back(list[i]);
        any = true;
      }
    }
    if (!any) break;
  }
  return plan;
}

}  // namespace

PlanSizes planSizes(const DeviceDescription& device, bool quick) {
  PlanSizes s;
  const bool gpu = device.warpsPerMultiprocessor > 0 && device.threadsPerMultiprocessor > 0 && device.multiprocessors > 0;
  if (gpu) {
    s.csrStrips = std::int64_t{device.multiprocessors} * device.warpsPerMultiprocessor;
    s.ellStrips = std::int64_t{device.multiprocessors} * device.threadsPerMultiprocessor;
    s.maxCsrBytes = quick ? kGpuQuickMaxCsrBytes : kGpuMaxCsrBytes;
  } else {
    s.csrStrips = std::max(1, device.threads);
    s.ellStrips = 32 * s.csrStrips;
    s.maxCsrBytes = quick ? kCpuQuickMaxCsrBytes : kCpuMaxCsrBytes;
  }
  // Unknown: a typical last-level cache (the model's own default, DeviceTraits).
  s.cacheBytes = device.cacheBytes > 0 ? device.cacheBytes : std::int64_t{32} << 20;
  return s;
}

std::vector<MatrixSpec> calibrationPlan(const PlanSizes& s, bool quick) {
  const ByteTargets t = byteTargets(s);
  std::vector<std::vector<MatrixSpec>> lists(6);
  auto& banded = lists[0];
  auto& scattered = lists[1];
  auto& powerLaws = lists[2];
  auto& longs = lists[3];
  auto& stencils = lists[4];
  auto& blocky = lists[5];
  if (quick) {
    // Each length once banded and once scattered, one at the launch size and one streaming.
    const int lengths[] = {1, 16, 4, 64};
    for (int i = 0; i < 4; ++i) {
      const Size a = i % 2 == 0 ? Size::Launch : Size::Stream, b = i % 2 == 0 ? Size::Stream : Size::Launch;
      banded.push_back(constantRows(s, t, Family::BandedRows, lengths[i], a));
      scattered.push_back(constantRows(s, t, Family::ScatteredRows, lengths[i], b));
    }
    powerLaws.push_back(powerLaw(t, 2.3, 8, Size::Cache));
    longs.push_back(longRows(t, 1, 10000, Size::Cache));
    stencils.push_back(stencil(t, 2, false, Size::Stream));
    blocky.push_back(blocks(t, 4, 4, Size::Cache));
  } else {
    // Lengths in an order that spreads them, should --budget stop the plan early.
    const int lengths[] = {1, 128, 8, 32, 2, 64, 4, 16};
    for (const int length : lengths) {
      for (const Size size : {Size::Launch, Size::Stream}) {
        banded.push_back(constantRows(s, t, Family::BandedRows, length, size));
        scattered.push_back(constantRows(s, t, Family::ScatteredRows, length, size));
      }
      if (length == 2 || length == 8 || length == 32 || length == 128) {
        banded.push_back(constantRows(s, t, Family::BandedRows, length, Size::Cache));
        scattered.push_back(constantRows(s, t, Family::ScatteredRows, length, Size::Cache));
      }
    }
    powerLaws.push_back(powerLaw(t, 2.1, 4, Size::Stream));
    powerLaws.push_back(powerLaw(t, 2.3, 8, Size::Cache));
    powerLaws.push_back(powerLaw(t, 2.6, 16, Size::Stream));
    longs.push_back(longRows(t, 1, 10000, Size::Cache));
    longs.push_back(longRows(t, 1, 100000, Size::Stream));
    longs.push_back(longRows(t, 4, 30000, Size::Stream));
    stencils.push_back(stencil(t, 2, false, Size::Stream));
    stencils.push_back(stencil(t, 3, false, Size::Cache));
    stencils.push_back(stencil(t, 2, true, Size::Stream));
    blocky.push_back(blocks(t, 4, 4, Size::Stream));
    blocky.push_back(blocks(t, 8, 3, Size::Cache));
  }
  std::vector<MatrixSpec> plan = interleaved(lists);
  // Fixed seeds: the same matrices on every run, whatever the plan's order.
  for (MatrixSpec& m : plan) {
    std::uint64_t seed = 0xcbf29ce484222325ull;  // FNV-1a of the name
    for (const char c : m.name) seed = (seed ^ static_cast<unsigned char>(c)) * 0x100000001b3ull;
    m.seed = seed;
  }
  return plan;
}

}  // namespace araios::cli::calibration
