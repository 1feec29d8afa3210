// Tridiagonal partial pivoting (double, float, complex<double>, and real double coefficients
// with complex<double> right-hand sides) against LAPACK ?gtsv looped over the batch with OpenMP
// (zgtsv on the promoted matrix for the mixed case), and the periodic solver against Thomas, in
// the same run. Floor bytes per unknown, with coefficient words of the coefficient type and d, x
// of the right-hand side type: one-shot solves read a, b, c, d and write x (3 + 2 words); the
// factored pivoting solve reads 1/U(i,i), U(i,i+1), U(i,i+2), the multiplier, one flag byte and
// d and writes x (4 + 2 words + 1 byte); the factored periodic solve reads 1/pivot, a/pivot,
// c/pivot, z and d and writes x (4 + 2 words).
#include "bench_support.hpp"

#include <bandsolve/bandsolve.hpp>

#include <omp.h>

#include <complex>
#include <string>
#include <vector>

extern "C" {
void dgtsv_(const int* n, const int* nrhs, double* dl, double* d, double* du, double* b,
            const int* ldb, int* info);
void zgtsv_(const int* n, const int* nrhs, std::complex<double>* dl, std::complex<double>* d,
            std::complex<double>* du, std::complex<double>* b, const int* ldb, int* info);
}

