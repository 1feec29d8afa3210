// GPU builds only (CUDA or HIP): the distributed solves called on the GPU with Views in its memory
// (their local passes on the device: mpi/partition_device.hpp for scalar lines,
// mpi/block_partition_kernel.hpp for block lines) must give what the same calls give on the host:
// mpi::solve on a row batch and on a strided subview, mpi::factorize and two solves,
// mpi::solve_along and mpi::factorize_along on a 3-D array, and block-tridiagonal lines (m = 3)
// with one and with two right-hand sides per system, one-shot, factored and refactored; complex
// lines and complex block lines, and complex right-hand sides over real lines and real block
// lines; block lines along an axis (mpi::solve_along, factorize_along and refactor). Each rank
// holds 3 + rank rows (block rows) of every line. A plain main() run by mpiexec on a GPU machine;
// returns 1 on a mismatch. Only the block size it solves is compiled (by nvcc
// and hipcc in CI as well).
#define BANDSOLVE_BLOCK_SIZES 3
#include <bandsolve/mpi.hpp>

#include <Kokkos_Core.hpp>
#include <mpi.h>

#include <cmath>
#include <cstdio>
#include <string>
#include <type_traits>
#include <utility>

namespace {

namespace bmpi = bandsolve::mpi;
// The GPU: Kokkos' default execution space in a build with a GPU backend.
using gpu_space = Kokkos::DefaultExecutionSpace;
using gpu_memory = gpu_space::memory_space;
static_assert(bandsolve::backend::is_gpu_space_v<gpu_space>,
              "test_device_views: build it against a Kokkos with CUDA or HIP");
using host_rows = Kokkos::View<double**, Kokkos::LayoutRight, Kokkos::HostSpace>;
using device_rows = Kokkos::View<double**, Kokkos::LayoutRight, gpu_memory>;

int failures = 0;

void report(const char* what, double diff, bool same_info) {
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  const bool ok = diff <= 1e-12 && same_info;
  if (!ok) ++failures;
  if (rank == 0 || !ok)
    std::printf("rank %d: %-40s max difference %.3g, info %s: %s\n", rank, what, diff,
                same_info ? "same" : "different", ok ? "ok" : "FAILED");
}

// Diagonally dominant rows from a hash of (line, local row, rank, which).
double coefficient(std::size_t s, std::size_t i, int rank, int which) {
  const double h = std::sin(1.0 + 0.37 * static_cast<double>(s) + 0.91 * static_cast<double>(i) +
                            1.7 * rank + 2.3 * which);
  return which == 1 ? 3.0 + h : h;
}

template <class View>
double max_difference(const View& device, const host_rows& host) {
  const auto back = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), device);
  double worst = 0;
  for (std::size_t s = 0; s < host.extent(0); ++s)
    for (std::size_t i = 0; i < host.extent(1); ++i)
      worst = std::fmax(worst, std::fabs(back(s, i) - host(s, i)));
  return worst;
}

