#pragma once
// What every factorization of the lines along an axis of an N-D array holds besides its factors
// (factorize_along of Thomas, periodic, partial pivoting and symmetric lines): the lines'
// grouping and codes, the grid's extents, the axis, and whether the coefficients were shared by
// every line; the accessors users call, and the checks a solve runs on d against the factored
// grid.
#include <bandsolve/layout/axis.hpp>
#include <bandsolve/layout/axis_checks.hpp>

#include <Kokkos_Core.hpp>

#include <array>
#include <cstddef>
#include <string>
#include <tuple>
#include <type_traits>

namespace bandsolve::detail {

// refactor's compile-time checks: Views of one rank holding the factored scalar type, accessible
// from the execution space.
template <class Scalar, class ExecutionSpace, class... Views>
constexpr void axis_refactor_static_checks() {
  static_assert((Kokkos::is_view<Views>::value && ...),
                "bandsolve: refactor takes the coefficients as Kokkos::Views");
  static_assert((std::is_same_v<typename Views::non_const_value_type, Scalar> && ...),
                "bandsolve: refactor takes coefficients of the factored scalar type");
  static_assert(((static_cast<int>(Views::rank) ==
                  static_cast<int>(std::tuple_element_t<0, std::tuple<Views...>>::rank)) &&
                 ...),
                "bandsolve: refactor takes coefficients of one rank (the grid's, or 1 where they "
                "are shared by every line)");
  static_assert((Kokkos::SpaceAccessibility<ExecutionSpace,
                                            typename Views::memory_space>::accessible &&
                 ...),
                "bandsolve: the Views must be accessible from the execution space");
}

// f(std::integral_constant<int, R>) for a grid rank R of 2 to 4 given at run time (refactor of
// coefficients shared by every line, whose Views do not carry the grid's rank).
template <class F>
void with_grid_rank(int rank, const F& f) {
  if (rank == 2) f(std::integral_constant<int, 2>{});
  else if (rank == 3) f(std::integral_constant<int, 3>{});
  else f(std::integral_constant<int, 4>{});
}

template <class MemorySpace>
class axis_lines_factorization {
 public:
  std::size_t nsys() const { return static_cast<std::size_t>(lines_.nsys); }  // lines
  std::size_t n() const { return static_cast<std::size_t>(lines_.n); }
  int axis() const { return axis_; }
  // Whether the coefficients were shared by every line (one line's factors are stored).
  bool shared() const { return shared_; }
  Kokkos::View<const int*, MemorySpace> info() const { return info_; }

 protected:
  axis_lines_factorization() = default;
  axis_lines_factorization(const Kokkos::View<int*, MemorySpace>& info, const line_packs& lines,
                           std::array<std::size_t, 4> extents, int rank, int axis, bool shared)
      : info_(info), lines_(lines), extents_(extents), rank_(rank), axis_(axis), shared_(shared),
        initialized_(true) {}

  // A solve's checks of d against the factored grid (`factored` names it in the messages);
  // false when there is nothing to solve (no lines, or no rows).
  template <class DView>
  bool solve_needed(const std::string& fn, const DView& d, const char* factored) const {
    check_factored_extents(fn, initialized_, rank_, extents_, d, factored);
    return lines_.nsys != 0 && lines_.n != 0;
  }

  // refactor's checks of a coefficient View against what was factored: arrays of the factored
  // extents, or n values shared by every line where the factored ones were.
  template <class View>
  void check_refactor_coefficient(const std::string& fn, const char* name, const View& v) const {
    constexpr int R = static_cast<int>(View::rank);
    if (initialized_ && shared_ != (R == 1))
      throw_invalid_argument(fn, name, " has rank ", R, " but the factored coefficients were ",
                             shared_ ? "shared by every line (rank 1)" : "arrays of rank ",
                             shared_ ? "" : std::to_string(rank_));
    if (initialized_ && shared_) {
      if (v.extent(0) != static_cast<std::size_t>(lines_.n))
        throw_invalid_argument(fn, name, ".extent(0) = ", v.extent(0),
                               " but the factored lines have ", lines_.n, " rows");
      return;
    }
    check_factored_extents(fn, initialized_, rank_, extents_, v, "factored array", name);
  }

  Kokkos::View<int*, MemorySpace> info_;
  line_packs lines_;
  std::array<std::size_t, 4> extents_{};
  int rank_ = 0, axis_ = 0;
  bool shared_ = false, initialized_ = false;
};

}  // namespace bandsolve::detail
