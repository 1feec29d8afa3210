#pragma once
// Algorithm tags: the second argument of bandsolve::solve and bandsolve::factorize.
namespace bandsolve::algo {

// Thomas algorithm (LU without pivoting): for diagonally dominant or symmetric positive definite
// systems. Parallel across systems only.
struct thomas {
  static constexpr const char* name = "thomas";
};

// Symmetric (Hermitian) positive definite tridiagonal systems: LDL^T without pivoting (LAPACK
// ?ptsv / ?pttrf / ?pttrs), the matrix given as its real diagonal and one off-diagonal
// (tridiag/symmetric.hpp). A fifth less memory traffic than thomas. Parallel across systems.
struct symmetric {
  static constexpr const char* name = "symmetric";
};

// Block-tridiagonal Thomas for blocks of m x m, m = 2..8 (block/block_thomas.hpp). No pivoting by
// default (block diagonally dominant systems); block_thomas{block_thomas::pivoting::partial}
// pivots inside each diagonal block.
struct block_thomas {
  enum class pivoting { none, partial };
  pivoting pivot = pivoting::none;
  static constexpr const char* name = "block_thomas";
};

// Divide and conquer for one large tridiagonal Toeplitz system (toeplitz/divide_and_conquer.hpp).
struct toeplitz_dc {
  static constexpr const char* name = "toeplitz_dc";
};

// Batches of systems sharing one tridiagonal Toeplitz matrix (toeplitz/batched.hpp).
struct toeplitz {
  static constexpr const char* name = "toeplitz";
};

// Batches with shared off-diagonals, a per-system diagonal and modified corner rows
// (toeplitz/shared_offdiag.hpp).
struct shared_offdiag {
  static constexpr const char* name = "shared_offdiag";
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

// Banded LU with kl subdiagonals and ku superdiagonals, in LAPACK band storage (see
// banded/banded_lu.hpp). With pivoting (the default): partial pivoting as LAPACK's ?gbtrf/?gbtrs.
// Without: no interchanges, for diagonally dominant or symmetric positive definite matrices.
struct banded_lu {
  int kl = 0;
  int ku = 0;
  bool pivoting = true;
  static constexpr const char* name = "banded_lu";
};

// Parallel cyclic reduction: every row reduced at once, ceil(log2 n) steps; parallel inside a
// system. No pivoting (diagonally dominant systems).
struct pcr {
  static constexpr const char* name = "pcr";
};

// Cyclic reduction: halves the system each level, then back-substitutes. No pivoting.
struct cr {
  static constexpr const char* name = "cr";
};

// Thomas-PCR hybrid: chunks solved by a modified Thomas, their end rows by PCR. For few, long
// systems. No pivoting.
struct thomas_pcr {
  static constexpr const char* name = "thomas_pcr";
};

// Picks thomas or thomas_pcr from n, the batch size, the layout and the backend's threads (the
// rule, and why PCR is not among the choices on CPU backends, is in tridiag/automatic.hpp).
// automatic{true}: the caller says the matrices are symmetric positive definite (a[i] = c[i-1]),
// and real batches that would go to thomas take algo::symmetric instead.
struct automatic {
  bool symmetric = false;
  static constexpr const char* name = "automatic";
};

}  // namespace bandsolve::algo
