#pragma once
// Batches whose off-diagonals are shared and whose diagonal differs per system, with modified
// first and last rows: the systems left along z by FFTs in x and y (docs/algorithms.md,
// "Shared off-diagonals").
//
//   auto m = bandsolve::make_shared_offdiag(lower, upper, first_upper, last_lower, diagonal);
//   bandsolve::solve(exec, bandsolve::algo::shared_offdiag{}, m, d, info);            // report
//   bandsolve::solve(exec, bandsolve::algo::shared_offdiag{}, m, d, info,
//                    bandsolve::shared_offdiag_options{bandsolve::singular_last_row::pin, 0.0});
//
// Row i of system s: a_i x[i-1] + diagonal(s, i) x[i] + c_i x[i+1] = d[i] with
// a_i = lower (last_lower on row n-1), c_i = upper (first_upper on row 0). `diagonal` is a functor
// callable in kernels, (index_t s, index_t i) -> Real, so coefficients are generated on the fly
// and only d crosses memory; diagonal_from(view) reads them from a batch View instead.
// d: any layout of layout/, of float, double, Kokkos::complex<float> or Kokkos::complex<double>;
// Real (the type of the coefficients) carries the pivot chain: double coefficients with float
// data run the pivots and the recurrences in double and round only the stored values.
// A pivot that is zero, not finite, or below 16 eps (|b_i| + |a_i c'_{i-1}|) (cancellation, as in
// the zero Fourier mode of a Neumann problem) gives info(s) = its 1-based row; with
// singular_last_row::pin such a pivot on the last row instead pins x[n-1] = pin_value (the
// solution of a singular Neumann system is defined up to a constant) and info(s) stays 0.
// No pivoting. Work is enqueued on exec and never fenced; no allocation (the device backend
// allocates one buffer per call only for c' rows too long for team scratch).
// Backends: the execution space's own (backend::default_for_t: serial, openmp_simd, device on
// Kokkos::Cuda), or a trailing backend::device{} argument (after the options, or instead of
// them), which runs a thread per system on any execution space (shared_offdiag_device.hpp).
#include <bandsolve/backend/host_simd/lane_access.hpp>
#include <bandsolve/backend/host_simd/launch.hpp>
#include <bandsolve/backend/host_simd/work_shape.hpp>
#include <bandsolve/core/algo.hpp>
#include <bandsolve/core/checks.hpp>
#include <bandsolve/core/pivot.hpp>
#include <bandsolve/toeplitz/shared_offdiag_device.hpp>

#include <cfloat>
#include <string>
#include <type_traits>

