// GPU builds only (CUDA or HIP): the umbrella header in a translation unit compiled by the GPU
// compiler (nvcc, hipcc) against a Kokkos with a GPU backend (what such a user gets, even when
// solving on the host), and ordinary batched host solves through it on Kokkos::Serial: Thomas and
// the Thomas-PCR hybrid, row layout, checked by their residuals, then one call of every solver
// family (info only), so that the GPU compiler compiles each instantiation a user's host solves
// would; then the GPU's own paths on Kokkos' default execution space (Kokkos::Cuda, HIP).
// Kokkos::initialize needs a GPU in such a build. A plain main(): returns 1 on failure.
#include <bandsolve/bandsolve.hpp>

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <random>
#include <string>
#include <type_traits>
#include <utility>

namespace {

// The GPU: Kokkos' default execution space in a build with a GPU backend.
using gpu_space = Kokkos::DefaultExecutionSpace;
using gpu_memory = gpu_space::memory_space;
static_assert(bandsolve::backend::is_gpu_space_v<gpu_space>,
              "test_umbrella_header: build it against a Kokkos with CUDA or HIP");

int failures = 0;

template <class T, class Algo, class exec = Kokkos::Serial>
void solve_and_check(const char* name, Algo algo, std::size_t nsys, std::size_t n) {
  using layout = bandsolve::layout::row;
  using mem = Kokkos::HostSpace;
  auto a = bandsolve::make_batch<layout, T, mem>("a", nsys, n);
  auto b = bandsolve::make_batch<layout, T, mem>("b", nsys, n);
  auto c = bandsolve::make_batch<layout, T, mem>("c", nsys, n);
  auto d = bandsolve::make_batch<layout, T, mem>("d", nsys, n);
  Kokkos::View<int*, mem> info("info", nsys);
  std::mt19937 gen(42);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  for (std::size_t s = 0; s < nsys; ++s)
    for (std::size_t i = 0; i < n; ++i) {
      bandsolve::at(a, s, i) = i > 0 ? static_cast<T>(u(gen)) : T(0);
      bandsolve::at(c, s, i) = i + 1 < n ? static_cast<T>(u(gen)) : T(0);
      bandsolve::at(b, s, i) = static_cast<T>(3 + u(gen));
      bandsolve::at(d, s, i) = static_cast<T>(u(gen));
    }
  auto rhs = bandsolve::make_batch<layout, T, mem>("rhs", nsys, n);
  Kokkos::deep_copy(rhs, d);
  {  // on exec's memory (the same Views on the host)
    using exec_mem = typename exec::memory_space;
    const auto ea = Kokkos::create_mirror_view_and_copy(exec_mem(), a);
    const auto eb = Kokkos::create_mirror_view_and_copy(exec_mem(), b);
    const auto ec = Kokkos::create_mirror_view_and_copy(exec_mem(), c);
    const auto ed = Kokkos::create_mirror_view_and_copy(exec_mem(), d);
    const auto einfo = Kokkos::create_mirror_view(exec_mem(), info);
    bandsolve::solve(exec(), algo, ea, eb, ec, ed, einfo);
    Kokkos::deep_copy(d, ed);
    Kokkos::deep_copy(info, einfo);
  }
  double worst = 0;
  int bad_info = 0;
  for (std::size_t s = 0; s < nsys; ++s) {
    bad_info += info(s) != 0;
    for (std::size_t i = 0; i < n; ++i) {
      double r = double(bandsolve::at(b, s, i)) * double(bandsolve::at(d, s, i)) -
                 double(bandsolve::at(rhs, s, i));
      if (i > 0) r += double(bandsolve::at(a, s, i)) * double(bandsolve::at(d, s, i - 1));
      if (i + 1 < n) r += double(bandsolve::at(c, s, i)) * double(bandsolve::at(d, s, i + 1));
      worst = std::isnan(r) ? r : std::max(worst, std::abs(r));
    }
  }
  const double tol = 64 * double(std::numeric_limits<T>::epsilon());
  const bool ok = bad_info == 0 && worst <= tol;
  failures += !ok;
  std::printf("%s %s, %s, %zu systems of %zu rows: residual %.3g (tol %.3g), %d bad info\n",
              ok ? "ok  " : "FAIL", name, exec::name(), nsys, n, worst, tol, bad_info);
}

using exec = Kokkos::Serial;
using mem = exec::memory_space;

template <class InfoView>
int bad(const InfoView& info) {
  int k = 0;
  for (std::size_t s = 0; s < info.extent(0); ++s) k += info(s) != 0;
  return k;
}

void report(const char* what, int bad_info) {
  failures += bad_info != 0;
  std::printf("%s %s: %d bad info\n", bad_info == 0 ? "ok  " : "FAIL", what, bad_info);
}

// a = c = 1, b = 4, d = 1 (d complex where D is) in every system of a batch.
template <class Layout, class T, class D = T>
struct tri_batch {
  decltype(bandsolve::make_batch<Layout, T, mem>("", 0, 0)) a, b, c;
  decltype(bandsolve::make_batch<Layout, D, mem>("", 0, 0)) d;
  tri_batch(std::size_t nsys, std::size_t n)
      : a(bandsolve::make_batch<Layout, T, mem>("a", nsys, n)),
        b(bandsolve::make_batch<Layout, T, mem>("b", nsys, n)),
        c(bandsolve::make_batch<Layout, T, mem>("c", nsys, n)),
        d(bandsolve::make_batch<Layout, D, mem>("d", nsys, n)) {
    for (std::size_t s = 0; s < nsys; ++s)
      for (std::size_t i = 0; i < n; ++i) {
        bandsolve::at(a, s, i) = T(1);
        bandsolve::at(b, s, i) = T(4);
        bandsolve::at(c, s, i) = T(1);
        bandsolve::at(d, s, i) = D(1);
      }
  }
};

// A one-shot solve, then factorize and solve, of a family with a factorization (double).
template <class Layout, class Algo>
void solve_and_factor(const std::string& name, Algo algorithm, std::size_t nsys, std::size_t n,
                      const Kokkos::View<int*, mem>& info) {
  tri_batch<Layout, double> p(nsys, n);
  bandsolve::solve(exec(), algorithm, p.a, p.b, p.c, p.d, info);
  report(name.c_str(), bad(info));
  auto f = bandsolve::factorize(exec(), algorithm, p.a, p.b, p.c, nsys);
  f.solve(exec(), p.d);
  report(("factorize(" + name + ") + solve").c_str(), bad(f.info()));
}

// Every solver family through the umbrella header, on Serial: each instantiation is compiled by
// the GPU compiler (host and device passes) as it would be in a GPU user's program; info must be 0.
void every_family() {
  namespace bl = bandsolve::layout;
  namespace algo = bandsolve::algo;
  const std::size_t nsys = 20, n = 50;
  Kokkos::View<int*, mem> info("info", nsys);
  solve_and_factor<bl::interleaved<8>>("thomas", algo::thomas{}, nsys, n, info);
  solve_and_factor<bl::row>("automatic", algo::automatic{}, nsys, n, info);
  {
    // On the device backend factorize(automatic) is Thomas's device factorization.
    using dev_view = Kokkos::View<double**, Kokkos::LayoutRight, gpu_memory>;
    using automatic_type = decltype(bandsolve::factorize(
        std::declval<const gpu_space&>(), algo::automatic{}, std::declval<const dev_view&>(),
        std::declval<const dev_view&>(), std::declval<const dev_view&>()));
    using thomas_type = decltype(bandsolve::factorize(
        std::declval<const gpu_space&>(), algo::thomas{}, std::declval<const dev_view&>(),
        std::declval<const dev_view&>(), std::declval<const dev_view&>()));
    static_assert(std::is_same_v<automatic_type, thomas_type>,
                  "factorize(automatic) on the GPU is Thomas's device factorization");
  }
  {
    tri_batch<bl::column, float> p(nsys, n);
    bandsolve::solve(exec(), algo::thomas{}, p.a, p.b, p.c, p.d, info);
    report("thomas, column, float", bad(info));
  }
  {
    tri_batch<bl::row, double, Kokkos::complex<double>> p(nsys, n);
    bandsolve::solve(exec(), algo::thomas{}, p.a, p.b, p.c, p.d, info);
    report("thomas, real coefficients, complex d", bad(info));
  }
  for (int k = 0; k < 4; ++k) {
    tri_batch<bl::row, double> p(nsys, n);
    const char* names[] = {"pcr", "cr", "thomas_pcr", "automatic"};
    if (k == 0) bandsolve::solve(exec(), algo::pcr{}, p.a, p.b, p.c, p.d, info);
    if (k == 1) bandsolve::solve(exec(), algo::cr{}, p.a, p.b, p.c, p.d, info);
    if (k == 2) bandsolve::solve(exec(), algo::thomas_pcr{}, p.a, p.b, p.c, p.d, info);
    if (k == 3) bandsolve::solve(exec(), algo::automatic{}, p.a, p.b, p.c, p.d, info);
    report(names[k], bad(info));
  }
  solve_and_factor<bl::row>("partial_pivoting", algo::partial_pivoting{}, nsys, n, info);
  solve_and_factor<bl::row>("periodic", algo::periodic{}, nsys, n, info);
  {
    const std::size_t nx = 4, ny = 30, nz = 5;
    Kokkos::View<double***, Kokkos::LayoutRight, mem> d("d", nx, ny, nz), u("u", nx, ny, nz);
    Kokkos::View<double*, mem> a("a", ny), b("b", ny), c("c", ny);
    Kokkos::deep_copy(a, 1.0);
    Kokkos::deep_copy(b, 4.0);
    Kokkos::deep_copy(c, 1.0);
    Kokkos::deep_copy(d, 1.0);
    Kokkos::View<int*, mem> line_info("line_info", nx * nz);
    bandsolve::solve_along(exec(), algo::thomas{}, 1, a, b, c, d, line_info);
    report("solve_along (shared coefficients, axis 1)", bad(line_info));
    bandsolve::solve_along_add(exec(), algo::thomas{}, 1, a, b, c, d, u, line_info);
    report("solve_along_add", bad(line_info));
  }
  {
    using L = bl::interleaved<8>;
    const std::size_t m = 2;
    auto A = bandsolve::make_block_batch<L, double, mem>("A", nsys, n, m);
    auto B = bandsolve::make_block_batch<L, double, mem>("B", nsys, n, m);
    auto C = bandsolve::make_block_batch<L, double, mem>("C", nsys, n, m);
    auto d = bandsolve::make_block_rhs<L, double, mem>("d", nsys, n, m);
    for (std::size_t s = 0; s < nsys; ++s)
      for (std::size_t i = 0; i < n; ++i)
        for (std::size_t r = 0; r < m; ++r) {
          bandsolve::block_at(B, s, i, r, r) = 8.0;
          bandsolve::block_at(A, s, i, r, r) = 1.0;
          bandsolve::block_at(C, s, i, r, r) = 1.0;
          bandsolve::block_at(d, s, i, r) = 1.0;
        }
    bandsolve::solve(exec(), algo::block_thomas{}, A, B, C, d, info);
    report("block_thomas, m = 2", bad(info));
  }
  {
    using L = bl::row;
    const int kl = 2, ku = 1;
    auto ab = bandsolve::banded::make_band<L, double, mem>("ab", nsys, n, kl, ku);
    auto rhs = bandsolve::make_batch<L, double, mem>("rhs", nsys, n);
    for (std::size_t s = 0; s < nsys; ++s)
      for (std::size_t i = 0; i < n; ++i) {
        for (std::size_t j = i >= std::size_t(kl) ? i - kl : 0; j <= i + ku && j < n; ++j)
          bandsolve::banded::band_at(ab, kl, ku, s, i, j) = i == j ? 8.0 : 1.0;
        bandsolve::at(rhs, s, i) = 1.0;
      }
    bandsolve::solve(exec(), algo::banded_lu{kl, ku}, ab, rhs, info);
    report("banded_lu, kl = 2, ku = 1", bad(info));
  }
  {
    tri_batch<bl::row, double> p(nsys, n);
    bandsolve::solve(exec(), algo::toeplitz{}, 1.0, 4.0, 1.0, p.d, info);
    report("toeplitz (batched)", bad(info));
    Kokkos::View<double*, mem> x("x", 1000);
    Kokkos::deep_copy(x, 1.0);
    bandsolve::solve(exec(), algo::toeplitz_dc{}, 1.0, 4.0, 1.0, x);
    report("toeplitz_dc", std::isfinite(x(500)) ? 0 : 1);
  }
}

// solve_along on the GPU: every axis of a 3-D LayoutRight array in device memory, Thomas
// with full and shared coefficients (and solve_along_add, factorize_along with solve_add, and
// complex d over the real coefficients), symmetric and partial pivoting with full ones and
// periodic with both (each also solve_along_add, factorize_along and solve_add), block Thomas
// (m = 3, also factorize_along) and banded LU (pentadiagonal, also factorize_along) with both
// (each also solve_along_add and solve_add with full ones),
// rows whose solution is all ones (d = a + b + c without the entries outside the matrix, all of
// them for periodic lines). Lines of 65 rows along the unit-stride axis: Thomas's register
// chunks take them through tiles in team scratch (chunks of 16 rows, the last one short).
void along_on_device() {
  using mem = gpu_memory;
  const std::size_t e[3] = {6, 40, 65};
  for (int axis = 0; axis < 3; ++axis) {
    Kokkos::View<double***, Kokkos::LayoutRight, mem> a("a", e[0], e[1], e[2]),
        b("b", e[0], e[1], e[2]), c("c", e[0], e[1], e[2]), d("d", e[0], e[1], e[2]);
    const std::size_t n = e[axis];
    Kokkos::View<double*, mem> sa("sa", n), sb("sb", n), sc("sc", n);
    Kokkos::View<int*, mem> info("info", e[0] * e[1] * e[2] / n);
    auto hd = Kokkos::create_mirror_view(d);
    for (std::size_t i = 0; i < e[0]; ++i)
      for (std::size_t j = 0; j < e[1]; ++j)
        for (std::size_t k = 0; k < e[2]; ++k) {
          const std::size_t r = axis == 0 ? i : axis == 1 ? j : k;
          hd(i, j, k) = 4.0 + (r > 0 ? 1.0 : 0.0) + (r + 1 < n ? 1.0 : 0.0);
        }
    Kokkos::deep_copy(a, 1.0);
    Kokkos::deep_copy(b, 4.0);
    Kokkos::deep_copy(c, 1.0);
    Kokkos::deep_copy(sa, 1.0);
    Kokkos::deep_copy(sb, 4.0);
    Kokkos::deep_copy(sc, 1.0);
    const auto failed = [&] {
      return bad(Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), info));
    };
    const auto worst = [&] {
      Kokkos::deep_copy(hd, d);
      double w = 0;
      for (std::size_t k = 0; k < hd.size(); ++k) w = std::max(w, std::abs(hd.data()[k] - 1.0));
      return w;
    };
    auto rhs = Kokkos::create_mirror_view(d);
    Kokkos::deep_copy(rhs, hd);
    Kokkos::deep_copy(d, rhs);
    bandsolve::solve_along(gpu_space(), bandsolve::algo::thomas{}, axis, a, b, c, d, info);
    Kokkos::fence();
    const std::string axis_name = "solve_along on the GPU, axis " + std::to_string(axis);
    report((axis_name + ", full coefficients").c_str(), failed() + (worst() > 1e-12 ? 1 : 0));
    Kokkos::deep_copy(d, rhs);
    bandsolve::solve_along(gpu_space(), bandsolve::algo::thomas{}, axis, sa, sb, sc, d, info);
    Kokkos::fence();
    report((axis_name + ", shared coefficients").c_str(),
           failed() + (worst() > 1e-12 ? 1 : 0));
    // Complex right-hand sides over the real lines: d (1 - 2i), solution all 1 - 2i.
    using Z = Kokkos::complex<double>;
    Kokkos::View<Z***, Kokkos::LayoutRight, mem> z("z", e[0], e[1], e[2]);
    auto hz = Kokkos::create_mirror_view(z);
    for (std::size_t k = 0; k < hz.size(); ++k) hz.data()[k] = rhs.data()[k] * Z(1.0, -2.0);
    const auto hz0 = Kokkos::create_mirror_view_and_copy(mem(), hz);  // d, kept on the device
    const auto zworst = [&] {
      Kokkos::deep_copy(hz, z);
      double w = 0;
      for (std::size_t k = 0; k < hz.size(); ++k)
        w = std::max(w, Kokkos::abs(hz.data()[k] - Z(1.0, -2.0)));
      return w;
    };
    Kokkos::deep_copy(z, hz0);
    bandsolve::solve_along(gpu_space(), bandsolve::algo::thomas{}, axis, a, b, c, z, info);
    Kokkos::fence();
    report((axis_name + ", complex d over real coefficients").c_str(),
           failed() + (zworst() > 1e-12 ? 1 : 0));
    // factorize_along(thomas): full and shared coefficients, each solved twice.
    const auto ft = bandsolve::factorize_along(gpu_space(), bandsolve::algo::thomas{}, axis,
                                               a, b, c);
    const auto fts = bandsolve::factorize_along(gpu_space(), bandsolve::algo::thomas{}, axis,
                                                sa, sb, sc, d);
    for (const auto* f : {&ft, &fts}) {
      int wrong = bad(Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), f->info()));
      for (int repeat = 0; repeat < 2; ++repeat) {
        Kokkos::deep_copy(d, rhs);
        f->solve(gpu_space(), d);
        Kokkos::fence();
        wrong += worst() > 1e-12 ? 1 : 0;
      }
      report((axis_name + (f == &ft ? ", factorize_along" : ", factorize_along, shared")).c_str(),
             wrong);
    }
    Kokkos::deep_copy(z, hz0);
    ft.solve(gpu_space(), z);
    Kokkos::fence();
    report((axis_name + ", factorize_along, complex d").c_str(), zworst() > 1e-12 ? 1 : 0);
    // solve_add: u (0.25 everywhere) += x, d only read.
    {
      Kokkos::deep_copy(d, rhs);
      const Kokkos::View<double***, Kokkos::LayoutRight, mem> u("u", e[0], e[1], e[2]);
      Kokkos::deep_copy(u, 0.25);
      const Kokkos::View<const double***, Kokkos::LayoutRight, mem> d_in = d;
      ft.solve_add(gpu_space(), d_in, u);
      Kokkos::fence();
      const auto hu = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), u);
      Kokkos::deep_copy(hd, d);
      bool wrong = false;  // u must read 1.25 and d its right-hand side still
      for (std::size_t k = 0; k < hu.size(); ++k)
        wrong = wrong || std::abs(hu.data()[k] - 1.25) > 1e-12 || hd.data()[k] != rhs.data()[k];
      report((axis_name + ", factorize_along, solve_add").c_str(), wrong ? 1 : 0);
    }
    Kokkos::deep_copy(z, hz0);
    bandsolve::solve_along(gpu_space(), bandsolve::algo::symmetric{}, axis, b, c, z, info);
    Kokkos::fence();
    report((axis_name + ", symmetric, complex d").c_str(), failed() + (zworst() > 1e-12 ? 1 : 0));
    Kokkos::deep_copy(d, rhs);
    bandsolve::solve_along(gpu_space(), bandsolve::algo::symmetric{}, axis, b, c, d, info);
    Kokkos::fence();
    report((axis_name + ", symmetric").c_str(), failed() + (worst() > 1e-12 ? 1 : 0));
    const auto fsym = bandsolve::factorize_along(gpu_space(), bandsolve::algo::symmetric{},
                                                 axis, b, c);
    Kokkos::deep_copy(d, rhs);
    fsym.solve(gpu_space(), d);
    Kokkos::fence();
    report((axis_name + ", symmetric, factorize_along").c_str(),
           bad(Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), fsym.info())) +
               (worst() > 1e-12 ? 1 : 0));
    // Periodic lines of the same rows: every row sums to 6 (n = 1 and 2 fold alike).
    Kokkos::deep_copy(d, 6.0);
    bandsolve::solve_along(gpu_space(), bandsolve::algo::periodic{}, axis, a, b, c, d, info);
    Kokkos::fence();
    report((axis_name + ", periodic").c_str(), failed() + (worst() > 1e-12 ? 1 : 0));
    Kokkos::deep_copy(d, 6.0);
    bandsolve::solve_along(gpu_space(), bandsolve::algo::periodic{}, axis, sa, sb, sc, d, info);
    Kokkos::fence();
    report((axis_name + ", periodic, shared coefficients").c_str(),
           failed() + (worst() > 1e-12 ? 1 : 0));
    const auto fp = bandsolve::factorize_along(gpu_space(), bandsolve::algo::periodic{}, axis,
                                               a, b, c);
    Kokkos::deep_copy(d, 6.0);
    fp.solve(gpu_space(), d);
    Kokkos::fence();
    report((axis_name + ", periodic, factorize_along").c_str(),
           bad(Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), fp.info())) +
               (worst() > 1e-12 ? 1 : 0));
    Kokkos::deep_copy(d, rhs);
    bandsolve::solve_along(gpu_space(), bandsolve::algo::partial_pivoting{}, axis, a, b, c, d,
                           info);
    Kokkos::fence();
    report((axis_name + ", partial pivoting").c_str(), failed() + (worst() > 1e-12 ? 1 : 0));
    const auto fpiv = bandsolve::factorize_along(gpu_space(),
                                                 bandsolve::algo::partial_pivoting{}, axis, a, b,
                                                 c);
    Kokkos::deep_copy(d, rhs);
    fpiv.solve(gpu_space(), d);
    Kokkos::fence();
    report((axis_name + ", partial pivoting, factorize_along").c_str(),
           bad(Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), fpiv.info())) +
               (worst() > 1e-12 ? 1 : 0));
    // solve_along_add: d (the right-hand sides, read only) solved and added to u = 0, then u
    // copied to d for the check.
    Kokkos::View<double***, Kokkos::LayoutRight, mem> u("u", e[0], e[1], e[2]);
    Kokkos::deep_copy(d, rhs);
    bandsolve::solve_along_add(gpu_space(), bandsolve::algo::thomas{}, axis, a, b, c, d, u,
                               info);
    Kokkos::deep_copy(d, u);
    report((axis_name + ", solve_along_add").c_str(), failed() + (worst() > 1e-12 ? 1 : 0));
    // The same for periodic lines (d = 6, shared coefficients, and factored) and partial
    // pivoting (full, and factored): u = 0 each time, d only read.
    const Kokkos::View<const double***, Kokkos::LayoutRight, mem> d_in = d;
    const auto added = [&](const char* what, int codes) {
      Kokkos::fence();
      Kokkos::deep_copy(d, u);
      report((axis_name + what).c_str(), codes + (worst() > 1e-12 ? 1 : 0));
    };
    Kokkos::deep_copy(d, 6.0);
    Kokkos::deep_copy(u, 0.0);
    bandsolve::solve_along_add(gpu_space(), bandsolve::algo::periodic{}, axis, sa, sb, sc,
                               d_in, u, info);
    added(", periodic, solve_along_add", failed());
    Kokkos::deep_copy(d, 6.0);
    Kokkos::deep_copy(u, 0.0);
    fp.solve_add(gpu_space(), d_in, u);
    added(", periodic, factorize_along, solve_add", 0);
    Kokkos::deep_copy(d, rhs);
    Kokkos::deep_copy(u, 0.0);
    bandsolve::solve_along_add(gpu_space(), bandsolve::algo::partial_pivoting{}, axis, a, b,
                               c, d_in, u, info);
    added(", partial pivoting, solve_along_add", failed());
    Kokkos::deep_copy(d, rhs);
    Kokkos::deep_copy(u, 0.0);
    fpiv.solve_add(gpu_space(), d_in, u);
    added(", partial pivoting, factorize_along, solve_add", 0);
    Kokkos::deep_copy(d, rhs);
    Kokkos::deep_copy(u, 0.0);
    bandsolve::solve_along_add(gpu_space(), bandsolve::algo::symmetric{}, axis, b, c, d_in, u,
                               info);
    added(", symmetric, solve_along_add", failed());
    Kokkos::deep_copy(d, rhs);
    Kokkos::deep_copy(u, 0.0);
    fsym.solve_add(gpu_space(), d_in, u);
    added(", symmetric, factorize_along, solve_add", 0);
    // Block lines of m = 3 unknowns per point: B = 4 I + 0.5 off the diagonal, A = C = -I, full
    // arrays and shared ones (the same blocks); d = A 1 row by row, the solution all ones.
    const std::size_t m = 3;
    Kokkos::View<double*****, Kokkos::LayoutRight, mem> ba("ba", e[0], e[1], e[2], m, m),
        bb("bb", e[0], e[1], e[2], m, m);
    Kokkos::View<double***, Kokkos::LayoutRight, mem> sba("sba", n, m, m), sbb("sbb", n, m, m);
    Kokkos::View<double****, Kokkos::LayoutLeft, mem> bd("bd", e[0], e[1], e[2], m);
    auto hba = Kokkos::create_mirror_view(ba), hbb = Kokkos::create_mirror_view(bb);
    auto hsba = Kokkos::create_mirror_view(sba), hsbb = Kokkos::create_mirror_view(sbb);
    auto hbd = Kokkos::create_mirror_view(bd);
    for (std::size_t i = 0; i < e[0]; ++i)
      for (std::size_t j = 0; j < e[1]; ++j)
        for (std::size_t k = 0; k < e[2]; ++k) {
          const std::size_t row = axis == 0 ? i : axis == 1 ? j : k;
          for (std::size_t r = 0; r < m; ++r) {
            for (std::size_t q = 0; q < m; ++q) {
              hba(i, j, k, r, q) = hsba(row, r, q) = r == q ? -1.0 : 0.0;
              hbb(i, j, k, r, q) = hsbb(row, r, q) = r == q ? 4.0 : 0.5;
            }
            hbd(i, j, k, r) = 4.0 + 0.5 * double(m - 1) - (row > 0 ? 1.0 : 0.0) -
                              (row + 1 < n ? 1.0 : 0.0);
          }
        }
    Kokkos::deep_copy(ba, hba);
    Kokkos::deep_copy(bb, hbb);
    Kokkos::deep_copy(sba, hsba);
    Kokkos::deep_copy(sbb, hsbb);
    const auto block_worst = [&] {
      auto x = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), bd);
      double w = 0;
      for (std::size_t k = 0; k < x.size(); ++k) w = std::max(w, std::abs(x.data()[k] - 1.0));
      return w;
    };
    Kokkos::deep_copy(bd, hbd);
    bandsolve::solve_along(gpu_space(), bandsolve::algo::block_thomas{}, axis, ba, bb, ba, bd,
                           info);
    Kokkos::fence();
    report((axis_name + ", block_thomas, m = 3").c_str(),
           failed() + (block_worst() > 1e-12 ? 1 : 0));
    Kokkos::deep_copy(bd, hbd);
    bandsolve::solve_along(gpu_space(), bandsolve::algo::block_thomas{}, axis, sba, sbb, sba,
                           bd, info);
    Kokkos::fence();
    report((axis_name + ", block_thomas, m = 3, shared coefficients").c_str(),
           failed() + (block_worst() > 1e-12 ? 1 : 0));
    const auto fb = bandsolve::factorize_along(gpu_space(), bandsolve::algo::block_thomas{},
                                               axis, ba, bb, ba);
    Kokkos::deep_copy(bd, hbd);
    fb.solve(gpu_space(), bd);
    Kokkos::fence();
    report((axis_name + ", block_thomas, m = 3, factorize_along").c_str(),
           bad(Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), fb.info())) +
               (block_worst() > 1e-12 ? 1 : 0));
    // u += x into u = 0 (LayoutRight), d only read; x read back from u through bd.
    Kokkos::View<double****, Kokkos::LayoutRight, mem> bu("bu", e[0], e[1], e[2], m);
    const Kokkos::View<const double****, Kokkos::LayoutLeft, mem> bd_in = bd;
    const auto block_added = [&](const char* what, int codes) {
      Kokkos::fence();
      Kokkos::deep_copy(bd, bu);
      report((axis_name + what).c_str(), codes + (block_worst() > 1e-12 ? 1 : 0));
    };
    Kokkos::deep_copy(bd, hbd);
    Kokkos::deep_copy(bu, 0.0);
    bandsolve::solve_along_add(gpu_space(), bandsolve::algo::block_thomas{}, axis, ba, bb, ba,
                               bd_in, bu, info);
    block_added(", block_thomas, m = 3, solve_along_add", failed());
    Kokkos::deep_copy(bd, hbd);
    Kokkos::deep_copy(bu, 0.0);
    fb.solve_add(gpu_space(), bd_in, bu);
    block_added(", block_thomas, m = 3, factorize_along, solve_add", 0);
    // Pentadiagonal lines (1, -4, 8, -4, 1) in band storage, full (LayoutLeft) and shared:
    // d = A 1, the solution all ones.
    const int kl = 2, ku = 2;
    const std::size_t ldab = 2 * kl + ku + 1;
    Kokkos::View<double****, Kokkos::LayoutLeft, mem> ab("ab", e[0], e[1], e[2], ldab);
    Kokkos::View<double**, Kokkos::LayoutRight, mem> sab("sab", n, ldab);
    auto hab = Kokkos::create_mirror_view(ab);
    auto hsab = Kokkos::create_mirror_view(sab);
    const double penta[5] = {1, -4, 8, -4, 1};
    for (std::size_t i = 0; i < e[0]; ++i)
      for (std::size_t j = 0; j < e[1]; ++j)
        for (std::size_t k = 0; k < e[2]; ++k) {
          const std::size_t q = axis == 0 ? i : axis == 1 ? j : k;
          double row = 0;
          for (int r = -2; r <= 2; ++r) {
            hab(i, j, k, std::size_t(kl + ku + r)) = hsab(q, std::size_t(kl + ku + r)) =
                penta[r + 2];
            if (long(q) + r >= 0 && long(q) + r < long(n)) row += penta[r + 2];
          }
          hd(i, j, k) = row;
        }
    Kokkos::deep_copy(ab, hab);
    Kokkos::deep_copy(sab, hsab);
    const auto band_rhs = Kokkos::create_mirror_view_and_copy(mem(), hd);
    Kokkos::deep_copy(d, band_rhs);
    bandsolve::solve_along(gpu_space(), bandsolve::algo::banded_lu{kl, ku}, axis, ab, d, info);
    Kokkos::fence();
    report((axis_name + ", banded_lu, kl = ku = 2").c_str(),
           failed() + (worst() > 1e-12 ? 1 : 0));
    Kokkos::deep_copy(d, band_rhs);
    bandsolve::solve_along(gpu_space(), bandsolve::algo::banded_lu{kl, ku}, axis, sab, d,
                           info);
    Kokkos::fence();
    report((axis_name + ", banded_lu, shared band").c_str(),
           failed() + (worst() > 1e-12 ? 1 : 0));
    const auto fab = bandsolve::factorize_along(gpu_space(),
                                                bandsolve::algo::banded_lu{kl, ku}, axis, ab);
    const auto fsab = bandsolve::factorize_along(
        gpu_space(), bandsolve::algo::banded_lu{kl, ku, false}, axis, sab, d);
    for (const auto* f : {&fab, &fsab}) {
      Kokkos::deep_copy(d, band_rhs);
      f->solve(gpu_space(), d);
      Kokkos::fence();
      report((axis_name + (f == &fab ? ", banded_lu, factorize_along"
                                     : ", banded_lu, factorize_along, shared band"))
                 .c_str(),
             bad(Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), f->info())) +
                 (worst() > 1e-12 ? 1 : 0));
    }
    // u += x into u = 0, d only read.
    Kokkos::deep_copy(d, band_rhs);
    Kokkos::deep_copy(u, 0.0);
    bandsolve::solve_along_add(gpu_space(), bandsolve::algo::banded_lu{kl, ku}, axis, ab, d_in,
                               u, info);
    added(", banded_lu, solve_along_add", failed());
    Kokkos::deep_copy(d, band_rhs);
    Kokkos::deep_copy(u, 0.0);
    fab.solve_add(gpu_space(), d_in, u);
    added(", banded_lu, factorize_along, solve_add", 0);
  }
}

