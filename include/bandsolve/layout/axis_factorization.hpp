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

namespace bandsolve::detail {

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

  Kokkos::View<int*, MemorySpace> info_;
  line_packs lines_;
  std::array<std::size_t, 4> extents_{};
  int rank_ = 0, axis_ = 0;
  bool shared_ = false, initialized_ = false;
};

}  // namespace bandsolve::detail
