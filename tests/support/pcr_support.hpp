#pragma once
// Helpers of the PCR / CR / Thomas-PCR tests: a batch uploaded in any layout, the algorithms as a
// type list, and the tolerances of the reductions.
#include "test_support.hpp"

#include <cmath>
#include <string>
#include <tuple>

namespace bstest {

// Forward difference to LAPACK for PCR, CR and the hybrid on random_dominant systems. After
// normalisation every row has |a| + |c| <= 2/3 (|b| >= |a| + |c| + 1 with |a|, |c| <= 1), and a
// reduction step keeps the rows diagonally dominant (the off-diagonal ratio does not grow: Heller,
// SIAM J. Numer. Anal. 13, 1976), so each of the log2(n) steps is backward stable with a few
// roundings per row. Bound used: lapack_tol (cond <= 6, 12u per elimination) per step,
// (1 + log2 n) steps.
template <class T>
double reduction_tol(std::size_t n) {
  return lapack_tol<T>() * (1.0 + std::log2(static_cast<double>(std::max<std::size_t>(n, 1))));
}

}  // namespace bstest
