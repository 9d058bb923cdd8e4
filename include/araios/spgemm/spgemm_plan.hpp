#pragma once
// The state of one product C = A*B: C's pattern, the row lists by method, and the memory
// bookkeeping, built by the symbolic phase and used by every numeric phase.
//
// Phases, each over chunks of rows (one chunk unless the memory limit asks for more):
//   symbolic count  row info (products, column span) -> method per row -> row lists -> each
//                   row's distinct columns counted into 64-bit offsets;
//   (the offsets)   scanned; nnz(C) checked against Offset; C's arrays allocated;
//   symbolic fill   the same rows write their sorted columns;
//   numeric         the row lists by numeric method (from C's row lengths) -> values; in
//                   Accurate mode an expansion per entry of the chunk, then the exact pass.
// With one chunk, the row info and the numeric row lists are kept from one phase to the next,
// so a repeated numeric phase only sums.
#include <araios/backends/backends.hpp>
#include <araios/detail/device_memory.hpp>
#include <araios/error.hpp>
#include <araios/mode.hpp>
#include <araios/primitives/fp.hpp>
#include <araios/types.hpp>
#include <araios/formats/csr/csr.hpp>
#include <araios/spgemm/accurate_entries.hpp>
#include <araios/spgemm/numeric_rows.hpp>
#include <araios/spgemm/row_info.hpp>
#include <araios/spgemm/spgemm_options.hpp>
#include <araios/spgemm/spgemm_tuning.hpp>
#include <araios/spgemm/spgemm_views.hpp>
#include <araios/spgemm/symbolic_rows.hpp>
#include <araios/spgemm/tiny_rows.hpp>

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <array>
#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace araios::Impl {

template <class Value, class Ordinal, class Offset, class Device>
class SpgemmPlan {
 public:
  using ExecSpace = typename Device::execution_space;
  using Csr = CsrMatrix<Value, Ordinal, Offset, Device>;
  using Views = SpgemmViews<Value, Ordinal, Offset, Device>;
  static constexpr int kMethods = 7;

  /// The rows of one chunk: their info and their lists by method.
  struct Chunk {
    Ordinal r0 = 0, r1 = 0;
    SpgemmRowInfo<Device> info;
    Kokkos::View<Ordinal*, Device> order;  ///< the rows grouped by method
    std::array<std::int64_t, kMethods> begin{}, count{};
    Kokkos::View<const Ordinal*, Device> rows(int method) const {
      return Kokkos::subview(order, Kokkos::make_pair(begin[method], begin[method] + count[method]));
    }
  };

  /// Workspace bytes per row of a chunk: the info (3 x 8), the method, the list.
  static constexpr std::int64_t kRowBytes = 3 * 8 + 1 + sizeof(Ordinal);
  /// Accurate mode: an expansion per entry of C in the chunk.
  static constexpr std::int64_t kExpansionBytes = sizeof(ExpansionRowSum<Value>);

  SpgemmPlan(const ExecSpace& exec, const Csr& a, const Csr& b, const SpgemmOptions& options)
      : options_(options), progress_(options.progress), tuning_(tuningFor()) {
    Kokkos::Timer timer;
    checkInputs(exec, a, b);
    stats_ = SpgemmStats{};
    stats_.rows = a.numRows;
    stats_.cols = b.numCols;
    c_.numRows = a.numRows;
    c_.numCols = b.numCols;
    limit_ = options.memoryLimitBytes >= 0 ? options.memoryLimitBytes : freeBytes(exec);
    limitIsFree_ = options.memoryLimitBytes < 0;
    refuseAllocationFailure(exec, what(), [&] { symbolic(exec, a, b); });
    exec.fence();
    stats_.symbolicSeconds = timer.seconds();
  }

