// Thomas along each axis of a 256^3 double cube (View<double***>, LayoutRight: z has unit stride)
// with bandsolve::solve_along, and one full ADI step (stencil, solves along x and y, solve along z
// added into u), against LAPACK dgtsv looped over the lines with OpenMP in the same run; periodic
// lines (solve_along(periodic): the same coefficients closed into rings) and partial pivoting
// (solve_along(partial_pivoting), the same lines) against those; the factored solve
// (factorize_along(thomas) once, then f.solve) beside the one-shot one; u += x with d read only
// (solve_along_add, and f.solve_add of the factored lines: Thomas, periodic, partial pivoting,
// symmetric); symmetric and Hermitian lines, one-shot and factored; factorize_along against
// f.refactor of the same coefficients (the factors mapped afresh, or written where they are).
// Floor bytes per unknown:
//   full coefficients (a, b, c of the cube's shape): read a, b, c, d, write x = 5 words;
//   shared per-line coefficients (1-D a, b, c of length n): read d, write x = 2 words;
//   complex_rhs: the same real coefficients with a Kokkos::complex<double> d (the Fourier modes of
//   a real operator), d and x of two words each: 7 words full, 4 shared;
//   periodic, partial pivoting: as Thomas, 5 words full and 2 shared (their extra sweeps stay in
//   cache); factored (factorize_along once, then f.solve): the factors read and d read and
//   written: Thomas 3 + 2 words, periodic 4 + 2, partial pivoting 4 + 2 and a byte (the row
//   interchange), shared 2;
//   symmetric (solve_along(symmetric): diag and offdiag): read diag, offdiag, d, write x = 4 words
//   full, 2 shared; Hermitian lines (complex offdiag and d): 1 + 2 + 2 + 2 = 7 full, 4 shared;
//   u += x (solve_along_add, f.solve_add): read d and u, write u, with a, b, c or the factors:
//   6 words full (factored periodic 7, partial pivoting 7 and a byte; symmetric 5), 3 shared;
//   factorize_along and f.refactor (full coefficients): read a, b, c, write the factors: Thomas
//   3 + 3 = 6 words, periodic 3 + 4 = 7;
//   ADI step: stencil (read u, write r) 2 + x 2 + y 2 + z with u += x (read r, u, write u) 3 = 9,
//   one-shot or with the lines factored once (adi_step_factored).
#include "bench_support.hpp"

#include <bandsolve/bandsolve.hpp>

#include <omp.h>

#include <cmath>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

extern "C" {
void dgtsv_(const int* n, const int* nrhs, double* dl, double* d, double* du, double* b,
            const int* ldb, int* info);
}

