# bandsolve_cuda_compile_check(<target>): in CUDA builds, adds <target> to the target
# bandsolve_cuda_compile_check, which compiles its sources as the target does (nvcc's front end
# on host and device code, cicc and ptxas on the device code) but stops before the host compiler
# generates code (-fsyntax-only) and links nothing: what CI checks where there is no GPU, for
# about two thirds of the compile time. The device code is compiled unoptimized (-G: cicc and
# ptxas at -O0, 35 against 49 s for device/test_thomas_device): what nvcc rejects is rejected
# by its front end, at any level. Two of the front end's warnings are errors here, as they are
# code that cannot run on a GPU: a host function (20011) or a constexpr host function such as
# std::max (20013) called from a __host__ __device__ function (every kernel lambda and
# KOKKOS_INLINE_FUNCTION). The target itself still builds and runs on a GPU machine.
# Meant for nvcc (nvcc_wrapper), which hands -fsyntax-only to the host compiler only: with Clang
# as the CUDA compiler it would skip the device code too. Call it after the target's sources,
# flags and libraries are set.
function(bandsolve_cuda_compile_check target)
  if(NOT TARGET bandsolve_cuda_compile_check)
    add_custom_target(bandsolve_cuda_compile_check)
  endif()
  get_target_property(sources ${target} SOURCES)
  get_target_property(source_dir ${target} SOURCE_DIR)
  set(absolute_sources)
  foreach(src IN LISTS sources)
    if(IS_ABSOLUTE "${src}")
      list(APPEND absolute_sources "${src}")
    else()
      list(APPEND absolute_sources "${source_dir}/${src}")
    endif()
  endforeach()
  set(check ${target}_nvcc_check)
  add_library(${check} OBJECT EXCLUDE_FROM_ALL ${absolute_sources})
  foreach(property INCLUDE_DIRECTORIES COMPILE_DEFINITIONS COMPILE_OPTIONS CXX_STANDARD
                   CXX_EXTENSIONS)
    get_target_property(value ${target} ${property})
    if(value)
      set_property(TARGET ${check} PROPERTY ${property} "${value}")
    endif()
  endforeach()
  get_target_property(libraries ${target} LINK_LIBRARIES)
  if(libraries)
    target_link_libraries(${check} PRIVATE ${libraries})
  endif()
  # The libraries give their usage requirements only: nothing is linked, so with CMake 3.19 or
  # newer the check does not wait for them to be built (the tests' main would be compiled by nvcc
  # for nothing). Older CMake ignores the property.
  set_property(TARGET ${check} PROPERTY OPTIMIZE_DEPENDENCIES ON)
  target_compile_options(${check} PRIVATE -fsyntax-only -G "SHELL:-Xcudafe --diag_error=20011"
                                           "SHELL:-Xcudafe --diag_error=20013")
  add_dependencies(bandsolve_cuda_compile_check ${check})
endfunction()
