# The sanitizer tree's Kokkos Tools library that poisons the bytes after each host View's data
# (tests/support/view_tail_tool.cpp), for the programs that do not call
# bstest::poison_view_tails() themselves: the examples. bandsolve_poison_view_tails(TEST...)
# makes Kokkos load it in those tests; outside a sanitizer tree (GCC or Clang) it does nothing.
function(bandsolve_poison_view_tails)
  if(NOT BANDSOLVE_SANITIZE OR NOT CMAKE_CXX_COMPILER_ID MATCHES "GNU|Clang")
    return()
  endif()
  if(NOT TARGET bandsolve_view_tail_tool)
    add_library(bandsolve_view_tail_tool SHARED
                ${PROJECT_SOURCE_DIR}/tests/support/view_tail_tool.cpp)
    # Kokkos' headers only: the library calls nothing of Kokkos (checked by the tool's test).
    target_include_directories(bandsolve_view_tail_tool PRIVATE
      $<TARGET_PROPERTY:Kokkos::kokkos,INTERFACE_INCLUDE_DIRECTORIES>)
    target_compile_features(bandsolve_view_tail_tool PRIVATE cxx_std_17)
    bandsolve_dev_flags(bandsolve_view_tail_tool SANITIZE)
    add_executable(bandsolve_view_tail_tool_check
                   ${PROJECT_SOURCE_DIR}/tests/support/view_tail_tool_check.cpp)
    target_link_libraries(bandsolve_view_tail_tool_check PRIVATE Kokkos::kokkos)
    bandsolve_dev_flags(bandsolve_view_tail_tool_check SANITIZE)
    add_dependencies(bandsolve_view_tail_tool_check bandsolve_view_tail_tool)
    add_test(NAME core/view_tail_tool COMMAND bandsolve_view_tail_tool_check)
    set_tests_properties(core/view_tail_tool PROPERTIES LABELS core)
    _bandsolve_load_view_tail_tool(core/view_tail_tool)
  endif()
  foreach(test IN LISTS ARGN)
    _bandsolve_load_view_tail_tool(${test})
  endforeach()
endfunction()

# Kokkos before 4 reads the tools library from KOKKOS_PROFILE_LIBRARY, Kokkos 4 and 5 from
# KOKKOS_TOOLS_LIBS (and warn of the old name).
function(_bandsolve_load_view_tail_tool test)
  if(Kokkos_VERSION VERSION_LESS 4.0)
    set(variable KOKKOS_PROFILE_LIBRARY)
  else()
    set(variable KOKKOS_TOOLS_LIBS)
  endif()
  set_property(TEST ${test} APPEND PROPERTY ENVIRONMENT
               "${variable}=$<TARGET_FILE:bandsolve_view_tail_tool>")
endfunction()
