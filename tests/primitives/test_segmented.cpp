// Segmented scans and sums (include/araios/primitives/segmented_*.hpp, team_segmented_scan.hpp,
// backends/cuda/warp_segmented_scan_cuda.hpp), on every enabled backend:
//   - bit for bit against a host emulation of the documented canonical order, written here
//     independently of the library (double-buffered Hillis-Steele steps instead of in-place);
//   - within the rounding-error bound of a long-double sequential reference;
//   - bitwise independent of the launch: team sizes, vector lengths, the portable kernel
//     against the CUDA one, Serial against OpenMP;
//   - exactly, for int64 values;
// over segment structures with lengths 0, 1, 2, 31, 32, 33, 1000 and segments crossing every
// chunk, warp and block (team) boundary.
#define BOOST_TEST_MODULE segmented
#include <boost/test/unit_test.hpp>

#include "support/kokkos_env.hpp"

#include <araios/error.hpp>
#include <araios/primitives/segment_layout.hpp>
#include <araios/primitives/segmented_scan.hpp>
#include <araios/primitives/segmented_sum.hpp>
#include <araios/primitives/team_segmented_scan.hpp>
#ifdef KOKKOS_ENABLE_CUDA
#include <araios/backends/cuda/warp_segmented_scan_cuda.hpp>
#endif

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

using araios::test::KokkosFixture;
BOOST_TEST_GLOBAL_FIXTURE(KokkosFixture);

namespace {

using namespace araios;
using Flag = std::uint8_t;

// ---------------------------------------------------------------------------------------------
// Segment structures and values.

struct Segmentation {
  std::string name;
  std::vector<std::int64_t> lengths;

