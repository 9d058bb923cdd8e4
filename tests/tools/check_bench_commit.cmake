# araios-bench records in every row the source tree's commit of its build, read at build time:
# after a new commit the next build records the new one, and "-dirty" marks a tree whose tracked
# files differed from it. The expected value is read here with git directly, not with the
# build's own module. Run after a build of the current tree.
# Called with -DBENCH=<the araios-bench executable> -DSOURCE_DIR=<the source tree>.
cmake_minimum_required(VERSION 3.25)

set(expected "unknown")
find_package(Git QUIET)
if(GIT_FOUND)
  execute_process(COMMAND ${GIT_EXECUTABLE} -C "${SOURCE_DIR}" rev-parse --short=12 HEAD
                  OUTPUT_VARIABLE head OUTPUT_STRIP_TRAILING_WHITESPACE RESULT_VARIABLE code ERROR_QUIET)
  if(code EQUAL 0 AND head)
    execute_process(COMMAND ${GIT_EXECUTABLE} -C "${SOURCE_DIR}" status --porcelain --untracked-files=no
                    OUTPUT_VARIABLE changes OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
    set(expected "${head}")
    if(changes)
      set(expected "${head}-dirty")
    endif()
  endif()
endif()

execute_process(COMMAND "${BENCH}" --help OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE code)
if(NOT code EQUAL 0)
  message(FATAL_ERROR "araios-bench --help exited with ${code}:\n${out}${err}")
endif()
if(NOT out MATCHES "--commit TEXT=([^ \n]+)")
  message(FATAL_ERROR "araios-bench --help shows no default for --commit:\n${out}")
endif()
set(recorded "${CMAKE_MATCH_1}")
if(NOT recorded STREQUAL expected)
  message(FATAL_ERROR "araios-bench records commit '${recorded}', but the source tree is at '${expected}' "
                      "(a build of this tree must record it; was the tree changed after the build?)")
endif()
message(STATUS "araios-bench records ${recorded}")
