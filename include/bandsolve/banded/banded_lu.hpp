#pragma once
// Batched banded LU: host API.
//
//   bandsolve::solve(exec, bandsolve::algo::banded_lu{kl, ku}, ab, b, info);
//       Solves A x = b for every system; A (n x n, kl subdiagonals, ku superdiagonals) is in
//       LAPACK band storage ab (see band_layout.hpp: ldab >= 2kl+ku+1, fill-in rows needing no
//       values), which is read only; x overwrites b (one or several right-hand sides).
//       Layouts: row, column, interleaved<W>, and strided Views of existing arrays (subviews).
//   auto f = bandsolve::factorize(exec, bandsolve::algo::banded_lu{kl, ku}, ab, nsys);
//   f.solve(exec, b);      // any number of times; f.lu(), f.pivots(), f.info() as ?gbtrf's
//   f.refactor(exec, ab2); // new matrices of the same shape, into f's own storage
//
// algo::banded_lu{kl, ku} pivots like LAPACK's ?gbtrf/?gbtrs (partial pivoting by rows, the
// pivot of largest |x|, or |re|+|im| for complex values, the first one on ties): info(s) = i > 0
// for the first U(i, i) (1-based) that is zero, tiny (reciprocal overflows) or not finite (NaN or
// Inf in ab reaching a pivot), the contract of every family (?gbsv reports exact zeros only); x
// is then not meaningful for that system.
// algo::banded_lu{kl, ku, false} does no interchanges (faster, U keeps ku superdiagonals; for
// diagonally dominant or SPD matrices): info(s) = the 1-based row of the first zero, tiny
// (reciprocal overflows) or non-finite pivot, as the core's Thomas.
// kl = ku = 1, 2 and 4 run kernels compiled for those bandwidths; others a generic kernel.
// Scalars: float, double, Kokkos::complex<float>, Kokkos::complex<double> (ab and b alike), or a
// real band with complex right-hand sides of the same precision (double ab, complex<double> b).
// For interleaved packs the number of systems is info.extent(0) (solve) or nsys (factorize).
// Work is enqueued on exec and never fenced here; fence before reading b or info on the host.
// Scratch of the one-shot solve and of factorize (solve_scratch_bytes<Layout, T>(alg, n, nsys,
// threads) gives it exactly): ((n + kl)(2kl + ku + 1) + n) sizeof(T) bytes per system of a work
// item, whose L systems are an interleaved pack or 64 bytes of systems; batches of fewer systems
// than that (row, column, strided) run one system per item. At most min(items, threads) items
// hold scratch at once (Kokkos's per-thread team scratch below 1 MiB per item, backend/host_simd/launch.hpp);
// one long system: ((n + kl)(2kl + ku + 1) + n) sizeof(T) + 128 bytes. An allocation failure
// throws bandsolve::allocation_error. The factored solve uses no scratch.
//
// Backends: the execution space's own (backend::default_for_t: serial, openmp_simd, device on
// Kokkos::Cuda), or a trailing backend::device{} argument to solve and factorize, which runs the
// device kernels (banded_lu_device.hpp: a thread per system, the run-time bandwidth kernel,
// work rows as device row scratch) on any execution space. The factorization keeps the same
// storage (lu(), pivots()) and its solve runs on the backend that factored it.
#include <bandsolve/backend/host_simd/launch.hpp>
#include <bandsolve/backend/host_simd/work_shape.hpp>
#include <bandsolve/backend/huge_pages.hpp>
#include <bandsolve/banded/band_layout.hpp>
#include <bandsolve/banded/banded_lu_device.hpp>
#include <bandsolve/banded/banded_lu_kernel.hpp>
#include <bandsolve/core/algo.hpp>
#include <bandsolve/core/checks.hpp>

#include <string>
#include <type_traits>

