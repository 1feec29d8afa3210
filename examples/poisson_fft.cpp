// Poisson equation  u_xx + u_yy + u_zz = f  on [0, 2 pi)^2 x [0, 1], periodic in x and y,
// homogeneous Neumann in z: FFTW transforms every z-plane in x and y, which leaves one tridiagonal
// system along z per Fourier mode (kx, ky), all with the same off-diagonals:
//   rows (-1 - K^2 h^2, 1), (1, -2 - K^2 h^2, 1), (1, -1 - K^2 h^2), K^2 = kx^2 + ky^2,
// on cell centres z_k = (k + 1/2) h (Neumann by reflection). bandsolve::solve(shared_offdiag)
// solves them in place in FFTW's output (complex data, real coefficients generated on the fly,
// layout::column: system s, row k at s + k * systems). The (0, 0) mode is singular (u is defined
// up to a constant): it is pinned to 0, which fixes the mean of u.
// The exact solution u = cos(x) sin(2y) cos(pi z) + sin(3y) cos(2 pi z) is resolved exactly in x
// and y, so the error is that of the second-order z-discretization: the example checks that it
// falls by 4 each time h halves, and exits non-zero otherwise.
#include <bandsolve/bandsolve.hpp>

#include <fftw3.h>

#include <cmath>
#include <cstdio>
#include <vector>

namespace {

constexpr double pi = 3.14159265358979323846;

double exact(double x, double y, double z) {
  return std::cos(x) * std::sin(2 * y) * std::cos(pi * z) + std::sin(3 * y) * std::cos(2 * pi * z);
}
double source(double x, double y, double z) {
  return -(5 + pi * pi) * std::cos(x) * std::sin(2 * y) * std::cos(pi * z) -
         (9 + 4 * pi * pi) * std::sin(3 * y) * std::cos(2 * pi * z);
}

// Diagonal of the system of mode s = j * (nx/2 + 1) + kx (ky = j or j - ny), times h^2.
struct neumann_diagonal {
  int modes_x, ny, nz;
  double h2;
  KOKKOS_INLINE_FUNCTION double operator()(bandsolve::index_t s, bandsolve::index_t k) const {
    const int kx = static_cast<int>(s % modes_x), j = static_cast<int>(s / modes_x);
    const int ky = j <= ny / 2 ? j : j - ny;
    const double shift = -static_cast<double>(kx * kx + ky * ky) * h2;
    return (k == 0 || k + 1 == nz ? -1.0 : -2.0) + shift;
  }
};

// Max-norm error of the solution on an nx x ny x nz grid.
double solve_and_measure(int nx, int ny, int nz) {
  using exec_space = Kokkos::DefaultHostExecutionSpace;
  using complex = Kokkos::complex<double>;
  const int modes_x = nx / 2 + 1;
  const std::size_t plane = static_cast<std::size_t>(nx) * ny;
  const std::size_t systems = static_cast<std::size_t>(modes_x) * ny;
  const double h = 1.0 / nz, dx = 2 * pi / nx, dy = 2 * pi / ny;

  double* u = fftw_alloc_real(plane * nz);
  fftw_complex* spectrum = fftw_alloc_complex(systems * nz);
  const int dims[2] = {ny, nx}, cdims[2] = {ny, modes_x};
  fftw_plan forward = fftw_plan_many_dft_r2c(2, dims, nz, u, dims, 1, static_cast<int>(plane),
                                             spectrum, cdims, 1, static_cast<int>(systems),
                                             FFTW_ESTIMATE);
  fftw_plan backward = fftw_plan_many_dft_c2r(2, dims, nz, spectrum, cdims, 1,
                                              static_cast<int>(systems), u, dims, 1,
                                              static_cast<int>(plane), FFTW_ESTIMATE);

  for (int k = 0; k < nz; ++k)
    for (int j = 0; j < ny; ++j)
      for (int i = 0; i < nx; ++i)
        u[k * plane + j * nx + i] = source(i * dx, j * dy, (k + 0.5) * h);
  fftw_execute(forward);

  // The systems, in place in FFTW's output; h^2 and FFTW's 1/(nx ny) folded into the data.
  Kokkos::View<complex**, Kokkos::LayoutLeft, Kokkos::HostSpace, Kokkos::MemoryUnmanaged> d(
      reinterpret_cast<complex*>(spectrum), systems, nz);
  const double scale = h * h / static_cast<double>(plane);
  for (std::size_t e = 0; e < systems * nz; ++e) {
    spectrum[e][0] *= scale;
    spectrum[e][1] *= scale;
  }
  const exec_space exec;
  Kokkos::View<int*, Kokkos::HostSpace> info("info", systems);
  const auto matrix =
      bandsolve::make_shared_offdiag(1.0, 1.0, 1.0, 1.0, neumann_diagonal{modes_x, ny, nz, h * h});
  bandsolve::solve(exec, bandsolve::algo::shared_offdiag{}, matrix, d, info,
                   bandsolve::shared_offdiag_options{bandsolve::singular_last_row::pin, 0.0});
  exec.fence();
  bandsolve::throw_if_failed("poisson_fft", info);
  fftw_execute(backward);

  // The pinned zero mode fixes the mean of u over the grid; the exact solution has mean 0 too.
  double error = 0;
  for (int k = 0; k < nz; ++k)
    for (int j = 0; j < ny; ++j)
      for (int i = 0; i < nx; ++i)
        error = std::fmax(error, std::fabs(u[k * plane + j * nx + i] -
                                           exact(i * dx, j * dy, (k + 0.5) * h)));
  fftw_destroy_plan(forward);
  fftw_destroy_plan(backward);
  fftw_free(spectrum);
  fftw_free(u);
  return error;
}

}  // namespace

int main(int argc, char** argv) {
  Kokkos::ScopeGuard kokkos(argc, argv);
  std::printf("%6s %14s %8s\n", "nz", "max error", "ratio");
  double previous = 0;
  bool second_order = true;
  for (int nz : {16, 32, 64, 128}) {
    const double error = solve_and_measure(16, 16, nz);
    const double ratio = previous > 0 ? previous / error : 0;
    std::printf("%6d %14.6e %8.3f\n", nz, error, ratio);
    if (previous > 0 && !(ratio > 3.8 && ratio < 4.2)) second_order = false;
    previous = error;
  }
  std::printf(second_order ? "second-order convergence: ok\n"
                           : "second-order convergence: FAILED (ratios should be close to 4)\n");
  return second_order ? 0 : 1;
}
