# Flags for BandSolve's own executables (tests, benchmarks, examples). Never applied to the exported
# BandSolve::bandsolve target.
#
#   bandsolve_dev_flags(<target> [SANITIZE])
#     - BANDSOLVE_NATIVE=ON: -march=native
#     - SANITIZE given and BANDSOLVE_SANITIZE=ON: ASan + UBSan on compile and link
#     - warnings (-Wall -Wextra) with GCC and Clang

# UBSan without its null and pointer-overflow checks: AddressSanitizer already stops an access
# through a null pointer or outside an allocation, and those two checks, put on every reference
# binding and pointer step of unoptimized template code, took about a tenth of the sanitizer
# build's compile time (docs/development.md, "Build and CI times").
set(BANDSOLVE_SANITIZE_FLAGS
    -fsanitize=address,undefined -fno-sanitize=null,pointer-overflow
    -fno-sanitize-recover=undefined -fno-omit-frame-pointer)

function(bandsolve_dev_flags target)
  cmake_parse_arguments(PARSE_ARGV 1 arg "SANITIZE" "" "")
  if(CMAKE_CXX_COMPILER_ID MATCHES "GNU|Clang")
    target_compile_options(${target} PRIVATE -Wall -Wextra)
    if(BANDSOLVE_NATIVE)
      target_compile_options(${target} PRIVATE -march=native)
    endif()
    if(arg_SANITIZE AND BANDSOLVE_SANITIZE)
      target_compile_options(${target} PRIVATE ${BANDSOLVE_SANITIZE_FLAGS})
      target_link_options(${target} PRIVATE ${BANDSOLVE_SANITIZE_FLAGS})
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