namespace bandsolve {

namespace detail {

template <class Layout>
inline constexpr bool is_interleaved_band_v =
    !std::is_same_v<Layout, layout::row> && !std::is_same_v<Layout, layout::column> &&
    !std::is_same_v<Layout, layout::strided> && !std::is_same_v<Layout, unsupported_layout>;

// Systems per work item: an interleaved pack, or the host backend's cache-line lanes, systems side
// by side (one cache line per band entry for column blocks).
template <class Layout, class T>
constexpr int banded_pack_width() {
  if constexpr (is_interleaved_band_v<Layout>) return Layout::width;
  else return cache_line_lanes_v<T>;
}

template <class Layout, class View>
index_t band_slots(const View& ab) {
  if constexpr (is_interleaved_band_v<Layout>) return static_cast<index_t>(ab.extent(0)) * Layout::width;
  else return static_cast<index_t>(ab.extent(0));
}

// (rows, right-hand sides, system slots) of a right-hand-side View.
template <class View>
struct rhs_shape {
  index_t n, nrhs, slots;
};
template <class View>
rhs_shape<View> shape_of_rhs(const View& b) {
  using Layout = rhs_layout_of_t<View>;
  constexpr bool several = rhs_has_several_v<View>;
  index_t slots = static_cast<index_t>(b.extent(0));
  if constexpr (is_interleaved_band_v<Layout>) slots *= Layout::width;
  if constexpr (!several) return {static_cast<index_t>(b.extent(1)), 1, slots};
  else if constexpr (std::is_same_v<Layout, layout::column> || std::is_same_v<Layout, layout::strided>)
    return {static_cast<index_t>(b.extent(1)), static_cast<index_t>(b.extent(2)), slots};
  else return {static_cast<index_t>(b.extent(2)), static_cast<index_t>(b.extent(1)), slots};
}

// Whether the systems of a pack sit side by side (lane stride 1): calls run(std::bool_constant).
// Row layout never, column and interleaved always, strided Views when unit_at_run_time says so.
template <class Layout, class Run>
void with_lane_contiguity(bool unit_at_run_time, const Run& run) {
  if constexpr (std::is_same_v<Layout, layout::strided>) {
    if (unit_at_run_time) run(std::true_type{});
    else run(std::false_type{});
  } else {
    run(std::bool_constant<!std::is_same_v<Layout, layout::row>>{});
  }
}

// Calls f(std::integral_constant<int, L>) with the systems per work item of a batch of nsys: the
// pack width, or 1 when a batch outside interleaved storage has fewer systems than a pack, so
// that its scratch is that of the systems solved.
template <class Layout, class T, class F>
void with_band_pack_width(index_t nsys, const F& f) {
  constexpr int L = banded_pack_width<Layout, T>();
  if constexpr (is_interleaved_band_v<Layout> || L == 1) {
    f(std::integral_constant<int, L>{});
  } else {
    if (nsys < L) f(std::integral_constant<int, 1>{});
    else f(std::integral_constant<int, L>{});
  }
}

// with_lane_contiguity for packs of L systems: one system per item has no lane stride to vary.
template <class Layout, int L, class Run>
void with_pack_lanes(bool unit_at_run_time, const Run& run) {
  if constexpr (L == 1) {
    (void)unit_at_run_time;
    run(std::true_type{});
  } else {
    with_lane_contiguity<Layout>(unit_at_run_time, run);
  }
}

// Pack p (L systems) of a band View; unit: lane stride 1 (with_lane_contiguity).
template <bool unit, class Layout, int L, class View, class T = typename View::value_type>
KOKKOS_INLINE_FUNCTION auto band_pack(const View& ab, index_t p) {
  const index_t ss = static_cast<index_t>(ab.stride(0));
  const index_t cs = static_cast<index_t>(ab.stride(1)), rs = static_cast<index_t>(ab.stride(2));
  const index_t first = is_interleaved_band_v<Layout> ? p * ss : p * L * ss;
  return band_lanes<T, unit>{ab.data() + first, ss, cs, rs};
}

// Pack p of a right-hand-side View.
template <bool unit, class Layout, int L, class View>
KOKKOS_INLINE_FUNCTION auto rhs_pack(const View& b, index_t p) {
  using T = typename View::value_type;
  constexpr bool several = rhs_has_several_v<View>;
  const index_t ss = static_cast<index_t>(b.stride(0));
  const index_t first = is_interleaved_band_v<Layout> ? p * ss : p * L * ss;
  index_t is = static_cast<index_t>(b.stride(1)), ks = 0;
  if constexpr (several) {
    if constexpr (std::is_same_v<Layout, layout::column> || std::is_same_v<Layout, layout::strided>) {
      ks = static_cast<index_t>(b.stride(2));
    } else {
      ks = static_cast<index_t>(b.stride(1));
      is = static_cast<index_t>(b.stride(2));
    }
  }
  return rhs_lanes<T, unit>{offset_or_null(b.data(), first), ss, is, ks};
}

// Pack p of a pivot View (a batch View of int).
template <bool unit, class Layout, int L, class View>
KOKKOS_INLINE_FUNCTION auto pivot_pack(const View& ipiv, index_t p) {
  const index_t ss = static_cast<index_t>(ipiv.stride(0));
  const index_t first = is_interleaved_band_v<Layout> ? p * ss : p * L * ss;
  return pivot_lanes<unit>{ipiv.data() + first, ss, static_cast<index_t>(ipiv.stride(1))};
}

// The compile-time checks of ab, and of b: classes, so that they fire where an entry point names
// them (tridiag/batch_checks.hpp says why).
template <class ExecutionSpace, class ABView>
struct banded_static_checks {
  static_assert(Kokkos::is_execution_space<ExecutionSpace>::value,
                "bandsolve banded_lu: the first argument must be a Kokkos execution space instance");
  static_assert(Kokkos::is_view<ABView>::value, "bandsolve banded_lu: ab must be a Kokkos::View");
  using Layout = band_layout_of_t<ABView>;
  static_assert(!std::is_same_v<Layout, unsupported_layout>,
                "bandsolve banded_lu: " BANDSOLVE_SUPPORTED_BAND_VIEWS);
  static_assert(is_supported_scalar_v<typename ABView::non_const_value_type>,
                "bandsolve banded_lu: the scalar type must be float, double, "
                "Kokkos::complex<float> or Kokkos::complex<double>");
  static_assert(Kokkos::SpaceAccessibility<ExecutionSpace, typename ABView::memory_space>::accessible,
                "bandsolve banded_lu: the Views must be accessible from the execution space");
  static_assert(sizeof(backend::default_for_t<ExecutionSpace>) > 0);  // a space with a backend
};

template <class ABLayout, class T, class BView>
struct banded_rhs_static_checks {
  static_assert(Kokkos::is_view<BView>::value, "bandsolve banded_lu: b must be a Kokkos::View");
  static_assert(std::is_same_v<rhs_layout_of_t<BView>, ABLayout>,
                "bandsolve banded_lu: " BANDSOLVE_SUPPORTED_RHS_VIEWS);
  static_assert(!std::is_const_v<typename BView::value_type> &&
                    is_rhs_of_v<T, typename BView::non_const_value_type>,
                "bandsolve banded_lu: b must be a non-const View of the scalar type of ab, or of "
                "Kokkos::complex of it when ab is real");
};

inline void check_bandwidths(const std::string& fn, const algo::banded_lu& alg, index_t ldab) {
  if (alg.kl < 0 || alg.ku < 0)
    throw_invalid_argument(fn, "kl = ", alg.kl, " and ku = ", alg.ku, " must both be >= 0");
  const index_t need = 2 * static_cast<index_t>(alg.kl) + alg.ku + 1;
  if (ldab < need)
    throw_invalid_argument(fn, "ab has ldab = ", ldab, " band rows but kl = ", alg.kl,
                           ", ku = ", alg.ku, " need 2*kl+ku+1 = ", need,
                           " (LAPACK band storage with the kl fill-in rows)");
}

template <class Layout, class BView>
void check_rhs(const std::string& fn, const BView& b, index_t n, index_t slots) {
  const auto shape = shape_of_rhs(b);
  if (shape.n != n)
    throw_invalid_argument(fn, "b has ", shape.n, " rows but ab has n = ", n, " columns");
  if (shape.slots != slots)
    throw_invalid_argument(fn, "b holds ", shape.slots, " systems but ab holds ", slots);
}

// The compiled bandwidths, or the run-time kernel.
template <class Run>
void dispatch_band_dims(const algo::banded_lu& alg, const Run& run) {
  if (alg.kl == 1 && alg.ku == 1) run(band_dims<1, 1>{});
  else if (alg.kl == 2 && alg.ku == 2) run(band_dims<2, 2>{});
  else if (alg.kl == 4 && alg.ku == 4) run(band_dims<4, 4>{});
  else run(runtime_band_dims{alg.kl, alg.ku});
}

// One-shot kernel launch for one bandwidth type and pivoting choice.
// L systems per work item (with_band_pack_width). Outside interleaved storage the last pack of a
// batch may hold fewer than L systems: it is solved one system at a time, never as a pack with
// a run-time lane count, because GCC 12 at -O3 vectorizes those lane loops (omp simd around
// the inner row loops) with loads of the lanes past the last system, one past the end of the
// Views. Full packs and single systems have compile-time lane counts. The factorization and the
// factored solve below take packs the same way.
template <int L, bool Pivot, bool Unit, class Dims, class ExecutionSpace, class ABView,
          class BView, class InfoView>
void launch_banded_solve(const ExecutionSpace& exec, const Dims dims, const ABView& ab,
                         const BView& b, const InfoView& info, index_t nsys, index_t n,
                         int nrhs) {
  using Layout = band_layout_of_t<ABView>;
  using T = typename ABView::non_const_value_type;
  constexpr bool full = is_interleaved_band_v<Layout> || L == 1;
  using work_type = band_work<T, L, Dims>;
  const index_t npacks = (nsys + L - 1) / L;
  for_each_pack(exec, "bandsolve::solve(banded_lu)", npacks, work_type::bytes(dims, n),
                KOKKOS_LAMBDA(const index_t p, void* scratch) {
                  const int nl = static_cast<int>(nsys - p * L < L ? nsys - p * L : L);
                  T* rows = static_cast<T*>(scratch);
                  const index_t ldw = 2 * dims.kl() + dims.ku() + 1;
                  if (full || nl == L) {
                    const work_type w{rows, rows + (n + dims.kl()) * ldw * L, dims};
                    int info_l[static_cast<std::size_t>(L)];
                    banded_solve_pack<L, true, Pivot>(
                        w, n, nl, band_pack<Unit, Layout, L, ABView, const T>(ab, p),
                        rhs_pack<Unit, Layout, L>(b, p), nrhs, info_l);
                    for (int l = 0; l < nl; ++l) info(p * L + l) = info_l[l];
                    return;
                  }
                  if constexpr (!full) {
                    const band_work<T, 1, Dims> w{rows, rows + (n + dims.kl()) * ldw, dims};
                    for (index_t s = p * L; s < p * L + nl; ++s) {
                      int info_s[1];
                      banded_solve_pack<1, true, Pivot>(
                          w, n, 1, band_pack<true, Layout, 1, ABView, const T>(ab, s),
                          rhs_pack<true, Layout, 1>(b, s), nrhs, info_s);
                      info(s) = info_s[0];
                    }
                  }
                });
}

// The device kernels' addressing of a band, right-hand-side or pivot View (system s at
// systems::system(s): interleaved packs put lane s % W last, stride 1).
template <class Layout>
constexpr int band_system_width() {
  if constexpr (is_interleaved_band_v<Layout>) return Layout::width;
  else return 1;
}
template <class Layout, class T, class View>
band_systems<T> band_systems_of(const View& ab) {
  constexpr int width = band_system_width<Layout>();
  return {device::systems<T>{ab.data(), static_cast<index_t>(ab.stride(0)), 0, width},
          static_cast<index_t>(ab.stride(1)), static_cast<index_t>(ab.stride(2))};
}
template <class Layout, class View>
rhs_systems<typename View::value_type> rhs_systems_of(const View& b) {
  constexpr int width = band_system_width<Layout>();
  const auto r = rhs_pack<true, Layout, 1>(b, 0);
  return {device::systems<typename View::value_type>{b.data(), static_cast<index_t>(b.stride(0)),
                                                     0, width},
          r.row_stride, r.rhs_stride};
}
template <class Layout, class View>
pivot_systems pivot_systems_of(const View& piv) {
  constexpr int width = band_system_width<Layout>();
  return {device::systems<int>{piv.data(), static_cast<index_t>(piv.stride(0)), 0, width},
          pivot_pack<true, Layout, 1>(piv, 0).row_stride};
}

}  // namespace detail

// ---------------------------------------------------------------------------------------------
// One-shot solve.

// Backend: the execution space's own (backend::default_for_t), or backend::device to run the
// device kernels (banded_lu_device.hpp) on any execution space, host spaces included.
template <class ExecutionSpace, class ABView, class BView, class InfoView, class Backend>
std::enable_if_t<backend::is_backend_v<Backend>> solve(const ExecutionSpace& exec,
                                                       const algo::banded_lu& alg,
                                                       const ABView& ab, const BView& b,
                                                       const InfoView& info, Backend) {
  detail::banded_static_checks<ExecutionSpace, ABView>();
  using Layout = band_layout_of_t<ABView>;
  using T = typename ABView::non_const_value_type;
  detail::banded_rhs_static_checks<Layout, T, BView>();
  static_assert(Kokkos::SpaceAccessibility<ExecutionSpace, typename BView::memory_space>::accessible,
                "bandsolve::solve(banded_lu): b must be accessible from the execution space");
  static_assert(Kokkos::is_view<InfoView>::value && InfoView::rank == 1 &&
                    std::is_same_v<typename InfoView::value_type, int>,
                "bandsolve::solve(banded_lu): info must be a rank-1 Kokkos::View<int*>");
  static_assert(Kokkos::SpaceAccessibility<ExecutionSpace,
                                           typename InfoView::memory_space>::accessible,
                "bandsolve::solve(banded_lu): info must be accessible from the execution space");
  const std::string fn = "bandsolve::solve(banded_lu)";
  detail::check_bandwidths(fn, alg, static_cast<index_t>(ab.extent(2)));
  const index_t n = static_cast<index_t>(ab.extent(1));
  detail::check_rows_fit_int(fn, static_cast<std::size_t>(n));
  const index_t slots = detail::band_slots<Layout>(ab);
  detail::check_rhs<Layout>(fn, b, n, slots);
  detail::check_no_overlap(fn, "b", b, "ab", ab);
  detail::check_no_overlap(fn, "b", b, "info", info);
  const index_t nsys = static_cast<index_t>(info.extent(0));
  if constexpr (detail::is_interleaved_band_v<Layout>) {
    constexpr index_t W = Layout::width;
    if ((nsys + W - 1) / W != static_cast<index_t>(ab.extent(0)))
      detail::throw_invalid_argument(fn, "info.extent(0) = ", nsys, " systems need ",
                                     (nsys + W - 1) / W, " packs of ", W, " but ab has ",
                                     ab.extent(0), " packs");
  } else if (nsys != slots) {
    detail::throw_invalid_argument(fn, "info.extent(0) = ", nsys, " but ab holds ", slots,
                                   " systems");
  }
  const int nrhs = static_cast<int>(detail::shape_of_rhs(b).nrhs);
  if (nsys == 0) return;
  if (n == 0) {
    Kokkos::deep_copy(exec, info, 0);
    return;
  }
  if constexpr (std::is_same_v<Backend, backend::device>) {
    detail::banded_device_solve(exec, alg.pivoting, detail::runtime_band_dims{alg.kl, alg.ku},
                                detail::band_systems_of<Layout, const T>(ab),
                                detail::rhs_systems_of<Layout>(b), info, nsys, n, nrhs);
  } else {
    static_assert(std::is_same_v<Backend, backend::default_for_t<ExecutionSpace>>,
                  "bandsolve::solve(banded_lu): a host backend runs only on its own execution "
                  "space");
    const bool unit = ab.stride(0) == 1 && b.stride(0) == 1;
    detail::dispatch_band_dims(alg, [&](auto dims) {
      detail::with_band_pack_width<Layout, T>(nsys, [&](auto width) {
        constexpr int L = decltype(width)::value;
        detail::with_pack_lanes<Layout, L>(unit, [&](auto lane_contiguous) {
          constexpr bool u = decltype(lane_contiguous)::value;
          if (alg.pivoting)
            detail::launch_banded_solve<L, true, u>(exec, dims, ab, b, info, nsys, n, nrhs);
          else
            detail::launch_banded_solve<L, false, u>(exec, dims, ab, b, info, nsys, n, nrhs);
        });
      });
    });
  }
}

template <class ExecutionSpace, class ABView, class BView, class InfoView>
void solve(const ExecutionSpace& exec, const algo::banded_lu& alg, const ABView& ab,
           const BView& b, const InfoView& info) {
  solve(exec, alg, ab, b, info, backend::default_for_t<ExecutionSpace>{});
}

// Scratch bytes the one-shot solve (or factorize) of nsys systems of n rows holds on
// `concurrency` threads; see the bound in this header's top comment.
template <class Layout, class T>
std::size_t solve_scratch_bytes(const algo::banded_lu& alg, std::size_t n, std::size_t nsys,
                                int concurrency) {
  std::size_t bytes = 0;
  if (n == 0 || nsys == 0) return 0;
  const detail::runtime_band_dims dims{alg.kl, alg.ku};
  const index_t ns = static_cast<index_t>(nsys);
  detail::with_band_pack_width<Layout, T>(ns, [&](auto width) {
    constexpr int L = decltype(width)::value;
    bytes = detail::pack_scratch_bytes(
        (ns + L - 1) / L,
        detail::band_work<T, L, detail::runtime_band_dims>::bytes(dims, static_cast<index_t>(n)),
        concurrency);
  });
  return bytes;
}

// ---------------------------------------------------------------------------------------------
// Factorization reused across right-hand sides.

template <class Scalar, class Layout, class ExecutionSpace>
class banded_lu_factorization;

namespace detail {
// Storage of the factors: the input's layout; strided inputs get strided Views laid out system
// by system (each system's band a LAPACK AB array, as layout::row).
template <class Layout, class Scalar, class MemorySpace>
struct banded_factor_storage {
  using band_view = decltype(banded::make_band<Layout, Scalar, MemorySpace>("", 0, 0, 0, 0));
  using pivot_view = decltype(make_batch<Layout, int, MemorySpace>("", 0, 0));
};
template <class Scalar, class MemorySpace>
struct banded_factor_storage<layout::strided, Scalar, MemorySpace> {
  using band_view = Kokkos::View<Scalar***, Kokkos::LayoutStride, MemorySpace>;
  using pivot_view = Kokkos::View<int**, Kokkos::LayoutStride, MemorySpace>;
};

struct banded_factorization_access {
  template <class F, class LUView, class PivView, class InfoView>
  static F make(const algo::banded_lu& alg, LUView lu, PivView piv, InfoView info, index_t nsys,
                index_t n, bool device) {
    return F(alg, lu, piv, info, nsys, n, device);
  }
};

// L systems per work item (with_band_pack_width).
template <int L, bool Pivot, bool Unit, class Dims, class ExecutionSpace, class ABView,
          class LUView, class PivView, class InfoView>
void launch_banded_factor(const ExecutionSpace& exec, const Dims dims, const ABView& ab,
                          const LUView& lu, const PivView& piv, const InfoView& info,
                          index_t nsys, index_t n) {
  using Layout = band_layout_of_t<ABView>;
  using T = typename ABView::non_const_value_type;
  constexpr bool full = is_interleaved_band_v<Layout> || L == 1;
  using work_type = band_work<T, L, Dims>;
  const index_t npacks = (nsys + L - 1) / L;
  for_each_pack(exec, "bandsolve::factorize(banded_lu)", npacks, work_type::bytes(dims, n),
                KOKKOS_LAMBDA(const index_t p, void* scratch) {
                  const int nl = static_cast<int>(nsys - p * L < L ? nsys - p * L : L);
                  T* rows = static_cast<T*>(scratch);
                  const index_t ldw = 2 * dims.kl() + dims.ku() + 1;
                  if (full || nl == L) {
                    const work_type w{rows, rows + (n + dims.kl()) * ldw * L, dims};
                    int info_l[static_cast<std::size_t>(L)];
                    banded_factor_pack<L, true, Pivot>(
                        w, n, nl, band_pack<Unit, Layout, L, ABView, const T>(ab, p),
                        band_pack<Unit, Layout, L>(lu, p), pivot_pack<Unit, Layout, L>(piv, p),
                        info_l);
                    for (int l = 0; l < nl; ++l) info(p * L + l) = info_l[l];
                    return;
                  }
                  if constexpr (!full) {
                    const band_work<T, 1, Dims> w{rows, rows + (n + dims.kl()) * ldw, dims};
                    for (index_t s = p * L; s < p * L + nl; ++s) {
                      int info_s[1];
                      banded_factor_pack<1, true, Pivot>(
                          w, n, 1, band_pack<true, Layout, 1, ABView, const T>(ab, s),
                          band_pack<true, Layout, 1>(lu, s), pivot_pack<true, Layout, 1>(piv, s),
                          info_s);
                      info(s) = info_s[0];
                    }
                  }
                });
}

// L systems per work item (with_band_pack_width, as the factorization took them).
template <int L, bool Pivot, bool Unit, class Dims, class Layout, class ExecutionSpace,
          class LUView, class PivView, class BView>
void launch_banded_factored_solve(const ExecutionSpace& exec, const Dims dims, const LUView& lu,
                                  const PivView& piv, const BView& b, index_t nsys, index_t n,
                                  int nrhs) {
  using T = typename LUView::non_const_value_type;
  constexpr bool full = is_interleaved_band_v<Layout> || L == 1;
  const index_t npacks = (nsys + L - 1) / L;
  for_each_pack(exec, "bandsolve::banded_lu_factorization::solve", npacks, 0,
                KOKKOS_LAMBDA(const index_t p, void*) {
                  const int nl = static_cast<int>(nsys - p * L < L ? nsys - p * L : L);
                  if (full || nl == L) {
                    banded_factored_solve_pack<L, true, Pivot, T>(
                        dims, n, nl, band_pack<Unit, Layout, L, LUView, const T>(lu, p),
                        pivot_pack<Unit, Layout, L>(piv, p), rhs_pack<Unit, Layout, L>(b, p),
                        nrhs);
                    return;
                  }
                  if constexpr (!full) {
                    for (index_t s = p * L; s < p * L + nl; ++s)
                      banded_factored_solve_pack<1, true, Pivot, T>(
                          dims, n, 1, band_pack<true, Layout, 1, LUView, const T>(lu, s),
                          pivot_pack<true, Layout, 1>(piv, s), rhs_pack<true, Layout, 1>(b, s),
                          nrhs);
                  }
                });
}

// Factors ab into the given lu, pivot and info Views (factorize's fresh ones, or refactor's
// stored ones) with the device backend's kernel (Device) or the host one's (its pack width from
// ns, as factorize picks it).
template <class Layout, class T, bool Device, class ExecutionSpace, class ABView, class LUView,
          class PivView, class InfoView>
void banded_factor_into(const ExecutionSpace& exec, const algo::banded_lu& alg, const ABView& ab,
                        const LUView& lu, const PivView& piv, const InfoView& info, index_t ns,
                        index_t n) {
  if (ns == 0 || n == 0) return;
  if constexpr (Device) {
    banded_device_factor_launch(exec, alg.pivoting, runtime_band_dims{alg.kl, alg.ku},
                                band_systems_of<Layout, const T>(ab),
                                band_systems_of<Layout, T>(lu), pivot_systems_of<Layout>(piv),
                                info, ns, n);
  } else {
    dispatch_band_dims(alg, [&](auto dims) {
      with_band_pack_width<Layout, T>(ns, [&](auto width) {
        constexpr int L = decltype(width)::value;
        with_pack_lanes<Layout, L>(false, [&](auto lane_contiguous) {
          constexpr bool u = decltype(lane_contiguous)::value;
          if (alg.pivoting)
            launch_banded_factor<L, true, u>(exec, dims, ab, lu, piv, info, ns, n);
          else
            launch_banded_factor<L, false, u>(exec, dims, ab, lu, piv, info, ns, n);
        });
      });
    });
  }
}
}  // namespace detail

// The LU factors of a batch of banded matrices, as LAPACK's ?gbtrf leaves them: U and the
// multipliers in band storage lu() (the layout and ldab = 2kl+ku+1 of the input), 1-based pivot
// rows in pivots() (a batch View of int in the same layout; the identity without pivoting). For
// layout::row every system's (lu, pivots) pair is exactly what ?gbtrs takes.
template <class Scalar, class Layout, class ExecutionSpace>
class banded_lu_factorization {
 public:
  using scalar_type = Scalar;
  using layout_type = Layout;
  using execution_space = ExecutionSpace;
  using memory_space = typename ExecutionSpace::memory_space;
  using band_view = typename detail::banded_factor_storage<Layout, Scalar, memory_space>::band_view;
  using pivot_view = typename detail::banded_factor_storage<Layout, Scalar, memory_space>::pivot_view;