  void numeric(const ExecSpace& exec, const Csr& a, const Csr& b) {
    Kokkos::Timer timer;
    if (a.numRows != c_.numRows || b.numCols != c_.numCols || a.numCols != b.numRows || a.nnz() != aNnz_ ||
        b.nnz() != bNnz_) {
      throw InputError("SpGEMM numeric phase: A is " + shape(a) + " and B is " + shape(b) +
                       ", but the product was set up for A of " + groupedDigits(c_.numRows) + " rows and " +
                       groupedDigits(aNnz_) + " entries, B of " + groupedDigits(c_.numCols) + " columns and " +
                       groupedDigits(bNnz_) + " entries; expected matrices with the patterns of the symbolic phase");
    }
    refuseAllocationFailure(exec, what(), [&] { numericPhase(exec, a, b); });
    exec.fence();
    stats_.numericSeconds = timer.seconds();
  }

  const Csr& result() const { return c_; }
  const SpgemmStats& stats() const { return stats_; }
  const SpgemmOptions& options() const { return options_; }

  // The steps below are public only because CUDA's device lambdas may not live in private
  // member functions; the class is an implementation detail of SpgemmHandle.
  static SpgemmTuning tuningFor() {
    SpgemmTuning t = spgemmTuning<ExecSpace>();
    if (!kOneThreadTeams<ExecSpace> && sizeof(Ordinal) == 8) {
      // 64-bit keys: half as many fit the same on-chip memory.
      t.hashSmallProducts /= 2;
      t.hashLargeProducts /= 2;
    }
    return t;
  }

  static std::string shape(const Csr& m) { return groupedDigits(m.numRows) + " x " + groupedDigits(m.numCols); }

  std::string what() const {
    return "computing C = A*B (" + groupedDigits(c_.numRows) + " x " + groupedDigits(c_.numCols) + ")";
  }

  void checkInputs(const ExecSpace& exec, const Csr& a, const Csr& b) {
    if (a.numCols != b.numRows) {
      throw InputError("SpGEMM: A is " + shape(a) + " and B is " + shape(b) +
                       "; expected A's column count to equal B's row count");
    }
    if (static_cast<std::int64_t>(a.rowPtr.extent(0)) != static_cast<std::int64_t>(a.numRows) + 1 ||
        static_cast<std::int64_t>(b.rowPtr.extent(0)) != static_cast<std::int64_t>(b.numRows) + 1) {
      throw InputError("SpGEMM: a CSR matrix's row offsets must have one entry more than its rows");
    }
    aNnz_ = a.nnz();
    bNnz_ = b.nnz();
    aPtr_ = a.rowPtr;
    const std::int64_t badA = firstBadRow<Ordinal, Offset>(exec, a.rowPtr, a.colIdx, a.numRows, a.numCols, false);
    if (badA >= 0) {
      throw InputError("SpGEMM: row " + std::to_string(badA) + " of A has a column outside [0, " +
                       std::to_string(a.numCols) + "); expected column indices within the matrix");
    }
    const std::int64_t badB = firstBadRow<Ordinal, Offset>(exec, b.rowPtr, b.colIdx, b.numRows, b.numCols, true);
    if (badB >= 0) {
      throw InputError("SpGEMM: row " + std::to_string(badB) + " of B has columns that are not strictly increasing (" +
                       "unsorted or repeated) or lie outside [0, " + std::to_string(b.numCols) +
                       "); expected each row of B sorted by column without duplicates, as Araios's CSR builders give");
    }
  }

  std::string limitText() const {
    return limitIsFree_ ? (limit_ < 0 ? std::string("the free memory is unknown")
                                      : groupedDigits(limit_) + " bytes are free on " + ExecSpace::name())
                        : "the memory limit is " + groupedDigits(limit_) + " bytes";
  }

