# Installs the headers, the library and a CMake package so that applications can say
# find_package(Araios) and link Araios::araios.
install(DIRECTORY include/araios DESTINATION ${CMAKE_INSTALL_INCLUDEDIR} FILES_MATCHING PATTERN "*.hpp")
install(TARGETS araios araios_io araios_model araios_header_only EXPORT AraiosTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
if(ARAIOS_ENABLE_MPI)
  install(TARGETS araios_distributed EXPORT AraiosTargets
          ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR} LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
endif()
# The performance profiles measured on known devices, found by device name (araios/model).
install(DIRECTORY profiles/ DESTINATION ${CMAKE_INSTALL_DATADIR}/araios/profiles FILES_MATCHING PATTERN "*.json")
set(ARAIOS_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/Araios)
install(EXPORT AraiosTargets NAMESPACE Araios:: DESTINATION ${ARAIOS_CMAKE_DIR})
configure_package_config_file(cmake/AraiosConfig.cmake.in
  ${PROJECT_BINARY_DIR}/AraiosConfig.cmake INSTALL_DESTINATION ${ARAIOS_CMAKE_DIR})
write_basic_package_version_file(${PROJECT_BINARY_DIR}/AraiosConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/AraiosConfig.cmake ${PROJECT_BINARY_DIR}/AraiosConfigVersion.cmake
        DESTINATION ${ARAIOS_CMAKE_DIR})
