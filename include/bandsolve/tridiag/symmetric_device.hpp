#pragma once
// Batched symmetric (Hermitian) positive definite tridiagonal systems on the device backend
// (backend/device/): the LDL^H arithmetic of symmetric_kernel.hpp with one lane per thread, in
// the work shapes of Thomas's device path (thomas_device.hpp): per-system threads where
// neighbouring systems are neighbours in memory, row tiles through padded team scratch where each
// system is contiguous. Runs on Kokkos::Cuda and, for tests, on host execution spaces
// (solve(..., backend::device{})). Called from symmetric.hpp after its argument checks.
//
// Row scratch per tile of 32 systems, rows [i][system]: the one-shot solve keeps c' (n 32 C;
// d' stays in d) with per-system threads, c' and d' (n 32 (sizeof(C) + sizeof(D)) bytes) with
// row tiles; the factored solve keeps z = r y (n 32 D) with row tiles only. Placed as Thomas's
// (backend/device/launch.hpp, row_scratch_place). The factorization stores r = 1/pivot (real)
// and c' = e/pivot in packs of 32 systems (View<R***>, View<C***>(tiles, n, 32)): thread k of a
// tile reads entry k of a row, coalesced; its refactor(exec, diag, offdiag) factors new matrices
// of the same shape into those packs with factorize's kernel.
#include <bandsolve/tridiag/batch_checks.hpp>
#include <bandsolve/tridiag/symmetric_kernel.hpp>
#include <bandsolve/tridiag/thomas_device.hpp>

#include <string>
#include <type_traits>

