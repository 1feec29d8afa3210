// CUDA only: the device-callable Thomas-PCR hybrid, bandsolve::thomas_pcr_solve(team, n, a, b, c,
// d, work), inside kernels on Kokkos::Cuda: a TeamPolicy team of 1, 2, 32, 128 or 256 threads per
// system (workspace from a View, and once from team scratch level 1 as in the docs/api.md example),
// and bandsolve::single_thread{} inside a RangePolicy kernel (one GPU thread per system).
// float and double; every n = 1..70 (contiguous rows and a row stride of 3, the gaps and a tail
// past the last system holding sentinels that must survive), n = 1000, 2177, 4097 and 2^20; info
// codes of zero rows and NaN pivots at chunk boundaries (3-row chunks through the shaped form as
// in tests/tridiag/test_thomas_pcr.cpp, and both default shapes: thomas_pcr_gpu_shape, 1 lane of
// 64-row chunks, which GPU teams take through the public entry point, and thomas_pcr_shape,
// 8 or 16 lanes of 128-row chunks, which single_thread takes).
// Each solution is compared with a long double Thomas solve on the host (forward error within
// the host tests' reduction_tol) and with the same call run on the host (single_thread, the
// Serial path of this build); info codes must equal the expected ones exactly.
//
// A plain main(): prints every failure, returns 1 if there was any. Without a CUDA device it
// prints that and returns 77, which CTest reports as skipped. `--time` adds a timing of one
// system of n = 2^22 double (best of 10); `--quick` leaves out n = 2^20 (for runs under compute-sanitizer).
#include <bandsolve/tridiag/thomas_pcr_kernel.hpp>

#include <Kokkos_Core.hpp>

#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

using bandsolve::index_t;
using bandsolve::system_rows;

namespace {

int failures = 0, checks = 0;
bool quick = false;  // --quick: no n = 2^20 (for runs under compute-sanitizer)

void fail(const std::string& what) {
  ++failures;
  if (failures <= 200) std::printf("FAIL: %s\n", what.c_str());
}

template <class T>
double eps() {
  return static_cast<double>(std::numeric_limits<T>::epsilon());
}
// As tests/support/pcr_support.hpp: lapack_tol (160 eps) per reduction step, 1 + log2 n steps.
template <class T>
double reduction_tol(index_t n) {
  return 160.0 * eps<T>() * (1.0 + std::log2(static_cast<double>(std::max<index_t>(n, 1))));
}

// Systems of sizes n[k] in flat arrays: row i of system k at off[k] + i * stride. Everything
// else (the gaps of a stride > 1 and a tail past the last system) holds sentinels: NaN in a, b,
// c (read by mistake, they spoil a result) and -777 in d (written by mistake, they show).
template <class T>
struct batch {
  std::vector<index_t> n, off;
  index_t stride = 1, total = 0;
  std::vector<T> a, b, c, d;
  std::vector<int> expected_info;
  static constexpr T sentinel = T(-777);

  batch(const std::vector<index_t>& sizes, index_t row_stride) : n(sizes), stride(row_stride) {
    for (index_t m : n) {
      off.push_back(total);
      total += m * stride + 1;  // + 1: one sentinel between systems even with stride 1
    }
    total += 16;
    const T nan = std::numeric_limits<T>::quiet_NaN();
    a.assign(total, nan);
    b.assign(total, nan);
    c.assign(total, nan);
    d.assign(total, sentinel);
    expected_info.assign(n.size(), 0);
  }
  index_t k(std::size_t s, index_t i) const { return off[s] + i * stride; }
  std::size_t nsys() const { return n.size(); }
};

// Random row diagonally dominant systems as tests/support/test_support.hpp's random_dominant:
// a, c ~ U(-1, 1), b = +-(|a| + |c| + U(1, 2)), d ~ U(-1, 1); a[0] = c[n-1] = 0.
template <class T>
void fill_dominant(batch<T>& p, std::uint32_t seed) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<double> u11(-1.0, 1.0), u12(1.0, 2.0);
  std::bernoulli_distribution sign(0.5);
  for (std::size_t s = 0; s < p.nsys(); ++s)
    for (index_t i = 0; i < p.n[s]; ++i) {
      const index_t k = p.k(s, i);
      const T a = i == 0 ? T(0) : static_cast<T>(u11(gen));
      const T c = i + 1 == p.n[s] ? T(0) : static_cast<T>(u11(gen));
      const double bmag = std::abs(double(a)) + std::abs(double(c)) + u12(gen);
      p.a[k] = a;
      p.c[k] = c;
      p.b[k] = static_cast<T>(sign(gen) ? bmag : -bmag);
      p.d[k] = static_cast<T>(u11(gen));
    }
}

