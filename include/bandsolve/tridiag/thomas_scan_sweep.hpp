#pragma once
// Thomas's factored solve of one long system with unit row stride, its two recurrences run as
// linear scans across SIMD lanes. With LU factors r = 1/pivot, l = a/pivot, c' = c/pivot the
// sweeps are affine in the previous row:
//
//   forward   y_i = r_i d_i - l_i y_{i-1}      backward   x_i = y_i - c'_i x_{i+1}
//
// so a vector of V consecutive rows composes its V maps in log2(V) steps (each lane takes the
// map of the lane s below it, s = 1, 2, 4, ...) and the block needs the previous block's last
// value only: one multiply-add and one broadcast per V rows on the critical path, where the
// scalar sweep has one multiply-add per row. Every array is read front to back (back to front),
// so the hardware prefetchers follow all of them: 7 words per unknown (r, l, d in, y out; c', y
// in, x out) against the partition method's 8 and its scattered chunks.
//
// Only the order of the additions differs from the scalar sweep (the products of up to V
// multipliers l or c' are formed first); for a system whose multipliers are below 1 in size, as
// in every diagonally dominant one, the results agree to a few units in the last place.
// BANDSOLVE_HAS_SIMD_TRANSPOSE is 0 (device passes, compilers without the vector extension):
// thomas_scan_sweep_available is false and callers keep the scalar sweep.
#include <bandsolve/backend/host_simd/simd_transpose.hpp>
#include <bandsolve/backend/host_simd/tiny_launch.hpp>
#include <bandsolve/backend/host_simd/work_shape.hpp>
#include <bandsolve/core/config.hpp>
#include <bandsolve/layout/row.hpp>
#include <bandsolve/layout/strided.hpp>

#include <cstring>
#include <type_traits>
#include <utility>