void batches(int rank) {
  const std::size_t nsys = 45, m = 3 + static_cast<std::size_t>(rank);
  host_rows a("a", nsys, m), b("b", nsys, m), c("c", nsys, m), d("d", nsys, m);
  for (std::size_t s = 0; s < nsys; ++s)
    for (std::size_t i = 0; i < m; ++i)
      a(s, i) = coefficient(s, i, rank, 0), b(s, i) = coefficient(s, i, rank, 1),
      c(s, i) = coefficient(s, i, rank, 2), d(s, i) = coefficient(s, i, rank, 3);
  const auto da = Kokkos::create_mirror_view_and_copy(gpu_memory(), a);
  const auto db = Kokkos::create_mirror_view_and_copy(gpu_memory(), b);
  const auto dc = Kokkos::create_mirror_view_and_copy(gpu_memory(), c);
  const auto rhs = Kokkos::create_mirror_view_and_copy(gpu_memory(), d);
  Kokkos::View<int*, Kokkos::HostSpace> info("info", nsys);
  Kokkos::View<int*, gpu_memory> dinfo("dinfo", nsys);
  const Kokkos::DefaultHostExecutionSpace host;
  const gpu_space gpu;

  host_rows x("x", nsys, m);
  Kokkos::deep_copy(x, d);
  bmpi::solve(host, MPI_COMM_WORLD, a, b, c, x, info);
  device_rows dx("dx", nsys, m);
  Kokkos::deep_copy(dx, rhs);
  bmpi::solve(gpu, MPI_COMM_WORLD, da, db, dc, dx, dinfo);
  const auto dinfo_back = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), dinfo);
  bool same = true;
  for (std::size_t s = 0; s < nsys; ++s) same = same && dinfo_back(s) == info(s);
  report("solve, row batch", max_difference(dx, x), same);

  // Every other system of device arrays: strided batches, gathered before the copies.
  using device_strided = Kokkos::View<double**, Kokkos::LayoutStride, gpu_memory>;
  const auto every_other = [&](const device_rows& v, const char* label) {
    const device_rows wide(std::string(label), 2 * nsys, m);
    const device_strided s(wide.data(), Kokkos::LayoutStride(nsys, 2 * m, m, 1));
    Kokkos::deep_copy(gpu, s, v);
    return std::make_pair(wide, s);  // wide keeps the memory
  };
  const auto sa = every_other(da, "sa"), sb = every_other(db, "sb"), sc = every_other(dc, "sc"),
             sd = every_other(rhs, "sd");
  bmpi::solve(gpu, MPI_COMM_WORLD, sa.second, sb.second, sc.second, sd.second, dinfo);
  Kokkos::deep_copy(gpu, dx, sd.second);
  report("solve, strided batch", max_difference(dx, x), true);

  const auto f = bmpi::factorize(gpu, MPI_COMM_WORLD, da, db, dc);
  for (int k = 0; k < 2; ++k) {
    Kokkos::deep_copy(dx, rhs);
    f.solve(gpu, dx);
    report("factorize, then solve", max_difference(dx, x), f.info()(0) == info(0));
  }
}

void along(int rank) {
  const std::size_t e0 = 4, m = 3 + static_cast<std::size_t>(rank), e2 = 7;
  using host3 = Kokkos::View<double***, Kokkos::LayoutRight, Kokkos::HostSpace>;
  host3 a("a", e0, m, e2), b("b", e0, m, e2), c("c", e0, m, e2), d("d", e0, m, e2);
  for (std::size_t p = 0; p < e0; ++p)
    for (std::size_t i = 0; i < m; ++i)
      for (std::size_t q = 0; q < e2; ++q) {
        a(p, i, q) = coefficient(p * e2 + q, i, rank, 0);
        b(p, i, q) = coefficient(p * e2 + q, i, rank, 1);
        c(p, i, q) = coefficient(p * e2 + q, i, rank, 2);
        d(p, i, q) = coefficient(p * e2 + q, i, rank, 3);
      }
  const auto da = Kokkos::create_mirror_view_and_copy(gpu_memory(), a);
  const auto db = Kokkos::create_mirror_view_and_copy(gpu_memory(), b);
  const auto dc = Kokkos::create_mirror_view_and_copy(gpu_memory(), c);
  const auto dd = Kokkos::create_mirror_view_and_copy(gpu_memory(), d);
  const auto dd2 = Kokkos::create_mirror_view_and_copy(gpu_memory(), d);
  Kokkos::View<int*, Kokkos::HostSpace> info("info", e0 * e2);
  Kokkos::View<int*, gpu_memory> dinfo("dinfo", e0 * e2);
  bmpi::solve_along(Kokkos::DefaultHostExecutionSpace(), MPI_COMM_WORLD, 1, a, b, c, d, info);
  bmpi::solve_along(gpu_space(), MPI_COMM_WORLD, 1, da, db, dc, dd, dinfo);
  const auto f = bmpi::factorize_along(gpu_space(), MPI_COMM_WORLD, 1, da, db, dc);
  f.solve(gpu_space(), dd2);
  const auto worst_of = [&](const auto& dev) {
    const auto back = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), dev);
    double worst = 0;
    for (std::size_t p = 0; p < e0; ++p)
      for (std::size_t i = 0; i < m; ++i)
        for (std::size_t q = 0; q < e2; ++q)
          worst = std::fmax(worst, std::fabs(back(p, i, q) - d(p, i, q)));
    return worst;
  };
  report("solve_along, axis 1 of a 3-D array", worst_of(dd), true);
  report("factorize_along, then solve, axis 1", worst_of(dd2), f.info()(0) == info(0));
}