// Long double Thomas (the reference x), system s.
template <class T>
std::vector<long double> reference(const batch<T>& p, std::size_t s) {
  const index_t n = p.n[s];
  std::vector<long double> cp(n), x(n);
  long double dprev = 0, cprev = 0;
  for (index_t i = 0; i < n; ++i) {
    const index_t k = p.k(s, i);
    const long double a = i > 0 ? p.a[k] : 0, den = p.b[k] - a * cprev;
    cprev = cp[i] = (i + 1 < n ? p.c[k] : 0) / den;
    dprev = x[i] = (p.d[k] - a * dprev) / den;
  }
  for (index_t i = n - 2; i >= 0; --i) x[i] -= cp[i] * x[i + 1];
  return x;
}

// Which kernel runs the solve: team size > 0 (TeamPolicy, workspace from a View, or from team
// scratch level 1 when scratch), 0 = single_thread in a RangePolicy kernel.
struct variant {
  int team_size;
  bool scratch;
  std::string name() const {
    if (team_size == 0) return "single_thread (RangePolicy)";
    return "team of " + std::to_string(team_size) + (scratch ? " (scratch level 1)" : "");
  }
};

template <class T, int Lanes, int ChunkRows>
using shape = bandsolve::detail::thomas_pcr_layout<T, Lanes, ChunkRows>;

// Workspace offsets (elements), a multiple of 8 each so that every system's workspace is
// aligned for the 8-byte info words, and the total.
template <class T, int Lanes, int ChunkRows>
std::vector<index_t> work_offsets(const std::vector<index_t>& n, int team_size) {
  std::vector<index_t> w;
  index_t total = 0;
  for (index_t m : n) {
    w.push_back(total);
    total += (shape<T, Lanes, ChunkRows>::workspace(m, team_size) + 7) / 8 * 8;
  }
  w.push_back(total);
  return w;
}

template <int Lanes, int ChunkRows, class Member, class T>
KOKKOS_INLINE_FUNCTION int call_solver(const Member& team, index_t n, const T* a, const T* b,
                                       const T* c, T* d, index_t stride, T* work) {
  // The public entry point where it takes this shape for this kind of team (GPU teams:
  // thomas_pcr_gpu_shape; single_thread: thomas_pcr_shape), the detail one (as the host tests)
  // otherwise.
  using team_shape = bandsolve::thomas_pcr_team_shape<Member, T>;
  if constexpr (Lanes == team_shape::lanes && ChunkRows == team_shape::chunk_rows)
    return bandsolve::thomas_pcr_solve(team, n, system_rows<const T>(a, stride),
                                       system_rows<const T>(b, stride),
                                       system_rows<const T>(c, stride),
                                       system_rows<T>(d, stride), work);
  else
    return bandsolve::detail::thomas_pcr_solve_shaped<Lanes, ChunkRows>(
        team, n, system_rows<const T>(a, stride), system_rows<const T>(b, stride),
        system_rows<const T>(c, stride), system_rows<T>(d, stride), work);
}

template <class T>
using dview = Kokkos::View<T*, Kokkos::CudaSpace>;

template <class V, class T>
V upload(const std::string& label, const std::vector<T>& h) {
  Kokkos::View<T*, Kokkos::CudaSpace> v(Kokkos::view_alloc(Kokkos::WithoutInitializing, label),
                                        h.size());
  Kokkos::View<const T*, Kokkos::HostSpace, Kokkos::MemoryTraits<Kokkos::Unmanaged>> hv(h.data(),
                                                                                      h.size());
  Kokkos::deep_copy(v, hv);
  return V(v);
}
template <class T, class V>
std::vector<T> download(const V& v) {
  std::vector<T> h(v.extent(0));
  Kokkos::View<T*, Kokkos::HostSpace, Kokkos::MemoryTraits<Kokkos::Unmanaged>> hv(h.data(),
                                                                                h.size());
  Kokkos::deep_copy(hv, v);
  return h;
}

