#pragma once
// Algorithm tags: the second argument of bandsolve::solve and bandsolve::factorize.
namespace bandsolve::algo {

// Thomas algorithm (LU without pivoting): for diagonally dominant or symmetric positive definite
// systems. Parallel across systems only.
struct thomas {
  static constexpr const char* name = "thomas";
};

// Gaussian elimination with partial pivoting (row interchanges, LAPACK ?gtsv / ?gttrf / ?gttrs):
// for any nonsingular tridiagonal system, diagonally dominant or not. Parallel across systems.
struct partial_pivoting {
  static constexpr const char* name = "partial_pivoting";
};

// Periodic (cyclic) tridiagonal systems: a[0] couples x[n-1] into row 0 and c[n-1] couples x[0]
// into row n-1. Thomas on the leading n-1 rows plus a bordering (Schur complement) correction.
struct periodic {
  static constexpr const char* name = "periodic";
};

}  // namespace bandsolve::algo
