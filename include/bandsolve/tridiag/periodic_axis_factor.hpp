#pragma once
// Factored periodic lines along an axis of a 2-D to 4-D array: factor once, solve many (time
// steps of a grid direction with periodic boundaries whose operator does not change).
//
//   auto f = bandsolve::factorize_along(exec, algo::periodic{}, axis, a, b, c[, backend]);
//   auto f = bandsolve::factorize_along(exec, algo::periodic{}, axis, a, b, c, d[, backend]);
//   f.solve(exec, d);   // any number of times: x overwrites d
//   f.info();           // the factorization's codes, one per line (solve_along's numbering)
//
// a, b, c as for solve_along(periodic) (periodic_axis.hpp): full arrays of the grid's rank and
// extents (any layouts, each its own strides), or rank-1 Views of length n shared by every line.
// The first form takes the grid from b (so a, b, c must be full arrays); the second from d, a View
// shaped like the right-hand sides to come (its values are not read). A solve takes d of the
// factored extents in any layout (LayoutRight, LayoutLeft, LayoutStride), of the factored scalar
// type or Kokkos::complex of a real one, and addresses it through its own strides.
// Storage: solve(periodic)'s factors per row and line (r = 1/pivot, l = a r and c' = c r of the
// leading block, z = its inverse applied to the coupling column; the closing row's 1/s, a, c):
// 4 values per unknown; shared coefficients: one line's, once (a solve moves d alone).
// Host backends: the lines grouped once, at factorization, from the strides of b (of d for shared
// coefficients) into packs of neighbouring lines along the batch axis of smallest stride, a SIMD
// lane each, the factors of a pack interleaved lane by lane; a solve streams them with d's pack
// (read in place where d's lines of a pack are neighbours, else staged through scratch with
// tiles transposed in registers, as solve_along's). Device backend (trailing backend::device{},
// the default on Kokkos::Cuda): copies of a, b and c (the lines side by side along every axis,
// so that a thread per line reads them coalesced) and the lines' info codes at factorization;
// each solve runs solve_along(periodic)'s device kernels on the copies. Enqueued on exec, not
// fenced; a solve does not look at info(): lines whose code is not 0 get inf/NaN.
#include <bandsolve/backend/host_simd/launch.hpp>
#include <bandsolve/backend/tags.hpp>
#include <bandsolve/core/algo.hpp>
#include <bandsolve/core/info.hpp>
#include <bandsolve/layout/axis.hpp>
#include <bandsolve/layout/axis_checks.hpp>
#include <bandsolve/layout/axis_factorization.hpp>
#include <bandsolve/tridiag/lane_kernel_axis.hpp>
#include <bandsolve/tridiag/periodic_axis.hpp>
#include <bandsolve/tridiag/periodic_kernel.hpp>
#include <bandsolve/tridiag/thomas_axis_factor.hpp>

#include <array>
#include <string>
#include <type_traits>
#include <utility>