// Solves every system of p on the GPU; returns d and the info codes.
template <int Lanes, int ChunkRows, class T>
void gpu_solve(const batch<T>& p, variant v, std::vector<T>& x, std::vector<int>& info) {
  const auto a = upload<dview<const T>>("a", p.a), b = upload<dview<const T>>("b", p.b),
             c = upload<dview<const T>>("c", p.c);
  const auto d = upload<dview<T>>("d", p.d);
  const auto sizes = upload<dview<const index_t>>("n", p.n), offs = upload<dview<const index_t>>("off", p.off);
  const index_t stride = p.stride;
  const int nsys = static_cast<int>(p.nsys());
  Kokkos::View<int*, Kokkos::CudaSpace> code("info", nsys);
  Kokkos::deep_copy(code, -12345);
  const auto woff_h = work_offsets<T, Lanes, ChunkRows>(p.n, v.team_size > 0 ? v.team_size : 1);
  const auto woff = upload<dview<const index_t>>("woff", woff_h);
  if (v.team_size == 0) {
    dview<T> work("work", woff_h.back());
    Kokkos::parallel_for(
        "single_thread", Kokkos::RangePolicy<Kokkos::Cuda>(0, nsys), KOKKOS_LAMBDA(const int s) {
          code(s) = call_solver<Lanes, ChunkRows>(bandsolve::single_thread{}, sizes(s),
                                                  &a(offs(s)), &b(offs(s)), &c(offs(s)),
                                                  &d(offs(s)), stride, &work(woff(s)));
        });
  } else {
    using policy = Kokkos::TeamPolicy<Kokkos::Cuda>;
    using member = policy::member_type;
    const int ts = v.team_size;
    Kokkos::View<int*, Kokkos::CudaSpace> disagree("disagree", 1);
    // One kernel for both workspaces (a View, or team scratch level 1 when v.scratch): the
    // solver is inlined into each kernel, and nvcc's time grows with their number.
    const bool scratch = v.scratch;
    std::size_t bytes = 0;
    if (scratch) {
      index_t most = 0;
      for (std::size_t s = 0; s < p.nsys(); ++s) most = std::max(most, woff_h[s + 1] - woff_h[s]);
      bytes = static_cast<std::size_t>(most) * sizeof(T);
    }
    dview<T> work("work", scratch ? 0 : woff_h.back());
    policy pol(nsys, ts);
    if (scratch) pol.set_scratch_size(1, Kokkos::PerTeam(bytes));
    Kokkos::parallel_for(
        scratch ? "team, scratch" : "team", pol, KOKKOS_LAMBDA(const member& team) {
          const int s = team.league_rank();
          T* w = scratch ? static_cast<T*>(team.team_scratch(1).get_shmem(bytes)) : &work(woff(s));
          const int r = call_solver<Lanes, ChunkRows>(team, sizes(s), &a(offs(s)), &b(offs(s)),
                                                      &c(offs(s)), &d(offs(s)), stride, w);
          if (team.team_rank() == 0) code(s) = r;
          team.team_barrier();
          if (code(s) != r) Kokkos::atomic_add(&disagree(0), 1);
        });
    {
      int dis = 0;
      Kokkos::deep_copy(dis, Kokkos::subview(disagree, 0));
      ++checks;
      if (dis != 0) fail(v.name() + ": threads of a team returned different info codes");
    }
  }
  Kokkos::fence();
  const cudaError_t err = cudaGetLastError();
  if (err != cudaSuccess) fail(std::string("CUDA error: ") + cudaGetErrorString(err));
  x = download<T>(d);
  info = download<int>(code);
}

// The same solve on the host (single_thread; this build's host pass of the same header).
template <int Lanes, int ChunkRows, class T>
void host_solve(const batch<T>& p, std::vector<T>& x, std::vector<int>& info) {
  x = p.d;
  info.assign(p.nsys(), 0);
  const auto woff = work_offsets<T, Lanes, ChunkRows>(p.n, 1);
  std::vector<T> work(static_cast<std::size_t>(woff.back()) + 8);
  for (std::size_t s = 0; s < p.nsys(); ++s)
    info[s] = call_solver<Lanes, ChunkRows>(bandsolve::single_thread{}, p.n[s], &p.a[p.off[s]],
                                            &p.b[p.off[s]], &p.c[p.off[s]], &x[p.off[s]],
                                            p.stride, &work[woff[s]]);
}

const char* type_name(float) { return "float"; }
const char* type_name(double) { return "double"; }