namespace bandsolve {
namespace detail {

// Compile-time checks of every symmetric entry point: diag real, offdiag of diag's type or its
// complex, d of offdiag's type or complex over real coefficients, one layout. A class, so that
// they fire where an entry point names them (tridiag/batch_checks.hpp says why).
template <class ExecutionSpace, class DiagView, class OffView, class DView>
struct symmetric_static_checks {
  static_assert(Kokkos::is_execution_space<ExecutionSpace>::value,
                "bandsolve symmetric: the first argument must be a Kokkos execution space "
                "instance");
  static_assert(Kokkos::is_view<DiagView>::value && Kokkos::is_view<OffView>::value &&
                    Kokkos::is_view<DView>::value,
                "bandsolve symmetric: diag, offdiag and d must be Kokkos::Views");
  using Layout = layout_of_t<DView>;
  using R = typename DiagView::non_const_value_type;
  using C = typename OffView::non_const_value_type;
  using D = typename DView::non_const_value_type;
  static_assert(!std::is_same_v<Layout, unsupported_layout>,
                "bandsolve symmetric: " BANDSOLVE_SUPPORTED_VIEWS);
  static_assert(std::is_same_v<layout_of_t<DiagView>, Layout> &&
                    std::is_same_v<layout_of_t<OffView>, Layout>,
                "bandsolve symmetric: diag, offdiag and d must use the same layout");
  static_assert(std::is_same_v<R, float> || std::is_same_v<R, double>,
                "bandsolve symmetric: diag must be real (float or double)");
  static_assert(std::is_same_v<C, R> || std::is_same_v<C, Kokkos::complex<R>>,
                "bandsolve symmetric: offdiag must have diag's type, or Kokkos::complex of it "
                "(Hermitian)");
  static_assert(is_rhs_of_v<C, D>,
                "bandsolve symmetric: d must have offdiag's type (or be Kokkos::complex<T> over "
                "real coefficients of type T)");
  static_assert(Kokkos::SpaceAccessibility<ExecutionSpace,
                                           typename DiagView::memory_space>::accessible &&
                    Kokkos::SpaceAccessibility<ExecutionSpace,
                                               typename OffView::memory_space>::accessible &&
                    Kokkos::SpaceAccessibility<ExecutionSpace,
                                               typename DView::memory_space>::accessible,
                "bandsolve symmetric: the Views must be accessible from the execution space");
  static_assert(sizeof(backend::default_for_t<ExecutionSpace>) > 0);  // a space with a backend
};

// refactor(diag, offdiag) of a symmetric factorization (either backend): Views of the layout and
// off-diagonal type that were factored (compile time), a factorization that holds factors,
// offdiag of diag's shape and diag of the shape that was factored.
template <class ExecutionSpace, class Layout, class Scalar, class DiagView, class OffView>
void symmetric_check_refactor(const std::string& fn, bool initialized, const DiagView& diag,
                              const OffView& offdiag, index_t n, index_t nsys) {
  symmetric_static_checks<ExecutionSpace, DiagView, OffView, OffView>();
  static_assert(std::is_same_v<layout_of_t<DiagView>, Layout> &&
                    std::is_same_v<typename OffView::non_const_value_type, Scalar>,
                "bandsolve: refactor takes diag and offdiag of the layout and off-diagonal type "
                "that were factored");
  if (!initialized) throw_invalid_argument(fn, "this factorization is empty (default-constructed)");
  check_same_shape(fn, "offdiag", offdiag, "diag", diag);
  check_factored_shape<Layout>(fn, "diag", diag, n, nsys);
}

// Row blocks of a row-tile kernel: load(i0, nr) fills the tiles with rows [i0, i0 + nr) of the
// tile's systems, then sweep(k, i0, nr) runs on system k (one thread each).
template <class Member, class Load, class Sweep>
KOKKOS_INLINE_FUNCTION void device_tile_forward(const Member& team, index_t n, int rb, int ns,
                                                const Load& load, const Sweep& sweep) {
  for (index_t i0 = 0; i0 < n; i0 += rb) {
    const int nr = static_cast<int>(n - i0 < rb ? n - i0 : rb);
    load(i0, nr);
    team.team_barrier();
    device::for_each_system_of_tile(team, ns, [&](const int k) { sweep(k, i0, nr); });
    team.team_barrier();
  }
}

// One row of the factorization (?pttrf): pivot from b_i and the previous row, r_i = 1/pivot,
// c'_i = e_i r_i; code becomes i + 1 at the first pivot that is not positive and finite.
template <class R, class C>
KOKKOS_FORCEINLINE_FUNCTION void sym_device_factor_row(index_t i, R b, const C& e_prev, C e,
                                                       const C& cp_prev, R* r, C* cp, int* code) {
  const R pivot = i == 0 ? b : b - re_conj_mul(e_prev, cp_prev);
  if (*code == 0 && !spd_pivot_is_good(pivot)) *code = static_cast<int>(i + 1);
  const R ri = R(1) / pivot;
  *r = ri;
  *cp = ri * e;
}

// One row of the factored solve's forward sweep: y_i = d_i - conj(c'_{i-1}) y_{i-1} (y carried),
// z_i = r_i y_i written to z.
template <class R, class C, class D>
KOKKOS_FORCEINLINE_FUNCTION void sym_device_factored_row(index_t i, R r, const C& cp_prev, D d,
                                                         D* y, D* z) {
  const D yi = i == 0 ? d : d - conj_of(cp_prev) * *y;
  *y = yi;
  *z = r * yi;
}

// One-shot solve, per-system threads: d' overwrites d on the way down, x on the way back.
template <class R, class C, class D, class InfoView>
struct symmetric_device_one_shot_systems {
  device::systems<const R> b;
  device::systems<const C> e;
  device::systems<D> d;
  InfoView info;
  index_t n, slots, nsys;

