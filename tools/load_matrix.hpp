#pragma once
// Reads the matrix a command works on, telling the user (on stderr) what was read and how long
// it took, and what the reader dropped or merged.
#include <araios/io/matrix_market.hpp>

#include <string>

namespace araios::cli {

/// `threads` parse the file (ReadOptions::threads; 0: every core).
io::HostMatrix loadMatrix(const std::string& path, bool dropInvalid, bool quiet, int threads = 0);

}  // namespace araios::cli
