#pragma once
// Periodic (cyclic) tridiagonal systems along any axis of a 2-D, 3-D or 4-D array, without
// transposing it: host API.
//
//   bandsolve::solve_along(exec, bandsolve::algo::periodic{}, axis, a, b, c, d, info);
//       Every line of d along `axis` is one system a[i] x[i-1] + b[i] x[i] + c[i] x[i+1] = d[i]
//       with indices taken modulo n = d.extent(axis): a[0] multiplies x[n-1] and c[n-1]
//       multiplies x[0] (a grid direction with periodic boundaries). x overwrites d.
//   bandsolve::solve_along_add(exec, bandsolve::algo::periodic{}, axis, a, b, c, d, u, info);
//       u += x in the same pass, d only read (a View of const allowed), u of d's extents and
//       scalar type in any layout: the last sweep of an ADI step. 6 words per unknown full, 3
//       shared (lane_kernel_axis.hpp: the kernel adds each row of x into u as it stores it).
//
// The forms of solve_along(thomas) (thomas_axis.hpp): d of rank 2 to 4 in LayoutRight,
// LayoutLeft or LayoutStride; a, b, c either full arrays of d's extents (any layouts) or rank-1
// Views of length n shared by every line. Scalars: float, double, Kokkos::complex of either;
// over real coefficients d may be Kokkos::complex of their type (the real factors applied to both
// parts). Lines are numbered as for thomas; info(line) = 0, or the 1-based row of the first zero,
// tiny or non-finite pivot, n for the Schur complement of the closing row (solve(periodic)'s
// codes); with shared coefficients every line has the same code. n = 1 and n = 2 fold the
// coefficients as solve(periodic) does. Method: solve(periodic)'s bordering (periodic_kernel.hpp),
// no pivoting. Work is enqueued on exec (one launch) and never fenced here.
// Traffic: full coefficients read a, b, c, d and write x (5 words per unknown, as Thomas); shared
// ones are factored once per pack of lines in its scratch, and only d crosses memory (2 words).
// Backends: the execution space's own, or a trailing backend::device{} (the default on
// Kokkos::Cuda): the lines addressed in place as batches of the device periodic solve
// (along_device.hpp).
//
// Host packing: packs of lines in SIMD lanes, read and written in place (lane_kernel_axis.hpp).
#include <bandsolve/core/algo.hpp>
#include <bandsolve/tridiag/lane_kernel_axis.hpp>
#include <bandsolve/tridiag/periodic_device.hpp>
#include <bandsolve/tridiag/periodic_kernel.hpp>

#include <cstddef>
#include <type_traits>

namespace bandsolve {

namespace detail {

// Solve of the L lanes of d with the factors of one matrix shared by them all
// (periodic_factor_block with one lane: rows 1 apart); y: scratch of n rows of L values.
// periodic_factored_solve_block with the factor indices generalized (entry (i, l) at i * 1 +
// l * 0) measured 0.47-0.48 against 0.41-0.42 ns per unknown along y of a 256^3 cube, so the
// shared factors keep this loop of their own, each factor hoisted out of its row's lanes.
template <class T, class DB, class D>
KOKKOS_INLINE_FUNCTION void periodic_shared_solve_block(index_t n, periodic_factors<const T> f,
                                                        const DB& d, D* y) {
  constexpr int L = DB::width;
  D X[static_cast<std::size_t>(L)];
  if (n == 1) {
    d.load(0, X);
    BANDSOLVE_SIMD
    for (int l = 0; l < L; ++l) X[l] = X[l] * f.r[0];
    d.store(0, X);
    return;
  }
  const index_t m = n - 1;
  for (index_t i = 0; i < m; ++i) {
    d.load(i, X);
    const T r = f.r[i], lo = f.lo[i];
    D* const yi = y + i * L;
    if (i == 0) {
      BANDSOLVE_SIMD
      for (int l = 0; l < L; ++l) yi[l] = r * X[l];
    } else {
      BANDSOLVE_SIMD
      for (int l = 0; l < L; ++l) yi[l] = r * X[l] - lo * yi[l - L];
    }
  }
  for (index_t i = m - 2; i >= 0; --i) {
    const T cp = f.cp[i];
    BANDSOLVE_SIMD
    for (int l = 0; l < L; ++l) y[i * L + l] -= cp * y[(i + 1) * L + l];
  }
  // The closing row holds r = 1/s, lo = a[n-1], c' = c[n-1].
  d.load(n - 1, X);
  const T cl = f.cp[m], al = f.lo[m], rs = f.r[m];
  D xl[static_cast<std::size_t>(L)];
  BANDSOLVE_SIMD
  for (int l = 0; l < L; ++l) xl[l] = (X[l] - cl * y[l] - al * y[(m - 1) * L + l]) * rs;
  d.store(n - 1, xl);
  for (index_t i = 0; i < m; ++i) {
    const T z = f.z[i];
    BANDSOLVE_SIMD
    for (int l = 0; l < L; ++l) X[l] = y[i * L + l] - xl[l] * z;
    d.store(i, X);
  }
}

// The shared_solve of shared_matrix_packs (lane_kernel_axis.hpp): the matrix of the rank-1
// coefficients factored into the four rows after y in the work (`scratch` bytes in all), then
// the lanes x solved with it.
template <class AView, class BView, class CView>
struct periodic_shared_solve {
  AView a;
  BView b;
  CView c;
  using T = typename AView::non_const_value_type;

