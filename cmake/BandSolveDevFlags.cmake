# Flags for BandSolve's own executables (tests, benchmarks, examples). Never applied to the exported
# BandSolve::bandsolve target.
#
#   bandsolve_dev_flags(<target> [SANITIZE] [ALIGNMENT])
#     - BANDSOLVE_NATIVE=ON: -march=native
#     - SANITIZE given and BANDSOLVE_SANITIZE=ON: ASan + UBSan on compile and link; with
#       ALIGNMENT, UBSan's alignment check as well
#     - SANITIZE given and BANDSOLVE_SANITIZE_THREAD=ON: ThreadSanitizer on compile and link;
#       executables get the project's TSan defaults and, on OpenMP, LLVM's Archer tool
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

# ThreadSanitizer (BANDSOLVE_SANITIZE_THREAD): data races between the threads of the host
# backends' kernels. TSan sees the synchronization of what it instruments, so Kokkos itself must
# be compiled with -fsanitize=thread (setup-kokkos-tsan.sh), and OpenMP's fork, join and barriers
# live in the uninstrumented runtime: LLVM's libomp reports them to TSan through the Archer tool
# (libarcher, an OMPT tool shipped with Clang's OpenMP), which libomp starts when an executable
# links it. GCC's libgomp has no such tool, and Kokkos::Threads waits on plain volatile flags that
# TSan cannot see, hence Clang and OpenMP (or Serial alone).
set(BANDSOLVE_THREAD_SANITIZE_FLAGS -fsanitize=thread -fno-omit-frame-pointer)
if(BANDSOLVE_SANITIZE_THREAD)
  if(BANDSOLVE_SANITIZE)
    message(FATAL_ERROR "BandSolve: BANDSOLVE_SANITIZE (ASan + UBSan) and "
                        "BANDSOLVE_SANITIZE_THREAD cannot be combined; use two build trees")
  endif()
  if(NOT CMAKE_CXX_COMPILER_ID MATCHES "Clang")
    message(FATAL_ERROR "BandSolve: BANDSOLVE_SANITIZE_THREAD needs Clang (LLVM's OpenMP tool "
                        "Archer), not ${CMAKE_CXX_COMPILER_ID}")
  endif()
  if(Kokkos_ENABLE_THREADS OR Kokkos_ENABLE_PTHREAD)
    message(FATAL_ERROR "BandSolve: BANDSOLVE_SANITIZE_THREAD needs a Kokkos with OpenMP or "
                        "Serial: Kokkos::Threads synchronizes through flags TSan cannot see")
  endif()
  if(Kokkos_ENABLE_OPENMP)
    get_filename_component(_bs_cxx "${CMAKE_CXX_COMPILER}" REALPATH)
    get_filename_component(_bs_llvm_lib "${_bs_cxx}" DIRECTORY)
    find_library(BANDSOLVE_ARCHER_LIBRARY NAMES archer
                 HINTS "${_bs_llvm_lib}/../lib")
    if(NOT BANDSOLVE_ARCHER_LIBRARY)
      message(FATAL_ERROR "BandSolve: BANDSOLVE_SANITIZE_THREAD on OpenMP needs LLVM's Archer "
                          "tool (libarcher.so, Debian's libomp-dev); set BANDSOLVE_ARCHER_LIBRARY")
    endif()
    message(STATUS "BandSolve: ThreadSanitizer with Archer ${BANDSOLVE_ARCHER_LIBRARY}")
  endif()
  add_library(bandsolve_thread_sanitizer_defaults OBJECT
              "${PROJECT_SOURCE_DIR}/tests/support/thread_sanitizer_defaults.cpp")
  target_compile_options(bandsolve_thread_sanitizer_defaults PRIVATE
                         ${BANDSOLVE_THREAD_SANITIZE_FLAGS})
endif()

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
    if(arg_SANITIZE AND BANDSOLVE_SANITIZE_THREAD)
      target_compile_options(${target} PRIVATE ${BANDSOLVE_THREAD_SANITIZE_FLAGS})
      target_link_options(${target} PRIVATE ${BANDSOLVE_THREAD_SANITIZE_FLAGS})
      get_target_property(type ${target} TYPE)
      if(type STREQUAL "EXECUTABLE")
        target_sources(${target} PRIVATE $<TARGET_OBJECTS:bandsolve_thread_sanitizer_defaults>)
        if(BANDSOLVE_ARCHER_LIBRARY)
          target_link_libraries(${target} PRIVATE "${BANDSOLVE_ARCHER_LIBRARY}")
        endif()
      endif()
    endif()
  elseif(BANDSOLVE_NATIVE OR (arg_SANITIZE AND (BANDSOLVE_SANITIZE OR BANDSOLVE_SANITIZE_THREAD)))
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
