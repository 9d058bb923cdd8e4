#include "kokkos_session.hpp"

#include <Kokkos_Core.hpp>

namespace araios::cli {

KokkosSession::KokkosSession(int threads) {
#if KOKKOS_VERSION >= 30700
  Kokkos::InitializationSettings settings;
  settings.set_disable_warnings(true);
  if (threads > 0) settings.set_num_threads(threads);
  Kokkos::initialize(settings);
#else
  Kokkos::InitArguments arguments;
  arguments.disable_warnings = true;  // the OMP_PROC_BIND advice is noise for a CLI run
  if (threads > 0) arguments.num_threads = threads;
  Kokkos::initialize(arguments);
#endif
}

KokkosSession::~KokkosSession() { Kokkos::finalize(); }

}  // namespace araios::cli
