#pragma once
// Block Thomas on the device backend (backend/device/): the group routines of
// block_thomas_kernel.hpp with one lane (L = 1) per thread, a team per tile of 32 systems, one
// thread per system reading its blocks in place (for m = 2..8, with or without pivoting inside
// the diagonal blocks). Runs on Kokkos::Cuda and, for tests, on host execution spaces
// (solve(..., backend::device{})). Called from block_thomas.hpp after its argument checks.
//
// The one-shot solve keeps C* of each system in row scratch: n m^2 sizeof(T) bytes per system,
// n m^2 32 sizeof(T) per tile, in team scratch level 0 or 1 by size or else one allocation per
// call for every tile (backend/device/launch.hpp, row_scratch_place and row_scratch_bytes give
// the bytes held), the tile's systems interleaved entry by entry so that its threads read and
// write them coalesced. The factorization stores 3 m^2 + m values per block row and system,
// system by system (block_thomas_device_factorization), which a tile's threads do not read
// coalesced; its refactor writes new matrices' factors there with the same kernel.
#include <bandsolve/backend/device/launch.hpp>
#include <bandsolve/backend/device/tile_transpose.hpp>
#include <bandsolve/backend/device/work_shape.hpp>
#include <bandsolve/block/block_checks.hpp>
#include <bandsolve/block/block_layout.hpp>
#include <bandsolve/block/block_thomas_kernel.hpp>
#include <bandsolve/core/checks.hpp>

#include <string>
#include <type_traits>

namespace bandsolve::detail {

// System s of a block View as a one-lane group: rank-4 coefficients (nsys, n, m, m), rank-3 or
// rank-4 right-hand sides (nsys, n, m[, nrhs]); with Packed, interleaved packs whose last extent
// is the lane (packs, n, m, m | nrhs, W) or (packs, n, m, W).
template <bool Packed, class T, class View>
KOKKOS_INLINE_FUNCTION block_group<T> block_device_group(const View& v, index_t s) {
  const auto st = [&](int k) { return static_cast<index_t>(v.stride(k)); };
  constexpr int R = static_cast<int>(View::rank);
  if constexpr (Packed) {
    const index_t w = static_cast<index_t>(v.extent(R - 1));
    T* const base = offset_or_null(v.data(), (s / w) * st(0) + (s % w) * st(R - 1));
    if constexpr (R == 5) return block_group<T>{base, st(4), st(1), st(2), st(3)};
    else return block_group<T>{base, st(3), st(1), st(2), 0};
  } else {
    T* const base = offset_or_null(v.data(), s * st(0));
    if constexpr (R == 4) return block_group<T>{base, st(0), st(1), st(2), st(3)};
    else return block_group<T>{base, st(0), st(1), st(2), 0};
  }
}

// One-shot solve of a tile: thread k solves system t 32 + k with C* in row scratch, the tile's
// systems interleaved entry by entry (entry e of thread k at e * 32 + k, coalesced); each block
// row's C* is formed in registers, as the group routines of block_thomas_kernel.hpp do with one
// lane, and copied out to the scratch and back for the back-substitution.
template <int M, bool Packed, class T, class AView, class BView, class CView, class DView,
          class InfoView>
struct block_device_one_shot {
  using D = typename DView::value_type;
  static constexpr int TW = device::tile_systems;
  AView a;
  BView b;
  CView c;
  DView d;
  InfoView info;
  index_t n, nsys, nrhs;
  bool pivoting;

  static std::size_t row_bytes(index_t n) {
    return static_cast<std::size_t>(n) * M * M * TW * sizeof(T);
  }

