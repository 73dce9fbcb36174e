# Profile-guided build (SANDGATE_PGO, GCC). A second build tree, ${PROJECT_BINARY_DIR}/pgo/train,
# compiles the core and the command with -fprofile-generate; pgo_train.cmake runs that command over
# the bundled examples; sandgate_core and sandgate here are then compiled with -fprofile-use.
# The two trees must lay their objects out alike: GCC names a .gcda file after its object's path
# (-fprofile-prefix-path takes each tree's directory off) and keys a file-local function's counts
# on that path too, so a twin target in this tree would find no counts for any of them.
# The profile changes how code is laid out and inlined, never what it does: the default preset's
# tests run on the profiled core.
if(NOT CMAKE_CXX_COMPILER_ID STREQUAL "GNU" OR SANDGATE_SANITIZE)
  message(STATUS "sandgate: SANDGATE_PGO needs GCC and no sanitizers; building without a profile")
  return()
endif()
include(ExternalProject)

set(_pgo_dir "${PROJECT_BINARY_DIR}/pgo")
# The training tree needs no debug information (-g changes no generated code, so the counts still
# match): it compiles a fifth faster.
string(TOUPPER "${CMAKE_BUILD_TYPE}" _pgo_config)
string(REGEX REPLACE "(^| )-g[0-9]*" "" _pgo_config_flags "${CMAKE_CXX_FLAGS_${_pgo_config}}")
set(_trainer "${_pgo_dir}/train/sandgate")
ExternalProject_Add(sandgate_pgo_trainer
  SOURCE_DIR "${SANDGATE_ROOT}"
  BINARY_DIR "${_pgo_dir}/train"
  CMAKE_GENERATOR "${CMAKE_GENERATOR}"
  # Counters are updated atomically: the command's record pipeline runs on threads.
  CMAKE_ARGS
    -DCMAKE_BUILD_TYPE=${CMAKE_BUILD_TYPE}
    "-DCMAKE_CXX_FLAGS_${_pgo_config}=${_pgo_config_flags}"
    -DCMAKE_CXX_COMPILER=${CMAKE_CXX_COMPILER}
    "-DCMAKE_CXX_FLAGS=${CMAKE_CXX_FLAGS} -fprofile-generate=${_pgo_dir}/raw -fprofile-prefix-path=${_pgo_dir}/train -fprofile-update=prefer-atomic"
    -DCMAKE_EXE_LINKER_FLAGS=-fprofile-generate
    -DSANDGATE_CLI_MIMALLOC=${SANDGATE_CLI_MIMALLOC}
    -DSANDGATE_PGO=OFF -DSANDGATE_BUILD_TESTS=OFF -DSANDGATE_INSTALL=OFF
  BUILD_COMMAND ${CMAKE_COMMAND} --build <BINARY_DIR> --target sandgate
  # Its own ninja decides what is out of date; the training below reruns only when the command did change.
  BUILD_ALWAYS ON
  BUILD_BYPRODUCTS "${_trainer}"
  INSTALL_COMMAND "")

file(GLOB_RECURSE _pgo_inputs CONFIGURE_DEPENDS "${SANDGATE_ROOT}/examples/*.yaml")
add_custom_command(
  OUTPUT "${_pgo_dir}/trained.stamp"
  COMMAND ${CMAKE_COMMAND} -DTRAINER=${_trainer} -DEXAMPLES=${SANDGATE_ROOT}/examples
          -DPGO_DIR=${_pgo_dir} -P "${CMAKE_CURRENT_SOURCE_DIR}/pgo_train.cmake"
  DEPENDS "${_trainer}" "${CMAKE_CURRENT_SOURCE_DIR}/pgo_train.cmake" ${_pgo_inputs}
          "${SANDGATE_ROOT}/examples/requests.jsonl"
  COMMENT "Training the profile-guided build on examples/"
  VERBATIM)
add_custom_target(sandgate_pgo_profile DEPENDS "${_pgo_dir}/trained.stamp")

foreach(t IN ITEMS sandgate_core sandgate)
  # The profile is an order-only prerequisite: an edit recompiles only the objects it touches (their
  # counts are retrained first, since the training tree compiles the same sources), and an object
  # compiled from an older profile is still correct code. -fprofile-partial-training optimises the
  # code the examples never reach as usual rather than for size.
  add_dependencies(${t} sandgate_pgo_profile)
  target_compile_options(${t} PRIVATE -fprofile-use=${_pgo_dir}/profile
    -fprofile-prefix-path=${PROJECT_BINARY_DIR} -fprofile-partial-training -Wno-missing-profile
    -Wno-coverage-mismatch)
endforeach()
