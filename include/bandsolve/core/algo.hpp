#pragma once
// Algorithm tags: the second argument of bandsolve::solve and bandsolve::factorize.
namespace bandsolve::algo {

// Thomas algorithm (LU without pivoting): for diagonally dominant or symmetric positive definite
// systems. Parallel across systems only.
struct thomas {
  static constexpr const char* name = "thomas";
};

// Block-tridiagonal Thomas for blocks of m x m, m = 2..8 (block/block_thomas.hpp). No pivoting by
// default (block diagonally dominant systems); block_thomas{block_thomas::pivoting::partial}
// pivots inside each diagonal block.
struct block_thomas {
  enum class pivoting { none, partial };
  pivoting pivot = pivoting::none;
  static constexpr const char* name = "block_thomas";
};

}  // namespace bandsolve::algo
