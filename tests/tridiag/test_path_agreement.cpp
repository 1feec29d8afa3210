// Randomized check of the paths the host backends pick by shape: tiny systems (their own
// kernels), the sizes around pack, tile and chunk boundaries, and few long systems (the
// partition method, truncated spikes, linear scans), in every layout, one-shot, factored and
// refactored, through algo::thomas, algo::thomas_pcr, algo::automatic (also with complex
// right-hand sides of real systems), algo::symmetric and algo::periodic. The matrices are
// those the paths are chosen for and those they must turn away: dominant with a margin, barely
// dominant, Laplacian lines (spikes that do not decay), lines dominant in one part and not in
// the rest, and batches whose first system is dominant while the others are not (the truncated
// spikes try the first system). Every solution must have a normwise backward error below the
// bound of Thomas's LU on diagonally dominant matrices, and every info code must be 0.
//
// Fixed seed by default. A longer run:
//   BANDSOLVE_AGREEMENT_ITERATIONS=400 BANDSOLVE_AGREEMENT_SEED=7
//     build/test/tests/tridiag_group_checks --filenames-as-tags "[#test_path_agreement]"
// A failure prints the seed, the iteration and the case, which reproduce it.
#include <bandsolve/bandsolve.hpp>
#include <random_lines.hpp>
#include <test_support.hpp>

#include <catch2/catch_test_macros.hpp>

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdint>
#include <cstdlib>
#include <iostream>
#include <limits>
#include <random>
#include <sstream>
#include <string>
#include <vector>