  /// Rows per chunk when `fixedBytes` are held besides; refuses when not even one row fits.
  Ordinal chunkRows(std::int64_t fixedBytes, const char* phase) const {
    const Ordinal rows = c_.numRows;
    if (limit_ < 0) return std::max<Ordinal>(rows, 1);
    const std::int64_t room = limit_ - fixedBytes;
    if (room < kRowBytes) {
      throw OutOfMemoryError(what() + ", " + phase + ": needs at least " + groupedDigits(fixedBytes + kRowBytes) +
                                 " bytes (" + groupedDigits(fixedBytes) + " for C's arrays and offsets, " +
                                 groupedDigits(kRowBytes) + " per row of workspace); " + limitText() +
                                 ". Expected a larger limit, or a product with fewer entries",
                             fixedBytes + kRowBytes, limit_);
    }
    const std::int64_t perChunk = std::min<std::int64_t>(room / kRowBytes, std::int64_t(1) << 30);
    return static_cast<Ordinal>(std::max<std::int64_t>(1, std::min<std::int64_t>(rows, perChunk)));
  }

  void noteBytes(std::int64_t bytes) { stats_.peakBytes = std::max(stats_.peakBytes, bytes); }

  void report(const char* phase, Ordinal rowsDone, int chunk, int chunks) const {
    if (!progress_) return;
    SpgemmProgress p;
    p.phase = phase;
    p.rowsDone = rowsDone;
    p.rows = c_.numRows;
    p.chunk = chunk;
    p.chunks = chunks;
    progress_(p);
  }

  // ---- chunks -------------------------------------------------------------------------

  void rowInfo(const ExecSpace& exec, const Views& v, Chunk& ch) const {
    const std::int64_t n = ch.r1 - ch.r0;
    ch.info.products = Kokkos::View<std::int64_t*, Device>(Kokkos::view_alloc(Kokkos::WithoutInitializing, "araios::spgemm::products"), n);
    ch.info.lo = Kokkos::View<std::int64_t*, Device>(Kokkos::view_alloc(Kokkos::WithoutInitializing, "araios::spgemm::lo"), n);
    ch.info.hi = Kokkos::View<std::int64_t*, Device>(Kokkos::view_alloc(Kokkos::WithoutInitializing, "araios::spgemm::hi"), n);
    if (n == 0) return;
    Kokkos::TeamPolicy<ExecSpace> policy(exec, static_cast<int>(n), kOneThreadTeams<ExecSpace> ? 1 : 32);
    Kokkos::parallel_for("araios::spgemm::rowInfo", policy, RowInfoPass<Value, Ordinal, Offset, ExecSpace>{v, ch.info, ch.r0});
  }

  /// Groups the chunk's rows by method(local row) into ch.order.
  template <class MethodOf>
  void groupRows(const ExecSpace& exec, Chunk& ch, const MethodOf& methodOf) const {
    const std::int64_t n = ch.r1 - ch.r0;
    ch.order = Kokkos::View<Ordinal*, Device>();  // released before the new lists are made
    Kokkos::View<std::uint8_t*, Device> method(Kokkos::view_alloc(Kokkos::WithoutInitializing, "araios::spgemm::method"), n);
    Kokkos::parallel_for(
        "araios::spgemm::method", Kokkos::RangePolicy<ExecSpace>(exec, 0, n),
        KOKKOS_LAMBDA(const std::int64_t l) { method(l) = methodOf(l); });
    ch.order = Kokkos::View<Ordinal*, Device>(Kokkos::view_alloc(Kokkos::WithoutInitializing, "araios::spgemm::rows"), n);
    std::int64_t begin = 0;
    const Ordinal r0 = ch.r0;
    auto order = ch.order;
    for (int m = 0; m < kMethods; ++m) {
      std::int64_t count = 0;
      Kokkos::parallel_reduce(
          "araios::spgemm::countMethod", Kokkos::RangePolicy<ExecSpace>(exec, 0, n),
          KOKKOS_LAMBDA(const std::int64_t l, std::int64_t& sum) { sum += method(l) == m ? 1 : 0; }, count);
      ch.begin[m] = begin;
      ch.count[m] = count;
      if (count > 0 && m != 0) {  // method 0: rows with nothing to do
        Kokkos::parallel_scan(
            "araios::spgemm::listMethod", Kokkos::RangePolicy<ExecSpace>(exec, 0, n),
            KOKKOS_LAMBDA(const std::int64_t l, std::int64_t& before, const bool last) {
              if (method(l) != m) return;
              if (last) order(begin + before) = r0 + static_cast<Ordinal>(l);
              before += 1;
            });
      }
      begin += count;
    }
  }

