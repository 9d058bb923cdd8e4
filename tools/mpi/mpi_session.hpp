#pragma once
// MPI for the command line: initialised before Kokkos and finalised after it. Ranks other than
// 0 print nothing (their stdout and stderr go to /dev/null), so a message appears once; an
// error that not every rank shares is printed by its rank and ends the job (MPI_Abort), so no
// rank waits forever for one that failed.
#include <string>

namespace araios::cli {

class MpiSession {
 public:
  MpiSession(int* argc, char*** argv);
  ~MpiSession();
  MpiSession(const MpiSession&) = delete;
  MpiSession& operator=(const MpiSession&) = delete;

  /// Ends the program after an error: returns `code` when every rank has the error (rank 0
  /// prints it), else prints it from this rank and aborts the job with `code`.
  int fail(const std::string& message, int code);

 private:
  int rank_ = 0;
  int stderrCopy_ = -1;
};

}  // namespace araios::cli
