#pragma once
// Starts Kokkos for one command after the command line is parsed, so that Kokkos never sees
// (or rejects) the program's own options.
namespace araios::cli {

struct KokkosSession {
  /// threads <= 0 leaves the choice to Kokkos (OMP_NUM_THREADS, else every core).
  explicit KokkosSession(int threads);
  ~KokkosSession();
  KokkosSession(const KokkosSession&) = delete;
  KokkosSession& operator=(const KokkosSession&) = delete;
};

}  // namespace araios::cli
