# The GPU tree's names. BANDSOLVE_GPU is cuda or hip where Kokkos has that backend (empty
# otherwise): the tests that run on the GPU carry it as a label, bandsolve_${BANDSOLVE_GPU}_tests
# builds them, and bandsolve_gpu_compile_check(<target>) adds <target> to the target
# bandsolve_${BANDSOLVE_GPU}_compile_check, which compiles its sources as the target does but
# generates no host code and links nothing: what CI checks where there is no GPU.
#   CUDA (nvcc, nvcc_wrapper): nvcc's front end on host and device code, cicc and ptxas on the
#     device code, and the host compiler stopped at -fsyntax-only, for about two thirds of the
#     compile time. The device code is compiled unoptimized (-G: cicc and ptxas at -O0, 35
#     against 49 s for device/test_thomas_device): what nvcc rejects is rejected by its front
#     end, at any level. Two of the front end's warnings are errors here, as they are code that
#     cannot run on a GPU: a host function (20011) or a constexpr host function such as std::max
#     (20013) called from a __host__ __device__ function (every kernel lambda and
#     KOKKOS_INLINE_FUNCTION). Meant for nvcc, which hands -fsyntax-only to the host compiler
#     only: with Clang as the CUDA compiler it would skip the device code too.
#   HIP (hipcc, Clang): the device side only (--cuda-device-only): Clang parses the whole unit,
#     reports a host function called from a kernel or a __host__ __device__ function as an
#     error, and its AMDGPU back end compiles every kernel; the host side is the host trees'.
# The target itself still builds and runs on a GPU machine. Call it after the target's sources,
# flags and libraries are set.
set(BANDSOLVE_GPU "")
if(Kokkos_ENABLE_CUDA)
  set(BANDSOLVE_GPU cuda)
elseif(Kokkos_ENABLE_HIP)
  set(BANDSOLVE_GPU hip)
endif()

function(bandsolve_gpu_compile_check target)
  if(NOT BANDSOLVE_GPU)
    message(FATAL_ERROR "bandsolve_gpu_compile_check(${target}): Kokkos has no GPU backend")
  endif()
  set(all bandsolve_${BANDSOLVE_GPU}_compile_check)
  if(NOT TARGET ${all})
    add_custom_target(${all})
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
  set(check ${target}_${BANDSOLVE_GPU}_check)
  add_library(${check} OBJECT EXCLUDE_FROM_ALL ${absolute_sources})
  # A target of several sources (the CUDA benchmarks) is checked as one unit: nvcc spends about
  # 7 s of every unit on Kokkos' headers and its own passes, and the three CUDA benchmarks took
  # 30 s as one against 58 s apart (docs/development.md, "Build and CI times").
  list(LENGTH absolute_sources count)
  if(count GREATER 1)
    set_target_properties(${check} PROPERTIES UNITY_BUILD ON UNITY_BUILD_BATCH_SIZE 0)
  endif()
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
  if(BANDSOLVE_GPU STREQUAL cuda)
    target_compile_options(${check} PRIVATE -fsyntax-only -G "SHELL:-Xcudafe --diag_error=20011"
                                             "SHELL:-Xcudafe --diag_error=20013")
  else()
    target_compile_options(${check} PRIVATE --cuda-device-only)
  endif()
  add_dependencies(${all} ${check})
endfunction()