  template <class Member>
  KOKKOS_INLINE_FUNCTION void operator()(const Member& team, index_t t, void*, void* rows) const {
    constexpr int TW = device::tile_systems;
    C* const cp = static_cast<C*>(rows);
    device::for_each_system_of_tile(team, device::systems_in_tile(slots, t), [&](const int k) {
      const index_t s = t * TW + k;
      const R* bs = b.system(s);
      const C* es = e.system(s);
      D* ds = d.system(s);
      const index_t sb = b.row_stride, se = e.row_stride, sd = d.row_stride;
      C* cpk = cp + k;
      R risk = 0;
      sym_first_row<1, true>(1, bs, es, ds, cpk, ds, &risk);
      C cp_prev = cpk[0];
      D dp_prev = ds[0];
      for (index_t i = 1; i < n; ++i)
        sym_next_row<1, true, true>(1, bs + i * sb, es + (i - 1) * se, es + i * se, ds + i * sd,
                                    &cp_prev, &dp_prev, cpk + i * TW, ds + i * sd, &risk,
                                    &cp_prev, &dp_prev);
      D x = dp_prev;
      for (index_t i = n - 2; i >= 0; --i)
        backward_row<1, true, true>(1, cpk + i * TW, ds + i * sd, &x);
      if (s < nsys)
        info(s) = risk_is_low(risk) ? 0
                                    : first_bad_spd_pivot(n, device::system_elements<R>{bs, sb},
                                                          device::system_elements<C>{es, se},
                                                          cpk, TW);
    });
  }
};

// One-shot solve, row tiles: blocks of RB rows of b, e, d through padded tiles (e_{i-1} of a
// block's first row kept per system from the block before); c' and d' into row scratch on the
// way down; x back through the d tile on the way up (device_tile_backward).
template <class R, class C, class D, class InfoView>
struct symmetric_device_one_shot_tiles {
  static constexpr int TW = device::tile_systems, RB = device::tile_rows_v<C, D>,
                       LD = device::tile_ld_v<C, D>;
  device::systems<const R> b;
  device::systems<const C> e;
  device::systems<D> d;
  InfoView info;
  index_t n, slots, nsys;

  static constexpr std::size_t tile_bytes() {
    return TW * LD * (sizeof(C) + sizeof(D) + sizeof(R)) + TW * (sizeof(C) + sizeof(R));
  }
  static std::size_t row_bytes(index_t n) {
    return static_cast<std::size_t>(n) * TW * (sizeof(C) + sizeof(D));
  }

  template <class Member>
  KOKKOS_INLINE_FUNCTION void operator()(const Member& team, index_t t, void* tiles,
                                         void* rows) const {
    C* const te = static_cast<C*>(tiles);
    C* const e_last = te + TW * LD;
    D* const td = reinterpret_cast<D*>(e_last + TW);
    R* const tb = reinterpret_cast<R*>(td + TW * LD);
    R* const risk = tb + TW * LD;
    C* const cp = static_cast<C*>(rows);
    D* const dp = reinterpret_cast<D*>(cp + n * TW);
    const index_t s0 = t * TW;
    const int ns = device::systems_in_tile(slots, t);
    device_tile_forward(
        team, n, RB, ns,
        [&](index_t i0, int nr) {
          device::load_tile(team, b, s0, ns, i0, nr, tb, LD);
          device::load_tile(team, e, s0, ns, i0, nr, te, LD);
          device::load_tile(team, d, s0, ns, i0, nr, td, LD);
        },
        [&](int k, index_t i0, int nr) {
          const int o = k * LD;
          int j = 0;
          if (i0 == 0) {
            sym_first_row<1, true>(1, tb + o, te + o, td + o, cp + k, dp + k, risk + k);
            j = 1;
          }
          for (; j < nr; ++j) {
            const index_t i = i0 + j;
            sym_next_row<1, true, false>(1, tb + o + j, j == 0 ? e_last + k : te + o + j - 1,
                                         te + o + j, td + o + j, cp + (i - 1) * TW + k,
                                         dp + (i - 1) * TW + k, cp + i * TW + k, dp + i * TW + k,
                                         risk + k, static_cast<C*>(nullptr),
                                         static_cast<D*>(nullptr));
          }
          e_last[k] = te[o + nr - 1];
        });
    device_tile_backward(team, n, RB, ns, cp, dp, td, LD, d, s0);
    device::for_each_system_of_tile(team, ns, [&](const int k) {
      const index_t s = s0 + k;
      if (s < nsys)
        info(s) = risk_is_low(risk[k])
                      ? 0
                      : first_bad_spd_pivot(n, device::system_elements<R>{b.system(s), b.row_stride},
                                            device::system_elements<C>{e.system(s), e.row_stride},
                                            cp + k, TW);
    });
  }
};

// Factorization into packs of 32 (r and c' of tile t at r(t, i, k), cp(t, i, k)), per-system
// threads (Tiles = false) or row tiles of b and e (Tiles = true).
template <bool Tiles, class R, class C, class RView, class CView, class InfoView>
struct symmetric_device_factor {
  static constexpr int TW = device::tile_systems, RB = device::tile_rows_v<C>,
                       LD = device::tile_ld_v<C>;
  device::systems<const R> b;
  device::systems<const C> e;
  RView r;
  CView cp;
  InfoView info;
  index_t n, slots, nsys;

