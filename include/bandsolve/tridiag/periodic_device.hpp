#pragma once
// Periodic tridiagonal solves on the device backend (backend/device/): the bordering method of
// periodic_kernel.hpp (periodic_factor_block, periodic_factored_solve_block) with one lane per
// thread and rows 32 entries apart, a team per tile of 32 systems, one thread per system reading
// its system in place (coalesced where neighbouring systems are neighbours in memory: column,
// interleaved<W>, strided with unit system stride; row-layout systems are read with the row
// stride apart, not yet through tiles). Runs on Kokkos::Cuda and, for tests, on host execution
// spaces (solve(..., backend::device{})). Called from periodic.hpp after its argument checks.
//
// The one-shot solve factors each system into row scratch (1/pivot, a/pivot, c/pivot, z) and
// solves with those factors in the same thread: the pivots and info are the factorization's.
// Row scratch per tile, rows [i][system]: n 32 (4 sizeof(T) + sizeof(D)) bytes (one-shot),
// n 32 sizeof(D) (factored solve); team scratch level 0 or 1 by size, or one allocation per call
// (backend/device/launch.hpp, row_scratch_place). The factorization stores its four factor rows
// in packs of 32 systems (View<T***>(tiles, n, 32)), 4 n 32 sizeof(T) bytes per pack.
#include <bandsolve/backend/device/launch.hpp>
#include <bandsolve/backend/device/systems.hpp>
#include <bandsolve/backend/device/tile_transpose.hpp>
#include <bandsolve/backend/device/work_shape.hpp>
#include <bandsolve/core/algo.hpp>
#include <bandsolve/core/checks.hpp>
#include <bandsolve/tridiag/batch_checks.hpp>
#include <bandsolve/tridiag/periodic_kernel.hpp>

#include <string>

namespace bandsolve {
namespace detail {

// System s of a batch as a one-lane block.
template <class T>
KOKKOS_FORCEINLINE_FUNCTION lane_block<T, 1, 1> periodic_device_lane(const device::systems<T>& v,
                                                                      index_t s) {
  return lane_block<T, 1, 1>(device::system_view<T>{v.system(s), v.row_stride}, 0, 1);
}

// Factorization of thread k's system into factor rows 32 apart (f points at entry k of row 0),
// then, when WithSolve, the solve of its right-hand side with them (y: row scratch of entry k).
template <class T, class D, class InfoView>
struct periodic_device_one_shot {
  device::systems<const T> a, b, c;
  device::systems<D> d;
  InfoView info;
  index_t n, slots, nsys;

  static std::size_t row_bytes(index_t n) {
    return static_cast<std::size_t>(n) * device::tile_systems * (4 * sizeof(T) + sizeof(D));
  }

  template <class Member>
  KOKKOS_INLINE_FUNCTION void operator()(const Member& team, index_t t, void*, void* rows) const {
    constexpr int TW = device::tile_systems;
    T* const r = static_cast<T*>(rows);
    D* const y = reinterpret_cast<D*>(r + 4 * n * TW);
    device::for_each_system_of_tile(team, device::systems_in_tile(slots, t), [&](const int k) {
      const index_t s = t * TW + k;
      const periodic_factors<T> f{r + k, r + n * TW + k, r + 2 * n * TW + k, r + 3 * n * TW + k};
      int code = 0;
      periodic_factor_block<1, 1, T, TW>(n, periodic_device_lane(a, s), periodic_device_lane(b, s),
                                         periodic_device_lane(c, s), f, &code);
      periodic_factored_solve_block<1, 1, T, D, TW>(
          n, periodic_factors<const T>{f.r, f.lo, f.cp, f.z}, periodic_device_lane(d, s), y + k);
      if (s < nsys) info(s) = code;
    });
  }
};

// Factorization of a tile into packs of 32 (entry k of row i of tile t at view(t, i, k)).
template <class T, class FactorView, class InfoView>
struct periodic_device_factor {
  device::systems<const T> a, b, c;
  FactorView r, lo, cp, z;
  InfoView info;
  index_t n, slots, nsys;

  template <class Member>
  KOKKOS_INLINE_FUNCTION void operator()(const Member& team, index_t t, void*, void*) const {
    constexpr int TW = device::tile_systems;
    T* const rp = &r(t, 0, 0);
    T* const lp = &lo(t, 0, 0);
    T* const cpp = &cp(t, 0, 0);
    T* const zp = &z(t, 0, 0);
    device::for_each_system_of_tile(team, device::systems_in_tile(slots, t), [&](const int k) {
      const index_t s = t * TW + k;
      int code = 0;
      periodic_factor_block<1, 1, T, TW>(n, periodic_device_lane(a, s), periodic_device_lane(b, s),
                                         periodic_device_lane(c, s),
                                         periodic_factors<T>{rp + k, lp + k, cpp + k, zp + k},
                                         &code);
      if (s < nsys) info(s) = code;
    });
  }
};

// Solve of a tile with stored factors; y in row scratch ([i][system]).
template <class T, class D, class FactorView>
struct periodic_device_factored_solve {
  device::systems<D> d;
  FactorView r, lo, cp, z;
  index_t n, slots;

