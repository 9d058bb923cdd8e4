// The counting sort behind COO -> CSR and CSR <-> CSC (primitives/bucket_sort.hpp), on every
// enabled backend, against std::stable_sort of (key, secondary key) on the host: the bucket
// offsets and the permutation must be exactly the host's. The buckets cover both sides of
// kBucketSortedAlone (one thread's heap sort below it, the merge passes of
// primitives/long_bucket_sort.hpp above it), runs of equal secondary keys (the position decides),
// lengths just past a power of two (an unpaired last run), and a bucket of 100,000 items.
#define BOOST_TEST_MODULE bucket_sort
#include <boost/test/unit_test.hpp>

#include "support/kokkos_env.hpp"

#include <araios/primitives/bucket_sort.hpp>

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <random>
#include <string>
#include <vector>

using araios::test::KokkosFixture;
BOOST_TEST_GLOBAL_FIXTURE(KokkosFixture);

namespace {

struct Items {
  std::string name;
  std::int64_t numBuckets = 0;
  std::vector<std::int64_t> key, secondary;
};

/// Items whose buckets have the given lengths, in a shuffled order, with secondary keys drawn
/// from [0, distinct) (so equal keys are common when distinct is small).
Items withBucketLengths(const std::string& name, const std::vector<std::int64_t>& lengths, std::int64_t distinct,
                        std::uint64_t seed) {
  Items items{name, static_cast<std::int64_t>(lengths.size()), {}, {}};
  for (std::size_t b = 0; b < lengths.size(); ++b) items.key.insert(items.key.end(), lengths[b], b);
  std::mt19937_64 rng(seed);
  std::shuffle(items.key.begin(), items.key.end(), rng);
  for (std::size_t i = 0; i < items.key.size(); ++i) items.secondary.push_back(static_cast<std::int64_t>(rng() % distinct));
  return items;
}

std::vector<Items> cases() {
  const std::int64_t alone = araios::Impl::kBucketSortedAlone;
  std::vector<Items> out;
  out.push_back(withBucketLengths("empty", {}, 1, 1));
  out.push_back(withBucketLengths("no_items", {0, 0, 0}, 1, 2));
  out.push_back(withBucketLengths("short_buckets", {1, 0, 7, 3, 0, 40, 2}, 5, 3));
  out.push_back(withBucketLengths("around_the_threshold", {alone - 1, alone, alone + 1, 2 * alone + 3, 5, 0}, 50, 4));
  out.push_back(withBucketLengths("one_long_bucket_equal_keys", {0, 4 * alone + 1, 1}, 3, 5));
  out.push_back(withBucketLengths("distinct_secondary_keys", {3 * alone, 17, 1000}, 1 << 30, 6));
  std::vector<std::int64_t> skewed(3000, 2);
  skewed[0] = 100000;
  skewed[1234] = 9000;
  skewed[2999] = 1025;
  out.push_back(withBucketLengths("power_law_like", skewed, 700, 7));
  return out;
}

/// The host's answer: ptr as CSR's row offsets, perm the stable order by (key, secondary).
void hostBucketSort(const Items& items, std::vector<std::int64_t>& ptr, std::vector<std::int64_t>& perm) {
  perm.resize(items.key.size());
  std::iota(perm.begin(), perm.end(), 0);
  std::stable_sort(perm.begin(), perm.end(), [&](std::int64_t a, std::int64_t b) {
    return items.key[a] != items.key[b] ? items.key[a] < items.key[b] : items.secondary[a] < items.secondary[b];
  });
  ptr.assign(items.numBuckets + 1, 0);
  for (auto k : items.key) ++ptr[k + 1];
  for (std::int64_t b = 0; b < items.numBuckets; ++b) ptr[b + 1] += ptr[b];
}

template <class Offset, class ExecSpace>
void checkOn(const Items& items) {
  using Device = typename ExecSpace::device_type;
  using View = Kokkos::View<Offset*, Device>;
  const ExecSpace exec;
  const auto n = items.key.size();
  View key("key", n), secondary("secondary", n);
  {
    auto k = Kokkos::create_mirror_view(key);
    auto s = Kokkos::create_mirror_view(secondary);
    for (std::size_t i = 0; i < n; ++i) {
      k(i) = static_cast<Offset>(items.key[i]);
      s(i) = static_cast<Offset>(items.secondary[i]);
    }
    Kokkos::deep_copy(key, k);
    Kokkos::deep_copy(secondary, s);
  }
  View ptr("ptr", items.numBuckets + 1), perm("perm", n);
  Kokkos::deep_copy(ptr, Offset(-7));  // poison: every entry must be written
  Kokkos::deep_copy(perm, Offset(-7));
  araios::Impl::bucketSort(exec, items.numBuckets, key, secondary, ptr, perm);
  exec.fence();

  std::vector<std::int64_t> hostPtr, hostPerm;
  hostBucketSort(items, hostPtr, hostPerm);
  auto p = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), ptr);
  auto q = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), perm);
  std::vector<std::int64_t> gotPtr(p.data(), p.data() + p.extent(0)), gotPerm(q.data(), q.data() + q.extent(0));
  BOOST_TEST_CONTEXT(items.name << " on " << ExecSpace::name() << ", " << 8 * sizeof(Offset) << "-bit offsets") {
    BOOST_TEST(gotPtr == hostPtr, boost::test_tools::per_element());
    BOOST_TEST(gotPerm == hostPerm, boost::test_tools::per_element());
  }
}

}  // namespace

BOOST_AUTO_TEST_CASE_TEMPLATE(buckets_match_the_host_stable_sort, ExecSpace, araios::test::EnabledSpaces) {
  for (const Items& items : cases()) {
    checkOn<std::int32_t, ExecSpace>(items);
    checkOn<std::int64_t, ExecSpace>(items);
  }
}
