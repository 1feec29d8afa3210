// Solvers that parallelise inside a system, against sequential Thomas in the same run:
//   pcr_long/<algo>      one system of n = 2^22 rows (double, row layout): Thomas (the library's
//                        batched Thomas with nsys = 1, i.e. one sequential sweep, on the same
//                        bytes viewed as interleaved<1>), the Thomas-PCR hybrid, PCR and CR;
//   pcr_long/sequential_thomas  the same system solved by a plain scalar Thomas loop written
//                        here (no library call): the second sequential peer of the hybrid;
//   pcr_sweep/<algo>     nsys x n = 2^22 unknowns at nsys = 1, 4, 16, 64, 256, 4096 (double, row
//                        layout): the data behind algo::automatic's rule (tridiag/automatic.hpp).
//   long/<algo>/<layout>/<T>  few long systems in every layout: n = 2^14 .. 2^22 with
//                        nsys = 2^24 / n (float and double; row, column, interleaved<8>,
//                        interleaved<4>, and strided: a column-major array with a leading
//                        dimension of nsys + 1), Thomas, the hybrid (whose column, interleaved
//                        and strided cases take the partition path) and automatic;
//                        faults_per_call counts the minor page faults of the timed calls
//                        (getrusage), which should be 0.
//   long_factored/<kind>/<layout>/double  few long systems (n = 2^14, 2^18, 2^22, nsys =
//                        2^24 / n; row and column) solved with stored factors: Thomas's
//                        factorization (thomas_factored), the partition method's
//                        (thomas_pcr_factored), and the one-shot hybrid beside them
//                        (thomas_pcr_one_shot); the factorization is not timed.
// Floor bytes: 5 words per unknown (read a, b, c, d; write x), as for Thomas; for the factored
// solves the same 5 (Thomas's factored floor: r, l, c', d in; x out).
#include "bench_support.hpp"

#include <bandsolve/bandsolve.hpp>

#include <string>
#include <type_traits>