  template <class Functor>
  static void launch(const ExecSpace& exec, const char* label, const Kokkos::View<const Ordinal*, Device>& rows,
                     int teamSize, std::size_t scratch, const Functor& f) {
    if (rows.extent(0) == 0) return;
    Kokkos::TeamPolicy<ExecSpace> policy(exec, static_cast<int>(rows.extent(0)), teamSize);
    if (scratch > 0) policy.set_scratch_size(0, Kokkos::PerTeam(scratch));
    Kokkos::parallel_for(label, policy, f);
  }

  template <int Method, bool Fill>
  void symbolicLaunch(const ExecSpace& exec, const Views& v, const Chunk& ch, std::int64_t capacity,
                      const Kokkos::View<std::int64_t*, Device>& counts) const {
    using F = SymbolicRows<Value, Ordinal, Offset, ExecSpace, Method, Fill>;
    const auto rows = ch.rows(Method);
    launch(exec, Fill ? "araios::spgemm::fill" : "araios::spgemm::count", rows,
           tuning_.teamSize(static_cast<SpgemmSymbolicMethod>(Method)), F::scratchBytes(capacity),
           F{v, rows, ch.info, ch.r0, counts, capacity});
  }

  template <bool Fill>
  void symbolicRows(const ExecSpace& exec, const Views& v, const Chunk& ch, const Kokkos::View<std::int64_t*, Device>& counts) const {
    const auto& t = tuning_;
    symbolicLaunch<kBitmapSmall, Fill>(exec, v, ch, roundUp32(t.bitmapSmallBits), counts);
    symbolicLaunch<kBitmapLarge, Fill>(exec, v, ch, roundUp32(t.bitmapLargeBits), counts);
    symbolicLaunch<kHashSmall, Fill>(exec, v, ch, nextPowerOfTwo(2 * t.hashSmallProducts), counts);
    symbolicLaunch<kHashLarge, Fill>(exec, v, ch, nextPowerOfTwo(2 * t.hashLargeProducts), counts);
    symbolicLaunch<kWindowed, Fill>(exec, v, ch, roundUp32(t.windowBits), counts);
    const auto tiny = ch.rows(kSymbolicTiny);
    if (tiny.extent(0) > 0) {
      Kokkos::parallel_for(Fill ? "araios::spgemm::fillTiny" : "araios::spgemm::countTiny",
                           Kokkos::RangePolicy<ExecSpace>(exec, 0, tiny.extent(0)),
                           TinySymbolicRows<Value, Ordinal, Offset, ExecSpace, Fill>{v, tiny, counts});
    }
  }

  static std::int64_t roundUp32(std::int64_t bits) { return (bits + 31) / 32 * 32; }

  void groupSymbolic(const ExecSpace& exec, Chunk& ch) const {
    const auto info = ch.info;
    const SpgemmTuning t = tuning_;
    const auto aPtr = aPtr_;
    const Ordinal r0 = ch.r0;
    groupRows(exec, ch, KOKKOS_LAMBDA(const std::int64_t l) -> std::uint8_t {
      const std::int64_t aLength = static_cast<std::int64_t>(aPtr(r0 + l + 1) - aPtr(r0 + l));
      return symbolicMethod(t, info.products(l), info.hi(l) - info.lo(l), aLength);
    });
  }

  void groupNumeric(const ExecSpace& exec, Chunk& ch) const {
    const auto info = ch.info;
    const SpgemmTuning t = tuning_;
    const auto cPtr = c_.rowPtr;
    const Ordinal r0 = ch.r0;
    groupRows(exec, ch, KOKKOS_LAMBDA(const std::int64_t l) -> std::uint8_t {
      const std::int64_t entries = static_cast<std::int64_t>(cPtr(r0 + l + 1) - cPtr(r0 + l));
      return numericMethod(t, info.products(l), entries, info.hi(l) - info.lo(l));
    });
  }

