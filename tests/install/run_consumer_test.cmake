# Installs the Araios build tree into a scratch prefix, then configures, builds and runs the
# consumer application against it, exactly as a user's project would: find_package(Araios).
# Variables: BUILD_DIR, SOURCE_DIR, WORK_DIR, CXX_COMPILER, KOKKOS_DIR, GENERATOR, and the
# CXX_FLAGS/LINKER_FLAGS of the build (sanitizer builds need them on the application too).
file(REMOVE_RECURSE "${WORK_DIR}")
function(run_step what)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "consumer test: ${what} failed (exit ${rc})\n${out}\n${err}")
  endif()
  message(STATUS "${what}: ok")
endfunction()
run_step("install" ${CMAKE_COMMAND} --install "${BUILD_DIR}" --prefix "${WORK_DIR}/prefix")
run_step("configure" ${CMAKE_COMMAND} -S "${SOURCE_DIR}/tests/install" -B "${WORK_DIR}/build" -G "${GENERATOR}"
         -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_COMPILER=${CXX_COMPILER}
         "-DCMAKE_CXX_FLAGS=${CXX_FLAGS}" "-DCMAKE_EXE_LINKER_FLAGS=${LINKER_FLAGS}"
         "-DCMAKE_PREFIX_PATH=${WORK_DIR}/prefix" "-DKokkos_DIR=${KOKKOS_DIR}")
run_step("build" ${CMAKE_COMMAND} --build "${WORK_DIR}/build")
execute_process(COMMAND "${WORK_DIR}/build/consumer" RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "consumer test: the consumer program failed (exit ${rc})")
endif()