// A complex batch on the GPU (a = c = 1, b = 4 + i, d = 1 - i, column layout) solved by Algo;
// info must be 0 and the residual of every row within tol.
template <class R, class Algo>
void complex_on_device(const char* name, Algo algorithm, std::size_t nsys, std::size_t n) {
  using Z = Kokkos::complex<R>;
  using column = bandsolve::layout::column;
  auto a = bandsolve::make_batch<column, Z, gpu_memory>("a", nsys, n);
  auto b = bandsolve::make_batch<column, Z, gpu_memory>("b", nsys, n);
  auto c = bandsolve::make_batch<column, Z, gpu_memory>("c", nsys, n);
  auto d = bandsolve::make_batch<column, Z, gpu_memory>("d", nsys, n);
  Kokkos::deep_copy(a, Z(1));
  Kokkos::deep_copy(b, Z(4, 1));
  Kokkos::deep_copy(c, Z(1));
  Kokkos::deep_copy(d, Z(1, -1));
  Kokkos::View<int*, gpu_memory> info("info", nsys);
  bandsolve::solve(gpu_space(), algorithm, a, b, c, d, info);
  const auto x = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), d);
  double worst = 0;
  for (std::size_t s = 0; s < nsys; ++s)
    for (std::size_t i = 0; i < n; ++i) {
      Z r = Z(4, 1) * x(s, i) - Z(1, -1);
      if (i > 0) r += x(s, i - 1);
      if (i + 1 < n) r += x(s, i + 1);
      const double size = std::abs(double(r.real())) + std::abs(double(r.imag()));
      worst = std::isfinite(size) ? std::max(worst, size) : size;
    }
  const int bad_rows = worst <= 64 * double(std::numeric_limits<R>::epsilon()) ? 0 : 1;
  report(name, bad(Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), info)) + bad_rows);
}

