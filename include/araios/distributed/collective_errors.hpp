#pragma once
// Errors that every rank agrees on. A step that can fail on some ranks only (reading a file,
// checking a diagonal, allocating) runs inside agreeOnErrors: if it throws on any rank, every
// rank throws, the same message, naming the rank it came from. Without this, the ranks that
// did not fail would wait forever in the next collective call for the one that did.
//
//   araios::agreeOnErrors(comm, [&] { local = readMyRows(path); });
//
// The ranks that did not fail throw RemoteError; the one that failed rethrows its own
// exception (the lowest such rank's message is the one everybody reports).
#include <araios/distributed/mpi_check.hpp>
#include <araios/error.hpp>

#include <mpi.h>

#include <climits>
#include <exception>
#include <string>
#include <vector>

namespace araios {

/// An error raised on another rank, received by agreeOnErrors.
class RemoteError : public Error {
 public:
  RemoteError(const std::string& message, int rank) : Error(message), rank_(rank) {}
  /// The rank where the error was raised.
  int rank() const { return rank_; }

 private:
  int rank_;
};

namespace Impl {

/// Set when agreeOnErrors throws, so that a program's last handler knows whether every rank is
/// throwing the same error (then each can exit on its own) or only this one (then it must
/// abort the job, or the others would wait for it).
inline bool& errorAgreedByAllRanks() {
  static bool agreed = false;
  return agreed;
}

}  // namespace Impl

/// Runs `step` on every rank of `comm`; when it throws on any rank, throws on all of them (see
/// above). Collective: every rank must call it at the same point.
template <class Step>
void agreeOnErrors(MPI_Comm comm, Step&& step) {
  std::exception_ptr failure;
  std::string message;
  try {
    step();
  } catch (const std::exception& e) {
    failure = std::current_exception();
    message = e.what();
  } catch (...) {
    failure = std::current_exception();
    message = "an unknown exception";
  }
  const int rank = commRank(comm);
  int mine = failure ? rank : INT_MAX, first = INT_MAX;
  ARAIOS_MPI_CHECK(MPI_Allreduce(&mine, &first, 1, MPI_INT, MPI_MIN, comm));
  if (first == INT_MAX) return;
  Impl::errorAgreedByAllRanks() = true;
  int length = rank == first ? static_cast<int>(message.size()) : 0;
  ARAIOS_MPI_CHECK(MPI_Bcast(&length, 1, MPI_INT, first, comm));
  std::vector<char> text(message.begin(), message.end());
  text.resize(length);
  ARAIOS_MPI_CHECK(MPI_Bcast(text.data(), length, MPI_CHAR, first, comm));
  if (failure && rank == first) std::rethrow_exception(failure);
  throw RemoteError(std::string(text.begin(), text.end()), first);
}

}  // namespace araios
