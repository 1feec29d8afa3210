#pragma once
// Tridiagonal solves with partial pivoting on the device backend (backend/device/): the
// elimination steps of pivoting_kernel.hpp (pivot_step, pivot_last) with one lane per thread, a
// team per tile of 32 systems, one thread per system reading its system in place (coalesced
// where neighbouring systems are neighbours in memory: column, interleaved<W>, strided with unit
// system stride; row-layout systems are read with the row stride apart, not yet through tiles).
// Runs on Kokkos::Cuda and, for tests, on host execution spaces
// (solve(..., backend::device{})). Called from pivoting.hpp after its argument checks.
//
// One-shot solve: the transformed right-hand side y overwrites d on the way down, x on the way
// back; 1/U(i,i), U(i,i+1), U(i,i+2) go to row scratch of 3 n 32 sizeof(T) bytes per tile,
// rows [i][system] (team scratch level 0 or 1 by size, or one allocation per call:
// backend/device/launch.hpp, row_scratch_place). The factorization stores 1/U(i,i), U(i,i+1),
// U(i,i+2), the multipliers and the interchange flags in packs of 32 systems
// (View<T***>(tiles, n, 32)): thread k of a tile reads entry k of a row, coalesced. Its solve
// takes no scratch; its refactor(exec, a, b, c) factors new matrices of the same shape into those
// packs with factorize's kernel.
#include <bandsolve/backend/device/launch.hpp>
#include <bandsolve/backend/device/systems.hpp>
#include <bandsolve/backend/device/tile_transpose.hpp>
#include <bandsolve/backend/device/work_shape.hpp>
#include <bandsolve/core/checks.hpp>
#include <bandsolve/tridiag/batch_checks.hpp>
#include <bandsolve/tridiag/pivoting_kernel.hpp>

#include <cstdint>
#include <string>

namespace bandsolve {
namespace detail {

// x_i = (y_i - u1_i x_{i+1} - u2_i x_{i+2}) / U(i, i) from the last row up (pivot_back_substitute
// of pivoting_kernel.hpp for one system whose factor rows are `ts` apart): y in ds, x into ds.
template <class T, class D>
KOKKOS_FORCEINLINE_FUNCTION void pivoting_device_back(index_t n, const T* r, const T* u1,
                                                      const T* u2, index_t ts, D* ds,
                                                      index_t sd) {
  D x1 = ds[(n - 1) * sd] * r[(n - 1) * ts], x2 = D(0);
  ds[(n - 1) * sd] = x1;
  for (index_t i = n - 2; i >= 0; --i) {
    const D x = (ds[i * sd] - u1[i * ts] * x1 - u2[i * ts] * x2) * r[i * ts];
    x2 = x1;
    x1 = x;
    ds[i * sd] = x;
  }
}

// One-shot solve of a tile, one thread per system.
template <class T, class D, class InfoView>
struct pivoting_device_one_shot {
  device::systems<const T> a, b, c;
  device::systems<D> d;
  InfoView info;
  index_t n, slots, nsys;

  static std::size_t row_bytes(index_t n) {
    return static_cast<std::size_t>(n) * device::tile_systems * 3 * sizeof(T);
  }

  template <class Member>
  KOKKOS_INLINE_FUNCTION void operator()(const Member& team, index_t t, void*, void* rows) const {
    constexpr int TW = device::tile_systems;
    T* const r = static_cast<T*>(rows);
    T* const u1 = r + n * TW;
    T* const u2 = u1 + n * TW;
    device::for_each_system_of_tile(team, device::systems_in_tile(slots, t), [&](const int k) {
      const index_t s = t * TW + k;
      const T *as = a.system(s), *bs = b.system(s), *cs = c.system(s);
      D* ds = d.system(s);
      const index_t sa = a.row_stride, sb = b.row_stride, sc = c.row_stride, sd = d.row_stride;
      int code = 0;
      T cd = bs[0], cu = n > 1 ? cs[0] : T(0);
      D cy = ds[0];
      for (index_t i = 0; i + 1 < n; ++i) {
        const T A = as[(i + 1) * sa], B = bs[(i + 1) * sb],
                C = i + 2 < n ? cs[(i + 1) * sc] : T(0);
        const D Dn = ds[(i + 1) * sd];
        const index_t o = i * TW + k;
        pivot_step<1, true>(i, &A, &B, &C, &Dn, &cd, &cu, &cy, r + o, u1 + o, u2 + o, ds + i * sd,
                            static_cast<T*>(nullptr), static_cast<std::uint8_t*>(nullptr), &code);
      }
      const index_t o = (n - 1) * TW + k;
      pivot_last<1>(n, &cd, r + o, u1 + o, u2 + o, &code);
      ds[(n - 1) * sd] = cy;
      pivoting_device_back(n, r + k, u1 + k, u2 + k, TW, ds, sd);
      if (s < nsys) info(s) = code;
    });
  }
};

// Factorization of a tile into packs of 32 (entry k of row i of tile t at view(t, i, k)).
template <class T, class FactorView, class FlagView, class InfoView>
struct pivoting_device_factor {
  device::systems<const T> a, b, c;
  FactorView r, u1, u2, lm;
  FlagView sw;
  InfoView info;
  index_t n, slots, nsys;

