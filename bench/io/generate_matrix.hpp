#pragma once
// The matrices araios-io-bench writes and reads: seeded, about ten entries per row at random
// columns, values uniform in [-1, 1) (their shortest decimal is 17 to 20 characters), so that
// a line takes 31 to 36 bytes, like most real-valued SuiteSparse files.
#include <araios/io/matrix_market.hpp>

#include <cstdint>

namespace araios::bench_io {

/// About `entries` entries in entries / 10 rows (square), sorted by row and column.
io::HostMatrix generateMatrix(std::int64_t entries, std::uint64_t seed);

}  // namespace araios::bench_io
