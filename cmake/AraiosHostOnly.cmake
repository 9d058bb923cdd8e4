# araios_host_only_sources(<source>...): compile these sources with the host compiler alone.
#
# In the cuda preset the C++ compiler is Kokkos's nvcc_wrapper, and every source goes through
# nvcc: preprocessing twice, the CUDA front end, a device pass and the host compile, 10 to 30
# seconds for a file that never touches Kokkos (option parsing, JSON output, the Matrix Market
# reader). The listed sources include no Kokkos header; nvcc_wrapper's --host-only hands them
# straight to g++. Should one of them come to include Kokkos, Kokkos stops the build with
# "KOKKOS_ENABLE_CUDA defined but the compiler is not defining the __CUDACC__ macro": move it
# off the list then. nvcc_wrapper's host-only path also drops the quotes of a string definition
# (-DNAME="text"): give such sources their strings in a generated header (tools/version.hpp.in,
# tests/test_paths.hpp.in), or set the definition on a source that nvcc compiles. With any other
# compiler this does nothing.
function(araios_host_only_sources)
  if(CMAKE_CXX_COMPILER MATCHES "nvcc_wrapper$")
    set_property(SOURCE ${ARGN} APPEND PROPERTY COMPILE_OPTIONS --host-only)
  endif()
endfunction()
