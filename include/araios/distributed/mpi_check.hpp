#pragma once
// Every MPI call of Araios goes through checkMpi: a failing call throws MpiError naming the
// call and MPI's own message, instead of MPI's default of aborting the job. Communicators
// Araios creates or is handed get MPI_ERRORS_RETURN (see useReturnedErrors) so that the codes
// come back to be checked.
#include <araios/error.hpp>

#include <mpi.h>

#include <cstdint>
#include <string>
#include <type_traits>

namespace araios {

class MpiError : public RuntimeError {
 public:
  MpiError(const std::string& message, int code) : RuntimeError(message), code_(code) {}
  int code() const { return code_; }

 private:
  int code_;
};

namespace Impl {

inline std::string mpiErrorString(int code) {
  char text[MPI_MAX_ERROR_STRING];
  int length = 0;
  if (MPI_Error_string(code, text, &length) != MPI_SUCCESS) return "MPI error " + std::to_string(code);
  return std::string(text, length);
}

/// The MPI datatype of the C++ types Araios sends.
template <class T>
MPI_Datatype mpiType() {
  if constexpr (std::is_same_v<T, float>) return MPI_FLOAT;
  else if constexpr (std::is_same_v<T, double>) return MPI_DOUBLE;
  else if constexpr (std::is_same_v<T, std::int64_t>) return MPI_INT64_T;
  else {
    static_assert(std::is_same_v<T, int>, "float, double, int64_t or int");
    return MPI_INT;
  }
}

/// Throws MpiError when an MPI call did not return MPI_SUCCESS.
inline void checkMpi(int code, const char* call) {
  if (code != MPI_SUCCESS) {
    throw MpiError(std::string(call) + " failed: " + mpiErrorString(code), code);
  }
}

}  // namespace Impl

/// Makes MPI return error codes on `comm` (which Araios checks) instead of aborting the job.
inline void useReturnedErrors(MPI_Comm comm) {
  Impl::checkMpi(MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN), "MPI_Comm_set_errhandler");
}

inline int commRank(MPI_Comm comm) {
  int rank = 0;
  Impl::checkMpi(MPI_Comm_rank(comm, &rank), "MPI_Comm_rank");
  return rank;
}

inline int commSize(MPI_Comm comm) {
  int size = 0;
  Impl::checkMpi(MPI_Comm_size(comm, &size), "MPI_Comm_size");
  return size;
}

}  // namespace araios

#define ARAIOS_MPI_CHECK(call) ::araios::Impl::checkMpi((call), #call)
