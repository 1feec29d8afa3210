// solve_along(banded_lu): pentadiagonal lines (kl = ku = 2, the compact schemes' systems) along
// x, y and z of a 128^3 double array (LayoutRight, z of unit stride), with and without pivoting,
// a full band array (d's extents then the 7 band rows, LayoutRight) and a band shared by every
// line (n x 7). The peer in the same run: solve(banded_lu) of a column-layout batch of as many
// systems and rows, what the solve costs once the lines have been transposed into a batch.
// Floor bytes per unknown, as in bench_banded.cpp: the band's kl + ku + 1 words and d read, x
// written (full); d read and x written (shared). Factored (factorize_along once, then solves of
// d): the stored LU's 2kl + ku + 1 words (U's kl + ku superdiagonals) and a pivot int with
// pivoting, kl + ku + 1 words without, and d read and x written.
// The "_add" cases: solve_along_add / f.solve_add into u (d only read), one word more (d read, u
// read and written); their ratio to the solve in place is the cost of adding through a copy.
// banded_axis/factorize and banded_axis/refactor: factorize_along of the full band timed alone
// (new factors mapped and first touched each time) against f.refactor of the same band into one
// factorization's storage; floor: the band's kl + ku + 1 words read, the LU's 2kl + ku + 1 words
// and a pivot int written.
#include "bench_support.hpp"

#include <bandsolve/bandsolve.hpp>

#include <string>