  template <class Member>
  KOKKOS_INLINE_FUNCTION void operator()(const Member& team, index_t t, void*, void* rows) const {
    device::for_each_system_of_tile(team, device::systems_in_tile(nsys, t), [&](const int k) {
      const index_t s = t * TW + k;
      T* const cstar = static_cast<T*>(rows) + k;
      const auto as = block_device_group<Packed, const T>(a, s);
      const auto bs = block_device_group<Packed, const T>(b, s);
      const auto cs = block_device_group<Packed, const T>(c, s);
      const auto ds = block_device_group<Packed, D>(d, s);
      int code = 0;
      constexpr auto mm = static_cast<std::size_t>(M * M);  // an array bound
      T sb[mm], am[mm] = {}, piv[static_cast<std::size_t>(M)], ct[mm], ct_prev[mm] = {};
      for (index_t i = 0; i < n; ++i) {
        block_load<M, 1, false>(bs, i, 1, sb);
        if (i > 0) block_load<M, 1, false>(as, i, 1, am);
        if (i + 1 < n) block_load<M, 1, true>(cs, i, 1, ct);
        block_row_factor<M, 1>(i, n, pivoting, sb, am, ct, ct_prev, piv, &code);
        block_row_rhs<M, 1>(i, nrhs, 1, pivoting, sb, am, piv, ds, ds);
        if (i + 1 < n)
          for (int e = 0; e < M * M; ++e) {
            cstar[(i * M * M + e) * TW] = ct[e];
            ct_prev[e] = ct[e];
          }
      }
      D v[static_cast<std::size_t>(M)], w[static_cast<std::size_t>(M)];
      for (index_t i = n - 2; i >= 0; --i) {
        for (int e = 0; e < M * M; ++e) ct[e] = cstar[(i * M * M + e) * TW];
        for (index_t r = 0; r < nrhs; ++r) {
          block_load_vec<M, 1>(ds, i + 1, r, 1, w);
          block_load_vec<M, 1>(ds, i, r, 1, v);
          block_sub_matvec_transposed<M, 1>(v, ct, w);
          block_store_vec<M, 1>(ds, i, r, 1, v);
        }
      }
      info(s) = code;
    });
  }
};

// Factorization of a tile into f (row s: the factors of system s).
template <int M, bool Packed, class T, class AView, class BView, class CView, class FactorView,
          class InfoView>
struct block_device_factor {
  AView a;
  BView b;
  CView c;
  FactorView f;
  InfoView info;
  index_t n, nsys;
  bool pivoting;

  template <class Member>
  KOKKOS_INLINE_FUNCTION void operator()(const Member& team, index_t t, void*, void*) const {
    device::for_each_system_of_tile(team, device::systems_in_tile(nsys, t), [&](const int k) {
      const index_t s = t * device::tile_systems + k;
      int code = 0;
      block_thomas_factor_group<M, 1, T>(n, 1, pivoting, block_device_group<Packed, const T>(a, s),
                                         block_device_group<Packed, const T>(b, s),
                                         block_device_group<Packed, const T>(c, s), &f(s, 0),
                                         &code);
      info(s) = code;
    });
  }
};

// Solve of a tile with stored factors.
template <int M, bool Packed, class T, class FactorView, class DView>
struct block_device_factored_solve {
  FactorView f;
  DView d;
  index_t n, nsys, nrhs;
  bool pivoting;

  template <class Member>
  KOKKOS_INLINE_FUNCTION void operator()(const Member& team, index_t t, void*, void*) const {
    device::for_each_system_of_tile(team, device::systems_in_tile(nsys, t), [&](const int k) {
      const index_t s = t * device::tile_systems + k;
      block_thomas_factored_solve_group<M, 1, T>(
          n, nrhs, 1, pivoting, &f(s, 0),
          block_device_group<Packed, typename DView::value_type>(d, s));
    });
  }
};

// One-shot solve of nsys systems (n, nsys > 0, arguments checked).
template <int M, bool Packed, class ExecutionSpace, class AView, class BView, class CView,
          class DView, class InfoView>
void block_thomas_device_solve(const ExecutionSpace& exec, bool pivoting, const AView& a,
                               const BView& b, const CView& c, const DView& d,
                               const InfoView& info, index_t nsys, index_t n, index_t nrhs) {
  using T = typename BView::non_const_value_type;
  using kernel = block_device_one_shot<M, Packed, T, AView, BView, CView, DView, InfoView>;
  device::for_each_tile(exec, "bandsolve::solve(block_thomas, device)", device::tile_count(nsys),
                        0, kernel::row_bytes(n),
                        kernel{a, b, c, d, info, n, nsys, nrhs, pivoting});
}

}  // namespace bandsolve::detail

