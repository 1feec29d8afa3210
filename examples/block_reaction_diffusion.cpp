// Line-implicit reaction-diffusion with m coupled species: on each of `lines` grid lines (the
// systems of the batch; e.g. the y lines of a 2-D grid in the x sweep of a splitting scheme),
//   u_t = D u_xx - K u,   u = 0 at x = 0 and x = 1,
// with D = diag(diffusivities) and K a reaction matrix that converts species 0 -> 1 -> ... ->
// m-1 -> 0 (it couples the species, so every grid point is an m x m block). Backward Euler on n
// interior points: block row j of the system is
//   A_j = -r D,   B_j = I + dt K + 2 r D,   C_j = -r D,   r = dt / h^2.
// The matrix does not change between steps: factorize once, then one block solve per step.
//
// Check: line s starts from the discrete mode u_j = sin(k_s pi x_j) w_s, which the scheme keeps:
// each step multiplies w_s by (I + dt K + dt lambda_k D)^-1 with lambda_k = 4/h^2
// sin^2(k pi h / 2) (the discrete Laplacian's eigenvalue). The example solves those m x m
// systems on the host and compares.
//
// The block size is known when compiling, so the program compiles the block solver for it alone
// (without the macro, every m from 2 to 8 is compiled and chosen at run time).
#define BANDSOLVE_BLOCK_SIZES 4
#include <bandsolve/bandsolve.hpp>

#include <Kokkos_Core.hpp>

#include <cmath>
#include <cstdio>
#include <vector>

namespace {

constexpr int m = 4;  // species
using exec = Kokkos::DefaultExecutionSpace;
using layout = bandsolve::layout::interleaved<8>;  // the CPU layout the README recommends

// Reaction matrix: species q turns into q+1 at rate rate[q] (columns sum to zero: mass is kept).
void reaction_matrix(double (&K)[m][m]) {
  const double rate[m] = {3.0, 1.0, 2.0, 0.5};
  for (int r = 0; r < m; ++r)
    for (int c = 0; c < m; ++c) K[r][c] = 0;
  for (int q = 0; q < m; ++q) {
    K[q][q] += rate[q];
    K[(q + 1) % m][q] -= rate[q];
  }
}

// Solves M x = b for a small dense M (Gaussian elimination with partial pivoting), in place.
void dense_solve(double (&M)[m][m], double (&b)[m]) {
  for (int k = 0; k < m; ++k) {
    int p = k;
    for (int q = k + 1; q < m; ++q)
      if (std::abs(M[q][k]) > std::abs(M[p][k])) p = q;
    for (int c = 0; c < m; ++c) std::swap(M[k][c], M[p][c]);
    std::swap(b[k], b[p]);
    for (int q = k + 1; q < m; ++q) {
      const double f = M[q][k] / M[k][k];
      for (int c = k; c < m; ++c) M[q][c] -= f * M[k][c];
      b[q] -= f * b[k];
    }
  }
  for (int k = m - 1; k >= 0; --k) {
    for (int c = k + 1; c < m; ++c) b[k] -= M[k][c] * b[c];
    b[k] /= M[k][k];
  }
}

}  // namespace

int main(int argc, char* argv[]) {
  Kokkos::initialize(argc, argv);
  int status = 0;
  {
    const int lines = 300, n = 199, steps = 40;
    const double h = 1.0 / (n + 1), dt = 2e-3, r = dt / (h * h);
    const double diffusivity[m] = {1.0, 0.5, 0.25, 0.1};
    double K[m][m];
    reaction_matrix(K);

    auto a = bandsolve::make_block_batch<layout, double>("A", lines, n, m);
    auto b = bandsolve::make_block_batch<layout, double>("B", lines, n, m);
    auto c = bandsolve::make_block_batch<layout, double>("C", lines, n, m);
    auto u = bandsolve::make_block_rhs<layout, double>("u", lines, n, m);
    auto ha = Kokkos::create_mirror_view(a), hb = Kokkos::create_mirror_view(b),
         hc = Kokkos::create_mirror_view(c);
    auto hu = Kokkos::create_mirror_view(u);
    const double pi = std::acos(-1.0);
    std::vector<double> w(lines * m);  // the mode amplitudes the exact discrete solution follows
    for (int s = 0; s < lines; ++s) {
      const int k = 1 + s % 7;
      for (int q = 0; q < m; ++q) w[s * m + q] = 1.0 + 0.5 * q + 0.01 * (s % 13);
      for (int j = 0; j < n; ++j) {
        for (int p = 0; p < m; ++p) {
          for (int q = 0; q < m; ++q) {
            const double diag_d = p == q ? diffusivity[p] : 0.0;
            bandsolve::block_at(ha, s, j, p, q) = -r * diag_d;
            bandsolve::block_at(hc, s, j, p, q) = -r * diag_d;
            bandsolve::block_at(hb, s, j, p, q) = (p == q ? 1.0 : 0.0) + dt * K[p][q] + 2 * r * diag_d;
          }
          bandsolve::block_at(hu, s, j, p) = std::sin(k * pi * (j + 1) * h) * w[s * m + p];
        }
      }
    }
    Kokkos::deep_copy(a, ha);
    Kokkos::deep_copy(b, hb);
    Kokkos::deep_copy(c, hc);
    Kokkos::deep_copy(u, hu);

    const auto f = bandsolve::factorize(exec(), bandsolve::algo::block_thomas{}, a, b, c, lines);
    for (int step = 0; step < steps; ++step) f.solve(exec(), u);  // u^{t+1} overwrites u^t
    exec().fence();
    bandsolve::throw_if_failed("block reaction-diffusion", f.info());

    // The exact discrete solution after `steps` steps.
    for (int s = 0; s < lines; ++s) {
      const int k = 1 + s % 7;
      const double lambda = 4 / (h * h) * std::pow(std::sin(k * pi * h / 2), 2);
      for (int step = 0; step < steps; ++step) {
        double M[m][m], v[m];
        for (int p = 0; p < m; ++p) {
          for (int q = 0; q < m; ++q)
            M[p][q] = (p == q ? 1.0 + dt * lambda * diffusivity[p] : 0.0) + dt * K[p][q];
          v[p] = w[s * m + p];
        }
        dense_solve(M, v);
        for (int p = 0; p < m; ++p) w[s * m + p] = v[p];
      }
    }
    Kokkos::deep_copy(hu, u);
    double err = 0, norm = 0;
    for (int s = 0; s < lines; ++s) {
      const int k = 1 + s % 7;
      for (int j = 0; j < n; ++j)
        for (int p = 0; p < m; ++p) {
          const double exact = std::sin(k * pi * (j + 1) * h) * w[s * m + p];
          err = std::max(err, std::abs(bandsolve::block_at(hu, s, j, p) - exact));
          norm = std::max(norm, std::abs(exact));
        }
    }
    std::printf("block reaction-diffusion: %d lines x %d points x %d species, %d implicit steps\n",
                lines, n, m, steps);
    std::printf("max |u - exact discrete solution| / max |exact| = %.3e\n", err / norm);
    // Each step is backward stable (cond of the step matrix is O(1) here): rounding accumulates
    // over the steps, far below this bound.
    if (!(err / norm < 1e-11)) {
      std::printf("FAILED: the solution does not match the exact discrete solution\n");
      status = 1;
    }
  }
  Kokkos::finalize();
  return status;
}
