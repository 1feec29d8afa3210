#pragma once
// Argument checks of the solves along an axis of an N-D array (every family that has one):
// the axis, the lines' count against info, and coefficient arrays against d. Host code only.
#include <bandsolve/core/checks.hpp>
#include <bandsolve/core/scalar_traits.hpp>
#include <bandsolve/core/view_extents.hpp>
#include <bandsolve/layout/axis.hpp>

#include <array>
#include <cstddef>
#include <string>
#include <type_traits>

namespace bandsolve::detail {

template <class View, class RefView>
void check_same_extents(const std::string& fn, const char* name, const View& v,
                        const char* ref_name, const RefView& ref) {
  for (int r = 0; r < static_cast<int>(RefView::rank); ++r)
    if (extent_at(v, r) != extent_at(ref, r))
      throw_invalid_argument(fn, name, ".extent(", r, ") = ", extent_at(v, r), " but ", ref_name,
                             ".extent(", r, ") = ", extent_at(ref, r));
}

template <class View, class DView>
void check_line_coefficients(const std::string& fn, const char* name, const View& v,
                             const DView& d, int axis) {
  if (v.extent(0) != extent_at(d, axis))
    throw_invalid_argument(fn, name, ".extent(0) = ", v.extent(0),
                           " but d.extent(", axis, ") = ", extent_at(d, axis),
                           " (shared coefficients need one value per row of the solve axis)");
}

// A coefficient array of a solve along `axis`: d's extents (one matrix per line) or, as a rank-1
// View, one value per row shared by every line; it must not overlap the output.
template <class View, class DView, class OutView>
void check_along_coefficient(const std::string& fn, const char* name, const View& v,
                             const DView& d, int axis, const char* out_name, const OutView& out) {
  if constexpr (View::rank == 1)
    check_line_coefficients(fn, name, v, d, axis);
  else
    check_same_extents(fn, name, v, "d", d);
  check_no_overlap(fn, out_name, out, name, v);
}

// Checks shared by the solves along an axis: the axis is one of d's, its
// extent fits an int, and info has one entry per line. Returns the number of lines.
template <class DView, class InfoView>
std::size_t check_along_lines(const std::string& fn, int axis, const DView& d,
                              const InfoView& info) {
  constexpr int rank = static_cast<int>(DView::rank);
  if (axis < 0 || axis >= rank)
    throw_invalid_argument(fn, "axis = ", axis, " but d has rank ", rank, " (axes 0 to ",
                           rank - 1, ")");
  check_rows_fit_int(fn, extent_at(d, axis));
  std::size_t nsys = 1;
  for (int r = 0; r < rank; ++r)
    if (r != axis) nsys *= extent_at(d, r);
  if (info.extent(0) != nsys)
    throw_invalid_argument(fn, "info.extent(0) = ", info.extent(0), " but d has ", nsys,
                           " lines along axis ", axis, " (the product of its other extents)");
  return nsys;
}

// The static checks of f.solve(exec, d) for a factorization of the lines along an axis, of
// scalar type Scalar: d a non-const View of rank 2 to 4, of Scalar or Kokkos::complex of a real
// Scalar, accessible from the execution space.
template <class Scalar, class ExecutionSpace, class DView>
constexpr void axis_factored_solve_static_checks() {
  using D = typename DView::value_type;
  constexpr int rank = static_cast<int>(DView::rank);
  static_assert(Kokkos::is_view<DView>::value && rank >= 2 && rank <= max_axis_rank,
                "bandsolve: f.solve(exec, d) of lines factored along an axis: d must be a View "
                "of rank 2, 3 or 4");
  static_assert(is_rhs_of_v<Scalar, D> && !std::is_const_v<D>,
                "bandsolve: f.solve(exec, d) of lines factored along an axis: d must be a "
                "non-const View of the factored scalar type, or of Kokkos::complex of a real "
                "factored type");
  static_assert(
      Kokkos::SpaceAccessibility<ExecutionSpace, typename DView::memory_space>::accessible,
      "bandsolve: f.solve(exec, d) of lines factored along an axis: d must be accessible from "
      "the execution space");
}

// The compile-time checks of f.solve_add(exec, d, u): d of rank 2 to 4 (a View of const
// allowed) of the factored scalar type or Kokkos::complex of a real one, u of d's rank and
// scalar, not const.
template <class Scalar, class ExecutionSpace, class DView, class UView>
constexpr void axis_factored_add_static_checks() {
  static_assert(Kokkos::is_view<DView>::value && Kokkos::is_view<UView>::value,
                "bandsolve: f.solve_add(exec, d, u) of lines factored along an axis: d and u "
                "must be Kokkos::Views");
  using D = typename DView::non_const_value_type;
  constexpr int rank = static_cast<int>(DView::rank);
  static_assert(rank >= 2 && rank <= max_axis_rank && is_rhs_of_v<Scalar, D>,
                "bandsolve: f.solve_add(exec, d, u) of lines factored along an axis: d must be a "
                "View of rank 2, 3 or 4 of the factored scalar type, or of Kokkos::complex of a "
                "real factored type");
  static_assert(static_cast<int>(UView::rank) == rank &&
                    std::is_same_v<typename UView::value_type, D>,
                "bandsolve: f.solve_add(exec, d, u) of lines factored along an axis: u must be a "
                "non-const View of d's rank and scalar type (it receives u + x)");
  static_assert(
      Kokkos::SpaceAccessibility<ExecutionSpace, typename DView::memory_space>::accessible &&
          Kokkos::SpaceAccessibility<ExecutionSpace, typename UView::memory_space>::accessible,
      "bandsolve: f.solve_add(exec, d, u) of lines factored along an axis: d and u must be "
      "accessible from the execution space");
}

// solve_along_add's u against d (the families whose checks of d are their own): at compile
// time a non-const View of d's rank and scalar type that the execution space reaches.
template <class ExecutionSpace, class DView, class UView>
constexpr void along_add_target_static_checks() {
  static_assert(Kokkos::is_view<UView>::value &&
                    static_cast<int>(UView::rank) == static_cast<int>(DView::rank) &&
                    std::is_same_v<typename UView::value_type,
                                   typename DView::non_const_value_type>,
                "bandsolve::solve_along_add: u must be a non-const View of d's rank and scalar "
                "type (it receives u + x)");
  static_assert(
      Kokkos::SpaceAccessibility<ExecutionSpace, typename UView::memory_space>::accessible,
      "bandsolve::solve_along_add: u must be accessible from the execution space");
}

// At run time: d's extents, and no overlap with d.
template <class DView, class UView>
void check_along_add_target(const std::string& fn, const DView& d, const UView& u) {
  check_same_extents(fn, "u", u, "d", d);
  check_no_overlap(fn, "u", u, "d", d);
}

// The checks of f.solve(exec, d) for a factorization of the lines along an axis: it holds
// factors (not default-constructed) and d has the factored rank and extents; `factored` names
// them in the messages ("factored array", "factored grid"), `name` the View (d, or a coefficient
// given to refactor).
template <class DView>
void check_factored_extents(const std::string& fn, bool initialized, int rank,
                            const std::array<std::size_t, 4>& extents, const DView& d,
                            const char* factored, const char* name = "d") {
  constexpr int R = static_cast<int>(DView::rank);
  if (!initialized) throw_invalid_argument(fn, "this factorization is empty (default-constructed)");
  if (R != rank)
    throw_invalid_argument(fn, name, " has rank ", R, " but the ", factored, " has ", rank);
  for (int k = 0; k < R; ++k)
    if (extent_at(d, k) != extents[static_cast<std::size_t>(k)])
      throw_invalid_argument(fn, name, ".extent(", k, ") = ", extent_at(d, k), " but the ",
                             factored, " has ", extents[static_cast<std::size_t>(k)]);
}

}  // namespace bandsolve::detail
