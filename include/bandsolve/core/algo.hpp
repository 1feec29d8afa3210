#pragma once
// Algorithm tags: the second argument of bandsolve::solve and bandsolve::factorize.
namespace bandsolve::algo {

// Thomas algorithm (LU without pivoting): for diagonally dominant or symmetric positive definite
// systems. Parallel across systems only.
struct thomas {
  static constexpr const char* name = "thomas";
};

// Banded LU with kl subdiagonals and ku superdiagonals, in LAPACK band storage (see
// banded/banded_lu.hpp). With pivoting (the default): partial pivoting as LAPACK's ?gbtrf/?gbtrs.
// Without: no interchanges, for diagonally dominant or symmetric positive definite matrices.
struct banded_lu {
  int kl = 0;
  int ku = 0;
  bool pivoting = true;
  static constexpr const char* name = "banded_lu";
};

}  // namespace bandsolve::algo
