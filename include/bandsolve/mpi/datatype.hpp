#pragma once
// The MPI datatype of a scalar that the distributed solves send.
#include <mpi.h>

#include <type_traits>

namespace bandsolve::mpi::detail {

template <class T>
MPI_Datatype datatype() {
  static_assert(std::is_same_v<T, float> || std::is_same_v<T, double>,
                "bandsolve::mpi: the scalar type must be float or double");
  if constexpr (std::is_same_v<T, float>)
    return MPI_FLOAT;
  else
    return MPI_DOUBLE;
}

}  // namespace bandsolve::mpi::detail
