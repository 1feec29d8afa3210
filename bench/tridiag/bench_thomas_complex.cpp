// Batched Thomas on complex data against LAPACK zgtsv looped over the batch with OpenMP, in the
// same run: Kokkos::complex<double> systems, and real double coefficients with complex<double>
// right-hand sides (a real operator's Fourier modes); few long complex systems by Thomas, the
// Thomas-PCR hybrid and automatic, one-shot and factored (also real ones with complex right-hand
// sides, factored). Floor bytes: a, b, c read, d read, x written: 5 x 16 bytes per unknown for
// complex systems, 3 x 8 + 2 x 16 for real coefficients; factored, d read and x written.
#include "bench_support.hpp"

#include <bandsolve/bandsolve.hpp>

#include <omp.h>

#include <cmath>
#include <complex>
#include <string>
#include <vector>

extern "C" {
// As bench_pivoting.cpp declares it (std::complex, whose layout Kokkos::complex shares).
void zgtsv_(const int* n, const int* nrhs, std::complex<double>* dl, std::complex<double>* d,
            std::complex<double>* du, std::complex<double>* b, const int* ldb, int* info);
}

namespace bandsolve_bench {
namespace bench_thomas_complex {  // each file its own: the test trees check them as one unit
namespace {

using zcomplex = Kokkos::complex<double>;

template <class Layout>
std::string complex_layout_name() {
  if constexpr (std::is_same_v<Layout, bandsolve::layout::row>) return "row";
  else if constexpr (std::is_same_v<Layout, bandsolve::layout::column>) return "column";
  else return "interleaved" + std::to_string(Layout::width);
}

// Rows sum to 1 as in the real benchmark (so repeated solves on the previous solution stay
// normal numbers): a and c of modulus in [0.25, 0.75] turned by up to 0.3 rad, b = 1 - a - c,
// which is diagonally dominant by more than 0.9. Real coefficients (C = double) drop the turn.
template <class CView, class DView>
void fill_complex_system(const CView& a, const CView& b, const CView& c, const DView& d,
                         std::size_t nsys, std::size_t n) {
  Kokkos::parallel_for(
      "fill", Kokkos::RangePolicy<host_exec>(0, nsys * n), KOKKOS_LAMBDA(std::size_t k) {
        using C = typename CView::value_type;
        const std::size_t s = k / n, i = k % n;
        const double lo = -0.25 - 0.5 * hash01(5 * k), up = -0.25 - 0.5 * hash01(5 * k + 1);
        C ca, cc;
        if constexpr (bandsolve::is_complex_v<C>) {
          const double ta = 0.6 * hash01(5 * k + 2) - 0.3, tc = 0.6 * hash01(5 * k + 3) - 0.3;
          ca = C(lo * std::cos(ta), lo * std::sin(ta));
          cc = C(up * std::cos(tc), up * std::sin(tc));
        } else {
          ca = lo;
          cc = up;
        }
        bandsolve::at(a, s, i) = ca;
        bandsolve::at(c, s, i) = cc;
        bandsolve::at(b, s, i) = C(1) - ca - cc;
        bandsolve::at(d, s, i) = zcomplex(1 + hash01(5 * k + 4), hash01(5 * k + 2));
      });
  host_exec().fence();
}

// Coefficients of type C (double or complex<double>), right-hand sides complex<double>.
template <class Layout, class C>
struct complex_batch {
  std::size_t n, nsys;
  decltype(bandsolve::make_batch<Layout, C, host_exec::memory_space>("", 0, 0)) a, b, c;
  decltype(bandsolve::make_batch<Layout, zcomplex, host_exec::memory_space>("", 0, 0)) d;
  explicit complex_batch(const benchmark::State& state)
      : n(static_cast<std::size_t>(state.range(0))),
        nsys(static_cast<std::size_t>(state.range(1))) {
    a = bandsolve::make_batch<Layout, C, host_exec::memory_space>("a", nsys, n);
    b = bandsolve::make_batch<Layout, C, host_exec::memory_space>("b", nsys, n);
    c = bandsolve::make_batch<Layout, C, host_exec::memory_space>("c", nsys, n);
    d = bandsolve::make_batch<Layout, zcomplex, host_exec::memory_space>("d", nsys, n);
    fill_complex_system(a, b, c, d, nsys, n);
  }
};

template <class Layout, class C, class Algo = bandsolve::algo::thomas>
void complex_thomas_benchmark(benchmark::State& state) {
  const complex_batch<Layout, C> batch(state);
  const host_exec exec;
  Kokkos::View<int*, host_exec::memory_space> info("info", batch.nsys);
  iteration_timer t;
  for (auto _ : state) {
    t.start();
    bandsolve::solve(exec, Algo{}, batch.a, batch.b, batch.c, batch.d, info);
    exec.fence();
    t.stop(state);
  }
  if (bandsolve::count_failed(info) != 0) state.SkipWithError("a system failed");
  const double unknowns = double(batch.n) * batch.nsys;
  report(state, t, (3.0 * sizeof(C) + 2.0 * sizeof(zcomplex)) * unknowns, unknowns);
}

// The peer: zgtsv per system of a row-layout complex batch, the matrix copied into per-thread
// buffers first (zgtsv overwrites it), as in the real benchmark.
void lapack_zgtsv_benchmark(benchmark::State& state) {
  const complex_batch<bandsolve::layout::row, zcomplex> batch(state);
  const std::size_t n = batch.n, nsys = batch.nsys;
  const auto &a = batch.a, &b = batch.b, &c = batch.c, &d = batch.d;
  const int threads = host_exec::concurrency();
  std::vector<std::vector<zcomplex>> work(threads, std::vector<zcomplex>(3 * n));
  int failures = 0;
  iteration_timer t;
  for (auto _ : state) {
    t.start();
#pragma omp parallel for schedule(static) num_threads(threads) reduction(+ : failures)
    for (std::size_t s = 0; s < nsys; ++s) {
      zcomplex* w = work[omp_get_thread_num()].data();
      zcomplex *dl = w, *dd = w + n, *du = w + 2 * n;
      for (std::size_t i = 0; i + 1 < n; ++i) {
        dl[i] = a(s, i + 1);
        du[i] = c(s, i);
      }
      for (std::size_t i = 0; i < n; ++i) dd[i] = b(s, i);
      const int nn = static_cast<int>(n), one = 1;
      int info = 0;
      const auto z = [](zcomplex* v) { return reinterpret_cast<std::complex<double>*>(v); };
      zgtsv_(&nn, &one, z(dl), z(dd), z(du), z(&d(s, 0)), &nn, &info);
      failures += info != 0;
    }
    t.stop(state);
  }
  if (failures) state.SkipWithError("zgtsv reported a singular system");
  report(state, t, 5.0 * sizeof(zcomplex) * n * nsys, double(n) * nsys);
}

// The factored solve of Algo (thomas, thomas_pcr or automatic) on complex systems, or on real
// ones (C = double) with complex right-hand sides: factors made once.
template <class Layout, class Algo, class C = zcomplex>
void complex_factored_benchmark(benchmark::State& state) {
  const complex_batch<Layout, C> batch(state);
  const host_exec exec;
  const auto f = bandsolve::factorize(exec, Algo{}, batch.a, batch.b, batch.c, batch.nsys);
  exec.fence();
  iteration_timer t;
  for (auto _ : state) {
    t.start();
    f.solve(exec, batch.d);
    exec.fence();
    t.stop(state);
  }
  if (bandsolve::count_failed(f.info()) != 0) state.SkipWithError("a system failed");
  const double unknowns = double(batch.n) * batch.nsys;
  report(state, t, 2.0 * sizeof(zcomplex) * unknowns, unknowns);  // floor: d read, x written
}

template <class Layout, class C, class Algo = bandsolve::algo::thomas>
void register_complex(const char* kind, long n, long nsys) {
  const std::string name = std::string(Algo::name) + "/one_shot/" +
                           complex_layout_name<Layout>() + "/" + kind + "/n:" +
                           std::to_string(n) + "/nsys:" + std::to_string(nsys);
  benchmark::RegisterBenchmark(name.c_str(), complex_thomas_benchmark<Layout, C, Algo>)
      ->Args({n, nsys})
      ->UseManualTime()
      ->Unit(benchmark::kMillisecond);
}

template <class Layout, class Algo, class C = zcomplex>
void register_complex_factored(long n, long nsys) {
  const std::string name = std::string(Algo::name) + "/factored/" + complex_layout_name<Layout>() +
                           (bandsolve::is_complex_v<C> ? "/complex_double"
                                                       : "/double_coef_complex_rhs") +
                           "/n:" + std::to_string(n) + "/nsys:" + std::to_string(nsys);
  benchmark::RegisterBenchmark(name.c_str(), complex_factored_benchmark<Layout, Algo, C>)
      ->Args({n, nsys})
      ->UseManualTime()
      ->Unit(benchmark::kMillisecond);
}

void register_zgtsv(long n, long nsys) {
  benchmark::RegisterBenchmark(("lapack_zgtsv/row/complex_double/n:" + std::to_string(n) +
                                "/nsys:" + std::to_string(nsys))
                                   .c_str(),
                               lapack_zgtsv_benchmark)
      ->Args({n, nsys})
      ->UseManualTime()
      ->Unit(benchmark::kMillisecond);
}

// Few long complex systems (2^21 unknowns as nsys systems of n rows): Thomas leaves threads and
// lanes idle, the hybrid splits each system into chunks; automatic's pick beside them.
void register_few_long(long n, long nsys) {
  namespace algo = bandsolve::algo;
  using bandsolve::layout::column;
  using bandsolve::layout::row;
  register_complex<row, zcomplex, algo::thomas>("complex_double", n, nsys);
  register_complex<row, zcomplex, algo::thomas_pcr>("complex_double", n, nsys);
  register_complex<row, zcomplex, algo::automatic>("complex_double", n, nsys);
  register_complex<column, zcomplex, algo::thomas>("complex_double", n, nsys);
  register_complex<column, zcomplex, algo::thomas_pcr>("complex_double", n, nsys);
  register_complex<column, zcomplex, algo::automatic>("complex_double", n, nsys);
  register_complex_factored<row, algo::thomas>(n, nsys);
  register_complex_factored<row, algo::thomas_pcr>(n, nsys);
  register_complex_factored<column, algo::thomas>(n, nsys);
  register_complex_factored<column, algo::thomas_pcr>(n, nsys);
  register_zgtsv(n, nsys);
}

// Few long real systems with complex right-hand sides, factored: Thomas's factors against the
// partition method's (which solves the real and imaginary parts in turn) and automatic's pick.
void register_few_long_complex_rhs(long n, long nsys) {
  namespace algo = bandsolve::algo;
  using bandsolve::layout::column;
  using bandsolve::layout::row;
  register_complex_factored<row, algo::thomas, double>(n, nsys);
  register_complex_factored<row, algo::thomas_pcr, double>(n, nsys);
  register_complex_factored<row, algo::automatic, double>(n, nsys);
  register_complex_factored<column, algo::thomas, double>(n, nsys);
  register_complex_factored<column, algo::thomas_pcr, double>(n, nsys);
  register_complex_factored<column, algo::automatic, double>(n, nsys);
}

// The factored crossover between the hybrid and Thomas (2^21 unknowns as 16 to 128 systems).
void register_factored_crossover(long n, long nsys) {
  namespace algo = bandsolve::algo;
  using bandsolve::layout::column;
  using bandsolve::layout::row;
  register_complex_factored<row, algo::thomas>(n, nsys);
  register_complex_factored<row, algo::thomas_pcr>(n, nsys);
  register_complex_factored<column, algo::thomas>(n, nsys);
  register_complex_factored<column, algo::thomas_pcr>(n, nsys);
}

// The one-shot crossover between the hybrid and Thomas in row layout (2^21 unknowns as 4 to 4096
// systems; 1, 8 and 32 are in register_few_long).
void register_one_shot_crossover(long n, long nsys) {
  namespace algo = bandsolve::algo;
  using bandsolve::layout::row;
  register_complex<row, zcomplex, algo::thomas>("complex_double", n, nsys);
  register_complex<row, zcomplex, algo::thomas_pcr>("complex_double", n, nsys);
}

// The crossovers in layouts whose systems lie side by side (the hybrid's partition path): one-shot
// in column and interleaved<8>, factored in interleaved<8> (column's in the factored crossover).
void register_side_by_side_crossover(long n, long nsys) {
  namespace algo = bandsolve::algo;
  using bandsolve::layout::column;
  using bandsolve::layout::interleaved;
  register_complex<column, zcomplex, algo::thomas>("complex_double", n, nsys);
  register_complex<column, zcomplex, algo::thomas_pcr>("complex_double", n, nsys);
  register_complex<interleaved<8>, zcomplex, algo::thomas>("complex_double", n, nsys);
  register_complex<interleaved<8>, zcomplex, algo::thomas_pcr>("complex_double", n, nsys);
  register_complex_factored<interleaved<8>, algo::thomas>(n, nsys);
  register_complex_factored<interleaved<8>, algo::thomas_pcr>(n, nsys);
}

const bool registered = [] {
  const long n = 256, nsys = 32768;
  register_complex<bandsolve::layout::row, zcomplex>("complex_double", n, nsys);
  register_complex<bandsolve::layout::column, zcomplex>("complex_double", n, nsys);
  register_complex<bandsolve::layout::interleaved<8>, zcomplex>("complex_double", n, nsys);
  register_complex<bandsolve::layout::column, double>("double_coef_complex_rhs", n, nsys);
  register_complex<bandsolve::layout::interleaved<8>, double>("double_coef_complex_rhs", n, nsys);
  register_zgtsv(n, nsys);
  for (const long rows : {1L << 21, 1L << 18, 1L << 16}) register_few_long(rows, (1L << 21) / rows);
  for (const long rows : {1L << 21, 1L << 19, 1L << 17})
    register_few_long_complex_rhs(rows, (1L << 21) / rows);
  for (const long rows : {1L << 20, 1L << 19, 1L << 17, 1L << 15, 1L << 14, 1L << 12})
    register_factored_crossover(rows, (1L << 21) / rows);
  for (const long rows :
       {1L << 19, 1L << 17, 1L << 15, 1L << 13, 1L << 12, 1L << 11, 1L << 10, 1L << 9})
    register_one_shot_crossover(rows, (1L << 21) / rows);
  for (const long rows : {1L << 20, 1L << 19, 1L << 17, 1L << 15, 1L << 14, 1L << 12})
    register_side_by_side_crossover(rows, (1L << 21) / rows);
  return true;
}();

}  // namespace
}  // namespace bench_thomas_complex
}  // namespace bandsolve_bench