namespace bandsolve_bench {
namespace bench_pcr {  // each file its own: the test trees check them as one unit
namespace {

template <class Algo, class Layout>
void inside_benchmark(benchmark::State& state) {
  const std::size_t n = static_cast<std::size_t>(state.range(0)),
                    nsys = static_cast<std::size_t>(state.range(1));
  auto make = [&](const char* label) {
    return bandsolve::make_batch<Layout, double, host_exec::memory_space>(label, nsys, n);
  };
  const auto a = make("a"), b = make("b"), c = make("c"), d = make("d");
  fill_rows_sum_to_one(a, b, c, d, nsys, n);
  Kokkos::View<int*, host_exec::memory_space> info("info", nsys);
  const host_exec exec;
  bandsolve::solve(exec, Algo{}, a, b, c, d, info);  // warm-up: first-touch scratch
  exec.fence();
  iteration_timer t;
  for (auto _ : state) {
    t.start();
    bandsolve::solve(exec, Algo{}, a, b, c, d, info);
    exec.fence();
    t.stop(state);
  }
  if (bandsolve::count_failed(info) != 0) state.SkipWithError("a system failed");
  report(state, t, 5.0 * sizeof(double) * n * nsys, double(n) * nsys);
}

// Textbook Thomas on one system, one thread: c' and d' into two arrays, then back substitution.
void sequential_thomas(std::size_t n, const double* a, const double* b, const double* c,
                       double* d, double* cp, double* dp) {
  double r = 1 / b[0];
  cp[0] = c[0] * r;
  dp[0] = d[0] * r;
  for (std::size_t i = 1; i < n; ++i) {
    r = 1 / (b[i] - a[i] * cp[i - 1]);
    cp[i] = c[i] * r;
    dp[i] = (d[i] - a[i] * dp[i - 1]) * r;
  }
  d[n - 1] = dp[n - 1];
  for (std::size_t i = n - 1; i-- > 0;) d[i] = dp[i] - cp[i] * d[i + 1];
}

void sequential_thomas_benchmark(benchmark::State& state) {
  const std::size_t n = static_cast<std::size_t>(state.range(0));
  auto make = [&](const char* label) {
    return bandsolve::make_batch<bandsolve::layout::row, double, host_exec::memory_space>(label,
                                                                                         1, n);
  };
  const auto a = make("a"), b = make("b"), c = make("c"), d = make("d"), cp = make("c'"),
             dp = make("d'");
  fill_rows_sum_to_one(a, b, c, d, 1, n);
  sequential_thomas(n, a.data(), b.data(), c.data(), d.data(), cp.data(), dp.data());  // warm-up
  iteration_timer t;
  for (auto _ : state) {
    t.start();
    sequential_thomas(n, a.data(), b.data(), c.data(), d.data(), cp.data(), dp.data());
    t.stop(state);
  }
  report(state, t, 5.0 * sizeof(double) * n, double(n));
}

template <class Algo, class Layout = bandsolve::layout::row>
void add(const std::string& group, long n, long nsys, int iterations) {
  const std::string layout =
      std::is_same_v<Layout, bandsolve::layout::row> ? "row" : "interleaved1";
  const std::string name = group + "/" + Algo::name + "/" + layout + "/double/n:" +
                           std::to_string(n) + "/nsys:" + std::to_string(nsys);
  benchmark::RegisterBenchmark(name.c_str(), inside_benchmark<Algo, Layout>)
      ->Args({n, nsys})
      ->UseManualTime()
      ->Iterations(iterations)
      ->Unit(benchmark::kMillisecond);
}

// A batch of nsys systems of n rows in Layout; strided: the first nsys columns of a column-major
// array of nsys + 1 columns (unit system stride, a row stride that is not a multiple of the
// lanes; padding to a multiple of 8 would read 3 lines for 1 at nsys = 4).
template <class Layout, class T>
auto make_long_batch(const char* label, std::size_t nsys, std::size_t n) {
  using Mem = host_exec::memory_space;
  if constexpr (std::is_same_v<Layout, bandsolve::layout::strided>) {
    Kokkos::View<T**, Kokkos::LayoutLeft, Mem> full(std::string(label), nsys + 1, n);
    return Kokkos::View<T**, Kokkos::LayoutStride, Mem>(
        Kokkos::subview(full, std::make_pair(std::size_t(0), nsys), Kokkos::ALL));
  } else {
    return bandsolve::make_batch<Layout, T, Mem>(label, nsys, n);
  }
}

template <class Algo, class Layout, class T>
void long_benchmark(benchmark::State& state) {
  const std::size_t n = static_cast<std::size_t>(state.range(0)),
                    nsys = static_cast<std::size_t>(state.range(1));
  const auto make = [&](const char* label) { return make_long_batch<Layout, T>(label, nsys, n); };
  const auto a = make("a"), b = make("b"), c = make("c"), d = make("d");
  fill_rows_sum_to_one(a, b, c, d, nsys, n);
  Kokkos::View<int*, host_exec::memory_space> info("info", nsys);
  const host_exec exec;
  bandsolve::solve(exec, Algo{}, a, b, c, d, info);  // warm-up: first-touch scratch
  exec.fence();
  iteration_timer t;
  long faults = 0;
  for (auto _ : state) {
    const long f0 = minor_faults();
    t.start();
    bandsolve::solve(exec, Algo{}, a, b, c, d, info);
    exec.fence();
    t.stop(state);
    faults += minor_faults() - f0;
  }
  if (bandsolve::count_failed(info) != 0) state.SkipWithError("a system failed");
  report(state, t, 5.0 * sizeof(T) * n * nsys, double(n) * nsys);
  state.counters["faults_per_call"] =
      static_cast<double>(faults) / static_cast<double>(state.iterations());
}

enum class factored_kind { thomas_factored, thomas_pcr_factored, thomas_pcr_one_shot };

const char* name_of(factored_kind k) {
  return k == factored_kind::thomas_factored       ? "thomas_factored"
         : k == factored_kind::thomas_pcr_factored ? "thomas_pcr_factored"
                                                   : "thomas_pcr_one_shot";
}

template <factored_kind Kind, class Layout>
void long_factored_benchmark(benchmark::State& state) {
  using T = double;
  const std::size_t n = static_cast<std::size_t>(state.range(0)),
                    nsys = static_cast<std::size_t>(state.range(1));
  const auto make = [&](const char* label) { return make_long_batch<Layout, T>(label, nsys, n); };
  const auto d = make("d");
  const host_exec exec;
  iteration_timer t;
  long faults = 0;
  const auto time = [&](const auto& call) {
    call();  // warm-up: first-touch scratch
    exec.fence();
    for (auto _ : state) {
      const long f0 = minor_faults();
      t.start();
      call();
      exec.fence();
      t.stop(state);
      faults += minor_faults() - f0;
    }
  };
  if constexpr (Kind == factored_kind::thomas_pcr_one_shot) {
    const auto a = make("a"), b = make("b"), c = make("c");
    fill_rows_sum_to_one(a, b, c, d, nsys, n);
    Kokkos::View<int*, host_exec::memory_space> info("info", nsys);
    time([&] { bandsolve::solve(exec, bandsolve::algo::thomas_pcr{}, a, b, c, d, info); });
    if (bandsolve::count_failed(info) != 0) state.SkipWithError("a system failed");
  } else {
    const auto f = [&] {  // a, b, c freed once factored
      const auto a = make("a"), b = make("b"), c = make("c");
      fill_rows_sum_to_one(a, b, c, d, nsys, n);
      if constexpr (Kind == factored_kind::thomas_factored)
        return bandsolve::factorize(exec, bandsolve::algo::thomas{}, a, b, c, nsys);
      else
        return bandsolve::factorize(exec, bandsolve::algo::thomas_pcr{}, a, b, c, nsys);
    }();
    exec.fence();
    time([&] { f.solve(exec, d); });
    if (bandsolve::count_failed(f.info()) != 0) state.SkipWithError("a system failed");
  }
  report(state, t, 5.0 * sizeof(T) * n * nsys, double(n) * nsys);
  state.counters["faults_per_call"] =
      static_cast<double>(faults) / static_cast<double>(state.iterations());
}

template <factored_kind Kind, class Layout>
void add_long_factored(const char* layout, long n, long nsys) {
  const std::string name = std::string("long_factored/") + name_of(Kind) + "/" + layout +
                           "/double/n:" + std::to_string(n) + "/nsys:" + std::to_string(nsys);
  benchmark::RegisterBenchmark(name.c_str(), long_factored_benchmark<Kind, Layout>)
      ->Args({n, nsys})
      ->UseManualTime()
      ->Iterations(5)
      ->Unit(benchmark::kMillisecond);
}

template <class Algo, class Layout, class T>
void add_long(const char* layout, long n, long nsys) {
  const std::string name = std::string("long/") + Algo::name + "/" + layout + "/" +
                           (sizeof(T) == 8 ? "double" : "float") + "/n:" + std::to_string(n) +
                           "/nsys:" + std::to_string(nsys);
  benchmark::RegisterBenchmark(name.c_str(), long_benchmark<Algo, Layout, T>)
      ->Args({n, nsys})
      ->UseManualTime()
      ->Iterations(5)
      ->Unit(benchmark::kMillisecond);
}

template <class Algo, class T>
void add_long_layouts(long n, long nsys) {
  namespace bl = bandsolve::layout;
  add_long<Algo, bl::row, T>("row", n, nsys);
  add_long<Algo, bl::column, T>("column", n, nsys);
  add_long<Algo, bl::interleaved<8>, T>("interleaved8", n, nsys);
  add_long<Algo, bl::interleaved<4>, T>("interleaved4", n, nsys);
  add_long<Algo, bl::strided, T>("strided", n, nsys);
}

const bool registered = [] {
  namespace algo = bandsolve::algo;
  const long total = 1L << 22;
  // Thomas reads the one system as interleaved<1> (the same bytes as a row): its row-layout
  // path gathers 32 systems per work item and would ask for 2 GiB of scratch here.
  add<algo::thomas, bandsolve::layout::interleaved<1>>("pcr_long", total, 1, 10);
  benchmark::RegisterBenchmark(
      ("pcr_long/sequential_thomas/row/double/n:" + std::to_string(total) + "/nsys:1").c_str(),
      sequential_thomas_benchmark)
      ->Args({total})
      ->UseManualTime()
      ->Iterations(10)
      ->Unit(benchmark::kMillisecond);
  add<algo::thomas_pcr>("pcr_long", total, 1, 20);
  add<algo::pcr>("pcr_long", total, 1, 3);
  add<algo::cr>("pcr_long", total, 1, 5);
  for (long nsys : {1L, 4L, 16L, 64L, 256L, 4096L}) {
    if (nsys == 1)  // as in pcr_long: the same bytes viewed as interleaved<1>
      add<algo::thomas, bandsolve::layout::interleaved<1>>("pcr_sweep", total, 1, 10);
    else
      add<algo::thomas>("pcr_sweep", total / nsys, nsys, 10);
    add<algo::thomas_pcr>("pcr_sweep", total / nsys, nsys, 10);
    add<algo::pcr>("pcr_sweep", total / nsys, nsys, 2);
    add<algo::automatic>("pcr_sweep", total / nsys, nsys, 10);
  }
  for (long n = 1L << 14; n <= 1L << 22; n *= 4) {
    const long nsys = (1L << 24) / n;
    add_long_layouts<algo::thomas, double>(n, nsys);
    add_long_layouts<algo::thomas_pcr, double>(n, nsys);
    add_long_layouts<algo::automatic, double>(n, nsys);
    add_long_layouts<algo::thomas, float>(n, nsys);
    add_long_layouts<algo::thomas_pcr, float>(n, nsys);
    add_long_layouts<algo::automatic, float>(n, nsys);
  }
  for (long n = 1L << 14; n <= 1L << 22; n *= 16) {
    const long nsys = (1L << 24) / n;
    namespace bl = bandsolve::layout;
    add_long_factored<factored_kind::thomas_factored, bl::row>("row", n, nsys);
    add_long_factored<factored_kind::thomas_factored, bl::column>("column", n, nsys);
    add_long_factored<factored_kind::thomas_pcr_factored, bl::row>("row", n, nsys);
    add_long_factored<factored_kind::thomas_pcr_factored, bl::column>("column", n, nsys);
    add_long_factored<factored_kind::thomas_pcr_one_shot, bl::row>("row", n, nsys);
    add_long_factored<factored_kind::thomas_pcr_one_shot, bl::column>("column", n, nsys);
  }
  return true;
}();

}  // namespace
}  // namespace bench_pcr
}  // namespace bandsolve_bench