  template <class D>
  static std::size_t scratch(index_t n, int lanes) {
    return static_cast<std::size_t>(n) *
           (static_cast<std::size_t>(lanes) * sizeof(D) + 4 * sizeof(T));
  }
  template <class X>
  KOKKOS_INLINE_FUNCTION int operator()(index_t n, const X& x, void* work) const {
    using D = typename X::value_type;
    constexpr int L = X::width;
    D* const y = static_cast<D*>(work);
    T* const f = reinterpret_cast<T*>(y + n * L);
    int code = 0;
    periodic_factor_block<1, 1, T, 1>(n, shared_line<T>(a), shared_line<T>(b),
                                      shared_line<T>(c),
                                      periodic_factors<T>{f, f + n, f + 2 * n, f + 3 * n}, &code);
    periodic_shared_solve_block(n, periodic_factors<const T>{f, f + n, f + 2 * n, f + 3 * n}, x,
                                y);
    return code;
  }
};

// The periodic family of lane_family_along (lane_kernel_axis.hpp).
struct periodic_lane_family {
  using block_kernel = periodic_block_kernel;
  template <class T, class D>
  static std::size_t scratch(index_t n, int lanes) {
    return periodic_scratch_bytes<T, D>(n, lanes);
  }
  template <class AView, class BView, class CView>
  using shared_solve = periodic_shared_solve<AView, BView, CView>;
  template <class... Args>
  static void device_solve(const Args&... args) {
    periodic_device_solve(args...);
  }
};

}  // namespace detail

// x overwrites d. See the top of this header. Backend: the execution space's own, or
// backend::device to run the device kernels on any execution space (host spaces included).
template <class ExecutionSpace, class AView, class BView, class CView, class DView, class InfoView,
          class Backend>
std::enable_if_t<backend::is_backend_v<Backend>> solve_along(const ExecutionSpace& exec,
                                                             algo::periodic, int axis,
                                                             const AView& a, const BView& b,
                                                             const CView& c, const DView& d,
                                                             const InfoView& info, Backend) {
  detail::lane_family_along<detail::periodic_lane_family, Backend, false>(
      exec, "bandsolve::solve_along(periodic)", axis, a, b, c, d, d, info);
}

template <class ExecutionSpace, class AView, class BView, class CView, class DView, class InfoView>
void solve_along(const ExecutionSpace& exec, algo::periodic, int axis, const AView& a,
                 const BView& b, const CView& c, const DView& d, const InfoView& info) {
  solve_along(exec, algo::periodic{}, axis, a, b, c, d, info,
              backend::default_for_t<ExecutionSpace>{});
}

// u += x; d is only read (it may be a View of const), u has d's extents and any layout. The
// last sweep of an ADI step. Backend as for solve_along.
template <class ExecutionSpace, class AView, class BView, class CView, class DView, class UView,
          class InfoView, class Backend>
std::enable_if_t<backend::is_backend_v<Backend>> solve_along_add(
    const ExecutionSpace& exec, algo::periodic, int axis, const AView& a, const BView& b,
    const CView& c, const DView& d, const UView& u, const InfoView& info, Backend) {
  detail::lane_family_along<detail::periodic_lane_family, Backend, true>(
      exec, "bandsolve::solve_along_add(periodic)", axis, a, b, c, d, u, info);
}

template <class ExecutionSpace, class AView, class BView, class CView, class DView, class UView,
          class InfoView>
void solve_along_add(const ExecutionSpace& exec, algo::periodic, int axis, const AView& a,
                     const BView& b, const CView& c, const DView& d, const UView& u,
                     const InfoView& info) {
  solve_along_add(exec, algo::periodic{}, axis, a, b, c, d, u, info,
                  backend::default_for_t<ExecutionSpace>{});
}

}  // namespace bandsolve
