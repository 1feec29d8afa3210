#pragma once
// Batched block-tridiagonal Thomas: host API.
//
//   bandsolve::solve(exec, bandsolve::algo::block_thomas{}, a, b, c, d, info);
//       Solves A_i x_{i-1} + B_i x_i + C_i x_{i+1} = d_i (blocks of m x m, m = 2..8) for every
//       system; x overwrites d, a, b and c are untouched. A_0 and C_{n-1} are ignored.
//       info(s) = 0, or the 1-based block row of the first singular diagonal block S_i of system
//       s (a zero, tiny or non-finite pivot in its LU factorization).
//   auto f = bandsolve::factorize(exec, bandsolve::algo::block_thomas{}, a, b, c);
//   f.solve(exec, d);      // any number of times; f.info() holds the factorization's codes
//   f.refactor(exec, a2, b2, c2);  // new matrices of the same shape, into f's own storage
//
// Views (block/block_layout.hpp): coefficients View<T****>(nsys, n, m, m) (row, column or any
// strided rank-4 View) or View<T****[W], LayoutRight>(ceil(nsys/W), n, m, m) (interleaved<W>),
// T float, double or Kokkos::complex of either; d of type T, or Kokkos::complex<T> for real T;
// d with one right-hand side per system (rank 3, or View<T***[W]>) or nrhs of them (rank 4, or
// View<T****[W]>). For interleaved packs the number of systems is info.extent(0) (solve) or the
// nsys argument (factorize); padding lanes are neither computed nor written.
// m is read from the Views at run time and dispatched to kernels compiled for m = 2..8.
// Work is enqueued on exec and never fenced here; fence before reading d or info on the host.
// algo::block_thomas{} does not pivot (block diagonally dominant systems);
// algo::block_thomas{algo::block_thomas::pivoting::partial} pivots by rows inside each diagonal
// block (not across block rows).
// Scratch of the one-shot solve (solve_scratch_bytes<T, W>(algo::block_thomas{}, n, m, nsys,
// threads) gives it exactly): n m^2 sizeof(T) bytes per system of a work item (an interleaved
// pack, or 64 bytes of systems; batches of fewer systems than that in rank-4 Views run one system
// per item), for at most min(items, threads) items at once (backend/host_simd/launch.hpp); one long
// system: n m^2 sizeof(T) + 128 bytes. An allocation failure throws bandsolve::allocation_error.
// Backends: the execution space's own (backend::default_for_t: serial, openmp_simd, device on
// Kokkos::Cuda), or a trailing backend::device{} argument to solve and factorize, which runs the
// device kernels (block_thomas_device.hpp, with its scratch and factor storage) on any execution
// space; factorize then returns a block_thomas_device_factorization.
#include <bandsolve/backend/host_simd/launch.hpp>
#include <bandsolve/backend/huge_pages.hpp>
#include <bandsolve/block/block_checks.hpp>
#include <bandsolve/block/block_layout.hpp>
#include <bandsolve/block/block_thomas_device.hpp>
#include <bandsolve/block/block_thomas_kernel.hpp>
#include <bandsolve/core/algo.hpp>
#include <bandsolve/core/checks.hpp>
#include <bandsolve/core/view_extents.hpp>

#include <string>
#include <type_traits>

