#include "describe_generators.hpp"

#include "generators/catalog.hpp"
#include "progress.hpp"

#include <araios/types.hpp>

#include <fmt/core.h>

#include <algorithm>
#include <cmath>
#include <ctime>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace araios::bench {
namespace {

std::string integerStat(const gen::Stat& s) { return s.known ? groupedDigits(std::llround(s.value)) : "—"; }
std::string realStat(const gen::Stat& s) { return s.known ? fmt::format("{:.2f}", s.value) : "—"; }

const char* familyText(const std::string& family) {
  static const std::map<std::string, const char*> text = {
      {"fem-like",
       "Row lengths drawn from a clipped normal (std/mean < 0.6) or clipped log-normal, fitted to the target's "
       "mean and std over the rows actually drawn, then balanced to the exact nnz with one row at the minimum and "
       "one at the maximum (generators/row_lengths.hpp). Columns: the degrees of freedom of a structured node grid "
       "(2D or 3D, d dofs per node), each row coupling to its own node and to random nodes of a box around it, "
       "taking all d columns of each, a quarter of the nodes shifted by one; trimmed or topped up to the row "
       "length (generators/fem_like.hpp). Banded, with a few bands at +-side and +-side^2 nodes."},
      {"chung-lu",
       "Chung-Lu power-law model (generators/chung_lu.hpp): vertex weights proportional to (i + i0)^(-1/(gamma-1)), "
       "i0 set so the largest expected degree is sqrt(nnz), vertex labels permuted. Graphs known by size only: "
       "edges drawn source and target by weight, self loops and repeats dropped and redrawn until exactly nnz "
       "remain (empty rows appear, as in real graphs). Matrices known by row statistics: row lengths fitted as for "
       "fem-like, columns drawn by weight. A share of the columns is drawn near the diagonal for web crawls."},
      {"rmat",
       "R-MAT (generators/rmat.hpp): a,b,c,d = 0.57, 0.19, 0.19, 0.05, per-level noise 0.1 (Seshadhri, Pinar & "
       "Kolda's noisy Kronecker model), vertex labels permuted as in Graph500, repeated edges removed (so nnz is "
       "below edge factor x 2^scale), self loops kept."},
      {"stencil", "Structured-grid stencils with Dirichlet boundaries (generators/stencils.hpp); no randomness."},
      {"random-uniform", "Each row holds exactly k distinct columns drawn uniformly (generators/random_uniform.hpp)."},
  };
  const auto it = text.find(family);
  return it == text.end() ? "" : it->second;
}

}  // namespace

void describeGenerators(const BenchOptions& options) {
  struct Described {
    gen::CatalogEntry entry;
    std::string suite;
  };
  std::vector<Described> all;
  std::set<std::string> seen;
  for (auto& e : gen::fullCatalog())
    if (matchesAny(e.name, options.matrices) && seen.insert(e.name).second) all.push_back({e, "full"});
  for (auto& e : gen::quickCatalog())
    if (matchesAny(e.name, options.matrices) && seen.insert(e.name).second) all.push_back({e, "quick"});

  std::vector<std::string> families;
  for (const auto& d : all)
    if (std::find(families.begin(), families.end(), d.entry.family) == families.end()) families.push_back(d.entry.family);

  fmt::print("# Generated matrices: targets and what the generators produced\n\n");
  fmt::print("Produced by `araios-bench --describe-generators` (base seed {}; every entry seeds itself from its name, "
             "so the matrices are the same on every machine). Values of the non-stencil matrices are uniform in "
             "[-1, 1). Two lines per matrix: the target, then what the generator produced. \"—\" marks a statistic "
             "the source does not give. Statistics are over rows: min/max/mean/std of the row lengths (std is the "
             "population std); empty = rows with no entry; band = max |i-j|; dist = mean |i-j| / n (0 for a "
             "diagonal, about 1/3 for uniform columns); gen s = processor seconds the generation took on the "
             "machine that printed this table (one core).\n\n",
             options.seed);
  fmt::print("Targets: BRCP paper, Table 2 for cant to cage14 (cant's \"7/33\" read as mean 33, std 7: nnz/rows is "
             "32.6); the benchmark plan's sizes for the PageRank graphs (no row statistics given), the stencils, uniform "
             "random and R-MAT. Matrices named `-divN` are the quick suite's: 1/N of the rows and nnz, same row "
             "statistics. Model parameters no source fixes (grid dimension, dofs per node, exponents, locality) are "
             "assumptions, listed per matrix.\n");
  for (const auto& family : families) {
    fmt::print("\n## {}\n\n{}\n\n", family, familyText(family));
    fmt::print("| matrix | suite | class | model | | rows | nnz | min | max | mean | std | empty | band | dist | gen s |\n");
    fmt::print("|---|---|---|---|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|\n");
    for (const auto& d : all) {
      if (d.entry.family != family) continue;
      const auto& e = d.entry;
      fmt::print(stderr, "generating {} ...\n", e.name);
      // Processor time, not wall time: on a shared machine it still says what generation costs.
      const std::clock_t start = std::clock();
      const io::HostMatrix m = e.make(gen::seedFromName(e.name.c_str(), options.seed));
      const double seconds = static_cast<double>(std::clock() - start) / CLOCKS_PER_SEC;
      const gen::ProducedStats p = gen::producedStats(m);
      const gen::Target& t = e.target;
      fmt::print("| {} | {} | {} | {} | target | {} | {} | {} | {} | {} | {} | | | | |\n", e.name, d.suite,
                 e.matrixClass, e.model, groupedDigits(t.rows), integerStat(t.nnz), integerStat(t.minRowLength),
                 integerStat(t.maxRowLength), realStat(t.meanRowLength), realStat(t.stdRowLength));
      fmt::print("| | | | {} | produced | {} | {} | {} | {} | {:.2f} | {:.2f} | {} | {} | {:.4f} | {:.1f} |\n",
                 e.targetSource, groupedDigits(p.rows), groupedDigits(p.nnz), groupedDigits(p.minRowLength),
                 groupedDigits(p.maxRowLength), p.meanRowLength, p.stdRowLength, groupedDigits(p.emptyRows),
                 groupedDigits(p.bandwidth), p.meanDistanceFraction, seconds);
      std::fflush(stdout);
    }
  }
}

}  // namespace araios::bench