  static std::size_t row_bytes(index_t n) {
    return static_cast<std::size_t>(n) * device::tile_systems * sizeof(D);
  }

  template <class Member>
  KOKKOS_INLINE_FUNCTION void operator()(const Member& team, index_t t, void*, void* rows) const {
    constexpr int TW = device::tile_systems;
    const T* const rp = &r(t, 0, 0);
    const T* const lp = &lo(t, 0, 0);
    const T* const cpp = &cp(t, 0, 0);
    const T* const zp = &z(t, 0, 0);
    D* const y = static_cast<D*>(rows);
    device::for_each_system_of_tile(team, device::systems_in_tile(slots, t), [&](const int k) {
      periodic_factored_solve_block<1, 1, T, D, TW>(
          n, periodic_factors<const T>{rp + k, lp + k, cpp + k, zp + k},
          periodic_device_lane(d, t * TW + k), y + k);
    });
  }
};

// One-shot solve of nsys systems of n rows (n, nsys > 0, arguments checked).
template <class ExecutionSpace, class AView, class BView, class CView, class DView,
          class InfoView>
void periodic_device_solve(const ExecutionSpace& exec, const AView& a, const BView& b,
                           const CView& c, const DView& d, const InfoView& info, index_t n,
                           index_t nsys) {
  using T = typename BView::non_const_value_type;
  using D = typename DView::non_const_value_type;
  using kernel = periodic_device_one_shot<T, D, InfoView>;
  const index_t slots = device::computed_slots(d, nsys);
  const index_t ntiles = device::tile_count(slots);
  device::for_each_tile(exec, "bandsolve::solve(periodic, device)", ntiles, 0,
                        kernel::row_bytes(n),
                        kernel{device::systems_of<const T>(a), device::systems_of<const T>(b),
                               device::systems_of<const T>(c), device::systems_of(d), info, n,
                               slots, nsys});
}

struct periodic_device_factorization_access;

}  // namespace detail

// The factors of a batch of periodic tridiagonal matrices on the device backend
// (factorize(exec, algo::periodic{}, a, b, c, backend::device{}), or any factorize on
// Kokkos::Cuda): 1/pivot, a/pivot, c/pivot and z in packs of 32 systems whatever the input
// layout, so that a solve reads them coalesced. Storage: 4 n 32 sizeof(Scalar) bytes per pack.
template <class Scalar, class Layout, class ExecutionSpace>
class periodic_device_factorization {
 public:
  using scalar_type = Scalar;
  using layout_type = Layout;
  using execution_space = ExecutionSpace;
  using memory_space = typename ExecutionSpace::memory_space;
  static constexpr int block_width = detail::device::tile_systems;
  // (packs, n, block_width).
  using factor_view = Kokkos::View<Scalar***, Kokkos::LayoutRight, memory_space>;

  periodic_device_factorization() = default;

  std::size_t nsys() const { return static_cast<std::size_t>(nsys_); }
  std::size_t n() const { return static_cast<std::size_t>(n_); }
  Kokkos::View<const int*, memory_space> info() const { return info_; }
  // Bytes of the stored factors.
  std::size_t storage_bytes() const { return 4 * r_.span() * sizeof(Scalar); }

  // Factors new matrices of the shape that was factored (the same rows and systems, Views of
  // Layout and Scalar, any strides) into this factorization's packs: no allocation. Same factors
  // and info codes as factorize; enqueued on exec, not fenced. Copies share the storage.
  template <class AView, class BView, class CView>
  void refactor(const ExecutionSpace& exec, const AView& a, const BView& b, const CView& c);

  // Solves for the right-hand sides in d (same layout and shape as the factored matrices), in
  // place. d holds Scalar, or Kokkos::complex<Scalar> when Scalar is real. Enqueued on exec, not
  // fenced; row scratch of n 32 sizeof(D) bytes per tile of 32 systems. Systems whose info is
  // not 0 get inf/NaN.
  template <class DView>
  void solve(const ExecutionSpace& exec, const DView& d) const {
    detail::factored_solve_static_checks<algo::periodic, ExecutionSpace, Layout, Scalar, DView>();
    using D = typename DView::value_type;
    const std::string fn = "bandsolve::periodic_factorization::solve";
    detail::check_factored_solve<Layout>(fn, initialized_, d, n_, nsys_);
    if (nsys_ == 0 || n_ == 0) return;
    using kernel = detail::periodic_device_factored_solve<Scalar, D, factor_view>;
    const index_t slots = detail::device::computed_slots(d, nsys_);
    const index_t ntiles = detail::device::tile_count(slots);
    detail::device::for_each_tile(exec, "bandsolve::periodic_factorization::solve(device)", ntiles,
                                  0, kernel::row_bytes(n_),
                                  kernel{detail::device::systems_of(d), r_, lo_, cp_, z_, n_,
                                         slots});
  }

