#pragma once
// Algorithm tags: the second argument of bandsolve::solve and bandsolve::factorize.
namespace bandsolve::algo {

// Thomas algorithm (LU without pivoting): for diagonally dominant or symmetric positive definite
// systems. Parallel across systems only.
struct thomas {
  static constexpr const char* name = "thomas";
};

}  // namespace bandsolve::algo
