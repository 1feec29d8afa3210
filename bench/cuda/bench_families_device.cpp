// GPU benchmarks of the batched families other than Thomas on Kokkos::Cuda, double precision, a
// device-to-device copy of the same bytes as the reference (frac_of_copy):
//   pivoting/<layout>      partial pivoting (?gtsv), 65536 systems of n = 256; floor 5 words
//                          per unknown (a, b, c, d read, x written) and the pivot byte
//   periodic/<layout>      cyclic tridiagonal, same shape; floor 5 words per unknown
//   thomas_factored/<layout>  Thomas' factored solve (factorize once, time f.solve); floor 5 words
//   symmetric/<layout>     LDL^T one-shot (algo::symmetric) on diag = |b|, offdiag = c, same
//                          shape; floor 4 words (diag, offdiag, d read, x written)
//   toeplitz/<layout>      65536 systems sharing tridiag(-1, 4, -1), n = 256; floor 2 words
//                          (d read, x written)
//   block_thomas/<layout>/m:4  16384 systems of 128 block rows, m = 4; floor 3m + 2 words per
//                          scalar unknown
//   banded/<layout>/kl:2   65536 systems of n = 256, kl = ku = 2, partial pivoting; floor
//                          2 kl + 3 words per unknown
// Names: <family>_device/<layout>/<shape>/double.
// Layouts: column (LayoutLeft, a thread per system reads neighbouring addresses) and row
// (LayoutRight, each system contiguous). Only d is restored before each iteration (untimed): the
// coefficients are read only.
#include "bench_support.hpp"
#include "cuda/device_bench_support.hpp"

#include <bandsolve/bandsolve.hpp>

#include <Kokkos_Core.hpp>
#include <benchmark/benchmark.h>

#include <string>
#include <type_traits>