  std::int64_t size() const {
    std::int64_t n = 0;
    for (auto l : lengths) n += l;
    return n;
  }
  std::vector<std::int64_t> offsets() const {
    std::vector<std::int64_t> out{0};
    for (auto l : lengths) out.push_back(out.back() + l);
    return out;
  }
  std::vector<Flag> flags() const {
    std::vector<Flag> out(size(), 0);
    std::int64_t at = 0;
    for (auto l : lengths) {
      if (l > 0) out[at] = 1;
      at += l;
    }
    return out;
  }
};

std::vector<Segmentation> segmentations() {
  std::mt19937_64 rng(20240611);
  std::vector<Segmentation> all;
  {
    // The lengths the BRCP paper names, in random order, among random short ones.
    const std::int64_t special[] = {0, 1, 2, 31, 32, 33, 1000};
    Segmentation s{"mixed", {}};
    std::int64_t n = 0;
    while (n < 30000) {
      const std::int64_t l = rng() % 3 == 0 ? static_cast<std::int64_t>(rng() % 71) : special[rng() % 7];
      s.lengths.push_back(l);
      n += l;
    }
    all.push_back(s);
  }
  {
    // 17, then 33s: every chunk boundary (multiple of 2..32) falls inside a segment; then
    // 1025s: every block boundary (multiple of 1024) does too.
    Segmentation s{"boundary-crossing", {17}};
    for (int k = 0; k < 200; ++k) s.lengths.push_back(33);
    for (int k = 0; k < 6; ++k) s.lengths.push_back(1025);
    all.push_back(s);
  }
  // Segments spanning several blocks: the chained block carries.
  all.push_back({"multi-block", {5000, 0, 2049, 1, 3000, 0, 0, 4097, 2}});
  all.push_back({"one-segment", {4 * 1024 + 7}});
  all.push_back({"singletons", std::vector<std::int64_t>(3000, 1)});
  all.push_back({"empties", {0, 0, 3, 0, 1, 0, 0, 0, 31, 0, 32, 0, 33, 0, 0}});
  all.push_back({"under-a-chunk", {2, 3}});
  all.push_back({"one-element", {1}});
  all.push_back({"nothing", {0, 0}});
  all.push_back({"no-segments", {}});
  return all;
}

/// The structures that exercise a width's chunk and block boundaries; the other widths are
/// checked on these only (the rest are degenerate cases already covered at width 32).
std::vector<Segmentation> boundarySegmentations() {
  std::vector<Segmentation> out;
  for (auto& seg : segmentations())
    if (seg.name != "one-segment" && seg.name != "singletons" && seg.name != "one-element" && seg.name != "no-segments")
      out.push_back(seg);
  return out;
}

template <class Value>
std::vector<Value> randomValues(std::int64_t n, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<Value> out(n);
  if constexpr (std::is_integral_v<Value>) {
    // Large enough that a float accumulation would round, small enough never to overflow.
    std::uniform_int_distribution<std::int64_t> dist(-(std::int64_t(1) << 40), std::int64_t(1) << 40);
    for (auto& v : out) v = static_cast<Value>(dist(rng));
  } else {
    // Mixed signs and magnitudes (so the order of additions shows in the bits), and some
    // signed zeros (so the sign of zero sums is checked).
    std::uniform_real_distribution<double> mantissa(-1.0, 1.0);
    std::uniform_int_distribution<int> exponent(-12, 12), kind(0, 99);
    for (auto& v : out) {
      const int k = kind(rng);
      v = k == 0 ? Value(-0.0) : k == 1 ? Value(0.0) : static_cast<Value>(std::ldexp(mantissa(rng), exponent(rng)));
    }
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Host references.

/// The canonical order of segmented_scan_order.hpp, evaluated literally: every Hillis-Steele
/// step computes all lanes from the previous step's lanes.
template <class Value>
std::vector<Value> canonicalInclusive(const std::vector<Value>& x, const std::vector<Flag>& flags, int width) {
  struct P {
    Value v;
    bool h;
  };
  const auto op = [](const P& a, const P& b) { return b.h ? b : P{a.v + b.v, a.h}; };
  const auto hillisSteele = [&](std::vector<P> lanes) {
    for (int d = 1; d < width; d *= 2) {
      std::vector<P> next = lanes;
      for (std::size_t l = d; l < lanes.size(); ++l) next[l] = op(lanes[l - d], lanes[l]);
      lanes = next;
    }
    return lanes;
  };
  const std::int64_t n = static_cast<std::int64_t>(x.size()), block = std::int64_t(width) * width;
  std::vector<Value> out(n);
  P carry{Value(0), true};
  for (std::int64_t b0 = 0; b0 < n; b0 += block) {
    const std::int64_t b1 = std::min(n, b0 + block);
    std::vector<std::vector<P>> chunks;
    std::vector<P> totals;
    for (std::int64_t c0 = b0; c0 < b1; c0 += width) {
      std::vector<P> lanes;
      for (std::int64_t i = c0; i < std::min(b1, c0 + width); ++i) lanes.push_back({x[i], i == 0 || flags[i] != 0});
      chunks.push_back(hillisSteele(lanes));
      totals.push_back(chunks.back().back());
    }
    const std::vector<P> carries = hillisSteele(totals);
    P inner{};
    for (std::size_t c = 0; c < chunks.size(); ++c) {
      for (std::size_t l = 0; l < chunks[c].size(); ++l) {
        inner = c == 0 ? chunks[c][l] : op(carries[c - 1], chunks[c][l]);
        out[b0 + c * width + l] = op(carry, inner).v;
      }
    }
    carry = op(carry, inner);
  }
  return out;
}

template <class Value>
std::vector<Value> exclusiveFromInclusive(const std::vector<Value>& inclusive, const std::vector<Flag>& flags) {
  std::vector<Value> out(inclusive.size());
  for (std::size_t i = 0; i < out.size(); ++i) out[i] = i == 0 || flags[i] ? Value(0) : inclusive[i - 1];
  return out;
}

/// One sum per segment (empty ones +0) from the inclusive scan.
template <class Value>
std::vector<Value> sumsFromInclusive(const std::vector<Value>& inclusive, const Segmentation& seg) {
  std::vector<Value> out;
  const auto offsets = seg.offsets();
  for (std::size_t s = 0; s + 1 < offsets.size(); ++s)
    out.push_back(offsets[s] == offsets[s + 1] ? Value(0) : inclusive[offsets[s + 1] - 1]);
  return out;
}

template <class Value>
std::vector<Value> nonemptyOnly(const std::vector<Value>& sums, const Segmentation& seg) {
  std::vector<Value> out;
  for (std::size_t s = 0; s < sums.size(); ++s)
    if (seg.lengths[s] > 0) out.push_back(sums[s]);
  return out;
}

/// Index of the first element whose bits differ (-1: none; the shorter size if sizes differ).
template <class Value>
std::int64_t firstBitDifference(const std::vector<Value>& a, const std::vector<Value>& b) {
  if (a.size() != b.size()) return static_cast<std::int64_t>(std::min(a.size(), b.size()));
  for (std::size_t i = 0; i < a.size(); ++i)
    if (std::memcmp(&a[i], &b[i], sizeof(Value)) != 0) return static_cast<std::int64_t>(i);
  return -1;
}

template <class Value>
void requireSameBits(const std::string& label, const std::vector<Value>& got, const std::vector<Value>& want) {
  const std::int64_t at = firstBitDifference(got, want);
  if (at < 0) {
    BOOST_TEST(true);
    return;
  }
  if (got.size() != want.size()) {
    BOOST_ERROR(label << ": " << got.size() << " results, expected " << want.size());
  } else {
    BOOST_ERROR(label << ": first difference at " << at << ": got " << std::hexfloat << got[at] << ", expected "
                      << want[at] << std::defaultfloat);
  }
}

/// |scan - exact| <= gamma(k) * sum |x| at the k-th element (k from 0) of each segment, the
/// bound of any order of k additions (Higham, Accuracy and Stability, section 4.2); the
/// long-double reference adds at most k * LDBL_EPSILON * sum |x| of its own.
template <class Value>
void checkErrorBound(const std::string& label, const std::vector<Value>& x, const Segmentation& seg,
                     const std::vector<Value>& inclusive) {
  const long double u = std::numeric_limits<Value>::epsilon() / 2.0L;
  std::int64_t i = 0, failures = 0;
  for (auto length : seg.lengths) {
    long double exact = 0, magnitude = 0;
    for (std::int64_t k = 0; k < length; ++k, ++i) {
      exact += x[i];
      magnitude += std::fabs(static_cast<long double>(x[i]));
      const long double gamma = k * u / (1 - k * u);
      const long double bound = (gamma + k * LDBL_EPSILON) * magnitude;
      const long double err = std::fabs(static_cast<long double>(inclusive[i]) - exact);
      if (!(err <= bound) && failures++ == 0)
        BOOST_ERROR(label << ": element " << i << " (k = " << k << ") error " << static_cast<double>(err)
                          << " > bound " << static_cast<double>(bound));
    }
  }
  BOOST_TEST(failures == 0, label << ": " << failures << " elements outside the error bound");
}

// ---------------------------------------------------------------------------------------------
// Device helpers.

template <class Exec, class T>
Kokkos::View<T*, typename Exec::device_type> toDevice(const std::vector<T>& host, const std::string& label) {
  Kokkos::View<T*, typename Exec::device_type> view(label, host.size());
  auto mirror = Kokkos::create_mirror_view(view);
  for (std::size_t i = 0; i < host.size(); ++i) mirror(i) = host[i];
  Kokkos::deep_copy(view, mirror);
  return view;
}

template <class T, class Exec, class U>
Kokkos::View<T*, typename Exec::device_type> toDeviceAs(const std::vector<U>& host, const std::string& label) {
  std::vector<T> converted(host.begin(), host.end());
  return toDevice<Exec>(converted, label);
}

template <class View>
std::vector<typename View::non_const_value_type> toHost(const View& view) {
  Kokkos::fence();
  auto mirror = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), view);
  return std::vector<typename View::non_const_value_type>(mirror.data(), mirror.data() + mirror.extent(0));
}

/// The expected results of one segmentation, value type and width.
template <class Value>
struct Expected {
  std::vector<Value> x, inclusive, exclusive, sums, sumsOfNonempty;
  std::vector<Flag> flags;
  Expected(const Segmentation& seg, int width, std::uint64_t seed)
      : x(randomValues<Value>(seg.size(), seed)), flags(seg.flags()) {
    inclusive = canonicalInclusive(x, flags, width);
    exclusive = exclusiveFromInclusive(inclusive, flags);
    sums = sumsFromInclusive(inclusive, seg);
    sumsOfNonempty = nonemptyOnly(sums, seg);
  }
};

enum class Coverage {
  Everything,   ///< every entry point, flag type, in place
  ScansAndSum,  ///< inclusive, exclusive and sum by offsets: enough to compare launches
};

/// The device-array entry points with one launch configuration, compared bit for bit with the
/// canonical order.
template <class Cfg, int Width>
void checkDeviceArray(const std::string& label, const Segmentation& seg, const Expected<typename Cfg::value_type>& e,
                      const SegmentedScanOptions& options, Coverage coverage = Coverage::Everything) {
  using Exec = typename Cfg::execution_space;
  using Value = typename Cfg::value_type;
  using Device = typename Exec::device_type;
  Exec exec;
  const std::int64_t n = seg.size();
  const auto x = toDevice<Exec>(e.x, "x");
  const auto flags = toDevice<Exec>(e.flags, "flags");
  const auto lengths = toDeviceAs<typename Cfg::ordinal_type, Exec>(seg.lengths, "lengths");
  const auto offsets = toDeviceAs<typename Cfg::size_type, Exec>(seg.offsets(), "offsets");
  Kokkos::View<Value*, Device> out("out", n), sums("sums", seg.lengths.size()),
      nonemptySums("nonemptySums", e.sumsOfNonempty.size());

  segmentedInclusiveScan<Width>(exec, x, flags, out, options);
  requireSameBits(label + " inclusive", toHost(out), e.inclusive);
  segmentedExclusiveScan<Width>(exec, x, flags, out, options);
  requireSameBits(label + " exclusive", toHost(out), e.exclusive);
  segmentedSum<Width>(exec, x, offsets, sums, options);
  requireSameBits(label + " sum by offsets", toHost(sums), e.sums);
  if (coverage == Coverage::ScansAndSum) return;

  // Element 0 starts a segment whatever its flag; flags may be any integer type.
  {
    std::vector<int> intFlags(e.flags.begin(), e.flags.end());
    if (!intFlags.empty()) intFlags[0] = 0;
    segmentedInclusiveScan<Width>(exec, x, toDevice<Exec>(intFlags, "intFlags"), out, options);
    requireSameBits(label + " inclusive, int flags, flag 0 unset", toHost(out), e.inclusive);
  }
  segmentedInclusiveScanByLengths<Width>(exec, x, lengths, out, options);
  requireSameBits(label + " inclusive by lengths", toHost(out), e.inclusive);
  Kokkos::deep_copy(out, x);
  segmentedInclusiveScan<Width>(exec, out, flags, out, options);
  requireSameBits(label + " inclusive in place", toHost(out), e.inclusive);

  segmentedExclusiveScanByLengths<Width>(exec, x, lengths, out, options);
  requireSameBits(label + " exclusive by lengths", toHost(out), e.exclusive);
  Kokkos::deep_copy(out, x);
  segmentedExclusiveScan<Width>(exec, out, flags, out, options);
  requireSameBits(label + " exclusive in place", toHost(out), e.exclusive);

  segmentedSumByLengths<Width>(exec, x, lengths, sums, options);
  requireSameBits(label + " sum by lengths", toHost(sums), e.sums);
  segmentedSumByHeadFlags<Width>(exec, x, flags, nonemptySums, options);
  requireSameBits(label + " sum by head flags", toHost(nonemptySums), e.sumsOfNonempty);
}

template <class Exec>
constexpr bool onHost() {
  return std::is_same_v<typename Exec::memory_space, Kokkos::HostSpace>;
}

/// Team sizes that differ after the library clamps them: on a host, 1, 2 and the whole pool;
/// on a GPU, from one thread to one per chunk, including a size that does not divide 32.
template <class Exec>
std::vector<int> teamSizesToTry() {
  if constexpr (onHost<Exec>()) {
    std::vector<int> sizes{1};
    const int pool = Exec().concurrency();
    if (pool >= 2) sizes.push_back(2);
    if (pool > 2) sizes.push_back(pool);
    return sizes;
  } else {
    return {1, 5, 8, 32};
  }
}

// ---------------------------------------------------------------------------------------------
// Team level.

/// Each team scans (or sums) its own range: ranges rangeStart(r) .. rangeStart(r+1).
template <class Exec, int Width, class ValueView, class FlagView, class RangeView>
struct TeamScanRanges {
  using Value = typename ValueView::non_const_value_type;
  using Member = typename Kokkos::TeamPolicy<Exec>::member_type;
  using Scratch = TeamSegmentedScanScratch<Value, Exec, Width>;
  ValueView values;
  FlagView flags;
  RangeView rangeStart;
  bool exclusive;
  KOKKOS_INLINE_FUNCTION void operator()(const Member& team) const {
    const Scratch scratch(team);
    const auto range = Kokkos::make_pair(rangeStart(team.league_rank()), rangeStart(team.league_rank() + 1));
    const auto v = Kokkos::subview(values, range);
    const auto f = Kokkos::subview(flags, range);
    if (exclusive) teamSegmentedExclusiveScan(team, v, f, scratch);
    else teamSegmentedInclusiveScan(team, v, f, scratch);
  }
};

/// Each team sums a group of whole segments: segments firstSegment(r) .. firstSegment(r+1),
/// whose offsets relative to the group start at groupOffsets(firstSegment(r) + r).
template <class Exec, int Width, class ValueView, class OffsetView, class IndexView, class SumView>
struct TeamSumGroups {
  using Value = typename SumView::non_const_value_type;
  using Member = typename Kokkos::TeamPolicy<Exec>::member_type;
  using Scratch = TeamSegmentedScanScratch<Value, Exec, Width>;
  ValueView values;
  OffsetView groupOffsets;
  IndexView firstSegment, firstElement;
  SumView sums;
  KOKKOS_INLINE_FUNCTION void operator()(const Member& team) const {
    const Scratch scratch(team);
    const std::int64_t r = team.league_rank();
    const std::int64_t s0 = firstSegment(r), s1 = firstSegment(r + 1);
    const auto v = Kokkos::subview(values, Kokkos::make_pair(firstElement(r), firstElement(r + 1)));
    const auto o = Kokkos::subview(groupOffsets, Kokkos::make_pair(s0 + r, s1 + r + 1));
    const auto s = Kokkos::subview(sums, Kokkos::make_pair(s0, s1));
    teamSegmentedSum(team, v, o, s, scratch);
  }
};

template <class Exec, class Policy, class Functor>
Policy sizedTeamPolicy(const Exec& exec, std::int64_t league, int teamSize, int vectorLength, std::size_t scratch,
                       const Functor& functor) {
  Policy probe(exec, static_cast<int>(league), 1, vectorLength);
  probe.set_scratch_size(0, Kokkos::PerTeam(scratch));
  const int maxTeam = probe.team_size_max(functor, Kokkos::ParallelForTag());
  Policy policy(exec, static_cast<int>(league), std::min(teamSize, maxTeam), vectorLength);
  policy.set_scratch_size(0, Kokkos::PerTeam(scratch));
  return policy;
}

template <class Exec, int Width, class Value>
std::vector<Value> teamScan(const std::vector<Value>& x, const std::vector<Flag>& flags,
                            const std::vector<std::int64_t>& rangeStart, bool exclusive, int teamSize,
                            int vectorLength) {
  Exec exec;
  auto values = toDevice<Exec>(x, "values");
  const auto deviceFlags = toDevice<Exec>(flags, "flags");
  const auto ranges = toDevice<Exec>(rangeStart, "ranges");
  using Functor = TeamScanRanges<Exec, Width, decltype(values), decltype(deviceFlags), decltype(ranges)>;
  const Functor functor{values, deviceFlags, ranges, exclusive};
  const auto policy = sizedTeamPolicy<Exec, Kokkos::TeamPolicy<Exec>>(
      exec, static_cast<std::int64_t>(rangeStart.size()) - 1, teamSize, vectorLength, Functor::Scratch::bytes(),
      functor);
  Kokkos::parallel_for("test::teamScan", policy, functor);
  return toHost(values);
}

/// Cuts [0, n) into ranges of varied lengths (0, 1, 31, 33, 1025, 2049, ...), ignoring the
/// segments: by contract each range is scanned as a standalone array.
std::vector<std::int64_t> arbitraryRanges(std::int64_t n) {
  const std::int64_t pattern[] = {0, 1, 31, 1025, 33, 2049, 7, 4096, 500};
  std::vector<std::int64_t> starts{0};
  for (int k = 0; starts.back() < n; ++k) starts.push_back(std::min(n, starts.back() + pattern[k % 9]));
  if (starts.size() == 1) starts.push_back(0);  // one empty range for an empty array
  return starts;
}

/// Groups of 1 to 40 consecutive whole segments (a CSR row block per team).
std::vector<std::int64_t> segmentGroups(std::int64_t numSegments, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<std::int64_t> first{0};
  while (first.back() < numSegments) first.push_back(std::min<std::int64_t>(numSegments, first.back() + 1 + rng() % 40));
  if (first.size() == 1) first.push_back(0);
  return first;
}

template <class Exec, int Width, class Value>
std::vector<Value> teamSums(const Segmentation& seg, const std::vector<Value>& x,
                            const std::vector<std::int64_t>& firstSegment, int teamSize, int vectorLength) {
  Exec exec;
  const auto offsets = seg.offsets();
  std::vector<std::int64_t> groupOffsets, firstElement;
  for (std::size_t r = 0; r + 1 < firstSegment.size(); ++r) {
    firstElement.push_back(offsets[firstSegment[r]]);
    for (auto s = firstSegment[r]; s <= firstSegment[r + 1]; ++s) groupOffsets.push_back(offsets[s] - offsets[firstSegment[r]]);
  }
  firstElement.push_back(offsets.back());
  const auto values = toDevice<Exec>(x, "values");
  const auto deviceOffsets = toDevice<Exec>(groupOffsets, "groupOffsets");
  const auto segments = toDevice<Exec>(firstSegment, "firstSegment");
  const auto elements = toDevice<Exec>(firstElement, "firstElement");
  Kokkos::View<Value*, typename Exec::device_type> sums("sums", seg.lengths.size());
  Kokkos::deep_copy(sums, Value(42));  // the empty segments must be overwritten with 0
  using Functor = TeamSumGroups<Exec, Width, decltype(values), decltype(deviceOffsets), decltype(segments),
                                decltype(sums)>;
  const Functor functor{values, deviceOffsets, segments, elements, sums};
  const auto policy = sizedTeamPolicy<Exec, Kokkos::TeamPolicy<Exec>>(
      exec, static_cast<std::int64_t>(firstSegment.size()) - 1, teamSize, vectorLength, Functor::Scratch::bytes(),
      functor);
  Kokkos::parallel_for("test::teamSums", policy, functor);
  return toHost(sums);
}

template <class Value>
std::vector<Value> canonicalOverRanges(const std::vector<Value>& x, const std::vector<Flag>& flags,
                                       const std::vector<std::int64_t>& rangeStart, int width, bool exclusive) {
  std::vector<Value> out;
  for (std::size_t r = 0; r + 1 < rangeStart.size(); ++r) {
    const std::vector<Value> xr(x.begin() + rangeStart[r], x.begin() + rangeStart[r + 1]);
    std::vector<Flag> fr(flags.begin() + rangeStart[r], flags.begin() + rangeStart[r + 1]);
    auto inclusive = canonicalInclusive(xr, fr, width);
    if (exclusive) inclusive = exclusiveFromInclusive(inclusive, fr);
    out.insert(out.end(), inclusive.begin(), inclusive.end());
  }
  return out;
}

template <class Cfg, int Width>
void checkTeamLevel(const Segmentation& seg, std::uint64_t seed) {
  using Exec = typename Cfg::execution_space;
  using Value = typename Cfg::value_type;
  const Expected<Value> e(seg, Width, seed);
  const std::vector<std::int64_t> whole{0, seg.size()};
  const auto cuts = arbitraryRanges(seg.size());
  const auto groups = segmentGroups(static_cast<std::int64_t>(seg.lengths.size()), seed);
  const auto cutInclusive = canonicalOverRanges(e.x, e.flags, cuts, Width, false);
  const auto cutExclusive = canonicalOverRanges(e.x, e.flags, cuts, Width, true);
  for (int teamSize : teamSizesToTry<Exec>()) {
    for (int vectorLength : onHost<Exec>() ? std::vector<int>{1} : std::vector<int>{1, 4, 32}) {
      const std::string label = seg.name + " width " + std::to_string(Width) + " team " + std::to_string(teamSize) +
                                "x" + std::to_string(vectorLength);
      // One team over the whole array: the bits of the device-array functions.
      requireSameBits(label + " team inclusive, whole", teamScan<Exec, Width>(e.x, e.flags, whole, false, teamSize, vectorLength),
                      e.inclusive);
      requireSameBits(label + " team exclusive, whole", teamScan<Exec, Width>(e.x, e.flags, whole, true, teamSize, vectorLength),
                      e.exclusive);
      requireSameBits(label + " team inclusive, cut ranges",
                      teamScan<Exec, Width>(e.x, e.flags, cuts, false, teamSize, vectorLength), cutInclusive);
      requireSameBits(label + " team exclusive, cut ranges",
                      teamScan<Exec, Width>(e.x, e.flags, cuts, true, teamSize, vectorLength), cutExclusive);
      // Groups of whole segments: a segment's sum depends on its place in its range, so the
      // reference is the canonical scan of each group.
      std::vector<std::int64_t> groupStarts;
      const auto offsets = seg.offsets();
      for (auto s : groups) groupStarts.push_back(offsets[s]);
      const auto groupInclusive = canonicalOverRanges(e.x, e.flags, groupStarts, Width, false);
      requireSameBits(label + " team sum", teamSums<Exec, Width>(seg, e.x, groups, teamSize, vectorLength),
                      sumsFromInclusive(groupInclusive, seg));
      if (seg.lengths.size() < 2) continue;
      requireSameBits(label + " team sum, one group",
                      teamSums<Exec, Width>(seg, e.x, {0, static_cast<std::int64_t>(seg.lengths.size())}, teamSize,
                                            vectorLength),
                      e.sums);
    }
  }
}

}  // namespace

