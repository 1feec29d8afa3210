// 2-D heat equation u_t = u_xx + u_yy on the unit square by ADI (Douglas-Gunn, Crank-Nicolson
// weights) on a 2-D grid of MPI processes: every rank holds a block of the field, and the lines
// along x and along y cross ranks. bandsolve::mpi solves them where the data lies, over the
// communicator of the ranks a line crosses; only the stencil's halo rows move besides.
//
//   mpiexec -n 4 example_mpi_adi_heat2d        (any number of ranks: MPI_Dims_create)
//
// One step, mu = dt/h^2, lambda = mu/2, d2 the unscaled second difference:
//   r   = mu (d2_x + d2_y) u^n                      stencil (halo exchange with the 4 neighbours)
//   (1 - lambda d2_x) r' = r                        lines along x: the ranks of one process row
//   (1 - lambda d2_y) dU = r',  u^{n+1} = u^n + dU  lines along y: the ranks of one process column
// Second order in time and space. Dirichlet boundaries (u = 0) are rows (a, b, c) = (0, 1, 0)
// with r = 0 there. The matrices do not change between steps: each direction is factored once
// (bandsolve::mpi::factorize) and every step sends 2 words per line per rank and direction.
//
// Storage: a rank's block is u(j, i), x fastest. Seen as View<double**, LayoutRight>(ny, nx) it
// is a row-layout batch of ny lines along x; the same memory as View<double**, LayoutLeft>(nx, ny)
// is a column-layout batch of nx lines along y. No copies, no transposes.
//
// Exact solution: u = sin(pi x) sin(pi y) exp(-2 pi^2 t). Three grid sizes with dt proportional
// to h; the example exits non-zero unless the error falls at second order.
#include <bandsolve/bandsolve.hpp>
#include <bandsolve/mpi.hpp>

#include <mpi.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <utility>
#include <vector>

namespace {

using exec = Kokkos::DefaultHostExecutionSpace;
using along_x = Kokkos::View<double**, Kokkos::LayoutRight, Kokkos::HostSpace>;  // (j, i)
using along_y = Kokkos::View<double**, Kokkos::LayoutLeft, Kokkos::HostSpace>;   // (i, j)
constexpr double pi = 3.14159265358979323846;

// The first point and the number of points of part `k` of `n` points split over `parts` parts.
std::pair<int, int> split(int n, int parts, int k) {
  const int base = n / parts, extra = n % parts;
  return {k * base + std::min(k, extra), base + (k < extra ? 1 : 0)};
}

struct process_grid {
  MPI_Comm cart = MPI_COMM_NULL, row = MPI_COMM_NULL, column = MPI_COMM_NULL;
  int dims[2] = {0, 0}, coords[2] = {0, 0};
  int left = MPI_PROC_NULL, right = MPI_PROC_NULL, below = MPI_PROC_NULL, above = MPI_PROC_NULL;
  process_grid() {
    int size = 1;
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Dims_create(size, 2, dims);
    const int periodic[2] = {0, 0};
    MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periodic, 0, &cart);
    int rank = 0;
    MPI_Comm_rank(cart, &rank);
    MPI_Cart_coords(cart, rank, 2, coords);
    MPI_Cart_shift(cart, 0, 1, &left, &right);
    MPI_Cart_shift(cart, 1, 1, &below, &above);
    const int keep_x[2] = {1, 0}, keep_y[2] = {0, 1};
    MPI_Cart_sub(cart, keep_x, &row);     // the ranks one line along x crosses, in x order
    MPI_Cart_sub(cart, keep_y, &column);  // the ranks one line along y crosses, in y order
  }
  ~process_grid() {
    MPI_Comm_free(&row);
    MPI_Comm_free(&column);
    MPI_Comm_free(&cart);
  }
};

// Coefficients of 1 - lambda d2 for a batch whose row index is the global point g (0 .. N-1).
template <class View>
void fill_operator(const View& a, const View& b, const View& c, int first, int N, double lambda) {
  for (std::size_t s = 0; s < a.extent(0); ++s)
    for (std::size_t k = 0; k < a.extent(1); ++k) {
      const int g = first + static_cast<int>(k);
      const bool boundary = g == 0 || g == N - 1;
      a(s, k) = boundary ? 0.0 : -lambda;
      b(s, k) = boundary ? 1.0 : 1.0 + 2.0 * lambda;
      c(s, k) = boundary ? 0.0 : -lambda;
    }
}