namespace bandsolve {

namespace detail {

// Calls f(std::integral_constant<int, L>) with the systems per work item of a one-shot solve of
// nsys systems: block_lanes_v, or 1 when a batch of rank-4 Views has fewer systems than that, so
// that its scratch is that of the systems solved (interleaved packs are the user's already).
template <class T, int W, class F>
void with_block_lanes(index_t nsys, const F& f) {
  constexpr int L = block_lanes_v<T, W>;
  if constexpr (W > 0 || L == 1) {
    f(std::integral_constant<int, L>{});
  } else {
    if (nsys < L) f(std::integral_constant<int, 1>{});
    else f(std::integral_constant<int, L>{});
  }
}

// Scratch bytes of one work item of L systems of the one-shot solve: C* of every block row.
template <class T>
constexpr std::size_t block_thomas_item_scratch(index_t n, index_t m, int L) {
  return static_cast<std::size_t>(n) * static_cast<std::size_t>(m * m) *
         static_cast<std::size_t>(L) * sizeof(T);
}

template <int M, int L, class ExecutionSpace, class AView, class BView, class CView, class DView,
          class InfoView>
void block_thomas_solve_launch(const ExecutionSpace& exec, bool pivoting, const AView& a,
                               const BView& b, const CView& c, const DView& d,
                               const InfoView& info, index_t nsys, index_t n, index_t nrhs) {
  using T = typename BView::non_const_value_type;
  constexpr int W = block_pack_width_v<BView>;
  const index_t groups = (nsys + L - 1) / L;
  const std::size_t scratch = block_thomas_item_scratch<T>(n, M, L);
  for_each_pack(
      exec, "bandsolve::solve(block_thomas)", groups, scratch,
      KOKKOS_LAMBDA(const index_t p, void* work) {
        const int nl = static_cast<int>(nsys - p * L < L ? nsys - p * L : L);
        int info_l[static_cast<std::size_t>(L)] = {};
        block_thomas_solve_group<M, L, T>(
            n, nrhs, nl, pivoting, block_coefficient_group<L, const T>(a, p),
            block_coefficient_group<L, const T>(b, p), block_coefficient_group<L, const T>(c, p),
            block_rhs_group<L, (W > 0)>(d, p), static_cast<T*>(work), info_l);
        for (int l = 0; l < nl; ++l) info(p * L + l) = info_l[l];
      });
}

}  // namespace detail

// ---------------------------------------------------------------------------------------------
// One-shot solve.

template <class ExecutionSpace, class AView, class BView, class CView, class DView, class InfoView,
          class Backend = backend::default_for_t<ExecutionSpace>>
std::enable_if_t<backend::is_backend_v<Backend>> solve(const ExecutionSpace& exec,
                                                       algo::block_thomas algorithm,
                                                       const AView& a, const BView& b,
                                                       const CView& c, const DView& d,
                                                       const InfoView& info, Backend = {}) {
  detail::block_coefficient_static_checks<ExecutionSpace, BView, AView, CView>();
  using T = typename BView::non_const_value_type;
  constexpr int W = detail::block_pack_width_v<BView>;
  detail::block_rhs_static_checks<ExecutionSpace, W, T, DView>();
  static_assert(Kokkos::is_view<InfoView>::value && InfoView::rank == 1 &&
                    std::is_same_v<typename InfoView::value_type, int>,
                "bandsolve::solve(block_thomas): info must be a rank-1 Kokkos::View<int*>");
  static_assert(
      Kokkos::SpaceAccessibility<ExecutionSpace, typename InfoView::memory_space>::accessible,
      "bandsolve::solve(block_thomas): info must be accessible from the execution space");
  const std::string fn = "bandsolve::solve(block_thomas)";
  const std::size_t m = detail::block_check_coefficients(fn, a, b, c);
  detail::block_check_rhs(fn, b, d);
  detail::check_no_overlap(fn, "d", d, "a", a);
  detail::check_no_overlap(fn, "d", d, "b", b);
  detail::check_no_overlap(fn, "d", d, "c", c);
  detail::check_no_overlap(fn, "d", d, "info", info);
  const auto nsys =
      static_cast<index_t>(detail::block_systems(fn, "info.extent(0)", info.extent(0), b));
  const auto n = static_cast<index_t>(b.extent(1));
  const index_t nrhs = detail::block_nrhs<(W > 0)>(d);
  if (nsys == 0) return;
  if (n == 0) {
    Kokkos::deep_copy(exec, info, 0);
    return;
  }
  const bool pivoting = algorithm.pivot == algo::block_thomas::pivoting::partial;
  if constexpr (std::is_same_v<Backend, backend::device>) {
    detail::block_size_dispatch(fn, m, [&](auto block_size) {
      detail::block_thomas_device_solve<decltype(block_size)::value, (W > 0)>(
          exec, pivoting, a, b, c, d, info, nsys, n, nrhs);
    });
  } else {
    static_assert(std::is_same_v<Backend, backend::default_for_t<ExecutionSpace>>,
                  "bandsolve::solve(block_thomas): a host backend runs only on its own execution "
                  "space");
    detail::block_size_dispatch(fn, m, [&](auto block_size) {
      detail::with_block_lanes<T, W>(nsys, [&](auto lanes) {
        detail::block_thomas_solve_launch<decltype(block_size)::value, decltype(lanes)::value>(
            exec, pivoting, a, b, c, d, info, nsys, n, nrhs);
      });
    });
  }
}

// Scratch bytes the one-shot solve of nsys systems of n block rows of m x m blocks holds on
// `concurrency` threads, for rank-4 Views (W = 0) or interleaved<W> ones; see the bound in this
// header's top comment.
template <class T, int W = 0>
std::size_t solve_scratch_bytes(algo::block_thomas, std::size_t n, std::size_t m,
                                std::size_t nsys, int concurrency) {
  std::size_t bytes = 0;
  if (n == 0 || nsys == 0) return 0;
  const index_t ns = static_cast<index_t>(nsys);
  detail::with_block_lanes<T, W>(ns, [&](auto lanes) {
    constexpr int L = decltype(lanes)::value;
    bytes = detail::pack_scratch_bytes(
        (ns + L - 1) / L,
        detail::block_thomas_item_scratch<T>(static_cast<index_t>(n), static_cast<index_t>(m), L),
        concurrency);
  });
  return bytes;
}

// ---------------------------------------------------------------------------------------------
// Factorization reused across right-hand sides.

template <class Scalar, int PackWidth, class ExecutionSpace>
class block_thomas_factorization;

namespace detail {
// Lets factorize() fill a factorization without making its members public.
struct block_thomas_factorization_access {
  template <class F, class FactorView, class InfoView>
  static F make(FactorView factors, InfoView info, index_t nsys, index_t n, index_t m,
                bool pivoting) {
    return F(factors, info, nsys, n, m, pivoting);
  }
};

template <int M, bool Packed, class ExecutionSpace, class FactorView, class DView>
void block_thomas_factored_solve_launch(const ExecutionSpace& exec, bool pivoting,
                                        const FactorView& f, const DView& d, index_t nsys,
                                        index_t n, index_t nrhs) {
  using T = typename FactorView::non_const_value_type;
  constexpr int L = static_cast<int>(FactorView::static_extent(2));
  const index_t groups = (nsys + L - 1) / L;
  for_each_pack(
      exec, "bandsolve::block_thomas_factorization::solve", groups, 0,
      KOKKOS_LAMBDA(const index_t p, void*) {
        const int nl = static_cast<int>(nsys - p * L < L ? nsys - p * L : L);
        block_thomas_factored_solve_group<M, L, T>(n, nrhs, nl, pivoting, &f(p, 0, 0),
                                                   block_rhs_group<L, Packed>(d, p));
      });
}

template <int M, class ExecutionSpace, class AView, class BView, class CView, class FactorView,
          class InfoView>
void block_thomas_factor_launch(const ExecutionSpace& exec, bool pivoting, const AView& a,
                                const BView& b, const CView& c, const FactorView& f,
                                const InfoView& info, index_t nsys, index_t n) {
  using T = typename FactorView::value_type;
  constexpr int L = static_cast<int>(FactorView::static_extent(2));
  constexpr auto lane_count = static_cast<std::size_t>(L);  // an array bound
  const index_t groups = (nsys + L - 1) / L;
  for_each_pack(
      exec, "bandsolve::factorize(block_thomas)", groups, 0,
      KOKKOS_LAMBDA(const index_t p, void*) {
        const int nl = static_cast<int>(nsys - p * L < L ? nsys - p * L : L);
        int info_l[lane_count] = {};
        block_thomas_factor_group<M, L, T>(n, nl, pivoting,
                                           block_coefficient_group<L, const T>(a, p),
                                           block_coefficient_group<L, const T>(b, p),
                                           block_coefficient_group<L, const T>(c, p),
                                           &f(p, 0, 0), info_l);
        for (int l = 0; l < nl; ++l) info(p * L + l) = info_l[l];
      });
}

// Factors (a, b, c) into the given factor and info Views (factorize's fresh ones, or refactor's
// stored ones): the one kernel both run, chosen by the block size.
template <class ExecutionSpace, class AView, class BView, class CView, class FactorView,
          class InfoView>
void block_thomas_factor_into(const std::string& fn, const ExecutionSpace& exec, bool pivoting,
                              const AView& a, const BView& b, const CView& c,
                              const FactorView& factors, const InfoView& info, index_t ns,
                              index_t n, index_t m) {
  if (ns == 0 || n == 0) return;
  block_size_dispatch(fn, static_cast<std::size_t>(m), [&](auto block_size) {
    block_thomas_factor_launch<decltype(block_size)::value>(exec, pivoting, a, b, c, factors,
                                                            info, ns, n);
  });
}
}  // namespace detail

// The factors of a batch of block-tridiagonal matrices, in groups of `lanes` systems whatever the
// input layout, so a solve streams them: per block row A_i, the LU factors of S_i (with their
// interchanges) and C*_i. PackWidth is the W of interleaved<W> input, 0 for rank-4 Views; solve
// takes right-hand sides of the same kind.
template <class Scalar, int PackWidth, class ExecutionSpace>
class block_thomas_factorization {
 public:
  using scalar_type = Scalar;
  using execution_space = ExecutionSpace;
  using memory_space = typename ExecutionSpace::memory_space;
  static constexpr int pack_width = PackWidth;
  static constexpr int lanes = detail::block_lanes_v<Scalar, PackWidth>;
  using factor_view =
      Kokkos::View<Scalar**[static_cast<std::size_t>(lanes)], Kokkos::LayoutRight, memory_space>;

