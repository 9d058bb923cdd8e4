# Script mode (cmake -DAraios_SOURCE_DIR=... -DHEADER=... -P): writes HEADER with the source
# tree's commit, leaving it untouched when it already holds that commit, so that nothing
# recompiles on a build that changed no commit.
include(${CMAKE_CURRENT_LIST_DIR}/AraiosGitCommit.cmake)
araios_git_commit(commit)
set(text "#pragma once\n// The source tree's commit when this build ran (written by cmake/AraiosWriteSourceCommit.cmake).\n#define ARAIOS_SOURCE_COMMIT \"${commit}\"\n")
set(old "")
if(EXISTS "${HEADER}")
  file(READ "${HEADER}" old)
endif()
if(NOT old STREQUAL text)
  file(WRITE "${HEADER}" "${text}")
endif()