namespace bandsolve_bench {
namespace bench_axis {  // each file its own: the test trees check them as one unit
namespace {

using cube = Kokkos::View<double***, Kokkos::LayoutRight, host_exec::memory_space>;
using line = Kokkos::View<double*, host_exec::memory_space>;
constexpr const char* axis_names[] = {"x", "y", "z"};

// Rows sum to 1 (a, c in [-0.75, -0.25], b = 1 - a - c): diagonally dominant, ||A^-1|| <= 1 and
// A 1 = 1, so repeated in-place solves stay in range (no denormals).
template <class Cube>
void fill_coefficients(const Cube& a, const Cube& b, const Cube& c) {
  const std::size_t N = a.extent(0), total = N * N * N;
  Kokkos::parallel_for(
      "fill", Kokkos::RangePolicy<host_exec>(0, total), KOKKOS_LAMBDA(std::size_t k) {
        const std::size_t i = k / (N * N), j = (k / N) % N, l = k % N;
        const double lo = -0.25 - 0.5 * hash01(2 * k), up = -0.25 - 0.5 * hash01(2 * k + 1);
        a(i, j, l) = lo;
        c(i, j, l) = up;
        b(i, j, l) = 1 - lo - up;
      });
  host_exec().fence();
}

// Values in [1, 2) (complex: both parts).
template <class Cube>
void fill_field(const Cube& d) {
  using T = typename Cube::non_const_value_type;
  const std::size_t N = d.extent(0), total = N * N * N;
  Kokkos::parallel_for(
      "fill", Kokkos::RangePolicy<host_exec>(0, total), KOKKOS_LAMBDA(std::size_t k) {
        const double re = 1 + hash01(k + (std::size_t(1) << 40));
        if constexpr (std::is_same_v<T, double>)
          d(k / (N * N), (k / N) % N, k % N) = re;
        else
          d(k / (N * N), (k / N) % N, k % N) = T(re, 1 + hash01(k + (std::size_t(1) << 41)));
      });
  host_exec().fence();
}

void fill_lines(const line& a, const line& b, const line& c, double lambda) {
  Kokkos::parallel_for(
      "fill", Kokkos::RangePolicy<host_exec>(0, a.extent(0)), KOKKOS_LAMBDA(std::size_t i) {
        a(i) = -lambda;
        c(i) = -lambda;
        b(i) = 1 + 2 * lambda;
      });
  host_exec().fence();
}

// solve_along(axis) on an N^3 cube; Shared: 1-D coefficients of length N. The arrays are
// allocated coefficients first, then d, as in the Thomas benchmarks; DFirst allocates d first.
// Where the four 128 MiB cubes land moves this machine's figures by 10-20% for the same code
// (row layout and z axis alike: 0.84-0.91 against 1.04-1.06 ns per unknown in one test), so the
// suite reports z both ways. Padded: the four cubes from make_padded_array (256 x 264 x 264
// storage), so that lines along x do not lie a multiple of 4 KiB apart (layout/padding.hpp).
template <bool Shared, bool DFirst = false, bool Padded = false, bool ComplexRhs = false,
          class Algo = bandsolve::algo::thomas>
void axis_benchmark(benchmark::State& state) {
  const std::size_t N = static_cast<std::size_t>(state.range(0));
  const int axis = static_cast<int>(state.range(1));
  const host_exec exec;
  Kokkos::View<int*, host_exec::memory_space> info("info", N * N);
  iteration_timer t;
  auto run = [&](const auto& a, const auto& b, const auto& c, const auto& d) {
    fill_field(d);
    for (auto _ : state) {
      t.start();
      bandsolve::solve_along(exec, Algo{}, axis, a, b, c, d, info);
      exec.fence();
      t.stop(state);
    }
  };
  using complex_cube =
      Kokkos::View<Kokkos::complex<double>***, Kokkos::LayoutRight, host_exec::memory_space>;
  const auto field = [N] {
    if constexpr (ComplexRhs)
      return complex_cube("d", N, N, N);
    else
      return cube("d", N, N, N);
  };
  if constexpr (Shared) {
    line a("a", N), b("b", N), c("c", N);
    fill_lines(a, b, c, 0.5);
    run(a, b, c, field());
  } else if constexpr (Padded) {
    using padded = Kokkos::View<double***, Kokkos::LayoutStride, host_exec::memory_space>;
    const auto make = [N](const char* label) -> padded {
      return bandsolve::make_padded_array<double***, host_exec::memory_space>(label, N, N, N);
    };
    const padded a = make("a"), b = make("b"), c = make("c");
    fill_coefficients(a, b, c);
    run(a, b, c, make("d"));
  } else if constexpr (DFirst) {
    cube d("d", N, N, N), a("a", N, N, N), b("b", N, N, N), c("c", N, N, N);
    fill_coefficients(a, b, c);
    run(a, b, c, d);
  } else {
    cube a("a", N, N, N), b("b", N, N, N), c("c", N, N, N);
    fill_coefficients(a, b, c);
    run(a, b, c, field());
  }
  if (bandsolve::count_failed(info) != 0) state.SkipWithError("a system failed");
  const double unknowns = double(N) * N * N;
  const double words = (Shared ? 0.0 : 3.0) + (ComplexRhs ? 4.0 : 2.0);
  report(state, t, words * sizeof(double) * unknowns, unknowns);
}

// factorize_along(thomas) once, then its solve on an N^3 cube (the coefficients of
// axis_benchmark): full factors r, l, c' per unknown (read with d, write x: 5 words, as the
// one-shot solve, without its divisions and c' scratch), or one line's (2 words).
// factorize_along(periodic): 4 factors per unknown (r, l, c', z; 6 words with d and x);
// factorize_along(partial_pivoting): 4 factors (r, u1, u2, the multiplier) and the interchange
// byte per unknown.
template <bool Shared, class Algo = bandsolve::algo::thomas>
void factored_axis_benchmark(benchmark::State& state) {
  const std::size_t N = static_cast<std::size_t>(state.range(0));
  const int axis = static_cast<int>(state.range(1));
  const host_exec exec;
  iteration_timer t;
  cube d("d", N, N, N);
  const auto run = [&](const auto& f) {
    fill_field(d);
    for (auto _ : state) {
      t.start();
      f.solve(exec, d);
      exec.fence();
      t.stop(state);
    }
    if (bandsolve::count_failed(f.info()) != 0) state.SkipWithError("a system failed");
  };
  if constexpr (Shared) {
    line a("a", N), b("b", N), c("c", N);
    fill_lines(a, b, c, 0.5);
    run(bandsolve::factorize_along(exec, Algo{}, axis, a, b, c, d));
  } else {
    cube a("a", N, N, N), b("b", N, N, N), c("c", N, N, N);
    fill_coefficients(a, b, c);
    run(bandsolve::factorize_along(exec, Algo{}, axis, a, b, c));
  }
  const double unknowns = double(N) * N * N;
  const double factors = std::is_same_v<Algo, bandsolve::algo::periodic>           ? 4.0
                         : std::is_same_v<Algo, bandsolve::algo::partial_pivoting> ? 4.125
                                                                                    : 3.0;
  report(state, t, (Shared ? 2.0 : factors + 2.0) * sizeof(double) * unknowns, unknowns);
}

// u += x along the axis with d only read (the last sweep of an ADI step): solve_along_add, or
// factorize_along(Algo) once and then f.solve_add. Read a, b, c (or the factors: Thomas 3,
// periodic 4, partial pivoting 4 and a byte; symmetric: diag and offdiag, or 1/pivot and c'), d
// and u, write u: 6 words full (factored: 6, 7, 7.125; symmetric 5), 3 shared (d, u read, u
// written).
template <bool Shared, bool Factored, class Algo = bandsolve::algo::thomas>
void add_axis_benchmark(benchmark::State& state) {
  const std::size_t N = static_cast<std::size_t>(state.range(0));
  const int axis = static_cast<int>(state.range(1));
  const host_exec exec;
  Kokkos::View<int*, host_exec::memory_space> info("info", N * N);
  iteration_timer t;
  const cube d("d", N, N, N), u("u", N, N, N);
  fill_field(d);
  fill_field(u);
  const Kokkos::View<const double***, Kokkos::LayoutRight, host_exec::memory_space> d_in = d;
  const auto time = [&](const auto& call) {
    for (auto _ : state) {
      t.start();
      call();
      exec.fence();
      t.stop(state);
    }
  };
  constexpr bool symmetric = std::is_same_v<Algo, bandsolve::algo::symmetric>;
  const auto run = [&](const auto& a, const auto& b, const auto& c) {
    // Symmetric lines: diag b and offdiag c (b = 1 + |a| + |c| > |c_{i-1}| + |c_i|: SPD).
    const auto factorize = [&] {
      if constexpr (symmetric)
        return bandsolve::factorize_along(exec, Algo{}, axis, b, c, d);
      else
        return bandsolve::factorize_along(exec, Algo{}, axis, a, b, c, d);
    };
    if constexpr (Factored) {
      const auto f = factorize();
      Kokkos::deep_copy(info, f.info());
      time([&] { f.solve_add(exec, d_in, u); });
    } else if constexpr (symmetric) {
      time([&] { bandsolve::solve_along_add(exec, Algo{}, axis, b, c, d_in, u, info); });
    } else {
      time([&] { bandsolve::solve_along_add(exec, Algo{}, axis, a, b, c, d_in, u, info); });
    }
  };
  if constexpr (Shared) {
    line a("a", N), b("b", N), c("c", N);
    fill_lines(a, b, c, 0.5);
    run(a, b, c);
  } else {
    cube a("a", N, N, N), b("b", N, N, N), c("c", N, N, N);
    fill_coefficients(a, b, c);
    run(a, b, c);
  }
  if (bandsolve::count_failed(info) != 0) state.SkipWithError("a system failed");
  const double unknowns = double(N) * N * N;
  const double factors = symmetric                                                  ? 2.0
                         : !Factored                                                ? 3.0
                         : std::is_same_v<Algo, bandsolve::algo::periodic>         ? 4.0
                         : std::is_same_v<Algo, bandsolve::algo::partial_pivoting> ? 4.125
                                                                                    : 3.0;
  report(state, t, (Shared ? 3.0 : factors + 3.0) * sizeof(double) * unknowns, unknowns);
}

// solve_along(symmetric) on an N^3 cube: diag real, offdiag (Hermitian: complex, with a complex
// d) with |offdiag| in [0.25, 0.75] and diag = 1 + |offdiag_{i-1}| + |offdiag_i| along the axis,
// so that ||A^-1|| <= 1 and repeated in-place solves stay in range. Shared: 1-D coefficients.
// Factored: factorize_along(symmetric) once, then its solve (1/pivot and c' per unknown read
// with d: the one-shot solve's words, without its divisions).
template <bool Shared, bool Hermitian, bool Factored = false>
void symmetric_axis_benchmark(benchmark::State& state) {
  const std::size_t N = static_cast<std::size_t>(state.range(0));
  const int axis = static_cast<int>(state.range(1));
  using E = std::conditional_t<Hermitian, Kokkos::complex<double>, double>;
  using D = E;
  constexpr int rank = Shared ? 1 : 3;
  using real_array = std::conditional_t<Shared, line, cube>;
  using off_array = Kokkos::View<std::conditional_t<Shared, E*, E***>, Kokkos::LayoutRight,
                                 host_exec::memory_space>;
  const auto make = [N](const char* label, auto* tag) {
    using V = std::remove_pointer_t<decltype(tag)>;
    if constexpr (rank == 1)
      return V(std::string(label), N);
    else
      return V(std::string(label), N, N, N);
  };
  const real_array b = make("b", static_cast<real_array*>(nullptr));
  const off_array e = make("e", static_cast<off_array*>(nullptr));
  const Kokkos::View<D***, Kokkos::LayoutRight, host_exec::memory_space> d("d", N, N, N);
  const std::size_t count = Shared ? N : N * N * N;
  // The entry at flat index k of e, and its row along the axis (the index that axis has).
  const std::size_t step = Shared ? 1 : (axis == 0 ? N * N : axis == 1 ? N : 1);
  Kokkos::parallel_for(
      "fill e", Kokkos::RangePolicy<host_exec>(0, count), KOKKOS_LAMBDA(std::size_t k) {
        const double m = 0.25 + 0.5 * hash01(2 * k), angle = 6.283185307179586 * hash01(2 * k + 1);
        E v;
        if constexpr (Hermitian)
          v = E(m * std::cos(angle), m * std::sin(angle));
        else
          v = -m;
        e.data()[k] = v;
      });
  host_exec().fence();
  const auto magnitude = [](const E& v) {
    if constexpr (Hermitian)
      return std::hypot(v.real(), v.imag());
    else
      return std::abs(v);
  };
  Kokkos::parallel_for(
      "fill b", Kokkos::RangePolicy<host_exec>(0, count), KOKKOS_LAMBDA(std::size_t k) {
        const std::size_t row = (k / step) % N;
        const double prev = row == 0 ? 0.0 : magnitude(e.data()[k - step]);
        const double next = row + 1 == N ? 0.0 : magnitude(e.data()[k]);
        b.data()[k] = 1 + prev + next;
      });
  host_exec().fence();
  fill_field(d);
  const host_exec exec;
  Kokkos::View<int*, host_exec::memory_space> info("info", N * N);
  iteration_timer t;
  if constexpr (Factored) {
    const auto f = bandsolve::factorize_along(exec, bandsolve::algo::symmetric{}, axis, b, e, d);
    for (auto _ : state) {
      t.start();
      f.solve(exec, d);
      exec.fence();
      t.stop(state);
    }
    Kokkos::deep_copy(info, f.info());
  } else {
    for (auto _ : state) {
      t.start();
      bandsolve::solve_along(exec, bandsolve::algo::symmetric{}, axis, b, e, d, info);
      exec.fence();
      t.stop(state);
    }
  }
  if (bandsolve::count_failed(info) != 0) state.SkipWithError("a system failed");
  const double unknowns = double(N) * N * N;
  const double words = (Shared ? 0.0 : (Hermitian ? 3.0 : 2.0)) + (Hermitian ? 4.0 : 2.0);
  report(state, t, words * sizeof(double) * unknowns, unknowns);
}

// The peer: LAPACK dgtsv on each line along `axis`, lines spread over OpenMP threads. Each thread
// copies the line's a, b, c (dgtsv overwrites them) and d into its own buffers and writes x back:
// what a code without an N-D solver does.
void lapack_axis_benchmark(benchmark::State& state) {
  const std::size_t N = static_cast<std::size_t>(state.range(0));
  const int axis = static_cast<int>(state.range(1));
  cube a("a", N, N, N), b("b", N, N, N), c("c", N, N, N), d("d", N, N, N);
  fill_coefficients(a, b, c);
  fill_field(d);
  const std::size_t stride = d.stride(axis), lines = N * N;
  // Lines numbered by their two batch indices (p, q) with q on the faster batch axis.
  const int outer = axis == 0 ? 1 : 0, inner = axis == 2 ? 1 : 2;
  const std::size_t so = d.stride(outer), si = d.stride(inner);
  const int threads = host_exec::concurrency();
  std::vector<std::vector<double>> work(threads, std::vector<double>(4 * N));
  int failures = 0;
  iteration_timer t;
  for (auto _ : state) {
    t.start();
#pragma omp parallel for schedule(static) num_threads(threads) reduction(+ : failures)
    for (std::size_t s = 0; s < lines; ++s) {
      const std::size_t base = (s / N) * so + (s % N) * si;
      double* w = work[omp_get_thread_num()].data();
      double *dl = w, *dd = w + N, *du = w + 2 * N, *x = w + 3 * N;
      for (std::size_t i = 0; i < N; ++i) {
        const std::size_t o = base + i * stride;
        if (i + 1 < N) {
          dl[i] = a.data()[o + stride];
          du[i] = c.data()[o];
        }
        dd[i] = b.data()[o];
        x[i] = d.data()[o];
      }
      const int n = static_cast<int>(N), one = 1;
      int info = 0;
      dgtsv_(&n, &one, dl, dd, du, x, &n, &info);
      failures += info != 0;
      for (std::size_t i = 0; i < N; ++i) d.data()[base + i * stride] = x[i];
    }
    t.stop(state);
  }
  if (failures) state.SkipWithError("dgtsv reported a singular system");
  const double unknowns = double(N) * N * N;
  report(state, t, 5.0 * sizeof(double) * unknowns, unknowns);
}

// One ADI step of the 3-D heat equation: 7-point stencil into r, in-place solves along x and y,
// solve along z added into u; shared coefficients. Factored: the lines along each axis factored
// once before the steps, then f.solve and f.solve_add (as examples/adi_heat3d.cpp); else
// solve_along and solve_along_add, which factor the shared coefficients per pack.
template <bool Padded = false, bool Factored = false>
void adi_step_benchmark(benchmark::State& state) {
  const std::size_t N = static_cast<std::size_t>(state.range(0));
  const host_exec exec;
  const double mu = 0.01, lambda = 0.5 * mu;  // small steps: u stays O(1) over the iterations
  using field = std::conditional_t<
      Padded, Kokkos::View<double***, Kokkos::LayoutStride, host_exec::memory_space>, cube>;
  const auto make = [N](const char* label) -> field {
    if constexpr (Padded)
      return bandsolve::make_padded_array<double***, host_exec::memory_space>(label, N, N, N);
    else
      return cube(std::string(label), N, N, N);
  };
  const field u = make("u"), r = make("r");
  line a("a", N), b("b", N), c("c", N);
  fill_lines(a, b, c, lambda);
  fill_field(u);
  Kokkos::View<int*, host_exec::memory_space> info_x("info x", N * N), info_y("info y", N * N),
      info_z("info z", N * N);
  using policy = Kokkos::MDRangePolicy<host_exec, Kokkos::Rank<3>>;
  const long n1 = static_cast<long>(N) - 1;
  const bandsolve::algo::thomas thomas;
  const auto fx = bandsolve::factorize_along(exec, thomas, 0, a, b, c, r);
  const auto fy = bandsolve::factorize_along(exec, thomas, 1, a, b, c, r);
  const auto fz = bandsolve::factorize_along(exec, thomas, 2, a, b, c, r);
  Kokkos::deep_copy(info_x, fx.info());
  Kokkos::deep_copy(info_y, fy.info());
  Kokkos::deep_copy(info_z, fz.info());
  iteration_timer t;
  for (auto _ : state) {
    t.start();
    Kokkos::parallel_for(
        "adi stencil", policy(exec, {1, 1, 1}, {n1, n1, n1}),
        KOKKOS_LAMBDA(const long i, const long j, const long k) {
          r(i, j, k) = mu * (u(i - 1, j, k) + u(i + 1, j, k) + u(i, j - 1, k) + u(i, j + 1, k) +
                             u(i, j, k - 1) + u(i, j, k + 1) - 6.0 * u(i, j, k));
        });
    if constexpr (Factored) {
      fx.solve(exec, r);
      fy.solve(exec, r);
      fz.solve_add(exec, r, u);
    } else {
      bandsolve::solve_along(exec, thomas, 0, a, b, c, r, info_x);
      bandsolve::solve_along(exec, thomas, 1, a, b, c, r, info_y);
      bandsolve::solve_along_add(exec, thomas, 2, a, b, c, r, u, info_z);
    }
    exec.fence();
    t.stop(state);
  }
  if (bandsolve::count_failed(info_x) + bandsolve::count_failed(info_y) +
          bandsolve::count_failed(info_z) !=
      0)
    state.SkipWithError("a system failed");
  const double unknowns = double(N) * N * N;
  report(state, t, 9.0 * sizeof(double) * unknowns, unknowns);
}

// factorize_along(Algo) of full coefficients on an N^3 cube, timed alone (Again false: a new
// factorization, its factors allocated and first touched each time), or f.refactor of the same
// coefficients into the storage of one factorization (Again). Read a, b, c, write the factors
// (Thomas 3, periodic 4).
template <bool Again, class Algo = bandsolve::algo::thomas>
void factor_axis_benchmark(benchmark::State& state) {
  const std::size_t N = static_cast<std::size_t>(state.range(0));
  const int axis = static_cast<int>(state.range(1));
  const host_exec exec;
  iteration_timer t;
  cube a("a", N, N, N), b("b", N, N, N), c("c", N, N, N);
  fill_coefficients(a, b, c);
  auto f = bandsolve::factorize_along(exec, Algo{}, axis, a, b, c);
  exec.fence();
  for (auto _ : state) {
    t.start();
    if constexpr (Again) {
      f.refactor(exec, a, b, c);
      exec.fence();
    } else {
      const auto g = bandsolve::factorize_along(exec, Algo{}, axis, a, b, c);
      exec.fence();
      benchmark::DoNotOptimize(g.storage_bytes());
    }
    t.stop(state);
  }
  if (bandsolve::count_failed(f.info()) != 0) state.SkipWithError("a system failed");
  const double unknowns = double(N) * N * N;
  const double factors = std::is_same_v<Algo, bandsolve::algo::periodic> ? 4.0 : 3.0;
  report(state, t, (3.0 + factors) * sizeof(double) * unknowns, unknowns);
}

const bool registered = [] {
  const long N = 256;
  const std::string shape = "/double/" + std::to_string(N) + "^3";
  for (long axis = 0; axis < 3; ++axis) {
    benchmark::RegisterBenchmark(
        ("axis/full/" + std::string(axis_names[axis]) + shape).c_str(), axis_benchmark<false>)
        ->Args({N, axis})
        ->UseManualTime()
        ->Unit(benchmark::kMillisecond);
    benchmark::RegisterBenchmark(
        ("axis/shared/" + std::string(axis_names[axis]) + shape).c_str(), axis_benchmark<true>)
        ->Args({N, axis})
        ->UseManualTime()
        ->Unit(benchmark::kMillisecond);
  }
  for (long axis = 0; axis < 3; ++axis) {
    const std::string at = std::string(axis_names[axis]) + shape;
    const std::pair<const char*, void (*)(benchmark::State&)> factor_kinds[] = {
        {"axis/factorize/", factor_axis_benchmark<false>},
        {"axis/refactor/", factor_axis_benchmark<true>},
        {"axis/factorize_periodic/", factor_axis_benchmark<false, bandsolve::algo::periodic>},
        {"axis/refactor_periodic/", factor_axis_benchmark<true, bandsolve::algo::periodic>}};
    for (const auto& kind : factor_kinds)
      benchmark::RegisterBenchmark((kind.first + at).c_str(), kind.second)
          ->Args({N, axis})
          ->UseManualTime()
          ->Unit(benchmark::kMillisecond);
  }
  for (long axis = 0; axis < 3; ++axis) {
    benchmark::RegisterBenchmark(
        ("axis/factored_full/" + std::string(axis_names[axis]) + shape).c_str(),
        factored_axis_benchmark<false>)
        ->Args({N, axis})
        ->UseManualTime()
        ->Unit(benchmark::kMillisecond);
    benchmark::RegisterBenchmark(
        ("axis/factored_shared/" + std::string(axis_names[axis]) + shape).c_str(),
        factored_axis_benchmark<true>)
        ->Args({N, axis})
        ->UseManualTime()
        ->Unit(benchmark::kMillisecond);
  }
  for (long axis = 0; axis < 3; ++axis) {
    const std::string at = std::string(axis_names[axis]) + shape;
    benchmark::RegisterBenchmark(("axis/add_full/" + at).c_str(), add_axis_benchmark<false, false>)
        ->Args({N, axis})
        ->UseManualTime()
        ->Unit(benchmark::kMillisecond);
    benchmark::RegisterBenchmark(("axis/add_shared/" + at).c_str(), add_axis_benchmark<true, false>)
        ->Args({N, axis})
        ->UseManualTime()
        ->Unit(benchmark::kMillisecond);
    benchmark::RegisterBenchmark(("axis/factored_add_full/" + at).c_str(),
                                 add_axis_benchmark<false, true>)
        ->Args({N, axis})
        ->UseManualTime()
        ->Unit(benchmark::kMillisecond);
    benchmark::RegisterBenchmark(("axis/factored_add_shared/" + at).c_str(),
                                 add_axis_benchmark<true, true>)
        ->Args({N, axis})
        ->UseManualTime()
        ->Unit(benchmark::kMillisecond);
  }
  for (long axis = 0; axis < 3; ++axis) {
    using bandsolve::algo::partial_pivoting, bandsolve::algo::periodic;
    const std::string at = std::string(axis_names[axis]) + shape;
    const auto add = [&](const std::string& name, auto* bench) {
      benchmark::RegisterBenchmark(("axis/" + name + "/" + at).c_str(), bench)
          ->Args({N, axis})
          ->UseManualTime()
          ->Unit(benchmark::kMillisecond);
    };
    add("periodic_add_full", add_axis_benchmark<false, false, periodic>);
    add("periodic_add_shared", add_axis_benchmark<true, false, periodic>);
    add("periodic_factored_add_full", add_axis_benchmark<false, true, periodic>);
    add("periodic_factored_add_shared", add_axis_benchmark<true, true, periodic>);
    add("pivoting_add_full", add_axis_benchmark<false, false, partial_pivoting>);
    add("pivoting_factored_add_full", add_axis_benchmark<false, true, partial_pivoting>);
    using bandsolve::algo::symmetric;
    add("symmetric_add_full", add_axis_benchmark<false, false, symmetric>);
    add("symmetric_add_shared", add_axis_benchmark<true, false, symmetric>);
    add("symmetric_factored_add_full", add_axis_benchmark<false, true, symmetric>);
  }
  for (long axis = 0; axis < 3; ++axis) {
    benchmark::RegisterBenchmark(
        ("axis/full_complex_rhs/" + std::string(axis_names[axis]) + shape).c_str(),
        axis_benchmark<false, false, false, true>)
        ->Args({N, axis})
        ->UseManualTime()
        ->Unit(benchmark::kMillisecond);
    benchmark::RegisterBenchmark(
        ("axis/shared_complex_rhs/" + std::string(axis_names[axis]) + shape).c_str(),
        axis_benchmark<true, false, false, true>)
        ->Args({N, axis})
        ->UseManualTime()
        ->Unit(benchmark::kMillisecond);
  }
  for (long axis = 0; axis < 3; ++axis) {
    benchmark::RegisterBenchmark(
        ("axis/periodic_full/" + std::string(axis_names[axis]) + shape).c_str(),
        axis_benchmark<false, false, false, false, bandsolve::algo::periodic>)
        ->Args({N, axis})
        ->UseManualTime()
        ->Unit(benchmark::kMillisecond);
    benchmark::RegisterBenchmark(
        ("axis/periodic_shared/" + std::string(axis_names[axis]) + shape).c_str(),
        axis_benchmark<true, false, false, false, bandsolve::algo::periodic>)
        ->Args({N, axis})
        ->UseManualTime()
        ->Unit(benchmark::kMillisecond);
    benchmark::RegisterBenchmark(
        ("axis/periodic_factored_full/" + std::string(axis_names[axis]) + shape).c_str(),
        factored_axis_benchmark<false, bandsolve::algo::periodic>)
        ->Args({N, axis})
        ->UseManualTime()
        ->Unit(benchmark::kMillisecond);
    benchmark::RegisterBenchmark(
        ("axis/periodic_factored_shared/" + std::string(axis_names[axis]) + shape).c_str(),
        factored_axis_benchmark<true, bandsolve::algo::periodic>)
        ->Args({N, axis})
        ->UseManualTime()
        ->Unit(benchmark::kMillisecond);
    benchmark::RegisterBenchmark(
        ("axis/pivoting_full/" + std::string(axis_names[axis]) + shape).c_str(),
        axis_benchmark<false, false, false, false, bandsolve::algo::partial_pivoting>)
        ->Args({N, axis})
        ->UseManualTime()
        ->Unit(benchmark::kMillisecond);
    benchmark::RegisterBenchmark(
        ("axis/pivoting_shared/" + std::string(axis_names[axis]) + shape).c_str(),
        axis_benchmark<true, false, false, false, bandsolve::algo::partial_pivoting>)
        ->Args({N, axis})
        ->UseManualTime()
        ->Unit(benchmark::kMillisecond);
    benchmark::RegisterBenchmark(
        ("axis/pivoting_factored_full/" + std::string(axis_names[axis]) + shape).c_str(),
        factored_axis_benchmark<false, bandsolve::algo::partial_pivoting>)
        ->Args({N, axis})
        ->UseManualTime()
        ->Unit(benchmark::kMillisecond);
    benchmark::RegisterBenchmark(
        ("axis/pivoting_factored_shared/" + std::string(axis_names[axis]) + shape).c_str(),
        factored_axis_benchmark<true, bandsolve::algo::partial_pivoting>)
        ->Args({N, axis})
        ->UseManualTime()
        ->Unit(benchmark::kMillisecond);
  }
  for (long axis = 0; axis < 3; ++axis) {
    const std::string at = std::string(axis_names[axis]) + shape;
    benchmark::RegisterBenchmark(("axis/symmetric_full/" + at).c_str(),
                                 symmetric_axis_benchmark<false, false>)
        ->Args({N, axis})
        ->UseManualTime()
        ->Unit(benchmark::kMillisecond);
    benchmark::RegisterBenchmark(("axis/symmetric_shared/" + at).c_str(),
                                 symmetric_axis_benchmark<true, false>)
        ->Args({N, axis})
        ->UseManualTime()
        ->Unit(benchmark::kMillisecond);
    benchmark::RegisterBenchmark(("axis/hermitian_full/" + at).c_str(),
                                 symmetric_axis_benchmark<false, true>)
        ->Args({N, axis})
        ->UseManualTime()
        ->Unit(benchmark::kMillisecond);
    benchmark::RegisterBenchmark(("axis/hermitian_shared/" + at).c_str(),
                                 symmetric_axis_benchmark<true, true>)
        ->Args({N, axis})
        ->UseManualTime()
        ->Unit(benchmark::kMillisecond);
    benchmark::RegisterBenchmark(("axis/symmetric_factored_full/" + at).c_str(),
                                 symmetric_axis_benchmark<false, false, true>)
        ->Args({N, axis})
        ->UseManualTime()
        ->Unit(benchmark::kMillisecond);
    benchmark::RegisterBenchmark(("axis/symmetric_factored_shared/" + at).c_str(),
                                 symmetric_axis_benchmark<true, false, true>)
        ->Args({N, axis})
        ->UseManualTime()
        ->Unit(benchmark::kMillisecond);
    benchmark::RegisterBenchmark(("axis/hermitian_factored_full/" + at).c_str(),
                                 symmetric_axis_benchmark<false, true, true>)
        ->Args({N, axis})
        ->UseManualTime()
        ->Unit(benchmark::kMillisecond);
  }
  for (long axis = 0; axis < 3; ++axis)
    benchmark::RegisterBenchmark(
        ("axis/full_padded/" + std::string(axis_names[axis]) + shape).c_str(),
        axis_benchmark<false, false, true>)
        ->Args({N, axis})
        ->UseManualTime()
        ->Unit(benchmark::kMillisecond);
  benchmark::RegisterBenchmark(("axis/full_d_allocated_first/z" + shape).c_str(),
                               axis_benchmark<false, true>)
      ->Args({N, 2})
      ->UseManualTime()
      ->Unit(benchmark::kMillisecond);
  for (long axis : {0L, 2L})
    benchmark::RegisterBenchmark(
        ("axis/lapack_gtsv/" + std::string(axis_names[axis]) + shape).c_str(),
        lapack_axis_benchmark)
        ->Args({N, axis})
        ->UseManualTime()
        ->Iterations(5)
        ->Unit(benchmark::kMillisecond);
  benchmark::RegisterBenchmark(("axis/adi_step" + shape).c_str(), adi_step_benchmark<false>)
      ->Args({N})
      ->UseManualTime()
      ->Unit(benchmark::kMillisecond);
  benchmark::RegisterBenchmark(("axis/adi_step_padded" + shape).c_str(), adi_step_benchmark<true>)
      ->Args({N})
      ->UseManualTime()
      ->Unit(benchmark::kMillisecond);
  benchmark::RegisterBenchmark(("axis/adi_step_factored" + shape).c_str(),
                               adi_step_benchmark<false, true>)
      ->Args({N})
      ->UseManualTime()
      ->Unit(benchmark::kMillisecond);
  benchmark::RegisterBenchmark(("axis/adi_step_factored_padded" + shape).c_str(),
                               adi_step_benchmark<true, true>)
      ->Args({N})
      ->UseManualTime()
      ->Unit(benchmark::kMillisecond);
  return true;
}();

}  // namespace
}  // namespace bench_axis
}  // namespace bandsolve_bench
