# docs/reproducibility.md must hold the table `araios kernels --markdown` prints from the kernel
# registry, line for line: the document cannot drift from what the library promises.
# Variables: ARAIOS (the program), DOC (the document).
execute_process(COMMAND "${ARAIOS}" kernels --markdown RESULT_VARIABLE rc OUTPUT_VARIABLE table)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "araios kernels --markdown failed (exit ${rc})")
endif()
file(READ "${DOC}" doc)
string(FIND "${doc}" "${table}" at)
if(at EQUAL -1)
  message(FATAL_ERROR "${DOC} does not hold the registry's table; replace its table with the output of "
                      "`araios kernels --markdown`:\n${table}")
endif()
string(REGEX MATCHALL "\n" lines "${table}")
list(LENGTH lines count)
message(STATUS "${DOC} holds the registry's table (${count} lines)")
