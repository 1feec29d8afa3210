// GPU benchmarks of the solves along an axis (bandsolve::solve_along, factorize_along) on
// Kokkos::Cuda: lines along x, y and z of a 256^3 double cube (View<double***>, LayoutRight, z of
// unit stride) in device memory, timed with cudaEvents against a device-to-device copy of the
// same bytes (frac_of_copy). The same unknowns as a batch of 65536 systems of 256 rows, so
// thomas_device/column/batch/double in the same binary is the solve once the lines are a batch.
// Floor bytes per unknown (as in the host benchmarks bench/tridiag/bench_axis.cpp and
// bench/banded/bench_banded_axis.cpp):
//   thomas, periodic, pivoting: full coefficients (a, b, c of the cube's shape) read with d,
//   x written = 5 words; shared coefficients (1-D, length 256) = 2 words;
//   thomas_factored, periodic_factored: the device backend's stored copies of a, b, c read with d,
//   x written = 5 words, shared = 2 (the host backends store r, l, c', and periodic lines a
//   fourth factor, which the host benchmarks count);
//   banded (kl = ku = 2, partial pivoting): the band's kl + ku + 1 words and d, x = 7 words full,
//   2 shared; banded_factored: the stored LU's 2 kl + ku + 1 words, a pivot int, d and x = 9.5;
//   block (block_thomas, m = 4 unknowns per point of a 128^3 grid, a(i, j, k, r, col) in
//   LayoutRight; the block size this program compiles): 3m coefficients, d and x = 14 words per
//   scalar unknown.
// The "_add" cases (solve_along_add into u, d only read) count one word more: d read, u read and
// written.
// The coefficients keep repeated in-place solves in range (rows summing to 1, dominant), so d is
// not restored between iterations. Names: axis_device/<case>/<axis>.
#include "bench_support.hpp"
#include "cuda/device_bench_support.hpp"

#include <bandsolve/bandsolve.hpp>

#include <Kokkos_Core.hpp>
#include <benchmark/benchmark.h>

#include <cstdint>
#include <string>
#include <type_traits>

