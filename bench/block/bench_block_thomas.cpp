// Batched block-tridiagonal Thomas for block sizes m = 2..8 in every layout against LAPACK dgbsv
// (the same systems as band matrices, kl = ku = 2m - 1) looped over the batch with OpenMP, in the
// same run; complex<double> blocks, and real blocks with complex<double> right-hand sides, against
// zgbsv (on the promoted matrix for the mixed case); partial pivoting inside the blocks
// (one_shot_pivoting: interleaved<8>, interleaved<16> float, and column and row for m = 2, 4, 8;
// factored_solve_pivoting: interleaved<8>) on the same block diagonally dominant batches, where no
// rows change places but the branch-free search and selects run at every step. Sizes: n = 128
// block rows for m <= 6, 96 for m = 7, 8; the batch fills about 256 MiB of double coefficients
// (A, B, C together), far beyond the caches (complex batches: the same number of systems, twice
// the bytes).
// Floor bytes: 3m coefficients and 2 right-hand-side values per scalar unknown (A, B, C or the
// stored A, LU(S), C*; d in, x out), each of its own type's size.
// GFLOPs counts the block Thomas operations of one solve (block_thomas_flops below) for every
// benchmark, LAPACK's included, so the GFLOPs ratio is the speed ratio; complex operations count
// as one each.
#include "bench_support.hpp"

#include <bandsolve/bandsolve.hpp>

#include <omp.h>

#include <complex>
#include <string>
#include <type_traits>
#include <vector>

extern "C" {
void dgbsv_(const int* n, const int* kl, const int* ku, const int* nrhs, double* ab,
            const int* ldab, int* ipiv, double* b, const int* ldb, int* info);
void zgbsv_(const int* n, const int* kl, const int* ku, const int* nrhs, std::complex<double>* ab,
            const int* ldab, int* ipiv, std::complex<double>* b, const int* ldb, int* info);
}