namespace bandsolve {

template <class Scalar, class ExecutionSpace, class Backend>
class periodic_axis_factorization;

namespace detail {

// Lines per pack of the host factors (those of solve_along's staged packs).
template <class T>
inline constexpr int periodic_axis_factor_lanes = along_staged_lanes_v<T>;

// The factors of pack p (n rows of L lanes each of r, l, c', z) in a buffer of packs.
template <int L, class U>
KOKKOS_INLINE_FUNCTION periodic_factors<U> periodic_pack_factors(U* f, index_t p, index_t n) {
  U* const base = f + p * 4 * n * L;
  return {base, base + n * L, base + 2 * n * L, base + 3 * n * L};
}

// The factors of a line shared by every line (n rows of one lane).
template <class U>
KOKKOS_INLINE_FUNCTION periodic_factors<U> periodic_line_factors(U* f, index_t n) {
  return {f, f + n, f + 2 * n, f + 3 * n};
}

// Every pack of L lines of g factored into f; codes in info in solve_along's numbering.
template <int L, class ExecutionSpace, class T, class AView, class BView, class CView,
          class InfoView>
void periodic_axis_factor_host(const ExecutionSpace& exec, const line_packs& g, const AView& a,
                               const BView& b, const CView& c, T* f, const InfoView& info) {
  constexpr auto lane_count = static_cast<std::size_t>(L);  // an array bound
  const nd_strides sa = strides_of(a), sb = strides_of(b), sc = strides_of(c);
  const index_t n = g.n;
  for_each_pack(
      exec, "bandsolve::factorize_along(periodic)", g.npacks, 0,
      KOKKOS_LAMBDA(const index_t p, void*) {
        const line_pack k = g.pack(p);
        int codes[lane_count];
        periodic_factor_block<L, L, T, L>(n, along_lane_block<const T, L>(a, sa, g, k),
                                          along_lane_block<const T, L>(b, sb, g, k),
                                          along_lane_block<const T, L>(c, sc, g, k),
                                          periodic_pack_factors<L>(f, p, n), codes);
        const index_t s0 = g.first_system(k);
        for (int l = 0; l < k.lanes; ++l) info(s0 + l * g.lane_system_stride) = codes[l];
      });
}

// The one line of rank-1 a, b, c factored into f; its code on every line.
template <class ExecutionSpace, class T, class AView, class BView, class CView, class InfoView>
void periodic_axis_factor_shared_host(const ExecutionSpace& exec, index_t n, const AView& a,
                                      const BView& b, const CView& c, T* f,
                                      const InfoView& info) {
  for_each_pack(
      exec, "bandsolve::factorize_along(periodic)", 1, 0, KOKKOS_LAMBDA(const index_t, void*) {
        int code = 0;
        periodic_factor_block<1, 1, T, 1>(n, shared_line<T>(a), shared_line<T>(b),
                                          shared_line<T>(c), periodic_line_factors(f, n), &code);
        info(0) = code;
      });
  spread_first_code(exec, info);
}

// Every pack of L lines of g solved with its factors (Shared: one line's, for every lane);
// Staged: d's lines of a pack are not neighbours, copied into lane-contiguous rows and back.
template <int L, bool Shared, bool Staged, class ExecutionSpace, class T, class DView>
void periodic_axis_factored_solve_packs(const ExecutionSpace& exec, const line_packs& g,
                                        const T* f, const DView& d) {
  using D = typename DView::non_const_value_type;
  const nd_strides sd = strides_of(d);
  const index_t n = g.n;
  const std::size_t rows = align_64(static_cast<std::size_t>(n) * L * sizeof(D));
  for_each_pack(
      exec, "bandsolve::periodic_axis_factorization::solve", g.npacks, Staged ? 2 * rows : rows,
      KOKKOS_LAMBDA(const index_t p, void* work) {
        (void)rows, (void)f, (void)d, (void)sd, (void)n;  // named first, for nvcc
        const line_pack k = g.pack(p);
        D* const y = static_cast<D*>(work);
        if constexpr (Staged) {
          D* const ds = reinterpret_cast<D*>(static_cast<char*>(work) + rows);
          const auto x = staged_lane_block<L, D>(d, sd, g, k, ds);
          if constexpr (Shared)
            periodic_shared_solve_block(n, periodic_line_factors(f, n), x, y);
          else
            periodic_factored_solve_block<L, L, T, D, L>(n, periodic_pack_factors<L>(f, p, n), x,
                                                         y);
          unstage_lanes<L>(d, sd, g, k, ds);
        } else {
          const auto x = along_lane_block<D, L>(d, sd, g, k);
          if constexpr (Shared)
            periodic_shared_solve_block(n, periodic_line_factors(f, n), x, y);
          else
            periodic_factored_solve_block<L, L, T, D, L>(n, periodic_pack_factors<L>(f, p, n), x,
                                                         y);
        }
      });
}

template <int L, bool Shared, class ExecutionSpace, class T, class DView>
void periodic_axis_factored_solve_host(const ExecutionSpace& exec, const line_packs& g,
                                       const T* f, const DView& d) {
  if (strides_of(d).s[g.lane_axis] == 1)
    periodic_axis_factored_solve_packs<L, Shared, false>(exec, g, f, d);
  else
    periodic_axis_factored_solve_packs<L, Shared, true>(exec, g, f, d);
}

struct periodic_axis_factorization_access {
  template <class F, class... Args>
  static F make(Args&&... args) {
    return F(std::forward<Args>(args)...);
  }
};

}  // namespace detail

// The factors of the periodic lines along one axis of a grid (factorize_along). Backend: the
// backend that factored them and runs the solves.
template <class Scalar, class ExecutionSpace, class Backend>
class periodic_axis_factorization
    : public detail::axis_lines_factorization<typename ExecutionSpace::memory_space> {
  using base = detail::axis_lines_factorization<typename ExecutionSpace::memory_space>;
  using base::axis_, base::extents_, base::info_, base::lines_, base::shared_;

 public:
  using scalar_type = Scalar;
  using execution_space = ExecutionSpace;
  using memory_space = typename ExecutionSpace::memory_space;

  periodic_axis_factorization() = default;

  std::size_t storage_bytes() const { return stored_.span() * sizeof(Scalar); }

  // d: the factored grid's extents, any layout, of the factored scalar type or Kokkos::complex
  // of it over real coefficients. Enqueued on exec, not fenced.
  template <class DView>
  void solve(const ExecutionSpace& exec, const DView& d) const {
    constexpr int R = static_cast<int>(DView::rank);
    detail::axis_factored_solve_static_checks<Scalar, ExecutionSpace, DView>();
    const std::string fn = "bandsolve::periodic_axis_factorization::solve";
    if (!this->solve_needed(fn, d, "factored grid")) return;
    constexpr int L = detail::periodic_axis_factor_lanes<Scalar>;
    if constexpr (std::is_same_v<Backend, backend::device>) {
      using memory = memory_space;
      Scalar* const copies = stored_.data();
      const std::size_t per = per_array_;
      const auto run = [&](const auto& a, const auto& b, const auto& c) {
        detail::lane_family_along<detail::periodic_lane_family, backend::device>(
            exec, fn.c_str(), axis_, a, b, c, d, solve_info_);
      };
      const int axis = axis_;
      const auto& e = extents_;
      if (shared_)
        run(detail::stored_array<1, memory>(copies, per, 0, e, axis, true),
            detail::stored_array<1, memory>(copies, per, 1, e, axis, true),
            detail::stored_array<1, memory>(copies, per, 2, e, axis, true));
      else
        run(detail::stored_array<R, memory>(copies, per, 0, e, axis, true),
            detail::stored_array<R, memory>(copies, per, 1, e, axis, true),
            detail::stored_array<R, memory>(copies, per, 2, e, axis, true));
    } else if (shared_) {  // packs of d's own lines: the factors are every lane's
      const detail::line_packs g =
          detail::make_line_packs(d, axis_, detail::lane_axis_of(d, axis_), L);
      detail::periodic_axis_factored_solve_host<L, true>(exec, g, stored_.data(), d);
    } else {
      detail::periodic_axis_factored_solve_host<L, false>(exec, lines_, stored_.data(), d);
    }
  }

 private:
  friend struct detail::periodic_axis_factorization_access;

  periodic_axis_factorization(const Kokkos::View<Scalar*, memory_space>& stored,
                              const Kokkos::View<int*, memory_space>& info,
                              const Kokkos::View<int*, memory_space>& solve_info,
                              const detail::line_packs& lines,
                              std::array<std::size_t, 4> extents, int rank, int axis,
                              std::size_t per_array, bool shared)
      : base(info, lines, extents, rank, axis, shared), stored_(stored), solve_info_(solve_info),
        per_array_(per_array) {}

  Kokkos::View<Scalar*, memory_space> stored_;  // host: the factors; device: a, b, c
  Kokkos::View<int*, memory_space> solve_info_;
  std::size_t per_array_ = 0;
};

namespace detail {

// factorize_along(periodic) on the extents and line grouping of `grid` (d, or b), after the
// checks.
template <class Backend, class ExecutionSpace, class GridView, class AView, class BView,
          class CView>
auto periodic_axis_factorize(const ExecutionSpace& exec, int axis, const GridView& grid,
                             const AView& a, const BView& b, const CView& c) {
  using T = typename BView::non_const_value_type;
  using F = periodic_axis_factorization<T, ExecutionSpace, Backend>;
  using memory_space = typename F::memory_space;
  constexpr int rank = static_cast<int>(GridView::rank);
  constexpr bool shared = BView::rank == 1;
  constexpr bool device = std::is_same_v<Backend, backend::device>;
  constexpr int L = periodic_axis_factor_lanes<T>;
  const line_packs lines = make_line_packs(grid, axis, lane_axis_of(grid, axis), L);
  std::array<std::size_t, 4> extents{};
  for (int k = 0; k < rank; ++k) extents[static_cast<std::size_t>(k)] = grid.extent(k);
  const auto n = static_cast<std::size_t>(lines.n);
  const auto nsys = static_cast<std::size_t>(lines.nsys);
  // Device: copies of a, b, c (n values each when shared); host: 4 factors per row and line.
  const std::size_t per_array = nsys == 0 ? 0 : shared ? n : device ? n * nsys : 0;
  const std::size_t values =
      nsys == 0  ? 0
      : device   ? 3 * per_array
      : shared   ? 4 * n
                 : 4 * n * static_cast<std::size_t>(lines.npacks) * L;
  const std::string label = "bandsolve::factorize_along(periodic)";
  const Kokkos::View<T*, memory_space> stored(Kokkos::view_alloc(exec, label + " factors"),
                                              values);
  const Kokkos::View<int*, memory_space> info(Kokkos::view_alloc(exec, label + " info"), nsys);
  const Kokkos::View<int*, memory_space> solve_info(
      Kokkos::view_alloc(exec, label + " solve info"), device ? nsys : 0);
  auto f = periodic_axis_factorization_access::make<F>(stored, info, solve_info, lines, extents,
                                                       rank, axis, per_array, shared);
  if (nsys == 0) return f;
  if (n == 0) {
    Kokkos::deep_copy(exec, info, 0);
    return f;
  }
  if constexpr (device) {
    constexpr int copy_rank = shared ? 1 : rank;
    // The copies with the lines side by side along every axis: a thread per line reads them
    // coalesced whatever d's layout.
    T* const p = stored.data();
    const auto ac = stored_array<copy_rank, memory_space>(p, per_array, 0, extents, axis, true);
    const auto bc = stored_array<copy_rank, memory_space>(p, per_array, 1, extents, axis, true);
    const auto cc = stored_array<copy_rank, memory_space>(p, per_array, 2, extents, axis, true);
    Kokkos::deep_copy(exec, ac, a);
    Kokkos::deep_copy(exec, bc, b);
    Kokkos::deep_copy(exec, cc, c);
    // The codes of a solve of zeros: those of the lines' factorizations.
    const Kokkos::View<T*, memory_space> zeros(Kokkos::view_alloc(exec, label + " codes"),
                                               n * nsys);
    const auto z =
        stored_array<rank, memory_space>(zeros.data(), n * nsys, 0, extents, axis, true);
    lane_family_along<periodic_lane_family, backend::device>(exec, label.c_str(), axis, ac, bc,
                                                             cc, z, info);
  } else if constexpr (shared) {
    periodic_axis_factor_shared_host(exec, lines.n, a, b, c, stored.data(), info);
  } else {
    periodic_axis_factor_host<L>(exec, lines, a, b, c, stored.data(), info);
  }
  return f;
}

}  // namespace detail

// With d: the extents and the grouping of the lines from d (full or shared coefficients).
template <class ExecutionSpace, class AView, class BView, class CView, class DView,
          class Backend = backend::default_for_t<ExecutionSpace>,
          std::enable_if_t<Kokkos::is_view<DView>::value && backend::is_backend_v<Backend>,
                           int> = 0>
auto factorize_along(const ExecutionSpace& exec, algo::periodic, int axis, const AView& a,
                     const BView& b, const CView& c, const DView& d, Backend = {}) {
  const std::string fn = "bandsolve::factorize_along(periodic)";
  detail::thomas_axis_factor_checks<Backend, ExecutionSpace>(fn, axis, d, "d", a, b, c);
  return detail::periodic_axis_factorize<Backend>(exec, axis, d, a, b, c);
}

// Without d: the extents and the grouping of the lines from b (a, b, c full arrays).
template <class ExecutionSpace, class AView, class BView, class CView,
          class Backend = backend::default_for_t<ExecutionSpace>,
          std::enable_if_t<backend::is_backend_v<Backend>, int> = 0>
auto factorize_along(const ExecutionSpace& exec, algo::periodic, int axis, const AView& a,
                     const BView& b, const CView& c, Backend = {}) {
  static_assert(BView::rank != 1,
                "bandsolve::factorize_along(periodic): with coefficients shared by every line, "
                "pass d (a View shaped like the right-hand sides to come) after c");
  const std::string fn = "bandsolve::factorize_along(periodic)";
  detail::thomas_axis_factor_checks<Backend, ExecutionSpace>(fn, axis, b, "b", a, b, c);
  return detail::periodic_axis_factorize<Backend>(exec, axis, b, a, b, c);
}

}  // namespace bandsolve
