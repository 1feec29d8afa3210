#pragma once
// Block Thomas's compile-time and run-time argument checks and the small helpers every backend
// shares: pack width and lanes of a View, the operand of a work item, the number of right-hand
// sides, and the dispatch of the run-time block size m = 2..8 to compiled kernels.
#include <bandsolve/backend/host_simd/work_shape.hpp>
#include <bandsolve/backend/tags.hpp>
#include <bandsolve/block/block_layout.hpp>
#include <bandsolve/block/block_thomas_kernel.hpp>
#include <bandsolve/core/checks.hpp>
#include <bandsolve/core/view_extents.hpp>

#include <string>
#include <type_traits>

namespace bandsolve {

namespace detail {

// Pack width W of an interleaved coefficient View, 0 for rank-4 Views.
template <class View>
inline constexpr int block_pack_width_v = static_pack_width<View, 5>();

// Systems per work item: an interleaved pack, or the host backend's cache-line lanes for rank-4
// Views (one cache line per block entry when the systems are contiguous, as in a LayoutLeft View).
template <class T, int W>
inline constexpr int block_lanes_v = W > 0 ? W : cache_line_lanes_v<T>;

// The compile-time checks of the coefficients and of d: classes, so that they fire where an entry
// point names them (tridiag/batch_checks.hpp says why).
template <class ExecutionSpace, class AView, class... Views>
struct block_coefficient_static_checks {
  static_assert(Kokkos::is_execution_space<ExecutionSpace>::value,
                "bandsolve block_thomas: the first argument must be a Kokkos execution space "
                "instance");
  static_assert(Kokkos::is_view<AView>::value && (Kokkos::is_view<Views>::value && ...),
                "bandsolve block_thomas: a, b and c must be Kokkos::Views");
  using T = typename AView::non_const_value_type;
  static constexpr int W = block_pack_width_v<AView>;
  static_assert(AView::rank == 4 || W > 0,
                "bandsolve block_thomas: coefficients must be View<T****>(nsys, n, m, m) (row, "
                "column, strided) or View<T****[W], LayoutRight>(packs, n, m, m) (interleaved<W>)");
  static_assert(((Views::rank == AView::rank && block_pack_width_v<Views> == W) && ...),
                "bandsolve block_thomas: a, b and c must use the same layout");
  static_assert(is_supported_scalar_v<T>,
                "bandsolve block_thomas: the scalar type must be float, double, "
                "Kokkos::complex<float> or Kokkos::complex<double>");
  static_assert((std::is_same_v<typename Views::non_const_value_type, T> && ...),
                "bandsolve block_thomas: a, b, c and d must have the same scalar type");
  static_assert(Kokkos::SpaceAccessibility<ExecutionSpace, typename AView::memory_space>::accessible &&
                    (Kokkos::SpaceAccessibility<ExecutionSpace,
                                                typename Views::memory_space>::accessible &&
                     ...),
                "bandsolve block_thomas: the Views must be accessible from the execution space");
  static_assert(sizeof(backend::default_for_t<ExecutionSpace>) > 0);  // a space with a backend
};

// d for coefficients of pack width W (0: rank-4 coefficient Views) and scalar type T.
template <class ExecutionSpace, int W, class T, class DView>
struct block_rhs_static_checks {
  static_assert(Kokkos::is_view<DView>::value, "bandsolve block_thomas: d must be a Kokkos::View");
  static_assert(W > 0 || DView::rank == 3 || DView::rank == 4,
                "bandsolve block_thomas: with rank-4 coefficients d must be View<T***>(nsys, n, m) "
                "or View<T****>(nsys, n, m, nrhs)");
  static_assert(W == 0 || static_pack_width<DView, 4>() == W || static_pack_width<DView, 5>() == W,
                "bandsolve block_thomas: with interleaved<W> coefficients d must be "
                "View<T***[W], LayoutRight>(packs, n, m) or View<T****[W], LayoutRight>(packs, n, "
                "m, nrhs) with the same W");
  static_assert(is_rhs_of_v<T, typename DView::value_type> &&
                    !std::is_const_v<typename DView::value_type>,
                "bandsolve block_thomas: d must be a non-const View (it receives the solution) "
                "of the coefficients' scalar type, or of Kokkos::complex of it over real "
                "coefficients");
  static_assert(
      Kokkos::SpaceAccessibility<ExecutionSpace, typename DView::memory_space>::accessible,
      "bandsolve block_thomas: d must be accessible from the execution space");
};

// The operand of work item p (group of L systems) of a coefficient View.
template <int L, class T, class View>
KOKKOS_INLINE_FUNCTION block_group<T> block_coefficient_group(const View& v, index_t p) {
  const auto st = [&](int k) { return static_cast<index_t>(v.stride(k)); };
  if constexpr (View::rank == 5)
    return block_group<T>{v.data() + p * st(0), st(4), st(1), st(2), st(3)};
  else
    return block_group<T>{v.data() + p * L * st(0), st(0), st(1), st(2), st(3)};
}

// The operand of work item p of a right-hand-side View (c_stride steps between right-hand sides).
template <int L, bool Packed, class View>
KOKKOS_INLINE_FUNCTION block_group<typename View::value_type> block_rhs_group(const View& v,
                                                                              index_t p) {
  using T = typename View::value_type;
  const auto st = [&](int k) { return static_cast<index_t>(v.stride(k)); };
  if constexpr (Packed && View::rank == 5)
    return block_group<T>{offset_or_null(v.data(), p * st(0)), st(4), st(1), st(2), st(3)};
  else if constexpr (Packed)
    return block_group<T>{offset_or_null(v.data(), p * st(0)), st(3), st(1), st(2), 0};
  else if constexpr (View::rank == 4)
    return block_group<T>{offset_or_null(v.data(), p * L * st(0)), st(0), st(1), st(2), st(3)};
  else
    return block_group<T>{offset_or_null(v.data(), p * L * st(0)), st(0), st(1), st(2), 0};
}

template <bool Packed, class DView>
index_t block_nrhs(const DView& d) {
  if constexpr (DView::rank == (Packed ? 5 : 4))
    return static_cast<index_t>(d.extent(3));
  else
    return 1;
}

// The block sizes whose kernels are compiled: all of 2..8 unless the program defines
// BANDSOLVE_BLOCK_SIZES (a comma-separated list, e.g. -DBANDSOLVE_BLOCK_SIZES=2,3) before
// including BandSolve (the same in every translation unit of a program), which compiles only
// those and cuts the block solvers' compile time in proportion. A size left out is an error at
// run time that names the macro.
#ifdef BANDSOLVE_BLOCK_SIZES
inline constexpr int compiled_block_sizes[] = {BANDSOLVE_BLOCK_SIZES};
#define BANDSOLVE_DETAIL_STRING(...) #__VA_ARGS__
#define BANDSOLVE_DETAIL_EXPANDED_STRING(...) BANDSOLVE_DETAIL_STRING(__VA_ARGS__)
inline constexpr const char* compiled_block_sizes_text =
    BANDSOLVE_DETAIL_EXPANDED_STRING(BANDSOLVE_BLOCK_SIZES);
#else
inline constexpr int compiled_block_sizes[] = {2, 3, 4, 5, 6, 7, 8};
inline constexpr const char* compiled_block_sizes_text = nullptr;
#endif

constexpr bool block_size_compiled(int m) {
  for (const int k : compiled_block_sizes)
    if (k == m) return true;
  return false;
}

constexpr bool compiled_block_sizes_valid() {
  for (const int k : compiled_block_sizes)
    if (k < 2 || k > 8) return false;
  return true;
}

// f(std::integral_constant<int, M>()) for M = m, where M is one of the compiled block sizes.
template <int M, class F>
bool block_size_call(std::size_t m, const F& f) {
  if constexpr (block_size_compiled(M)) {
    if (m == static_cast<std::size_t>(M)) {
      f(std::integral_constant<int, M>());
      return true;
    }
  }
  return false;
}

// Calls f(std::integral_constant<int, m>()) for m = 2..8; any other m, or one left out of
// BANDSOLVE_BLOCK_SIZES, is an error.
template <class F>
void block_size_dispatch(const std::string& fn, std::size_t m, const F& f) {
  static_assert(compiled_block_sizes_valid(),
                "BANDSOLVE_BLOCK_SIZES must list block sizes from 2 to 8");
  if (block_size_call<2>(m, f) || block_size_call<3>(m, f) || block_size_call<4>(m, f) ||
      block_size_call<5>(m, f) || block_size_call<6>(m, f) || block_size_call<7>(m, f) ||
      block_size_call<8>(m, f))
    return;
  if (m >= 2 && m <= 8 && compiled_block_sizes_text)
    throw_invalid_argument(fn, "block size m = ", m,
                           " is not compiled in this program: BANDSOLVE_BLOCK_SIZES = ",
                           compiled_block_sizes_text);
  throw_invalid_argument(fn, "block size m = ", m,
                         " is not supported: m must be 2 to 8 (for m = 1 use algo::thomas)");
}

// a, b and c: same extents, square blocks of a supported size; returns m.
template <class AView, class BView, class CView>
std::size_t block_check_coefficients(const std::string& fn, const AView& a, const BView& b,
                                      const CView& c) {
  const auto same = [&](const char* name, const auto& v) {
    for (int k = 0; k < static_cast<int>(AView::rank); ++k)
      if (extent_at(v, k) != extent_at(b, k))
        throw_invalid_argument(fn, name, ".extent(", k, ") = ", extent_at(v, k), " but b.extent(",
                               k, ") = ", extent_at(b, k));
  };
  same("a", a);
  same("c", c);
  if (b.extent(2) != b.extent(3))
    throw_invalid_argument(fn, "blocks must be square but b has blocks of ", b.extent(2), " x ",
                           b.extent(3));
  check_rows_fit_int(fn, b.extent(1));
  block_size_dispatch(fn, b.extent(2), [](auto) {});
  return b.extent(2);
}

// d against the coefficients' packs (or systems), rows and block size.
template <class BView, class DView>
void block_check_rhs(const std::string& fn, const BView& b, const DView& d) {
  const char* what[3] = {block_pack_width_v<BView> > 0 ? " packs" : " systems", " block rows",
                         " rows per block"};
  for (int k = 0; k < 3; ++k)
    if (extent_at(d, k) != extent_at(b, k))
      throw_invalid_argument(fn, "d.extent(", k, ") = ", extent_at(d, k), " but the matrices have ",
                             extent_at(b, k), what[k]);
}

// Number of systems: every slot of rank-4 Views, or the count given for interleaved packs.
template <class BView>
std::size_t block_systems(const std::string& fn, const char* source, std::size_t nsys,
                          const BView& b) {
  constexpr int W = block_pack_width_v<BView>;
  if constexpr (W > 0) {
    if ((nsys + W - 1) / W != b.extent(0))
      throw_invalid_argument(fn, source, " = ", nsys, " systems need ", (nsys + W - 1) / W,
                             " packs of ", W, " but b has ", b.extent(0), " packs");
  } else if (nsys != b.extent(0)) {
    throw_invalid_argument(fn, source, " = ", nsys, " but b holds ", b.extent(0), " systems");
  }
  return nsys;
}

// refactor's checks, host and device backends: matrices of the shape the factorization holds
// (slots = systems, or packs for interleaved<W>), mutually consistent.
template <class AView, class BView, class CView>
void block_check_refactor(const std::string& fn, bool initialized, const AView& a,
                          const BView& b, const CView& c, std::size_t slots, std::size_t n,
                          std::size_t m) {
  if (!initialized)
    throw_invalid_argument(fn, "this factorization is empty (default-constructed)");
  const std::size_t mb = block_check_coefficients(fn, a, b, c);
  constexpr bool packed = block_pack_width_v<BView> > 0;
  if (b.extent(0) != slots)
    throw_invalid_argument(fn, "b ", packed ? "has " : "holds ", b.extent(0),
                           packed ? " packs" : " systems", " but the factorization has ", slots);
  if (b.extent(1) != n)
    throw_invalid_argument(fn, "b has ", b.extent(1), " block rows but the factorization has ",
                           n);
  if (mb != m)
    throw_invalid_argument(fn, "b has blocks of ", mb, " x ", mb,
                           " but the factorization has blocks of ", m, " x ", m);
}
}  // namespace detail

}  // namespace bandsolve