  static constexpr std::size_t tile_bytes() {
    return Tiles ? TW * LD * (sizeof(C) + sizeof(R)) + TW * (sizeof(C) + sizeof(int)) : 0;
  }

  template <class Member>
  KOKKOS_INLINE_FUNCTION void operator()(const Member& team, index_t t, void* tiles, void*) const {
    R* const rp = &r(t, 0, 0);
    C* const cpp = &cp(t, 0, 0);
    const int ns = device::systems_in_tile(slots, t);
    const index_t s0 = t * TW;
    if constexpr (Tiles) {
      C* const te = static_cast<C*>(tiles);
      C* const e_last = te + TW * LD;
      R* const tb = reinterpret_cast<R*>(e_last + TW);
      int* const codes = reinterpret_cast<int*>(tb + TW * LD);
      device::for_each_system_of_tile(team, ns, [&](const int k) { codes[k] = 0; });
      device_tile_forward(
          team, n, RB, ns,
          [&](index_t i0, int nr) {
            device::load_tile(team, b, s0, ns, i0, nr, tb, LD);
            device::load_tile(team, e, s0, ns, i0, nr, te, LD);
          },
          [&](int k, index_t i0, int nr) {
            const int o = k * LD;
            for (int j = 0; j < nr; ++j) {
              const index_t i = i0 + j;
              const index_t ip = i > 0 ? i - 1 : 0;
              sym_device_factor_row(i, tb[o + j], j == 0 ? e_last[k] : te[o + j - 1],
                                    te[o + j], cpp[ip * TW + k], rp + i * TW + k,
                                    cpp + i * TW + k, codes + k);
            }
            e_last[k] = te[o + nr - 1];
          });
      device::for_each_system_of_tile(team, ns, [&](const int k) {
        if (s0 + k < nsys) info(s0 + k) = codes[k];
      });
    } else {
      (void)tiles;
      device::for_each_system_of_tile(team, ns, [&](const int k) {
        const index_t s = s0 + k;
        const R* bs = b.system(s);
        const C* es = e.system(s);
        const index_t sb = b.row_stride, se = e.row_stride;
        int code = 0;
        for (index_t i = 0; i < n; ++i) {
          const index_t ip = i > 0 ? i - 1 : 0;
          sym_device_factor_row(i, bs[i * sb], es[ip * se], es[i * se], cpp[ip * TW + k],
                                rp + i * TW + k, cpp + i * TW + k, &code);
        }
        if (s < nsys) info(s) = code;
      });
    }
  }
};

// Solve with stored factors: per-system threads (z = r y in d, y in a register) or row tiles of
// d (y carried per system in team scratch, z in row scratch); then Thomas's backward sweep.
template <bool Tiles, class R, class C, class D, class RView, class CView>
struct symmetric_device_factored_solve {
  static constexpr int TW = device::tile_systems, RB = device::tile_rows_v<D>,
                       LD = device::tile_ld_v<D>;
  device::systems<D> d;
  RView r;
  CView cp;
  index_t n, slots;

