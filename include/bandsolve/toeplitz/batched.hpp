#pragma once
// Batches of systems sharing one tridiagonal Toeplitz matrix T = tridiag(t1, t2, t3): only the
// right-hand sides cross memory (read d, write x: 2 words per unknown).
//
//   auto f = bandsolve::factorize(exec, bandsolve::algo::toeplitz{}, t1, t2, t3, n);
//   f.solve(exec, d);     // every system of d (any layout), in place; f.info(): 0 or bad row
//   bandsolve::solve(exec, bandsolve::algo::toeplitz{}, t1, t2, t3, d, info);   // one-shot
//
// The LU factors of T (1/pivot and c' = t3/pivot, n values each) are computed once on the host in
// double (complex<double> for complex T) and shared by every system; the solve streams d through
// them with SIMD across systems. T is float, double, Kokkos::complex<float> or
// Kokkos::complex<double>; d is a Kokkos::View in any layout of layout/ (row, column,
// interleaved<W>, strided) of T, or of Kokkos::complex<T> over a real T (both parts in one pass;
// the one-shot solve takes real coefficients with complex d too). No pivoting (any T whose Thomas
// pivots stay away from zero, e.g. diagonally dominant).
// Work is enqueued on exec and never fenced; the one-shot call allocates and fences once (the
// factors are copied from the host): prefer the factorization for repeated solves.
// Scratch of a solve: row-layout batches of at least one work item's L systems (L = two cache
// lines of d's real type; n, or 2n for complex d, a multiple of L) sweep a transposed copy,
// n L sizeof(d's value) bytes per item, min(items, threads) items at once
// (backend/host_simd/launch.hpp); other batches, one long system included, none.
// Backends: the execution space's own (backend::default_for_t: serial, openmp_simd, device on
// Kokkos::Cuda), or a trailing backend::device{} argument to solve (the factorization's and the
// one-shot), which sweeps with a thread per system on any execution space (batched_device.hpp;
// no scratch). The factors are the same for every backend.
#include <bandsolve/backend/host_simd/lane_access.hpp>
#include <bandsolve/backend/host_simd/launch.hpp>
#include <bandsolve/backend/host_simd/work_shape.hpp>
#include <bandsolve/core/algo.hpp>
#include <bandsolve/core/checks.hpp>
#include <bandsolve/core/pivot.hpp>
#include <bandsolve/core/scalar_traits.hpp>
#include <bandsolve/toeplitz/batched_device.hpp>

#include <string>
#include <type_traits>

