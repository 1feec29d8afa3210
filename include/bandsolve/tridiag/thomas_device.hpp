#pragma once
// Batched Thomas on the device backend (backend/device/): the per-row arithmetic of
// thomas_kernel.hpp with one lane per thread, in the backend's two work shapes (work_shape.hpp):
// per-system threads where neighbouring systems are neighbours in memory, row tiles through
// padded team scratch where each system is contiguous. Runs on Kokkos::Cuda and, for tests, on
// host execution spaces (solve(..., backend::device{})). Called from thomas.hpp after its
// argument checks.
//
// Row scratch per tile of 32 systems (c' and d' of the one-shot solve, d' of the factored solve),
// rows [i][system]: one-shot n 32 sizeof(T) bytes (per-system threads, d' is kept in d) or
// n 32 (sizeof(T) + sizeof(D)) (row tiles); factored solve n 32 sizeof(D) (row tiles only).
// Team scratch level 0 or 1 by size, or one allocation per call (backend/device/launch.hpp,
// row_scratch_place). One thread per system; the one-shot and the factored solve of short
// systems keep each system's rows in the registers of several threads instead
// (thomas_chunked_device.hpp, device::chunked_thomas_fits), and the one-shot solve of a few long
// systems takes the chunk method over many teams (thomas_long_device.hpp,
// device::long_system_pays).
// The factorization stores r = 1/pivot, l = a/pivot and c' in packs of 32 systems
// (View<T***>(tiles, n, 32)): thread k of a tile reads entry k of a row, coalesced.
#include <bandsolve/backend/device/launch.hpp>
#include <bandsolve/backend/device/systems.hpp>
#include <bandsolve/backend/device/tile_transpose.hpp>
#include <bandsolve/backend/device/work_shape.hpp>
#include <bandsolve/core/algo.hpp>
#include <bandsolve/core/checks.hpp>
#include <bandsolve/tridiag/batch_checks.hpp>  // check_factored_rhs, check_refactor
#include <bandsolve/tridiag/thomas_chunked_device.hpp>
#include <bandsolve/tridiag/thomas_kernel.hpp>
#include <bandsolve/tridiag/thomas_long_device.hpp>

#include <string>

namespace bandsolve {
namespace detail {

// The backward sweep of the row-tile kernels, x_i = d'_i - c'_i x_{i+1}, over rows [i][system]
// of c' (cp) and d' (dp, overwritten with x), in blocks of rb rows from the last, each block
// written back to d through the tile td (leading dimension ld).
template <class Member, class C, class D, class DSystems>
KOKKOS_INLINE_FUNCTION void device_tile_backward(const Member& team, index_t n, int rb, int ns,
                                                 const C* cp, D* dp, D* td, int ld,
                                                 const DSystems& d, index_t s0) {
  constexpr int TW = device::tile_systems;
  for (index_t i0 = (n - 1) / rb * rb; i0 >= 0; i0 -= rb) {
    const int nr = static_cast<int>(n - i0 < rb ? n - i0 : rb);
    device::for_each_system_of_tile(team, ns, [&](const int k) {
      for (int j = nr - 1; j >= 0; --j) {
        const index_t i = i0 + j;
        if (i + 1 < n)
          backward_row<1, true, false>(1, cp + i * TW + k, dp + i * TW + k,
                                       dp + (i + 1) * TW + k);
        td[k * ld + j] = dp[i * TW + k];
      }
    });
    team.team_barrier();
    device::store_tile(team, td, ld, d, s0, ns, i0, nr);
    team.team_barrier();
  }
}

// One-shot solve, per-system threads: d' overwrites d on the way down, x on the way back. Ahead
// rows of a, b, c, d (on the way down) and of c', d' (on the way back) are loaded into registers
// before they are eliminated, so that a thread has that many rows of loads in flight.
template <class C, class D, class InfoView, int Ahead = 1>
struct thomas_device_one_shot_systems {
  device::systems<const C> a, b, c;
  device::systems<D> d;
  InfoView info;
  index_t n, slots, nsys;