namespace bandsolve {

namespace detail {
struct block_thomas_device_factorization_access;

template <int M, class ExecutionSpace, class AView, class BView, class CView, class FactorView,
          class InfoView>
void block_thomas_device_factor_launch(const ExecutionSpace& exec, bool pivoting, const AView& a,
                                       const BView& b, const CView& c, const FactorView& f,
                                       const InfoView& info, index_t nsys, index_t n) {
  using T = typename BView::non_const_value_type;
  using kernel = block_device_factor<M, (block_pack_width_v<BView> > 0), T, AView, BView, CView,
                                     FactorView, InfoView>;
  device::for_each_tile(exec, "bandsolve::factorize(block_thomas, device)",
                        device::tile_count(nsys), 0, 0,
                        kernel{a, b, c, f, info, n, nsys, pivoting});
}

// Factors (a, b, c) into the given factor and info Views (factorize's fresh ones, or refactor's
// stored ones): the one kernel both run, chosen by the block size.
template <class ExecutionSpace, class AView, class BView, class CView, class FactorView,
          class InfoView>
void block_thomas_device_factor_into(const ExecutionSpace& exec, bool pivoting, const AView& a,
                                     const BView& b, const CView& c, const FactorView& factors,
                                     const InfoView& info, index_t nsys, index_t n, index_t m) {
  if (nsys == 0 || n == 0) return;
  block_size_dispatch("bandsolve::factorize(block_thomas)", static_cast<std::size_t>(m),
                      [&](auto block_size) {
                        block_thomas_device_factor_launch<decltype(block_size)::value>(
                            exec, pivoting, a, b, c, factors, info, nsys, n);
                      });
}
}  // namespace detail

// The factors of a batch of block-tridiagonal matrices on the device backend
// (factorize(exec, algo::block_thomas{...}, a, b, c[, nsys], backend::device{}), or any
// factorize on Kokkos::Cuda): per system and block row A_i, the LU factors of S_i with their
// interchanges and C*_i, 3 m^2 + m values (block_factor_words). PackWidth is the W of
// interleaved<W> input, 0 for rank-4 Views; solve takes right-hand sides of the same kind.
template <class Scalar, int PackWidth, class ExecutionSpace>
class block_thomas_device_factorization {
 public:
  using scalar_type = Scalar;
  using execution_space = ExecutionSpace;
  using memory_space = typename ExecutionSpace::memory_space;
  static constexpr int pack_width = PackWidth;
  // (nsys, n (3 m^2 + m)).
  using factor_view = Kokkos::View<Scalar**, Kokkos::LayoutRight, memory_space>;

  block_thomas_device_factorization() = default;

  std::size_t nsys() const { return static_cast<std::size_t>(nsys_); }
  std::size_t n() const { return static_cast<std::size_t>(n_); }
  std::size_t m() const { return static_cast<std::size_t>(m_); }
  bool pivoting() const { return pivoting_; }
  Kokkos::View<const int*, memory_space> info() const { return info_; }
  // Bytes of the stored factors.
  std::size_t storage_bytes() const { return factors_.span() * sizeof(Scalar); }

  // Solves for the right-hand sides in d (one or nrhs per system, same layout kind, systems,
  // block rows and block size as the factored matrices), in place. Enqueued on exec, not fenced;
  // no scratch. Systems whose info is not 0 get inf/NaN.
  template <class DView>
  void solve(const ExecutionSpace& exec, const DView& d) const {
    detail::block_rhs_static_checks<ExecutionSpace, PackWidth, Scalar, DView>();
    const std::string fn = "bandsolve::block_thomas_factorization::solve";
    if (!initialized_)
      detail::throw_invalid_argument(fn, "this factorization is empty (default-constructed)");
    const index_t slots = PackWidth > 0 ? (nsys_ + PackWidth - 1) / PackWidth : nsys_;
    const index_t expected[3] = {slots, n_, m_};
    const char* what[3] = {PackWidth > 0 ? " packs" : " systems", " block rows",
                           " rows per block"};
    for (int k = 0; k < 3; ++k)
      if (static_cast<index_t>(d.extent(k)) != expected[k])
        detail::throw_invalid_argument(fn, "d.extent(", k, ") = ", d.extent(k),
                                       " but the factorization has ", expected[k], what[k]);
    const index_t nrhs = detail::block_nrhs<(PackWidth > 0)>(d);
    if (nsys_ == 0 || n_ == 0 || nrhs == 0) return;
    detail::block_size_dispatch(fn, static_cast<std::size_t>(m_), [&](auto block_size) {
      constexpr int M = decltype(block_size)::value;
      using kernel =
          detail::block_device_factored_solve<M, (PackWidth > 0), Scalar, factor_view, DView>;
      detail::device::for_each_tile(exec, "bandsolve::block_thomas_factorization::solve(device)",
                                    detail::device::tile_count(nsys_), 0, 0,
                                    kernel{factors_, d, n_, nsys_, nrhs, pivoting_});
    });
  }