  banded_lu_factorization() = default;

  std::size_t nsys() const { return static_cast<std::size_t>(nsys_); }
  std::size_t n() const { return static_cast<std::size_t>(n_); }
  int kl() const { return alg_.kl; }
  int ku() const { return alg_.ku; }
  bool pivoting() const { return alg_.pivoting; }
  band_view lu() const { return lu_; }
  pivot_view pivots() const { return piv_; }
  // Per-system info codes of the factorization (see the top of this header).
  Kokkos::View<const int*, memory_space> info() const { return info_; }
  // Whether the device backend factored it (its solve then runs there too).
  bool on_device_backend() const { return device_; }

  // Solves for the right-hand sides in b (one or several per system, the factored layout), in
  // place. Enqueued on exec, not fenced. Systems whose info is not 0 get values that mean nothing.
  template <class BView>
  void solve(const ExecutionSpace& exec, const BView& b) const {
    detail::banded_rhs_static_checks<Layout, Scalar, BView>();
    static_assert(Kokkos::SpaceAccessibility<ExecutionSpace, typename BView::memory_space>::accessible,
                  "bandsolve::banded_lu_factorization::solve: b must be accessible from the "
                  "execution space");
    const std::string fn = "bandsolve::banded_lu_factorization::solve";
    if (!initialized_)
      detail::throw_invalid_argument(fn, "this factorization is empty (default-constructed)");
    detail::check_rhs<Layout>(fn, b, n_, detail::band_slots<Layout>(lu_));
    detail::check_no_overlap(fn, "b", b, "the factors", lu_);
    const int nrhs = static_cast<int>(detail::shape_of_rhs(b).nrhs);
    if (nsys_ == 0 || n_ == 0 || nrhs == 0) return;
    const index_t nsys = nsys_, n = n_;
    // A space whose own backend is the device one has only device factorizations.
    constexpr bool device_only =
        std::is_same_v<backend::default_for_t<ExecutionSpace>, backend::device>;
    if (device_only || device_) {
      detail::banded_device_factored_solve_launch(
          exec, alg_.pivoting, detail::runtime_band_dims{alg_.kl, alg_.ku},
          detail::band_systems_of<Layout, const Scalar>(lu_),
          detail::pivot_systems_of<Layout>(piv_), detail::rhs_systems_of<Layout>(b), nsys, n,
          nrhs);
    }
    if constexpr (!device_only) {
      if (!device_) solve_on_host(exec, b, nrhs);
    }
  }