  /// Total and largest products of a chunk, added to the stats.
  void countProducts(const ExecSpace& exec, const Chunk& ch) {
    const auto products = ch.info.products;
    std::int64_t total = 0, largest = 0;
    Kokkos::parallel_reduce(
        "araios::spgemm::products", Kokkos::RangePolicy<ExecSpace>(exec, 0, ch.r1 - ch.r0),
        KOKKOS_LAMBDA(const std::int64_t l, std::int64_t& sum) { sum += products(l); }, total);
    Kokkos::parallel_reduce(
        "araios::spgemm::maxProducts", Kokkos::RangePolicy<ExecSpace>(exec, 0, ch.r1 - ch.r0),
        KOKKOS_LAMBDA(const std::int64_t l, std::int64_t& most) {
          if (products(l) > most) most = products(l);
        },
        Kokkos::Max<std::int64_t>(largest));
    stats_.products += total;
    stats_.maxRowProducts = std::max(stats_.maxRowProducts, largest);
  }

  // ---- symbolic -----------------------------------------------------------------------

  void symbolic(const ExecSpace& exec, const Csr& a, const Csr& b) {
    const Ordinal rows = a.numRows;
    const std::int64_t offsetsBytes = (static_cast<std::int64_t>(rows) + 1) * 8;
    // Counting: 64-bit counts, so that a total past Offset is seen rather than wrapped.
    const Ordinal countChunk = chunkRows(offsetsBytes, "counting C's entries");
    const int countChunks = static_cast<int>((static_cast<std::int64_t>(rows) + countChunk - 1) / countChunk);
    Kokkos::View<std::int64_t*, Device> counts("araios::spgemm::counts", static_cast<std::int64_t>(rows) + 1);
    Views v(a, b, c_);
    Chunk kept;  // the one chunk's info and lists, kept for filling when they fit beside C
    bool haveKept = false;
    for (int k = 0; k < std::max(countChunks, 1) && rows > 0; ++k) {
      Chunk ch;
      ch.r0 = static_cast<Ordinal>(static_cast<std::int64_t>(k) * countChunk);
      ch.r1 = static_cast<Ordinal>(std::min<std::int64_t>(rows, static_cast<std::int64_t>(ch.r0) + countChunk));
      rowInfo(exec, v, ch);
      countProducts(exec, ch);
      groupSymbolic(exec, ch);
      symbolicRows<false>(exec, v, ch, counts);
      noteBytes(offsetsBytes + (ch.r1 - ch.r0) * kRowBytes);
      report("symbolic", ch.r1, k, countChunks);
      if (countChunks == 1) {
        kept = ch;
        haveKept = true;
      }
    }
    Kokkos::parallel_scan(
        "araios::spgemm::offsets", Kokkos::RangePolicy<ExecSpace>(exec, 0, static_cast<std::int64_t>(rows) + 1),
        KOKKOS_LAMBDA(const std::int64_t r, std::int64_t& before, const bool last) {
          const std::int64_t n = counts(r);
          before += n;
          if (last) counts(r) = before;
        });
    std::int64_t nnz = 0;
    exec.fence();
    Kokkos::deep_copy(nnz, Kokkos::subview(counts, static_cast<std::int64_t>(rows)));
    checkedOffsetCount<Offset>(nnz, "C = A*B (" + groupedDigits(rows) + " x " + groupedDigits(c_.numCols) + ")");
    stats_.nnz = nnz;
    cBytes_ = (static_cast<std::int64_t>(rows) + 1) * static_cast<std::int64_t>(sizeof(Offset)) +
              nnz * static_cast<std::int64_t>(sizeof(Ordinal) + sizeof(Value));
    // C, and the 64-bit offsets until they are narrowed (and the kept chunk, when it fits too).
    const std::int64_t keptBytes = static_cast<std::int64_t>(rows) * kRowBytes;
    if (haveKept && limit_ >= 0 && cBytes_ + offsetsBytes + keptBytes > limit_) {
      kept = Chunk();
      haveKept = false;
    }
    chunkRows(cBytes_ + offsetsBytes + (haveKept ? keptBytes : 0), "allocating C");  // refuses a C that does not fit
    noteBytes(cBytes_ + offsetsBytes + (haveKept ? keptBytes : 0));
    c_.rowPtr = Kokkos::View<Offset*, Device>(Kokkos::view_alloc(Kokkos::WithoutInitializing, "araios::spgemm::C::rowPtr"),
                                              static_cast<std::int64_t>(rows) + 1);
    c_.colIdx = Kokkos::View<Ordinal*, Device>(Kokkos::view_alloc(Kokkos::WithoutInitializing, "araios::spgemm::C::colIdx"), nnz);
    c_.values = Kokkos::View<Value*, Device>(Kokkos::view_alloc(Kokkos::WithoutInitializing, "araios::spgemm::C::values"), nnz);
    const auto rowPtr = c_.rowPtr;
    Kokkos::parallel_for(
        "araios::spgemm::narrowOffsets", Kokkos::RangePolicy<ExecSpace>(exec, 0, static_cast<std::int64_t>(rows) + 1),
        KOKKOS_LAMBDA(const std::int64_t r) { rowPtr(r) = static_cast<Offset>(counts(r)); });
    exec.fence();
    counts = Kokkos::View<std::int64_t*, Device>();
    // Filling: C is held, the chunks' workspace besides.
    v = Views(a, b, c_);
    const Ordinal chunk = chunkRows(cBytes_, "filling C's columns");
    const int chunks = static_cast<int>((static_cast<std::int64_t>(rows) + chunk - 1) / chunk);
    stats_.chunks = std::max(countChunks, chunks);
    if (chunks > 1) {
      kept = Chunk();
      haveKept = false;
    }
    for (int k = 0; k < chunks; ++k) {
      Chunk ch;
      if (haveKept) {
        ch = std::move(kept);
        kept = Chunk();
      } else {
        ch.r0 = static_cast<Ordinal>(static_cast<std::int64_t>(k) * chunk);
        ch.r1 = static_cast<Ordinal>(std::min<std::int64_t>(rows, static_cast<std::int64_t>(ch.r0) + chunk));
        rowInfo(exec, v, ch);
        groupSymbolic(exec, ch);
      }
      symbolicRows<true>(exec, v, ch, Kokkos::View<std::int64_t*, Device>());
      noteBytes(cBytes_ + (ch.r1 - ch.r0) * kRowBytes);
      report("symbolic", ch.r1, k, chunks);
      if (chunks == 1) {
        // Kept for the numeric phases: the row info and the rows by numeric method.
        groupNumeric(exec, ch);
        numericChunk_ = ch;
        haveNumericChunk_ = true;
      }
    }
    stats_.workspaceBytes = stats_.peakBytes - cBytes_;
  }