  template <class Member>
  KOKKOS_INLINE_FUNCTION void operator()(const Member& team, index_t t, void*, void*) const {
    constexpr int TW = device::tile_systems;
    T* const rp = &r(t, 0, 0);
    T* const u1p = &u1(t, 0, 0);
    T* const u2p = &u2(t, 0, 0);
    T* const lp = &lm(t, 0, 0);
    std::uint8_t* const swp = &sw(t, 0, 0);
    device::for_each_system_of_tile(team, device::systems_in_tile(slots, t), [&](const int k) {
      const index_t s = t * TW + k;
      const T *as = a.system(s), *bs = b.system(s), *cs = c.system(s);
      const index_t sa = a.row_stride, sb = b.row_stride, sc = c.row_stride;
      int code = 0;
      T cd = bs[0], cu = n > 1 ? cs[0] : T(0);
      for (index_t i = 0; i + 1 < n; ++i) {
        const T A = as[(i + 1) * sa], B = bs[(i + 1) * sb],
                C = i + 2 < n ? cs[(i + 1) * sc] : T(0);
        const index_t o = i * TW + k;
        pivot_step<1, false>(i, &A, &B, &C, static_cast<const T*>(nullptr), &cd, &cu,
                             static_cast<T*>(nullptr), rp + o, u1p + o, u2p + o,
                             static_cast<T*>(nullptr), lp + o, swp + o, &code);
      }
      const index_t o = (n - 1) * TW + k;
      pivot_last<1>(n, &cd, rp + o, u1p + o, u2p + o, &code);
      lp[o] = T(0);
      swp[o] = 0;
      if (s < nsys) info(s) = code;
    });
  }
};

// Solve of a tile with stored factors: interchanges and multipliers applied to d (y in d), then
// back substitution.
template <class T, class D, class FactorView, class FlagView>
struct pivoting_device_factored_solve {
  device::systems<D> d;
  FactorView r, u1, u2, lm;
  FlagView sw;
  index_t n, slots;

  template <class Member>
  KOKKOS_INLINE_FUNCTION void operator()(const Member& team, index_t t, void*, void*) const {
    constexpr int TW = device::tile_systems;
    const T* const rp = &r(t, 0, 0);
    const T* const u1p = &u1(t, 0, 0);
    const T* const u2p = &u2(t, 0, 0);
    const T* const lp = &lm(t, 0, 0);
    const std::uint8_t* const swp = &sw(t, 0, 0);
    device::for_each_system_of_tile(team, device::systems_in_tile(slots, t), [&](const int k) {
      D* ds = d.system(t * TW + k);
      const index_t sd = d.row_stride;
      D cy = ds[0];
      for (index_t i = 0; i + 1 < n; ++i) {
        const index_t o = i * TW + k;
        const D Dn = ds[(i + 1) * sd];
        const bool swapped = swp[o] != 0;
        const D py = select(swapped, Dn, cy), oy = select(swapped, cy, Dn);
        ds[i * sd] = py;
        cy = oy - lp[o] * py;
      }
      ds[(n - 1) * sd] = cy;
      pivoting_device_back(n, rp + k, u1p + k, u2p + k, TW, ds, sd);
    });
  }
};

// One-shot solve of nsys systems of n rows (n, nsys > 0, arguments checked).
template <class ExecutionSpace, class AView, class BView, class CView, class DView,
          class InfoView>
void pivoting_device_solve(const ExecutionSpace& exec, const AView& a, const BView& b,
                           const CView& c, const DView& d, const InfoView& info, index_t n,
                           index_t nsys) {
  using T = typename BView::non_const_value_type;
  using D = typename DView::non_const_value_type;
  using kernel = pivoting_device_one_shot<T, D, InfoView>;
  const index_t slots = device::computed_slots(d, nsys);
  const index_t ntiles = device::tile_count(slots);
  device::for_each_tile(exec, "bandsolve::solve(partial_pivoting, device)", ntiles, 0,
                        kernel::row_bytes(n),
                        kernel{device::systems_of<const T>(a), device::systems_of<const T>(b),
                               device::systems_of<const T>(c), device::systems_of(d), info, n,
                               slots, nsys});
}

struct pivoting_device_factorization_access;

}  // namespace detail

// The LU factors with row interchanges of a batch of tridiagonal matrices on the device backend
// (factorize(exec, algo::partial_pivoting{}, a, b, c, backend::device{}), or any factorize on
// Kokkos::Cuda): 1/U(i,i), U(i,i+1), U(i,i+2), the multipliers and one interchange flag per row,
// in packs of 32 systems whatever the input layout, so that a solve reads them coalesced.
// Storage: n 32 (4 sizeof(Scalar) + 1) bytes per pack of 32 systems.
template <class Scalar, class Layout, class ExecutionSpace>
class pivoting_device_factorization {
 public:
  using scalar_type = Scalar;
  using layout_type = Layout;
  using execution_space = ExecutionSpace;
  using memory_space = typename ExecutionSpace::memory_space;
  static constexpr int block_width = detail::device::tile_systems;
  // (packs, n, block_width).
  using factor_view = Kokkos::View<Scalar***, Kokkos::LayoutRight, memory_space>;
  using flag_view = Kokkos::View<std::uint8_t***, Kokkos::LayoutRight, memory_space>;