 private:
  friend struct detail::periodic_device_factorization_access;

  // Members are built here, never assigned into default-constructed Views.
  periodic_device_factorization(const factor_view& r, const factor_view& lo,
                                const factor_view& cp, const factor_view& z,
                                const Kokkos::View<int*, memory_space>& info, index_t nsys,
                                index_t n)
      : r_(r), lo_(lo), cp_(cp), z_(z), info_(info), nsys_(nsys), n_(n), initialized_(true) {}

  factor_view r_, lo_, cp_, z_;
  Kokkos::View<int*, memory_space> info_;
  index_t nsys_ = 0, n_ = 0;
  bool initialized_ = false;
};

namespace detail {
struct periodic_device_factorization_access {
  template <class F, class... Args>
  static F make(const Args&... args) {
    return F(args...);
  }
};

// The factors of nsys systems of n rows in a, b, c into the packs r, lo, cp, z and their info
// codes (factorize and refactor). Enqueued on exec.
template <class T, class ExecutionSpace, class AView, class BView, class CView, class FactorView,
          class InfoView>
void periodic_device_factor_into(const ExecutionSpace& exec, const AView& a, const BView& b,
                                 const CView& c, index_t n, index_t nsys, const FactorView& r,
                                 const FactorView& lo, const FactorView& cp, const FactorView& z,
                                 const InfoView& info) {
  if (nsys == 0 || n == 0) return;
  using kernel = periodic_device_factor<T, FactorView, InfoView>;
  device::for_each_tile(exec, "bandsolve::factorize(periodic, device)",
                        static_cast<index_t>(r.extent(0)), 0, 0,
                        kernel{device::systems_of<const T>(a), device::systems_of<const T>(b),
                               device::systems_of<const T>(c), r, lo, cp, z, info, n,
                               device::computed_slots(b, nsys), nsys});
}

// factorize on the device backend: nsys systems of n rows (arguments checked). Allocates the
// factors and info; enqueued on exec, not fenced.
template <class ExecutionSpace, class AView, class BView, class CView>
periodic_device_factorization<typename BView::non_const_value_type, layout_of_t<BView>,
                              ExecutionSpace>
periodic_device_factorize(const ExecutionSpace& exec, const AView& a, const BView& b,
                          const CView& c, index_t nsys) {
  using T = typename BView::non_const_value_type;
  using F = periodic_device_factorization<T, layout_of_t<BView>, ExecutionSpace>;
  using fv = typename F::factor_view;
  using info_type = Kokkos::View<int*, typename F::memory_space>;
  constexpr int TW = device::tile_systems;
  const index_t n = static_cast<index_t>(rows(b));
  const index_t ntiles = device::tile_count(device::computed_slots(b, nsys));
  auto alloc = [&](const char* label) { return Kokkos::view_alloc(exec, std::string(label)); };
  const auto et = static_cast<std::size_t>(ntiles), en = static_cast<std::size_t>(n);  // extents
  const fv r(alloc("bandsolve::periodic 1/pivot"), et, en, TW);
  const fv lo(alloc("bandsolve::periodic a/pivot"), et, en, TW);
  const fv cp(alloc("bandsolve::periodic c/pivot"), et, en, TW);
  const fv z(alloc("bandsolve::periodic z"), et, en, TW);
  const info_type info(alloc("bandsolve::periodic info"), static_cast<std::size_t>(nsys));
  periodic_device_factor_into<T>(exec, a, b, c, n, nsys, r, lo, cp, z, info);
  return periodic_device_factorization_access::make<F>(r, lo, cp, z, info, nsys, n);
}
}  // namespace detail

template <class Scalar, class Layout, class ExecutionSpace>
template <class AView, class BView, class CView>
void periodic_device_factorization<Scalar, Layout, ExecutionSpace>::refactor(
    const ExecutionSpace& exec, const AView& a, const BView& b, const CView& c) {
  detail::check_refactor<algo::periodic, ExecutionSpace, Layout, Scalar>(
      "bandsolve::periodic_device_factorization::refactor", initialized_, a, b, c, n_, nsys_);
  detail::periodic_device_factor_into<Scalar>(exec, a, b, c, n_, nsys_, r_, lo_, cp_, z_, info_);
}

}  // namespace bandsolve