namespace bandsolve::detail {

#if BANDSOLVE_HAS_SIMD_TRANSPOSE
inline constexpr bool thomas_scan_sweep_available = true;

// Values of T per scan block: one register of the host's widest vectors.
template <class T>
inline constexpr int scan_lanes_v = host_vector_bytes / static_cast<int>(sizeof(T));

namespace scan {
// Vectors go out by reference: returned by value, GCC warns (-Wpsabi) where the build's vectors
// are narrower than Vec (BANDSOLVE_HOST_VECTOR_BYTES above the target's).

// Lane j of out holds lane j - S of v (Up: lane j + S), and `fill` where that lies outside.
template <int V, int S, bool Up, class Vec, int... J>
BANDSOLVE_SIMD_INLINE void shifted(Vec& out, const Vec& v, const Vec& fill,
                                   std::integer_sequence<int, J...>) {
  // __builtin_shufflevector(v, fill, ...): indices below V pick v, from V on pick fill.
  out = __builtin_shufflevector(
      v, fill, (Up ? (J + S < V ? J + S : V + J) : (J >= S ? J - S : V + J))...);
}
// Every lane of out holds lane K of v.
template <int K, class Vec, int... J>
BANDSOLVE_SIMD_INLINE void broadcast(Vec& out, const Vec& v, std::integer_sequence<int, J...>) {
  out = __builtin_shufflevector(v, v, (J * 0 + K)...);
}

// Composes the affine maps y -> alpha y + beta of the V lanes: lane j ends with the map of lanes
// 0..j applied in order (Up: lanes V-1..j), steps of 1, 2, 4, ... lanes.
template <int V, bool Up, int S = 1, class Vec>
BANDSOLVE_SIMD_INLINE void compose(Vec& alpha, Vec& beta, const Vec& zero, const Vec& one) {
  if constexpr (S < V) {
    constexpr auto lanes = std::make_integer_sequence<int, V>{};
    Vec t;
    shifted<V, S, Up>(t, beta, zero, lanes);
    beta += alpha * t;
    shifted<V, S, Up>(t, alpha, one, lanes);
    alpha *= t;
    compose<V, Up, 2 * S>(alpha, beta, zero, one);
  }
}

template <class Vec, class T>
BANDSOLVE_SIMD_INLINE void load(Vec& v, const T* p) {
  std::memcpy(&v, p, sizeof(Vec));
}
template <class Vec, class T>
BANDSOLVE_SIMD_INLINE void store(T* p, const Vec& v) {
  std::memcpy(p, &v, sizeof(Vec));
}
}  // namespace scan

// The backward scan x_i = y_i - c'_i x_{i+1} over y in d (unit stride, n >= 1), from
// x_{n-1} = y_{n-1} (row n-1's c' is not read): blocks of V rows ending below the carried row,
// the rest at the front one by one. Shared by every factored form whose upper factor is c'.
template <class T>
KOKKOS_INLINE_FUNCTION void scan_backward(index_t n, const T* cp, T* d) {
  constexpr int V = scan_lanes_v<T>;
  using Vec = simd::vec<T, V>;
  constexpr auto lanes = std::make_integer_sequence<int, V>{};
  const Vec zero = Vec{}, one = zero + T(1);
  index_t hi = n - 1;  // rows below hi are still y
  Vec xc = zero + d[n - 1];
  for (; hi - V >= 0; hi -= V) {
    Vec alpha, beta;
    scan::load(alpha, cp + hi - V);
    scan::load(beta, d + hi - V);
    alpha = -alpha;
    scan::compose<V, true>(alpha, beta, zero, one);
    Vec last;
    scan::broadcast<0>(last, xc, lanes);
    xc = beta + alpha * last;
    scan::store(d + hi - V, xc);
  }
  T x = d[hi];
  for (index_t k = hi - 1; k >= 0; --k) d[k] = x = d[k] - cp[k] * x;
}

// Solves one system of n rows in place in d (unit stride) with its factors r, l, c' (unit stride,
// as one_system_packing stores them): the forward scan writes y over d, the backward scan x over
// y. T is float or double.
template <class T>
KOKKOS_INLINE_FUNCTION void thomas_scan_factored_solve(index_t n, const T* r, const T* lo,
                                                       const T* cp, T* d) {
  constexpr int V = scan_lanes_v<T>;
  using Vec = simd::vec<T, V>;
  constexpr auto lanes = std::make_integer_sequence<int, V>{};
  const Vec zero = Vec{}, one = zero + T(1);
  if (n <= 0) return;
  // Forward: l_0 = 0 (factor_first_row), so the carry into row 0 may be 0 like any other.
  Vec carry = zero;
  index_t i = 0;
  for (; i + V <= n; i += V) {
    Vec alpha, beta, di;
    scan::load(alpha, lo + i);
    scan::load(beta, r + i);
    scan::load(di, d + i);
    alpha = -alpha;
    beta *= di;
    scan::compose<V, false>(alpha, beta, zero, one);
    Vec last;
    scan::broadcast<V - 1>(last, carry, lanes);
    carry = beta + alpha * last;
    scan::store(d + i, carry);
  }
  {
    T y = i > 0 ? d[i - 1] : T(0);
    for (; i < n; ++i) d[i] = y = r[i] * d[i] - lo[i] * y;
  }
  scan_backward<T>(n, cp, d);
}
#else
inline constexpr bool thomas_scan_sweep_available = false;
template <class T>
KOKKOS_INLINE_FUNCTION void scan_backward(index_t, const T*, T*) {}
template <class T>
KOKKOS_INLINE_FUNCTION void thomas_scan_factored_solve(index_t, const T*, const T*, const T*, T*) {}
#endif

// Rows from which Thomas's factorization of gathered real systems with unit row stride (row
// layout, strided rows) stores one system per pack, for the scans, however many systems there
// are. Row doubles at 2^24 unknowns, 2 threads, 2-vCPU AMD EPYC Zen 5 (probe of
// thomas_factorization::solve), ns per unknown, the packs stored before / the scans: 2^14 rows
// 0.84-0.90 / 0.93, 2^15 0.86-0.90 / 0.83, 2^16 0.87-0.88 / 0.81, 2^18 0.69-0.79 / 0.74, 2^19
// 1.52-1.67 / 0.75, 2^20 1.24-1.55 / 0.70-0.72, 2^21 2.62-3.14 / 0.73, 2^22 (4 systems, the
// partition method) 1.71-1.73 / 0.70-0.74; floats 2^16 0.37 / 0.37, 2^18 0.42-0.43 / 0.35, 2^20
// 2.02 / 0.34, 2^22 1.53-2.12 / 0.38 (docs/performance.md).
inline constexpr index_t thomas_scan_min_rows = index_t(1) << 16;

// Whether Thomas's factorization stores scalar T of n rows one system per pack for the scans:
// gathered rows (not lane-contiguous) with unit row stride in row or strided layout.
template <class Layout, class T>
constexpr bool thomas_scan_rows(index_t n, bool lanes, bool unit_rows) {
  return thomas_scan_sweep_available &&
         (std::is_same_v<T, float> || std::is_same_v<T, double>) &&
         (std::is_same_v<Layout, layout::row> || std::is_same_v<Layout, layout::strided>) &&
         !lanes && unit_rows && n >= thomas_scan_min_rows;
}

// Whether the scans can solve right-hand sides of type D in Layout on factors of Scalar: real
// values of the factored type in row layout or strided Views.
template <class Layout, class Scalar, class D>
inline constexpr bool thomas_scan_solvable_v =
    thomas_scan_sweep_available && std::is_same_v<D, Scalar> &&
    (std::is_same_v<D, float> || std::is_same_v<D, double>) &&
    (std::is_same_v<Layout, layout::row> || std::is_same_v<Layout, layout::strided>);

// Whether thomas_factorization::solve runs the scans on factors of one system per pack: d of a
// solvable type, whatever its strides (so that the solution does not depend on them).
template <class Layout, class Scalar, class DView>
constexpr bool thomas_scan_solves() {
  return thomas_scan_solvable_v<Layout, Scalar, typename DView::non_const_value_type>;
}

// A factored solve by the scans, one system per work item: system(s, x) solves system s in
// place in x (unit stride, n values). Its right-hand side d(s, 0 .. n-1) is solved in place where
// its rows have unit stride, else gathered into n values of scratch and back.
template <class ExecutionSpace, class DView, class System>
void scan_solve_launch(const ExecutionSpace& exec, const char* label, const DView& d, index_t n,
                       index_t nsys, const System& system) {
  using T = typename DView::non_const_value_type;
  const bool unit_rows = d.stride(1) == 1;
  const std::size_t scratch = unit_rows ? 0 : static_cast<std::size_t>(n) * sizeof(T);
  for_each_pack_or_inline(
      exec, label, nsys, scratch, runs_inline(nsys, n * nsys),
      KOKKOS_LAMBDA(const index_t s, void* work) {
        if (unit_rows) {
          system(s, &d(s, 0));
          return;
        }
        T* const x = static_cast<T*>(work);
        for (index_t i = 0; i < n; ++i) x[i] = d(s, i);
        system(s, x);
        for (index_t i = 0; i < n; ++i) d(s, i) = x[i];
      });
}

// One system of Thomas's factors (one_system_packing: r(s, 0, 0) .. r(s, n-1, 0)) by the scans.
template <class T, class FactorView>
struct thomas_scan_system {
  FactorView r, lo, cp;
  index_t n;
  KOKKOS_INLINE_FUNCTION void operator()(index_t s, T* x) const {
    thomas_scan_factored_solve<T>(n, &r(s, 0, 0), &lo(s, 0, 0), &cp(s, 0, 0), x);
  }
};

// thomas_factorization::solve with the scans, on factors of one system per pack.
template <class ExecutionSpace, class DView, class FactorView>
void thomas_scan_solve_launch(const ExecutionSpace& exec, const DView& d, const FactorView& r,
                              const FactorView& lo, const FactorView& cp, index_t n,
                              index_t nsys) {
  using T = typename DView::non_const_value_type;
  // Instantiated for every right-hand side the factored solve takes; runs for the solvable ones.
  if constexpr (DView::rank == 2 && std::is_same_v<T, typename FactorView::non_const_value_type> &&
                (std::is_same_v<T, float> || std::is_same_v<T, double>))
    scan_solve_launch(exec, "bandsolve::thomas_factorization::solve", d, n, nsys,
                      thomas_scan_system<T, FactorView>{r, lo, cp, n});
}

}  // namespace bandsolve::detail
