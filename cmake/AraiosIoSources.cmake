# The sources of araios_io, the compiled Matrix Market reader and writer, as absolute paths:
# shared by the library (CMakeLists.txt) and the fuzzer's own build with clang (fuzz/).
set(ARAIOS_IO_SOURCES
  ${CMAKE_CURRENT_LIST_DIR}/../src/io/atomic_file.cpp
  ${CMAKE_CURRENT_LIST_DIR}/../src/io/text_source.cpp
  ${CMAKE_CURRENT_LIST_DIR}/../src/io/matrix_market_header.cpp
  ${CMAKE_CURRENT_LIST_DIR}/../src/io/matrix_market_chunk.cpp
  ${CMAKE_CURRENT_LIST_DIR}/../src/io/matrix_market_assembly.cpp
  ${CMAKE_CURRENT_LIST_DIR}/../src/io/matrix_market_reader.cpp
  ${CMAKE_CURRENT_LIST_DIR}/../src/io/matrix_market_writer.cpp)