  pivoting_device_factorization() = default;

  std::size_t nsys() const { return static_cast<std::size_t>(nsys_); }
  std::size_t n() const { return static_cast<std::size_t>(n_); }
  // Per-system info codes (0, or the 1-based row of the first zero, tiny or non-finite U(i, i)).
  Kokkos::View<const int*, memory_space> info() const { return info_; }

  // LAPACK's ipiv (1-based) of every system, as pivoting_factorization::ipiv. Copies to the
  // host, so it waits for exec.
  Kokkos::View<int**, Kokkos::LayoutRight, Kokkos::HostSpace> ipiv() const {
    Kokkos::View<int**, Kokkos::LayoutRight, Kokkos::HostSpace> out(
        "bandsolve ipiv", static_cast<std::size_t>(nsys_), static_cast<std::size_t>(n_));
    auto flags = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), sw_);
    for (index_t s = 0; s < nsys_; ++s)
      for (index_t i = 0; i < n_; ++i)
        out(s, i) = static_cast<int>(i + 1) +
                    (flags(s / block_width, i, s % block_width) != 0 ? 1 : 0);
    return out;
  }

  // Factors new matrices of the shape that was factored (the same rows and systems, Views of
  // Layout and Scalar) into this factorization's packs of 32: no allocation, no fresh pages. Same
  // factors, interchanges and info codes as factorize; enqueued on exec, not fenced. Copies of a
  // factorization share its storage and see the new factors.
  template <class AView, class BView, class CView>
  void refactor(const ExecutionSpace& exec, const AView& a, const BView& b, const CView& c);

  // Solves for the right-hand sides in d (same layout and shape as the factored matrices), in
  // place. d holds Scalar, or Kokkos::complex<Scalar> when Scalar is real. Enqueued on exec, not
  // fenced; no scratch. Systems whose info is not 0 get inf/NaN.
  template <class DView>
  void solve(const ExecutionSpace& exec, const DView& d) const {
    detail::factored_solve_static_checks<algo::partial_pivoting, ExecutionSpace, Layout, Scalar,
                                         DView>();
    using D = typename DView::value_type;
    const std::string fn = "bandsolve::pivoting_factorization::solve";
    detail::check_factored_solve<Layout>(fn, initialized_, d, n_, nsys_);
    if (nsys_ == 0 || n_ == 0) return;
    using kernel = detail::pivoting_device_factored_solve<Scalar, D, factor_view, flag_view>;
    const index_t slots = detail::device::computed_slots(d, nsys_);
    const index_t ntiles = detail::device::tile_count(slots);
    detail::device::for_each_tile(exec, "bandsolve::pivoting_factorization::solve(device)",
                                  ntiles, 0, 0,
                                  kernel{detail::device::systems_of(d), r_, u1_, u2_, lm_, sw_,
                                         n_, slots});
  }

 private:
  friend struct detail::pivoting_device_factorization_access;

  // Members are built here, never assigned into default-constructed Views.
  pivoting_device_factorization(const factor_view& r, const factor_view& u1,
                                const factor_view& u2, const factor_view& lm,
                                const flag_view& sw, const Kokkos::View<int*, memory_space>& info,
                                index_t nsys, index_t n)
      : r_(r), u1_(u1), u2_(u2), lm_(lm), sw_(sw), info_(info), nsys_(nsys), n_(n),
        initialized_(true) {}

  factor_view r_, u1_, u2_, lm_;
  flag_view sw_;
  Kokkos::View<int*, memory_space> info_;
  index_t nsys_ = 0, n_ = 0;
  bool initialized_ = false;
};

