#===- GatherMLIRSDK.cmake - The installed SDK ----------------------------===#
#
# `cmake --install` gives a prefix that other compilers build on:
#   include/gather, include/gather-c   headers, ODS .td files and the .inc
#                                      files tablegen generated from them
#   lib/lib*.a, lib/libGatherMLIR-C.so, lib/GatherPlugin.so
#   bin/                               gather-opt, gather-lsp-server, ...
#   lib/cmake/gathermlir/              GatherMLIRConfig.cmake, its version
#                                      file and the imported targets
#                                      GatherMLIR::<library or tool>
#
# The libraries are made by add_mlir_library, which already installs each one
# into MLIR's export set (see get_target_export_arg in AddMLIR.cmake); this
# project installs that set under its own name and namespace. So every
# library added with add_mlir_*_library is in the SDK without being listed
# here; test-only libraries pass DISABLE_INSTALL.
#
#===----------------------------------------------------------------------===#

include(CMakePackageConfigHelpers)

set(GATHER_MLIR_VERSION 0.1.0)
set(GATHER_INSTALL_CMAKE_DIR lib${LLVM_LIBDIR_SUFFIX}/cmake/gathermlir)

# The export set add_mlir_library installs into: `EXPORT <set>`. Tools and
# hand-made libraries pass it to install(TARGETS) to join the SDK's targets.
get_target_export_arg(GatherMLIR MLIR GATHER_INSTALL_EXPORT)

# Call once, after every library and tool is defined.
function(gather_install_sdk)
  # Headers, ODS sources and generated declarations.
  install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/gather
                    ${PROJECT_SOURCE_DIR}/include/gather-c
    DESTINATION include
    FILES_MATCHING PATTERN "*.h" PATTERN "*.td")
  install(DIRECTORY ${PROJECT_BINARY_DIR}/include/gather
    DESTINATION include
    FILES_MATCHING PATTERN "*.inc"
    PATTERN "CMakeFiles" EXCLUDE)

  # Our libraries among everything add_mlir_library installed: an installed
  # consumer finds the headers under <prefix>/include, MLIR's where MLIR is.
  get_property(exported GLOBAL PROPERTY MLIR_EXPORTS)
  set(libraries)
  foreach(target ${exported})
    get_target_property(imported ${target} IMPORTED)
    if(NOT imported)
      list(APPEND libraries ${target})
      target_include_directories(${target} INTERFACE
        $<INSTALL_INTERFACE:include>)
    endif()
  endforeach()
  list(REMOVE_DUPLICATES libraries)
  set(GATHER_EXPORTED_LIBRARIES ${libraries} GatherMLIR-C)
  list(JOIN GATHER_EXPORTED_LIBRARIES " " GATHER_EXPORTED_LIBRARY_NAMES)

  string(REGEX REPLACE "^EXPORT " "" export_set "${GATHER_INSTALL_EXPORT}")
  install(EXPORT ${export_set}
    FILE GatherMLIRTargets.cmake
    NAMESPACE GatherMLIR::
    DESTINATION ${GATHER_INSTALL_CMAKE_DIR})

  configure_package_config_file(
    ${PROJECT_SOURCE_DIR}/cmake/GatherMLIRConfig.cmake.in
    ${PROJECT_BINARY_DIR}/cmake/GatherMLIRConfig.cmake
    INSTALL_DESTINATION ${GATHER_INSTALL_CMAKE_DIR})
  write_basic_package_version_file(
    ${PROJECT_BINARY_DIR}/cmake/GatherMLIRConfigVersion.cmake
    VERSION ${GATHER_MLIR_VERSION}
    COMPATIBILITY SameMinorVersion)
  install(FILES ${PROJECT_BINARY_DIR}/cmake/GatherMLIRConfig.cmake
                ${PROJECT_BINARY_DIR}/cmake/GatherMLIRConfigVersion.cmake
    DESTINATION ${GATHER_INSTALL_CMAKE_DIR})
endfunction()