namespace bandsolve_bench_cuda {
// A named namespace: nvcc's extended lambdas may not be enclosed by internal-linkage functions.
namespace families {

using T = double;
constexpr int batch_nsys = 65536, batch_n = 256;
constexpr int block_nsys = 16384, block_n = 128, block_m = 4;
constexpr int band_kl = 2;

template <class Layout>
const char* layout_name() {
  return std::is_same_v<Layout, bandsolve::layout::row> ? "row" : "column";
}

// Fills dominant tridiagonal systems: a, c in [-1, 1), b = 2 + |a| + |c| (negated on odd rows,
// so pivoting compares mixed signs), d in [-1, 1).
template <class View>
void fill_tridiagonal(const View& a, const View& b, const View& c, const View& d) {
  Kokkos::parallel_for(
      "fill", Kokkos::RangePolicy<exec>(0, std::size_t(batch_nsys) * batch_n),
      KOKKOS_LAMBDA(std::size_t k) {
        const int s = int(k / batch_n), i = int(k % batch_n);
        const double av = 2 * bandsolve_bench::hash01(4 * k) - 1;
        const double cv = 2 * bandsolve_bench::hash01(4 * k + 1) - 1;
        const double bv = 2 + (av < 0 ? -av : av) + (cv < 0 ? -cv : cv);
        bandsolve::at(a, s, i) = av;
        bandsolve::at(c, s, i) = cv;
        bandsolve::at(b, s, i) = i % 2 ? -bv : bv;
        bandsolve::at(d, s, i) = 2 * bandsolve_bench::hash01(4 * k + 2) - 1;
      });
}

// 65536 such systems of 256 rows in one layout, with a copy of d to restore from.
template <class Layout>
struct tridiagonal_batch {
  using view = decltype(bandsolve::make_batch<Layout, T, mem>("", 0, 0));
  view a, b, c, d0, d;
  Kokkos::View<int*, mem> info;
  tridiagonal_batch()
      : a(make("a")), b(make("b")), c(make("c")), d0(make("d0")), d(make("d")),
        info("info", batch_nsys) {
    fill_tridiagonal(a, b, c, d0);
    Kokkos::deep_copy(d, d0);
    Kokkos::fence();
  }
  static view make(const char* label) {
    return bandsolve::make_batch<Layout, T, mem>(label, batch_nsys, batch_n);
  }
  void restore() const { Kokkos::deep_copy(exec(), d, d0); }
  static double unknowns() { return double(batch_nsys) * batch_n; }
};

// dst(s, i) = |src(s, i)|: the positive diagonal of the symmetric case.
template <class View>
void absolute_copy(const View& dst, const View& src) {
  Kokkos::parallel_for(
      "abs", Kokkos::RangePolicy<exec>(0, std::size_t(batch_nsys) * batch_n),
      KOKKOS_LAMBDA(std::size_t k) {
        const int s = int(k / batch_n), i = int(k % batch_n);
        const T v = bandsolve::at(src, s, i);
        bandsolve::at(dst, s, i) = v < 0 ? -v : v;
      });
}

// Symmetric positive definite: diag = |b| = 2 + |a| + |c| > |c[i-1]| + |c[i]|, offdiag = c.
template <class Layout>
void symmetric(benchmark::State& state) {
  const tridiagonal_batch<Layout> p;
  const auto diag = tridiagonal_batch<Layout>::make("diag");
  absolute_copy(diag, p.b);
  Kokkos::fence();
  run_timed(state, 4.0 * sizeof(T) * p.unknowns(), p.unknowns(), [&] { p.restore(); }, [&] {
    bandsolve::solve(exec(), bandsolve::algo::symmetric{}, diag, p.c, p.d, p.info);
  });
}

template <class Layout>
void pivoting(benchmark::State& state) {
  const tridiagonal_batch<Layout> p;
  run_timed(state, (5.0 * sizeof(T) + 1) * p.unknowns(), p.unknowns(), [&] { p.restore(); }, [&] {
    bandsolve::solve(exec(), bandsolve::algo::partial_pivoting{}, p.a, p.b, p.c, p.d, p.info);
  });
}

template <class Layout>
void periodic(benchmark::State& state) {
  const tridiagonal_batch<Layout> p;
  run_timed(state, 5.0 * sizeof(T) * p.unknowns(), p.unknowns(), [&] { p.restore(); }, [&] {
    bandsolve::solve(exec(), bandsolve::algo::periodic{}, p.a, p.b, p.c, p.d, p.info);
  });
}

template <class Layout>
void thomas_factored(benchmark::State& state) {
  const tridiagonal_batch<Layout> p;
  const auto f = bandsolve::factorize(exec(), bandsolve::algo::thomas{}, p.a, p.b, p.c);
  Kokkos::fence();
  run_timed(state, 5.0 * sizeof(T) * p.unknowns(), p.unknowns(), [&] { p.restore(); },
            [&] { f.solve(exec(), p.d); });
}

// The same solve with a thread per system (device::chunked_thomas off), which keeps d' in memory
// between its sweeps.
template <class Layout>
void thomas_factored_per_system(benchmark::State& state) {
  bandsolve::detail::device::chunked_thomas = false;
  thomas_factored<Layout>(state);
  bandsolve::detail::device::chunked_thomas = true;
}

template <class Layout>
void toeplitz(benchmark::State& state) {
  const tridiagonal_batch<Layout> p;
  run_timed(state, 2.0 * sizeof(T) * p.unknowns(), p.unknowns(), [&] { p.restore(); }, [&] {
    bandsolve::solve(exec(), bandsolve::algo::toeplitz{}, T(-1), T(4), T(-1), p.d, p.info);
  });
}

// Every scalar row of the block system sums to 1 with a dominant diagonal (as in
// bench/block/bench_block_thomas.cpp), so repeated solves stay finite.
template <class Layout>
void block_thomas(benchmark::State& state) {
  using coef_view = decltype(bandsolve::make_block_batch<Layout, T, mem>("", 0, 0, 0));
  using rhs_view = decltype(bandsolve::make_block_rhs<Layout, T, mem>("", 0, 0, 0));
  const std::size_t nsys = block_nsys, n = block_n, m = block_m;
  const auto make = [&](const char* label) {
    return bandsolve::make_block_batch<Layout, T, mem>(label, nsys, n, m);
  };
  const coef_view a = make("a"), b = make("b"), c = make("c");
  const rhs_view d0 = bandsolve::make_block_rhs<Layout, T, mem>("d0", nsys, n, m);
  const rhs_view d = bandsolve::make_block_rhs<Layout, T, mem>("d", nsys, n, m);
  Kokkos::View<int*, mem> info("info", nsys);
  Kokkos::parallel_for(
      "fill", Kokkos::RangePolicy<exec>(0, nsys * n), KOKKOS_LAMBDA(std::size_t k) {
        const std::size_t s = k / n, i = k % n;
        const double scale = 1.0 / (3.0 * m);
        for (std::size_t r = 0; r < m; ++r) {
          double sum = 0;
          for (std::size_t col = 0; col < m; ++col) {
            const std::uint64_t h = 4 * ((k * m + r) * m + col);
            const double va = -(0.25 + 0.5 * bandsolve_bench::hash01(h)) * scale;
            const double vb = col == r ? 0.0 : -(0.25 + 0.5 * bandsolve_bench::hash01(h + 1)) * scale;
            const double vc = -(0.25 + 0.5 * bandsolve_bench::hash01(h + 2)) * scale;
            bandsolve::block_at(a, s, i, r, col) = va;
            bandsolve::block_at(b, s, i, r, col) = vb;
            bandsolve::block_at(c, s, i, r, col) = vc;
            sum += (i > 0 ? va : 0.0) + vb + (i + 1 < n ? vc : 0.0);
          }
          bandsolve::block_at(b, s, i, r, r) = 1 - sum;
          bandsolve::block_at(d0, s, i, r) = 1 + bandsolve_bench::hash01(4 * (k * m + r) + 3);
        }
      });
  Kokkos::deep_copy(d, d0);
  Kokkos::fence();
  const double unknowns = double(nsys) * n * m;
  run_timed(state, (3.0 * m + 2) * sizeof(T) * unknowns, unknowns,
            [&] { Kokkos::deep_copy(exec(), d, d0); },
            [&] { bandsolve::solve(exec(), bandsolve::algo::block_thomas{}, a, b, c, d, info); });
}

// Banded systems, kl = ku = 2, partial pivoting: positive rows with a small diagonal (pivoting
// interchanges rows) scaled to sum to 1, as in bench/banded/bench_banded.cpp.
template <class Layout>
void banded(benchmark::State& state) {
  const std::size_t nsys = batch_nsys, n = batch_n;
  const int kl = band_kl, ku = band_kl;
  const auto ab = bandsolve::banded::make_band<Layout, T, mem>("ab", nsys, n, kl, ku);
  const auto b0 = bandsolve::make_batch<Layout, T, mem>("b0", nsys, n);
  const auto b = bandsolve::make_batch<Layout, T, mem>("b", nsys, n);
  Kokkos::View<int*, mem> info("info", nsys);
  Kokkos::parallel_for(
      "fill", Kokkos::RangePolicy<exec>(0, nsys * n), KOKKOS_LAMBDA(std::size_t k) {
        const std::size_t s = k / n, i = k % n;
        const std::size_t j0 = i > std::size_t(kl) ? i - kl : 0;
        const std::size_t j1 = i + ku < n ? i + ku : n - 1;
        double sum = 0;
        for (std::size_t j = j0; j <= j1; ++j) {
          const double h = bandsolve_bench::hash01(k * 16 + (j - j0));
          const double v = j == i ? 0.05 * h : 0.5 + 0.5 * h;
          bandsolve::banded::band_at(ab, kl, ku, s, i, j) = v;
          sum += v;
        }
        for (std::size_t j = j0; j <= j1; ++j) bandsolve::banded::band_at(ab, kl, ku, s, i, j) /= sum;
        bandsolve::at(b0, s, i) = 1.0;
      });
  Kokkos::deep_copy(b, b0);
  Kokkos::fence();
  const double unknowns = double(nsys) * n;
  run_timed(state, (2.0 * kl + 3) * sizeof(T) * unknowns, unknowns,
            [&] { Kokkos::deep_copy(exec(), b, b0); },
            [&] { bandsolve::solve(exec(), bandsolve::algo::banded_lu{kl, ku}, ab, b, info); });
}

template <class Layout>
void register_layout() {
  const std::string l = layout_name<Layout>();
  auto reg = [](const std::string& name, void (*fn)(benchmark::State&)) {
    benchmark::RegisterBenchmark(name.c_str(), fn)->UseManualTime()->Unit(benchmark::kMicrosecond);
  };
  reg("pivoting_device/" + l + "/batch/double", pivoting<Layout>);
  reg("periodic_device/" + l + "/batch/double", periodic<Layout>);
  reg("thomas_factored_device/" + l + "/batch/double", thomas_factored<Layout>);
  reg("thomas_factored_device_per_system/" + l + "/batch/double",
      thomas_factored_per_system<Layout>);
  reg("symmetric_device/" + l + "/batch/double", symmetric<Layout>);
  reg("toeplitz_device/" + l + "/batch/double", toeplitz<Layout>);
  reg("block_thomas_device/" + l + "/m:4/double", block_thomas<Layout>);
  reg("banded_device/" + l + "/kl:2/double", banded<Layout>);
}

}  // namespace families

void register_family_benchmarks() {
  families::register_layout<bandsolve::layout::column>();
  families::register_layout<bandsolve::layout::row>();
}

}  // namespace bandsolve_bench_cuda