namespace bandsolve {
namespace detail {

// Both sweeps of the shared factors over the nl <= L lanes of one work item, in place: xb(l, i)
// is row i of lane l. Complex factors carry each lane's y as two real arrays and multiply on the
// parts, so that GCC vectorizes the lane loops (with y as Kokkos::complex values it kept them
// scalar: 5-8 ns per unknown against 1.2 for real factors on complex d).
template <int L, class X, class R, class Factor>
KOKKOS_FORCEINLINE_FUNCTION void toeplitz_lanes_sweep(const X& xb, int nl, index_t n, const R& r,
                                                      const R& cp, Factor t1) {
  using Data = std::remove_cv_t<std::remove_reference_t<decltype(xb(0, 0))>>;
  constexpr auto lane_count = static_cast<std::size_t>(L);  // an array bound
  if constexpr (is_complex_v<Factor>) {
    using Real = real_type_t<Factor>;
    Real yr[lane_count], yi[lane_count];
    for (int l = 0; l < L; ++l) yr[l] = yi[l] = Real(0);
    const Real ar = t1.real(), ai = t1.imag();
    for (index_t i = 0; i < n; ++i) {
      const Factor ri = r(i);
      const Real rr = ri.real(), rim = ri.imag();
      BANDSOLVE_SIMD
      for (int l = 0; l < nl; ++l) {
        const Data v = xb(l, i);
        const Real ur = v.real() - (ar * yr[l] - ai * yi[l]);
        const Real ui = v.imag() - (ar * yi[l] + ai * yr[l]);
        yr[l] = ur * rr - ui * rim;
        yi[l] = ur * rim + ui * rr;
        xb(l, i) = Data(yr[l], yi[l]);
      }
    }
    for (index_t i = n - 2; i >= 0; --i) {
      const Factor ci = cp(i);
      const Real cr = ci.real(), cim = ci.imag();
      BANDSOLVE_SIMD
      for (int l = 0; l < nl; ++l) {
        const Data v = xb(l, i);
        const Real ur = v.real() - (cr * yr[l] - cim * yi[l]);
        const Real ui = v.imag() - (cr * yi[l] + cim * yr[l]);
        yr[l] = ur;
        yi[l] = ui;
        xb(l, i) = Data(ur, ui);
      }
    }
  } else {
    Data y[lane_count];
    for (int l = 0; l < L; ++l) y[l] = Data(0);
    for (index_t i = 0; i < n; ++i) {
      const Factor ri = r(i);
      BANDSOLVE_SIMD
      for (int l = 0; l < nl; ++l) xb(l, i) = y[l] = (xb(l, i) - t1 * y[l]) * ri;
    }
    for (index_t i = n - 2; i >= 0; --i) {
      const Factor ci = cp(i);
      BANDSOLVE_SIMD
      for (int l = 0; l < nl; ++l) xb(l, i) = y[l] = xb(l, i) - ci * y[l];
    }
  }
}

// Both sweeps over L whole complex lanes held as parts (transposed_parts_sweep): row i's real
// parts at w + 2 i L, its imaginary parts at w + (2 i + 1) L. Factors real (acting on both parts)
// or complex (products on the parts).
template <int L, class R, class F, class Factor>
KOKKOS_FORCEINLINE_FUNCTION void toeplitz_parts_sweep(R* w, index_t n, const F& r, const F& cp,
                                                      Factor t1) {
  constexpr auto lane_count = static_cast<std::size_t>(L);  // an array bound
  R yr[lane_count], yi[lane_count];
  for (int l = 0; l < L; ++l) yr[l] = yi[l] = R(0);
  const R ar = real_part(t1), ai = imag_part(t1);
  for (index_t i = 0; i < n; ++i) {
    R* const re = w + 2 * i * L;
    R* const im = re + L;
    const Factor ri = r(i);
    const R rr = real_part(ri), rim = imag_part(ri);
    BANDSOLVE_SIMD
    for (int l = 0; l < L; ++l) {
      if constexpr (is_complex_v<Factor>) {
        const R ur = re[l] - (ar * yr[l] - ai * yi[l]), ui = im[l] - (ar * yi[l] + ai * yr[l]);
        re[l] = yr[l] = ur * rr - ui * rim;
        im[l] = yi[l] = ur * rim + ui * rr;
      } else {
        re[l] = yr[l] = (re[l] - ar * yr[l]) * rr;
        im[l] = yi[l] = (im[l] - ar * yi[l]) * rr;
      }
    }
  }
  for (index_t i = n - 2; i >= 0; --i) {
    R* const re = w + 2 * i * L;
    R* const im = re + L;
    const Factor ci = cp(i);
    const R cr = real_part(ci), cim = imag_part(ci);
    BANDSOLVE_SIMD
    for (int l = 0; l < L; ++l) {
      if constexpr (is_complex_v<Factor>) {
        const R ur = re[l] - (cr * yr[l] - cim * yi[l]), ui = im[l] - (cr * yi[l] + cim * yr[l]);
        re[l] = yr[l] = ur;
        im[l] = yi[l] = ui;
      } else {
        re[l] = yr[l] = re[l] - cr * yr[l];
        im[l] = yi[l] = im[l] - cr * yi[l];
      }
    }
  }
}

// One work item of the host sweep: through a transposed copy in `work` where Transposable and
// `whole` (real rows: sweep_lanes; complex rows: their parts, transposed_parts_sweep), else in
// place (with_lane_block).
template <int L, bool Transposable, class Data, class F, class Factor>
KOKKOS_FORCEINLINE_FUNCTION void toeplitz_item_sweep(const strided_lanes<Data>& x, int nl,
                                                     index_t n, bool whole, void* work, const F& r,
                                                     const F& cp, Factor t1) {
  const auto in_place = [&](const auto& xb) { toeplitz_lanes_sweep<L>(xb, nl, n, r, cp, t1); };
  if constexpr (is_complex_v<Data>) {
#if BANDSOLVE_HAS_SIMD_TRANSPOSE
    if constexpr (Transposable) {
      if (whole) {
        using R = real_type_t<Data>;
        transposed_parts_sweep<L>(x, n, static_cast<R*>(work),
                                  [&](R* w) { toeplitz_parts_sweep<L>(w, n, r, cp, t1); });
        return;
      }
    }
#endif
    (void)whole;
    (void)work;
    with_lane_block(x, in_place);
  } else {
    sweep_lanes<L, Transposable>(x, n, whole, static_cast<Data*>(work), in_place);
  }
}

}  // namespace detail

template <class Scalar, class ExecutionSpace>
class toeplitz_batch_factorization {
 public:
  using scalar_type = Scalar;
  using execution_space = ExecutionSpace;
  using memory_space = typename ExecutionSpace::memory_space;

