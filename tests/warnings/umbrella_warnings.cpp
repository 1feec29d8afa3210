// Compile-only check: the umbrella header, included as a project header (not a system header),
// instantiates the main calls for float, double and Kokkos::complex<double> without a warning
// under -Wall -Wextra -Wconversion -Wshadow -Werror. Nothing here is run.
#include <bandsolve/bandsolve.hpp>

#include <type_traits>

namespace {

using exec_space = Kokkos::DefaultHostExecutionSpace;

template <class T>
void instantiate_all() {
  using R = bandsolve::real_type_t<T>;
  constexpr bool real = std::is_floating_point_v<T>;
  const exec_space exec;
  const std::size_t nsys = 3, n = 5;
  Kokkos::View<T**, Kokkos::LayoutRight> a("a", nsys, n), b("b", nsys, n), c("c", nsys, n),
      d("d", nsys, n);
  Kokkos::View<T**, Kokkos::LayoutLeft> al("al", nsys, n), bl("bl", nsys, n), cl("cl", nsys, n),
      dl("dl", nsys, n);
  Kokkos::View<T** [4], Kokkos::LayoutRight> ai("ai", 1, n), bi("bi", 1, n), ci("ci", 1, n),
      di("di", 1, n);
  Kokkos::View<int*> info("info", nsys), info_i("info_i", 4);
  namespace algo = bandsolve::algo;

  bandsolve::solve(exec, algo::thomas{}, a, b, c, d, info);
  bandsolve::solve(exec, algo::thomas{}, al, bl, cl, dl, info);
  bandsolve::solve(exec, algo::thomas{}, ai, bi, ci, di, info_i);
  auto ft = bandsolve::factorize(exec, algo::thomas{}, a, b, c);
  ft.solve(exec, d);
  ft.refactor(exec, a, b, c);
  auto fi = bandsolve::factorize(exec, algo::thomas{}, ai, bi, ci);
  fi.refactor(exec, ai, bi, ci);
  auto fa = bandsolve::factorize(exec, algo::automatic{}, a, b, c);
  fa.solve(exec, d);
  fa.refactor(exec, a, b, c);
  bandsolve::solve(exec, algo::partial_pivoting{}, a, b, c, d, info);
  auto fp = bandsolve::factorize(exec, algo::partial_pivoting{}, a, b, c, nsys);
  fp.solve(exec, d);
  fp.refactor(exec, a, b, c);
  bandsolve::factorize(exec, algo::partial_pivoting{}, al, bl, cl, bandsolve::backend::device{})
      .refactor(exec, al, bl, cl);
  bandsolve::solve(exec, algo::periodic{}, a, b, c, d, info);
  auto fq = bandsolve::factorize(exec, algo::periodic{}, a, b, c, nsys);
  fq.solve(exec, d);
  fq.refactor(exec, a, b, c);
  bandsolve::factorize(exec, algo::periodic{}, a, b, c, bandsolve::backend::device{})
      .refactor(exec, a, b, c);
  bandsolve::factorize(exec, algo::thomas{}, al, bl, cl, bandsolve::backend::device{})
      .refactor(exec, al, bl, cl);

  // Banded LU in LAPACK band storage: ldab = 2 kl + ku + 1 rows per column.
  Kokkos::View<T***, Kokkos::LayoutRight> ab("ab", nsys, n, 4);
  Kokkos::View<T**, Kokkos::LayoutRight> xb("xb", nsys, n);
  bandsolve::solve(exec, algo::banded_lu{1, 1}, ab, xb, info);
  auto fb = bandsolve::factorize(exec, algo::banded_lu{1, 1}, ab, nsys);
  fb.solve(exec, xb);
  fb.refactor(exec, ab);
  Kokkos::View<T***, Kokkos::LayoutRight> ab_axis("ab_axis", nsys, n, 4);  // lines along axis 1
  bandsolve::factorize_along(exec, algo::banded_lu{1, 1}, 1, ab_axis).solve(exec, xb);
  Kokkos::View<T**, Kokkos::LayoutLeft> ub("ub", nsys, n);
  bandsolve::solve_along_add(exec, algo::banded_lu{1, 1}, 1, ab_axis, xb, ub, info);
  bandsolve::factorize_along(exec, algo::banded_lu{1, 1}, 1, ab_axis).solve_add(exec, xb, ub);
  bandsolve::factorize_along(exec, algo::banded_lu{1, 1}, 1, ab_axis).refactor(exec, ab_axis);
  bandsolve::factorize_along(exec, algo::banded_lu{1, 1}, 1, ab_axis, bandsolve::backend::device{})
      .refactor(exec, ab_axis);

  // Block tridiagonal, blocks of 2 x 2; complex right-hand sides of real blocks.
  Kokkos::View<T****, Kokkos::LayoutRight> ba("ba", nsys, n, 2, 2), bb("bb", nsys, n, 2, 2),
      bc("bc", nsys, n, 2, 2);
  Kokkos::View<T***, Kokkos::LayoutRight> bd("bd", nsys, n, 2);
  bandsolve::solve(exec, algo::block_thomas{}, ba, bb, bc, bd, info);
  auto fk = bandsolve::factorize(exec, algo::block_thomas{}, ba, bb, bc);
  fk.solve(exec, bd);
  fk.refactor(exec, ba, bb, bc);
  bandsolve::factorize(exec, algo::block_thomas{}, ba, bb, bc, bandsolve::backend::device{})
      .refactor(exec, ba, bb, bc);
  Kokkos::View<T***, Kokkos::LayoutLeft> bu("bu", nsys, n, 2);  // lines along axis 1
  bandsolve::solve_along_add(exec, algo::block_thomas{}, 1, ba, bb, bc, bd, bu, info);
  bandsolve::factorize_along(exec, algo::block_thomas{}, 1, ba, bb, bc).solve_add(exec, bd, bu);
  bandsolve::factorize_along(exec, algo::block_thomas{}, 1, ba, bb, bc).refactor(exec, ba, bb, bc);
  const bandsolve::backend::device block_device;
  bandsolve::factorize_along(exec, algo::block_thomas{}, 1, ba, bb, bc, block_device)
      .refactor(exec, ba, bb, bc);
  if constexpr (real) {
    Kokkos::View<Kokkos::complex<T>***, Kokkos::LayoutRight> bz("bz", nsys, n, 2);
    bandsolve::solve(exec, algo::block_thomas{}, ba, bb, bc, bz, info);
    fk.solve(exec, bz);
  }

  bandsolve::solve(exec, algo::pcr{}, a, b, c, d, info);
  bandsolve::solve(exec, algo::cr{}, a, b, c, d, info);
  bandsolve::solve(exec, algo::thomas_pcr{}, a, b, c, d, info);
  bandsolve::solve(exec, algo::thomas_pcr{}, al, bl, cl, dl, info);
  bandsolve::factorize(exec, algo::thomas_pcr{}, al, bl, cl).solve(exec, dl);
  bandsolve::factorize(exec, algo::thomas_pcr{}, al, bl, cl).refactor(exec, al, bl, cl);
  bandsolve::solve(exec, algo::automatic{}, a, b, c, d, info);

  if constexpr (real) {  // these take float and double only
    Kokkos::View<Kokkos::complex<T>**, Kokkos::LayoutRight> dz("dz", nsys, n);
    bandsolve::solve(exec, algo::automatic{}, a, b, c, dz, info);
    Kokkos::View<T***, Kokkos::LayoutRight> u("u", 2, 3, 4), v("v", 2, 3, 4),
        w("w", 2, 3, 4), x("x", 2, 3, 4);
    Kokkos::View<int*> info_axis("info_axis", 8);
    bandsolve::solve_along(exec, algo::thomas{}, 1, u, v, w, x, info_axis);
    Kokkos::View<Kokkos::complex<T>***, Kokkos::LayoutRight> xz("xz", 2, 3, 4), uz("uz", 2, 3, 4);
    bandsolve::solve_along(exec, algo::thomas{}, 1, u, v, w, xz, info_axis);
    bandsolve::solve_along_add(exec, algo::thomas{}, 1, u, v, w, xz, uz, info_axis);
    bandsolve::solve_along(exec, algo::symmetric{}, 1, v, w, xz, info_axis);
    bandsolve::solve_along_add(exec, algo::symmetric{}, 1, v, w, xz, uz, info_axis);
    bandsolve::solve_along_add(exec, algo::symmetric{}, 2, v, w, x, u, info_axis,
                               bandsolve::backend::device{});
    bandsolve::solve_along(exec, algo::periodic{}, 1, u, v, w, x, info_axis);
    bandsolve::solve_along(exec, algo::periodic{}, 2, u, v, w, xz, info_axis);
    bandsolve::solve_along(exec, algo::partial_pivoting{}, 1, u, v, w, x, info_axis);
    bandsolve::solve_along(exec, algo::partial_pivoting{}, 0, u, v, w, xz, info_axis);
    Kokkos::View<T*> u1("u1", 3), v1("v1", 3), w1("w1", 3);
    bandsolve::solve_along(exec, algo::periodic{}, 1, u1, v1, w1, x, info_axis);
    bandsolve::solve_along(exec, algo::partial_pivoting{}, 1, u1, v1, w1, xz, info_axis);
    bandsolve::solve_along_add(exec, algo::periodic{}, 1, u, v, w, xz, uz, info_axis);
    bandsolve::solve_along_add(exec, algo::periodic{}, 2, u1, v1, w1, x, u, info_axis);
    bandsolve::solve_along_add(exec, algo::partial_pivoting{}, 0, u, v, w, x, u, info_axis,
                               bandsolve::backend::device{});
    bandsolve::solve_along_add(exec, algo::partial_pivoting{}, 1, u1, v1, w1, xz, uz, info_axis);
    const auto fu = bandsolve::factorize_along(exec, algo::thomas{}, 2, u, v, w);
    fu.solve(exec, xz);
    fu.solve_add(exec, Kokkos::View<const Kokkos::complex<T>***, Kokkos::LayoutRight>(xz), uz);
    fu.solve_add(exec, x, u);
    auto fr = fu;
    fr.refactor(exec, v, w, u);
    bandsolve::factorize_along(exec, algo::thomas{}, 1, u1, v1, w1, x).refactor(exec, u1, v1, w1);
    bandsolve::factorize_along(exec, algo::periodic{}, 2, u, v, w, bandsolve::backend::device{})
        .refactor(exec, u, v, w);
    bandsolve::factorize_along(exec, algo::partial_pivoting{}, 1, u1, v1, w1, x)
        .refactor(exec, u1, v1, w1);
    bandsolve::factorize_along(exec, algo::symmetric{}, 2, v, w).refactor(exec, v, w);
    bandsolve::factorize(exec, algo::symmetric{}, b, c).refactor(exec, b, c);
    bandsolve::factorize(exec, algo::symmetric{}, bl, cl, bandsolve::backend::device{})
        .refactor(exec, bl, cl);
    bandsolve::factorize_along(exec, algo::thomas{}, 1, u1, v1, w1, x).solve(exec, x);
    bandsolve::factorize_along(exec, algo::thomas{}, 1, u1, v1, w1, x).solve_add(exec, x, w);
    bandsolve::factorize_along(exec, algo::thomas{}, 0, u, v, w, bandsolve::backend::device{})
        .solve_add(exec, x, w);
    bandsolve::factorize_along(exec, algo::thomas{}, 0, u, v, w, bandsolve::backend::device{})
        .solve(exec, x);
    bandsolve::factorize_along(exec, algo::periodic{}, 2, u, v, w).solve(exec, xz);
    bandsolve::factorize_along(exec, algo::periodic{}, 1, u1, v1, w1, x).solve(exec, x);
    bandsolve::factorize_along(exec, algo::partial_pivoting{}, 2, u, v, w).solve(exec, xz);
    bandsolve::factorize_along(exec, algo::partial_pivoting{}, 1, u1, v1, w1, x).solve(exec, x);
    bandsolve::factorize_along(exec, algo::periodic{}, 2, u, v, w).solve_add(exec, xz, uz);
    bandsolve::factorize_along(exec, algo::partial_pivoting{}, 1, u1, v1, w1, x)
        .solve_add(exec, x, u);
    bandsolve::factorize_along(exec, algo::periodic{}, 0, u, v, w, bandsolve::backend::device{})
        .solve_add(exec, x, w);
    bandsolve::factorize_along(exec, algo::partial_pivoting{}, 0, u, v, w,
                               bandsolve::backend::device{})
        .solve(exec, x);
    bandsolve::factorize_along(exec, algo::symmetric{}, 2, v, w).solve(exec, xz);
    bandsolve::factorize_along(exec, algo::symmetric{}, 1, v1, w1, x).solve(exec, x);
    bandsolve::factorize_along(exec, algo::symmetric{}, 1, v1, w1, x).solve_add(exec, x, u);
    bandsolve::factorize_along(exec, algo::symmetric{}, 2, v, w).solve_add(exec, xz, uz);
    bandsolve::factorize_along(exec, algo::symmetric{}, 0, v, w, bandsolve::backend::device{})
        .solve(exec, x);
    // Real Toeplitz factors with complex right-hand sides.
    auto fz = bandsolve::factorize(exec, algo::toeplitz{}, T(-1), T(4), T(-1), n);
    fz.solve(exec, dz);
    fz.solve(exec, dz, bandsolve::backend::device{});
    bandsolve::solve(exec, algo::toeplitz{}, T(-1), T(4), T(-1), dz, info);
  }
  Kokkos::View<T*> x1("x1", n);
  bandsolve::solve(exec, algo::toeplitz_dc{}, T(-1), T(4), T(-1), x1);
  bandsolve::solve(exec, algo::toeplitz_dc{}, T(-1), T(4), T(-1), x1, bandsolve::backend::device{});
  auto ftz = bandsolve::factorize(exec, algo::toeplitz{}, T(-1), T(4), T(-1), n);
  ftz.solve(exec, d);
  bandsolve::solve(exec, algo::toeplitz{}, T(-1), T(4), T(-1), d, info);
  (void)sizeof(R);
  bandsolve::throw_if_failed("warnings", info);
  (void)bandsolve::count_failed(info);
}

}  // namespace

// Referenced so that the instantiations are compiled; never called.
void bandsolve_umbrella_warnings() {
  instantiate_all<float>();
  instantiate_all<double>();
  instantiate_all<Kokkos::complex<double>>();
}
