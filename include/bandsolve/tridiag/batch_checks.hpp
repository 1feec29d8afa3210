#pragma once
// Compile-time checks shared by the scalar tridiagonal solvers (Thomas, the hybrid, PCR and CR,
// automatic, partial pivoting, periodic; symmetric's factored solve), and the run-time shape
// checks of their host APIs. The algorithm tag is a template argument so that the compiler's
// instantiation trace names the solver; tests/diagnostics checks the messages.
#include <bandsolve/backend/tags.hpp>
#include <bandsolve/core/checks.hpp>
#include <bandsolve/core/pivot.hpp>
#include <bandsolve/core/scalar_traits.hpp>

#include <type_traits>

namespace bandsolve::detail {

// The compile-time checks are class templates whose static_asserts fire where a solver names
// them (`detail::tridiag_static_checks<...>();` creates one): when the solver's body is
// instantiated, before the functions it calls, so a misused call reports the library's message
// first rather than an error from inside a function the call could never have worked with.

// The coefficients' scalar type: that of the first coefficient View, else d's.
template <class DView, class... Coefficients>
struct first_coefficient {
  using type = typename DView::non_const_value_type;
};
template <class DView, class First, class... Rest>
struct first_coefficient<DView, First, Rest...> {
  using type = typename First::non_const_value_type;
};

// d's scalar type T is the coefficients' type, or Kokkos::complex<C> over real coefficients of
// type C. (factorize() passes b as DView and as a coefficient: then all must be of one type.)
template <class Algo, class ExecutionSpace, class DView, class... Coefficients>
struct tridiag_static_checks {
  static_assert(Kokkos::is_execution_space<ExecutionSpace>::value,
                "bandsolve: the first argument must be a Kokkos execution space instance");
  static_assert((Kokkos::is_view<Coefficients>::value && ...) && Kokkos::is_view<DView>::value,
                "bandsolve: a, b, c and d must be Kokkos::Views");
  using Layout = layout_of_t<DView>;
  using T = typename DView::non_const_value_type;
  using First = typename first_coefficient<DView, Coefficients...>::type;
  static_assert(!std::is_same_v<Layout, unsupported_layout>,
                "bandsolve: " BANDSOLVE_SUPPORTED_VIEWS);
  static_assert((std::is_same_v<layout_of_t<Coefficients>, Layout> && ...),
                "bandsolve: a, b, c and d must use the same layout");
  static_assert(is_supported_scalar_v<T>,
                "bandsolve: the scalar type must be float, double, Kokkos::complex<float> or "
                "Kokkos::complex<double>");
  static_assert((std::is_same_v<typename Coefficients::non_const_value_type, First> && ...),
                "bandsolve: a, b and c must have the same scalar type");
  static_assert(is_rhs_of_v<First, T>,
                "bandsolve: d must have the scalar type of a, b and c, or be Kokkos::complex<R> "
                "over real coefficients of type R (complex coefficients need a complex d of "
                "the same precision)");
  static_assert((Kokkos::SpaceAccessibility<ExecutionSpace,
                                            typename Coefficients::memory_space>::accessible &&
                 ...) &&
                    Kokkos::SpaceAccessibility<ExecutionSpace,
                                               typename DView::memory_space>::accessible,
                "bandsolve: the Views must be accessible from the execution space");
  static_assert(sizeof(backend::default_for_t<ExecutionSpace>) > 0);  // a space with a backend
};

template <class ExecutionSpace, class InfoView>
struct info_static_checks {
  static_assert(Kokkos::is_view<InfoView>::value && InfoView::rank == 1 &&
                    std::is_same_v<typename InfoView::value_type, int>,
                "bandsolve::solve: info must be a rank-1 Kokkos::View<int*>");
  static_assert(Kokkos::SpaceAccessibility<ExecutionSpace,
                                           typename InfoView::memory_space>::accessible,
                "bandsolve::solve: info must be accessible from the execution space");
};

// A one-shot solve(exec, algo, a, b, c, d, info): the Views, info, and a d that can take the
// solution.
template <class Algo, class ExecutionSpace, class AView, class BView, class CView, class DView,
          class InfoView>
struct one_shot_static_checks : tridiag_static_checks<Algo, ExecutionSpace, DView, AView, BView,
                                                      CView>,
                                info_static_checks<ExecutionSpace, InfoView> {
  static_assert(std::is_same_v<typename DView::value_type, typename DView::non_const_value_type>,
                "bandsolve::solve: d receives the solution and cannot be a View of const");
};

// A factorization's solve(exec, d): d of the layout that was factored, holding the factored
// scalar type (or Kokkos::complex<R> over a real factored type R), not const.
template <class Algo, class ExecutionSpace, class Layout, class Scalar, class DView>
struct factored_solve_static_checks : tridiag_static_checks<Algo, ExecutionSpace, DView> {
  static_assert(std::is_same_v<layout_of_t<DView>, Layout>,
                "bandsolve: a factorization's solve: d must use the layout that was factored");
  static_assert(std::is_same_v<typename DView::value_type, typename DView::non_const_value_type>,
                "bandsolve: a factorization's solve: d receives the solution and cannot be a View "
                "of const");
  static_assert(is_rhs_of_v<Scalar, typename DView::non_const_value_type>,
                "bandsolve: a factorization's solve: d must hold the factored scalar type, or "
                "Kokkos::complex<R> when the factored type R is real");
};

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

// A factorization's solve(exec, d) at run time: factors to solve with, d of the factored shape.
template <class Layout, class DView>
void check_factored_solve(const std::string& fn, bool initialized, const DView& d, index_t n,
                          index_t nsys) {
  if (!initialized) throw_invalid_argument(fn, "this factorization is empty (default-constructed)");
  check_factored_rhs<Layout>(fn, d, n, nsys);
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