  // Factors new band matrices of the same shape (layout, systems, rows and bandwidths: ab's ldab
  // is 2kl+ku+1) as the factored ones into this factorization's own lu, pivots and info, on the
  // backend that factored it: no allocation. Same factors and info as a fresh factorize; copies
  // share the storage and see them. ab is read only. Enqueued on exec, not fenced.
  template <class ABView>
  void refactor(const ExecutionSpace& exec, const ABView& ab) {
    detail::banded_static_checks<ExecutionSpace, ABView>();
    static_assert(std::is_same_v<band_layout_of_t<ABView>, Layout> &&
                      std::is_same_v<typename ABView::non_const_value_type, Scalar>,
                  "bandsolve::banded_lu_factorization::refactor: ab must have the factored "
                  "layout and scalar type");
    const std::string fn = "bandsolve::banded_lu_factorization::refactor";
    if (!initialized_)
      detail::throw_invalid_argument(fn, "this factorization is empty (default-constructed)");
    constexpr bool packed = detail::is_interleaved_band_v<Layout>;
    if (ab.extent(0) != lu_.extent(0))
      detail::throw_invalid_argument(fn, "ab ", packed ? "has " : "holds ", ab.extent(0),
                                     packed ? " packs" : " systems",
                                     " but the factorization has ", lu_.extent(0));
    if (ab.extent(1) != n())
      detail::throw_invalid_argument(fn, "ab has ", ab.extent(1),
                                     " rows but the factorization has ", n_);
    if (ab.extent(2) != lu_.extent(2))
      detail::throw_invalid_argument(fn, "ab has ldab = ", ab.extent(2),
                                     " but the factorization has ldab = 2kl+ku+1 = ",
                                     lu_.extent(2), " (kl = ", alg_.kl, ", ku = ", alg_.ku, ")");
    detail::check_no_overlap(fn, "ab", ab, "the factors", lu_);
    // A space whose own backend is the device one has device factorizations only.
    constexpr bool device_only =
        std::is_same_v<backend::default_for_t<ExecutionSpace>, backend::device>;
    if (device_only || device_)
      detail::banded_factor_into<Layout, Scalar, true>(exec, alg_, ab, lu_, piv_, info_, nsys_,
                                                       n_);
    else if constexpr (!device_only)
      detail::banded_factor_into<Layout, Scalar, false>(exec, alg_, ab, lu_, piv_, info_, nsys_,
                                                        n_);
  }

