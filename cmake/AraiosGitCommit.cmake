# araios_git_commit(<var>): the source tree's commit (12 hex digits), or "unknown" outside a git
# checkout. Read at configure time, so it can be stale after new commits until the next
# configure: the programs that record it say so (araios-bench takes --commit for published runs).
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
    endif()
  endif()
  set(${var} "${commit}" PARENT_SCOPE)
endfunction()