// PCR and CR on the GPU with Views in its memory: the device path (a team per system), its
// rows in team scratch level 1 at n = 1001 (double PCR) and level 0 at n = 64; info must be 0.
// Complex systems through PCR, CR, the hybrid and automatic.
void reductions_on_device() {
  solve_and_check<double, bandsolve::algo::pcr, gpu_space>("pcr, double",
                                                              bandsolve::algo::pcr{}, 33, 1001);
  solve_and_check<float, bandsolve::algo::cr, gpu_space>("cr, float", bandsolve::algo::cr{},
                                                            40, 64);
  complex_on_device<double>("pcr on the GPU, complex<double>", bandsolve::algo::pcr{}, 5, 700);
  complex_on_device<float>("cr on the GPU, complex<float>", bandsolve::algo::cr{}, 40, 64);
  complex_on_device<double>("thomas_pcr on the GPU, complex<double>", bandsolve::algo::thomas_pcr{},
                            2, 20000);
  complex_on_device<double>("automatic on the GPU, complex<double>", bandsolve::algo::automatic{},
                            300, 50);
}

// Shared off-diagonals and the Toeplitz divide and conquer on the GPU with Views in its memory:
// their device paths, the default there. Row-layout d (row tiles), column-layout complex<float>
// d (a thread per system in place), a divide-and-conquer plan solved twice, the one-shot solve
// in float and a plan on the Thomas path; info must be 0 and every value finite.
struct offdiag_diagonal {  // 4 or 5: dominant over off-diagonals of 1
  KOKKOS_INLINE_FUNCTION double operator()(bandsolve::index_t s, bandsolve::index_t i) const {
    return 4.0 + static_cast<double>((s + i) % 2);
  }
};

