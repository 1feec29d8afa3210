// Batched banded LU with a real band and complex right-hand sides (double with
// Kokkos::complex<double>, float with Kokkos::complex<float>) against LAPACK ?gbsv on the band
// promoted to complex (zgbsv, cgbsv): real entries have |re| + |im| = |x|, so the pivots are the
// real band's. One-shot solves with one right-hand side, factored solves with several.
#include "banded_support.hpp"

#include <bandsolve/bandsolve.hpp>

#include <catch2/catch_all.hpp>

#include <tuple>
#include <vector>

namespace test_banded_lu_mixed {  // units compile in groups: tests/CMakeLists.txt

namespace {

namespace bl = bandsolve::layout;
using bandsolve::algo::banded_lu;

using mixed_list = std::tuple<std::tuple<bl::interleaved<8>, double>, std::tuple<bl::row, double>,
                              std::tuple<bl::column, double>, std::tuple<bl::interleaved<4>, float>,
                              std::tuple<bl::row, float>>;

template <class R>
bstest::host_band<Kokkos::complex<R>> promoted(const bstest::host_band<R>& h) {
  bstest::host_band<Kokkos::complex<R>> c(h.nsys, h.n, h.kl, h.ku);
  for (std::size_t k = 0; k < h.ab.size(); ++k) c.ab[k] = Kokkos::complex<R>(h.ab[k], R(0));
  return c;
}

}  // namespace

TEMPLATE_LIST_TEST_CASE("banded_lu: real band, complex right-hand sides match LAPACK on the "
                        "promoted band",
                        "[banded][mixed][lapack]", mixed_list) {
  using Layout = std::tuple_element_t<0, TestType>;
  using R = std::tuple_element_t<1, TestType>;
  using C = Kokkos::complex<R>;
  bstest::for_each_exec([&](auto exec) {
    using Mem = typename decltype(exec)::memory_space;
    std::uint32_t seed = 8000;
    for (const auto& bw : std::vector<std::pair<int, int>>{{1, 1}, {2, 2}, {4, 4}, {3, 1}})
      for (std::size_t n : {std::size_t(1), std::size_t(4), std::size_t(17)})
        for (bool pivoting : {true, false}) {
          const int kl = bw.first, ku = bw.second;
          const std::size_t nsys = 11, nrhs = 2;
          INFO("kl=" << kl << " ku=" << ku << " n=" << n << " pivoting=" << pivoting << " "
                     << exec.name());
          const auto h = bstest::random_band<R>(nsys, n, kl, ku, ++seed, pivoting ? -0.1 : 1.0);
          const auto hc = promoted(h);
          const auto rhs = bstest::random_values<C>(nsys * n * nrhs, ++seed);
          const auto ref = bstest::reference_gbsv(hc, rhs, static_cast<int>(nrhs));
          // cond(A) < 1e3 times the backward error bound of banded_lu_cases.hpp.
          const double tol = 1000.0 * 16.0 * (kl + ku + 2) * bstest::band_eps<C>;
          const auto ab = bstest::band_to_device<Layout, R, Mem>(h);

          // One-shot, one right-hand side per system (the first of each system's pair).
          std::vector<C> rhs0(nsys * n), ref0(nsys * n);
          for (std::size_t s = 0; s < nsys; ++s)
            for (std::size_t i = 0; i < n; ++i) rhs0[s * n + i] = rhs[s * nrhs * n + i];
          const auto ref_one = bstest::reference_gbsv(hc, rhs0, 1);
          auto b = bstest::rhs_to_device<Layout, C, Mem, false>(rhs0, nsys, n, 1);
          auto info = bstest::make_info<Mem>(nsys);
          bandsolve::solve(exec, banded_lu{kl, ku, pivoting}, ab, b, info);
          exec.fence();
          CHECK(bstest::info_to_host(info) == ref_one.info);
          const auto x = bstest::rhs_to_host(b, nsys, n, 1);
          double worst = 0;
          for (std::size_t s = 0; s < nsys; ++s)
            worst = std::max(worst, bstest::vec_rel_diff(x, ref_one.x, s * n, n));
          CHECK(worst <= tol);

          // Factored, several right-hand sides.
          const auto f = bandsolve::factorize(exec, banded_lu{kl, ku, pivoting}, ab, nsys);
          auto bs = bstest::rhs_to_device<Layout, C, Mem, true>(rhs, nsys, n, nrhs);
          f.solve(exec, bs);
          exec.fence();
          CHECK(bstest::info_to_host(f.info()) == ref.info);
          if (pivoting) CHECK(bstest::to_host(f.pivots(), nsys) == ref.ipiv);
          const auto xs = bstest::rhs_to_host(bs, nsys, n, nrhs);
          worst = 0;
          for (std::size_t s = 0; s < nsys * nrhs; ++s)
            worst = std::max(worst, bstest::vec_rel_diff(xs, ref.x, s * n, n));
          CHECK(worst <= tol);
        }
  });
}

}  // namespace test_banded_lu_mixed
