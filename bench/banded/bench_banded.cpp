// Batched banded LU (kl = ku = 2: pentadiagonal, and kl = ku = 4) against LAPACK dgbsv looped
// over the batch with OpenMP, in the same run; complex<double> bands against zgbsv likewise.
// Floor bytes per unknown (words of the scalar's size):
//   one-shot solve:  the band (kl + ku + 1 words) and the right-hand side read, x written;
//   factored solve:  the factors (U with kl + ku superdiagonals and kl multipliers: 2kl + ku + 1
//                    words with pivoting) and a 4-byte pivot index read, the right-hand side read,
//                    x written.
// The fill-in rows of the band storage are not counted: they hold no input.
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
namespace bench_banded {  // each file its own: the test trees check them as one unit
namespace {

using cdouble = Kokkos::complex<double>;

KOKKOS_INLINE_FUNCTION double real_part_of(double x) { return x; }
KOKKOS_INLINE_FUNCTION double real_part_of(const cdouble& x) { return x.real(); }

void lapack_band_solve(int n, int kl, int ku, double* ab, int ldab, int* ipiv, double* b,
                       int* info) {
  const int one = 1;
  dgbsv_(&n, &kl, &ku, &one, ab, &ldab, ipiv, b, &n, info);
}
void lapack_band_solve(int n, int kl, int ku, cdouble* ab, int ldab, int* ipiv, cdouble* b,
                       int* info) {
  const int one = 1;
  zgbsv_(&n, &kl, &ku, &one, reinterpret_cast<std::complex<double>*>(ab), &ldab, ipiv,
         reinterpret_cast<std::complex<double>*>(b), &n, info);
}

template <class Layout>
std::string band_layout_name() {
  if constexpr (std::is_same_v<Layout, bandsolve::layout::row>) return "row";
  else if constexpr (std::is_same_v<Layout, bandsolve::layout::column>) return "column";
  else return "interleaved" + std::to_string(Layout::width);
}

// Every row sums to 1, so A 1 = 1 and solving again on the previous solution (which starts at 1)
// stays near 1. Pivoting matrices: positive entries with a small diagonal (a tenth of the
// others at most), so partial pivoting interchanges rows at most steps. Dominant matrices (for
// the no-pivoting path): off-diagonals in [-0.75/(kl+ku), -0.25/(kl+ku)], diagonal 1 - their sum.
// Complex bands: the same values times 1 + i/2 (rows still sum to 1, the same pivots).
template <class ABView, class BView>
void fill_band(const ABView& ab, const BView& b, std::size_t nsys, std::size_t n, int kl, int ku,
               bool dominant) {
  Kokkos::parallel_for(
      "fill", Kokkos::RangePolicy<host_exec>(0, nsys * n), KOKKOS_LAMBDA(std::size_t k) {
        using T = typename ABView::value_type;
        // v, or v (1 + i/2) for complex bands.
        const auto value = [](double v) {
          if constexpr (bandsolve::is_complex_v<T>) return T(v, 0.5 * v);
          else return T(v);
        };
        const std::size_t s = k / n, i = k % n;
        const std::size_t j0 = i > std::size_t(kl) ? i - kl : 0;
        const std::size_t j1 = i + ku < n ? i + ku : n - 1;
        double sum = 0;
        for (std::size_t j = j0; j <= j1; ++j) {
          const double h = hash01(k * 16 + (j - j0));
          double v;
          if (dominant) v = j == i ? 0.0 : -(0.25 + 0.5 * h) / (kl + ku);
          else v = j == i ? 0.05 * h : 0.5 + 0.5 * h;
          bandsolve::banded::band_at(ab, kl, ku, s, i, j) = value(v);
          sum += v;
        }
        if (dominant) bandsolve::banded::band_at(ab, kl, ku, s, i, i) = value(1.0 - sum);
        else
          for (std::size_t j = j0; j <= j1; ++j)
            bandsolve::banded::band_at(ab, kl, ku, s, i, j) = value(
                real_part_of(bandsolve::banded::band_at(ab, kl, ku, s, i, j)) / sum);
        bandsolve::banded::rhs_at(b, s, i) = T(1.0);
      });
  host_exec().fence();
}

// The benchmark's batch: nsys = range(1) systems of n = range(0) rows, kl = ku = range(2).
template <class Layout, class T = double>
struct band_batch {
  using ab_view = decltype(bandsolve::banded::make_band<Layout, T, host_exec::memory_space>("", 0, 0, 0, 0));
  using b_view = decltype(bandsolve::make_batch<Layout, T, host_exec::memory_space>("", 0, 0));
  std::size_t n, nsys;
  int kl, ku;
  ab_view ab;
  b_view b;
  band_batch(const benchmark::State& state, bool dominant)
      : n(static_cast<std::size_t>(state.range(0))),
        nsys(static_cast<std::size_t>(state.range(1))),
        kl(static_cast<int>(state.range(2))), ku(kl),
        ab(bandsolve::banded::make_band<Layout, T, host_exec::memory_space>("ab", nsys, n, kl, ku)),
        b(bandsolve::make_batch<Layout, T, host_exec::memory_space>("b", nsys, n)) {
    fill_band(ab, b, nsys, n, kl, ku, dominant);
  }
};

template <class T>
double one_shot_bytes(const benchmark::State& state) {
  const double kl = double(state.range(2)), unknowns = double(state.range(0)) * state.range(1);
  return (2 * kl + 1 + 2) * sizeof(T) * unknowns;
}

template <class Layout, bool Pivoting, class T = double>
void banded_one_shot(benchmark::State& state) {
  const band_batch<Layout, T> batch(state, !Pivoting);
  const host_exec exec;
  const bandsolve::algo::banded_lu alg{batch.kl, batch.ku, Pivoting};
  Kokkos::View<int*, host_exec::memory_space> info("info", batch.nsys);
  iteration_timer t;
  for (auto _ : state) {
    t.start();
    bandsolve::solve(exec, alg, batch.ab, batch.b, info);
    exec.fence();
    t.stop(state);
  }
  if (bandsolve::count_failed(info) != 0) state.SkipWithError("a system failed");
  report(state, t, one_shot_bytes<T>(state), double(batch.n) * batch.nsys);
}

template <class Layout, class T = double>
void banded_factored_solve(benchmark::State& state) {
  const band_batch<Layout, T> batch(state, false);
  const host_exec exec;
  const auto f = bandsolve::factorize(exec, bandsolve::algo::banded_lu{batch.kl, batch.ku},
                                      batch.ab, batch.nsys);
  exec.fence();
  iteration_timer t;
  for (auto _ : state) {
    t.start();
    f.solve(exec, batch.b);
    exec.fence();
    t.stop(state);
  }
  if (bandsolve::count_failed(f.info()) != 0) state.SkipWithError("a system failed");
  const double kl = double(state.range(2)), unknowns = double(batch.n) * batch.nsys;
  report(state, t, ((3 * kl + 1 + 2) * sizeof(T) + sizeof(int)) * unknowns, unknowns);
}

// The peer: LAPACK ?gbsv on each system of a row-layout batch (each system's band is a LAPACK AB
// array), systems spread over OpenMP threads. ?gbsv overwrites the band, so each thread copies it
// into its own buffer first (what a user must do to keep the matrix), which stays in L1/L2.
template <class T = double>
void lapack_gbsv_benchmark(benchmark::State& state) {
  const band_batch<bandsolve::layout::row, T> batch(state, false);
  const std::size_t n = batch.n, nsys = batch.nsys;
  const int kl = batch.kl, ku = batch.ku, ldab = static_cast<int>(batch.ab.extent(2));
  const int threads = host_exec::concurrency();
  std::vector<std::vector<T>> work(threads, std::vector<T>(n * ldab));
  std::vector<std::vector<int>> pivots(threads, std::vector<int>(n));
  const auto& ab = batch.ab;
  const auto& b = batch.b;
  int failures = 0;
  iteration_timer t;
  for (auto _ : state) {
    t.start();
#pragma omp parallel for schedule(static) num_threads(threads) reduction(+ : failures)
    for (std::size_t s = 0; s < nsys; ++s) {
      T* w = work[omp_get_thread_num()].data();
      const T* src = &ab(s, 0, 0);
      for (std::size_t k = 0; k < n * ldab; ++k) w[k] = src[k];
      int info = 0;
      lapack_band_solve(static_cast<int>(n), kl, ku, w, ldab, pivots[omp_get_thread_num()].data(),
                        &b(s, 0), &info);
      failures += info != 0;
    }
    t.stop(state);
  }
  if (failures) state.SkipWithError("?gbsv reported a singular system");
  report(state, t, one_shot_bytes<T>(state), double(n) * nsys);
}

void register_all() {
  const long n = 256, nsys = 65536;
  for (long k : {2, 4}) {
    const std::string tail = "/double/kl:" + std::to_string(k) + "/ku:" + std::to_string(k) +
                             "/n:" + std::to_string(n) + "/nsys:" + std::to_string(nsys);
    auto add = [&](const std::string& name, void (*fn)(benchmark::State&)) {
      benchmark::RegisterBenchmark((name + tail).c_str(), fn)
          ->Args({n, nsys, k})
          ->UseManualTime()
          ->Unit(benchmark::kMillisecond);
    };
    using bandsolve::layout::column;
    using bandsolve::layout::interleaved;
    using bandsolve::layout::row;
    add("banded_lu/one_shot/interleaved8", banded_one_shot<interleaved<8>, true>);
    add("banded_lu/one_shot/column", banded_one_shot<column, true>);
    add("banded_lu/one_shot/row", banded_one_shot<row, true>);
    add("banded_lu/one_shot_no_pivoting/interleaved8", banded_one_shot<interleaved<8>, false>);
    add("banded_lu/factored_solve/interleaved8", banded_factored_solve<interleaved<8>>);
    add("lapack_gbsv/row", lapack_gbsv_benchmark<double>);
  }
  // complex<double>: the same bands times 1 + i/2, half the systems (the same bytes).
  for (long k : {2, 4}) {
    const std::string tail = "/complex_double/kl:" + std::to_string(k) + "/ku:" +
                             std::to_string(k) + "/n:" + std::to_string(n) +
                             "/nsys:" + std::to_string(nsys / 2);
    auto add = [&](const std::string& name, void (*fn)(benchmark::State&)) {
      benchmark::RegisterBenchmark((name + tail).c_str(), fn)
          ->Args({n, nsys / 2, k})
          ->UseManualTime()
          ->Unit(benchmark::kMillisecond);
    };
    using bandsolve::layout::column;
    using bandsolve::layout::interleaved;
    add("banded_lu/one_shot/interleaved4", banded_one_shot<interleaved<4>, true, cdouble>);
    add("banded_lu/one_shot/column", banded_one_shot<column, true, cdouble>);
    add("banded_lu/factored_solve/interleaved4", banded_factored_solve<interleaved<4>, cdouble>);
    add("lapack_gbsv/row", lapack_gbsv_benchmark<cdouble>);
  }
}

const bool registered = [] {
  register_all();
  return true;
}();

}  // namespace
}  // namespace bench_banded
}  // namespace bandsolve_bench