// ---------------------------------------------------------------------------------------------

BOOST_AUTO_TEST_CASE_TEMPLATE(device_array_against_canonical_order_and_error_bound, Cfg, test::AllConfigs) {
  using Value = typename Cfg::value_type;
  std::uint64_t seed = 1;
  for (const auto& seg : segmentations()) {
    const Expected<Value> e(seg, kSegmentedScanWidth, seed++);
    checkErrorBound(seg.name + " canonical inclusive", e.x, seg, e.inclusive);
    checkDeviceArray<Cfg, kSegmentedScanWidth>(seg.name, seg, e, {});
  }
}

BOOST_AUTO_TEST_CASE_TEMPLATE(device_array_independent_of_launch, Cfg, test::AllConfigs) {
  using Value = typename Cfg::value_type;
  std::uint64_t seed = 100;
  for (const auto& seg : segmentations()) {
    const Expected<Value> e(seg, kSegmentedScanWidth, seed++);
    for (int teamSize : teamSizesToTry<typename Cfg::execution_space>()) {
      for (bool portableOnly : {false, true}) {
        // A host backend has no specialisation: portableOnly would run the same kernel again.
        if (portableOnly && onHost<typename Cfg::execution_space>()) continue;
        const std::string label = seg.name + " team " + std::to_string(teamSize) + (portableOnly ? " portable" : "");
        checkDeviceArray<Cfg, kSegmentedScanWidth>(label, seg, e, {teamSize, portableOnly}, Coverage::ScansAndSum);
      }
    }
  }
}