  // ---- numeric ------------------------------------------------------------------------

  template <int Method, Mode M>
  void numericLaunch(const ExecSpace& exec, const Views& v, const Chunk& ch, std::int64_t capacity,
                     const Kokkos::View<ExpansionRowSum<Value>*, Device>& expansions, Offset cBase) const {
    // Accurate mode sums every row in global memory (one expansion per entry), with the
    // team size of the row's method.
    constexpr int kernel = M == Mode::Accurate ? int(kGlobal) : Method;
    using F = NumericRows<Value, Ordinal, Offset, ExecSpace, kernel, M>;
    const auto rows = ch.rows(Method);
    const int teamSize = tuning_.teamSize(static_cast<SpgemmNumericMethod>(Method));
    launch(exec, "araios::spgemm::numeric", rows, teamSize, F::scratchBytes(capacity, teamSize),
           F{v, rows, ch.info, ch.r0, capacity, expansions, cBase});
  }

  template <Mode M>
  void numericRows(const ExecSpace& exec, const Views& v, const Chunk& ch,
                   const Kokkos::View<ExpansionRowSum<Value>*, Device>& expansions, Offset cBase) const {
    const auto& t = tuning_;
    numericLaunch<kDenseSmall, M>(exec, v, ch, t.denseSmallValues, expansions, cBase);
    numericLaunch<kDenseLarge, M>(exec, v, ch, t.denseLargeValues, expansions, cBase);
    numericLaunch<kSharedSmall, M>(exec, v, ch, t.sharedSmallEntries, expansions, cBase);
    numericLaunch<kSharedLarge, M>(exec, v, ch, t.sharedLargeEntries, expansions, cBase);
    numericLaunch<kGlobal, M>(exec, v, ch, 0, expansions, cBase);
    const auto tiny = ch.rows(kNumericTiny);
    if (tiny.extent(0) == 0) return;
    if constexpr (M == Mode::Accurate) {
      numericLaunch<kNumericTiny, M>(exec, v, ch, 0, expansions, cBase);  // the team kernel
    } else {
      Kokkos::parallel_for("araios::spgemm::numericTiny", Kokkos::RangePolicy<ExecSpace>(exec, 0, tiny.extent(0)),
                           TinyNumericRows<Value, Ordinal, Offset, ExecSpace>{v, tiny});
    }
  }

