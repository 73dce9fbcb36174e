# Gives a binding the `sandgate_core` target: built here from core/ (what `pip install` and
# `npm install` do), or — when SANDGATE_PREBUILT_CORE names a build tree of the `bindings-core`
# preset — the library already built there, so CI compiles the core once for both bindings.
get_filename_component(_sandgate_root "${CMAKE_CURRENT_LIST_DIR}/.." ABSOLUTE)
set(SANDGATE_PREBUILT_CORE "$ENV{SANDGATE_PREBUILT_CORE}" CACHE PATH
    "A build tree of the bindings-core preset whose core/libsandgate_core.a is linked instead of building core/")
set(_sandgate_lib "${SANDGATE_PREBUILT_CORE}/core/libsandgate_core.a")
if(SANDGATE_PREBUILT_CORE AND EXISTS "${_sandgate_lib}")
  message(STATUS "sandgate: linking the prebuilt core ${_sandgate_lib}")
  find_package(yaml-cpp REQUIRED)
  find_package(fmt REQUIRED)
  find_package(PkgConfig REQUIRED)
  pkg_check_modules(RE2 REQUIRED IMPORTED_TARGET GLOBAL re2)
  add_library(sandgate_core STATIC IMPORTED GLOBAL)
  set_target_properties(sandgate_core PROPERTIES
    IMPORTED_LOCATION "${_sandgate_lib}"
    INTERFACE_INCLUDE_DIRECTORIES "${_sandgate_root}/core/include"
    INTERFACE_LINK_LIBRARIES "yaml-cpp;PkgConfig::RE2;fmt::fmt")
  add_library(sandgate::core ALIAS sandgate_core)
  set(SANDGATE_WARNINGS -Wall -Wextra -Wpedantic -Wshadow -Wnon-virtual-dtor)
  if(SANDGATE_WERROR)
    list(APPEND SANDGATE_WARNINGS -Werror)
  endif()
else()
  set(SANDGATE_BUILD_CLI OFF CACHE BOOL "" FORCE)
  add_subdirectory("${_sandgate_root}/core" "${CMAKE_CURRENT_BINARY_DIR}/core")
endif()