// Max-norm error at t_end relative to the exact amplitude, M intervals per axis, `steps` steps.
double adi_error(const process_grid& grid, int M, double t_end, int steps) {
  const int N = M + 1;
  const double h = 1.0 / M, dt = t_end / steps, mu = dt / (h * h), lambda = 0.5 * mu;
  const std::pair<int, int> xs = split(N, grid.dims[0], grid.coords[0]);
  const std::pair<int, int> ys = split(N, grid.dims[1], grid.coords[1]);
  const int x0 = xs.first, nx = xs.second, y0 = ys.first, ny = ys.second;
  const exec space;

  // u with a halo of one point on each side: uh(j + 1, i + 1) = u(j, i).
  Kokkos::View<double**, Kokkos::LayoutRight, Kokkos::HostSpace> uh("u", ny + 2, nx + 2);
  along_x r("r", ny, nx);
  const along_y r_y(r.data(), nx, ny);  // the same memory, lines along y
  for (int j = 0; j < ny; ++j)
    for (int i = 0; i < nx; ++i)
      uh(j + 1, i + 1) = std::sin(pi * (x0 + i) * h) * std::sin(pi * (y0 + j) * h);

  along_x ax("ax", ny, nx), bx("bx", ny, nx), cx("cx", ny, nx);
  along_y ay("ay", nx, ny), by("by", nx, ny), cy("cy", nx, ny);
  fill_operator(ax, bx, cx, x0, N, lambda);
  fill_operator(ay, by, cy, y0, N, lambda);
  const auto fx = bandsolve::mpi::factorize(space, grid.row, ax, bx, cx);
  const auto fy = bandsolve::mpi::factorize(space, grid.column, ay, by, cy);

  // Halo rows and columns from the four neighbours (MPI_PROC_NULL at the domain's edges).
  std::vector<double> send_col(static_cast<std::size_t>(ny)), recv_col(send_col.size());
  auto exchange_columns = [&](int to, int from, int send_i, int recv_i) {
    for (int j = 0; j < ny; ++j) send_col[j] = uh(j + 1, send_i);
    MPI_Sendrecv(send_col.data(), ny, MPI_DOUBLE, to, 0, recv_col.data(), ny, MPI_DOUBLE, from, 0,
                 grid.cart, MPI_STATUS_IGNORE);
    if (from != MPI_PROC_NULL)
      for (int j = 0; j < ny; ++j) uh(j + 1, recv_i) = recv_col[j];
  };
  auto exchange_rows = [&](int to, int from, int send_j, int recv_j) {
    MPI_Sendrecv(&uh(send_j, 1), nx, MPI_DOUBLE, to, 1, &uh(recv_j, 1), nx, MPI_DOUBLE, from, 1,
                 grid.cart, MPI_STATUS_IGNORE);
  };

  for (int step = 0; step < steps; ++step) {
    exchange_columns(grid.right, grid.left, nx, 0);
    exchange_columns(grid.left, grid.right, 1, nx + 1);
    exchange_rows(grid.above, grid.below, ny, 0);
    exchange_rows(grid.below, grid.above, 1, ny + 1);
    for (int j = 0; j < ny; ++j)
      for (int i = 0; i < nx; ++i) {
        const int gx = x0 + i, gy = y0 + j;
        const bool boundary = gx == 0 || gx == N - 1 || gy == 0 || gy == N - 1;
        const double c0 = uh(j + 1, i + 1);
        r(j, i) = boundary ? 0.0
                           : mu * (uh(j + 1, i) + uh(j + 1, i + 2) + uh(j, i + 1) +
                                   uh(j + 2, i + 1) - 4.0 * c0);
      }
    fx.solve(space, r);    // lines along x, across the process row
    fy.solve(space, r_y);  // lines along y, across the process column
    for (int j = 0; j < ny; ++j)
      for (int i = 0; i < nx; ++i) uh(j + 1, i + 1) += r(j, i);
  }

  const double amplitude = std::exp(-2.0 * pi * pi * t_end);
  double err = 0;
  for (int j = 0; j < ny; ++j)
    for (int i = 0; i < nx; ++i) {
      const double exact = amplitude * std::sin(pi * (x0 + i) * h) * std::sin(pi * (y0 + j) * h);
      err = std::max(err, std::abs(uh(j + 1, i + 1) - exact));
    }
  MPI_Allreduce(MPI_IN_PLACE, &err, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  return err / amplitude;
}

}  // namespace

int main(int argc, char* argv[]) {
  MPI_Init(&argc, &argv);
  Kokkos::initialize(argc, argv);
  int status = 0;
  {
    const process_grid grid;
    int rank = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    const double t_end = 0.05;
    double previous = 0;
    for (const int M : {16, 32, 64}) {
      const double err = adi_error(grid, M, t_end, M / 2);
      const double order = previous > 0 ? std::log2(previous / err) : 0;
      if (rank == 0) {
        if (previous > 0)
          std::printf("M = %3d on %d x %d ranks: relative error %.3e, order %.2f\n", M,
                      grid.dims[0], grid.dims[1], err, order);
        else
          std::printf("M = %3d on %d x %d ranks: relative error %.3e\n", M, grid.dims[0],
                      grid.dims[1], err);
      }
      if (previous > 0 && order < 1.8) status = 1;
      previous = err;
    }
    if (rank == 0) std::printf(status == 0 ? "second order: ok\n" : "second order: FAILED\n");
  }
  Kokkos::finalize();
  MPI_Finalize();
  return status;
}