namespace bandsolve_bench {
namespace bench_block_thomas {  // each file its own: the test trees check them as one unit
namespace {

using cdouble = Kokkos::complex<double>;

// Scalar names of the coefficients (C) and right-hand sides (D).
template <class C, class D = C>
std::string block_precision_name() {
  const std::string coef = bandsolve::is_complex_v<C>
                               ? "complex_double"
                               : (sizeof(C) == 8 ? "double" : "float");
  return std::is_same_v<C, D> ? coef : coef + "_coef_complex_rhs";
}

// A value of the benchmark's systems: v, or v (1 + i/2) for complex scalars.
template <class T>
KOKKOS_INLINE_FUNCTION T block_value(double v) {
  if constexpr (bandsolve::is_complex_v<T>) return T(v, 0.5 * v);
  else return T(v);
}

inline void lapack_gbsv(int n, int kl, int ku, double* ab, int ldab, int* ipiv, double* b,
                        int* info) {
  const int one = 1;
  dgbsv_(&n, &kl, &ku, &one, ab, &ldab, ipiv, b, &n, info);
}
inline void lapack_gbsv(int n, int kl, int ku, cdouble* ab, int ldab, int* ipiv, cdouble* b,
                        int* info) {
  const int one = 1;
  zgbsv_(&n, &kl, &ku, &one, reinterpret_cast<std::complex<double>*>(ab), &ldab, ipiv,
         reinterpret_cast<std::complex<double>*>(b), &n, info);
}

template <class Layout>
std::string block_layout_name() {
  if constexpr (std::is_same_v<Layout, bandsolve::layout::row>) return "row";
  else if constexpr (std::is_same_v<Layout, bandsolve::layout::column>) return "column";
  else return "interleaved" + std::to_string(Layout::width);
}

// Operations of block Thomas per block row and system, one right-hand side, no pivoting:
// S -= A C* (2m^3), LU of S (sum_j j + 2 j^2, and m reciprocals), S C* = C (m columns of 2m^2 - m),
// d - A d* (2m^2), S d* = .. (2m^2 - m), back-substitution (2m^2). A factored solve does the
// right-hand-side part only.
double block_thomas_flops(double m, bool factored) {
  double lu = m;
  for (int j = 0; j < static_cast<int>(m); ++j) lu += j + 2.0 * j * j;
  const double rhs = 2 * m * m + (2 * m * m - m) + 2 * m * m;
  return factored ? rhs : 2 * m * m * m + lu + m * (2 * m * m - m) + rhs;
}

// Every scalar row sums to 1: off-diagonal entries -(0.25 + 0.5 h) / (3m), diagonal 1 minus
// their sum. Diagonally dominant with ||A^-1|| <= 1 and A 1 = 1, so solving again on the previous
// solution never drifts into denormals. The same values in every layout (hash of (s, i, r, c)).
// Complex entries are those values times 1 + i/2 (the diagonal still 1 minus the row's sum:
// its modulus exceeds 1 + |sum|/2 > 1.12 |sum|, the off-diagonal moduli's sum).
template <class View, class DView>
void fill_block_system(const View& a, const View& b, const View& c, const DView& d,
                       std::size_t nsys, std::size_t n, std::size_t m) {
  Kokkos::parallel_for(
      "fill", Kokkos::RangePolicy<host_exec>(0, nsys * n), KOKKOS_LAMBDA(std::size_t k) {
        using T = typename View::value_type;
        using D = typename DView::value_type;
        const std::size_t s = k / n, i = k % n;
        for (std::size_t r = 0; r < m; ++r) {
          T sum = T(0);
          for (std::size_t col = 0; col < m; ++col) {
            const std::uint64_t h = 4 * ((k * m + r) * m + col);
            const double scale = 1.0 / (3.0 * m);
            const double va = -(0.25 + 0.5 * hash01(h)) * scale;
            const double vb = col == r ? 0.0 : -(0.25 + 0.5 * hash01(h + 1)) * scale;
            const double vc = -(0.25 + 0.5 * hash01(h + 2)) * scale;
            bandsolve::block_at(a, s, i, r, col) = block_value<T>(va);
            bandsolve::block_at(b, s, i, r, col) = block_value<T>(vb);
            bandsolve::block_at(c, s, i, r, col) = block_value<T>(vc);
            sum += block_value<T>((i > 0 ? va : 0.0) + vb + (i + 1 < n ? vc : 0.0));
          }
          bandsolve::block_at(b, s, i, r, r) = T(1) - sum;
          bandsolve::block_at(d, s, i, r) = block_value<D>(1 + hash01(4 * (k * m + r) + 3));
        }
      });
  host_exec().fence();
}

// Coefficients of type T, right-hand sides of type D (T, or complex over real T).
template <class Layout, class T, class D = T>
struct block_batch {
  using coef_view =
      decltype(bandsolve::make_block_batch<Layout, T, host_exec::memory_space>("", 0, 0, 0));
  using rhs_view =
      decltype(bandsolve::make_block_rhs<Layout, D, host_exec::memory_space>("", 0, 0, 0));
  std::size_t n, nsys, m;
  coef_view a, b, c;
  rhs_view d;
  explicit block_batch(const benchmark::State& state)
      : n(static_cast<std::size_t>(state.range(0))),
        nsys(static_cast<std::size_t>(state.range(1))),
        m(static_cast<std::size_t>(state.range(2))),
        a(make("a")), b(make("b")), c(make("c")),
        d(bandsolve::make_block_rhs<Layout, D, host_exec::memory_space>("d", nsys, n, m)) {
    fill_block_system(a, b, c, d, nsys, n, m);
  }
  coef_view make(const char* label) const {
    return bandsolve::make_block_batch<Layout, T, host_exec::memory_space>(label, nsys, n, m);
  }
};

template <class T, class D = T>
void block_report(benchmark::State& state, const iteration_timer& t, std::size_t n,
                  std::size_t nsys, std::size_t m, bool factored) {
  const double unknowns = double(n) * nsys * m;
  report(state, t, (3.0 * m * sizeof(T) + 2.0 * sizeof(D)) * unknowns, unknowns);
  if (t.best() > 0)
    state.counters["GFLOPs"] = block_thomas_flops(double(m), factored) * n * nsys / t.best() / 1e9;
}

template <class Layout, class T, bool Factored, class D = T, bool Pivoting = false>
void block_thomas_benchmark(benchmark::State& state) {
  const block_batch<Layout, T, D> batch(state);
  const std::size_t n = batch.n, nsys = batch.nsys, m = batch.m;
  const host_exec exec;
  const bandsolve::algo::block_thomas algorithm{
      Pivoting ? bandsolve::algo::block_thomas::pivoting::partial
               : bandsolve::algo::block_thomas::pivoting::none};
  iteration_timer t;
  if constexpr (Factored) {
    const auto f = bandsolve::factorize(exec, algorithm, batch.a, batch.b,
                                        batch.c, nsys);
    exec.fence();
    for (auto _ : state) {
      t.start();
      f.solve(exec, batch.d);
      exec.fence();
      t.stop(state);
    }
    if (bandsolve::count_failed(f.info()) != 0) state.SkipWithError("a system failed");
  } else {
    Kokkos::View<int*, host_exec::memory_space> info("info", nsys);
    for (auto _ : state) {
      t.start();
      bandsolve::solve(exec, algorithm, batch.a, batch.b, batch.c, batch.d, info);
      exec.fence();
      t.stop(state);
    }
    if (bandsolve::count_failed(info) != 0) state.SkipWithError("a system failed");
  }
  block_report<T, D>(state, t, n, nsys, m, Factored);
}

// The peer: LAPACK ?gbsv on each system of a row-layout batch, systems spread over OpenMP
// threads. Each thread writes the system into its own band storage (what a user must do: ?gbsv
// overwrites it), which stays in cache, and solves in place on the system's contiguous d.
// Coefficients C, right-hand sides T: zgbsv on the promoted matrix for real C and complex T.
template <class C, class T>
void lapack_gbsv_benchmark(benchmark::State& state) {
  const block_batch<bandsolve::layout::row, C, T> batch(state);
  const std::size_t n = batch.n, nsys = batch.nsys, m = batch.m;
  const auto &a = batch.a, &b = batch.b, &c = batch.c;
  const auto& d = batch.d;
  const int N = static_cast<int>(n * m), kl = static_cast<int>(2 * m - 1), ku = kl;
  const int ldab = 2 * kl + ku + 1;
  const int threads = host_exec::concurrency();
  std::vector<std::vector<T>> band(threads, std::vector<T>(std::size_t(ldab) * N));
  std::vector<std::vector<int>> pivots(threads, std::vector<int>(N));
  int failures = 0;
  iteration_timer t;
  for (auto _ : state) {
    t.start();
#pragma omp parallel for schedule(static) num_threads(threads) reduction(+ : failures)
    for (std::size_t s = 0; s < nsys; ++s) {
      T* ab = band[omp_get_thread_num()].data();
      // Column J of the band matrix: rows J - ku .. J + kl at ab[kl + ku + I - J + J*ldab].
      for (std::size_t j = 0; j < n; ++j)
        for (std::size_t col = 0; col < m; ++col) {
          const std::size_t J = j * m + col;
          // Rows 0 .. kl-1 of the band storage are dgbtrf's fill-in space: not set.
          for (std::size_t I = J >= std::size_t(ku) ? J - ku : 0; I < std::min<std::size_t>(N, J + kl + 1); ++I) {
            const std::size_t i = I / m, r = I % m;
            T v = 0;
            if (i == j) v = b(s, i, r, col);
            else if (i == j + 1) v = a(s, i, r, col);
            else if (i + 1 == j) v = c(s, i, r, col);
            ab[J * ldab + kl + ku + I - J] = v;
          }
        }
      int info = 0;
      lapack_gbsv(N, kl, ku, ab, ldab, pivots[omp_get_thread_num()].data(), &d(s, 0, 0), &info);
      failures += info != 0;
    }
    t.stop(state);
  }
  if (failures) state.SkipWithError("?gbsv reported a singular system");
  block_report<C, T>(state, t, n, nsys, m, false);
}

// About 256 MiB of double coefficients, a multiple of 64 systems.
long batch_for(long n, long m) {
  const long bytes = 3 * n * m * m * long(sizeof(double));
  return std::max(64L, (256L << 20) / bytes / 64 * 64);
}

template <class Layout, class T, bool Factored, class D = T, bool Pivoting = false>
void register_block(long n, long nsys, long m) {
  const std::string kind = std::string(Factored ? "factored_solve" : "one_shot") +
                           (Pivoting ? "_pivoting/" : "/");
  const std::string name = std::string("block_thomas/") + kind +
                           block_layout_name<Layout>() + "/" + block_precision_name<T, D>() +
                           "/m:" + std::to_string(m) + "/n:" + std::to_string(n) +
                           "/nsys:" + std::to_string(nsys);
  benchmark::RegisterBenchmark(name.c_str(),
                               block_thomas_benchmark<Layout, T, Factored, D, Pivoting>)
      ->Args({n, nsys, m})
      ->UseManualTime()
      ->MinTime(0.2)
      ->Unit(benchmark::kMillisecond);
}

template <class C, class T>
void register_lapack(long n, long nsys, long m) {
  const std::string name = "lapack_gbsv/row/" + block_precision_name<C, T>() + "/m:" +
                           std::to_string(m) + "/n:" + std::to_string(n) +
                           "/nsys:" + std::to_string(nsys);
  benchmark::RegisterBenchmark(name.c_str(), lapack_gbsv_benchmark<C, T>)
      ->Args({n, nsys, m})
      ->UseManualTime()
      ->MinTime(0.2)
      ->Unit(benchmark::kMillisecond);
}

const bool registered = [] {
  namespace bl = bandsolve::layout;
  for (long m = 2; m <= 8; ++m) {
    const long n = m <= 6 ? 128 : 96, nsys = batch_for(n, m);
    register_block<bl::interleaved<8>, double, false>(n, nsys, m);
    register_block<bl::interleaved<8>, double, true>(n, nsys, m);
    register_block<bl::column, double, false>(n, nsys, m);
    register_block<bl::column, double, true>(n, nsys, m);
    register_block<bl::row, double, false>(n, nsys, m);
    register_block<bl::row, double, true>(n, nsys, m);
    register_block<bl::interleaved<16>, float, false>(n, nsys, m);
    // Partial pivoting inside the diagonal blocks, the peer's own strategy (dgbsv pivots).
    register_block<bl::interleaved<8>, double, false, double, true>(n, nsys, m);
    register_block<bl::interleaved<8>, double, true, double, true>(n, nsys, m);
    register_block<bl::interleaved<16>, float, false, float, true>(n, nsys, m);
    register_lapack<double, double>(n, nsys, m);
  }
  for (long m : {2, 4, 8}) {
    const long n = m <= 6 ? 128 : 96, nsys = batch_for(n, m);
    register_block<bl::column, double, false, double, true>(n, nsys, m);
    register_block<bl::row, double, false, double, true>(n, nsys, m);
  }
  // Complex blocks, and real blocks with complex right-hand sides, for m = 2, 4 and 8.
  for (long m : {2, 4, 8}) {
    const long n = m <= 6 ? 128 : 96, nsys = batch_for(n, m);
    register_block<bl::interleaved<4>, cdouble, false>(n, nsys, m);
    register_block<bl::interleaved<4>, cdouble, true>(n, nsys, m);
    register_block<bl::column, cdouble, false>(n, nsys, m);
    register_block<bl::column, cdouble, true>(n, nsys, m);
    register_lapack<cdouble, cdouble>(n, nsys, m);
    register_block<bl::interleaved<8>, double, false, cdouble>(n, nsys, m);
    register_block<bl::interleaved<8>, double, true, cdouble>(n, nsys, m);
    register_lapack<double, cdouble>(n, nsys, m);
  }
  return true;
}();

}  // namespace
}  // namespace bench_block_thomas
}  // namespace bandsolve_bench