BOOST_AUTO_TEST_CASE_TEMPLATE(device_array_other_widths, Cfg, test::AllConfigs) {
  using Value = typename Cfg::value_type;
  std::uint64_t seed = 200;
  for (const auto& seg : boundarySegmentations()) {
    {
      const Expected<Value> e(seg, 2, seed);
      checkDeviceArray<Cfg, 2>(seg.name + " width 2", seg, e, {}, Coverage::ScansAndSum);
      checkDeviceArray<Cfg, 2>(seg.name + " width 2 portable", seg, e, {0, true}, Coverage::ScansAndSum);
    }
    {
      const Expected<Value> e(seg, 8, seed);
      checkErrorBound(seg.name + " canonical width 8", e.x, seg, e.inclusive);
      checkDeviceArray<Cfg, 8>(seg.name + " width 8", seg, e, {});
      checkDeviceArray<Cfg, 8>(seg.name + " width 8 portable", seg, e, {0, true}, Coverage::ScansAndSum);
    }
    ++seed;
  }
}

BOOST_AUTO_TEST_CASE_TEMPLATE(team_level_matches_device_array, Cfg, test::AllConfigs) {
  std::uint64_t seed = 300;
  for (const auto& seg : segmentations()) {
    checkTeamLevel<Cfg, kSegmentedScanWidth>(seg, seed++);
  }
  for (const auto& seg : boundarySegmentations()) checkTeamLevel<Cfg, 4>(seg, seed++);
}