// Complex lines on device Views against the host calls: complex coefficients and right-hand
// sides one-shot, and complex right-hand sides over real lines factored (two solves).
void complex_lines(int rank) {
  using Z = Kokkos::complex<double>;
  using host_z = Kokkos::View<Z**, Kokkos::LayoutRight, Kokkos::HostSpace>;
  const std::size_t nsys = 33, m = 3 + static_cast<std::size_t>(rank);
  host_rows a("a", nsys, m), b("b", nsys, m), c("c", nsys, m);
  host_z za("za", nsys, m), zb("zb", nsys, m), zc("zc", nsys, m), zd("zd", nsys, m);
  for (std::size_t s = 0; s < nsys; ++s)
    for (std::size_t i = 0; i < m; ++i) {
      a(s, i) = coefficient(s, i, rank, 0), b(s, i) = coefficient(s, i, rank, 1);
      c(s, i) = coefficient(s, i, rank, 2);
      za(s, i) = Z(a(s, i), 0.5 * coefficient(s, i, rank, 4));
      zb(s, i) = Z(b(s, i), 0.5 * coefficient(s, i, rank, 5));
      zc(s, i) = Z(c(s, i), 0.5 * coefficient(s, i, rank, 6));
      zd(s, i) = Z(coefficient(s, i, rank, 3), coefficient(s, i, rank, 7));
    }
  const auto on_gpu = [](const auto& v) {
    return Kokkos::create_mirror_view_and_copy(gpu_memory(), v);
  };
  const auto difference = [&](const auto& device, const host_z& host) {
    const auto back = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), device);
    double worst = 0;
    for (std::size_t s = 0; s < nsys; ++s)
      for (std::size_t i = 0; i < m; ++i)
        worst = std::fmax(worst, Kokkos::abs(back(s, i) - host(s, i)));
    return worst;
  };
  const Kokkos::DefaultHostExecutionSpace host;
  const gpu_space gpu;
  Kokkos::View<int*, Kokkos::HostSpace> info("info", nsys);
  Kokkos::View<int*, gpu_memory> dinfo("dinfo", nsys);
  host_z x("x", nsys, m);
  Kokkos::deep_copy(x, zd);
  bmpi::solve(host, MPI_COMM_WORLD, za, zb, zc, x, info);
  const auto dx = on_gpu(zd);
  bmpi::solve(gpu, MPI_COMM_WORLD, on_gpu(za), on_gpu(zb), on_gpu(zc), dx, dinfo);
  report("solve, complex lines", difference(dx, x), true);

  Kokkos::deep_copy(x, zd);
  bmpi::factorize(host, MPI_COMM_WORLD, a, b, c).solve(host, x);
  const auto f = bmpi::factorize(gpu, MPI_COMM_WORLD, on_gpu(a), on_gpu(b), on_gpu(c));
  for (int k = 0; k < 2; ++k) {
    const auto dz = on_gpu(zd);
    f.solve(gpu, dz);
    report("factorize real, solve complex", difference(dz, x), true);
  }
}

double modulus(double x) { return std::fabs(x); }
double modulus(const Kokkos::complex<double>& z) { return Kokkos::abs(z); }

// A value of type T from the hash streams `which` (real part) and which + 100 (imaginary part).
template <class T>
T value(std::size_t s, std::size_t g, int rank, int which) {
  if constexpr (std::is_same_v<T, double>)
    return coefficient(s, g, rank, which);
  else
    return T(coefficient(s, g, rank, which), coefficient(s, g, rank, which + 100));
}

