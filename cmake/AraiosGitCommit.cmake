# The source tree's commit, as the programs record it in what they write (araios-bench's rows,
# the profiles of araios calibrate).
#
# araios_git_commit(<var>): the commit (12 hex digits), "-dirty" after it when tracked files
# differ from it, or "unknown" outside a git checkout.
#
# araios_source_commit_header(): the target araios_source_commit, which reads the commit on every
# build and writes ${CMAKE_BINARY_DIR}/generated/araios_source_commit.hpp (ARAIOS_SOURCE_COMMIT)
# when it changed. Read at build time rather than at configure time, so a build folder that
# lives across commits records the tree it built, and only the files that include the header
# recompile when the commit moves.
function(araios_git_commit var)
  set(commit "unknown")
  find_package(Git QUIET)
  if(GIT_FOUND)
    execute_process(COMMAND ${GIT_EXECUTABLE} rev-parse --short=12 HEAD
                    WORKING_DIRECTORY ${Araios_SOURCE_DIR}
                    OUTPUT_VARIABLE head OUTPUT_STRIP_TRAILING_WHITESPACE
                    RESULT_VARIABLE result ERROR_QUIET)
    if(result EQUAL 0 AND head)
      set(commit "${head}")
      # Exit status 1: tracked files differ from HEAD. Untracked files do not count.
      execute_process(COMMAND ${GIT_EXECUTABLE} diff --quiet HEAD --
                      WORKING_DIRECTORY ${Araios_SOURCE_DIR}
                      RESULT_VARIABLE differs OUTPUT_QUIET ERROR_QUIET)
      if(differs EQUAL 1)
        set(commit "${commit}-dirty")
      endif()
    endif()
  endif()
  set(${var} "${commit}" PARENT_SCOPE)
endfunction()

function(araios_source_commit_header)
  if(TARGET araios_source_commit)
    return()
  endif()
  set(header ${CMAKE_BINARY_DIR}/generated/araios_source_commit.hpp)
  add_custom_target(araios_source_commit
    COMMAND ${CMAKE_COMMAND} -DAraios_SOURCE_DIR=${Araios_SOURCE_DIR} -DHEADER=${header}
            -P ${Araios_SOURCE_DIR}/cmake/AraiosWriteSourceCommit.cmake
    BYPRODUCTS ${header}
    COMMENT "Reading the source tree's commit"
    VERBATIM)
endfunction()