BOOST_AUTO_TEST_CASE_TEMPLATE(integers_are_exact, Cfg, test::AllConfigs) {
  using Exec = typename Cfg::execution_space;
  // The float configurations have the same index types as the double ones: nothing new here.
  if constexpr (std::is_same_v<typename Cfg::value_type, float>) return;
  using Value = std::int64_t;
  using IntCfg = test::Config<Exec, Value, typename Cfg::ordinal_type, typename Cfg::size_type>;
  std::uint64_t seed = 400;
  for (const auto& seg : segmentations()) {
    Expected<Value> e(seg, kSegmentedScanWidth, seed++);
    // Exact sequential sums: any order gives them for integers, so the canonical emulation
    // must too, and so must the device.
    std::int64_t i = 0;
    for (auto length : seg.lengths) {
      Value sum = 0;
      for (std::int64_t k = 0; k < length; ++k, ++i) {
        sum += e.x[i];
        BOOST_REQUIRE_EQUAL(e.inclusive[i], sum);
      }
    }
    checkDeviceArray<IntCfg, kSegmentedScanWidth>(seg.name + " int64", seg, e, {});
    checkDeviceArray<IntCfg, 8>(seg.name + " int64 width 8", seg, Expected<Value>(seg, 8, seed - 1), {},
                                Coverage::ScansAndSum);
    requireSameBits(seg.name + " int64 team", teamScan<Exec, kSegmentedScanWidth>(e.x, e.flags, {0, seg.size()}, false, 2, 1),
                    e.inclusive);
  }
}

