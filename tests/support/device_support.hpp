#pragma once
// Helpers of the device backend tests: the execution spaces a device kernel runs on, batches in
// every layout over one allocation (strided Views with gaps holding NaN sentinels) copied to and
// from the host, comparisons, and general tridiagonal batches with their host and LAPACK
// references. Systems on the host are in plain row order (system s, row i at s * n + i).
#include "test_support.hpp"

#include <bandsolve/backend/device/launch.hpp>

#include <cmath>
#include <complex>
#include <cstdint>
#include <limits>
#include <random>
#include <type_traits>
#include <vector>

namespace devtest {

namespace bl = bandsolve::layout;
using bandsolve::index_t;

using device_tag = bandsolve::backend::device;
using host_exec = Kokkos::DefaultHostExecutionSpace;

template <class R>
using cplx = Kokkos::complex<R>;

// Execution spaces the device backend runs on in this test: the default space, and Kokkos::Serial
// where the default is a device (a CUDA build then also runs the kernels on the host). A host
// build runs them once, on its default host space: a second host space compiled the same kernels
// again for no new path (test_families_device: 134 against 103 CPU s at -O2).
template <class F>
void for_each_device_exec(F&& f) {
  f(Kokkos::DefaultExecutionSpace());
#if defined(KOKKOS_ENABLE_SERIAL)
  if constexpr (!std::is_same_v<Kokkos::DefaultExecutionSpace,
                                Kokkos::DefaultHostExecutionSpace>)
    f(Kokkos::Serial());
#endif
}

// Whether the device kernels run here in a GPU's teams of 32 threads on a threaded host space
// (BANDSOLVE_DEVICE_TEAMS_ON_HOST, set by tests/CMakeLists.txt): every team barrier then waits
// for 32 threads to take turns on the cores (about 0.1 ms on 2), so the long-system cases, whose
// sizes add time and not paths, take fewer of them there.
inline constexpr bool gpu_teams_on_host =
    std::is_same_v<Kokkos::DefaultExecutionSpace::memory_space, Kokkos::HostSpace> &&
    bandsolve::detail::device::team_threads<Kokkos::DefaultExecutionSpace>() > 1;

template <class T>
T random_scalar(std::mt19937& gen) {
  bstest::uniform_real u(-1.0, 1.0);
  using R = bandsolve::real_type_t<T>;
  if constexpr (bandsolve::is_complex_v<T>)
    return T(static_cast<R>(u(gen)), static_cast<R>(u(gen)));
  else
    return static_cast<T>(u(gen));
}

template <class T>
double mag(const T& x) {
  if constexpr (bandsolve::is_complex_v<T>)
    return std::abs(std::complex<double>(double(x.real()), double(x.imag())));
  else
    return std::abs(double(x));
}

// ---------------------------------------------------------------------------------------------
// Views in every layout over one allocation (so strided Views can have gaps holding sentinels),
// with a host mirror of the allocation and a host View of the same shape over it.

enum class strides { plain, padded_rows, unit_system_stride, neither_unit };

template <class Layout, class T, class Mem>
struct view_of {
  using type = typename Layout::template view_type<T, Mem>;
};
template <class T, class Mem>
struct view_of<bl::strided, T, Mem> {
  using type = Kokkos::View<T**, Kokkos::LayoutStride, Mem>;
};

template <class Layout, class T, class Mem>
struct stored {
  using view_type = Kokkos::View<typename view_of<Layout, T, Mem>::type::data_type,
                                 typename view_of<Layout, T, Mem>::type::array_layout, Mem,
                                 Kokkos::MemoryTraits<Kokkos::Unmanaged>>;
  using host_view_type =
      Kokkos::View<typename view_type::data_type, typename view_type::array_layout,
                   Kokkos::HostSpace, Kokkos::MemoryTraits<Kokkos::Unmanaged>>;
  Kokkos::View<T*, Mem> storage;
  typename Kokkos::View<T*, Mem>::HostMirror host_storage;
  view_type view;
  host_view_type host;
  std::vector<bool> covered;  // storage elements that belong to the View
};

template <class Layout, class T, class ViewType>
ViewType make_view(T* data, std::size_t nsys, std::size_t n, strides kind, std::size_t& span) {
  if constexpr (std::is_same_v<Layout, bl::strided>) {
    std::size_t offset = 0, ss = 0, si = 0;
    if (kind == strides::padded_rows) offset = 1, ss = n + 3, si = 1;
    else if (kind == strides::unit_system_stride) offset = 2, ss = 1, si = nsys + 5;
    else offset = 0, ss = 2, si = 2 * nsys + 1;
    span = offset + (nsys - 1) * ss + (n - 1) * si + 1;
    return ViewType(data ? data + offset : nullptr, Kokkos::LayoutStride(nsys, ss, n, si));
  } else if constexpr (std::is_same_v<Layout, bl::row> || std::is_same_v<Layout, bl::column>) {
    span = nsys * n;
    return ViewType(data, nsys, n);
  } else {
    const std::size_t packs = (nsys + Layout::width - 1) / Layout::width;
    span = packs * n * Layout::width;
    return ViewType(data, packs, n);
  }
}

template <class Layout, class T, class Mem>
stored<Layout, T, Mem> store(const std::vector<T>& h, std::size_t nsys, std::size_t n,
                             strides kind) {
  using S = stored<Layout, T, Mem>;
  std::size_t span = 0;
  make_view<Layout, T, typename S::host_view_type>(nullptr, nsys, n, kind, span);
  // Every View built where it is declared (docs/development.md: Kokkos 4.6-develop with GCC 12).
  const Kokkos::View<T*, Mem> storage("storage", span);
  const auto host_storage = Kokkos::create_mirror_view(storage);
  S s{storage, host_storage,
      make_view<Layout, T, typename S::view_type>(storage.data(), nsys, n, kind, span),
      make_view<Layout, T, typename S::host_view_type>(host_storage.data(), nsys, n, kind, span),
      std::vector<bool>(span, false)};
  const T sentinel = T(std::numeric_limits<bandsolve::real_type_t<T>>::quiet_NaN());
  for (std::size_t k = 0; k < span; ++k) s.host_storage(k) = sentinel;
  const std::size_t slots = bandsolve::capacity(s.host);
  for (std::size_t sy = 0; sy < slots; ++sy)
    for (std::size_t i = 0; i < n; ++i) {
      T& e = bandsolve::at(s.host, index_t(sy), index_t(i));
      e = sy < nsys ? h[sy * n + i] : T(1);  // padding lanes of interleaved packs: identity rows
      s.covered[static_cast<std::size_t>(&e - s.host_storage.data())] = true;
    }
  Kokkos::deep_copy(s.storage, s.host_storage);
  return s;
}

// The first nsys systems back in row order; false if an element outside the View changed.
template <class S>
auto fetch(const S& s, std::size_t nsys, std::size_t n, bool* gaps_intact = nullptr) {
  Kokkos::deep_copy(s.host_storage, s.storage);
  using T = typename S::host_view_type::non_const_value_type;
  std::vector<T> h(nsys * n);
  for (std::size_t sy = 0; sy < nsys; ++sy)
    for (std::size_t i = 0; i < n; ++i) h[sy * n + i] = bandsolve::at(s.host, index_t(sy), index_t(i));
  if (gaps_intact) {
    *gaps_intact = true;
    for (std::size_t k = 0; k < s.covered.size(); ++k)
      if (!s.covered[k] && mag(s.host_storage(k)) == mag(s.host_storage(k))) *gaps_intact = false;
  }
  return h;
}


// max over systems of max_i |x_i - y_i| / max_i |y_i| (infinite for a non-finite x).
template <class D>
double max_rel_diff(const std::vector<D>& x, const std::vector<D>& y, std::size_t nsys,
                    std::size_t n) {
  double worst = 0;
  for (std::size_t s = 0; s < nsys; ++s) {
    double diff = 0, ynorm = 0;
    for (std::size_t i = 0; i < n; ++i) {
      const double xi = mag(x[s * n + i]);
      if (!std::isfinite(xi)) return std::numeric_limits<double>::infinity();
      diff = std::max(diff, mag(x[s * n + i] - y[s * n + i]));
      ynorm = std::max(ynorm, mag(y[s * n + i]));
    }
    worst = std::max(worst, diff / std::max(ynorm, 1e-300));
  }
  return worst;
}

template <class T>
double eps_of() {
  return double(std::numeric_limits<bandsolve::real_type_t<T>>::epsilon());
}


// ---------------------------------------------------------------------------------------------
// General tridiagonal batches on the host in plain row order, and their references.

template <class C, class D>
struct tridiag_batch {
  std::size_t nsys = 0, n = 0;
  std::vector<C> a, b, c;
  std::vector<D> d;
};

// The host Thomas (row layout, host space, the execution space's own backend) on right-hand
// sides rhs.
template <class C, class D>
std::vector<D> host_thomas(const tridiag_batch<C, D>& p, const std::vector<D>& rhs,
                           std::vector<int>& info) {
  using mem = Kokkos::HostSpace;
  auto a = bstest::to_device<bl::row, C, mem>("a", p.a, p.nsys, p.n);
  auto b = bstest::to_device<bl::row, C, mem>("b", p.b, p.nsys, p.n);
  auto c = bstest::to_device<bl::row, C, mem>("c", p.c, p.nsys, p.n);
  auto d = bstest::to_device<bl::row, D, mem>("d", rhs, p.nsys, p.n);
  auto inf = bstest::make_info<mem>(p.nsys);
  bandsolve::solve(host_exec(), bandsolve::algo::thomas{}, a, b, c, d, inf);
  host_exec().fence();
  info = bstest::info_to_host(inf);
  return bstest::to_host(d, p.nsys);
}

// LAPACK ?gtsv on real coefficients (a_0 and c_{n-1} taken as 0, whatever they hold), for real
// right-hand sides or the real and imaginary parts of complex ones.
template <class C, class D>
std::vector<D> lapack_thomas(const tridiag_batch<C, D>& p, const std::vector<D>& rhs) {
  static_assert(!bandsolve::is_complex_v<C>);
  bstest::host_batch<C> h(p.nsys, p.n);
  h.a = p.a, h.b = p.b, h.c = p.c;
  for (std::size_t s = 0; s < p.nsys; ++s) h.a[s * p.n] = C(0), h.c[s * p.n + p.n - 1] = C(0);
  if constexpr (std::is_same_v<C, D>) {
    return bstest::reference_solve(h, &rhs);
  } else {
    std::vector<C> re(rhs.size()), im(rhs.size());
    for (std::size_t k = 0; k < rhs.size(); ++k) re[k] = rhs[k].real(), im[k] = rhs[k].imag();
    const auto xr = bstest::reference_solve(h, &re), xi = bstest::reference_solve(h, &im);
    std::vector<D> x(rhs.size());
    for (std::size_t k = 0; k < rhs.size(); ++k) x[k] = D(xr[k], xi[k]);
    return x;
  }
}

}  // namespace devtest