  template <class Member>
  KOKKOS_INLINE_FUNCTION void operator()(const Member& team, index_t t, void*, void* rows) const {
    constexpr int TW = device::tile_systems;
    C* const cp = static_cast<C*>(rows);
    device::for_each_system_of_tile(team, device::systems_in_tile(slots, t), [&](const int k) {
      const index_t s = t * TW + k;
      const C *as = a.system(s), *bs = b.system(s), *cs = c.system(s);
      D* ds = d.system(s);
      const index_t sa = a.row_stride, sb = b.row_stride, sc = c.row_stride, sd = d.row_stride;
      C* cpk = cp + k;
      real_type_t<C> risk = 0;
      thomas_first_row<1, true>(1, bs, cs, ds, cpk, ds, &risk);
      C cp_prev = cpk[0];
      D dp_prev = ds[0];
      index_t i = 1;
      if constexpr (Ahead > 1) {
        for (; i + Ahead <= n; i += Ahead) {
          constexpr auto rows_ahead = static_cast<std::size_t>(Ahead);  // an array bound
          C av[rows_ahead], bv[rows_ahead], cv[rows_ahead];
          D dv[rows_ahead];
          for (int j = 0; j < Ahead; ++j) {
            av[j] = as[(i + j) * sa];
            bv[j] = bs[(i + j) * sb];
            cv[j] = cs[(i + j) * sc];
            dv[j] = ds[(i + j) * sd];
          }
          for (int j = 0; j < Ahead; ++j)
            thomas_next_row<1, true, true>(1, av + j, bv + j, cv + j, dv + j, &cp_prev, &dp_prev,
                                           cpk + (i + j) * TW, ds + (i + j) * sd, &risk, &cp_prev,
                                           &dp_prev);
        }
      }
      for (; i < n; ++i)
        thomas_next_row<1, true, true>(1, as + i * sa, bs + i * sb, cs + i * sc, ds + i * sd,
                                       &cp_prev, &dp_prev, cpk + i * TW, ds + i * sd, &risk,
                                       &cp_prev, &dp_prev);
      D x = dp_prev;
      index_t r = n - 2;
      if constexpr (Ahead > 1) {
        for (; r + 1 >= Ahead; r -= Ahead) {
          C cv[static_cast<std::size_t>(Ahead)];
          D dv[static_cast<std::size_t>(Ahead)];
          for (int j = 0; j < Ahead; ++j) {
            cv[j] = cpk[(r - j) * TW];
            dv[j] = ds[(r - j) * sd];
          }
          for (int j = 0; j < Ahead; ++j) {
            backward_row<1, true, true>(1, cv + j, dv + j, &x);
            ds[(r - j) * sd] = dv[j];
          }
        }
      }
      for (; r >= 0; --r) backward_row<1, true, true>(1, cpk + r * TW, ds + r * sd, &x);
      if (s < nsys)
        info(s) = risk_is_low(risk) ? 0
                                    : first_bad_pivot(n, device::system_elements<C>{as, sa},
                                                      device::system_elements<C>{bs, sb}, cpk, TW);
    });
  }
};

// One-shot solve, row tiles: blocks of RB rows of a, b, c, d through padded tiles; c' and d'
// into row scratch on the way down; x back through the d tile on the way up.
template <class C, class D, class InfoView>
struct thomas_device_one_shot_tiles {
  static constexpr int TW = device::tile_systems, RB = device::tile_rows_v<C, D>,
                       LD = device::tile_ld_v<C, D>;
  using R = real_type_t<C>;
  device::systems<const C> a, b, c;
  device::systems<D> d;
  InfoView info;
  index_t n, slots, nsys;

  static constexpr std::size_t tile_bytes() {
    return TW * LD * (3 * sizeof(C) + sizeof(D)) + TW * sizeof(R);
  }
  static std::size_t row_bytes(index_t n) {
    return static_cast<std::size_t>(n) * TW * (sizeof(C) + sizeof(D));
  }

