# bandsolve_add_mpi_test(NAME <test> TARGET <executable> RANKS <n> [LABELS <label>...]
#                        [ARGS <argument>...])
# A CTest test that runs <executable> (with ARGS) on <n> MPI ranks through FindMPI's mpiexec,
# labelled mpi.
# --oversubscribe: more ranks than cores, as on CI's 2 vCPUs; an Open MPI option, passed only where
# `mpiexec --version` names Open MPI (MPICH's hydra runs any number of ranks, and as root, without
# flags). The OMPI_ALLOW_RUN_AS_ROOT pair lets Open MPI run as root in CI containers; other MPI
# libraries ignore it. One thread per rank (OpenMP or Kokkos::Threads) without binding, so that
# oversubscribed ranks do not spin against each other.
# In the sanitizer tree LeakSanitizer would report the allocations Open MPI keeps until exit (not
# BandSolve's): leak checks are off for these tests only, any other error still aborts. A hang (a
# rank waiting in a collective call the others skipped) fails at the timeout.
# HWLOC_COMPONENTS=-pci: MPI_Init's topology discovery (hwloc, in Open MPI and MPICH) leaves out
# PCI devices, which the tests do not use. Where the PCI ID database is installed (Debian's
# pci.ids, which ROCm's hipcc pulls in), hwloc reads all of it in every rank, and under
# AddressSanitizer that took 4-5 s per rank: a sanitized 4-rank example 19 s instead of 1.
if(NOT DEFINED _bandsolve_mpi_preflags)
  set(_bandsolve_mpi_preflags ${MPIEXEC_PREFLAGS})
  execute_process(COMMAND ${MPIEXEC_EXECUTABLE} --version OUTPUT_VARIABLE _bandsolve_mpiexec_version
                  ERROR_QUIET)
  if(_bandsolve_mpiexec_version MATCHES "Open MPI|OpenRTE")
    list(APPEND _bandsolve_mpi_preflags --oversubscribe)
  endif()
endif()

function(bandsolve_add_mpi_test)
  cmake_parse_arguments(arg "" "NAME;TARGET;RANKS" "LABELS;ARGS" ${ARGN})
  set(env "OMP_PROC_BIND=false;OMP_WAIT_POLICY=passive;OMP_NUM_THREADS=1;KOKKOS_NUM_THREADS=1"
          "OMPI_ALLOW_RUN_AS_ROOT=1;OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1;HWLOC_COMPONENTS=-pci")
  if(BANDSOLVE_SANITIZE)
    list(APPEND env "ASAN_OPTIONS=detect_leaks=0:abort_on_error=1")
  endif()
  add_test(NAME ${arg_NAME}
           COMMAND ${MPIEXEC_EXECUTABLE} ${MPIEXEC_NUMPROC_FLAG} ${arg_RANKS}
                   ${_bandsolve_mpi_preflags} $<TARGET_FILE:${arg_TARGET}> ${MPIEXEC_POSTFLAGS}
                   ${arg_ARGS})
  set_tests_properties(${arg_NAME} PROPERTIES
    TIMEOUT 300
    LABELS "mpi;${arg_LABELS}"
    PROCESSORS ${arg_RANKS}
    ENVIRONMENT "${env}")
endfunction()