  block_thomas_factorization() = default;

  std::size_t nsys() const { return static_cast<std::size_t>(nsys_); }
  std::size_t n() const { return static_cast<std::size_t>(n_); }
  std::size_t m() const { return static_cast<std::size_t>(m_); }
  bool pivoting() const { return pivoting_; }
  // Per-system info codes of the factorization (0 = ok, i > 0 = singular block at block row i).
  Kokkos::View<const int*, memory_space> info() const { return info_; }

  // Solves for the right-hand sides in d (one or nrhs per system, same layout kind, systems,
  // block rows and block size as the factored matrices), in place. Enqueued on exec, not fenced.
  // Systems whose info is not 0 get inf/NaN.
  template <class DView>
  void solve(const ExecutionSpace& exec, const DView& d) const {
    detail::block_rhs_static_checks<ExecutionSpace, PackWidth, Scalar, DView>();
    const std::string fn = "bandsolve::block_thomas_factorization::solve";
    if (!initialized_)
      detail::throw_invalid_argument(fn, "this factorization is empty (default-constructed)");
    const index_t slots = slot_count();
    const index_t expected[3] = {slots, n_, m_};
    const char* what[3] = {PackWidth > 0 ? " packs" : " systems", " block rows",
                           " rows per block"};
    for (int k = 0; k < 3; ++k)
      if (static_cast<index_t>(detail::extent_at(d, k)) != expected[k])
        detail::throw_invalid_argument(fn, "d.extent(", k, ") = ", detail::extent_at(d, k),
                                       " but the factorization has ", expected[k], what[k]);
    const index_t nrhs = detail::block_nrhs<(PackWidth > 0)>(d);
    if (nsys_ == 0 || n_ == 0 || nrhs == 0) return;
    detail::block_size_dispatch(fn, static_cast<std::size_t>(m_), [&](auto block_size) {
      detail::block_thomas_factored_solve_launch<decltype(block_size)::value, (PackWidth > 0)>(
          exec, pivoting_, factors_, d, nsys_, n_, nrhs);
    });
  }

