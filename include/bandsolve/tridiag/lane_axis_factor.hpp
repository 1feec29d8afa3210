#pragma once
// Factored lines along an axis of a 2-D to 4-D array for the families whose host kernels factor
// and solve a block of L lines through lane_block (periodic, partial pivoting): the factorization
// class and its factorize, written once over a Family of factored lane kernels.
//
// A Family (periodic_axis_factor.hpp, pivoting_axis_factor.hpp) gives:
//   lane_family                         its solve_along family (lane_kernel_axis.hpp), whose
//                                       device solve the device backend runs
//   factorize_name, solve_name,         the names in messages and kernel labels
//   solve_add_name, refactor_name
//   values_per_row                      factor values (of the coefficients' type) per row and line
//   flag_bytes_per_row                  bytes of flags (the interchanges) per row and line, or 0
//   factor<L>(n, a, b, c, f, flags, codes)
//                                       factors L lines (lane blocks) into the pack's factors
//                                       f (values_per_row * n * L values) and flags; L = 1 for
//                                       the one line of shared coefficients
//   solve<L, Shared>(n, f, flags, x, y) solves the lanes x with a pack's factors (Shared: one
//                                       line's, for every lane); y: n * L values of scratch
//
// Host backends: the lines grouped once, at factorization, from the strides of b (of d for shared
// coefficients) into packs of neighbouring lines along the batch axis of smallest stride, a SIMD
// lane each, the factors of a pack interleaved lane by lane; a solve streams them with d's pack
// (read in place where d's lines of a pack are neighbours, else staged through scratch with
// tiles transposed in registers, as solve_along's). Device backend: copies of a, b and c (the
// lines side by side along every axis, so that a thread per line reads them coalesced) and the
// lines' info codes at factorization; each solve runs the family's solve_along device kernels on
// the copies.
#include <bandsolve/backend/host_simd/launch.hpp>
#include <bandsolve/backend/huge_pages.hpp>
#include <bandsolve/backend/tags.hpp>
#include <bandsolve/core/info.hpp>
#include <bandsolve/core/view_extents.hpp>
#include <bandsolve/layout/axis.hpp>
#include <bandsolve/layout/axis_checks.hpp>
#include <bandsolve/layout/axis_factorization.hpp>
#include <bandsolve/tridiag/lane_kernel_axis.hpp>
#include <bandsolve/tridiag/thomas_axis_factor.hpp>

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <type_traits>
#include <utility>