// Block lines: nsys lines of 3 + rank block rows of m x m blocks of type C, d with nrhs
// right-hand sides per system (a rank-3 d for one, rank 4 for several; of type C, or complex
// over real C), on device Views against the host calls; the factorization refactored on the
// device with other blocks (a and c swapped) against the host one-shot solve of those.
template <class C, class HostD>
void blocks_with(int rank, HostD d, const char* one_shot, const char* factored,
                 const char* refactored) {
  using host4 = Kokkos::View<C****, Kokkos::LayoutRight, Kokkos::HostSpace>;
  const std::size_t nsys = d.extent(0), n = d.extent(1), m = d.extent(2);
  const std::size_t nrhs = HostD::rank == 4 ? d.extent(3) : 1;
  host4 a("a", nsys, n, m, m), b("b", nsys, n, m, m), c("c", nsys, n, m, m);
  auto* const rhs = d.data();
  for (std::size_t s = 0; s < nsys; ++s)
    for (std::size_t g = 0; g < n; ++g)
      for (std::size_t r = 0; r < m; ++r) {
        for (std::size_t q = 0; q < m; ++q) {
          const int rq = static_cast<int>(r * m + q);
          a(s, g, r, q) = 0.3 * value<C>(s, g, rank, 10 + rq);
          c(s, g, r, q) = 0.3 * value<C>(s, g, rank, 30 + rq);
          b(s, g, r, q) = r == q ? 2.0 * static_cast<double>(m) + value<C>(s, g, rank, 1)
                                 : 0.3 * value<C>(s, g, rank, 50 + rq);
        }
        for (std::size_t k = 0; k < nrhs; ++k)
          rhs[((s * n + g) * m + r) * nrhs + k] = value<typename HostD::non_const_value_type>(
              s, g, rank, 70 + int(r * nrhs + k));
      }
  const auto da = Kokkos::create_mirror_view_and_copy(gpu_memory(), a);
  const auto db = Kokkos::create_mirror_view_and_copy(gpu_memory(), b);
  const auto dc = Kokkos::create_mirror_view_and_copy(gpu_memory(), c);
  const auto dd0 = Kokkos::create_mirror_view_and_copy(gpu_memory(), d);
  const auto dd = Kokkos::create_mirror_view_and_copy(gpu_memory(), d);
  Kokkos::View<int*, Kokkos::HostSpace> info("info", nsys);
  Kokkos::View<int*, gpu_memory> dinfo("dinfo", nsys);
  const bandsolve::algo::block_thomas algorithm{};
  bmpi::solve(Kokkos::DefaultHostExecutionSpace(), MPI_COMM_WORLD, algorithm, a, b, c, d, info);
  bmpi::solve(gpu_space(), MPI_COMM_WORLD, algorithm, da, db, dc, dd, dinfo);
  const auto worst = [&](const auto& device) {
    const auto back = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), device);
    double w = 0;
    for (std::size_t k = 0; k < d.size(); ++k)
      w = std::fmax(w, modulus(back.data()[k] - rhs[k]));
    return w;
  };
  const auto dinfo_back = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), dinfo);
  bool same = true;
  for (std::size_t s = 0; s < nsys; ++s) same = same && dinfo_back(s) == info(s);
  report(one_shot, worst(dd), same);
  auto f = bmpi::factorize(gpu_space(), MPI_COMM_WORLD, algorithm, da, db, dc);
  for (int k = 0; k < 2; ++k) {
    Kokkos::deep_copy(dd, dd0);
    f.solve(gpu_space(), dd);
    report(factored, worst(dd), f.info()(0) == info(0));
  }
  const auto x = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), dd0);
  Kokkos::View<int*, Kokkos::HostSpace> info2("info2", nsys);
  bmpi::solve(Kokkos::DefaultHostExecutionSpace(), MPI_COMM_WORLD, algorithm, c, b, a, x, info2);
  const auto copy = f;  // shares f's state: it solves with the new factors
  f.refactor(gpu_space(), dc, db, da);
  Kokkos::deep_copy(dd, dd0);
  copy.solve(gpu_space(), dd);
  const auto back = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), dd);
  double w = 0;
  for (std::size_t k = 0; k < x.size(); ++k)
    w = std::fmax(w, modulus(back.data()[k] - x.data()[k]));
  report(refactored, w, copy.info()(0) == info2(0));
}

void blocks(int rank) {
  const std::size_t nsys = 5, n = 3 + static_cast<std::size_t>(rank), m = 3;
  using zdouble = Kokkos::complex<double>;
  using host3 = Kokkos::View<double***, Kokkos::LayoutRight, Kokkos::HostSpace>;
  using host4 = Kokkos::View<double****, Kokkos::LayoutRight, Kokkos::HostSpace>;
  using complex3 = Kokkos::View<zdouble***, Kokkos::LayoutRight, Kokkos::HostSpace>;
  blocks_with<double>(rank, host3("d", nsys, n, m), "block lines, one right-hand side",
                      "block factorize, one right-hand side",
                      "block refactor, one right-hand side");
  blocks_with<double>(rank, host4("d", nsys, n, m, 2), "block lines, two right-hand sides",
                      "block factorize, two right-hand sides",
                      "block refactor, two right-hand sides");
  blocks_with<zdouble>(rank, complex3("d", nsys, n, m), "complex block lines",
                       "complex block factorize", "complex block refactor");
  blocks_with<double>(rank, complex3("d", nsys, n, m), "block lines, complex d",
                      "block factorize, complex d", "block refactor, complex d");
}