  template <class Member>
  KOKKOS_INLINE_FUNCTION void operator()(const Member& team, index_t t, void* tiles,
                                         void* rows) const {
    C* const ta = static_cast<C*>(tiles);
    C* const tb = ta + TW * LD;
    C* const tc = tb + TW * LD;
    D* const td = reinterpret_cast<D*>(tc + TW * LD);
    R* const risk = reinterpret_cast<R*>(td + TW * LD);
    C* const cp = static_cast<C*>(rows);
    D* const dp = reinterpret_cast<D*>(cp + n * TW);
    const index_t s0 = t * TW;
    const int ns = device::systems_in_tile(slots, t);
    for (index_t i0 = 0; i0 < n; i0 += RB) {
      const int nr = static_cast<int>(n - i0 < RB ? n - i0 : RB);
      device::load_tile(team, a, s0, ns, i0, nr, ta, LD);
      device::load_tile(team, b, s0, ns, i0, nr, tb, LD);
      device::load_tile(team, c, s0, ns, i0, nr, tc, LD);
      device::load_tile(team, d, s0, ns, i0, nr, td, LD);
      team.team_barrier();
      device::for_each_system_of_tile(team, ns, [&](const int k) {
        const int o = k * LD;
        int j = 0;
        if (i0 == 0) {
          thomas_first_row<1, true>(1, tb + o, tc + o, td + o, cp + k, dp + k, risk + k);
          j = 1;
        }
        for (; j < nr; ++j) {
          const index_t i = i0 + j;
          thomas_next_row<1, true>(1, ta + o + j, tb + o + j, tc + o + j, td + o + j,
                                   cp + (i - 1) * TW + k, dp + (i - 1) * TW + k, cp + i * TW + k,
                                   dp + i * TW + k, risk + k);
        }
      });
      team.team_barrier();
    }
    device_tile_backward(team, n, RB, ns, cp, dp, td, LD, d, s0);
    device::for_each_system_of_tile(team, ns, [&](const int k) {
      const index_t s = s0 + k;
      if (s < nsys)
        info(s) = risk_is_low(risk[k])
                      ? 0
                      : first_bad_pivot(n, device::system_elements<C>{a.system(s), a.row_stride},
                                        device::system_elements<C>{b.system(s), b.row_stride},
                                        cp + k, TW);
    });
  }
};

// Factorization into packs of 32 (r, l, c' of tile t at factor(t, i, k)), per-system threads
// (Tiles = false) or row tiles of a, b, c (Tiles = true).
template <bool Tiles, class T, class FactorView, class InfoView>
struct thomas_device_factor {
  static constexpr int TW = device::tile_systems, RB = device::tile_rows_v<T>,
                       LD = device::tile_ld_v<T>;
  device::systems<const T> a, b, c;
  FactorView r, lo, cp;
  InfoView info;
  index_t n, slots, nsys;

  static constexpr std::size_t tile_bytes() {
    return Tiles ? TW * LD * 3 * sizeof(T) + TW * sizeof(int) : 0;
  }

  template <class Member>
  KOKKOS_INLINE_FUNCTION void operator()(const Member& team, index_t t, void* tiles, void*) const {
    T* const rp = &r(t, 0, 0);
    T* const lp = &lo(t, 0, 0);
    T* const cpp = &cp(t, 0, 0);
    const int ns = device::systems_in_tile(slots, t);
    const index_t s0 = t * TW;
    if constexpr (Tiles) {
      T* const ta = static_cast<T*>(tiles);
      T* const tb = ta + TW * LD;
      T* const tc = tb + TW * LD;
      int* const codes = reinterpret_cast<int*>(tc + TW * LD);
      for (index_t i0 = 0; i0 < n; i0 += RB) {
        const int nr = static_cast<int>(n - i0 < RB ? n - i0 : RB);
        device::load_tile(team, a, s0, ns, i0, nr, ta, LD);
        device::load_tile(team, b, s0, ns, i0, nr, tb, LD);
        device::load_tile(team, c, s0, ns, i0, nr, tc, LD);
        team.team_barrier();
        device::for_each_system_of_tile(team, ns, [&](const int k) {
          const int o = k * LD;
          int j = 0;
          if (i0 == 0) {
            factor_first_row<1, true>(1, tb + o, tc + o, rp + k, lp + k, cpp + k, codes + k);
            j = 1;
          }
          for (; j < nr; ++j) {
            const index_t i = i0 + j;
            factor_next_row<1, true>(1, i, ta + o + j, tb + o + j, tc + o + j,
                                     cpp + (i - 1) * TW + k, rp + i * TW + k, lp + i * TW + k,
                                     cpp + i * TW + k, codes + k);
          }
        });
        team.team_barrier();
      }
      device::for_each_system_of_tile(team, ns, [&](const int k) {
        if (s0 + k < nsys) info(s0 + k) = codes[k];
      });
    } else {
      (void)tiles;
      device::for_each_system_of_tile(team, ns, [&](const int k) {
        const index_t s = s0 + k;
        const T *as = a.system(s), *bs = b.system(s), *cs = c.system(s);
        const index_t sa = a.row_stride, sb = b.row_stride, sc = c.row_stride;
        int code = 0;
        factor_first_row<1, true>(1, bs, cs, rp + k, lp + k, cpp + k, &code);
        for (index_t i = 1; i < n; ++i)
          factor_next_row<1, true>(1, i, as + i * sa, bs + i * sb, cs + i * sc,
                                   cpp + (i - 1) * TW + k, rp + i * TW + k, lp + i * TW + k,
                                   cpp + i * TW + k, &code);
        if (s < nsys) info(s) = code;
      });
    }
  }
};

// Solve with stored factors, per-system threads (d' in d) or row tiles of d (d' in row scratch).
template <bool Tiles, class C, class D, class FactorView>
struct thomas_device_factored_solve {
  static constexpr int TW = device::tile_systems, RB = device::tile_rows_v<D>,
                       LD = device::tile_ld_v<D>;
  device::systems<D> d;
  FactorView r, lo, cp;
  index_t n, slots;