  static constexpr std::size_t tile_bytes() { return Tiles ? (TW * LD + TW) * sizeof(D) : 0; }
  static std::size_t row_bytes(index_t n) {
    return Tiles ? static_cast<std::size_t>(n) * TW * sizeof(D) : 0;
  }

  template <class Member>
  KOKKOS_INLINE_FUNCTION void operator()(const Member& team, index_t t, void* tiles,
                                         void* rows) const {
    const R* const rp = &r(t, 0, 0);
    const C* const cpp = &cp(t, 0, 0);
    const int ns = device::systems_in_tile(slots, t);
    const index_t s0 = t * TW;
    if constexpr (Tiles) {
      D* const td = static_cast<D*>(tiles);
      D* const y = td + TW * LD;
      D* const zp = static_cast<D*>(rows);
      device_tile_forward(
          team, n, RB, ns,
          [&](index_t i0, int nr) { device::load_tile(team, d, s0, ns, i0, nr, td, LD); },
          [&](int k, index_t i0, int nr) {
            for (int j = 0; j < nr; ++j) {
              const index_t i = i0 + j;
              sym_device_factored_row(i, rp[i * TW + k], cpp[(i > 0 ? i - 1 : 0) * TW + k],
                                      td[k * LD + j], y + k, zp + i * TW + k);
            }
          });
      device_tile_backward(team, n, RB, ns, cpp, zp, td, LD, d, s0);
    } else {
      (void)tiles, (void)rows;
      device::for_each_system_of_tile(team, ns, [&](const int k) {
        D* ds = d.system(s0 + k);
        const index_t sd = d.row_stride;
        D y = D(0);
        for (index_t i = 0; i < n; ++i)
          sym_device_factored_row(i, rp[i * TW + k], cpp[(i > 0 ? i - 1 : 0) * TW + k],
                                  ds[i * sd], &y, ds + i * sd);
        D x = ds[(n - 1) * sd];
        for (index_t i = n - 2; i >= 0; --i)
          backward_row<1, true, true>(1, cpp + i * TW + k, ds + i * sd, &x);
      });
    }
  }
};

// One-shot solve of nsys systems of n rows (n, nsys > 0, arguments checked).
template <class ExecutionSpace, class DiagView, class OffView, class DView, class InfoView>
void symmetric_device_solve(const ExecutionSpace& exec, const DiagView& diag,
                            const OffView& offdiag, const DView& d, const InfoView& info,
                            index_t n, index_t nsys) {
  using R = typename DiagView::non_const_value_type;
  using C = typename OffView::non_const_value_type;
  using D = typename DView::non_const_value_type;
  const index_t slots = device::computed_slots(d, nsys);
  const index_t ntiles = device::tile_count(slots);
  const char* label = "bandsolve::solve(symmetric, device)";
  const auto b = device::systems_of<const R>(diag);
  const auto e = device::systems_of<const C>(offdiag);
  if (device_uses_row_tiles(diag, offdiag, d)) {
    using kernel = symmetric_device_one_shot_tiles<R, C, D, InfoView>;
    device::for_each_tile(exec, label, ntiles, kernel::tile_bytes(), kernel::row_bytes(n),
                          kernel{b, e, device::systems_of(d), info, n, slots, nsys});
  } else {
    using kernel = symmetric_device_one_shot_systems<R, C, D, InfoView>;
    device::for_each_tile(exec, label, ntiles, 0,
                          static_cast<std::size_t>(n) * device::tile_systems * sizeof(C),
                          kernel{b, e, device::systems_of(d), info, n, slots, nsys});
  }
}

struct symmetric_device_factorization_access;

}  // namespace detail

// The LDL^H factors of a batch of symmetric (Hermitian) tridiagonal matrices on the device
// backend (factorize(exec, algo::symmetric{}, diag, offdiag, backend::device{}), or any
// factorize on Kokkos::Cuda): r = 1/pivot (real) and c' = e/pivot in packs of 32 systems,
// whatever the input layout, read coalesced by one thread per system.
template <class Scalar, class Layout, class ExecutionSpace>
class symmetric_device_factorization {
 public:
  using scalar_type = Scalar;  // the off-diagonal's type
  using real_type = real_type_t<Scalar>;
  using layout_type = Layout;
  using execution_space = ExecutionSpace;
  using memory_space = typename ExecutionSpace::memory_space;
  static constexpr int pack_width = detail::device::tile_systems;
  // (packs, n, pack_width).
  using r_view = Kokkos::View<real_type***, Kokkos::LayoutRight, memory_space>;
  using factor_view = Kokkos::View<Scalar***, Kokkos::LayoutRight, memory_space>;