namespace bandsolve {

namespace detail {

// Lines per pack of the host factors (those of solve_along's staged packs).
template <class T>
inline constexpr int lane_axis_factor_lanes = along_staged_lanes_v<T>;

// Every pack of L lines of g factored into f (and flags); codes in info in solve_along's
// numbering.
template <class Family, int L, class ExecutionSpace, class T, class AView, class BView,
          class CView, class InfoView>
void lane_axis_factor_host(const ExecutionSpace& exec, const line_packs& g, const AView& a,
                           const BView& b, const CView& c, T* f, std::uint8_t* flags,
                           const InfoView& info) {
  constexpr auto lane_count = static_cast<std::size_t>(L);  // an array bound
  const nd_strides sa = strides_of(a), sb = strides_of(b), sc = strides_of(c);
  const index_t n = g.n;
  const index_t values = Family::values_per_row * n * L,
                flag_bytes = Family::flag_bytes_per_row * n * L;
  for_each_pack(
      exec, Family::factorize_name, g.npacks, 0, KOKKOS_LAMBDA(const index_t p, void*) {
        const line_pack k = g.pack(p);
        int codes[lane_count];
        Family::template factor<L>(n, along_lane_block<const T, L>(a, sa, g, k),
                                   along_lane_block<const T, L>(b, sb, g, k),
                                   along_lane_block<const T, L>(c, sc, g, k), f + p * values,
                                   flags + p * flag_bytes, codes);
        const index_t s0 = g.first_system(k);
        for (int l = 0; l < k.lanes; ++l) info(s0 + l * g.lane_system_stride) = codes[l];
      });
}

// The one line of rank-1 a, b, c factored into f (and flags); its code on every line.
template <class Family, class ExecutionSpace, class T, class AView, class BView, class CView,
          class InfoView>
void lane_axis_factor_shared_host(const ExecutionSpace& exec, index_t n, const AView& a,
                                  const BView& b, const CView& c, T* f, std::uint8_t* flags,
                                  const InfoView& info) {
  for_each_pack(
      exec, Family::factorize_name, 1, 0, KOKKOS_LAMBDA(const index_t, void*) {
        int code = 0;
        Family::template factor<1>(n, shared_line<T>(a), shared_line<T>(b), shared_line<T>(c), f,
                                   flags, &code);
        info(0) = code;
      });
  spread_first_code(exec, info);
}

// Every pack of L lines of g solved with its factors (Shared: one line's, for every lane);
// Staged: d's lines of a pack are not neighbours, copied into lane-contiguous rows and back.
// Add (solve_add): x added into u, d only read (staged: from the staged rows; else by the
// family's solve itself, along_add_block); u is d otherwise.
template <class Family, int L, bool Shared, bool Staged, bool Add, class ExecutionSpace, class T,
          class DView, class UView>
void lane_axis_factored_solve_packs(const ExecutionSpace& exec, const line_packs& g,
                                    const T* f, const std::uint8_t* flags, const DView& d,
                                    const UView& u) {
  using D = typename DView::non_const_value_type;
  const nd_strides sd = strides_of(d), su = strides_of(u);
  const index_t n = g.n;
  const index_t values = Shared ? 0 : Family::values_per_row * n * L,
                flag_bytes = Shared ? 0 : Family::flag_bytes_per_row * n * L;
  const std::size_t rows = align_64(static_cast<std::size_t>(n) * L * sizeof(D));
  for_each_pack(
      exec, Family::solve_name, g.npacks, Staged ? 2 * rows : rows,
      KOKKOS_LAMBDA(const index_t p, void* work) {
        (void)rows, (void)f, (void)flags, (void)d, (void)u, (void)sd, (void)su,
            (void)n;  // named first, for nvcc
        const line_pack k = g.pack(p);
        D* const y = static_cast<D*>(work);
        const T* const fp = f + p * values;
        const std::uint8_t* const flags_p = flags + p * flag_bytes;
        if constexpr (Staged) {
          D* const ds = reinterpret_cast<D*>(static_cast<char*>(work) + rows);
          Family::template solve<L, Shared>(n, fp, flags_p,
                                            staged_lane_block<L, D>(d, sd, g, k, ds), y);
          if constexpr (Add)
            add_staged_lanes<L>(u, su, g, k, ds);
          else
            unstage_lanes<L>(d, sd, g, k, ds);
        } else if constexpr (Add) {
          Family::template solve<L, Shared>(n, fp, flags_p,
                                            along_add_block<L>(d, sd, u, su, g, k), y);
        } else {
          Family::template solve<L, Shared>(n, fp, flags_p, along_lane_block<D, L>(d, sd, g, k),
                                            y);
        }
      });
}

// Packs read in place where the lines of a pack are neighbours in d (and in u with Add), else
// staged.
template <class Family, int L, bool Shared, bool Add, class ExecutionSpace, class T, class DView,
          class UView>
void lane_axis_factored_solve_host(const ExecutionSpace& exec, const line_packs& g, const T* f,
                                   const std::uint8_t* flags, const DView& d, const UView& u) {
  if (strides_of(d).s[g.lane_axis] == 1 && strides_of(u).s[g.lane_axis] == 1)
    lane_axis_factored_solve_packs<Family, L, Shared, false, Add>(exec, g, f, flags, d, u);
  else
    lane_axis_factored_solve_packs<Family, L, Shared, true, Add>(exec, g, f, flags, d, u);
}

struct lane_axis_factorization_access {
  template <class F, class... Args>
  static F make(Args&&... args) {
    return F(std::forward<Args>(args)...);
  }
};

}  // namespace detail

// The factors of the lines along one axis of a grid (factorize_along) of a Family of factored
// lane kernels (above). Backend: the backend that factored them and runs the solves.
template <class Family, class Scalar, class ExecutionSpace, class Backend>
class lane_axis_factorization
    : public detail::axis_lines_factorization<typename ExecutionSpace::memory_space> {
  using base = detail::axis_lines_factorization<typename ExecutionSpace::memory_space>;
  using base::axis_, base::extents_, base::info_, base::lines_, base::shared_;

 public:
  using scalar_type = Scalar;
  using execution_space = ExecutionSpace;
  using memory_space = typename ExecutionSpace::memory_space;

  lane_axis_factorization() = default;

  std::size_t storage_bytes() const {
    return stored_.span() * sizeof(Scalar) + flags_.span();
  }

  // Factors new coefficients into this factorization's storage: a, b, c of the kind that was
  // factored (arrays of the factored extents, each in any layout, or rank-1 Views of the n values
  // shared by every line) and of the factored scalar type. The lines keep their grouping and
  // packs. The factors and info codes of factorize_along; enqueued on exec, not fenced. Copies of
  // the factorization share its storage. No allocation on the host backends; the device backend
  // copies a, b and c into its copies and takes its codes from a solve of a temporary of zeros
  // (n values per line), as factorize_along does.
  template <class AView, class BView, class CView>
  void refactor(const ExecutionSpace& exec, const AView& a, const BView& b, const CView& c);

  // d: the factored grid's extents, any layout, of the factored scalar type or Kokkos::complex
  // of it over real coefficients. Enqueued on exec, not fenced.
  template <class DView>
  void solve(const ExecutionSpace& exec, const DView& d) const {
    detail::axis_factored_solve_static_checks<Scalar, ExecutionSpace, DView>();
    const std::string fn = Family::solve_name;
    if (!this->solve_needed(fn, d, "factored grid")) return;
    run<false>(exec, fn, d, d);
  }

  // u += x, d only read (it may be a View of const): the last sweep of an ADI step. d and u: the
  // factored grid's extents, each in any layout, of one scalar type as for solve. Enqueued on
  // exec, not fenced.
  template <class DView, class UView>
  void solve_add(const ExecutionSpace& exec, const DView& d, const UView& u) const {
    detail::axis_factored_add_static_checks<Scalar, ExecutionSpace, DView, UView>();
    const std::string fn = Family::solve_add_name;
    const bool needed = this->solve_needed(fn, d, "factored grid");
    detail::check_same_extents(fn, "u", u, "d", d);
    detail::check_no_overlap(fn, "u", u, "d", d);
    if (needed) run<true>(exec, fn, d, u);
  }

 private:
  friend struct detail::lane_axis_factorization_access;

  // The solve (Add: u += x, else x overwrites d and u is d), arguments checked.
  template <bool Add, class DView, class UView>
  void run(const ExecutionSpace& exec, const std::string& fn, const DView& d,
           const UView& u) const {
    constexpr int R = static_cast<int>(DView::rank);
    constexpr int L = detail::lane_axis_factor_lanes<Scalar>;
    if constexpr (std::is_same_v<Backend, backend::device>) {
      detail::on_stored_copies<R, memory_space>(
          stored_.data(), per_array_, extents_, axis_, true, shared_,
          [&](const auto& a, const auto& b, const auto& c) {
            detail::lane_family_along<typename Family::lane_family, backend::device, Add>(
                exec, fn.c_str(), axis_, a, b, c, d, u, solve_info_);
          });
    } else if (shared_) {  // packs of d's own lines: the factors are every lane's
      const detail::line_packs g =
          detail::make_line_packs(d, axis_, detail::lane_axis_of(d, axis_), L);
      detail::lane_axis_factored_solve_host<Family, L, true, Add>(exec, g, stored_.data(),
                                                                  flags_.data(), d, u);
    } else {
      detail::lane_axis_factored_solve_host<Family, L, false, Add>(exec, lines_, stored_.data(),
                                                                   flags_.data(), d, u);
    }
  }

  lane_axis_factorization(const Kokkos::View<Scalar*, memory_space>& stored,
                          const Kokkos::View<std::uint8_t*, memory_space>& flags,
                          const Kokkos::View<int*, memory_space>& info,
                          const Kokkos::View<int*, memory_space>& solve_info,
                          const detail::line_packs& lines, std::array<std::size_t, 4> extents,
                          int rank, int axis, std::size_t per_array, bool shared)
      : base(info, lines, extents, rank, axis, shared), stored_(stored), flags_(flags),
        solve_info_(solve_info), per_array_(per_array) {}

  Kokkos::View<Scalar*, memory_space> stored_;  // host: the factors; device: a, b, c
  Kokkos::View<std::uint8_t*, memory_space> flags_;  // host: the factors' flags, if any
  Kokkos::View<int*, memory_space> solve_info_;
  std::size_t per_array_ = 0;
};

namespace detail {

// The factors of the lines of `lines` (a, b, c: full arrays of the grid's extents, any layouts,
// or rank 1: n values shared by every line; Rank: the grid's) into `stored` and `flags` (the
// device backend: copies of a, b and c, per_array values each) and their info codes:
// factorize_along's and refactor's work. Enqueued on exec.
template <class Family, class Backend, int Rank, class ExecutionSpace, class AView, class BView,
          class CView, class T, class InfoView>
void lane_axis_factor_into(const ExecutionSpace& exec, const line_packs& lines,
                           const std::array<std::size_t, 4>& extents, int axis, const AView& a,
                           const BView& b, const CView& c,
                           const Kokkos::View<T*, typename ExecutionSpace::memory_space>& stored,
                           std::size_t per_array,
                           const Kokkos::View<std::uint8_t*,
                                              typename ExecutionSpace::memory_space>& flags,
                           const InfoView& info) {
  using memory_space = typename ExecutionSpace::memory_space;
  constexpr bool shared = BView::rank == 1;
  if (lines.nsys == 0) return;
  if (lines.n == 0) {
    Kokkos::deep_copy(exec, info, 0);
    return;
  }
  if constexpr (std::is_same_v<Backend, backend::device>) {
    constexpr int copy_rank = shared ? 1 : Rank;
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
    const std::string label = Family::factorize_name;
    const auto values = static_cast<std::size_t>(lines.n) * static_cast<std::size_t>(lines.nsys);
    const Kokkos::View<T*, memory_space> zeros(Kokkos::view_alloc(exec, label + " codes"),
                                               values);
    const auto z = stored_array<Rank, memory_space>(zeros.data(), values, 0, extents, axis, true);
    lane_family_along<typename Family::lane_family, backend::device, false>(
        exec, label.c_str(), axis, ac, bc, cc, z, z, info);
  } else if constexpr (shared) {
    lane_axis_factor_shared_host<Family>(exec, lines.n, a, b, c, stored.data(), flags.data(),
                                         info);
  } else {
    lane_axis_factor_host<Family, lane_axis_factor_lanes<T>>(exec, lines, a, b, c, stored.data(),
                                                             flags.data(), info);
  }
}

// factorize_along(Family) on the extents and line grouping of `grid` (d, or b), after the
// checks.
template <class Family, class Backend, class ExecutionSpace, class GridView, class AView,
          class BView, class CView>
auto lane_axis_factorize(const ExecutionSpace& exec, int axis, const GridView& grid,
                         const AView& a, const BView& b, const CView& c) {
  using T = typename BView::non_const_value_type;
  using F = lane_axis_factorization<Family, T, ExecutionSpace, Backend>;
  using memory_space = typename F::memory_space;
  constexpr int rank = static_cast<int>(GridView::rank);
  constexpr bool shared = BView::rank == 1;
  constexpr bool device = std::is_same_v<Backend, backend::device>;
  constexpr int L = lane_axis_factor_lanes<T>;
  const line_packs lines = make_line_packs(grid, axis, lane_axis_of(grid, axis), L);
  std::array<std::size_t, 4> extents{};
  for (int k = 0; k < rank; ++k) extents[static_cast<std::size_t>(k)] = extent_at(grid, k);
  const auto n = static_cast<std::size_t>(lines.n);
  const auto nsys = static_cast<std::size_t>(lines.nsys);
  // Device: copies of a, b, c (n values each when shared); host: the factors of every row of
  // every pack's lines (of one line when shared).
  const std::size_t per_array = nsys == 0 ? 0 : shared ? n : device ? n * nsys : 0;
  const std::size_t rows =
      nsys == 0 || device ? 0 : shared ? n : n * static_cast<std::size_t>(lines.npacks) * L;
  const std::size_t values = device ? 3 * per_array : Family::values_per_row * rows;
  const std::string label = Family::factorize_name;
  const auto stored =
      allocate_zeroed<Kokkos::View<T*, memory_space>>(exec, label + " factors", values);
  const auto flags = allocate_zeroed<Kokkos::View<std::uint8_t*, memory_space>>(
      exec, label + " flags", Family::flag_bytes_per_row * rows);
  const Kokkos::View<int*, memory_space> info(Kokkos::view_alloc(exec, label + " info"), nsys);
  const Kokkos::View<int*, memory_space> solve_info(
      Kokkos::view_alloc(exec, label + " solve info"), device ? nsys : 0);
  lane_axis_factor_into<Family, Backend, rank>(exec, lines, extents, axis, a, b, c, stored,
                                               per_array, flags, info);
  return lane_axis_factorization_access::make<F>(stored, flags, info, solve_info, lines, extents,
                                                 rank, axis, per_array, shared);
}

}  // namespace detail

template <class Family, class Scalar, class ExecutionSpace, class Backend>
template <class AView, class BView, class CView>
void lane_axis_factorization<Family, Scalar, ExecutionSpace, Backend>::refactor(
    const ExecutionSpace& exec, const AView& a, const BView& b, const CView& c) {
  detail::axis_refactor_static_checks<Scalar, ExecutionSpace, AView, BView, CView>();
  const std::string fn = Family::refactor_name;
  this->check_refactor_coefficient(fn, "a", a);
  this->check_refactor_coefficient(fn, "b", b);
  this->check_refactor_coefficient(fn, "c", c);
  const auto factor = [&](auto rank) {
    detail::lane_axis_factor_into<Family, Backend, decltype(rank)::value>(
        exec, lines_, extents_, axis_, a, b, c, stored_, per_array_, flags_, info_);
  };
  if constexpr (BView::rank == 1)
    detail::with_grid_rank(this->rank_, factor);
  else
    factor(std::integral_constant<int, static_cast<int>(BView::rank)>{});
}

namespace detail {

// factorize_along(Family) with d (the extents and the grouping of the lines from d: full or
// shared coefficients), or without (from b: full arrays), after the checks.
template <class Family, class Backend, class ExecutionSpace, class GridView, class AView,
          class BView, class CView>
auto lane_axis_factorize_checked(const ExecutionSpace& exec, int axis, const GridView& grid,
                                 const char* grid_name, const AView& a, const BView& b,
                                 const CView& c) {
  thomas_axis_factor_checks<Backend, ExecutionSpace>(Family::factorize_name, axis, grid,
                                                     grid_name, a, b, c);
  return lane_axis_factorize<Family, Backend>(exec, axis, grid, a, b, c);
}

}  // namespace detail

}  // namespace bandsolve