  static constexpr std::size_t tile_bytes() { return Tiles ? TW * LD * sizeof(D) : 0; }
  static std::size_t row_bytes(index_t n) {
    return Tiles ? static_cast<std::size_t>(n) * TW * sizeof(D) : 0;
  }

  template <class Member>
  KOKKOS_INLINE_FUNCTION void operator()(const Member& team, index_t t, void* tiles,
                                         void* rows) const {
    const C* const rp = &r(t, 0, 0);
    const C* const lp = &lo(t, 0, 0);
    const C* const cpp = &cp(t, 0, 0);
    const int ns = device::systems_in_tile(slots, t);
    const index_t s0 = t * TW;
    if constexpr (Tiles) {
      D* const td = static_cast<D*>(tiles);
      D* const dp = static_cast<D*>(rows);
      for (index_t i0 = 0; i0 < n; i0 += RB) {
        const int nr = static_cast<int>(n - i0 < RB ? n - i0 : RB);
        device::load_tile(team, d, s0, ns, i0, nr, td, LD);
        team.team_barrier();
        device::for_each_system_of_tile(team, ns, [&](const int k) {
          const D zero = D(0);
          for (int j = 0; j < nr; ++j) {
            const index_t i = i0 + j;
            factored_row<1, true>(1, rp + i * TW + k, lp + i * TW + k, td + k * LD + j,
                                  i == 0 ? &zero : dp + (i - 1) * TW + k, dp + i * TW + k);
          }
        });
        team.team_barrier();
      }
      device_tile_backward(team, n, RB, ns, cpp, dp, td, LD, d, s0);
    } else {
      (void)tiles, (void)rows;
      device::for_each_system_of_tile(team, ns, [&](const int k) {
        D* ds = d.system(s0 + k);
        const index_t sd = d.row_stride;
        D dp_prev = D(0);
        for (index_t i = 0; i < n; ++i) {
          factored_row<1, true>(1, rp + i * TW + k, lp + i * TW + k, ds + i * sd, &dp_prev,
                                ds + i * sd);
          dp_prev = ds[i * sd];
        }
        D x = dp_prev;
        for (index_t i = n - 2; i >= 0; --i)
          backward_row<1, true, true>(1, cpp + i * TW + k, ds + i * sd, &x);
      });
    }
  }
};

// Whether the row-tile shape reads these Views (each system contiguous, systems apart).
template <class... Views>
bool device_uses_row_tiles(const Views&... v) {
  return (device::systems_of(v).rows_contiguous() && ...);
}

// Launches TileKernel (its tile scratch and row_bytes of row scratch per tile) when `tiles`,
// else SystemKernel without scratch; both kernels are built from the same members.
template <class TileKernel, class SystemKernel, class ExecutionSpace, class... Members>
void device_launch_tiles_or_systems(const ExecutionSpace& exec, const char* label,
                                    index_t ntiles, bool tiles, std::size_t row_bytes,
                                    const Members&... members) {
  if (tiles)
    device::for_each_tile(exec, label, ntiles, TileKernel::tile_bytes(), row_bytes,
                          TileKernel{members...});
  else
    device::for_each_tile(exec, label, ntiles, 0, 0, SystemKernel{members...});
}

// One-shot solve of nsys systems of n rows (n, nsys > 0, arguments checked).
template <class ExecutionSpace, class AView, class BView, class CView, class DView,
          class InfoView>
void thomas_device_solve(const ExecutionSpace& exec, const AView& a, const BView& b,
                         const CView& c, const DView& d, const InfoView& info, index_t n,
                         index_t nsys) {
  if (device::long_system_pays(exec, n, nsys)) {  // few long systems: many teams each
    thomas_long_device_solve(exec, a, b, c, d, info, n, nsys);
    return;
  }
  using C = typename BView::non_const_value_type;
  using D = typename DView::non_const_value_type;
  const index_t slots = device::computed_slots(d, nsys);
  if (device::chunked_thomas_fits<C, D>(n) &&  // short systems: rows in registers
      device::chunked_one_shot_pays<C, D>(n, device::systems_of(d).side_by_side())) {
    thomas_chunked_device_solve(exec, a, b, c, d, info, n, nsys, slots);
    return;
  }
  const index_t ntiles = device::tile_count(slots);
  const char* label = "bandsolve::solve(thomas, device)";
  if (device_uses_row_tiles(a, b, c, d)) {
    using kernel = thomas_device_one_shot_tiles<C, D, InfoView>;
    device::for_each_tile(exec, label, ntiles, kernel::tile_bytes(), kernel::row_bytes(n),
                          kernel{device::systems_of<const C>(a), device::systems_of<const C>(b),
                                 device::systems_of<const C>(c), device::systems_of(d), info, n,
                                 slots, nsys});
  } else {
    const auto launch = [&](auto kernel) {
      device::for_each_tile(exec, label, ntiles, 0,
                            static_cast<std::size_t>(n) * device::tile_systems * sizeof(C), kernel);
    };
    using kernel_1 = thomas_device_one_shot_systems<C, D, InfoView, 1>;
    using kernel_ahead = thomas_device_one_shot_systems<C, D, InfoView, device::system_rows_ahead>;
    const kernel_1 k{device::systems_of<const C>(a), device::systems_of<const C>(b),
                     device::systems_of<const C>(c), device::systems_of(d), info, n, slots, nsys};
    if (device::load_rows_ahead)
      launch(kernel_ahead{k.a, k.b, k.c, k.d, k.info, k.n, k.slots, k.nsys});
    else
      launch(k);
  }
}

// u += x of nsys systems of n rows in one pass where the one-shot solve takes register chunks
// (d only read, each x added into u as the chunks store it); returns false, launching nothing,
// where it takes another shape (the caller then adds through a copy of d).
template <class ExecutionSpace, class AView, class BView, class CView, class DView,
          class UView, class InfoView>
bool thomas_device_solve_add(const ExecutionSpace& exec, const AView& a, const BView& b,
                             const CView& c, const DView& d, const UView& u,
                             const InfoView& info, index_t n, index_t nsys) {
  using C = typename BView::non_const_value_type;
  using D = typename DView::non_const_value_type;
  if (device::long_system_pays(exec, n, nsys) || !device::chunked_thomas_fits<C, D>(n) ||
      !device::chunked_one_shot_pays<C, D>(n, device::systems_of(d).side_by_side()))
    return false;
  thomas_chunked_device_solve(exec, a, b, c, d, info, n, nsys, device::computed_slots(d, nsys), u);
  return true;
}

struct thomas_device_factorization_access;

}  // namespace detail

// The LU factors of a batch of tridiagonal matrices on the device backend (factorize(exec,
// algo::thomas{}, a, b, c, backend::device{}), or any factorize on Kokkos::Cuda): r = 1/pivot,
// l = a/pivot and c' in packs of 32 systems, whatever the input layout, so that a solve reads
// them coalesced (one thread per system, neighbouring threads on neighbouring entries).
// For few long systems (device::long_system_pays, as the one-shot solve decides) it keeps a copy
// of a, b and c instead (systems side by side when the input's are, else each system's rows
// contiguous), and every solve runs the one-shot chunk method (thomas_long_device.hpp) on them:
// a thread per system would sweep millions of rows alone, and factors would not save the chunk
// method's bytes (it reads the coefficients twice, as it would read factors twice). Info then
// comes from one chunk solve at factorization.
template <class Scalar, class Layout, class ExecutionSpace>
class thomas_device_factorization {
 public:
  using scalar_type = Scalar;
  using layout_type = Layout;
  using execution_space = ExecutionSpace;
  using memory_space = typename ExecutionSpace::memory_space;
  static constexpr int pack_width = detail::device::tile_systems;
  // (packs, n, pack_width).
  using factor_view = Kokkos::View<Scalar***, Kokkos::LayoutRight, memory_space>;
  // A coefficient kept for few long systems: (slots, n), each system's rows contiguous or the
  // systems side by side. Three allocations: arrays exactly a power of two apart measured slower.
  using copy_view = Kokkos::View<Scalar**, Kokkos::LayoutStride, memory_space>;