  symmetric_device_factorization() = default;

  std::size_t nsys() const { return static_cast<std::size_t>(nsys_); }
  std::size_t n() const { return static_cast<std::size_t>(n_); }
  // Per-system info codes of the factorization (0 = ok, i > 0 = pivot i not positive/finite).
  Kokkos::View<const int*, memory_space> info() const { return info_; }
  // Bytes of the stored factors: n 32 (sizeof(real_type) + sizeof(Scalar)) per pack.
  std::size_t storage_bytes() const {
    return r_.span() * sizeof(real_type) + cp_.span() * sizeof(Scalar);
  }

  // Factors new matrices of the shape that was factored (the same rows and systems, Views of
  // Layout, diag real and offdiag of Scalar) into this factorization's packs: no allocation, no
  // fresh pages. Same factors and info codes as factorize; enqueued on exec, not fenced. Copies
  // of a factorization share its storage and see the new factors.
  template <class DiagView, class OffView>
  void refactor(const ExecutionSpace& exec, const DiagView& diag, const OffView& offdiag);

  // Solves for the right-hand sides in d (same layout and shape as the factored matrices), in
  // place. d holds Scalar, or Kokkos::complex<Scalar> when Scalar is real. Enqueued on exec, not
  // fenced. Row-layout d takes row scratch of n 32 sizeof(D) bytes per tile. Systems whose info
  // is not 0 get no solution.
  template <class DView>
  void solve(const ExecutionSpace& exec, const DView& d) const {
    detail::factored_solve_static_checks<algo::symmetric, ExecutionSpace, Layout, Scalar, DView>();
    using D = typename DView::value_type;
    const std::string fn = "bandsolve::symmetric_factorization::solve";
    detail::check_factored_solve<Layout>(fn, initialized_, d, n_, nsys_);
    if (nsys_ == 0 || n_ == 0) return;
    const index_t computed = detail::device::computed_slots(d, nsys_);
    const index_t ntiles = (computed + pack_width - 1) / pack_width;
    const char* label = "bandsolve::symmetric_factorization::solve(device)";
    using tiles =
        detail::symmetric_device_factored_solve<true, real_type, Scalar, D, r_view, factor_view>;
    using systems =
        detail::symmetric_device_factored_solve<false, real_type, Scalar, D, r_view, factor_view>;
    detail::device_launch_tiles_or_systems<tiles, systems>(
        exec, label, ntiles, detail::device_uses_row_tiles(d), tiles::row_bytes(n_),
        detail::device::systems_of(d), r_, cp_, n_, computed);
  }

 private:
  friend struct detail::symmetric_device_factorization_access;

  // Members are built here, never assigned into default-constructed Views.
  symmetric_device_factorization(const r_view& r, const factor_view& cp,
                                 const Kokkos::View<int*, memory_space>& info, index_t nsys,
                                 index_t n)
      : r_(r), cp_(cp), info_(info), nsys_(nsys), n_(n), initialized_(true) {}