template <class T>
double finite_probe(const T& v) {
  return double(v);
}
template <class R>
double finite_probe(const Kokkos::complex<R>& v) {
  return double(v.real()) + double(v.imag());
}

template <class View>
int non_finite(const View& v) {
  const auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), v);
  int k = 0;
  for (std::size_t e = 0; e < h.span(); ++e) k += !std::isfinite(finite_probe(h.data()[e]));
  return k;
}

void toeplitz_on_device() {
  namespace bl = bandsolve::layout;
  namespace algo = bandsolve::algo;
  using dev_mem = gpu_memory;
  const gpu_space gpu;
  const std::size_t nsys = 40, n = 100;
  Kokkos::View<int*, dev_mem> info("info", nsys);
  const auto failed = [&] {
    return bad(Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), info));
  };
  const auto m = bandsolve::make_shared_offdiag(1.0, 1.0, 1.0, 1.0, offdiag_diagonal{});
  auto d = bandsolve::make_batch<bl::row, double, dev_mem>("d", nsys, n);
  Kokkos::deep_copy(d, 1.0);
  bandsolve::solve(gpu, algo::shared_offdiag{}, m, d, info);
  report("shared_offdiag on the GPU, row, double", failed() + non_finite(d));
  auto dc = bandsolve::make_batch<bl::column, Kokkos::complex<float>, dev_mem>("dc", nsys, n);
  Kokkos::deep_copy(dc, Kokkos::complex<float>(1, -1));
  bandsolve::solve(gpu, algo::shared_offdiag{}, m, dc, info,
                   bandsolve::shared_offdiag_options{bandsolve::singular_last_row::pin, 0.0});
  report("shared_offdiag on the GPU, column, complex<float>", failed() + non_finite(dc));

  Kokkos::View<double*, dev_mem> x("x", 100000);
  const auto plan = bandsolve::factorize(gpu, algo::toeplitz_dc{}, 1.0, 4.0, 1.0, x.extent(0));
  for (int round = 0; round < 2; ++round) {
    Kokkos::deep_copy(x, 1.0);
    plan.solve(gpu, x);
  }
  report("toeplitz_dc plan on the GPU, double", plan.info() + non_finite(x));
  Kokkos::View<float*, dev_mem> xf("xf", 5003);
  Kokkos::deep_copy(xf, 1.0f);
  bandsolve::solve(gpu, algo::toeplitz_dc{}, 1.0f, -4.0f, 0.5f, xf);
  report("toeplitz_dc one-shot on the GPU, float", non_finite(xf));
  Kokkos::View<double*, dev_mem> xt("xt", 10000);
  Kokkos::deep_copy(xt, 1.0);
  const auto thomas = bandsolve::factorize(gpu, algo::toeplitz_dc{}, -1.0, 2.0 + 1e-6, -1.0, 10000);
  thomas.solve(gpu, xt);
  report("toeplitz_dc on the GPU, Thomas path",
         (thomas.uses_thomas() ? 0 : 1) + thomas.info() + non_finite(xt));

  // Complex Toeplitz: a batch of complex T, real T on complex d, one long complex system.
  using zc = Kokkos::complex<double>;
  auto dz = bandsolve::make_batch<bl::row, zc, dev_mem>("dz", nsys, n);
  Kokkos::deep_copy(dz, zc(1, -1));
  bandsolve::solve(gpu, algo::toeplitz{}, zc(0.4, -0.3), zc(-2.5, 1.2), zc(1.1, 0.5), dz, info);
  report("toeplitz (batched) on the GPU, row, complex<double>", failed() + non_finite(dz));
  auto dzc = bandsolve::make_batch<bl::column, zc, dev_mem>("dzc", nsys, n);
  Kokkos::deep_copy(dzc, zc(1, -1));
  bandsolve::solve(gpu, algo::toeplitz{}, 1.0, 4.0, 1.0, dzc, info);
  report("toeplitz (batched) on the GPU, real T, column, complex<double> d",
         failed() + non_finite(dzc));
  Kokkos::View<zc*, dev_mem> xz("xz", 100000);
  Kokkos::deep_copy(xz, zc(1, 2));
  bandsolve::solve(gpu, algo::toeplitz_dc{}, zc(1, 0.5), zc(0.5, 4), zc(-1, 0.5), xz);
  report("toeplitz_dc one-shot on the GPU, complex<double>", non_finite(xz));
}

}  // namespace