  thomas_device_factorization() = default;

  std::size_t nsys() const { return static_cast<std::size_t>(nsys_); }
  std::size_t n() const { return static_cast<std::size_t>(n_); }
  // Per-system info codes of the factorization (0 = ok, i > 0 = bad pivot at row i).
  Kokkos::View<const int*, memory_space> info() const { return info_; }
  // Bytes of the stored factors (r, l and c'): 3 n 32 sizeof(Scalar) per pack of 32 systems;
  // for few long systems, the copies of a, b and c: 3 n sizeof(Scalar) per system slot.
  std::size_t storage_bytes() const {
    return (3 * r_.span() + 3 * long_b_.span()) * sizeof(Scalar);
  }

  // Factors new matrices of the shape that was factored (the same rows and systems, Views of
  // Layout and Scalar, any strides) into this factorization's packs: no allocation. Same factors
  // and info codes as factorize; enqueued on exec, not fenced. Copies share the storage. Few long
  // systems: a, b and c are copied into the kept copies, and the info codes come from one chunk
  // solve of a temporary of zeros (allocated, n values per slot), fenced, as at factorization.
  template <class AView, class BView, class CView>
  void refactor(const ExecutionSpace& exec, const AView& a, const BView& b, const CView& c);

  // Solves for the right-hand sides in d (same layout and shape as the factored matrices), in
  // place. d holds Scalar, or Kokkos::complex<Scalar> when Scalar is real. Enqueued on exec, not
  // fenced. Systems of up to 32 chunks of 128 bytes per array are solved in register chunks
  // (thomas_chunked_device.hpp); longer ones with row-layout d (contiguous systems) take row
  // scratch of n 32 sizeof(D) bytes per tile of 32 systems (see thomas_device.hpp). Systems whose
  // info is not 0 get inf/NaN.
  template <class DView>
  void solve(const ExecutionSpace& exec, const DView& d) const {
    detail::factored_solve_static_checks<algo::thomas, ExecutionSpace, Layout, Scalar, DView>();
    using D = typename DView::value_type;
    const std::string fn = "bandsolve::thomas_factorization::solve";
    detail::check_factored_solve<Layout>(fn, initialized_, d, n_, nsys_);
    if (nsys_ == 0 || n_ == 0) return;
    if (long_b_.span() > 0) {  // few long systems: the chunk method
      detail::thomas_long_device_solve(exec, long_a_, long_b_, long_c_, d, info_, n_, nsys_);
      return;
    }
    const index_t computed = detail::device::computed_slots(d, nsys_);
    if (detail::device::chunked_thomas_fits<Scalar, D>(n_)) {  // short systems: in registers
      detail::thomas_chunked_device_factored_solve(exec, r_, l_, cp_, d, n_, computed);
      return;
    }
    const index_t ntiles = (computed + pack_width - 1) / pack_width;
    const char* label = "bandsolve::thomas_factorization::solve(device)";
    using tiles = detail::thomas_device_factored_solve<true, Scalar, D, factor_view>;
    using systems = detail::thomas_device_factored_solve<false, Scalar, D, factor_view>;
    detail::device_launch_tiles_or_systems<tiles, systems>(
        exec, label, ntiles, detail::device_uses_row_tiles(d), tiles::row_bytes(n_),
        detail::device::systems_of(d), r_, l_, cp_, n_, computed);
  }

