# The CTest test fuzz_matrix_market: runs the fuzzer for SECONDS over a fresh corpus seeded
# with the regression inputs (REGRESSIONS) and the parser files (SEEDS), each both as it is
# (gzip) and decompressed, since mutating compressed bytes rarely gives readable text.
# Fails, naming the saved input, on any crash, sanitizer report, disagreement or timeout.
#   cmake -DFUZZER=... -DSEEDS=... -DREGRESSIONS=... -DDICTIONARY=... -DWORK_DIR=... -DSECONDS=60 -P run_fuzz.cmake
foreach(var FUZZER SEEDS REGRESSIONS DICTIONARY WORK_DIR SECONDS)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "run_fuzz.cmake: ${var} is not set; expected -D${var}=...")
  endif()
endforeach()
# The tests read the matrices from ARAIOS_MATRICES_DIR when it is set; so does this one.
if(DEFINED ENV{ARAIOS_MATRICES_DIR} AND NOT "$ENV{ARAIOS_MATRICES_DIR}" STREQUAL "")
  set(SEEDS "$ENV{ARAIOS_MATRICES_DIR}/parser")
endif()
if(NOT EXISTS "${FUZZER}")
  message(FATAL_ERROR "the fuzzer ${FUZZER} was not built; expected the target araios_fuzz to be built first")
endif()
file(GLOB seed_files "${SEEDS}/*/*.mtx.gz" "${SEEDS}/*.mtx.gz")
if(NOT seed_files)
  message(FATAL_ERROR "no .mtx.gz seed files under ${SEEDS}; expected the parser files of the shared "
                      "matrices (../shared/matrices/parser beside the clone, or ARAIOS_MATRICES_DIR/parser)")
endif()
file(GLOB regression_files "${REGRESSIONS}/*")
find_program(GZIP gzip)
if(NOT GZIP)
  message(FATAL_ERROR "gzip is needed to decompress the seed files; expected it on the PATH")
endif()

set(seed_dir "${WORK_DIR}/seeds")
set(corpus_dir "${WORK_DIR}/corpus")
set(artifact_dir "${WORK_DIR}/artifacts")
file(REMOVE_RECURSE "${seed_dir}" "${corpus_dir}" "${artifact_dir}")
file(MAKE_DIRECTORY "${seed_dir}" "${corpus_dir}" "${artifact_dir}")
foreach(file IN LISTS regression_files seed_files)
  # parser/fmm/nist_ex1.mtx.gz becomes fmm-nist_ex1.mtx.gz: the folders reuse names.
  get_filename_component(name "${file}" NAME)
  get_filename_component(folder "${file}" DIRECTORY)
  get_filename_component(folder "${folder}" NAME)
  set(stem "${folder}-${name}")
  file(COPY_FILE "${file}" "${seed_dir}/${stem}")
  if(name MATCHES "\\.gz$")
    execute_process(COMMAND "${GZIP}" -dc "${file}" OUTPUT_FILE "${seed_dir}/${stem}.txt" RESULT_VARIABLE code)
    if(NOT code EQUAL 0)
      message(FATAL_ERROR "gzip -dc ${file} failed (exit ${code}); expected a gzip file")
    endif()
  endif()
endforeach()

# -max_len 8192: twice the largest seed, room to grow; -timeout 10: one input taking ten
# seconds is a hang; -rss_limit_mb 2048: also the largest single allocation libFuzzer allows.
set(log "${WORK_DIR}/fuzz.log")
execute_process(
  COMMAND "${FUZZER}" -max_total_time=${SECONDS} -max_len=8192 -timeout=10 -rss_limit_mb=2048
          "-dict=${DICTIONARY}" "-artifact_prefix=${artifact_dir}/" -print_final_stats=1
          "${corpus_dir}" "${seed_dir}"
  RESULT_VARIABLE code OUTPUT_FILE "${log}" ERROR_FILE "${log}")
file(STRINGS "${log}" stats REGEX "^stat::(number_of_executed_units|average_exec_per_sec|new_units_added|peak_rss_mb)")
string(REPLACE ";" "\n" stats "${stats}")
if(NOT code EQUAL 0)
  file(READ "${log}" text)
  string(LENGTH "${text}" length)
  if(length GREATER 6000)
    math(EXPR start "${length} - 6000")
    string(SUBSTRING "${text}" ${start} -1 text)
  endif()
  message(FATAL_ERROR "the fuzzer failed (exit ${code}); the input is saved under ${artifact_dir} "
                      "(run it again with: ${FUZZER} <that file>); the end of ${log}:\n${text}")
endif()
message(STATUS "fuzzed for ${SECONDS} s without a failure:\n${stats}")