 private:
  template <class BView>
  void solve_on_host(const ExecutionSpace& exec, const BView& b, int nrhs) const {
    const index_t nsys = nsys_, n = n_;
    // Strided factors are stored system by system (row-like), so their packs are never
    // lane-contiguous.
    detail::dispatch_band_dims(alg_, [&](auto dims) {
      detail::with_band_pack_width<Layout, Scalar>(nsys, [&](auto width) {
        constexpr int L = decltype(width)::value;
        detail::with_pack_lanes<Layout, L>(false, [&](auto lane_contiguous) {
          constexpr bool u = decltype(lane_contiguous)::value;
          if (alg_.pivoting)
            detail::launch_banded_factored_solve<L, true, u, decltype(dims), Layout>(
                exec, dims, lu_, piv_, b, nsys, n, nrhs);
          else
            detail::launch_banded_factored_solve<L, false, u, decltype(dims), Layout>(
                exec, dims, lu_, piv_, b, nsys, n, nrhs);
        });
      });
    });
  }

  friend struct detail::banded_factorization_access;

  // Members are built here, never assigned into default-constructed Views (Kokkos/GCC 12).
  banded_lu_factorization(const algo::banded_lu& alg, const band_view& lu, const pivot_view& piv,
                          const Kokkos::View<int*, memory_space>& info, index_t nsys, index_t n,
                          bool device)
      : alg_(alg), lu_(lu), piv_(piv), info_(info), nsys_(nsys), n_(n), initialized_(true),
        device_(device) {}