  r_view r_;
  factor_view cp_;
  Kokkos::View<int*, memory_space> info_;
  index_t nsys_ = 0, n_ = 0;
  bool initialized_ = false;
};

namespace detail {
struct symmetric_device_factorization_access {
  template <class F, class RView, class CView, class InfoView>
  static F make(RView r, CView cp, InfoView info, index_t nsys, index_t n) {
    return F(r, cp, info, nsys, n);
  }
};

// The factors of diag and offdiag (nsys systems of n rows, arguments checked) into r, cp and info
// (packs of 32): factorize's and refactor's kernel. Enqueued on exec.
template <class ExecutionSpace, class DiagView, class OffView, class RView, class CView,
          class InfoView>
void symmetric_device_factor_into(const ExecutionSpace& exec, const DiagView& diag,
                                  const OffView& offdiag, index_t n, index_t nsys, const RView& r,
                                  const CView& cp, const InfoView& info) {
  using R = typename DiagView::non_const_value_type;
  using C = typename OffView::non_const_value_type;
  if (nsys == 0 || n == 0) return;
  const index_t slots = device::computed_slots(diag, nsys);
  const index_t ntiles = static_cast<index_t>(r.extent(0));
  const char* label = "bandsolve::factorize(symmetric, device)";
  const auto b = device::systems_of<const R>(diag);
  const auto e = device::systems_of<const C>(offdiag);
  using tiles = symmetric_device_factor<true, R, C, RView, CView, InfoView>;
  using systems = symmetric_device_factor<false, R, C, RView, CView, InfoView>;
  device_launch_tiles_or_systems<tiles, systems>(exec, label, ntiles,
                                                 device_uses_row_tiles(diag, offdiag), 0, b, e, r,
                                                 cp, info, n, slots, nsys);
}

// factorize on the device backend: nsys systems of n rows (arguments checked). Allocates the
// factors and info; enqueued on exec, not fenced.
template <class ExecutionSpace, class DiagView, class OffView>
symmetric_device_factorization<typename OffView::non_const_value_type, layout_of_t<DiagView>,
                               ExecutionSpace>
symmetric_device_factorize(const ExecutionSpace& exec, const DiagView& diag,
                           const OffView& offdiag, index_t nsys) {
  using C = typename OffView::non_const_value_type;
  using result_type = symmetric_device_factorization<C, layout_of_t<DiagView>, ExecutionSpace>;
  using r_view = typename result_type::r_view;
  using factor_view = typename result_type::factor_view;
  using info_type = Kokkos::View<int*, typename result_type::memory_space>;
  constexpr int TW = device::tile_systems;
  const index_t n = static_cast<index_t>(rows(diag));
  const index_t slots = device::computed_slots(diag, nsys);
  const index_t ntiles = device::tile_count(slots);
  const auto et = static_cast<std::size_t>(ntiles), en = static_cast<std::size_t>(n);  // extents
  const r_view r(Kokkos::view_alloc(exec, std::string("bandsolve::symmetric r")), et, en, TW);
  const factor_view cp(Kokkos::view_alloc(exec, std::string("bandsolve::symmetric c'")), et, en,
                       TW);
  const info_type info(Kokkos::view_alloc(exec, std::string("bandsolve::symmetric info")),
                       static_cast<std::size_t>(nsys));
  symmetric_device_factor_into(exec, diag, offdiag, n, nsys, r, cp, info);
  return symmetric_device_factorization_access::make<result_type>(r, cp, info, nsys, n);
}
}  // namespace detail

template <class Scalar, class Layout, class ExecutionSpace>
template <class DiagView, class OffView>
void symmetric_device_factorization<Scalar, Layout, ExecutionSpace>::refactor(
    const ExecutionSpace& exec, const DiagView& diag, const OffView& offdiag) {
  detail::symmetric_check_refactor<ExecutionSpace, Layout, Scalar>(
      "bandsolve::symmetric_device_factorization::refactor", initialized_, diag, offdiag, n_,
      nsys_);
  detail::symmetric_device_factor_into(exec, diag, offdiag, n_, nsys_, r_, cp_, info_);
}

}  // namespace bandsolve
