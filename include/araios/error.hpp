#pragma once
// Errors thrown by Araios. Every message says what happened and what was expected, so that a
// user who sees only the message can fix the input.
#include <cstdint>
#include <stdexcept>
#include <string>

namespace araios {

/// Base class of every exception Araios throws.
class Error : public std::runtime_error {
 public:
  explicit Error(const std::string& message) : std::runtime_error(message) {}
};

/// Bad input data: a malformed file, an index out of range, a size that does not fit.
class InputError : public Error {
 public:
  using Error::Error;
};

/// A Matrix Market file that cannot be read. The message has the form
/// "FILE:LINE: what is wrong; expected what".
class ParseError : public InputError {
 public:
  ParseError(const std::string& file, std::int64_t line, const std::string& problem,
             const std::string& expected)
      : InputError(file + ":" + std::to_string(line) + ": " + problem +
                   (expected.empty() ? std::string() : "; expected " + expected)),
        file_(file),
        line_(line) {}
  const std::string& file() const { return file_; }
  std::int64_t line() const { return line_; }

 private:
  std::string file_;
  std::int64_t line_;
};

/// A request that Araios does not support (a backend that is not enabled, a value type
/// that is not instantiated, ...).
class UnsupportedError : public Error {
 public:
  using Error::Error;
};

/// A failure reported by the Kokkos or CUDA runtime.
class RuntimeError : public Error {
 public:
  using Error::Error;
};

/// A conversion, product or solver whose arrays do not fit the memory of its execution space:
/// refused before allocating (or, when an allocation failed anyway, after releasing what the
/// call had allocated). The message names the bytes needed and the bytes free. bytesNeeded()
/// is -1 when only the allocator knew it (the message then quotes the allocator); bytesFree()
/// is -1 when the memory space cannot say.
class OutOfMemoryError : public RuntimeError {
 public:
  OutOfMemoryError(const std::string& message, std::int64_t bytesNeeded, std::int64_t bytesFree)
      : RuntimeError(message), bytesNeeded_(bytesNeeded), bytesFree_(bytesFree) {}
  std::int64_t bytesNeeded() const { return bytesNeeded_; }
  std::int64_t bytesFree() const { return bytesFree_; }

 private:
  std::int64_t bytesNeeded_;
  std::int64_t bytesFree_;
};

}  // namespace araios
