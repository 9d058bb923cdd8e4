# Runs one araios command line and checks how it ended: the exit code, a pattern its output must
# hold, and optionally a number of its --json output that must stay below a bound.
# Variables: COMMAND (the words joined by "@@"), EXIT (expected exit code), REGEX (on stdout + stderr),
#            JSON_KEY and JSON_BELOW (optional: stdout is one JSON object; its KEY < BELOW).
string(REPLACE "@@" ";" COMMAND "${COMMAND}")
execute_process(COMMAND ${COMMAND} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
string(REPLACE ";" " " shown "${COMMAND}")
if(NOT rc STREQUAL EXIT)
  message(FATAL_ERROR "${shown}\nexited with ${rc}; expected ${EXIT}\nstdout:\n${out}\nstderr:\n${err}")
endif()
if(NOT "${out}${err}" MATCHES "${REGEX}")
  message(FATAL_ERROR "${shown}\nprinted nothing matching '${REGEX}'\nstdout:\n${out}\nstderr:\n${err}")
endif()
if(DEFINED JSON_KEY)
  string(JSON value ERROR_VARIABLE json_error GET "${out}" ${JSON_KEY})
  if(json_error)
    message(FATAL_ERROR "${shown}\n--json output has no '${JSON_KEY}': ${json_error}\n${out}")
  endif()
  if(NOT value LESS JSON_BELOW)
    message(FATAL_ERROR "${shown}\n${JSON_KEY} = ${value}; expected below ${JSON_BELOW}")
  endif()
endif()
message(STATUS "${shown}: exit ${rc} as expected")