int main(int argc, char* argv[]) {
  Kokkos::initialize(argc, argv);
  std::printf("test_umbrella_header: Kokkos %d.%d.%d, default execution space %s\n",
              KOKKOS_VERSION / 10000, KOKKOS_VERSION / 100 % 100, KOKKOS_VERSION % 100,
              Kokkos::DefaultExecutionSpace::name());
  solve_and_check<double>("thomas, double", bandsolve::algo::thomas{}, 20, 100);
  solve_and_check<float>("thomas, float", bandsolve::algo::thomas{}, 20, 100);
  solve_and_check<double>("thomas_pcr, double", bandsolve::algo::thomas_pcr{}, 2, 5000);
  every_family();
  // On the GPU, the families whose device path a backend rule picks: the hybrid and automatic
  // (few long systems: Thomas's chunk method over many teams; a full batch: a thread per system).
  solve_and_check<double, bandsolve::algo::thomas_pcr, gpu_space>(
      "thomas_pcr, double", bandsolve::algo::thomas_pcr{}, 2, 5000);
  solve_and_check<double, bandsolve::algo::automatic, gpu_space>(
      "automatic, double", bandsolve::algo::automatic{}, 2, 5000);
  solve_and_check<float, bandsolve::algo::automatic, gpu_space>(
      "automatic, float", bandsolve::algo::automatic{}, 3000, 64);
  along_on_device();
  toeplitz_on_device();
  reductions_on_device();
  Kokkos::finalize();
  return failures == 0 ? 0 : 1;
}