namespace bandsolve_bench_cuda {
// A named namespace: nvcc's extended lambdas may not be enclosed by internal-linkage functions.
namespace axis_lines {

constexpr std::size_t side = 256;
constexpr int kl = 2, ku = 2, ldab = 2 * kl + ku + 1;
using cube = Kokkos::View<double***, Kokkos::LayoutRight, mem>;
using line = Kokkos::View<double*, mem>;
using band_cube = Kokkos::View<double****, Kokkos::LayoutRight, mem>;
using band_lines = Kokkos::View<double**, Kokkos::LayoutRight, mem>;

constexpr double unknowns = double(side) * side * side;

cube make_cube(const char* label) { return cube(std::string(label), side, side, side); }

// a, c in [-0.75, -0.25], b = 1 - a - c: every row sums to 1 along any axis (periodic rings
// too) and is dominant, so ||A^-1|| <= 1. d in [1, 2).
template <class View>
void fill_tridiagonal(const View& a, const View& b, const View& c) {
  Kokkos::parallel_for(
      "fill", Kokkos::RangePolicy<exec>(0, a.size()), KOKKOS_LAMBDA(std::size_t k) {
        const double lo = -0.25 - 0.5 * bandsolve_bench::hash01(2 * k);
        const double up = -0.25 - 0.5 * bandsolve_bench::hash01(2 * k + 1);
        a.data()[k] = lo;
        c.data()[k] = up;
        b.data()[k] = 1 - lo - up;
      });
}

cube make_field() {
  const cube d = make_cube("d");
  Kokkos::parallel_for(
      "fill d", Kokkos::RangePolicy<exec>(0, d.size()), KOKKOS_LAMBDA(std::size_t k) {
        d.data()[k] = 1 + bandsolve_bench::hash01(11 * k);
      });
  return d;
}

// Entry r of a line's band (LAPACK row kl + ku + p - q of A(p, q)): off-diagonals
// -(0.1 + 0.2 h), the diagonal 2.2 (column dominant), as in bench_banded_axis.cpp.
KOKKOS_INLINE_FUNCTION double band_value(std::uint64_t key, int r) {
  return r == kl + ku ? 2.2 : -(0.1 + 0.2 * bandsolve_bench::hash01(key * ldab + std::uint64_t(r)));
}

template <class Band>
void fill_band(const Band& ab) {
  const std::size_t points = ab.size() / ldab;
  Kokkos::parallel_for(
      "fill band", Kokkos::RangePolicy<exec>(0, points), KOKKOS_LAMBDA(std::size_t k) {
        for (int r = kl; r < ldab; ++r) ab.data()[k * ldab + r] = band_value(k, r);
      });
}

void check_info(benchmark::State& state, const Kokkos::View<int*, mem>& info) {
  if (bandsolve::count_failed(info) != 0) state.SkipWithError("a line failed");
}

// One-shot solve_along of tridiagonal lines: Algo is thomas, periodic or partial_pivoting. Add:
// solve_along_add into u.
template <class Algo, bool Shared, bool Add = false>
void tridiagonal(benchmark::State& state) {
  const int axis = static_cast<int>(state.range(0));
  const cube d = make_field();
  const cube u("u", Add ? side : 0, Add ? side : 0, Add ? side : 0);
  const typename cube::const_type d_in = d;
  Kokkos::View<int*, mem> info("info", side * side);
  const auto run = [&](const auto& a, const auto& b, const auto& c) {
    fill_tridiagonal(a, b, c);
    Kokkos::fence();
    const double words = (Shared ? 2.0 : 5.0) + (Add ? 1.0 : 0.0);
    run_timed(state, words * sizeof(double) * unknowns, unknowns, [] {}, [&] {
      if constexpr (Add)
        bandsolve::solve_along_add(exec(), Algo{}, axis, a, b, c, d_in, u, info);
      else
        bandsolve::solve_along(exec(), Algo{}, axis, a, b, c, d, info);
    });
  };
  if constexpr (Shared)
    run(line("a", side), line("b", side), line("c", side));
  else
    run(make_cube("a"), make_cube("b"), make_cube("c"));
  check_info(state, info);
}

// factorize_along once (untimed), then f.solve (Add: f.solve_add into u): Algo is thomas or
// periodic.
template <class Algo, bool Shared, bool Add = false>
void tridiagonal_factored(benchmark::State& state) {
  const int axis = static_cast<int>(state.range(0));
  const cube d = make_field();
  const cube u("u", Add ? side : 0, Add ? side : 0, Add ? side : 0);
  const typename cube::const_type d_in = d;
  const double words = (Shared ? 2.0 : 5.0) + (Add ? 1.0 : 0.0);
  const auto run = [&](const auto& f) {
    Kokkos::fence();
    run_timed(state, words * sizeof(double) * unknowns, unknowns, [] {}, [&] {
      if constexpr (Add)
        f.solve_add(exec(), d_in, u);
      else
        f.solve(exec(), d);
    });
    if (bandsolve::count_failed(f.info()) != 0) state.SkipWithError("a line failed");
  };
  if constexpr (Shared) {
    const line a("a", side), b("b", side), c("c", side);
    fill_tridiagonal(a, b, c);
    run(bandsolve::factorize_along(exec(), Algo{}, axis, a, b, c, d));
  } else {
    const cube a = make_cube("a"), b = make_cube("b"), c = make_cube("c");
    fill_tridiagonal(a, b, c);
    run(bandsolve::factorize_along(exec(), Algo{}, axis, a, b, c));
  }
}

// Pentadiagonal lines with partial pivoting: one-shot (full or shared band) or factored. Add
// (one-shot, full band): solve_along_add into u.
template <bool Shared, bool Factored, bool Add = false>
void banded(benchmark::State& state) {
  const int axis = static_cast<int>(state.range(0));
  const cube d = make_field();
  const cube u("u", Add ? side : 0, Add ? side : 0, Add ? side : 0);
  const typename cube::const_type d_in = d;
  const band_cube ab(std::string("ab"), Shared ? 0 : side, Shared ? 0 : side, Shared ? 0 : side,
                     ldab);
  const band_lines shared_ab(std::string("shared_ab"), side, ldab);
  fill_band(ab);
  fill_band(shared_ab);
  Kokkos::fence();
  const bandsolve::algo::banded_lu alg{kl, ku};
  if constexpr (Factored) {
    const auto f = bandsolve::factorize_along(exec(), alg, axis, ab);
    Kokkos::fence();
    run_timed(state, (2.0 * kl + ku + 1 + 0.5 + 2) * sizeof(double) * unknowns, unknowns, [] {},
              [&] { f.solve(exec(), d); });
    if (bandsolve::count_failed(f.info()) != 0) state.SkipWithError("a line failed");
  } else {
    Kokkos::View<int*, mem> info("info", side * side);
    const double words = (Shared ? 2.0 : kl + ku + 1.0 + 2.0) + (Add ? 1.0 : 0.0);
    run_timed(state, words * sizeof(double) * unknowns, unknowns, [] {}, [&] {
      if constexpr (Add)
        bandsolve::solve_along_add(exec(), alg, axis, ab, d_in, u, info);
      else if constexpr (Shared)
        bandsolve::solve_along(exec(), alg, axis, shared_ab, d, info);
      else
        bandsolve::solve_along(exec(), alg, axis, ab, d, info);
    });
    check_info(state, info);
  }
}

// Block lines, m unknowns per point of a block_side^3 grid: off-diagonal entries
// -(0.25 + 0.5 h) / (3m), the diagonal 1 minus the sum of the row's entries that the line has,
// so every scalar row sums to 1 and repeated solves stay in range; d in [1, 2).
constexpr std::size_t block_side = 128, block_m = 4;
using block_grid = Kokkos::View<double*****, Kokkos::LayoutRight, mem>;
using block_field = Kokkos::View<double****, Kokkos::LayoutRight, mem>;

void fill_block(const block_grid& a, const block_grid& b, const block_grid& c,
                const block_field& d, int axis) {
  const std::size_t s = block_side, m = block_m;
  Kokkos::parallel_for(
      "fill block", Kokkos::RangePolicy<exec>(0, s * s * s), KOKKOS_LAMBDA(std::size_t k) {
        const std::size_t p[3] = {k / (s * s), k / s % s, k % s};
        const std::size_t i = p[axis];
        for (std::size_t r = 0; r < m; ++r) {
          double sum = 0;
          for (std::size_t col = 0; col < m; ++col) {
            const std::uint64_t h = 4 * ((k * m + r) * m + col);
            const double scale = 1.0 / (3.0 * double(m));
            const double va = -(0.25 + 0.5 * bandsolve_bench::hash01(h)) * scale;
            const double vb = -(0.25 + 0.5 * bandsolve_bench::hash01(h + 1)) * scale;
            const double vc = -(0.25 + 0.5 * bandsolve_bench::hash01(h + 2)) * scale;
            a(p[0], p[1], p[2], r, col) = va;
            c(p[0], p[1], p[2], r, col) = vc;
            b(p[0], p[1], p[2], r, col) = vb;
            sum += (i > 0 ? va : 0.0) + (col != r ? vb : 0.0) + (i + 1 < s ? vc : 0.0);
          }
          b(p[0], p[1], p[2], r, r) = 1 - sum;
          d(p[0], p[1], p[2], r) = 1 + bandsolve_bench::hash01(4 * (k * m + r) + 3);
        }
      });
}

// One-shot solve_along(block_thomas) of full-coefficient lines; Add: solve_along_add into u.
template <bool Add>
void block(benchmark::State& state) {
  const int axis = static_cast<int>(state.range(0));
  const std::size_t s = block_side, m = block_m;
  const block_grid a("a", s, s, s, m, m), b("b", s, s, s, m, m), c("c", s, s, s, m, m);
  const block_field d("d", s, s, s, m), u("u", Add ? s : 0, Add ? s : 0, Add ? s : 0, m);
  const typename block_field::const_type d_in = d;
  fill_block(a, b, c, d, axis);
  Kokkos::View<int*, mem> info("info", s * s);
  Kokkos::fence();
  const double scalars = double(s * s * s * m);
  const double words = 3.0 * double(m) + 2.0 + (Add ? 1.0 : 0.0);
  run_timed(state, words * sizeof(double) * scalars, scalars, [] {}, [&] {
    if constexpr (Add)
      bandsolve::solve_along_add(exec(), bandsolve::algo::block_thomas{}, axis, a, b, c, d_in, u,
                                 info);
    else
      bandsolve::solve_along(exec(), bandsolve::algo::block_thomas{}, axis, a, b, c, d, info);
  });
  check_info(state, info);
}

}  // namespace axis_lines

void register_axis_benchmarks() {
  namespace al = axis_lines;
  namespace algo = bandsolve::algo;
  const auto reg = [](const std::string& name, void (*fn)(benchmark::State&)) {
    benchmark::RegisterBenchmark(("axis_device/" + name).c_str(), fn)
        ->ArgName("axis")
        ->DenseRange(0, 2)
        ->UseManualTime()
        ->Unit(benchmark::kMicrosecond);
  };
  reg("thomas_full", al::tridiagonal<algo::thomas, false>);
  reg("thomas_shared", al::tridiagonal<algo::thomas, true>);
  reg("thomas_full_add", al::tridiagonal<algo::thomas, false, true>);
  reg("thomas_factored_full", al::tridiagonal_factored<algo::thomas, false>);
  reg("thomas_factored_shared", al::tridiagonal_factored<algo::thomas, true>);
  reg("thomas_factored_full_add", al::tridiagonal_factored<algo::thomas, false, true>);
  reg("periodic_full", al::tridiagonal<algo::periodic, false>);
  reg("periodic_shared", al::tridiagonal<algo::periodic, true>);
  reg("periodic_factored_full", al::tridiagonal_factored<algo::periodic, false>);
  reg("periodic_full_add", al::tridiagonal<algo::periodic, false, true>);
  reg("pivoting_full", al::tridiagonal<algo::partial_pivoting, false>);
  reg("pivoting_full_add", al::tridiagonal<algo::partial_pivoting, false, true>);
  reg("banded_full", al::banded<false, false>);
  reg("banded_shared", al::banded<true, false>);
  reg("banded_factored_full", al::banded<false, true>);
  reg("banded_full_add", al::banded<false, false, true>);
  reg("block_full", al::block<false>);
  reg("block_full_add", al::block<true>);
}

}  // namespace bandsolve_bench_cuda
