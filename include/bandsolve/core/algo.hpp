#pragma once
// Algorithm tags: the second argument of bandsolve::solve and bandsolve::factorize.
namespace bandsolve::algo {

// Thomas algorithm (LU without pivoting): for diagonally dominant or symmetric positive definite
// systems. Parallel across systems only.
struct thomas {
  static constexpr const char* name = "thomas";
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
struct automatic {
  static constexpr const char* name = "automatic";
};

}  // namespace bandsolve::algo
