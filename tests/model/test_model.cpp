// The performance model and Kernel::Auto: the fit recovers known constants; predictions never
// fall as a matrix gains entries or rows; the scattered walk's count is the entries of the long
// rows, for the kernels and modes that walk rows so; DIA's estimated slots lie between the longest
// row's diagonals and the true count, so a long row the sample misses still rules DIA out; the
// choice respects every constraint;
// profile files round-trip, a profile fitted before a term reads with that term absent, and
// corrupt or foreign ones are refused with a message that names the file and the problem,
// after which the built-in constants are used; the operator's Auto builds the ranking's first
// kernel that fits and gives that kernel's bits.
#define BOOST_TEST_MODULE model
#include <boost/test/unit_test.hpp>

#include "support/generated.hpp"
#include "support/kokkos_env.hpp"
#include "support/temporary_directory.hpp"

#include <araios/araios.hpp>
#include <araios/model/fit_constants.hpp>
#include <araios/operator.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <sstream>
#include <cstdlib>
#include <fstream>
#include <limits>
#include <optional>
#include <random>
#include <string>
#include <tuple>
#include <vector>

using araios::test::KokkosFixture;
BOOST_TEST_GLOBAL_FIXTURE(KokkosFixture);

namespace {

using namespace araios;
using HostExec = Kokkos::DefaultHostExecutionSpace;

MatrixFeatures featuresOf(const io::HostMatrix& host) {
  using Csr = CsrMatrix<double, std::int32_t, std::int32_t, HostExec::device_type>;
  return computeFeatures(HostExec(), csrFromHost<Csr>(host));
}

/// `rows` rows of `perRow` entries each, columns from the diagonal on (banded, wrapping).
io::HostMatrix banded(std::int64_t rows, std::int64_t perRow) {
  std::vector<std::tuple<std::int64_t, std::int64_t, double>> e;
  for (std::int64_t r = 0; r < rows; ++r) {
    for (std::int64_t k = 0; k < perRow; ++k) e.emplace_back(r, (r + k) % rows, 1.0 + k);
  }
  return test::fromTriplets(rows, rows, std::move(e));
}

/// A profile of random positive constants: monotonicity must hold for any fit, not one.
PerformanceProfile randomProfile(std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  PerformanceProfile p = builtinProfile("openmp");
  for (auto& kernel : p.product) {
    for (auto& mode : kernel) {
      for (double& c : mode) c *= 2 * u(rng);
    }
  }
  for (auto& format : p.build) {
    for (double& c : format) c *= 2 * u(rng);
  }
  return p;
}

std::string fileText(const std::string& path) {
  std::ifstream in(path);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

/// `text` without its lines that hold `needle`: all of them, or the first only.
std::string withoutLines(const std::string& text, const std::string& needle, bool firstOnly) {
  std::istringstream in(text);
  std::string out, line;
  bool removed = false;
  while (std::getline(in, line)) {
    if (line.find(needle) != std::string::npos && !(firstOnly && removed)) {
      removed = true;
      continue;
    }
    out += line + "\n";
  }
  return out;
}

double scatteredCount(Kernel kernel, Mode mode, const MatrixFeatures& f, const ElementSizes& sizes) {
  return kernelTerms(kernel, mode, f, sizes, DeviceTraits{})[static_cast<std::size_t>(ProductTerm::Scattered)];
}

template <class F>
void forEachSpace(F&& f) {
  std::apply([&](auto... spaces) { (f(spaces), ...); }, test::EnabledSpaces{});
}

}  // namespace

BOOST_AUTO_TEST_CASE(the_fit_recovers_known_constants) {
  std::mt19937_64 rng(5);
  std::uniform_real_distribution<double> u(0.5, 2.0);
  const std::array<double, 4> truth = {3e-6, 0.0, 2e-9, 7e-11};  // one true zero
  std::vector<FitSample<4>> samples;
  for (int i = 0; i < 40; ++i) {
    FitSample<4> s;
    s.terms = {1.0, u(rng) * 1e5 * (i + 1), u(rng) * 1e4 * (i % 7 + 1), u(rng) * 1e6 * (40 - i)};
    for (std::size_t j = 0; j < 4; ++j) s.seconds += s.terms[j] * truth[j];
    samples.push_back(s);
  }
  const FitResult<4> fit = fitConstants(samples);
  BOOST_TEST(fit.samples == 40);
  for (std::size_t j = 0; j < 4; ++j) {
    BOOST_TEST(fit.constants[j] >= 0.0);
    BOOST_TEST(std::abs(fit.constants[j] - truth[j]) <= 1e-6 * 3e-6 + 1e-6 * truth[j], "constant " << j);
  }
  BOOST_TEST(fit.maxAbsRelError < 1e-6);
}

BOOST_AUTO_TEST_CASE(the_fit_keeps_constants_non_negative) {
  // Times that fall as a term grows would want a negative constant: it is clamped to 0.
  std::vector<FitSample<2>> samples;
  for (int i = 1; i <= 10; ++i) samples.push_back({{1.0, double(i)}, 1e-3 * (12 - i)});
  const FitResult<2> fit = fitConstants(samples);
  BOOST_TEST(fit.constants[0] > 0.0);
  BOOST_TEST(fit.constants[1] == 0.0);
  BOOST_CHECK_THROW(fitConstants(std::vector<FitSample<2>>{{{1.0, 1.0}, 0.0}}), InputError);
}

BOOST_AUTO_TEST_CASE(predictions_never_fall_as_entries_or_rows_grow) {
  const ElementSizes sizes;
  std::vector<MatrixFeatures> denser, taller;  // more entries per row, same rows; more rows, same length
  for (const std::int64_t perRow : {1, 2, 4, 8, 16, 33, 64}) denser.push_back(featuresOf(banded(4000, perRow)));
  for (const std::int64_t rows : {100, 1000, 5000, 20000}) taller.push_back(featuresOf(banded(rows, 5)));
  for (const std::uint64_t seed : {1u, 2u, 3u}) {
    const PerformanceProfile profiles[] = {builtinProfile("openmp"), builtinProfile("cuda"), randomProfile(seed)};
    for (const PerformanceProfile& p : profiles) {
      for (const KernelEntry& k : kernelRegistry()) {
        for (const Mode mode : {Mode::Fast, Mode::Deterministic, Mode::Accurate}) {
          BOOST_TEST_CONTEXT(k.name << ", " << toString(mode) << ", seed " << seed) {
            for (const auto* family : {&denser, &taller}) {
              double previous = 0;
              std::optional<std::pair<Impl::AccurateCsrKernel, int>> previousShape;
              for (const MatrixFeatures& f : *family) {
                const double t = predictProductSeconds(p, k.kernel, mode, f, sizes);
                // Accurate mode on CSR shapes its product by the rows: a thread per row up to 8
                // entries, past that lane groups as wide as the mean row asks. Wider groups walk
                // a longer row in fewer steps, so the prediction may fall where the shape
                // changes; it must not fall while the shape stays.
                const bool accurateOnCsr = mode == Mode::Accurate && Impl::accurateRunsOnCsr(k.format);
                const std::pair shape{Impl::accurateCsrKernel(f.maxRowLength, f.meanRowLength(), f.stdRowLength()),
                                      Impl::accurateLanesPerRow(f.meanRowLength())};
                if (!accurateOnCsr || previousShape == shape) {
                  BOOST_TEST(t >= previous, f.rows << " rows, " << f.nnz << " entries");
                }
                BOOST_TEST(predictBuildSeconds(p, k.kernel, f) >= 0.0);
                previous = t;
                previousShape = shape;
              }
            }
          }
        }
      }
    }
  }
}

// The count of the scattered walk against the rows counted one by one: rows of 16 entries or
// more for doubles or floats with 32-bit indices, of 8 or more with 64-bit indices (the lines a
// warp's lanes hold pass an H100's L1 there; scattered_entries.hpp derives it).
BOOST_AUTO_TEST_CASE(scattered_entries_are_the_entries_of_the_long_rows) {
  const io::HostMatrix host = test::randomMatrix(6000, 6000, 0, 60, 21);
  const MatrixFeatures f = featuresOf(host);
  std::vector<std::int64_t> length(host.numRows, 0);
  for (const std::int64_t r : host.row) ++length[r];
  // HYB's width by its rule, counted here: the largest power of two that max(4096, rows / 3)
  // rows reach. Its threads walk a row past that width, from the power of two at or above
  // width + 16 on.
  std::int64_t hybWidth = 0;
  for (std::int64_t w = 1; w <= 64; w *= 2) {
    if (std::count_if(length.begin(), length.end(), [&](std::int64_t n) { return n >= w; }) >=
        std::max<std::int64_t>(4096, host.numRows / 3)) {
      hybWidth = w;
    }
  }
  std::int64_t hybFrom = 1;
  while (hybFrom < hybWidth + 16) hybFrom *= 2;
  double from16 = 0, from8 = 0, hybTail = 0;
  for (const std::int64_t n : length) {
    if (n >= 16) from16 += n;
    if (n >= 8) from8 += n;
    if (n >= hybFrom) hybTail += n - hybWidth;
  }
  BOOST_TEST_REQUIRE(from16 > 0.0);
  BOOST_TEST_REQUIRE(from16 < static_cast<double>(f.nnz));  // the threshold cuts between rows
  BOOST_TEST_REQUIRE(hybTail > 0.0);
  BOOST_TEST(scatteredRowLength(8, 4) == 16);
  BOOST_TEST(scatteredRowLength(4, 4) == 16);
  BOOST_TEST(scatteredRowLength(8, 8) == 8);

  const ElementSizes doubles32{8, 4, 4}, doubles64{8, 8, 8};
  for (const Mode mode : {Mode::Fast, Mode::Deterministic, Mode::Accurate}) {
    BOOST_TEST_CONTEXT(toString(mode)) {
      const bool accurate = mode == Mode::Accurate, fast = mode == Mode::Fast;
      // Accurate mode of every kernel but the padded formats' runs on CSR: the lanes or the bins
      // kernel here, whose rows pass 8 entries, which read a row's entries coalesced.
      const bool csrLanes = accurate;
      BOOST_TEST(scatteredCount(Kernel::CsrScalar, mode, f, doubles32) == (csrLanes ? 0.0 : from16));
      BOOST_TEST(scatteredCount(Kernel::CsrScalar, mode, f, doubles64) == (csrLanes ? 0.0 : from8));
      BOOST_TEST(scatteredCount(Kernel::Csc, mode, f, doubles32) == (fast || csrLanes ? 0.0 : from16));
      // The other modes of these read rows coalesced; csr-merge stages its entries in every mode.
      for (const Kernel k : {Kernel::CsrVector, Kernel::CsrMerge, Kernel::Brcp, Kernel::BrcpAtomic, Kernel::ScCsr,
                             Kernel::Vab, Kernel::Brc}) {
        BOOST_TEST(scatteredCount(k, mode, f, doubles32) == 0.0, kernelEntry(k).name);
      }
      BOOST_TEST(scatteredCount(Kernel::Coo, mode, f, doubles32) == (fast || csrLanes ? 0.0 : from16));
      BOOST_TEST(scatteredCount(Kernel::Hyb, mode, f, doubles32) == (fast || csrLanes ? 0.0 : hybTail));
      for (const Kernel k : {Kernel::Ell, Kernel::Sell, Kernel::Jds, Kernel::Dia}) {
        BOOST_TEST(scatteredCount(k, mode, f, doubles32) == 0.0, kernelEntry(k).name);
      }
    }
  }
  // On rows of at most 8 entries the CSR Accurate product is the row kernel, whose walk is
  // csr-scalar's: with 64-bit indices rows of 8 pass L1, whatever the kernel that runs on CSR.
  const MatrixFeatures short8 = featuresOf(banded(3000, 8));
  BOOST_TEST(scatteredCount(Kernel::CsrScalar, Mode::Fast, short8, doubles64) == 3000.0 * 8);
  for (const Kernel k : {Kernel::CsrScalar, Kernel::CsrMerge, Kernel::Coo, Kernel::Hyb, Kernel::Vab, Kernel::Brcp}) {
    BOOST_TEST(scatteredCount(k, Mode::Accurate, short8, doubles64) == 3000.0 * 8, kernelEntry(k).name);
    BOOST_TEST(scatteredCount(k, Mode::Accurate, short8, doubles32) == 0.0, kernelEntry(k).name);
  }
  // Rows of 15 entries are all short; rows of 16 all long.
  const MatrixFeatures short15 = featuresOf(banded(3000, 15)), long16 = featuresOf(banded(3000, 16));
  BOOST_TEST(scatteredCount(Kernel::CsrScalar, Mode::Fast, short15, doubles32) == 0.0);
  BOOST_TEST(scatteredCount(Kernel::CsrScalar, Mode::Fast, long16, doubles32) == 3000.0 * 16);
}

// A GPU's COO and HYB Fast add each run of a row's entries in a team once (coo_run_scatter.hpp):
// no chain for a long row and no serialised COO entries there; a CPU still walks the rows.
BOOST_AUTO_TEST_CASE(coo_and_hyb_fast_count_no_long_row_chain_on_a_gpu) {
  const MatrixFeatures f = featuresOf(test::powerLawWithLongRow());
  BOOST_TEST_REQUIRE(f.maxRowLength > 4 * estimatedHybWidth(f));
  const ElementSizes sizes{8, 4, 4};
  DeviceTraits gpu, cpu;
  gpu.gpu = true;
  const auto term = [&](Kernel k, Mode mode, const DeviceTraits& d, ProductTerm t) {
    return kernelTerms(k, mode, f, sizes, d)[static_cast<std::size_t>(t)];
  };
  const double tail = static_cast<double>(f.nnz - hybEllEntries(f, estimatedHybWidth(f)));
  const double longest = static_cast<double>(f.maxRowLength), width = static_cast<double>(estimatedHybWidth(f));
  BOOST_TEST(term(Kernel::Coo, Mode::Fast, gpu, ProductTerm::Longest) == 0.0);
  BOOST_TEST(term(Kernel::Coo, Mode::Fast, cpu, ProductTerm::Longest) == longest / 32);
  BOOST_TEST(term(Kernel::Coo, Mode::Deterministic, gpu, ProductTerm::Longest) == longest / 32);
  BOOST_TEST(term(Kernel::Hyb, Mode::Fast, gpu, ProductTerm::Irregular) == 0.0);
  BOOST_TEST(term(Kernel::Hyb, Mode::Fast, gpu, ProductTerm::Longest) == width);
  BOOST_TEST(term(Kernel::Hyb, Mode::Fast, cpu, ProductTerm::Irregular) == tail);
  BOOST_TEST(term(Kernel::Hyb, Mode::Fast, cpu, ProductTerm::Longest) == longest);
  BOOST_TEST(term(Kernel::Hyb, Mode::Deterministic, gpu, ProductTerm::Irregular) == tail);
  // The streamed bytes hold the COO part in both (estimatedSlots); the profile says which device.
  BOOST_TEST(term(Kernel::Hyb, Mode::Fast, gpu, ProductTerm::Stream) == term(Kernel::Hyb, Mode::Fast, cpu, ProductTerm::Stream));
  BOOST_TEST(builtinProfile("cuda").traits().gpu);
  BOOST_TEST(!builtinProfile("openmp").traits().gpu);
}

BOOST_AUTO_TEST_CASE(the_choice_respects_every_constraint) {
  const io::HostMatrix matrices[] = {banded(3000, 7), test::powerLawWithLongRow(), test::randomMatrix(5000, 5000, 0, 30, 3)};
  for (const io::HostMatrix& m : matrices) {
    const MatrixFeatures f = featuresOf(m);
    for (const PerformanceProfile& p : {builtinProfile("cuda"), builtinProfile("openmp"), randomProfile(9)}) {
      for (const Mode mode : {Mode::Fast, Mode::Deterministic, Mode::Accurate}) {
        ChoiceConstraints c;
        c.mode = mode;
        // Unconstrained: the winner has the least total, and every kernel is ranked.
        KernelChoice choice = chooseKernel(f, p, c);
        BOOST_TEST(choice.ranking.size() == kernelRegistry().size());
        BOOST_TEST((choice.kernel == choice.ranking.front().kernel));
        for (const KernelEstimate& e : choice.ranking) {
          if (e.excluded.empty()) BOOST_TEST(choice.ranking.front().totalSeconds <= e.totalSeconds);
        }
        // No memory for a format: only the CSR kernels remain.
        c.memoryLimitBytes = 0;
        choice = chooseKernel(f, p, c);
        BOOST_TEST((kernelEntry(choice.kernel).format == FormatId::Csr));
        for (const KernelEstimate& e : choice.ranking) {
          if (kernelEntry(e.kernel).format != FormatId::Csr) BOOST_TEST(!e.excluded.empty());
        }
        // A padding limit of 1: nothing padded past it.
        c.memoryLimitBytes = -1;
        c.maxPaddingRatio = 1.0;
        choice = chooseKernel(f, p, c);
        for (const KernelEstimate& e : choice.ranking) {
          if (e.excluded.empty()) BOOST_TEST(e.padding <= 1.0);
        }
        // CSR order only: the choice sums in CSR order.
        c.maxPaddingRatio = kDefaultMaxPaddingRatio;
        for (const KernelEntry& k : kernelRegistry()) {
          if (sumsInCsrOrder(k.kernel)) c.candidates.push_back(k.kernel);
        }
        choice = chooseKernel(f, p, c);
        BOOST_TEST(sumsInCsrOrder(choice.kernel));
        for (const KernelEstimate& e : choice.ranking) BOOST_TEST(sumsInCsrOrder(e.kernel));
        // Fast mode, repeatable bits required: no kernel whose fast path uses atomics.
        c.candidates.clear();
        c.requireRunToRun = true;
        choice = chooseKernel(f, p, c);
        BOOST_TEST((mode != Mode::Fast || kernelEntry(choice.kernel).promise(Mode::Fast).runToRun));
        // More products favour a format that costs to build but less per product, never the reverse.
        c.requireRunToRun = false;
        c.expectedProducts = 1;
        const KernelChoice once = chooseKernel(f, p, c);
        c.expectedProducts = 1e6;
        const KernelChoice many = chooseKernel(f, p, c);
        BOOST_TEST(many.ranking.front().productSeconds <= once.ranking.front().productSeconds);
      }
    }
  }
}

// A profile written before a kernel existed is read without it, and Auto leaves that kernel out
// (with the reason) until calibration measures it.
BOOST_AUTO_TEST_CASE(a_kernel_missing_from_a_profile_is_left_out) {
  test::TemporaryDirectory dir("araios_profiles_");
  PerformanceProfile p = randomProfile(5);
  p.device.backend = "openmp";
  p.device.name = "Older CPU";
  const std::size_t merge = kernelIndex(Kernel::CsrMerge);
  p.calibrated[merge] = false;
  const std::string path = dir.file(profileFileName(p.device));
  writeProfile(path, p);
  std::ifstream in(path);
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  BOOST_TEST(text.find("\"csr-merge\"") == std::string::npos);
  const PerformanceProfile back = readProfile(path, "openmp");
  for (std::size_t k = 0; k < kKernelCount; ++k) BOOST_TEST(back.calibrated[k] == (k != merge));
  ChoiceConstraints c;
  c.memoryLimitBytes = -1;
  const KernelChoice choice = chooseKernel(featuresOf(banded(2000, 7)), back, c);
  bool seen = false;
  for (const KernelEstimate& e : choice.ranking) {
    if (e.kernel != Kernel::CsrMerge) continue;
    seen = true;
    BOOST_TEST(e.excluded.find("not in the profile") != std::string::npos, e.excluded);
  }
  BOOST_TEST(seen);
  BOOST_TEST((choice.kernel != Kernel::CsrMerge));
}

BOOST_AUTO_TEST_CASE(profiles_round_trip_and_bad_ones_are_refused) {
  test::TemporaryDirectory dir("araios_profiles_");
  PerformanceProfile p = randomProfile(4);
  p.device.backend = "openmp";
  p.device.name = "Test CPU (R) 9000";
  p.device.cacheBytes = 12345678;
  p.commit = "abc";
  const std::string path = dir.file(profileFileName(p.device));
  BOOST_TEST(profileFileName(p.device) == "openmp-test-cpu-r-9000.json");
  writeProfile(path, p);
  const PerformanceProfile back = readProfile(path, "openmp");
  BOOST_TEST(back.device.name == p.device.name);
  BOOST_TEST(back.device.cacheBytes == p.device.cacheBytes);
  BOOST_TEST(back.source == path);
  for (std::size_t t = 0; t < kProductTerms; ++t) BOOST_TEST(back.termFitted[t]);
  for (std::size_t k = 0; k < kKernelCount; ++k) {
    for (std::size_t m = 0; m < kModeCount; ++m) {
      for (std::size_t t = 0; t < kProductTerms; ++t) BOOST_TEST(back.product[k][m][t] == p.product[k][m][t]);
    }
  }
  for (std::size_t f = 0; f < kFormatCount; ++f) {
    for (std::size_t t = 0; t < kBuildTerms; ++t) BOOST_TEST(back.build[f][t] == p.build[f][t]);
  }

  const auto refusal = [&](const std::string& name, const std::string& text, const std::string& backend) {
    const std::string file = dir.file(name);
    std::ofstream(file) << text;
    try {
      readProfile(file, backend);
    } catch (const ProfileError& e) {
      const std::string message = e.what();
      BOOST_TEST(message.rfind(file + ": ", 0) == 0, message);
      return message;
    }
    BOOST_ERROR(name << " was accepted");
    return std::string();
  };
  std::ifstream in(path);
  const std::string good((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  BOOST_TEST(refusal("truncated.json", good.substr(0, good.size() / 2), "").find("not JSON") != std::string::npos);
  BOOST_TEST(refusal("other.json", "{\"kind\": \"something else\"}", "").find("not an Araios performance profile") !=
             std::string::npos);
  BOOST_TEST(refusal("foreign.json", good, "cuda").find("a profile of the openmp backend") != std::string::npos);
  std::string negative = good;
  const auto at = negative.find("\"stream_bytes\": ");
  negative.insert(at + std::string("\"stream_bytes\": ").size(), "-");
  BOOST_TEST(refusal("negative.json", negative, "").find("expected a finite constant of 0 or more") != std::string::npos);
  std::string unknown = good;
  unknown.replace(unknown.find("\"csr-vector\""), 12, "\"csr-vectors\"");
  BOOST_TEST(refusal("unknown.json", unknown, "").find("unknown kernel 'csr-vectors'") != std::string::npos);
  std::string noConstants = good;
  noConstants.replace(noConstants.find("\"constants\""), 11, "\"constant\"");
  BOOST_TEST(refusal("no_constants.json", noConstants, "").find(".constants") != std::string::npos);
  std::string version = good;
  version.replace(version.find("\"version\": 1"), 12, "\"version\": 7");
  BOOST_TEST(refusal("version.json", version, "").find("profile version 7") != std::string::npos);

  // A refused file found for the device is reported, and the built-in constants are used.
  ::setenv("ARAIOS_PROFILE", dir.file("truncated.json").c_str(), 1);
  std::string warning;
  const PerformanceProfile fallback = findProfile(p.device, &warning);
  ::unsetenv("ARAIOS_PROFILE");
  BOOST_TEST(fallback.source == "built-in");
  BOOST_TEST(warning.find("truncated.json") != std::string::npos, warning);
  // The device's own file, found by name in ARAIOS_PROFILE_DIR.
  ::setenv("ARAIOS_PROFILE_DIR", dir.path().c_str(), 1);
  const PerformanceProfile found = findProfile(p.device);
  ::unsetenv("ARAIOS_PROFILE_DIR");
  BOOST_TEST(found.source == path);
}

// A GPU with no profile of its own takes the nearest other GPU's (by multiprocessors, clocks and
// cache), says so, and names itself in standsInFor; a refused file on the way is reported. A CPU
// without one gets the built-in constants even where another CPU's profile lies in the folder.
BOOST_AUTO_TEST_CASE(a_gpu_without_a_profile_takes_the_nearest_gpus) {
  test::TemporaryDirectory dir("araios_profiles_");
  const auto gpu = [](const std::string& name, int multiprocessors, double clock, double memoryClock, std::int64_t cache) {
    DeviceDescription d;
    d.backend = "cuda";
    d.name = name;
    d.multiprocessors = multiprocessors;
    d.clockMHz = clock;
    d.memoryClockMHz = memoryClock;
    d.cacheBytes = cache;
    return d;
  };
  const auto write = [&](const DeviceDescription& device, std::uint64_t seed) {
    PerformanceProfile p = randomProfile(seed);
    p.device = device;
    const std::string path = dir.file(profileFileName(device));
    writeProfile(path, p);
    return path;
  };
  const std::string small = write(gpu("Small GPU", 20, 1500, 1000, 4 << 20), 21);
  const std::string mid = write(gpu("Mid GPU", 61, 1700, 1600, 24 << 20), 22);
  PerformanceProfile cpu = randomProfile(23);
  cpu.device.backend = "openmp";
  cpu.device.name = "Other CPU";
  writeProfile(dir.file(profileFileName(cpu.device)), cpu);
  {
    std::ofstream broken(dir.file("cuda-broken.json"));
    broken << "{";
  }
  ::unsetenv("ARAIOS_PROFILE");
  ::setenv("ARAIOS_PROFILE_DIR", dir.path().c_str(), 1);

  std::string warning;
  const PerformanceProfile nearMid = findProfile(gpu("Test GPU 62", 62, 1710, 1600, 24 << 20), &warning);
  BOOST_TEST(nearMid.source == mid);
  BOOST_TEST(nearMid.device.name == "Mid GPU");
  BOOST_TEST(nearMid.standsInFor == "Test GPU 62");
  BOOST_TEST(warning.find("no performance profile for Test GPU 62") != std::string::npos, warning);
  BOOST_TEST(warning.find("Mid GPU") != std::string::npos, warning);
  BOOST_TEST(warning.find("cuda-broken.json") != std::string::npos, warning);
  const KernelChoice choice = chooseKernel(featuresOf(banded(2000, 7)), nearMid, ChoiceConstraints{});
  BOOST_TEST(choice.profile.find("none for Test GPU 62") != std::string::npos, choice.profile);

  const PerformanceProfile nearSmall = findProfile(gpu("Test GPU 24", 24, 1450, 1100, 6 << 20));
  BOOST_TEST(nearSmall.source == small);
  BOOST_TEST(nearSmall.standsInFor == "Test GPU 24");
  // Its own profile, once there, wins over every other.
  PerformanceProfile own = randomProfile(24);
  own.device = gpu("Test GPU 24", 24, 1450, 1100, 6 << 20);
  const std::string ownPath = write(own.device, 24);
  const PerformanceProfile found = findProfile(own.device);
  BOOST_TEST(found.source == ownPath);
  BOOST_TEST(found.standsInFor.empty());

  // A device whose own file is refused: reported once, and the nearest GPU's profile taken.
  const DeviceDescription broken = gpu("Test GPU 63", 63, 1700, 1600, 24 << 20);
  {
    std::ofstream own(dir.file(profileFileName(broken)));
    own << "{";
  }
  std::string brokenWarning;
  const PerformanceProfile instead = findProfile(broken, &brokenWarning);
  BOOST_TEST(instead.source == mid);
  const std::string ownName = profileFileName(broken);
  const std::size_t first = brokenWarning.find(ownName);
  BOOST_TEST((first != std::string::npos && brokenWarning.find(ownName, first + 1) == std::string::npos), brokenWarning);

  DeviceDescription host;
  host.backend = "openmp";
  host.name = "Test CPU without a profile";
  host.threads = 2;
  const PerformanceProfile builtin = findProfile(host);
  ::unsetenv("ARAIOS_PROFILE_DIR");
  BOOST_TEST(builtin.source == "built-in");
  BOOST_TEST(builtin.standsInFor.empty());
}

// A profile fitted before scattered_entries existed (the committed ones) names it nowhere: it is
// read with the term absent, its constants 0, and the choice says so. A profile that names the
// term for some kernels only, or names a term that does not exist, is refused; the first terms
// stay required.
BOOST_AUTO_TEST_CASE(a_profile_fitted_before_a_term_reads_with_the_term_absent) {
  test::TemporaryDirectory dir("araios_profiles_");
  const std::size_t scattered = static_cast<std::size_t>(ProductTerm::Scattered);
  PerformanceProfile p = randomProfile(6);
  p.device.backend = "openmp";
  p.device.name = "Older CPU";
  for (auto& kernel : p.product) {
    for (auto& mode : kernel) mode[scattered] = 1e-11;  // a CPU's built-in 0 would hide the term
  }
  const std::string fresh = dir.file("fresh.json");
  writeProfile(fresh, p);
  const std::string term = "\"scattered_entries\"";
  const std::string text = fileText(fresh);
  BOOST_TEST_REQUIRE(text.find(term) != std::string::npos);
  const std::string before = dir.file("before.json");
  std::ofstream(before) << withoutLines(text, term, false);

  const PerformanceProfile back = readProfile(before, "openmp");
  BOOST_TEST(!back.termFitted[scattered]);
  BOOST_TEST(absentTermNames(back) == "scattered_entries");
  for (std::size_t k = 0; k < kKernelCount; ++k) {
    for (std::size_t m = 0; m < kModeCount; ++m) {
      for (std::size_t t = 0; t < kProductTerms; ++t) {
        BOOST_TEST(back.product[k][m][t] == (t == scattered ? 0.0 : p.product[k][m][t]));
      }
    }
  }
  // csr-scalar on long rows: the prediction leaves the term out, and the choice says so.
  const MatrixFeatures f = featuresOf(banded(3000, 40));
  PerformanceProfile without = p;
  for (auto& kernel : without.product) {
    for (auto& mode : kernel) mode[scattered] = 0;
  }
  BOOST_TEST(predictProductSeconds(back, Kernel::CsrScalar, Mode::Fast, f, {}) ==
             predictProductSeconds(without, Kernel::CsrScalar, Mode::Fast, f, {}));
  BOOST_TEST(predictProductSeconds(back, Kernel::CsrScalar, Mode::Fast, f, {}) <
             predictProductSeconds(p, Kernel::CsrScalar, Mode::Fast, f, {}));
  ChoiceConstraints c;
  BOOST_TEST(chooseKernel(f, back, c).profile.find("fitted before the term scattered_entries") != std::string::npos);
  BOOST_TEST(chooseKernel(f, p, c).profile.find("fitted before") == std::string::npos);
  // Written again, the term stays absent.
  const std::string again = dir.file("again.json");
  writeProfile(again, back);
  BOOST_TEST(fileText(again).find(term) == std::string::npos);
  BOOST_TEST(!readProfile(again).termFitted[scattered]);

  const auto refusal = [&](const std::string& name, const std::string& content) {
    const std::string file = dir.file(name);
    std::ofstream(file) << content;
    try {
      readProfile(file);
    } catch (const ProfileError& e) {
      return std::string(e.what());
    }
    BOOST_ERROR(name << " was accepted");
    return std::string();
  };
  const std::string partly = refusal("partly.json", withoutLines(text, term, true));
  BOOST_TEST(partly.find("lacks scattered_entries") != std::string::npos, partly);
  std::string misspelt = text;
  misspelt.replace(misspelt.find(term), term.size(), "\"scattered_entry\"");
  const std::string unknown = refusal("misspelt.json", misspelt);
  BOOST_TEST(unknown.find("unknown term 'scattered_entry'") != std::string::npos, unknown);
  const std::string noLaunch = refusal("no_launch.json", withoutLines(text, "\"launch\"", true));
  BOOST_TEST(noLaunch.find(".launch is missing") != std::string::npos, noLaunch);
  // A program's profile with an absent term must hold 0 for it.
  PerformanceProfile inconsistent = p;
  inconsistent.termFitted[scattered] = false;
  BOOST_CHECK_THROW(writeProfile(dir.file("inconsistent.json"), inconsistent), ProfileError);
}

BOOST_AUTO_TEST_CASE(the_operator_builds_the_choice_and_gives_its_bits) {
  forEachSpace([](auto space) {
    using Exec = decltype(space);
    using Csr = CsrMatrix<double, std::int32_t, std::int32_t, typename Exec::device_type>;
    using Op = SpmvOperator<double, std::int32_t, std::int32_t, Exec>;
    const Exec exec;
    for (const io::HostMatrix& host : {banded(5000, 9), test::powerLawWithLongRow()}) {
      const Csr csr = csrFromHost<Csr>(host);
      Kokkos::View<double*, typename Exec::device_type> x("x", csr.numCols), yAuto("yAuto", csr.numRows),
          yNamed("yNamed", csr.numRows);
      auto xHost = Kokkos::create_mirror_view(x);
      const std::vector<double> values = test::randomVector<double>(csr.numCols, 3);
      for (std::int64_t j = 0; j < csr.numCols; ++j) xHost(j) = values[j];
      Kokkos::deep_copy(x, xHost);
      for (const auto& profile : {builtinProfile("cuda"), builtinProfile("openmp"), randomProfile(11)}) {
        OperatorOptions options;
        options.profile = std::make_shared<const PerformanceProfile>(profile);
        const Op autoOp(exec, csr, options);
        BOOST_TEST_REQUIRE(autoOp.choice() != nullptr);
        BOOST_TEST((autoOp.kernel().kernel == autoOp.choice()->kernel));
        BOOST_TEST(autoOp.chooseSeconds() > 0.0);
        OperatorOptions named;
        named.kernel = autoOp.kernel().kernel;
        const Op namedOp(exec, csr, named);
        BOOST_TEST(namedOp.choice() == nullptr);
        Kokkos::deep_copy(yAuto, std::numeric_limits<double>::quiet_NaN());
        Kokkos::deep_copy(yNamed, std::numeric_limits<double>::quiet_NaN());
        autoOp.apply(exec, x, yAuto);
        namedOp.apply(exec, x, yNamed);
        BOOST_TEST(hashBits(yAuto) == hashBits(yNamed), autoOp.kernel().name << " on " << Exec::name());
        // No memory to spare: a CSR kernel, which builds nothing.
        options.memoryLimitBytes = 0;
        BOOST_TEST((Op(exec, csr, options).kernel().format == FormatId::Csr));
      }
    }
  });
}

// DIA's slots are the rows times the diagonals. The sample of rows can miss a matrix's few long
// rows, whose entries lie on as many diagonals as the row is long: the estimate never falls below
// that, and never passes the true count (a lower bound, as the padding check needs). On the
// identity plus one full row the sample skips, DIA is left out for its padding, not ranked first
// and refused when built.
BOOST_AUTO_TEST_CASE(dia_counts_at_least_the_diagonals_of_the_longest_row) {
  constexpr std::int64_t n = 40000;
  std::vector<bool> sampledRow(n, false);
  for (std::int64_t k = 0; k < kSampledRows; ++k) sampledRow[k * (n - 1) / (kSampledRows - 1)] = true;
  std::int64_t fullRow = n / 3;
  while (sampledRow[fullRow]) ++fullRow;
  std::vector<std::tuple<std::int64_t, std::int64_t, double>> entries;
  for (std::int64_t r = 0; r < n; ++r) {
    if (r != fullRow) entries.emplace_back(r, r, 2.0);
  }
  for (std::int64_t c = 0; c < n; ++c) entries.emplace_back(fullRow, c, 1.0);
  const io::HostMatrix identityAndFullRow = test::fromTriplets(n, n, std::move(entries));

  const auto trueDiagonals = [](const io::HostMatrix& m) {
    std::vector<bool> seen(static_cast<std::size_t>(m.numRows + m.numCols), false);
    std::int64_t count = 0;
    for (std::int64_t k = 0; k < m.nnz(); ++k) {
      const auto d = static_cast<std::size_t>(m.col[k] - m.row[k] + m.numRows);
      if (!seen[d]) seen[d] = true, ++count;
    }
    return count;
  };
  const io::HostMatrix matrices[] = {identityAndFullRow, banded(3000, 7), test::powerLawWithLongRow(),
                                     test::randomMatrix(5000, 5000, 0, 30, 3)};
  for (const io::HostMatrix& m : matrices) {
    const MatrixFeatures f = featuresOf(m);
    const std::int64_t slots = estimatedSlots(Kernel::Dia, f);
    BOOST_TEST(slots >= f.rows * f.maxRowLength);
    BOOST_TEST(slots <= f.rows * trueDiagonals(m));
  }

  const MatrixFeatures f = featuresOf(identityAndFullRow);
  BOOST_TEST_REQUIRE(f.maxRowLength == n);
  BOOST_TEST(f.sampledDiagonals < 8);  // the sample missed the full row, as intended
  for (const PerformanceProfile& p : {builtinProfile("cuda"), builtinProfile("openmp")}) {
    for (const Mode mode : {Mode::Fast, Mode::Deterministic, Mode::Accurate}) {
      ChoiceConstraints c;
      c.mode = mode;
      const KernelChoice choice = chooseKernel(f, p, c);
      const auto dia = std::find_if(choice.ranking.begin(), choice.ranking.end(),
                                    [](const KernelEstimate& e) { return e.kernel == Kernel::Dia; });
      BOOST_TEST_REQUIRE((dia != choice.ranking.end()));
      BOOST_TEST(dia->excluded.find("slots per nonzero") != std::string::npos, dia->excluded);
      BOOST_TEST((choice.kernel != Kernel::Dia));
    }
  }
}

BOOST_AUTO_TEST_CASE(a_format_refused_after_the_estimate_gives_way_to_the_next) {
  // A tridiagonal matrix with one far entry in each of 2,000 rows the sample skips: the sample
  // sees 3 diagonals, the matrix holds 2,003, so DIA's padding is estimated within the limit and
  // found far past it when DIA is built.
  constexpr std::int64_t n = 40000;
  std::vector<bool> sampledRow(n, false);
  for (std::int64_t k = 0; k < kSampledRows; ++k) sampledRow[k * (n - 1) / (kSampledRows - 1)] = true;
  std::vector<std::tuple<std::int64_t, std::int64_t, double>> entries;
  std::int64_t far = 0;
  for (std::int64_t r = 0; r < n; ++r) {
    for (std::int64_t c = std::max<std::int64_t>(0, r - 1); c <= std::min(n - 1, r + 1); ++c) entries.emplace_back(r, c, 1.0);
    if (!sampledRow[r] && r < n / 2 && far < 2000) entries.emplace_back(r, r + 100 + far++, 0.5);
  }
  const io::HostMatrix host = test::fromTriplets(n, n, std::move(entries));
  PerformanceProfile p = builtinProfile("openmp");
  const std::size_t dia = kernelIndex(Kernel::Dia);
  for (auto& mode : p.product[dia]) mode.fill(0.0);  // DIA predicted free: ranked first
  p.build[static_cast<std::size_t>(FormatId::Dia)].fill(0.0);
  using Csr = CsrMatrix<double, std::int32_t, std::int32_t, HostExec::device_type>;
  const Csr csr = csrFromHost<Csr>(host);
  OperatorOptions options;
  options.profile = std::make_shared<const PerformanceProfile>(p);
  const SpmvOperator<double, std::int32_t, std::int32_t, HostExec> op(HostExec(), csr, options);
  BOOST_TEST_REQUIRE(op.choice() != nullptr);
  BOOST_TEST((op.choice()->ranking.front().kernel == Kernel::Dia));
  BOOST_TEST((op.kernel().kernel != Kernel::Dia));
  BOOST_TEST(op.choice()->reason.find("dia refused") != std::string::npos, op.choice()->reason);
}
