# Builds and runs tests/package/consumer against BandSolve. Run with cmake -P; see CMakeLists.txt.
#   MODE=find_package      install BANDSOLVE_BUILD_DIR into WORK_DIR/stage, move it to WORK_DIR/prefix,
#                          consume it with find_package(BandSolve)
#   MODE=add_subdirectory  consume BANDSOLVE_SOURCE_DIR with add_subdirectory()
cmake_minimum_required(VERSION 3.16)

foreach(var MODE BANDSOLVE_SOURCE_DIR BANDSOLVE_BUILD_DIR CONSUMER_SOURCE_DIR WORK_DIR
            CMAKE_GENERATOR CMAKE_CXX_COMPILER Kokkos_DIR)
  if(NOT DEFINED ${var} OR "${${var}}" STREQUAL "")
    message(FATAL_ERROR "run_consumer.cmake: -D${var}=... is required")
  endif()
endforeach()
if(NOT CONFIG)
  set(CONFIG Release)
endif()

function(run step)
  string(REPLACE ";" " " pretty "${ARGN}")
  message(STATUS "[${MODE}] ${step}: ${pretty}")
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "[${MODE}] ${step} failed (${rc})")
  endif()
endfunction()

file(REMOVE_RECURSE "${WORK_DIR}")
file(MAKE_DIRECTORY "${WORK_DIR}")

set(configure_args
  -S "${CONSUMER_SOURCE_DIR}" -B "${WORK_DIR}/build"
  -G "${CMAKE_GENERATOR}"
  "-DCMAKE_BUILD_TYPE=${CONFIG}"
  "-DCMAKE_CXX_COMPILER=${CMAKE_CXX_COMPILER}"
  "-DKokkos_DIR=${Kokkos_DIR}")
if(CMAKE_MAKE_PROGRAM)
  list(APPEND configure_args "-DCMAKE_MAKE_PROGRAM=${CMAKE_MAKE_PROGRAM}")
endif()

if(MODE STREQUAL "find_package")
  run("install" "${CMAKE_COMMAND}" --install "${BANDSOLVE_BUILD_DIR}" --config "${CONFIG}"
      --prefix "${WORK_DIR}/stage")
  # The installed package must not depend on where it was installed.
  file(RENAME "${WORK_DIR}/stage" "${WORK_DIR}/prefix")
  foreach(f include/bandsolve/version.hpp
            share/cmake/BandSolve/BandSolveConfig.cmake
            share/cmake/BandSolve/BandSolveConfigVersion.cmake
            share/cmake/BandSolve/BandSolveTargets.cmake)
    if(NOT EXISTS "${WORK_DIR}/prefix/${f}")
      message(FATAL_ERROR "[${MODE}] ${f} is not installed")
    endif()
  endforeach()
  list(APPEND configure_args "-DCMAKE_PREFIX_PATH=${WORK_DIR}/prefix")
elseif(MODE STREQUAL "add_subdirectory")
  list(APPEND configure_args "-DCONSUMER_BANDSOLVE_SOURCE_DIR=${BANDSOLVE_SOURCE_DIR}")
else()
  message(FATAL_ERROR "run_consumer.cmake: unknown MODE=${MODE}")
endif()

run("configure" "${CMAKE_COMMAND}" ${configure_args})

if(MODE STREQUAL "find_package")
  # The consumer must have found the package just installed, not some other copy.
  file(STRINGS "${WORK_DIR}/build/CMakeCache.txt" found_dir REGEX "^BandSolve_DIR:")
  string(REGEX REPLACE "^BandSolve_DIR:[A-Z]+=" "" found_dir "${found_dir}")
  if(NOT found_dir STREQUAL "${WORK_DIR}/prefix/share/cmake/BandSolve")
    message(FATAL_ERROR "[${MODE}] consumer found BandSolve in '${found_dir}', "
                        "expected ${WORK_DIR}/prefix/share/cmake/BandSolve")
  endif()
endif()

run("build" "${CMAKE_COMMAND}" --build "${WORK_DIR}/build" --config "${CONFIG}")
run("run" "${WORK_DIR}/build/bin/bandsolve_consumer")
message(STATUS "[${MODE}] ok")