// Solves p with variant v and checks info, the sentinels, and (for systems expected to be
// solved) x against the long double reference and the host run of the same code.
template <int Lanes, int ChunkRows, class T>
void check_batch(const std::string& what, const batch<T>& p, variant v,
                 const std::vector<T>& host_x, const std::vector<int>& host_info,
                 const std::vector<std::vector<long double>>& ref) {
  std::vector<T> x;
  std::vector<int> info;
  gpu_solve<Lanes, ChunkRows>(p, v, x, info);
  const std::string head = std::string(type_name(T())) + ", " + what + ", " + v.name();
  double worst_ref = 0, worst_host = 0;
  for (std::size_t s = 0; s < p.nsys(); ++s) {
    const std::string sys = head + ", system " + std::to_string(s) + " (n = " +
                            std::to_string(p.n[s]) + ")";
    ++checks;
    if (info[s] != p.expected_info[s])
      fail(sys + ": info " + std::to_string(info[s]) + ", expected " +
           std::to_string(p.expected_info[s]));
    ++checks;
    if (host_info[s] != p.expected_info[s])
      fail(sys + ": HOST info " + std::to_string(host_info[s]) + ", expected " +
           std::to_string(p.expected_info[s]));
    if (p.expected_info[s] != 0) continue;
    double err = 0, diff = 0, norm = 0;
    for (index_t i = 0; i < p.n[s]; ++i) {
      const index_t k = p.k(s, i);
      norm = std::max(norm, std::abs(static_cast<double>(ref[s][i])));
      const double e = std::abs(static_cast<double>(x[k] - ref[s][i]));
      const double h = std::abs(static_cast<double>(x[k]) - static_cast<double>(host_x[k]));
      err = std::isnan(e) || std::isnan(err) ? std::numeric_limits<double>::quiet_NaN()
                                             : std::max(err, e);
      diff = std::isnan(h) || std::isnan(diff) ? std::numeric_limits<double>::quiet_NaN()
                                               : std::max(diff, h);
    }
    err /= std::max(norm, 1e-300);
    diff /= std::max(norm, 1e-300);
    const double tol = reduction_tol<T>(p.n[s]);
    ++checks;
    if (!(err <= tol))
      fail(sys + ": forward error " + std::to_string(err / eps<T>()) + " eps > tol " +
           std::to_string(tol / eps<T>()) + " eps");
    ++checks;
    if (!(diff <= 2 * tol))
      fail(sys + ": differs from the host run by " + std::to_string(diff / eps<T>()) + " eps");
    worst_ref = std::max(worst_ref, err);
    worst_host = std::max(worst_host, diff);
  }
  // Sentinels: nothing outside the systems' rows was written.
  index_t touched = 0;
  std::vector<bool> row(p.total, false);
  for (std::size_t s = 0; s < p.nsys(); ++s)
    for (index_t i = 0; i < p.n[s]; ++i) row[p.k(s, i)] = true;
  for (index_t k = 0; k < p.total; ++k)
    if (!row[k] && std::memcmp(&x[k], &batch<T>::sentinel, sizeof(T)) != 0) ++touched;
  ++checks;
  if (touched != 0) fail(head + ": " + std::to_string(touched) + " entries outside the rows written");
  std::printf("  %-70s worst error %6.2f eps (vs host %6.2f eps)\n", head.c_str(),
              worst_ref / eps<T>(), worst_host / eps<T>());
}

// Every variant on one batch.
template <int Lanes, int ChunkRows, class T>
void run_batch(const std::string& what, const batch<T>& p, const std::vector<variant>& variants) {
  std::vector<T> hx;
  std::vector<int> hinfo;
  host_solve<Lanes, ChunkRows>(p, hx, hinfo);
  std::vector<std::vector<long double>> ref(p.nsys());
  for (std::size_t s = 0; s < p.nsys(); ++s)
    if (p.expected_info[s] == 0) ref[s] = reference(p, s);
  for (const variant& v : variants) check_batch<Lanes, ChunkRows>(what, p, v, hx, hinfo, ref);
}

// Systems of n rows, system s with row rows[s] all zero (info rows[s] + 1), and one clean system.
template <class T>
batch<T> zero_rows(index_t n, const std::vector<index_t>& rows, std::uint32_t seed) {
  batch<T> p(std::vector<index_t>(rows.size() + 1, n), 1);
  fill_dominant(p, seed);
  for (std::size_t s = 0; s < rows.size(); ++s) {
    const index_t k = p.k(s, rows[s]);
    p.a[k] = p.b[k] = p.c[k] = T(0);
    p.expected_info[s] = static_cast<int>(rows[s] + 1);
  }
  return p;
}