namespace test_path_agreement {  // units compile in groups: tests/CMakeLists.txt

namespace {

using exec_space = Kokkos::DefaultHostExecutionSpace;
using cd = std::complex<double>;

using bstest_random::env_or;
using bstest_random::matrix;
using bstest_random::name_of;
using problem = bstest_random::lines;

// Batch Views of Layout. Strided Views are windows of padded arrays: rows padded (row-major,
// system stride n + 3), systems padded (column-major, unit system stride, the systems side by
// side), or every other system of a column-major array.
enum class window { rows_padded, systems_padded, every_other_system };
const char* name_of(window w) {
  switch (w) {
    case window::rows_padded: return "strided, rows padded";
    case window::systems_padded: return "strided, systems side by side";
    default: return "strided, every other system";
  }
}

template <class Layout, class T>
auto make_view(const std::string& label, std::size_t nsys, std::size_t n, window w) {
  if constexpr (std::is_same_v<Layout, bandsolve::layout::strided>) {
    using V = Kokkos::View<T**, Kokkos::LayoutStride, Kokkos::HostSpace>;
    const T pad = T(777);
    if (w == window::rows_padded) {
      Kokkos::View<T**, Kokkos::LayoutRight, Kokkos::HostSpace> full(label, nsys, n + 3);
      Kokkos::deep_copy(full, pad);
      return V(Kokkos::subview(full, Kokkos::ALL, std::make_pair(std::size_t(1), n + 1)));
    }
    if (w == window::systems_padded) {
      Kokkos::View<T**, Kokkos::LayoutLeft, Kokkos::HostSpace> full(label, nsys + 2, n);
      Kokkos::deep_copy(full, pad);
      return V(Kokkos::subview(full, std::make_pair(std::size_t(1), nsys + 1), Kokkos::ALL));
    }
    Kokkos::View<T***, Kokkos::LayoutLeft, Kokkos::HostSpace> full(label, 2, nsys, n);
    Kokkos::deep_copy(full, pad);
    return V(Kokkos::subview(full, 0, Kokkos::ALL, Kokkos::ALL));
  } else {
    (void)w;
    return bandsolve::make_batch<Layout, T, Kokkos::HostSpace>(label, nsys, n);
  }
}

template <class View, class X>
void fill(const View& v, const std::vector<X>& h, std::size_t nsys) {
  using T = typename View::non_const_value_type;
  std::vector<T> t(h.size());
  for (std::size_t k = 0; k < h.size(); ++k) {
    if constexpr (bandsolve::is_complex_v<T>)
      t[k] = T(static_cast<typename T::value_type>(cd(h[k]).real()),
               static_cast<typename T::value_type>(cd(h[k]).imag()));
    else
      t[k] = static_cast<T>(cd(h[k]).real());
  }
  bstest::fill(v, t, nsys);
}

template <class View>
std::vector<cd> read(const View& v, std::size_t nsys) {
  const auto h = bstest::to_host(v, nsys);
  std::vector<cd> out(h.size());
  for (std::size_t k = 0; k < h.size(); ++k) {
    if constexpr (bandsolve::is_complex_v<typename View::non_const_value_type>)
      out[k] = cd(static_cast<double>(h[k].real()), static_cast<double>(h[k].imag()));
    else
      out[k] = cd(static_cast<double>(h[k]), 0.0);
  }
  return out;
}

enum class path {
  thomas,
  thomas_pcr,
  automatic,
  automatic_complex_rhs,
  thomas_factored,
  thomas_pcr_factored,
  automatic_factored,
  automatic_factored_complex_rhs,
  symmetric,
  symmetric_factored,
  automatic_spd_factored,
  periodic,
  periodic_factored,
  count
};
const char* name_of(path p) {
  switch (p) {
    case path::thomas: return "solve(thomas)";
    case path::thomas_pcr: return "solve(thomas_pcr)";
    case path::automatic: return "solve(automatic)";
    case path::automatic_complex_rhs: return "solve(automatic), complex d";
    case path::thomas_factored: return "factorize(thomas)";
    case path::thomas_pcr_factored: return "factorize(thomas_pcr)";
    case path::automatic_factored: return "factorize(automatic)";
    case path::automatic_factored_complex_rhs: return "factorize(automatic), complex d";
    case path::symmetric: return "solve(symmetric)";
    case path::symmetric_factored: return "factorize(symmetric)";
    case path::automatic_spd_factored: return "factorize(automatic{true})";
    case path::periodic: return "solve(periodic)";
    default: return "factorize(periodic)";
  }
}

struct outcome {
  double worst = 0;  // largest backward error over the systems and solves, over the bound
  bool info_ok = true;
};

// One path on one problem: solve (one-shot), or factorize, solve twice (a second right-hand
// side), refactor with the matrices of `next` and solve once more.
template <path P, class Layout, class T>
outcome run_path(const problem& p, const problem& next, window w, std::mt19937_64& gen) {
  constexpr bool complex_rhs =
      P == path::automatic_complex_rhs || P == path::automatic_factored_complex_rhs;
  constexpr bool periodic = P == path::periodic || P == path::periodic_factored;
  using D = std::conditional_t<complex_rhs, Kokkos::complex<T>, T>;
  const exec_space exec;
  const std::size_t nsys = p.count, n = p.n;
  auto a = make_view<Layout, T>("a", nsys, n, w), b = make_view<Layout, T>("b", nsys, n, w),
       c = make_view<Layout, T>("c", nsys, n, w);
  auto d = make_view<Layout, D>("d", nsys, n, w);
  const auto load = [&](const problem& q) {
    fill(a, q.a, nsys);
    fill(b, q.b, nsys);
    fill(c, q.c, nsys);
  };
  // A right-hand side of the problem's size: p.d, or a fresh one (complex where D is).
  std::uniform_real_distribution<double> unit(-1.0, 1.0);
  const auto fresh_rhs = [&](bool first) {
    std::vector<cd> r(nsys * n);
    for (std::size_t k = 0; k < r.size(); ++k)
      r[k] = cd(first ? p.d[k] : unit(gen), complex_rhs ? unit(gen) : 0.0);
    return r;
  };
  const auto rounded_rhs = [&](std::vector<cd> r) {
    for (auto& x : r)
      x = cd(static_cast<double>(static_cast<T>(x.real())),
             static_cast<double>(static_cast<T>(x.imag())));
    return r;
  };
  outcome out;
  const auto check = [&](const problem& q, const std::vector<cd>& rhs) {
    const auto x = read(d, nsys);
    const auto qr = bstest_random::rounded_to<T>(q);
    const auto dr = rounded_rhs(rhs);
    for (std::size_t s = 0; s < nsys; ++s)
      out.worst = std::max(out.worst, bstest_random::backward_error(qr, x, dr, s, periodic) /
                                          bstest_random::backward_error_bound<T>());
  };
  const auto codes_zero = [&](const auto& info) {
    auto h = Kokkos::create_mirror_view(info);
    Kokkos::deep_copy(h, info);
    for (std::size_t s = 0; s < nsys; ++s)
      if (h(s) != 0) out.info_ok = false;
  };
  load(p);
  auto rhs = fresh_rhs(true);
  fill(d, rhs, nsys);
  constexpr bool one_shot = P == path::thomas || P == path::thomas_pcr || P == path::automatic ||
                            P == path::automatic_complex_rhs || P == path::symmetric ||
                            P == path::periodic;
  if constexpr (one_shot) {
    auto info = bstest::make_info(nsys);
    if constexpr (P == path::thomas)
      bandsolve::solve(exec, bandsolve::algo::thomas{}, a, b, c, d, info);
    if constexpr (P == path::thomas_pcr)
      bandsolve::solve(exec, bandsolve::algo::thomas_pcr{}, a, b, c, d, info);
    if constexpr (P == path::automatic || P == path::automatic_complex_rhs)
      bandsolve::solve(exec, bandsolve::algo::automatic{}, a, b, c, d, info);
    if constexpr (P == path::symmetric)
      bandsolve::solve(exec, bandsolve::algo::symmetric{}, b, c, d, info);
    if constexpr (P == path::periodic)
      bandsolve::solve(exec, bandsolve::algo::periodic{}, a, b, c, d, info);
    exec.fence();
    codes_zero(info);
    check(p, rhs);
  } else {
    const auto factor = [&]() {
      if constexpr (P == path::thomas_factored)
        return bandsolve::factorize(exec, bandsolve::algo::thomas{}, a, b, c, nsys);
      if constexpr (P == path::thomas_pcr_factored)
        return bandsolve::factorize(exec, bandsolve::algo::thomas_pcr{}, a, b, c, nsys);
      if constexpr (P == path::automatic_factored || P == path::automatic_factored_complex_rhs)
        return bandsolve::factorize(exec, bandsolve::algo::automatic{}, a, b, c, nsys);
      if constexpr (P == path::symmetric_factored)
        return bandsolve::factorize(exec, bandsolve::algo::symmetric{}, b, c, nsys);
      if constexpr (P == path::automatic_spd_factored)
        return bandsolve::factorize(exec, bandsolve::algo::automatic{true}, a, b, c, nsys);
      if constexpr (P == path::periodic_factored)
        return bandsolve::factorize(exec, bandsolve::algo::periodic{}, a, b, c, nsys);
    };
    auto f = factor();
    exec.fence();
    codes_zero(f.info());
    f.solve(exec, d);
    exec.fence();
    check(p, rhs);
    rhs = fresh_rhs(false);
    fill(d, rhs, nsys);
    f.solve(exec, d);
    exec.fence();
    check(p, rhs);
    load(next);
    if constexpr (P == path::symmetric_factored) f.refactor(exec, b, c);
    else f.refactor(exec, a, b, c);
    exec.fence();
    codes_zero(f.info());
    rhs = fresh_rhs(false);
    fill(d, rhs, nsys);
    f.solve(exec, d);
    exec.fence();
    check(next, rhs);
  }
  return out;
}

bool symmetric_path(path p) {
  return p == path::symmetric || p == path::symmetric_factored ||
         p == path::automatic_spd_factored;
}
bool periodic_path(path p) { return p == path::periodic || p == path::periodic_factored; }

template <class Layout, class T>
outcome run(path which, const problem& p, const problem& next, window w, std::mt19937_64& gen) {
  switch (which) {
    case path::thomas: return run_path<path::thomas, Layout, T>(p, next, w, gen);
    case path::thomas_pcr: return run_path<path::thomas_pcr, Layout, T>(p, next, w, gen);
    case path::automatic: return run_path<path::automatic, Layout, T>(p, next, w, gen);
    case path::automatic_complex_rhs:
      return run_path<path::automatic_complex_rhs, Layout, T>(p, next, w, gen);
    case path::thomas_factored: return run_path<path::thomas_factored, Layout, T>(p, next, w, gen);
    case path::thomas_pcr_factored:
      return run_path<path::thomas_pcr_factored, Layout, T>(p, next, w, gen);
    case path::automatic_factored:
      return run_path<path::automatic_factored, Layout, T>(p, next, w, gen);
    case path::automatic_factored_complex_rhs:
      return run_path<path::automatic_factored_complex_rhs, Layout, T>(p, next, w, gen);
    case path::symmetric: return run_path<path::symmetric, Layout, T>(p, next, w, gen);
    case path::symmetric_factored:
      return run_path<path::symmetric_factored, Layout, T>(p, next, w, gen);
    case path::automatic_spd_factored:
      return run_path<path::automatic_spd_factored, Layout, T>(p, next, w, gen);
    case path::periodic: return run_path<path::periodic, Layout, T>(p, next, w, gen);
    default: return run_path<path::periodic_factored, Layout, T>(p, next, w, gen);
  }
}

// Shapes: tiny systems in large batches, sizes at the boundaries of packs, tiles and chunks,
// few long systems, and anything between; at most 2^19 unknowns.
void pick_shape(std::mt19937_64& gen, std::size_t& nsys, std::size_t& n) {
  static const std::size_t edges[] = {15,   16,   17,   31,   32,   33,   47,   48,   49,
                                      63,   64,   65,   127,  128,  129,  255,  256,  257,
                                      511,  512,  513,  1023, 1024, 1025, 2047, 2048, 2049,
                                      4095, 4096, 4097, 8191, 8192, 8193};
  std::uniform_real_distribution<double> u01(0.0, 1.0);
  const double which = u01(gen);
  const auto between = [&](double lo, double hi) {  // log-uniform integer in [lo, hi]
    const double span = std::log(hi + 1) - std::log(lo);
    return static_cast<std::size_t>(std::exp(std::log(lo) + u01(gen) * span));
  };
  if (which < 0.25) {
    n = between(1, 9);
    nsys = between(1, 700);
  } else if (which < 0.55) {
    n = edges[static_cast<std::size_t>(u01(gen) * (sizeof(edges) / sizeof(edges[0])))];
    nsys = between(1, 80);
  } else if (which < 0.85) {
    n = between(2048, 1 << 17);
    nsys = between(1, 40);
  } else {
    n = between(10, 4000);
    nsys = between(1, 300);
  }
  n = std::max<std::size_t>(n, 1);
  nsys = std::max<std::size_t>(std::min<std::size_t>(nsys, (std::size_t(1) << 19) / n), 1);
}

template <class Layout, class T>
void run_iteration(std::mt19937_64& gen, std::uint64_t seed, std::uint64_t it) {
  std::size_t nsys = 1, n = 1;
  pick_shape(gen, nsys, n);
  std::uniform_int_distribution<int> pick_path(0, static_cast<int>(path::count) - 1),
      pick_matrix(0, 4), pick_window(0, 2);
  const auto which = static_cast<path>(pick_path(gen));
  const auto kind = static_cast<matrix>(pick_matrix(gen));
  const auto next_kind = static_cast<matrix>(pick_matrix(gen));
  const auto w = static_cast<window>(pick_window(gen));
  const bool symmetric = symmetric_path(which), periodic = periodic_path(which);
  const problem p = bstest_random::make_lines(gen, nsys, n, kind, symmetric, periodic);
  const problem next = bstest_random::make_lines(gen, nsys, n, next_kind, symmetric, periodic);
  const outcome o = run<Layout, T>(which, p, next, w, gen);
  std::ostringstream where;
  where << "seed " << seed << ", iteration " << it << ": " << name_of(which) << ", "
        << (std::is_same_v<Layout, bandsolve::layout::strided> ? name_of(w) : Layout::name)
        << ", " << (sizeof(T) == 4 ? "float" : "double") << ", nsys = " << nsys << ", n = " << n
        << ", " << name_of(kind) << " then " << name_of(next_kind)
        << "; backward error / bound = " << o.worst;
  if (env_or("BANDSOLVE_AGREEMENT_VERBOSE", 0)) std::cerr << where.str() << '\n';
  INFO(where.str());
  CHECK(o.info_ok);
  CHECK(o.worst <= 1.0);
}

}  // namespace

TEST_CASE("every path the host backends pick by shape solves to the backward error bound",
          "[agreement]") {
  const std::uint64_t seed = env_or("BANDSOLVE_AGREEMENT_SEED", 20261205);
  const std::uint64_t iterations = env_or("BANDSOLVE_AGREEMENT_ITERATIONS", 60);
  std::mt19937_64 gen(seed);
  std::uniform_int_distribution<int> pick_case(0, 9);
  for (std::uint64_t it = 0; it < iterations; ++it) {
    switch (pick_case(gen)) {
      case 0: run_iteration<bandsolve::layout::row, double>(gen, seed, it); break;
      case 1: run_iteration<bandsolve::layout::row, float>(gen, seed, it); break;
      case 2: run_iteration<bandsolve::layout::column, double>(gen, seed, it); break;
      case 3: run_iteration<bandsolve::layout::column, float>(gen, seed, it); break;
      case 4: run_iteration<bandsolve::layout::interleaved<8>, double>(gen, seed, it); break;
      case 5: run_iteration<bandsolve::layout::interleaved<16>, float>(gen, seed, it); break;
      case 6: run_iteration<bandsolve::layout::interleaved<4>, double>(gen, seed, it); break;
      case 7: run_iteration<bandsolve::layout::strided, double>(gen, seed, it); break;
      case 8: run_iteration<bandsolve::layout::strided, float>(gen, seed, it); break;
      default: run_iteration<bandsolve::layout::column, double>(gen, seed, it); break;
    }
  }
}

}  // namespace test_path_agreement