  toeplitz_batch_factorization() = default;

  std::size_t n() const { return static_cast<std::size_t>(n_); }
  // 0, or the 1-based row of the first zero, tiny or non-finite pivot (the same for every system).
  int info() const { return info_; }

  // Solves T x = d for every system slot of d (padding lanes of interleaved packs included), in
  // place; d holds Scalar, or Kokkos::complex<Scalar> when Scalar is real. Enqueued on exec, not
  // fenced. Backend: the execution space's own, or backend::device.
  template <class DView, class Backend = backend::default_for_t<ExecutionSpace>>
  void solve(const ExecutionSpace& exec, const DView& d, Backend = {}) const {
    static_assert(backend::is_backend_v<Backend>,
                  "bandsolve::toeplitz_batch_factorization::solve: the last argument must be a "
                  "backend tag (backend::device, or the execution space's own)");
    using Layout = layout_of_t<DView>;
    static_assert(Kokkos::is_view<DView>::value && !std::is_same_v<Layout, unsupported_layout>,
                  "bandsolve::toeplitz_batch_factorization::solve: " BANDSOLVE_SUPPORTED_VIEWS);
    static_assert(is_rhs_of_v<Scalar, typename DView::value_type>,
                  "bandsolve::toeplitz_batch_factorization::solve: d must be a non-const View of "
                  "the factored scalar type (or of Kokkos::complex of a real factored type)");
    static_assert(Kokkos::SpaceAccessibility<ExecutionSpace,
                                             typename DView::memory_space>::accessible,
                  "bandsolve::toeplitz_batch_factorization::solve: d must be accessible from the "
                  "execution space");
    const std::string fn = "bandsolve::toeplitz_batch_factorization::solve";
    if (!initialized_)
      detail::throw_invalid_argument(fn, "this factorization is empty (default-constructed)");
    if (static_cast<index_t>(rows(d)) != n_)
      detail::throw_invalid_argument(fn, "d has ", rows(d), " rows but the factorization has ", n_);
    const index_t nsys = static_cast<index_t>(capacity(d)), n = n_;
    if (nsys == 0 || n == 0) return;
    if constexpr (std::is_same_v<Backend, backend::device>) {
      detail::toeplitz_device_solve(exec, d, Kokkos::View<const Scalar*, memory_space>(r_),
                                    Kokkos::View<const Scalar*, memory_space>(cp_), t1_, n, nsys);
    } else {
      static_assert(std::is_same_v<Backend, backend::default_for_t<ExecutionSpace>>,
                    "bandsolve::toeplitz_batch_factorization::solve: a host backend runs only on "
                    "its own execution space");
      solve_host(exec, d, nsys);
    }
  }