 private:
  friend struct detail::thomas_device_factorization_access;

  // Members are built here, never assigned into default-constructed Views.
  thomas_device_factorization(const factor_view& r, const factor_view& l, const factor_view& cp,
                              const Kokkos::View<int*, memory_space>& info, index_t nsys,
                              index_t n)
      : r_(r), l_(l), cp_(cp), info_(info), nsys_(nsys), n_(n), initialized_(true) {}
  thomas_device_factorization(const copy_view& a, const copy_view& b, const copy_view& c,
                              const Kokkos::View<int*, memory_space>& info, index_t nsys,
                              index_t n)
      : long_a_(a), long_b_(b), long_c_(c), info_(info), nsys_(nsys), n_(n), initialized_(true) {}

  factor_view r_, l_, cp_;
  // Few long systems: copies of a, b and c (else empty).
  copy_view long_a_, long_b_, long_c_;
  Kokkos::View<int*, memory_space> info_;
  index_t nsys_ = 0, n_ = 0;
  bool initialized_ = false;
};

namespace detail {
struct thomas_device_factorization_access {
  template <class F, class FactorView, class InfoView>
  static F make(FactorView r, FactorView l, FactorView cp, InfoView info, index_t nsys, index_t n) {
    return F(r, l, cp, info, nsys, n);
  }
  template <class F, class CopyView, class InfoView>
  static F make_long(CopyView a, CopyView b, CopyView c, InfoView info, index_t nsys, index_t n) {
    return F(a, b, c, info, nsys, n);
  }
};

// Copies a, b and c of `slots` systems of n rows into ca, cb, cc; Across: the systems lie side by
// side, and neighbouring threads take neighbouring systems (else neighbouring rows).
template <bool Across, class ExecutionSpace, class T, class CopyView>
void copy_coefficients(const ExecutionSpace& exec, device::systems<const T> a,
                       device::systems<const T> b, device::systems<const T> c, const CopyView& ca,
                       const CopyView& cb, const CopyView& cc, index_t slots, index_t n) {
  Kokkos::parallel_for(
      "bandsolve::factorize(thomas, device, long systems): copy",
      Kokkos::RangePolicy<ExecutionSpace, Kokkos::IndexType<index_t>>(exec, 0, slots * n),
      KOKKOS_LAMBDA(const index_t k) {
        const index_t s = Across ? k % slots : k / n, i = Across ? k / slots : k % n;
        ca(s, i) = a.system(s)[i * a.row_stride];
        cb(s, i) = b.system(s)[i * b.row_stride];
        cc(s, i) = c.system(s)[i * c.row_stride];
      });
}

// Few long systems: a, b, c copied into ca, cb, cc (the copies' own order: systems side by side,
// or each system's rows contiguous) and the info codes of one chunk solve of zeros (they depend on
// the pivots alone; the zeros are a temporary of the copies' shape). Enqueued on exec, fenced.
template <class ExecutionSpace, class AView, class BView, class CView, class CopyView,
          class InfoView>
void thomas_device_copy_long(const ExecutionSpace& exec, const AView& a, const BView& b,
                             const CView& c, const CopyView& ca, const CopyView& cb,
                             const CopyView& cc, const InfoView& info, index_t nsys, index_t n) {
  using T = typename BView::non_const_value_type;
  const auto sa = device::systems_of<const T>(a), sb = device::systems_of<const T>(b),
             sc = device::systems_of<const T>(c);
  const index_t slots = static_cast<index_t>(cb.extent(0));
  if (cb.stride(0) == 1) copy_coefficients<true, ExecutionSpace>(exec, sa, sb, sc, ca, cb, cc,
                                                                 slots, n);
  else copy_coefficients<false, ExecutionSpace>(exec, sa, sb, sc, ca, cb, cc, slots, n);
  Kokkos::LayoutStride shape;
  for (unsigned k = 0; k < 2; ++k) {
    shape.dimension[k] = cb.extent(k);
    shape.stride[k] = cb.stride(k);
  }
  const CopyView zeros(Kokkos::view_alloc(exec, std::string("bandsolve::thomas zeros")), shape);
  thomas_long_device_solve(exec, ca, cb, cc, zeros, info, n, nsys);
}

// The factorization of few long systems: copies of a, b, c (systems side by side when the
// input's are: the chunk method's teams then read rows across systems) and their info codes.
template <class Result, class ExecutionSpace, class AView, class BView, class CView>
Result thomas_device_factorize_long(const ExecutionSpace& exec, const AView& a, const BView& b,
                                    const CView& c, index_t nsys, index_t n, index_t slots) {
  using T = typename BView::non_const_value_type;
  using memory_space = typename Result::memory_space;
  using copy_view = typename Result::copy_view;
  const bool across = device::systems_of<const T>(a).side_by_side() &&
                      device::systems_of<const T>(b).side_by_side() &&
                      device::systems_of<const T>(c).side_by_side();
  const std::size_t ns = static_cast<std::size_t>(slots), nr = static_cast<std::size_t>(n);
  const Kokkos::LayoutStride shape = across ? Kokkos::LayoutStride(ns, 1, nr, ns)
                                            : Kokkos::LayoutStride(ns, nr, nr, 1);
  const auto make = [&](const char* label) {
    return copy_view(Kokkos::view_alloc(exec, std::string(label)), shape);
  };
  const copy_view ca = make("bandsolve::thomas a"), cb = make("bandsolve::thomas b"),
                  cc = make("bandsolve::thomas c");
  const Kokkos::View<int*, memory_space> info(
      Kokkos::view_alloc(exec, std::string("bandsolve::thomas info")),
      static_cast<std::size_t>(nsys));
  thomas_device_copy_long(exec, a, b, c, ca, cb, cc, info, nsys, n);
  return thomas_device_factorization_access::make_long<Result>(ca, cb, cc, info, nsys, n);
}

// Thomas's factors of nsys systems of n rows in a, b, c into the packs r, lo, cp and their info
// codes (factorize and refactor). Enqueued on exec.
template <class T, class ExecutionSpace, class AView, class BView, class CView, class FactorView,
          class InfoView>
void thomas_device_factor_into(const ExecutionSpace& exec, const AView& a, const BView& b,
                               const CView& c, index_t n, index_t nsys, const FactorView& r,
                               const FactorView& lo, const FactorView& cp, const InfoView& info) {
  if (nsys == 0 || n == 0) return;
  const char* label = "bandsolve::factorize(thomas, device)";
  device_launch_tiles_or_systems<thomas_device_factor<true, T, FactorView, InfoView>,
                                 thomas_device_factor<false, T, FactorView, InfoView>>(
      exec, label, static_cast<index_t>(r.extent(0)), device_uses_row_tiles(a, b, c), 0,
      device::systems_of<const T>(a), device::systems_of<const T>(b),
      device::systems_of<const T>(c), r, lo, cp, info, n, device::computed_slots(b, nsys), nsys);
}

// factorize on the device backend: nsys systems of n rows (arguments checked). Allocates the
// factors and info; enqueued on exec, not fenced.
template <class ExecutionSpace, class AView, class BView, class CView>
thomas_device_factorization<typename BView::non_const_value_type, layout_of_t<BView>,
                            ExecutionSpace>
thomas_device_factorize(const ExecutionSpace& exec, const AView& a, const BView& b,
                        const CView& c, index_t nsys) {
  using T = typename BView::non_const_value_type;
  using result_type = thomas_device_factorization<T, layout_of_t<BView>, ExecutionSpace>;
  using factor_view = typename result_type::factor_view;
  using info_type = Kokkos::View<int*, typename result_type::memory_space>;
  constexpr int TW = device::tile_systems;
  const index_t n = static_cast<index_t>(rows(b));
  const index_t slots = device::computed_slots(b, nsys);
  if (n > 0 && nsys > 0 && device::long_system_pays(exec, n, nsys)) {
    return thomas_device_factorize_long<result_type>(exec, a, b, c, nsys, n, slots);
  }
  const index_t ntiles = device::tile_count(slots);
  const auto et = static_cast<std::size_t>(ntiles), en = static_cast<std::size_t>(n);  // extents
  const factor_view r(Kokkos::view_alloc(exec, std::string("bandsolve::thomas r")), et, en, TW);
  const factor_view lo(Kokkos::view_alloc(exec, std::string("bandsolve::thomas l")), et, en, TW);
  const factor_view cp(Kokkos::view_alloc(exec, std::string("bandsolve::thomas c'")), et, en, TW);
  const info_type info(Kokkos::view_alloc(exec, std::string("bandsolve::thomas info")),
                       static_cast<std::size_t>(nsys));
  thomas_device_factor_into<T>(exec, a, b, c, n, nsys, r, lo, cp, info);
  return thomas_device_factorization_access::make<result_type>(r, lo, cp, info, nsys, n);
}
}  // namespace detail

template <class Scalar, class Layout, class ExecutionSpace>
template <class AView, class BView, class CView>
void thomas_device_factorization<Scalar, Layout, ExecutionSpace>::refactor(
    const ExecutionSpace& exec, const AView& a, const BView& b, const CView& c) {
  detail::check_refactor<algo::thomas, ExecutionSpace, Layout, Scalar>(
      "bandsolve::thomas_device_factorization::refactor", initialized_, a, b, c, n_, nsys_);
  if (long_b_.span() > 0)
    detail::thomas_device_copy_long(exec, a, b, c, long_a_, long_b_, long_c_, info_, nsys_, n_);
  else
    detail::thomas_device_factor_into<Scalar>(exec, a, b, c, n_, nsys_, r_, l_, cp_, info_);
}

}  // namespace bandsolve