  // Factors new matrices of the same shape (layout kind, systems, block rows and block size) as
  // the factored ones into this factorization's own storage, with its pivoting: no allocation.
  // Same factors and info as a fresh factorize; copies share the storage and see them. Enqueued
  // on exec, not fenced.
  template <class AView, class BView, class CView>
  void refactor(const ExecutionSpace& exec, const AView& a, const BView& b, const CView& c) {
    detail::block_coefficient_static_checks<ExecutionSpace, BView, AView, CView>();
    static_assert(std::is_same_v<typename BView::non_const_value_type, Scalar> &&
                      detail::block_pack_width_v<BView> == PackWidth,
                  "bandsolve::block_thomas_factorization::refactor: the matrices must have the "
                  "factored scalar type and layout kind");
    const std::string fn = "bandsolve::block_thomas_factorization::refactor";
    const index_t slots = slot_count();
    detail::block_check_refactor(fn, initialized_, a, b, c, static_cast<std::size_t>(slots), n(),
                                 m());
    detail::block_thomas_factor_into(fn, exec, pivoting_, a, b, c, factors_, info_, nsys_, n_,
                                     m_);
  }

 private:
  friend struct detail::block_thomas_factorization_access;

  // The systems the factors hold, or their packs of PackWidth for interleaved packs.
  index_t slot_count() const {
    if constexpr (PackWidth > 0)
      return (nsys_ + PackWidth - 1) / PackWidth;
    else
      return nsys_;
  }