// Every case with chunks of shape L x M (the public defaults: thomas_pcr_gpu_shape, which GPU
// teams take, and thomas_pcr_shape, which single_thread takes).
template <class T, int L, int M>
void all_cases() {
  const std::vector<variant> variants = {{0, false},  {1, false},   {2, false},  {32, false},
                                         {128, false}, {256, false}, {128, true}};
  std::uint32_t seed = 1000;
  // n = 1..70, two systems each, contiguous rows and a row stride of 3.
  for (index_t stride : {1, 3}) {
    std::vector<index_t> sizes;
    for (index_t n = 1; n <= 70; ++n) sizes.insert(sizes.end(), {n, n});
    batch<T> p(sizes, stride);
    fill_dominant(p, seed++);
    run_batch<L, M>("n = 1..70, row stride " + std::to_string(stride), p, variants);
  }
  // Long systems: several chunks, partial SIMD groups, a longer last chunk, the nested level
  // (team of 2 at 2^20).
  for (index_t n : {1000, 2177, 4097, 1 << 20}) {
    if (quick && n > 5000) continue;
    batch<T> p(std::vector<index_t>(n < 5000 ? 3 : 1, n), 1);
    fill_dominant(p, seed++);
    run_batch<L, M>("n = " + std::to_string(n), p,
                    n < 5000 ? variants
                             : std::vector<variant>{{0, false}, {2, false}, {4, false},
                                                    {32, false}, {256, false}});
  }
  // 3-row chunks, 4 lanes (the shaped form, as the host tests): n = 1..70 and info codes of a
  // zero row at every position class of n = 35.
  {
    std::vector<index_t> sizes;
    for (index_t n = 1; n <= 70; ++n) sizes.push_back(n);
    batch<T> p(sizes, 1);
    fill_dominant(p, seed++);
    run_batch<4, 3>("3-row chunks, n = 1..70", p, variants);
  }
  run_batch<4, 3>("3-row chunks, n = 35, zero rows",
                  zero_rows<T>(35, {0, 1, 2, 3, 4, 5, 30, 31, 32, 33, 34}, seed++), variants);
  // Default chunks: zero rows in n = 1000 (at the boundaries of 64- and 128-row chunks), zero
  // rows and NaN pivots in n = 2177, a zero pivot in n = 1 and n = 2, all solved beside clean
  // systems.
  run_batch<L, M>("n = 1000, zero rows",
                  zero_rows<T>(1000, {0, 1, 63, 64, 65, 126, 127, 128, 129, 255, 256, 999}, seed++),
                  variants);
  {
    const std::vector<index_t> rows = {0, 1, 2, 127, 130, 1023, 1024, 1151, 1152, 2047, 2048, 2176};
    batch<T> p(std::vector<index_t>(2 * rows.size() + 1, 2177), 1);
    fill_dominant(p, seed++);
    for (std::size_t s = 0; s < 2 * rows.size(); ++s) {
      const index_t r = rows[s / 2], k = p.k(s, r);
      if (s % 2 == 0)
        p.a[k] = p.b[k] = p.c[k] = T(0);
      else
        p.b[k] = std::numeric_limits<T>::quiet_NaN();
      p.expected_info[s] = static_cast<int>(r + 1);
    }
    run_batch<L, M>("n = 2177, zero rows and NaN pivots", p, variants);
  }
  {
    batch<T> p({1, 2, 2, 1, 2}, 1);
    fill_dominant(p, seed++);
    p.b[p.k(0, 0)] = T(0);
    p.expected_info[0] = 1;
    const index_t k = p.k(1, 1);
    p.a[k] = p.b[k] = T(0);  // row 1 of a 2-row system: pivot b - a c' = 0
    p.expected_info[1] = 2;
    p.b[p.k(2, 0)] = T(0);  // row 0 zero pivot, row 1 fine
    p.expected_info[2] = 1;
    run_batch<L, M>("n = 1, 2, zero pivots", p, variants);
  }
}

