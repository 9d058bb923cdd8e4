# araios_enabled_backends_header(<folder>): writes <folder>/enabled_backends.hpp, the Kokkos
# backends of this build as names and switches. The programs' option parsing includes it
# instead of Kokkos's configuration, so that those sources compile on the host alone
# (araios_host_only_sources) rather than through nvcc.
function(araios_enabled_backends_header folder)
  set(names)
  foreach(backend SERIAL OPENMP CUDA)
    if(Kokkos_ENABLE_${backend})
      string(TOLOWER "${backend}" name)
      list(APPEND names "\"${name}\"")
      set(ARAIOS_BUILD_HAS_${backend} 1)
    else()
      set(ARAIOS_BUILD_HAS_${backend} 0)
    endif()
  endforeach()
  list(JOIN names ", " ARAIOS_BUILD_BACKEND_NAMES)
  configure_file("${Araios_SOURCE_DIR}/tools/enabled_backends.hpp.in" "${folder}/enabled_backends.hpp" @ONLY)
endfunction()