  // The host backends' sweep (called by solve after its checks): SIMD across the lanes of each
  // work item (two cache lines of d's values). Public because nvcc allows no extended lambda in a
  // private member function.
  template <class DView>
  void solve_host(const ExecutionSpace& exec, const DView& d, index_t nsys) const {
    using Layout = layout_of_t<DView>;
    using Data = typename DView::value_type;
    // Two cache lines of d's real parts per row: complex items hold as many lanes as real ones.
    constexpr int lanes = detail::two_line_lanes_v<real_type_t<Data>>;
    const index_t n = n_;
    constexpr int L = detail::item_lanes<Layout, lanes>();
    const Kokkos::View<const Scalar*, memory_space> r = r_, cp = cp_;
    const Scalar t1 = t1_;
    // Row-layout items (systems n apart, rows contiguous) go through a lane-contiguous copy in
    // scratch, filled and emptied by L x L register transposes (of complex rows' parts): no
    // gathers in the recurrences.
    constexpr bool can_transpose = detail::transposable_lanes_v<Layout>;
    const index_t reals = is_complex_v<Data> ? 2 * n : n;  // values of each system's rows
    // Only whole items transpose: a batch of fewer systems than an item takes no scratch.
    const bool transpose =
        can_transpose && d.stride(1) == 1 && d.stride(0) != 1 && reals % L == 0 && nsys >= L;
    const std::size_t scratch = transpose ? static_cast<std::size_t>(n) * L * sizeof(Data) : 0;
    detail::for_each_pack(
        exec, "bandsolve::toeplitz_batch_factorization::solve",
        detail::work_items<Layout, lanes>(nsys), scratch, KOKKOS_LAMBDA(const index_t p, void* work) {
          const int nl = static_cast<int>(nsys - p * L < L ? nsys - p * L : L);
          const auto x = detail::lanes_of<Layout, L>(d, p);
          detail::toeplitz_item_sweep<L, can_transpose>(x, nl, n, transpose && nl == L, work, r,
                                                        cp, t1);
        });
  }

 private:
  template <class E, class S>
  friend toeplitz_batch_factorization<S, E> factorize(const E&, algo::toeplitz, S, S, S,
                                                      std::size_t);

  // Members are built here, never assigned into default-constructed Views (Kokkos/GCC 12).
  toeplitz_batch_factorization(const Kokkos::View<Scalar*, memory_space>& r,
                               const Kokkos::View<Scalar*, memory_space>& cp, Scalar t1,
                               index_t n, int info)
      : r_(r), cp_(cp), t1_(t1), n_(n), info_(info), initialized_(true) {}

