#pragma once
// `araios-bench --describe-generators`: generates every catalog matrix (full suite, then the
// quick suite's reduced ones) and prints, as Markdown, what each generator does and the
// statistics each matrix got beside its target. bench/GENERATORS.md is this output.
#include "bench_options.hpp"

namespace araios::bench {

void describeGenerators(const BenchOptions& options);

}  // namespace araios::bench
