# Gives a binding the `sandgate_core` target: built here from core/ (what `pip install` and
# `npm install` do), or — when SANDGATE_PREBUILT_CORE names a build tree of the `bindings-core`
# preset — the library already built there, found through that tree's sandgateConfig.cmake (the
# same package file `cmake --install` installs), so CI compiles the core once for both bindings.
get_filename_component(_sandgate_root "${CMAKE_CURRENT_LIST_DIR}/.." ABSOLUTE)
set(SANDGATE_PREBUILT_CORE "$ENV{SANDGATE_PREBUILT_CORE}" CACHE PATH
    "A build tree of the bindings-core preset whose library is linked instead of building core/")
if(SANDGATE_PREBUILT_CORE AND EXISTS "${SANDGATE_PREBUILT_CORE}/sandgateConfig.cmake")
  message(STATUS "sandgate: linking the prebuilt core of ${SANDGATE_PREBUILT_CORE}")
  find_package(sandgate CONFIG REQUIRED PATHS "${SANDGATE_PREBUILT_CORE}" NO_DEFAULT_PATH)
  add_library(sandgate_core ALIAS sandgate::sandgate)
  add_library(sandgate::core ALIAS sandgate::sandgate)
  set(SANDGATE_WARNINGS -Wall -Wextra -Wpedantic -Wshadow -Wnon-virtual-dtor)
  if(SANDGATE_WERROR)
    list(APPEND SANDGATE_WARNINGS -Werror)
  endif()
else()
  # The command-line tool only when the binding asks for it (the Python wheel ships it).
  if(NOT DEFINED SANDGATE_BUILD_CLI)
    set(SANDGATE_BUILD_CLI OFF)
  endif()
  add_subdirectory("${_sandgate_root}/core" "${CMAKE_CURRENT_BINARY_DIR}/core")
endif()
