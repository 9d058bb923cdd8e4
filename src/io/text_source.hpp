#pragma once
// Private to the Matrix Market I/O: loads a whole file into memory.
#include <string>

namespace araios::io::detail {

/// Returns the whole content of `path`. Content that starts with the gzip magic bytes is
/// decompressed, whatever the file is called, so `.mtx` files that are really gzip and `.mtx.gz`
/// files that are really plain text both work. Throws araios::InputError naming the file when it
/// cannot be opened, read or decompressed.
std::string readTextFile(const std::string& path);

}  // namespace araios::io::detail