#if defined(KOKKOS_ENABLE_SERIAL) && defined(KOKKOS_ENABLE_OPENMP)
BOOST_AUTO_TEST_CASE(serial_and_openmp_give_the_same_bits) {
  const Segmentation seg = segmentations().front();
  const auto flagsHost = seg.flags();
  const auto x = randomValues<double>(seg.size(), 7);
  auto run = [&](auto exec) {
    using Exec = decltype(exec);
    const auto in = toDevice<Exec>(x, "x");
    const auto flags = toDevice<Exec>(flagsHost, "flags");
    const auto offsets = toDevice<Exec>(seg.offsets(), "offsets");
    Kokkos::View<double*, typename Exec::device_type> inclusive("inclusive", x.size()), exclusive("exclusive", x.size()),
        sums("sums", seg.lengths.size());
    segmentedInclusiveScan(exec, in, flags, inclusive);
    segmentedExclusiveScan(exec, in, flags, exclusive);
    segmentedSum(exec, in, offsets, sums);
    std::vector<std::vector<double>> out{toHost(inclusive), toHost(exclusive), toHost(sums),
                                         teamScan<Exec, kSegmentedScanWidth>(x, flagsHost, {0, seg.size()}, false, 2, 1)};
    return out;
  };
  const auto serial = run(Kokkos::Serial());
  const auto openmp = run(Kokkos::OpenMP());
  const char* what[] = {"inclusive", "exclusive", "sums", "team inclusive"};
  for (int k = 0; k < 4; ++k) requireSameBits(std::string("Serial vs OpenMP ") + what[k], openmp[k], serial[k]);
  // The team version agrees with the device-array version.
  requireSameBits("team vs device array", serial[3], serial[0]);
}
#endif