namespace detail {
struct pivoting_device_factorization_access {
  template <class F, class... Args>
  static F make(const Args&... args) {
    return F(args...);
  }
};

// The factors of (a, b, c), nsys systems of n rows (arguments checked), into the packs r, u1, u2,
// lm, sw and info: factorize's and refactor's kernel. Enqueued on exec.
template <class ExecutionSpace, class AView, class BView, class CView, class FactorView,
          class FlagView, class InfoView>
void pivoting_device_factor_into(const ExecutionSpace& exec, const AView& a, const BView& b,
                                 const CView& c, index_t n, index_t nsys, const FactorView& r,
                                 const FactorView& u1, const FactorView& u2, const FactorView& lm,
                                 const FlagView& sw, const InfoView& info) {
  using T = typename BView::non_const_value_type;
  if (nsys == 0 || n == 0) return;
  const index_t slots = device::computed_slots(b, nsys);
  using kernel = pivoting_device_factor<T, FactorView, FlagView, InfoView>;
  device::for_each_tile(exec, "bandsolve::factorize(partial_pivoting, device)",
                        static_cast<index_t>(r.extent(0)), 0, 0,
                        kernel{device::systems_of<const T>(a), device::systems_of<const T>(b),
                               device::systems_of<const T>(c), r, u1, u2, lm, sw, info, n, slots,
                               nsys});
}

// factorize on the device backend: nsys systems of n rows (arguments checked). Allocates the
// factors and info; enqueued on exec, not fenced.
template <class ExecutionSpace, class AView, class BView, class CView>
pivoting_device_factorization<typename BView::non_const_value_type, layout_of_t<BView>,
                              ExecutionSpace>
pivoting_device_factorize(const ExecutionSpace& exec, const AView& a, const BView& b,
                          const CView& c, index_t nsys) {
  using T = typename BView::non_const_value_type;
  using F = pivoting_device_factorization<T, layout_of_t<BView>, ExecutionSpace>;
  using fv = typename F::factor_view;
  using flags = typename F::flag_view;
  using info_type = Kokkos::View<int*, typename F::memory_space>;
  constexpr int TW = device::tile_systems;
  const index_t n = static_cast<index_t>(rows(b));
  const index_t slots = device::computed_slots(b, nsys);
  const index_t ntiles = device::tile_count(slots);
  auto alloc = [&](const char* label) { return Kokkos::view_alloc(exec, std::string(label)); };
  const auto et = static_cast<std::size_t>(ntiles), en = static_cast<std::size_t>(n);  // extents
  const fv r(alloc("bandsolve::partial_pivoting 1/U(i,i)"), et, en, TW);
  const fv u1(alloc("bandsolve::partial_pivoting U(i,i+1)"), et, en, TW);
  const fv u2(alloc("bandsolve::partial_pivoting U(i,i+2)"), et, en, TW);
  const fv lm(alloc("bandsolve::partial_pivoting multipliers"), et, en, TW);
  const flags sw(alloc("bandsolve::partial_pivoting interchanges"), et, en, TW);
  const info_type info(alloc("bandsolve::partial_pivoting info"), static_cast<std::size_t>(nsys));
  pivoting_device_factor_into(exec, a, b, c, n, nsys, r, u1, u2, lm, sw, info);
  return pivoting_device_factorization_access::make<F>(r, u1, u2, lm, sw, info, nsys, n);
}
}  // namespace detail

template <class Scalar, class Layout, class ExecutionSpace>
template <class AView, class BView, class CView>
void pivoting_device_factorization<Scalar, Layout, ExecutionSpace>::refactor(
    const ExecutionSpace& exec, const AView& a, const BView& b, const CView& c) {
  detail::check_refactor<algo::partial_pivoting, ExecutionSpace, Layout, Scalar>(
      "bandsolve::pivoting_device_factorization::refactor", initialized_, a, b, c, n_, nsys_);
  detail::pivoting_device_factor_into(exec, a, b, c, n_, nsys_, r_, u1_, u2_, lm_, sw_, info_);
}

}  // namespace bandsolve
