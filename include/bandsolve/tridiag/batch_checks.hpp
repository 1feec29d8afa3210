#pragma once
// Compile-time checks shared by the tridiagonal solvers that take real or complex scalars
// (partial_pivoting, periodic), and the run-time shape checks of their host APIs. The algorithm
// tag is a template argument so that the compiler's instantiation trace names the solver.
#include <bandsolve/backend/tags.hpp>
#include <bandsolve/core/checks.hpp>
#include <bandsolve/core/pivot.hpp>
#include <bandsolve/core/scalar_traits.hpp>

#include <tuple>
#include <type_traits>

namespace bandsolve::detail {

// d's scalar type T is the coefficients' type, or Kokkos::complex<C> over real coefficients of
// type C. (factorize() passes b as DView and as a coefficient: then all must be of one type.)
template <class Algo, class ExecutionSpace, class DView, class... Coefficients>
constexpr void tridiag_static_checks() {
  using Layout = layout_of_t<DView>;
  using T = typename DView::non_const_value_type;
  static_assert(Kokkos::is_execution_space<ExecutionSpace>::value,
                "bandsolve: the first argument must be a Kokkos execution space instance");
  static_assert((Kokkos::is_view<Coefficients>::value && ...) && Kokkos::is_view<DView>::value,
                "bandsolve: a, b, c and d must be Kokkos::Views");
  static_assert(!std::is_same_v<Layout, unsupported_layout>,
                "bandsolve: " BANDSOLVE_SUPPORTED_VIEWS);
  static_assert((std::is_same_v<layout_of_t<Coefficients>, Layout> && ...),
                "bandsolve: a, b, c and d must use the same layout");
  static_assert(is_supported_scalar_v<T>,
                "bandsolve: the scalar type must be float, double, Kokkos::complex<float> or "
                "Kokkos::complex<double>");
  if constexpr (sizeof...(Coefficients) > 0) {
    using First =
        typename std::tuple_element_t<0, std::tuple<Coefficients...>>::non_const_value_type;
    static_assert((std::is_same_v<typename Coefficients::non_const_value_type, First> && ...),
                  "bandsolve: a, b and c must have the same scalar type");
    static_assert(is_rhs_of_v<First, T>,
                  "bandsolve: d must have the scalar type of a, b and c, or be Kokkos::complex<R> "
                  "over real coefficients of type R (complex coefficients need a complex d of "
                  "the same precision)");
  }
  static_assert((Kokkos::SpaceAccessibility<ExecutionSpace,
                                            typename Coefficients::memory_space>::accessible &&
                 ...) &&
                    Kokkos::SpaceAccessibility<ExecutionSpace,
                                               typename DView::memory_space>::accessible,
                "bandsolve: the Views must be accessible from the execution space");
  (void)sizeof(backend::default_for_t<ExecutionSpace>);
}

template <class ExecutionSpace, class InfoView>
constexpr void info_static_checks() {
  static_assert(Kokkos::is_view<InfoView>::value && InfoView::rank == 1 &&
                    std::is_same_v<typename InfoView::value_type, int>,
                "bandsolve::solve: info must be a rank-1 Kokkos::View<int*>");
  static_assert(Kokkos::SpaceAccessibility<ExecutionSpace,
                                           typename InfoView::memory_space>::accessible,
                "bandsolve::solve: info must be accessible from the execution space");
}

// Checks shared by the one-shot solves: shapes, no overlap of d with the inputs, the number of
// systems from info. Returns nsys.
template <class Layout, class AView, class BView, class CView, class DView, class InfoView>
std::size_t check_one_shot(const std::string& fn, const AView& a, const BView& b, const CView& c,
                           const DView& d, const InfoView& info) {
  check_same_shape(fn, "a", a, "d", d);
  check_same_shape(fn, "b", b, "d", d);
  check_same_shape(fn, "c", c, "d", d);
  check_no_overlap(fn, "d", d, "a", a);
  check_no_overlap(fn, "d", d, "b", b);
  check_no_overlap(fn, "d", d, "c", c);
  check_no_overlap(fn, "d", d, "info", info);
  check_rows_fit_int(fn, rows(d));
  return systems_from_info<Layout>(fn, info, d);
}

// nsys given to factorize() against the slots of b (interleaved packs may be padded).
template <class Layout, class BView>
std::size_t check_factor_nsys(const std::string& fn, const BView& b, std::size_t nsys) {
  const std::size_t slots = capacity(b);
  if (nsys == static_cast<std::size_t>(-1)) return slots;
  bool ok = nsys == slots;
  if constexpr (!std::is_same_v<Layout, layout::row> && !std::is_same_v<Layout, layout::column> &&
                !std::is_same_v<Layout, layout::strided>)
    ok = (nsys + Layout::width - 1) / Layout::width == b.extent(0);
  if (!ok)
    throw_invalid_argument(fn, "nsys = ", nsys, " does not match the ", slots,
                           " system slots of b (", Layout::name, " layout)");
  return nsys;
}

// A View given to a factorization (d to solve(), b to refactor(), named by `name`): the rows and
// the number of slots that were factored.
template <class Layout, class View>
void check_factored_shape(const std::string& fn, const char* name, const View& v, index_t n,
                          index_t nsys) {
  if (static_cast<index_t>(rows(v)) != n)
    throw_invalid_argument(fn, name, " has ", rows(v), " rows but the factorization has ", n);
  index_t expected = nsys;
  if constexpr (!std::is_same_v<Layout, layout::row> && !std::is_same_v<Layout, layout::column> &&
                !std::is_same_v<Layout, layout::strided>)
    expected = ((nsys + Layout::width - 1) / Layout::width) * Layout::width;
  if (static_cast<index_t>(capacity(v)) != expected)
    throw_invalid_argument(fn, name, " holds ", capacity(v), " systems but the factorization has ",
                           nsys);
}

// d given to a factorization's solve(): same rows, same number of slots as what was factored.
template <class Layout, class DView>
void check_factored_rhs(const std::string& fn, const DView& d, index_t n, index_t nsys) {
  check_factored_shape<Layout>(fn, "d", d, n, nsys);
}

// The matrices given to a factorization's refactor(): a and c of b's shape, b of the shape that
// was factored.
template <class Layout, class AView, class BView, class CView>
void check_refactor_abc(const std::string& fn, const AView& a, const BView& b, const CView& c,
                        index_t n, index_t nsys) {
  check_same_shape(fn, "a", a, "b", b);
  check_same_shape(fn, "c", c, "b", b);
  check_factored_shape<Layout>(fn, "b", b, n, nsys);
}

// A tridiagonal factorization's refactor(a, b, c): Views of the layout and scalar type that were
// factored (compile time), a factorization that holds factors, the shape that was factored.
template <class Algo, class ExecutionSpace, class Layout, class Scalar, class AView, class BView,
          class CView>
void check_refactor(const std::string& fn, bool initialized, const AView& a, const BView& b,
                    const CView& c, index_t n, index_t nsys) {
  tridiag_static_checks<Algo, ExecutionSpace, BView, AView, BView, CView>();
  static_assert(std::is_same_v<layout_of_t<BView>, Layout> &&
                    std::is_same_v<typename BView::non_const_value_type, Scalar>,
                "bandsolve: refactor takes a, b and c of the layout and scalar type that were "
                "factored");
  if (!initialized) throw_invalid_argument(fn, "this factorization is empty (default-constructed)");
  check_refactor_abc<Layout>(fn, a, b, c, n, nsys);
}

}  // namespace bandsolve::detail