BOOST_AUTO_TEST_CASE(invalid_segments_are_refused) {
  using Exec = Kokkos::DefaultHostExecutionSpace;
  Exec exec;
  const auto x = toDevice<Exec>(std::vector<double>{1, 2, 3, 4}, "x");
  Kokkos::View<double*, Exec::device_type> out("out", 4), sums2("sums", 2), sums3("sums", 3);
  BOOST_CHECK_THROW(segmentedInclusiveScanByLengths(exec, x, toDevice<Exec>(std::vector<int>{1, 2}, "l"), out),
                    InputError);  // sums to 3, not 4
  BOOST_CHECK_THROW(segmentedSumByLengths(exec, x, toDevice<Exec>(std::vector<int>{5, -1}, "l"), sums2), InputError);
  BOOST_CHECK_THROW(segmentedSum(exec, x, toDevice<Exec>(std::vector<int>{0, 3, 2, 4}, "o"), sums3),
                    InputError);  // decreasing
  BOOST_CHECK_THROW(segmentedSum(exec, x, toDevice<Exec>(std::vector<int>{0, 2, 4}, "o"), sums3),
                    InputError);  // 2 segments, 3 sums
  BOOST_CHECK_THROW(segmentedSumByHeadFlags(exec, x, toDevice<Exec>(std::vector<int>{1, 0, 1, 0}, "f"), sums3),
                    InputError);
  BOOST_CHECK_THROW(segmentedInclusiveScan(exec, x, toDevice<Exec>(std::vector<int>{1, 0, 1}, "f"), out), InputError);
  Kokkos::View<std::int32_t*, Exec::device_type> narrow("narrow", 3);
  BOOST_CHECK_THROW(offsetsFromLengths(exec, toDevice<Exec>(std::vector<std::int64_t>{std::int64_t(1) << 31, 1}, "l"),
                                       narrow),
                    InputError);  // does not fit in int32
}