namespace bandsolve_bench {
namespace bench_banded_axis {  // each file its own: the test trees check them as one unit
namespace {

constexpr long side = 128;
constexpr int kl = 2, ku = 2, ldab = 2 * kl + ku + 1;

// Entry r of a line's band at column q (LAPACK row kl + ku + p - q of A(p, q)): off-diagonals
// -(0.1 + 0.2 h), the diagonal 1 plus their magnitudes in its column (column dominant: no
// interchanges are needed, and none is made where the rows are dominant too).
KOKKOS_INLINE_FUNCTION double band_value(std::uint64_t key, int r) {
  return r == kl + ku ? 2.2 : -(0.1 + 0.2 * hash01(key * ldab + std::uint64_t(r)));
}

template <bool Shared, bool Factored = false, bool Add = false>
void banded_axis_benchmark(benchmark::State& state) {
  const int axis = static_cast<int>(state.range(0));
  const bool pivoting = state.range(1) != 0;
  using mem = host_exec::memory_space;
  const Kokkos::View<double***, Kokkos::LayoutRight, mem> d("d", side, side, side),
      u("u", Add ? side : 0, side, side);
  const Kokkos::View<const double***, Kokkos::LayoutRight, mem> d_in = d;
  const double rhs_words = Add ? 3.0 : 2.0;
  const Kokkos::View<double****, Kokkos::LayoutRight, mem> ab("ab", Shared ? 0 : side,
                                                             Shared ? 0 : side,
                                                             Shared ? 0 : side, ldab);
  const Kokkos::View<double**, Kokkos::LayoutRight, mem> shared_ab("shared_ab", side, ldab);
  Kokkos::parallel_for(
      "fill", Kokkos::RangePolicy<host_exec>(0, side * side * side), KOKKOS_LAMBDA(long k) {
        const long i = k / (side * side), j = k / side % side, l = k % side;
        d(i, j, l) = 1 + hash01(std::uint64_t(k) * 11);
        if (!Shared)
          for (int r = kl; r < ldab; ++r) ab(i, j, l, r) = band_value(std::uint64_t(k), r);
      });
  Kokkos::parallel_for(
      "fill shared", Kokkos::RangePolicy<host_exec>(0, side), KOKKOS_LAMBDA(long q) {
        for (int r = kl; r < ldab; ++r) shared_ab(q, r) = band_value(std::uint64_t(q), r);
      });
  host_exec().fence();
  const host_exec exec;
  const Kokkos::View<int*, mem> info("info", side * side);
  const bandsolve::algo::banded_lu alg{kl, ku, pivoting};
  iteration_timer t;
  const double unknowns = double(side * side * side);
  if constexpr (Factored) {
    static_assert(!Shared, "the factored benchmark takes a full band");
    const auto f = bandsolve::factorize_along(exec, alg, axis, ab);
    for (auto _ : state) {
      t.start();
      if constexpr (Add) f.solve_add(exec, d_in, u);
      else f.solve(exec, d);
      exec.fence();
      t.stop(state);
    }
    if (bandsolve::count_failed(f.info()) != 0) state.SkipWithError("a line failed");
    const double words = pivoting ? 2.0 * kl + ku + 1.0 + 0.5 : kl + ku + 1.0;
    report(state, t, (words + rhs_words) * sizeof(double) * unknowns, unknowns);
    return;
  }
  for (auto _ : state) {
    t.start();
    if constexpr (Shared)
      bandsolve::solve_along(exec, alg, axis, shared_ab, d, info);
    else if constexpr (Add)
      bandsolve::solve_along_add(exec, alg, axis, ab, d_in, u, info);
    else
      bandsolve::solve_along(exec, alg, axis, ab, d, info);
    exec.fence();
    t.stop(state);
  }
  if (bandsolve::count_failed(info) != 0) state.SkipWithError("a line failed");
  report(state, t, ((Shared ? 0.0 : kl + ku + 1.0) + rhs_words) * sizeof(double) * unknowns,
         unknowns);
}

// factorize_along of the full band (Again false: a new factorization each time) or f.refactor of
// it into one factorization's storage (Again), with pivoting.
template <bool Again>
void banded_factor_benchmark(benchmark::State& state) {
  const int axis = static_cast<int>(state.range(0));
  using mem = host_exec::memory_space;
  const Kokkos::View<double****, Kokkos::LayoutRight, mem> ab("ab", side, side, side, ldab);
  Kokkos::parallel_for(
      "fill", Kokkos::RangePolicy<host_exec>(0, side * side * side), KOKKOS_LAMBDA(long k) {
        const long i = k / (side * side), j = k / side % side, l = k % side;
        for (int r = kl; r < ldab; ++r) ab(i, j, l, r) = band_value(std::uint64_t(k), r);
      });
  const host_exec exec;
  const bandsolve::algo::banded_lu alg{kl, ku, true};
  auto f = bandsolve::factorize_along(exec, alg, axis, ab);
  exec.fence();
  iteration_timer t;
  for (auto _ : state) {
    t.start();
    if constexpr (Again) {
      f.refactor(exec, ab);
      exec.fence();
    } else {
      const auto g = bandsolve::factorize_along(exec, alg, axis, ab);
      exec.fence();
      benchmark::DoNotOptimize(g.storage_bytes());
    }
    t.stop(state);
  }
  if (bandsolve::count_failed(f.info()) != 0) state.SkipWithError("a line failed");
  const double unknowns = double(side * side * side);
  report(state, t, (kl + ku + 1.0 + ldab + 0.5) * sizeof(double) * unknowns, unknowns);
}

// The peer: a column-layout batch of side^2 systems of side rows.
void banded_batch_peer(benchmark::State& state) {
  using column = bandsolve::layout::column;
  using mem = host_exec::memory_space;
  const bool pivoting = state.range(1) != 0;
  const std::size_t n = side, nsys = side * side;
  const auto ab = bandsolve::banded::make_band<column, double, mem>("ab", nsys, n, kl, ku);
  const auto d = bandsolve::make_batch<column, double, mem>("d", nsys, n);
  Kokkos::parallel_for(
      "fill", Kokkos::RangePolicy<host_exec>(0, nsys * n), KOKKOS_LAMBDA(std::size_t k) {
        const std::size_t s = k / n, q = k % n;
        bandsolve::at(d, s, q) = 1 + hash01(std::uint64_t(k) * 11);
        for (int r = kl; r < ldab; ++r) ab(s, q, r) = band_value(std::uint64_t(k), r);
      });
  host_exec().fence();
  const host_exec exec;
  const Kokkos::View<int*, mem> info("info", nsys);
  const bandsolve::algo::banded_lu alg{kl, ku, pivoting};
  iteration_timer t;
  for (auto _ : state) {
    t.start();
    bandsolve::solve(exec, alg, ab, d, info);
    exec.fence();
    t.stop(state);
  }
  if (bandsolve::count_failed(info) != 0) state.SkipWithError("a system failed");
  const double unknowns = double(n * nsys);
  report(state, t, (kl + ku + 1.0 + 2.0) * sizeof(double) * unknowns, unknowns);
}

void register_case(const std::string& name, void (*fn)(benchmark::State&), long axis,
                   long pivoting) {
  benchmark::RegisterBenchmark(name.c_str(), fn)
      ->Args({axis, pivoting})
      ->UseManualTime()
      ->MinTime(0.2)
      ->Unit(benchmark::kMillisecond);
}

const bool registered = [] {
  const char* axes[3] = {"x", "y", "z"};
  for (long pivoting : {1, 0}) {
    const std::string p = pivoting ? "pivoting" : "no_pivoting";
    register_case("banded_axis/peer_column_batch/" + p + "/double/kl:2/ku:2", banded_batch_peer,
                  0, pivoting);
    for (long axis = 0; axis < 3; ++axis) {
      register_case("banded_axis/full/" + p + "/double/kl:2/ku:2/" + axes[axis],
                    banded_axis_benchmark<false>, axis, pivoting);
      register_case("banded_axis/factored/" + p + "/double/kl:2/ku:2/" + axes[axis],
                    banded_axis_benchmark<false, true>, axis, pivoting);
      if (pivoting) {
        register_case("banded_axis/full_add/" + p + "/double/kl:2/ku:2/" + axes[axis],
                      banded_axis_benchmark<false, false, true>, axis, pivoting);
        register_case("banded_axis/factored_add/" + p + "/double/kl:2/ku:2/" + axes[axis],
                      banded_axis_benchmark<false, true, true>, axis, pivoting);
      }
    }
  }
  for (long axis = 0; axis < 3; ++axis)
    register_case(std::string("banded_axis/shared/pivoting/double/kl:2/ku:2/") + axes[axis],
                  banded_axis_benchmark<true>, axis, 1);
  for (long axis = 0; axis < 3; ++axis) {
    register_case(std::string("banded_axis/factorize/pivoting/double/kl:2/ku:2/") + axes[axis],
                  banded_factor_benchmark<false>, axis, 1);
    register_case(std::string("banded_axis/refactor/pivoting/double/kl:2/ku:2/") + axes[axis],
                  banded_factor_benchmark<true>, axis, 1);
  }
  return true;
}();

}  // namespace
}  // namespace bench_banded_axis
}  // namespace bandsolve_bench