namespace bandsolve_bench {
namespace bench_pivoting {  // each file its own: the test trees check them as one unit
namespace {

using cdouble = Kokkos::complex<double>;

template <class C, class D>
std::string type_label() {
  if constexpr (!std::is_same_v<C, D>) return "double_coef_complex_rhs";
  else if constexpr (std::is_same_v<C, float>) return "float";
  else return std::is_same_v<C, double> ? "double" : "complex_double";
}

template <class Layout>
std::string layout_label() {
  if constexpr (std::is_same_v<Layout, bandsolve::layout::row>) return "row";
  else if constexpr (std::is_same_v<Layout, bandsolve::layout::column>) return "column";
  else return "interleaved" + std::to_string(Layout::width);
}

template <class T>
KOKKOS_INLINE_FUNCTION T value_from(double re, double im) {
  if constexpr (std::is_floating_point_v<T>) {
    (void)im;
    return static_cast<T>(re);
  } else {
    return T(re, im);
  }
}

// Not diagonally dominant: |a|, |c| in [0.5, 1.5], b = 1 - a - c in magnitude below |a| + |c|,
// so partial pivoting interchanges rows at about a third of the steps. `dominant` makes the rows
// diagonally dominant instead (b = 3 + |a| + |c|), for the periodic solver and its Thomas peer
// (the corners a[0], c[n-1] are filled; Thomas ignores them).
template <class CView, class DView>
void fill_batch(const CView& a, const CView& b, const CView& c, const DView& d, std::size_t nsys,
                std::size_t n, bool dominant) {
  using T = typename CView::value_type;
  using D = typename DView::value_type;
  Kokkos::parallel_for(
      "fill", Kokkos::RangePolicy<host_exec>(0, nsys * n), KOKKOS_LAMBDA(std::size_t k) {
        const std::size_t s = k / n, i = k % n;
        const double lo = 0.5 + hash01(5 * k), up = 0.5 + hash01(5 * k + 1);
        const double im = hash01(5 * k + 2) - 0.5;
        const double diag = dominant ? 3 + lo + up : 1 - lo - up;
        bandsolve::at(a, s, i) = value_from<T>(-lo, im);
        bandsolve::at(c, s, i) = value_from<T>(up, -im);
        bandsolve::at(b, s, i) = value_from<T>(diag, 0.5 * im);
        bandsolve::at(d, s, i) = value_from<D>(1 + hash01(5 * k + 3), hash01(5 * k + 4));
      });
  host_exec().fence();
}

// Coefficients of type C, right-hand sides of type D (C, or complex<double> over double).
template <class Layout, class C, class D = C>
struct batch {
  template <class T>
  using view = decltype(bandsolve::make_batch<Layout, T, host_exec::memory_space>("", 0, 0));
  std::size_t n, nsys;
  view<C> a, b, c;
  view<D> d, d0;
  batch(const benchmark::State& state, bool dominant)
      : n(static_cast<std::size_t>(state.range(0))),
        nsys(static_cast<std::size_t>(state.range(1))),
        a(make<C>("a")), b(make<C>("b")), c(make<C>("c")), d(make<D>("d")), d0(make<D>("d0")) {
    fill_batch(a, b, c, d0, nsys, n, dominant);
  }
  template <class T>
  view<T> make(const char* label) const {
    return bandsolve::make_batch<Layout, T, host_exec::memory_space>(label, nsys, n);
  }
  // Every iteration solves the same right-hand side (restored outside the timed region), so
  // repeated solves with a non-dominant matrix cannot drift.
  void restore(const host_exec& exec) const {
    Kokkos::deep_copy(exec, d, d0);
    exec.fence();
  }
};

enum class mode { one_shot, factored };

template <class Algo, class Layout, class C, class D, mode M>
void solver_benchmark(benchmark::State& state) {
  constexpr bool periodic = std::is_same_v<Algo, bandsolve::algo::periodic>;
  const batch<Layout, C, D> bt(state, !std::is_same_v<Algo, bandsolve::algo::partial_pivoting>);
  const std::size_t n = bt.n, nsys = bt.nsys;
  const host_exec exec;
  iteration_timer t;
  double bytes = 3.0 * sizeof(C) + 2.0 * sizeof(D);  // per unknown
  if constexpr (M == mode::factored) {
    const auto f = bandsolve::factorize(exec, Algo{}, bt.a, bt.b, bt.c, nsys);
    exec.fence();
    for (auto _ : state) {
      bt.restore(exec);
      t.start();
      f.solve(exec, bt.d);
      exec.fence();
      t.stop(state);
    }
    if (bandsolve::count_failed(f.info()) != 0) state.SkipWithError("a system failed");
    bytes = 4.0 * sizeof(C) + 2.0 * sizeof(D) + (periodic ? 0 : 1);
  } else {
    Kokkos::View<int*, host_exec::memory_space> info("info", nsys);
    for (auto _ : state) {
      bt.restore(exec);
      t.start();
      bandsolve::solve(exec, Algo{}, bt.a, bt.b, bt.c, bt.d, info);
      exec.fence();
      t.stop(state);
    }
    if (bandsolve::count_failed(info) != 0) state.SkipWithError("a system failed");
  }
  report(state, t, bytes * n * nsys, double(n) * nsys);
}

template <class T>
void gtsv(int n, T* dl, T* dd, T* du, T* rhs, int* info) {
  const int one = 1;
  if constexpr (std::is_same_v<T, double>)
    dgtsv_(&n, &one, dl, dd, du, rhs, &n, info);
  else
    zgtsv_(&n, &one, reinterpret_cast<std::complex<double>*>(dl),
           reinterpret_cast<std::complex<double>*>(dd), reinterpret_cast<std::complex<double>*>(du),
           reinterpret_cast<std::complex<double>*>(rhs), &n, info);
}

// The peer: LAPACK ?gtsv on each system of a row-layout batch, systems spread over OpenMP
// threads; ?gtsv overwrites the matrix, so each thread copies it into its own buffers first (of
// the right-hand side type T: real coefficients are promoted for zgtsv). C: coefficient type.
template <class T, class C = T>
void lapack_benchmark(benchmark::State& state) {
  const batch<bandsolve::layout::row, C, T> bt(state, false);
  const std::size_t n = bt.n, nsys = bt.nsys;
  const auto &a = bt.a, &b = bt.b, &c = bt.c;
  const auto& d = bt.d;  // of T, the coefficients of C: one declaration each for Clang
  const int threads = host_exec::concurrency();
  std::vector<std::vector<T>> work(threads, std::vector<T>(3 * n));
  int failures = 0;
  iteration_timer t;
  const host_exec exec;
  for (auto _ : state) {
    bt.restore(exec);
    t.start();
#pragma omp parallel for schedule(static) num_threads(threads) reduction(+ : failures)
    for (std::size_t s = 0; s < nsys; ++s) {
      T* w = work[omp_get_thread_num()].data();
      T *dl = w, *dd = w + n, *du = w + 2 * n;
      for (std::size_t i = 0; i + 1 < n; ++i) {
        dl[i] = T(a(s, i + 1));
        du[i] = T(c(s, i));
      }
      for (std::size_t i = 0; i < n; ++i) dd[i] = T(b(s, i));
      int info = 0;
      gtsv<T>(static_cast<int>(n), dl, dd, du, &d(s, 0), &info);
      failures += info != 0;
    }
    t.stop(state);
  }
  if (failures) state.SkipWithError("gtsv reported a singular system");
  report(state, t, (3.0 * sizeof(C) + 2.0 * sizeof(T)) * n * nsys, double(n) * nsys);
}

template <class Fn>
void add(const std::string& name, Fn fn, long n, long nsys) {
  const std::string full = name + "/n:" + std::to_string(n) + "/nsys:" + std::to_string(nsys);
  benchmark::RegisterBenchmark(full.c_str(), fn)
      ->Args({n, nsys})
      ->UseManualTime()
      ->Unit(benchmark::kMillisecond);
}

template <class Algo, class Layout, class C, class D = C>
void add_solver(const std::string& algo, long n, long nsys) {
  const std::string tail = "/" + layout_label<Layout>() + "/" + type_label<C, D>();
  add(algo + "/one_shot" + tail, solver_benchmark<Algo, Layout, C, D, mode::one_shot>, n, nsys);
  add(algo + "/factored_solve" + tail, solver_benchmark<Algo, Layout, C, D, mode::factored>, n,
      nsys);
}

const bool registered = [] {
  namespace bl = bandsolve::layout;
  using bandsolve::algo::partial_pivoting;
  using bandsolve::algo::periodic;
  using bandsolve::algo::thomas;
  const long n = 256, nsys = 65536;
  add_solver<partial_pivoting, bl::interleaved<8>, double>("partial_pivoting", n, nsys);
  add_solver<partial_pivoting, bl::column, double>("partial_pivoting", n, nsys);
  add("partial_pivoting/one_shot/row/double",
      solver_benchmark<partial_pivoting, bl::row, double, double, mode::one_shot>, n, nsys);
  add("lapack_dgtsv_pivoting_peer/row/double", lapack_benchmark<double>, n, nsys);
  add_solver<partial_pivoting, bl::interleaved<16>, float>("partial_pivoting", n, nsys);
  add_solver<partial_pivoting, bl::column, float>("partial_pivoting", n, nsys);
  add_solver<partial_pivoting, bl::interleaved<4>, cdouble>("partial_pivoting", n, nsys);
  add("lapack_zgtsv_pivoting_peer/row/complex_double", lapack_benchmark<cdouble>, n, nsys);
  add_solver<partial_pivoting, bl::interleaved<8>, double, cdouble>("partial_pivoting", n, nsys);
  add_solver<partial_pivoting, bl::column, double, cdouble>("partial_pivoting", n, nsys);
  add("lapack_zgtsv_pivoting_peer/row/double_coef_complex_rhs",
      lapack_benchmark<cdouble, double>, n, nsys);
  add_solver<periodic, bl::interleaved<8>, double>("periodic", n, nsys);
  add("periodic/one_shot/column/double",
      solver_benchmark<periodic, bl::column, double, double, mode::one_shot>, n, nsys);
  add("periodic_thomas_peer/one_shot/interleaved8/double",
      solver_benchmark<thomas, bl::interleaved<8>, double, double, mode::one_shot>, n, nsys);
  return true;
}();

}  // namespace
}  // namespace bench_pivoting
}  // namespace bandsolve_bench
