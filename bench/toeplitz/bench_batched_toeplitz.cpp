// Batches whose coefficients are shared, against the general batched Thomas on the same systems
// in the same run (n = 256, nsys = 65536 doubles, or 32768 complex doubles):
//   toeplitz_batch/<layout>      one Toeplitz matrix, stored factors shared by all systems
//   toeplitz_real_T/<layout>     complex d only: one real Toeplitz matrix acting on both parts
//   shared_offdiag/<layout>      shared off-diagonals, diagonal generated per system (a functor)
//   thomas_general/<layout>      bandsolve::solve(thomas) with a, b, c, d arrays (the peer; for
//                                complex d, complex coefficients)
// Floor bytes per unknown: read d and write x (16, complex 32) for the shared-coefficient solvers,
// three coefficients more for Thomas (40, complex 80). speedup_vs_thomas: best time of
// thomas_general for the same layout and type (registered, so run, first) over the solver's.
#include "bench_support.hpp"

#include <bandsolve/bandsolve.hpp>

#include <map>
#include <string>

namespace bandsolve_bench {
namespace bench_batched_toeplitz {  // each file its own: the test trees check them as one unit
namespace {

constexpr double t1 = -0.2, t2 = 1.5, t3 = -0.3;  // rows sum to 1: repeated solves stay near 1
constexpr long n_rows = 256, n_systems = 65536;

template <class Layout>
std::string name_of() {
  if constexpr (std::is_same_v<Layout, bandsolve::layout::row>) return "row";
  else if constexpr (std::is_same_v<Layout, bandsolve::layout::column>) return "column";
  else return "interleaved" + std::to_string(Layout::width);
}

std::map<std::string, double>& thomas_best() {
  static std::map<std::string, double> best;
  return best;
}

template <class View>
void fill_rhs(const View& d, std::size_t nsys, std::size_t n) {
  using Data = typename View::value_type;
  Kokkos::parallel_for(
      "fill", Kokkos::RangePolicy<host_exec>(0, nsys * n), KOKKOS_LAMBDA(std::size_t k) {
        if constexpr (bandsolve::is_complex_v<Data>)
          bandsolve::at(d, k / n, k % n) = Data(1 + hash01(k), hash01(k + nsys * n));
        else
          bandsolve::at(d, k / n, k % n) = 1 + hash01(k);
      });
  host_exec().fence();
}

template <class Data>
std::string type_name() {
  return bandsolve::is_complex_v<Data> ? "complex_double" : "double";
}

// Per-system diagonal 1.5 + 0.1 * (s & 7) with corners as interior rows: dominant, generated.
struct generated_diagonal {
  KOKKOS_INLINE_FUNCTION double operator()(bandsolve::index_t s, bandsolve::index_t) const {
    return t2 + 0.1 * static_cast<double>(s & 7);
  }
};

enum class solver { toeplitz_batch, toeplitz_real_T, shared_offdiag, thomas_general };

// Data: the right-hand sides' type (double or Kokkos::complex<double>, the same bytes per batch:
// half the systems for complex).
template <class Layout, solver Which, class Data = double>
void batched_benchmark(benchmark::State& state) {
  const std::size_t n = n_rows, nsys = n_systems * sizeof(double) / sizeof(Data);
  const host_exec exec;
  auto d = bandsolve::make_batch<Layout, Data, host_exec::memory_space>("d", nsys, n);
  fill_rhs(d, nsys, n);
  Kokkos::View<int*, host_exec::memory_space> info("info", nsys);
  iteration_timer t;
  double floor_bytes = 2.0 * sizeof(Data);
  // Complex T: t1 and t3 rotated by e^{+-i phi} (the moduli of the real T: still dominant).
  Data k1 = Data(t1), k2 = Data(t2), k3 = Data(t3);
  if constexpr (bandsolve::is_complex_v<Data>) {
    k1 *= Data(0.8, 0.6);
    k3 *= Data(0.8, -0.6);
  }
  if constexpr (Which == solver::toeplitz_batch) {
    const auto f = bandsolve::factorize(exec, bandsolve::algo::toeplitz{}, k1, k2, k3, n);
    for (auto _ : state) {
      t.start();
      f.solve(exec, d);
      exec.fence();
      t.stop(state);
    }
  } else if constexpr (Which == solver::toeplitz_real_T) {
    const auto f = bandsolve::factorize(exec, bandsolve::algo::toeplitz{}, t1, t2, t3, n);
    for (auto _ : state) {
      t.start();
      f.solve(exec, d);
      exec.fence();
      t.stop(state);
    }
  } else if constexpr (Which == solver::shared_offdiag) {
    const auto m = bandsolve::make_shared_offdiag(t1, t3, t3, t1, generated_diagonal{});
    for (auto _ : state) {
      t.start();
      bandsolve::solve(exec, bandsolve::algo::shared_offdiag{}, m, d, info);
      exec.fence();
      t.stop(state);
    }
    if (bandsolve::count_failed(info) != 0) state.SkipWithError("a system failed");
  } else if constexpr (Which == solver::thomas_general) {
    floor_bytes = 5.0 * sizeof(Data);
    auto a = bandsolve::make_batch<Layout, Data, host_exec::memory_space>("a", nsys, n);
    auto b = bandsolve::make_batch<Layout, Data, host_exec::memory_space>("b", nsys, n);
    auto c = bandsolve::make_batch<Layout, Data, host_exec::memory_space>("c", nsys, n);
    Kokkos::deep_copy(a, k1);
    Kokkos::deep_copy(b, k2);
    Kokkos::deep_copy(c, k3);
    for (auto _ : state) {
      t.start();
      bandsolve::solve(exec, bandsolve::algo::thomas{}, a, b, c, d, info);
      exec.fence();
      t.stop(state);
    }
    if (bandsolve::count_failed(info) != 0) state.SkipWithError("a system failed");
  } else {
    static_assert(Which == solver::toeplitz_batch, "bench_batched_toeplitz: unknown solver");
  }
  report(state, t, floor_bytes * double(n) * double(nsys), double(n) * double(nsys));
  auto& best = thomas_best();
  const std::string key = name_of<Layout>() + type_name<Data>();
  if (Which == solver::thomas_general) best[key] = t.best();
  else if (best.count(key) && t.best() > 0) state.counters["speedup_vs_thomas"] = best[key] / t.best();
}

template <class Layout, solver Which, class Data>
void register_one(const char* what) {
  const std::string name = std::string("toeplitz/") + what + "/" + name_of<Layout>() + "/" +
                           type_name<Data>() + "/n:" + std::to_string(n_rows) + "/nsys:" +
                           std::to_string(n_systems * sizeof(double) / sizeof(Data));
  benchmark::RegisterBenchmark(name.c_str(), batched_benchmark<Layout, Which, Data>)
      ->UseManualTime()
      ->Unit(benchmark::kMillisecond);
}

template <class Layout, class Data>
void register_layout() {
  register_one<Layout, solver::thomas_general, Data>("thomas_general");
  register_one<Layout, solver::toeplitz_batch, Data>("toeplitz_batch");
  if constexpr (bandsolve::is_complex_v<Data>)
    register_one<Layout, solver::toeplitz_real_T, Data>("toeplitz_real_T");
  register_one<Layout, solver::shared_offdiag, Data>("shared_offdiag");
}

const bool registered = [] {
  using zd = Kokkos::complex<double>;
  register_layout<bandsolve::layout::column, double>();
  register_layout<bandsolve::layout::interleaved<8>, double>();
  register_layout<bandsolve::layout::row, double>();
  register_layout<bandsolve::layout::column, zd>();
  register_layout<bandsolve::layout::interleaved<4>, zd>();
  register_layout<bandsolve::layout::row, zd>();
  return true;
}();

}  // namespace
}  // namespace bench_batched_toeplitz
}  // namespace bandsolve_bench
