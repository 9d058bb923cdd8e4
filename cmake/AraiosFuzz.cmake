# The Matrix Market fuzzer (fuzz/): built with clang and libFuzzer when they are there, as a
# project of its own (the library is built with g++), and run by CTest for a minute over the
# parser files beside the clone (fuzz/README.md).
#
# ARAIOS_ENABLE_FUZZ: AUTO (the default) builds and tests it when clang++ links a
# -fsanitize=fuzzer,address,undefined program, and says why not otherwise; ON stops the
# configuration when it cannot; OFF leaves it out. AUTO looks again at every configuration, so
# installing clang later is enough.
set(ARAIOS_ENABLE_FUZZ AUTO CACHE STRING "Build and run the Matrix Market fuzzer with clang's libFuzzer: AUTO, ON or OFF")
set_property(CACHE ARAIOS_ENABLE_FUZZ PROPERTY STRINGS AUTO ON OFF)
set(ARAIOS_FUZZ_CXX "" CACHE FILEPATH "clang++ for the fuzzer (found on the PATH when empty)")
set(ARAIOS_FUZZ_SECONDS 60 CACHE STRING "How long the fuzz test runs, in seconds")

if(NOT ARAIOS_ENABLE_FUZZ MATCHES "^(AUTO|ON|OFF)$")
  message(FATAL_ERROR "ARAIOS_ENABLE_FUZZ is '${ARAIOS_ENABLE_FUZZ}'; expected AUTO, ON or OFF")
endif()

# Sets ${result} to an empty string when `clang` links a libFuzzer program with the sanitizers
# the fuzzer uses, else to why not. A success is remembered for that compiler; a failure is
# tried again next time, since the missing package may have been installed since.
function(araios_probe_libfuzzer clang result)
  if(DEFINED CACHE{ARAIOS_FUZZ_PROBED} AND "$CACHE{ARAIOS_FUZZ_PROBED}" STREQUAL "${clang}")
    set(${result} "" PARENT_SCOPE)
    return()
  endif()
  set(dir "${PROJECT_BINARY_DIR}/fuzz-probe")
  file(WRITE "${dir}/probe.cpp"
       "#include <cstddef>\n#include <cstdint>\n"
       "extern \"C\" int LLVMFuzzerTestOneInput(const std::uint8_t*, std::size_t) { return 0; }\n")
  execute_process(COMMAND "${clang}" -fsanitize=fuzzer,address,undefined "${dir}/probe.cpp" -o "${dir}/probe"
                  RESULT_VARIABLE code OUTPUT_VARIABLE output ERROR_VARIABLE output)
  if(code EQUAL 0)
    set(ARAIOS_FUZZ_PROBED "${clang}" CACHE INTERNAL "clang++ that linked a libFuzzer program")
    set(${result} "" PARENT_SCOPE)
  else()
    unset(ARAIOS_FUZZ_PROBED CACHE)
    string(REGEX REPLACE "\n.*" "" first_line "${output}")
    set(${result} "${clang} cannot link a -fsanitize=fuzzer program (${first_line}); expected clang++ with its libFuzzer runtime (Debian packages clang and libclang-rt-dev; scripts/setup.sh --fuzz)" PARENT_SCOPE)
  endif()
endfunction()

set(_araios_fuzz_problem "")
if(NOT ARAIOS_ENABLE_FUZZ STREQUAL "OFF")
  set(_araios_fuzz_cxx "${ARAIOS_FUZZ_CXX}")
  if(NOT _araios_fuzz_cxx)
    find_program(_araios_fuzz_cxx_found NAMES clang++ clang++-14 clang++-15 clang++-16 NO_CACHE)
    set(_araios_fuzz_cxx "${_araios_fuzz_cxx_found}")
  endif()
  if(NOT _araios_fuzz_cxx)
    set(_araios_fuzz_problem "no clang++ on the PATH; expected clang++ with its libFuzzer runtime (Debian packages clang and libclang-rt-dev; scripts/setup.sh --fuzz)")
  else()
    araios_probe_libfuzzer("${_araios_fuzz_cxx}" _araios_fuzz_problem)
  endif()
  if(_araios_fuzz_problem AND ARAIOS_ENABLE_FUZZ STREQUAL "ON")
    message(FATAL_ERROR "ARAIOS_ENABLE_FUZZ is ON but the fuzzer cannot be built: ${_araios_fuzz_problem}")
  elseif(_araios_fuzz_problem)
    message(STATUS "Matrix Market fuzzer left out: ${_araios_fuzz_problem}")
  endif()
endif()

if(NOT ARAIOS_ENABLE_FUZZ STREQUAL "OFF" AND NOT _araios_fuzz_problem)
  message(STATUS "Matrix Market fuzzer: built with ${_araios_fuzz_cxx}, tested for ${ARAIOS_FUZZ_SECONDS} s")
  include(ExternalProject)
  set(ARAIOS_FUZZER "${PROJECT_BINARY_DIR}/fuzz/fuzz_matrix_market")
  ExternalProject_Add(araios_fuzz
    SOURCE_DIR "${PROJECT_SOURCE_DIR}/fuzz"
    BINARY_DIR "${PROJECT_BINARY_DIR}/fuzz"
    CMAKE_ARGS "-DCMAKE_CXX_COMPILER=${_araios_fuzz_cxx}"
    # Always handed to the sub-build, which alone knows when the I/O sources have changed.
    BUILD_ALWAYS ON
    BUILD_BYPRODUCTS "${ARAIOS_FUZZER}"
    INSTALL_COMMAND "")
  # The parser files beside the clone, as the tests find ../shared/matrices; the regression
  # inputs of crashes found so far come first.
  add_test(NAME fuzz_matrix_market
           COMMAND ${CMAKE_COMMAND} "-DFUZZER=${ARAIOS_FUZZER}" "-DSEEDS=${ARAIOS_MATRICES_DIR}/parser"
                   "-DREGRESSIONS=${PROJECT_SOURCE_DIR}/tests/io/fuzz_regressions"
                   "-DDICTIONARY=${PROJECT_SOURCE_DIR}/fuzz/matrix_market.dict"
                   "-DWORK_DIR=${PROJECT_BINARY_DIR}/fuzz/run" "-DSECONDS=${ARAIOS_FUZZ_SECONDS}"
                   -P "${PROJECT_SOURCE_DIR}/fuzz/run_fuzz.cmake")
  math(EXPR _araios_fuzz_timeout "${ARAIOS_FUZZ_SECONDS} + 240")
  set_tests_properties(fuzz_matrix_market PROPERTIES TIMEOUT ${_araios_fuzz_timeout} LABELS fuzz)
endif()
