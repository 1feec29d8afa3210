#pragma once
// Periodic (cyclic) tridiagonal systems along any axis of a 2-D, 3-D or 4-D array, without
// transposing it: host API.
//
//   bandsolve::solve_along(exec, bandsolve::algo::periodic{}, axis, a, b, c, d, info);
//       Every line of d along `axis` is one system a[i] x[i-1] + b[i] x[i] + c[i] x[i+1] = d[i]
//       with indices taken modulo n = d.extent(axis): a[0] multiplies x[n-1] and c[n-1]
//       multiplies x[0] (a grid direction with periodic boundaries). x overwrites d.
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
// Host packing (layout/axis.hpp): packs of lines along the batch axis of smallest stride, one
// SIMD lane per line and 128 bytes of lanes per row (lane_block_width_v), each row of a pack one
// contiguous run where that axis has unit stride in every full array, else each lane read on its
// own (the lines are contiguous rows when the solve axis has unit stride).
#include <bandsolve/backend/host_simd/lane_block.hpp>
#include <bandsolve/backend/host_simd/launch.hpp>
#include <bandsolve/core/algo.hpp>
#include <bandsolve/core/checks.hpp>
#include <bandsolve/layout/axis.hpp>
#include <bandsolve/tridiag/along_device.hpp>
#include <bandsolve/tridiag/periodic_device.hpp>
#include <bandsolve/tridiag/periodic_kernel.hpp>
#include <bandsolve/tridiag/thomas_axis.hpp>

#include <string>
#include <type_traits>