BOOST_AUTO_TEST_CASE(layout_conversions) {
  using Exec = Kokkos::DefaultExecutionSpace;
  Exec exec;
  const std::vector<int> lengths{0, 3, 0, 1, 2, 0};
  Kokkos::View<std::int64_t*, Exec::device_type> offsets("offsets", lengths.size() + 1);
  BOOST_TEST(offsetsFromLengths(exec, toDevice<Exec>(lengths, "l"), offsets) == 6);
  BOOST_TEST(toHost(offsets) == (std::vector<std::int64_t>{0, 0, 3, 3, 4, 6, 6}), boost::test_tools::per_element());
  Kokkos::View<int*, Exec::device_type> flags("flags", 6);
  headFlagsFromLengths(exec, toDevice<Exec>(lengths, "l"), flags);
  BOOST_TEST(toHost(flags) == (std::vector<int>{1, 0, 0, 1, 1, 0}), boost::test_tools::per_element());
  BOOST_TEST(countSegments(exec, flags) == 3);
  Kokkos::View<std::int32_t*, Exec::device_type> back("back", 4);
  offsetsFromHeadFlags(exec, flags, back);
  BOOST_TEST(toHost(back) == (std::vector<std::int32_t>{0, 3, 4, 6}), boost::test_tools::per_element());
}

#ifdef KOKKOS_ENABLE_CUDA
namespace {

/// Each logical warp scans one chunk of `in` with WarpSegmentedScan directly.
template <int Width, class ValueView, class FlagView>
struct WarpScanChunks {
  using Member = Kokkos::TeamPolicy<Kokkos::Cuda>::member_type;
  ValueView in, inclusive, exclusive;
  FlagView flags;
  std::int64_t n;
  KOKKOS_INLINE_FUNCTION void operator()(const Member& team) const {
#ifdef __CUDA_ARCH__
    const WarpSegmentedScan<Width> warp;
    const std::int64_t i =
        (std::int64_t(team.league_rank()) * team.team_size() + team.team_rank()) * Width + threadIdx.x;
    const bool valid = i < n;
    double value = valid ? in(i) : 0.0;
    bool head = valid && (i % Width == 0 || flags(i) != 0);
    const double ex = warp.exclusiveScan(value, head);
    warp.inclusiveScan(value, head);
    if (valid) {
      inclusive(i) = value;
      exclusive(i) = ex;
    }
#else
    (void)team;
#endif
  }
};

template <int Width>
void checkWarpScan(const Segmentation& seg) {
  using Exec = Kokkos::Cuda;
  const auto x = randomValues<double>(seg.size(), 99);
  auto flagsHost = seg.flags();
  // Every chunk is a standalone scan: its first lane starts a segment.
  for (std::size_t i = 0; i < flagsHost.size(); i += Width) flagsHost[i] = 1;
  const auto in = toDevice<Exec>(x, "in");
  const auto flags = toDevice<Exec>(flagsHost, "flags");
  Kokkos::View<double*, Exec::device_type> inclusive("inclusive", x.size()), exclusive("exclusive", x.size());
  const std::int64_t n = seg.size(), chunks = (n + Width - 1) / Width;
  constexpr int kTeam = 4;
  Kokkos::parallel_for("test::warpScan", Kokkos::TeamPolicy<Exec>((chunks + kTeam - 1) / kTeam, kTeam, Width),
                       WarpScanChunks<Width, decltype(inclusive), decltype(flags)>{in, inclusive, exclusive, flags, n});
  const auto wantInclusive = canonicalInclusive(x, flagsHost, Width);
  requireSameBits(seg.name + " warp " + std::to_string(Width) + " inclusive", toHost(inclusive), wantInclusive);
  requireSameBits(seg.name + " warp " + std::to_string(Width) + " exclusive", toHost(exclusive),
                  exclusiveFromInclusive(wantInclusive, flagsHost));
}

}  // namespace

BOOST_AUTO_TEST_CASE(warp_segmented_scan_matches_the_canonical_chunk_scan) {
  for (const auto& seg : segmentations()) {
    // A chunk-aligned scan only: the canonical order of Width lanes within a chunk.
    if (seg.size() == 0 || seg.size() > 20000) continue;
    checkWarpScan<2>(seg);
    checkWarpScan<4>(seg);
    checkWarpScan<8>(seg);
    checkWarpScan<16>(seg);
    checkWarpScan<32>(seg);
  }
}
#endif