  // Members are built here, never assigned into default-constructed Views (Kokkos/GCC 12).
  block_thomas_factorization(const factor_view& factors,
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
// The host backends' factorization (arguments checked).
template <class T, int W, class ExecutionSpace, class AView, class BView, class CView>
auto block_thomas_host_factorize(const ExecutionSpace& exec, bool pivoting, const AView& a,
                                 const BView& b, const CView& c, index_t ns, index_t n,
                                 index_t mi) {
  using result_type = block_thomas_factorization<T, W, ExecutionSpace>;
  constexpr int L = result_type::lanes;
  const std::size_t nsys = static_cast<std::size_t>(ns);
  const std::string fn = "bandsolve::factorize(block_thomas)";
  const index_t groups = (ns + L - 1) / L;
  const auto factors = allocate_zeroed<typename result_type::factor_view>(
      exec, "bandsolve::block_thomas factors", static_cast<std::size_t>(groups),
      static_cast<std::size_t>(n * (3 * mi * mi + mi)));
  const Kokkos::View<int*, typename result_type::memory_space> info(
      Kokkos::view_alloc(exec, std::string("bandsolve::block_thomas info")), nsys);
  auto f = block_thomas_factorization_access::make<result_type>(factors, info, ns, n, mi,
                                                                pivoting);
  block_thomas_factor_into(fn, exec, pivoting, a, b, c, factors, info, ns, n, mi);
  return f;
}
}  // namespace detail

// Factorizes the matrices (a, b, c); nsys defaults to every slot of the Views (for interleaved
// packs, give the real number of systems to leave padding lanes out). Allocates the factors
// (3m^2 + m values per block row and system); enqueued on exec, not fenced. Backend as for
// solve: on the device backend the result is a block_thomas_device_factorization.
template <class ExecutionSpace, class AView, class BView, class CView, class Backend>
auto factorize(const ExecutionSpace& exec, algo::block_thomas algorithm, const AView& a,
               const BView& b, const CView& c, std::size_t nsys, Backend) {
  static_assert(backend::is_backend_v<Backend>,
                "bandsolve::factorize(block_thomas): the last argument must be a backend tag "
                "(backend::device, or the execution space's own)");
  detail::block_coefficient_static_checks<ExecutionSpace, BView, AView, CView>();
  using T = typename BView::non_const_value_type;
  constexpr int W = detail::block_pack_width_v<BView>;
  const std::string fn = "bandsolve::factorize(block_thomas)";
  const std::size_t m = detail::block_check_coefficients(fn, a, b, c);
  if (nsys == static_cast<std::size_t>(-1)) nsys = W > 0 ? b.extent(0) * W : b.extent(0);
  detail::block_systems(fn, "nsys", nsys, b);
  const auto ns = static_cast<index_t>(nsys), n = static_cast<index_t>(b.extent(1));
  const auto mi = static_cast<index_t>(m);
  const bool pivoting = algorithm.pivot == algo::block_thomas::pivoting::partial;
  if constexpr (std::is_same_v<Backend, backend::device>) {
    return detail::block_thomas_device_factorize(exec, pivoting, a, b, c, ns, n, mi);
  } else {
    static_assert(std::is_same_v<Backend, backend::default_for_t<ExecutionSpace>>,
                  "bandsolve::factorize(block_thomas): a host backend runs only on its own "
                  "execution space");
    return detail::block_thomas_host_factorize<T, W>(exec, pivoting, a, b, c, ns, n, mi);
  }
}

template <class ExecutionSpace, class AView, class BView, class CView, class Backend,
          std::enable_if_t<backend::is_backend_v<Backend>, int> = 0>
auto factorize(const ExecutionSpace& exec, algo::block_thomas algorithm, const AView& a,
               const BView& b, const CView& c, Backend backend_tag) {
  return factorize(exec, algorithm, a, b, c, static_cast<std::size_t>(-1), backend_tag);
}

template <class ExecutionSpace, class AView, class BView, class CView>
auto factorize(const ExecutionSpace& exec, algo::block_thomas algorithm, const AView& a,
               const BView& b, const CView& c, std::size_t nsys = static_cast<std::size_t>(-1)) {
  return factorize(exec, algorithm, a, b, c, nsys, backend::default_for_t<ExecutionSpace>{});
}


}  // namespace bandsolve