  Kokkos::View<Scalar*, memory_space> r_, cp_;
  Scalar t1_ = 0;
  index_t n_ = 0;
  int info_ = 0;
  bool initialized_ = false;
};

// Factorizes T = tridiag(t1, t2, t3) of n rows once for all systems (host recurrence in double,
// or complex<double> for complex T: p_0 = t2, p_i = t2 - t1 t3 / p_{i-1}). Allocates n values
// twice; fences exec once.
template <class ExecutionSpace, class Scalar>
toeplitz_batch_factorization<Scalar, ExecutionSpace> factorize(const ExecutionSpace& exec,
                                                               algo::toeplitz, Scalar t1,
                                                               Scalar t2, Scalar t3,
                                                               std::size_t n) {
  static_assert(Kokkos::is_execution_space<ExecutionSpace>::value,
                "bandsolve::factorize(toeplitz): the first argument must be a Kokkos execution "
                "space instance");
  static_assert(is_supported_scalar_v<Scalar>,
                "bandsolve::factorize(toeplitz): the scalar type must be float, double, "
                "Kokkos::complex<float> or Kokkos::complex<double>");
  (void)sizeof(backend::default_for_t<ExecutionSpace>);
  // The recurrence runs in the double of T's kind; reciprocals of complex pivots are scaled
  // (detail::reciprocal) so that no |p|^2 overflows.
  using Wide = std::conditional_t<is_complex_v<Scalar>, Kokkos::complex<double>, double>;
  const std::string fn = "bandsolve::factorize(toeplitz)";
  detail::check_rows_fit_int(fn, n);
  using view = Kokkos::View<Scalar*, typename ExecutionSpace::memory_space>;
  const view r_dev(Kokkos::view_alloc(exec, std::string("bandsolve::toeplitz 1/pivot")), n);
  const view cp_dev(Kokkos::view_alloc(exec, std::string("bandsolve::toeplitz c'")), n);
  auto r = Kokkos::create_mirror_view(Kokkos::HostSpace(), r_dev);
  auto cp = Kokkos::create_mirror_view(Kokkos::HostSpace(), cp_dev);
  const Wide w1 = Wide(t1), w2 = Wide(t2), w3 = Wide(t3);
  Wide c_prev = Wide(0);
  int info = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const Wide pivot = i ? w2 - w1 * c_prev : w2;
    info = detail::update_info(info, Scalar(pivot), static_cast<index_t>(i));
    const Wide inverse = detail::reciprocal(pivot);
    r(i) = Scalar(inverse);
    c_prev = w3 * inverse;
    cp(i) = Scalar(c_prev);
  }
  Kokkos::deep_copy(exec, r_dev, r);
  Kokkos::deep_copy(exec, cp_dev, cp);
  exec.fence();  // the host mirrors are temporaries
  return toeplitz_batch_factorization<Scalar, ExecutionSpace>(r_dev, cp_dev, t1,
                                                              static_cast<index_t>(n), info);
}

// One-shot: factorizes and solves every system of d; info(s) receives the shared info code for
// the nsys = info.extent(0) systems. Allocates and fences once. Backend as for the
// factorization's solve.
template <class ExecutionSpace, class DView, class InfoView,
          class Backend = backend::default_for_t<ExecutionSpace>>
std::enable_if_t<backend::is_backend_v<Backend>> solve(const ExecutionSpace& exec, algo::toeplitz,
                                                       typename DView::value_type t1,
                                                       typename DView::value_type t2,
                                                       typename DView::value_type t3,
                                                       const DView& d, const InfoView& info,
                                                       Backend = {}) {
  static_assert(Kokkos::is_view<InfoView>::value && InfoView::rank == 1 &&
                    std::is_same_v<typename InfoView::value_type, int>,
                "bandsolve::solve(toeplitz): info must be a rank-1 Kokkos::View<int*>");
  const std::string fn = "bandsolve::solve(toeplitz)";
  detail::systems_from_info<layout_of_t<DView>>(fn, info, d);
  const auto f = factorize(exec, algo::toeplitz{}, t1, t2, t3, rows(d));
  f.solve(exec, d, Backend{});
  Kokkos::deep_copy(exec, info, f.info());
}

// One-shot with real coefficients and complex d: the real factors act on both parts (half the
// arithmetic of complex coefficients). Chosen over the form above for real arguments.
template <class ExecutionSpace, class DView, class InfoView,
          class Backend = backend::default_for_t<ExecutionSpace>>
std::enable_if_t<backend::is_backend_v<Backend> && is_complex_v<typename DView::value_type>>
solve(const ExecutionSpace& exec, algo::toeplitz, real_type_t<typename DView::value_type> t1,
      real_type_t<typename DView::value_type> t2, real_type_t<typename DView::value_type> t3,
      const DView& d, const InfoView& info, Backend = {}) {
  static_assert(Kokkos::is_view<InfoView>::value && InfoView::rank == 1 &&
                    std::is_same_v<typename InfoView::value_type, int>,
                "bandsolve::solve(toeplitz): info must be a rank-1 Kokkos::View<int*>");
  const std::string fn = "bandsolve::solve(toeplitz)";
  detail::systems_from_info<layout_of_t<DView>>(fn, info, d);
  const auto f = factorize(exec, algo::toeplitz{}, t1, t2, t3, rows(d));
  f.solve(exec, d, Backend{});
  Kokkos::deep_copy(exec, info, f.info());
}

}  // namespace bandsolve