template <class T>
void both_shapes(const char* precision) {
  using gpu = bandsolve::thomas_pcr_gpu_shape<T>;
  using cpu = bandsolve::thomas_pcr_shape<T>;
  std::printf("%s, GPU shape:\n", precision);
  all_cases<T, gpu::lanes, gpu::chunk_rows>();
  std::printf("%s, CPU shape:\n", precision);
  all_cases<T, cpu::lanes, cpu::chunk_rows>();
}

// One system of n = 2^22 double, one team, ns per unknown (best of 10 after a warm-up).
void timing() {
  using T = double;
  const index_t n = index_t(1) << 22;
  batch<T> p({n}, 1);
  fill_dominant(p, 77);
  const auto a = upload<dview<const T>>("a", p.a), b = upload<dview<const T>>("b", p.b),
             c = upload<dview<const T>>("c", p.c), d0 = upload<dview<const T>>("d0", p.d);
  dview<T> d("d", p.total);
  Kokkos::View<int*, Kokkos::CudaSpace> code("info", 1);
  const auto ref = reference(p, 0);
  for (int ts : {32, 128, 256, 512, 1024}) {
    using policy = Kokkos::TeamPolicy<Kokkos::Cuda, Kokkos::LaunchBounds<1024, 1>>;
    dview<T> work("work", bandsolve::thomas_pcr_workspace<T>(n, ts));
    const auto body = KOKKOS_LAMBDA(const policy::member_type& team) {
      const int r = bandsolve::thomas_pcr_solve(team, n, system_rows<const T>(a.data(), 1),
                                                system_rows<const T>(b.data(), 1),
                                                system_rows<const T>(c.data(), 1),
                                                system_rows<T>(d.data(), 1), work.data());
      if (team.team_rank() == 0) code(0) = r;
    };
    const int most = policy(1, 1).team_size_max(body, Kokkos::ParallelForTag());
    if (ts > most) {
      std::printf("  timing: team of %d exceeds team_size_max %d for this kernel, skipped\n", ts,
                  most);
      continue;
    }
    double best = 1e30;
    for (int rep = 0; rep < 11; ++rep) {
      Kokkos::deep_copy(d, d0);
      Kokkos::fence();
      Kokkos::Timer timer;
      Kokkos::parallel_for("time", policy(1, ts), body);
      Kokkos::fence();
      const double t = timer.seconds();
      if (rep > 0) best = std::min(best, t);
    }
    const auto x = download<T>(d);
    const int info = download<int>(code)[0];
    double err = 0, norm = 0;
    for (index_t i = 0; i < n; ++i) {
      err = std::max(err, std::abs(static_cast<double>(x[i] - ref[i])));
      norm = std::max(norm, std::abs(static_cast<double>(ref[i])));
    }
    ++checks;
    if (info != 0 || !(err / norm <= reduction_tol<T>(n)))
      fail("timing run, team of " + std::to_string(ts) + ": info " + std::to_string(info) +
           ", error " + std::to_string(err / norm / eps<T>()) + " eps");
    std::printf("  timing: n = 2^22 double, one team of %4d: %.3f ms, %.3f ns per unknown "
                "(best of 10), error %.2f eps, info %d\n",
                ts, best * 1e3, best * 1e9 / static_cast<double>(n), err / norm / eps<T>(), info);
  }
}

}  // namespace

int main(int argc, char* argv[]) {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    std::printf("test_device_callable: no CUDA device, nothing tested (skipped)\n");
    return 77;
  }
  bool time = false;
  for (int i = 1; i < argc; ++i) {
    time = time || std::string(argv[i]) == "--time";
    quick = quick || std::string(argv[i]) == "--quick";
  }
  Kokkos::initialize(argc, argv);
  {
    cudaDeviceProp prop;
    cudaGetDeviceProperties(&prop, 0);
    int driver = 0, runtime = 0;
    cudaDriverGetVersion(&driver);
    cudaRuntimeGetVersion(&runtime);
    std::printf("test_device_callable: Kokkos %d.%d.%d, %s (sm_%d%d), CUDA driver %d, runtime %d\n",
                KOKKOS_VERSION / 10000, KOKKOS_VERSION / 100 % 100, KOKKOS_VERSION % 100,
                prop.name, prop.major, prop.minor, driver, runtime);
    both_shapes<double>("double");
    both_shapes<float>("float");
    if (time) timing();
  }
  Kokkos::finalize();
  std::printf("%d checks, %d failed\n", checks, failures);
  return failures == 0 ? 0 : 1;
}