  // As block_thomas_factorization::refactor: new matrices of the same shape into this
  // factorization's own storage (no allocation), same factors and info as a fresh factorize.
  // Enqueued on exec, not fenced.
  template <class AView, class BView, class CView>
  void refactor(const ExecutionSpace& exec, const AView& a, const BView& b, const CView& c) {
    detail::block_coefficient_static_checks<ExecutionSpace, BView, AView, CView>();
    static_assert(std::is_same_v<typename BView::non_const_value_type, Scalar> &&
                      detail::block_pack_width_v<BView> == PackWidth,
                  "bandsolve::block_thomas_device_factorization::refactor: the matrices must "
                  "have the factored scalar type and layout kind");
    const auto slots = PackWidth > 0 ? (nsys_ + PackWidth - 1) / PackWidth : nsys_;
    detail::block_check_refactor("bandsolve::block_thomas_device_factorization::refactor",
                                 initialized_, a, b, c, static_cast<std::size_t>(slots), n(),
                                 m());
    detail::block_thomas_device_factor_into(exec, pivoting_, a, b, c, factors_, info_, nsys_, n_,
                                            m_);
  }

 private:
  friend struct detail::block_thomas_device_factorization_access;

  // Members are built here, never assigned into default-constructed Views.
  block_thomas_device_factorization(const factor_view& factors,
                                    const Kokkos::View<int*, memory_space>& info, index_t nsys,
                                    index_t n, index_t m, bool pivoting)
      : factors_(factors), info_(info), nsys_(nsys), n_(n), m_(m), pivoting_(pivoting),
        initialized_(true) {}

  factor_view factors_;
  Kokkos::View<int*, memory_space> info_;
  index_t nsys_ = 0, n_ = 0, m_ = 0;
  bool pivoting_ = false, initialized_ = false;
};

namespace detail {
struct block_thomas_device_factorization_access {
  template <class F, class... Args>
  static F make(const Args&... args) {
    return F(args...);
  }
};

// factorize on the device backend: nsys systems of n block rows of m x m blocks (arguments
// checked). Allocates the factors and info; enqueued on exec, not fenced.
template <class ExecutionSpace, class AView, class BView, class CView>
auto block_thomas_device_factorize(const ExecutionSpace& exec, bool pivoting, const AView& a,
                                   const BView& b, const CView& c, index_t nsys, index_t n,
                                   index_t m) {
  using T = typename BView::non_const_value_type;
  constexpr int W = block_pack_width_v<BView>;
  using F = block_thomas_device_factorization<T, W, ExecutionSpace>;
  using fv = typename F::factor_view;
  using info_type = Kokkos::View<int*, typename F::memory_space>;
  const fv factors(Kokkos::view_alloc(exec, std::string("bandsolve::block_thomas factors")),
                   static_cast<std::size_t>(nsys), static_cast<std::size_t>(n * (3 * m * m + m)));
  const info_type info(Kokkos::view_alloc(exec, std::string("bandsolve::block_thomas info")),
                       static_cast<std::size_t>(nsys));
  F f = block_thomas_device_factorization_access::make<F>(factors, info, nsys, n, m, pivoting);
  block_thomas_device_factor_into(exec, pivoting, a, b, c, factors, info, nsys, n, m);
  return f;
}
}  // namespace detail

}  // namespace bandsolve