  algo::banded_lu alg_{};
  band_view lu_;
  pivot_view piv_;
  Kokkos::View<int*, memory_space> info_;
  index_t nsys_ = 0, n_ = 0;
  bool initialized_ = false;
  bool device_ = false;
};

// Factorizes the band matrices ab of nsys systems (default: every slot; for interleaved packs give
// the real number so padding lanes stay out of info). ab is read only. Allocates the factors
// (lu, pivots, info); enqueued on exec, not fenced. Backend as for solve.
template <class ExecutionSpace, class ABView, class Backend>
auto factorize(const ExecutionSpace& exec, const algo::banded_lu& alg, const ABView& ab,
               std::size_t nsys, Backend) {
  static_assert(backend::is_backend_v<Backend>,
                "bandsolve::factorize(banded_lu): the last argument must be a backend tag "
                "(backend::device, or the execution space's own)");
  detail::banded_static_checks<ExecutionSpace, ABView>();
  using Layout = band_layout_of_t<ABView>;
  using T = typename ABView::non_const_value_type;
  using result_type = banded_lu_factorization<T, Layout, ExecutionSpace>;
  using memory_space = typename result_type::memory_space;
  const std::string fn = "bandsolve::factorize(banded_lu)";
  detail::check_bandwidths(fn, alg, static_cast<index_t>(ab.extent(2)));
  const index_t n = static_cast<index_t>(ab.extent(1));
  detail::check_rows_fit_int(fn, static_cast<std::size_t>(n));
  const index_t slots = detail::band_slots<Layout>(ab);
  if (nsys == static_cast<std::size_t>(-1)) nsys = static_cast<std::size_t>(slots);
  const index_t ns = static_cast<index_t>(nsys);
  constexpr index_t user_width = detail::is_interleaved_band_v<Layout> ? detail::banded_pack_width<Layout, T>() : 1;
  if (((ns + user_width - 1) / user_width) * user_width != slots)
    detail::throw_invalid_argument(fn, "nsys = ", nsys, " does not match the ", slots,
                                   " system slots of ab (", Layout::name, " layout)");
  using band_view = typename result_type::band_view;
  using pivot_view = typename result_type::pivot_view;
  const index_t ldab = static_cast<index_t>(ab.extent(2));
  const auto make_lu = [&](auto... shape) {
    return detail::allocate_zeroed<band_view>(exec, "bandsolve::banded_lu lu", shape...);
  };
  const auto make_pivots = [&](auto... shape) {
    return detail::allocate_zeroed<pivot_view>(exec, "bandsolve::banded_lu pivots", shape...);
  };
  // Built where declared, never assigned into default-constructed Views (Kokkos/GCC 12).
  const std::size_t un = static_cast<std::size_t>(n), ul = static_cast<std::size_t>(ldab);
  const band_view lu = [&] {
    if constexpr (detail::is_interleaved_band_v<Layout>)
      return make_lu(ab.extent(0), un, ul);
    else if constexpr (std::is_same_v<Layout, layout::strided>)
      return make_lu(Kokkos::LayoutStride(nsys, un * ul, un, ul, ul, 1));
    else
      return make_lu(nsys, un, ul);
  }();
  const pivot_view piv = [&] {
    if constexpr (detail::is_interleaved_band_v<Layout>)
      return make_pivots(ab.extent(0), un);
    else if constexpr (std::is_same_v<Layout, layout::strided>)
      return make_pivots(Kokkos::LayoutStride(nsys, un, un, 1));
    else
      return make_pivots(nsys, un);
  }();
  const Kokkos::View<int*, memory_space> info(
      Kokkos::view_alloc(exec, std::string("bandsolve::banded_lu info")), nsys);
  constexpr bool device = std::is_same_v<Backend, backend::device>;
  static_assert(device || std::is_same_v<Backend, backend::default_for_t<ExecutionSpace>>,
                "bandsolve::factorize(banded_lu): a host backend runs only on its own "
                "execution space");
  auto f = detail::banded_factorization_access::make<result_type>(alg, lu, piv, info, ns, n,
                                                                  device);
  detail::banded_factor_into<Layout, T, device>(exec, alg, ab, lu, piv, info, ns, n);
  return f;
}

template <class ExecutionSpace, class ABView, class Backend,
          std::enable_if_t<backend::is_backend_v<Backend>, int> = 0>
auto factorize(const ExecutionSpace& exec, const algo::banded_lu& alg, const ABView& ab,
               Backend) {
  return factorize(exec, alg, ab, static_cast<std::size_t>(-1), Backend{});
}

template <class ExecutionSpace, class ABView>
auto factorize(const ExecutionSpace& exec, const algo::banded_lu& alg, const ABView& ab,
               std::size_t nsys = static_cast<std::size_t>(-1)) {
  return factorize(exec, alg, ab, nsys, backend::default_for_t<ExecutionSpace>{});
}

}  // namespace bandsolve