// Block lines along axis 1 of a (4, 3 + rank, 5) grid of m = 3 unknowns per point (LayoutRight
// blocks, LayoutLeft d): mpi::solve_along, and mpi::factorize_along with a solve and a refactor
// (a and c swapped), on device Views against the same calls on the host.
void blocks_along(int rank) {
  const std::size_t e0 = 4, n = 3 + static_cast<std::size_t>(rank), e2 = 5, m = 3, lines = 20;
  using blocks5 = Kokkos::View<double*****, Kokkos::LayoutRight, Kokkos::HostSpace>;
  using grid4 = Kokkos::View<double****, Kokkos::LayoutLeft, Kokkos::HostSpace>;
  blocks5 a("a", e0, n, e2, m, m), b("b", e0, n, e2, m, m), c("c", e0, n, e2, m, m);
  grid4 d("d", e0, n, e2, m);
  for (std::size_t i = 0; i < e0; ++i)
    for (std::size_t g = 0; g < n; ++g)
      for (std::size_t k = 0; k < e2; ++k) {
        const std::size_t s = i * e2 + k;
        for (std::size_t r = 0; r < m; ++r) {
          for (std::size_t q = 0; q < m; ++q) {
            const int rq = static_cast<int>(r * m + q);
            a(i, g, k, r, q) = 0.3 * coefficient(s, g, rank, 10 + rq);
            c(i, g, k, r, q) = 0.3 * coefficient(s, g, rank, 30 + rq);
            b(i, g, k, r, q) = r == q ? 6.0 + coefficient(s, g, rank, 1)
                                      : 0.3 * coefficient(s, g, rank, 50 + rq);
          }
          d(i, g, k, r) = coefficient(s, g, rank, 70 + static_cast<int>(r));
        }
      }
  const auto da = Kokkos::create_mirror_view_and_copy(gpu_memory(), a);
  const auto db = Kokkos::create_mirror_view_and_copy(gpu_memory(), b);
  const auto dc = Kokkos::create_mirror_view_and_copy(gpu_memory(), c);
  const auto dd0 = Kokkos::create_mirror_view_and_copy(gpu_memory(), d);
  const auto dd = Kokkos::create_mirror_view_and_copy(gpu_memory(), d);
  const auto d0 = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), d);
  Kokkos::View<int*, Kokkos::HostSpace> info("info", lines);
  Kokkos::View<int*, gpu_memory> dinfo("dinfo", lines);
  const Kokkos::DefaultHostExecutionSpace host;
  const bandsolve::algo::block_thomas algorithm{};
  const auto worst = [&](const auto& device, const grid4& expected) {
    const auto back = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), device);
    double w = 0;
    for (std::size_t k = 0; k < expected.span(); ++k)
      w = std::fmax(w, std::fabs(back.data()[k] - expected.data()[k]));
    return w;
  };
  bmpi::solve_along(host, MPI_COMM_WORLD, algorithm, 1, a, b, c, d, info);
  bmpi::solve_along(gpu_space(), MPI_COMM_WORLD, algorithm, 1, da, db, dc, dd, dinfo);
  const auto dinfo_back = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), dinfo);
  bool same = true;
  for (std::size_t s = 0; s < lines; ++s) same = same && dinfo_back(s) == info(s);
  report("block lines along an axis", worst(dd, d), same);
  auto f = bmpi::factorize_along(gpu_space(), MPI_COMM_WORLD, algorithm, 1, da, db, dc);
  Kokkos::deep_copy(dd, dd0);
  f.solve(gpu_space(), dd);
  report("block factorize_along", worst(dd, d), f.info()(0) == info(0));
  Kokkos::deep_copy(d, d0);
  bmpi::solve_along(host, MPI_COMM_WORLD, algorithm, 1, c, b, a, d, info);
  f.refactor(gpu_space(), dc, db, da);
  Kokkos::deep_copy(dd, dd0);
  f.solve(gpu_space(), dd);
  report("block refactor along an axis", worst(dd, d), f.info()(0) == info(0));
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  Kokkos::initialize(argc, argv);
  {
    batches(rank);
    along(rank);
    complex_lines(rank);
    blocks(rank);
    blocks_along(rank);
  }
  Kokkos::finalize();
  int any = failures;
  MPI_Allreduce(MPI_IN_PLACE, &any, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  MPI_Finalize();
  return any == 0 ? 0 : 1;
}
