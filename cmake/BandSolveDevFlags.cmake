# Flags for BandSolve's own executables (tests, benchmarks, examples). Never applied to the exported
# BandSolve::bandsolve target.
#
#   bandsolve_dev_flags(<target> [SANITIZE] [ALIGNMENT])
#     - BANDSOLVE_NATIVE=ON: -march=native
#     - SANITIZE given and BANDSOLVE_SANITIZE=ON: ASan + UBSan on compile and link; with
#       ALIGNMENT, UBSan's alignment check as well
#     - warnings (-Wall -Wextra) with GCC and Clang

# UBSan without its null and pointer-overflow checks: AddressSanitizer already stops an access
# through a null pointer or outside an allocation, and those two checks, put on every reference
# binding and pointer step of unoptimized template code, took about a tenth of the sanitizer
# build's compile time (docs/development.md, "Build and CI times"). The alignment check, put on
# every access, took a quarter: it is kept for the units that run the device backend's kernels
# (ALIGNMENT), whose scratch is carved for GPUs, where a misaligned access faults.
set(BANDSOLVE_SANITIZE_FLAGS
    -fsanitize=address,undefined -fno-sanitize=null,pointer-overflow,alignment
    -fno-sanitize-recover=undefined -fno-omit-frame-pointer)

function(bandsolve_dev_flags target)
  cmake_parse_arguments(PARSE_ARGV 1 arg "SANITIZE;ALIGNMENT" "" "")
  if(CMAKE_CXX_COMPILER_ID MATCHES "GNU|Clang")
    target_compile_options(${target} PRIVATE -Wall -Wextra)
    if(BANDSOLVE_NATIVE)
      target_compile_options(${target} PRIVATE -march=native)
    endif()
    if(arg_SANITIZE AND BANDSOLVE_SANITIZE)
      target_compile_options(${target} PRIVATE ${BANDSOLVE_SANITIZE_FLAGS})
      target_link_options(${target} PRIVATE ${BANDSOLVE_SANITIZE_FLAGS})
      if(arg_ALIGNMENT)
        target_compile_options(${target} PRIVATE -fsanitize=alignment)
      endif()
    endif()
  elseif(BANDSOLVE_NATIVE OR (arg_SANITIZE AND BANDSOLVE_SANITIZE))
    message(WARNING "BandSolve: BANDSOLVE_NATIVE/BANDSOLVE_SANITIZE are only implemented for "
                    "GCC and Clang, not ${CMAKE_CXX_COMPILER_ID}; ignored for ${target}")
  endif()
endfunction()

# find_package(LAPACK) with the LAPACK::LAPACK target, which FindLAPACK defines only from CMake 3.18.
macro(bandsolve_find_lapack)
  find_package(LAPACK REQUIRED)
  if(NOT TARGET LAPACK::LAPACK)
    add_library(LAPACK::LAPACK INTERFACE IMPORTED)
    set_target_properties(LAPACK::LAPACK PROPERTIES
      INTERFACE_LINK_LIBRARIES "${LAPACK_LIBRARIES};${LAPACK_LINKER_FLAGS}")
  endif()
endmacro()

# Sets <out> to TRUE when the test source <path>, or a test file it includes (the packing
# variants include theirs), runs the device backend's kernels (names backend::device, device_tag
# or passes::device): such units keep UBSan's alignment check in the sanitizer tree (ALIGNMENT).
function(bandsolve_runs_device_kernels path out)
  file(READ "${path}" text)
  set(read "${path}")
  get_filename_component(dir "${path}" DIRECTORY)
  string(REGEX MATCHALL "#include \"test_[A-Za-z0-9_]+\\.cpp\"" included "${text}")
  foreach(line IN LISTS included)
    string(REGEX REPLACE "#include \"(.*)\"" "\\1" name "${line}")
    file(READ "${dir}/${name}" more)
    string(APPEND text "${more}")
    list(APPEND read "${dir}/${name}")
  endforeach()
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${read})
  if(text MATCHES "backend::device|device_tag|passes::device")
    set(${out} TRUE PARENT_SCOPE)
  else()
    set(${out} FALSE PARENT_SCOPE)
  endif()
endfunction()