  /// Accurate mode: the entries cBase..cEnd of C left NaN are summed again exactly.
  void exactPass(const ExecSpace& exec, const Views& v, const Chunk& ch, Offset cBase, Offset cEnd) {
    std::int64_t recomputed = 0;
    Kokkos::parallel_reduce("araios::spgemm::exactEntries", Kokkos::RangePolicy<ExecSpace>(exec, 0, cEnd - cBase),
                            ExactEntries<Value, Ordinal, Offset, ExecSpace>{v, ch.r0, ch.r1, cBase}, recomputed);
    stats_.accurateRowsRecomputed += recomputed;
  }

  void numericPhase(const ExecSpace& exec, const Csr& a, const Csr& b) {
    const Views v(a, b, c_);
    const Ordinal rows = c_.numRows;
    const Mode mode = options_.mode;
    stats_.accurateRowsRecomputed = 0;
    stats_.rowsDense = stats_.rowsShared = stats_.rowsGlobal = stats_.rowsTiny = 0;
    // Chunks: from the kept lists when they fit beside the expansions, else by rows (and, in
    // Accurate mode, by the expansions of their entries).
    // A chunk whose one row cannot hold its expansions (Accurate mode under a tight limit)
    // sends its entries straight to the exact pass: exactOnly.
    struct Range {
      Ordinal r0, r1;
      bool exactOnly;
    };
    std::vector<Range> ranges;
    const std::int64_t rowsBytes = static_cast<std::int64_t>(rows) * kRowBytes;
    const std::int64_t accurateBytes = mode == Mode::Accurate ? stats_.nnz * kExpansionBytes : 0;
    const bool oneChunk = limit_ < 0 || cBytes_ + rowsBytes + accurateBytes <= limit_;
    if (!oneChunk && haveNumericChunk_) {
      // The kept lists do not fit beside the chunks' workspace.
      numericChunk_ = Chunk();
      haveNumericChunk_ = false;
    }
    if (oneChunk) {
      ranges.push_back({0, rows, false});
    } else {
      // Accurate chunks are cut by their entries: C's row offsets on the host, read once.
      if (mode == Mode::Accurate && rowPtrHost_.extent(0) == 0) {
        rowPtrHost_ = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), c_.rowPtr);
      }
      const std::int64_t room = limit_ - cBytes_;
      Ordinal r = 0;
      while (r < rows) {
        Ordinal end = r;
        std::int64_t bytes = 0;
        while (end < rows) {
          const std::int64_t rowBytes =
              kRowBytes + (mode == Mode::Accurate ? static_cast<std::int64_t>(rowPtrHost_(end + 1) - rowPtrHost_(end)) * kExpansionBytes : 0);
          if (bytes + rowBytes > room) break;
          bytes += rowBytes;
          ++end;
        }
        if (end == r && mode != Mode::Accurate) {
          throw OutOfMemoryError(what() + ", numeric phase: needs " + groupedDigits(cBytes_ + kRowBytes) +
                                     " bytes with C; " + limitText() + ". Expected a larger limit",
                                 cBytes_ + kRowBytes, limit_);
        }
        if (end == r) {
          // Not even one row with its expansions: the row goes to the exact pass alone, which
          // needs no workspace (chunkRows has checked that C fits).
          ranges.push_back({r, static_cast<Ordinal>(r + 1), true});
          r = r + 1;
          continue;
        }
        ranges.push_back({r, end, false});
        r = end;
      }
    }
    // Accurate mode: the chunk's entries of C (its expansions are per entry), all of them in one
    // chunk, else from the host offsets the chunks were cut by.
    const auto entriesOf = [&](const Chunk& ch) {
      return oneChunk ? std::pair<Offset, Offset>(0, static_cast<Offset>(stats_.nnz))
                      : std::pair<Offset, Offset>(rowPtrHost_(ch.r0), rowPtrHost_(ch.r1));
    };
    stats_.chunks = std::max<int>(1, static_cast<int>(ranges.size()));
    const int chunks = static_cast<int>(ranges.size());
    for (int k = 0; k < chunks; ++k) {
      Chunk ch;
      ch.r0 = ranges[k].r0;
      ch.r1 = ranges[k].r1;
      if (ranges[k].exactOnly) {
        const auto [cBase, cEnd] = entriesOf(ch);
        Kokkos::deep_copy(exec, Kokkos::subview(c_.values, Kokkos::make_pair(cBase, cEnd)), fp::quietNaN<Value>());
        exactPass(exec, v, ch, cBase, cEnd);
        stats_.rowsGlobal += ch.r1 - ch.r0;
        noteBytes(cBytes_);
        report("numeric", ch.r1, k, chunks);
        continue;
      }
      if (oneChunk && haveNumericChunk_) {
        ch = numericChunk_;
      } else {
        rowInfo(exec, v, ch);
        groupNumeric(exec, ch);
      }
      stats_.rowsDense += ch.count[kDenseSmall] + ch.count[kDenseLarge];
      stats_.rowsShared += ch.count[kSharedSmall] + ch.count[kSharedLarge];
      stats_.rowsGlobal += ch.count[kGlobal];
      stats_.rowsTiny += ch.count[kNumericTiny];
      std::int64_t bytes = cBytes_ + (ch.r1 - ch.r0) * kRowBytes;
      if (mode == Mode::Accurate) {
        const auto [cBase, cEnd] = entriesOf(ch);
        Kokkos::View<ExpansionRowSum<Value>*, Device> expansions(
            Kokkos::view_alloc(Kokkos::WithoutInitializing, "araios::spgemm::expansions"), cEnd - cBase);
        bytes += static_cast<std::int64_t>(cEnd - cBase) * kExpansionBytes;
        numericRows<Mode::Accurate>(exec, v, ch, expansions, cBase);
        exactPass(exec, v, ch, cBase, cEnd);
      } else if (mode == Mode::Deterministic) {
        numericRows<Mode::Deterministic>(exec, v, ch, {}, 0);
      } else {
        numericRows<Mode::Fast>(exec, v, ch, {}, 0);
      }
      noteBytes(bytes);
      report("numeric", ch.r1, k, chunks);
    }
    stats_.workspaceBytes = stats_.peakBytes - cBytes_;
  }

  SpgemmOptions options_;
  SpgemmStats stats_;
  std::function<void(const SpgemmProgress&)> progress_;
  SpgemmTuning tuning_;
  Csr c_;
  std::int64_t limit_ = -1;
  bool limitIsFree_ = true;
  std::int64_t cBytes_ = 0;
  std::int64_t aNnz_ = 0, bNnz_ = 0;
  Kokkos::View<const Offset*, Device> aPtr_;  ///< A's row offsets, for the symbolic methods
  Chunk numericChunk_;
  bool haveNumericChunk_ = false;
  typename Kokkos::View<Offset*, Device>::HostMirror rowPtrHost_;
};

}  // namespace araios::Impl