namespace bandsolve {

namespace detail {

// Solve of the L lanes of d with the factors of one matrix shared by them all
// (periodic_factor_block with one lane: rows 1 apart); y: scratch of n rows of L values.
template <int L, int WG, class T, class D>
KOKKOS_INLINE_FUNCTION void periodic_shared_solve_block(index_t n, periodic_factors<const T> f,
                                                        const lane_block<D, L, WG>& d, D* y) {
  D X[L];
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
  D xl[L];
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

template <class ExecutionSpace, class AView, class BView, class CView, class DView,
          class InfoView>
constexpr void periodic_along_static_checks() {
  using T = typename AView::non_const_value_type;
  using D = typename DView::non_const_value_type;
  constexpr int rank = static_cast<int>(DView::rank);
  static_assert(Kokkos::is_execution_space<ExecutionSpace>::value,
                "bandsolve::solve_along(periodic): the first argument must be a Kokkos "
                "execution space instance");
  static_assert(Kokkos::is_view<AView>::value && Kokkos::is_view<BView>::value &&
                    Kokkos::is_view<CView>::value && Kokkos::is_view<DView>::value,
                "bandsolve::solve_along(periodic): a, b, c and d must be Kokkos::Views");
  static_assert(rank >= 2 && rank <= max_axis_rank,
                "bandsolve::solve_along(periodic): d must be a View of rank 2, 3 or 4");
  static_assert(std::is_same_v<typename DView::value_type, D>,
                "bandsolve::solve_along(periodic): d receives the solution and cannot be a View "
                "of const");
  static_assert((AView::rank == 1 && BView::rank == 1 && CView::rank == 1) ||
                    (static_cast<int>(AView::rank) == rank &&
                     static_cast<int>(BView::rank) == rank &&
                     static_cast<int>(CView::rank) == rank),
                "bandsolve::solve_along(periodic): a, b and c must all be rank-1 Views of length "
                "n (coefficients shared by every line) or all have the rank of d (one matrix per "
                "line)");
  static_assert(is_supported_scalar_v<T>,
                "bandsolve::solve_along(periodic): the scalar type must be float, double, "
                "Kokkos::complex<float> or Kokkos::complex<double>");
  static_assert(std::is_same_v<typename BView::non_const_value_type, T> &&
                    std::is_same_v<typename CView::non_const_value_type, T> && is_rhs_of_v<T, D>,
                "bandsolve::solve_along(periodic): a, b, c must have one scalar type, and d the "
                "same one or Kokkos::complex of real coefficients' type");
  static_assert(Kokkos::is_view<InfoView>::value && InfoView::rank == 1 &&
                    std::is_same_v<typename InfoView::value_type, int>,
                "bandsolve::solve_along(periodic): info must be a rank-1 Kokkos::View<int*>");
  static_assert(
      Kokkos::SpaceAccessibility<ExecutionSpace, typename AView::memory_space>::accessible &&
          Kokkos::SpaceAccessibility<ExecutionSpace, typename BView::memory_space>::accessible &&
          Kokkos::SpaceAccessibility<ExecutionSpace, typename CView::memory_space>::accessible &&
          Kokkos::SpaceAccessibility<ExecutionSpace, typename DView::memory_space>::accessible &&
          Kokkos::SpaceAccessibility<ExecutionSpace,
                                     typename InfoView::memory_space>::accessible,
      "bandsolve::solve_along(periodic): the Views must be accessible from the execution space");
  (void)sizeof(backend::default_for_t<ExecutionSpace>);
}

// The lanes of pack k of a full array v (strides st) as a lane block.
template <class T, int L, class View>
KOKKOS_INLINE_FUNCTION lane_block<T, L, L> along_lane_block(const View& v, const nd_strides& st,
                                                            const line_packs& g,
                                                            const line_pack& k) {
  return lane_block<T, L, L>(v.data() + g.offset(st, k), st.s[g.lane_axis], st.s[g.axis],
                             k.lanes);
}

// The host backends' solve of every line (n >= 1 rows, arguments checked): one work item per
// pack of L lines, solve(periodic)'s lane kernel on the pack in place; shared coefficients
// factored once per pack into its scratch.
template <class ExecutionSpace, class AView, class BView, class CView, class DView,
          class InfoView>
void periodic_along_host(const ExecutionSpace& exec, const char* function, int axis,
                         const AView& a, const BView& b, const CView& c, const DView& d,
                         const InfoView& info, index_t n) {
  using T = typename AView::non_const_value_type;  // coefficients and factors
  using D = typename DView::non_const_value_type;
  constexpr bool shared = AView::rank == 1;
  constexpr int L = lane_block_width_v<D>;
  const along_plan plan = plan_along<L, L>(d, axis, a, b, c);
  const line_packs g = plan.g;
  const nd_strides sa = strides_of(a), sb = strides_of(b), sc = strides_of(c),
                   sd = strides_of(d);
  // Scratch: y (n rows of L values of D) first, then c' and z of the lanes (full coefficients)
  // or the four factor rows of the shared matrix.
  const std::size_t y_bytes = static_cast<std::size_t>(n) * L * sizeof(D);
  const std::size_t scratch = shared ? y_bytes + 4 * static_cast<std::size_t>(n) * sizeof(T)
                                     : periodic_scratch_bytes<T, D>(n, L);
  for_each_pack(
      exec, function, g.npacks, scratch, KOKKOS_LAMBDA(const index_t p, void* work) {
        // Named here first: nvcc rejects an extended lambda whose first use of a captured
        // variable is inside an if constexpr.
        (void)a, (void)b, (void)c, (void)sa, (void)sb, (void)sc, (void)y_bytes;
        const line_pack k = g.pack(p);
        const lane_block<D, L, L> x = along_lane_block<D, L>(d, sd, g, k);
        int codes[L];
        if constexpr (shared) {
          T* const f = reinterpret_cast<T*>(static_cast<char*>(work) + y_bytes);
          const auto line = [&](const auto& v) {
            return lane_block<const T, 1, 1>(v.data(), 0, static_cast<index_t>(v.stride(0)), 1);
          };
          int code = 0;
          periodic_factor_block<1, 1, T, 1>(n, line(a), line(b), line(c),
                                            periodic_factors<T>{f, f + n, f + 2 * n, f + 3 * n},
                                            &code);
          periodic_shared_solve_block(
              n, periodic_factors<const T>{f, f + n, f + 2 * n, f + 3 * n}, x,
              static_cast<D*>(work));
          for (int l = 0; l < L; ++l) codes[l] = code;
        } else {
          periodic_solve_block(n, along_lane_block<const T, L>(a, sa, g, k),
                               along_lane_block<const T, L>(b, sb, g, k),
                               along_lane_block<const T, L>(c, sc, g, k), x, work, codes);
        }
        const index_t s0 = g.first_system(k);
        for (int l = 0; l < k.lanes; ++l) info(s0 + l * g.lane_system_stride) = codes[l];
      });
}

// The checks, then the backend's solve.
template <class Backend, class ExecutionSpace, class AView, class BView, class CView, class DView,
          class InfoView>
void periodic_along(const ExecutionSpace& exec, int axis, const AView& a, const BView& b,
                    const CView& c, const DView& d, const InfoView& info) {
  periodic_along_static_checks<ExecutionSpace, AView, BView, CView, DView, InfoView>();
  static_assert(backend::is_backend_v<Backend>,
                "bandsolve::solve_along(periodic): the last argument must be a backend tag "
                "(backend::device, or the execution space's own)");
  const char* function = "bandsolve::solve_along(periodic)";
  const std::string fn = function;
  constexpr int rank = static_cast<int>(DView::rank);
  if (axis < 0 || axis >= rank)
    throw_invalid_argument(fn, "axis = ", axis, " but d has rank ", rank, " (axes 0 to ",
                           rank - 1, ")");
  check_along_coefficient(fn, "a", a, d, axis, "d", d);
  check_along_coefficient(fn, "b", b, d, axis, "d", d);
  check_along_coefficient(fn, "c", c, d, axis, "d", d);
  check_no_overlap(fn, "d", d, "info", info);
  const index_t n = static_cast<index_t>(d.extent(axis));
  const std::size_t nsys = check_along_lines(fn, axis, d, info);
  if (nsys == 0) return;
  if (n == 0) {
    Kokkos::deep_copy(exec, info, 0);
    return;
  }
  if constexpr (std::is_same_v<Backend, backend::device>) {
    // The lines addressed in place as batches of the device solve (along_device.hpp).
    using T = typename AView::non_const_value_type;
    using D = typename DView::non_const_value_type;
    for_each_line_batch(
        axis, d, info, static_cast<index_t>(nsys),
        [&](const along_launch& l, const InfoView& codes, index_t lines) {
          periodic_device_solve(exec, l.lines<const T>(a), l.lines<const T>(b),
                                l.lines<const T>(c), l.lines<D>(d), codes, n, lines);
        },
        a, b, c);
  } else {
    static_assert(std::is_same_v<Backend, backend::default_for_t<ExecutionSpace>>,
                  "bandsolve::solve_along(periodic): a host backend runs only on its own "
                  "execution space");
    periodic_along_host(exec, function, axis, a, b, c, d, info, n);
  }
}

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
  detail::periodic_along<Backend>(exec, axis, a, b, c, d, info);
}

template <class ExecutionSpace, class AView, class BView, class CView, class DView, class InfoView>
void solve_along(const ExecutionSpace& exec, algo::periodic, int axis, const AView& a,
                 const BView& b, const CView& c, const DView& d, const InfoView& info) {
  solve_along(exec, algo::periodic{}, axis, a, b, c, d, info,
              backend::default_for_t<ExecutionSpace>{});
}

}  // namespace bandsolve