namespace bandsolve {

enum class singular_last_row { report, pin };

struct shared_offdiag_options {
  singular_last_row singular = singular_last_row::report;
  double pin_value = 0;
};

template <class Real, class Diagonal>
struct shared_offdiag_matrix {
  Real lower, upper, first_upper, last_lower;
  Diagonal diagonal;
};

template <class Real, class Diagonal>
shared_offdiag_matrix<Real, Diagonal> make_shared_offdiag(Real lower, Real upper, Real first_upper,
                                                          Real last_lower, Diagonal diagonal) {
  static_assert(std::is_same_v<Real, float> || std::is_same_v<Real, double>,
                "bandsolve::make_shared_offdiag: the coefficients must be float or double");
  return {lower, upper, first_upper, last_lower, diagonal};
}

// The diagonal read from a batch View (any layout of layout/): b(s, i).
template <class View>
struct diagonal_view {
  View b;
  KOKKOS_INLINE_FUNCTION typename View::non_const_value_type operator()(index_t s, index_t i) const {
    return at(b, s, i);
  }
};
template <class View>
diagonal_view<View> diagonal_from(const View& b) {
  static_assert(is_batch_view_v<View>, "bandsolve::diagonal_from: " BANDSOLVE_SUPPORTED_VIEWS);
  return {b};
}

namespace detail {

template <class T>
struct real_of {
  using type = T;
};
template <class T>
struct real_of<Kokkos::complex<T>> {
  using type = T;
};

// The type the recurrences run in: the data's kind (real or complex) in the wider of the data's
// and the coefficients' precision.
template <class Scalar, class Real>
struct work_type {
  using type = std::common_type_t<Scalar, Real>;
};
template <class T, class Real>
struct work_type<Kokkos::complex<T>, Real> {
  using type = Kokkos::complex<std::common_type_t<T, Real>>;
};

// A diagonal read from a View (diagonal_from) must cover d's nsys systems of n rows, and d must
// not overlap it: the sweeps write d while they read the diagonal. Other functors are the
// caller's to size.
template <class Diagonal, class DView>
void check_diagonal(const std::string&, const Diagonal&, const DView&, index_t, index_t) {}
template <class View, class DView>
void check_diagonal(const std::string& fn, const diagonal_view<View>& diagonal, const DView& d,
                    index_t nsys, index_t n) {
  if (rows(diagonal.b) != static_cast<std::size_t>(n))
    throw_invalid_argument(fn, "the diagonal (diagonal_from) has ", rows(diagonal.b),
                           " rows but d has ", n);
  if (capacity(diagonal.b) < static_cast<std::size_t>(nsys))
    throw_invalid_argument(fn, "the diagonal (diagonal_from) holds ", capacity(diagonal.b),
                           " systems but d holds ", nsys);
  check_no_overlap(fn, "d", d, "the diagonal (diagonal_from)", diagonal.b);
}

template <class T>
inline constexpr bool is_supported_data_v =
    std::is_same_v<T, float> || std::is_same_v<T, double> ||
    std::is_same_v<T, Kokkos::complex<float>> || std::is_same_v<T, Kokkos::complex<double>>;

// The host backends' sweep (called by solve after its argument checks): SIMD across the lanes
// of each work item, c' in per-item scratch.
template <class ExecutionSpace, class Real, class Diagonal, class DView, class InfoView>
void shared_offdiag_host_solve(const ExecutionSpace& exec,
                               const shared_offdiag_matrix<Real, Diagonal>& m, const DView& d,
                               const InfoView& info, const shared_offdiag_options& options,
                               index_t nsys, index_t n) {
  using Layout = layout_of_t<DView>;
  using Scalar = typename DView::value_type;
  using Work = typename work_type<Scalar, Real>::type;
  // Two cache lines of values per row in row layout (each lane a system's own stream); four for
  // complex d elsewhere, where a row's lanes are side by side: column batches of complex<double>
  // measured 2.7 against 5.2 ns per unknown with 8 lanes (n = 256, 32768 systems, 2 threads).
  constexpr int lanes = std::is_same_v<Layout, layout::row> ? two_line_lanes_v<Scalar>
                                                              : two_line_lanes_v<real_type_t<Scalar>>;
  constexpr int L = item_lanes<Layout, lanes>();
  constexpr auto lane_count = static_cast<std::size_t>(L);  // an array bound
  const index_t slots = static_cast<index_t>(capacity(d));
  const bool pin = options.singular == singular_last_row::pin;
  const Work pin_value = Work(static_cast<Real>(options.pin_value));
  const Real lower = m.lower, upper = m.upper, first_upper = m.first_upper,
             last_lower = m.last_lower;
  const Diagonal diagonal = m.diagonal;
  constexpr Real cancel = Real(16) * (sizeof(Real) == 4 ? Real(FLT_EPSILON) : Real(DBL_EPSILON));
  for_each_pack(
      exec, "bandsolve::solve(shared_offdiag)", work_items<Layout, lanes>(slots),
      static_cast<std::size_t>(n + 1) * L * sizeof(Real), KOKKOS_LAMBDA(const index_t p, void* work) {
        const int nl = static_cast<int>(slots - p * L < L ? slots - p * L : L);
        // c'_i of lane l at cp[(i + 1)*L + l]; row 0 holds zeros (c'_{-1}: no row above row 0).
        Real* cp = static_cast<Real*>(work);
        for (int l = 0; l < L; ++l) cp[l] = Real(0);
        // By value: the lane loops then see local pointers and constants (no reloads through a
        // captured reference, which kept them from vectorizing).
        with_lane_block(lanes_of<Layout, L>(d, p), [=](const auto& x) {
          Work y[lane_count];
          int code[lane_count];
          for (int l = 0; l < L; ++l) {
            y[l] = Work(0);
            code[l] = 0;
          }
          for (index_t i = 0; i < n; ++i) {
            const Real a = i == 0 ? Real(0) : (i + 1 == n ? last_lower : lower);
            const Real c = i + 1 == n ? Real(0) : (i == 0 ? first_upper : upper);
            const bool pin_here = pin && i + 1 == n;
            const int row = static_cast<int>(i + 1);
            BANDSOLVE_SIMD
            for (int l = 0; l < nl; ++l) {
              const index_t s = p * L + l < nsys ? p * L + l : nsys - 1;  // padding lanes: a copy
              const Real b = static_cast<Real>(diagonal(s, i));
              const Real ac = a * cp[i * L + l];
              const Real pivot = b - ac;
              const Real r = Real(1) / pivot;
              cp[(i + 1) * L + l] = c * r;
              // Bitwise & and | (no short-circuit branches) keep the lane loop vectorizable.
              const bool bad = (int(!pivot_is_good(pivot)) |
                                int(magnitude(pivot) <=
                                    cancel * (magnitude(b) + magnitude(ac)))) != 0;
              const Work solved = (Work(x(l, i)) - a * y[l]) * r;
              y[l] = (bad & pin_here) ? pin_value : solved;
              code[l] = ((code[l] == 0) & bad & !pin_here) ? row : code[l];
              x(l, i) = Scalar(y[l]);
            }
          }
          for (index_t i = n - 2; i >= 0; --i) {
            BANDSOLVE_SIMD
            for (int l = 0; l < nl; ++l) {
              y[l] = Work(x(l, i)) - cp[(i + 1) * L + l] * y[l];
              x(l, i) = Scalar(y[l]);
            }
          }
          for (int l = 0; l < nl && p * L + l < nsys; ++l) info(p * L + l) = code[l];
        });
      });
}

}  // namespace detail

// Backend: the execution space's own (backend::default_for_t), or backend::device to run the
// device kernels (shared_offdiag_device.hpp) on any execution space, host spaces included.
template <class ExecutionSpace, class Real, class Diagonal, class DView, class InfoView,
          class Backend = backend::default_for_t<ExecutionSpace>>
std::enable_if_t<backend::is_backend_v<Backend>> solve(
    const ExecutionSpace& exec, algo::shared_offdiag, const shared_offdiag_matrix<Real, Diagonal>& m,
    const DView& d, const InfoView& info, const shared_offdiag_options& options = {},
    Backend = {}) {
  using Layout = layout_of_t<DView>;
  using Scalar = typename DView::value_type;
  using Work = typename detail::work_type<Scalar, Real>::type;
  static_assert(Kokkos::is_execution_space<ExecutionSpace>::value,
                "bandsolve::solve(shared_offdiag): the first argument must be a Kokkos execution "
                "space instance");
  static_assert(Kokkos::is_view<DView>::value && !std::is_same_v<Layout, unsupported_layout>,
                "bandsolve::solve(shared_offdiag): " BANDSOLVE_SUPPORTED_VIEWS);
  static_assert(detail::is_supported_data_v<Scalar>,
                "bandsolve::solve(shared_offdiag): d must be a non-const View of float, double, "
                "Kokkos::complex<float> or Kokkos::complex<double>");
  static_assert(std::is_same_v<Real, float> || std::is_same_v<Real, double>,
                "bandsolve::solve(shared_offdiag): the coefficients must be float or double");
  static_assert(Kokkos::is_view<InfoView>::value && InfoView::rank == 1 &&
                    std::is_same_v<typename InfoView::value_type, int>,
                "bandsolve::solve(shared_offdiag): info must be a rank-1 Kokkos::View<int*>");
  static_assert(Kokkos::SpaceAccessibility<ExecutionSpace,
                                           typename DView::memory_space>::accessible &&
                    Kokkos::SpaceAccessibility<ExecutionSpace,
                                               typename InfoView::memory_space>::accessible,
                "bandsolve::solve(shared_offdiag): d and info must be accessible from the "
                "execution space");
  (void)sizeof(backend::default_for_t<ExecutionSpace>);
  const std::string fn = "bandsolve::solve(shared_offdiag)";
  detail::check_rows_fit_int(fn, rows(d));
  detail::check_no_overlap(fn, "d", d, "info", info);
  const index_t nsys = static_cast<index_t>(detail::systems_from_info<Layout>(fn, info, d));
  const index_t n = static_cast<index_t>(rows(d));
  detail::check_diagonal(fn, m.diagonal, d, nsys, n);
  if (nsys == 0) return;
  if (n == 0) {
    Kokkos::deep_copy(exec, info, 0);
    return;
  }
  if constexpr (std::is_same_v<Backend, backend::device>) {
    const detail::shared_offdiag_rows<Real, Work, Diagonal> coefficients{
        m.lower, m.upper, m.first_upper, m.last_lower, m.diagonal,
        Work(static_cast<Real>(options.pin_value)), n, nsys,
        options.singular == singular_last_row::pin};
    detail::shared_offdiag_device_solve(exec, coefficients, d, info,
                                        static_cast<index_t>(capacity(d)));
  } else {
    static_assert(std::is_same_v<Backend, backend::default_for_t<ExecutionSpace>>,
                  "bandsolve::solve(shared_offdiag): a host backend runs only on its own "
                  "execution space");
    detail::shared_offdiag_host_solve(exec, m, d, info, options, nsys, n);
  }
}

// The same with the default options and a backend tag.
template <class ExecutionSpace, class Real, class Diagonal, class DView, class InfoView,
          class Backend>
std::enable_if_t<backend::is_backend_v<Backend>> solve(
    const ExecutionSpace& exec, algo::shared_offdiag, const shared_offdiag_matrix<Real, Diagonal>& m,
    const DView& d, const InfoView& info, Backend) {
  solve(exec, algo::shared_offdiag{}, m, d, info, shared_offdiag_options{}, Backend{});
}

}  // namespace bandsolve
