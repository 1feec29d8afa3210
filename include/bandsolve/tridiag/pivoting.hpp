#pragma once
// Batched tridiagonal solver with partial pivoting (the semantics of LAPACK ?gtsv, ?gttrf and
// ?gttrs): host API.
//
//   bandsolve::solve(exec, bandsolve::algo::partial_pivoting{}, a, b, c, d, info);
//       Solves a[i] x[i-1] + b[i] x[i] + c[i] x[i+1] = d[i] for every system of the batch with
//       row interchanges; x overwrites d; a, b and c are untouched; a[0] and c[n-1] are ignored.
//   auto f = bandsolve::factorize(exec, bandsolve::algo::partial_pivoting{}, a, b, c, nsys);
//   f.solve(exec, d);      // any number of times; f.info() holds the factorization's codes
//   f.ipiv()               // LAPACK's ipiv of every system, on the host
//   f.refactor(exec, a2, b2, c2);  // new matrices of the same shape, into f's storage
//   bandsolve::solve_along(exec, bandsolve::algo::partial_pivoting{}, axis, a, b, c, d, info);
//       Every line of a 2-4 D array along `axis` (pivoting_axis.hpp).
//
// info(s) = 0, or i > 0 for the first U(i, i) (1-based) that is zero, tiny (its reciprocal
// overflows) or not finite: the matrix is singular, or NaN or Inf in a, b or c reached a pivot
// (the contract of every family; LAPACK reports exact zeros only). The solution of that system
// is then not meaningful. Small but normal pivots are not an error: elimination with partial
// pivoting is backward stable for every nonsingular matrix.
// Pivots are chosen as in LAPACK: an interchange when |a[i+1]| > |pivot candidate|, comparing
// |re| + |im| for complex values.
//
// a, b, c, d: Kokkos::Views in one layout (row, column, interleaved<W>, strided; see layout/)
// of float, double, Kokkos::complex<float> or Kokkos::complex<double>. Over real coefficients of
// type R, d may be Kokkos::complex<R> (one-shot solve and factorization's solve alike): the
// interchanges and info are those of the real matrix, and the real and imaginary parts of x
// are the solutions for the real and imaginary parts of d. For interleaved packs the number of
// systems is info.extent(0) (solve) or nsys (factorize).
// Work is enqueued on exec and never fenced here; fence before reading d or info on the host.
// The one-shot solve uses 3*n coefficient values and n right-hand side values of scratch per
// system of a work item (cache-resident for moderate n; items of 128 bytes of lanes, and
// batches smaller than that, outside interleaved packs, run one system per item), for at most
// min(items, threads) items at once (backend/host_simd/launch.hpp, pack_scratch_bytes); one long system:
// n (3 sizeof(T) + sizeof(D)) bytes. Large scratch is allocated per call and a failure throws
// bandsolve::allocation_error naming the function and the size.
//
// Backends: the execution space's own (backend::default_for_t: serial, openmp_simd, device on
// Kokkos::Cuda), or a trailing backend::device{} argument to solve and factorize, which runs the
// device kernels (pivoting_device.hpp, with its scratch and factor storage) on any execution
// space; factorize then returns a pivoting_device_factorization.
#include <bandsolve/backend/host_simd/block_launch.hpp>
#include <bandsolve/backend/host_simd/launch.hpp>
#include <bandsolve/backend/huge_pages.hpp>
#include <bandsolve/core/algo.hpp>
#include <bandsolve/tridiag/batch_checks.hpp>
#include <bandsolve/tridiag/pivoting_axis.hpp>
#include <bandsolve/tridiag/pivoting_device.hpp>
#include <bandsolve/tridiag/pivoting_kernel.hpp>

#include <cstdint>
#include <string>
#include <type_traits>

namespace bandsolve {

template <class ExecutionSpace, class AView, class BView, class CView, class DView, class InfoView,
          class Backend>
std::enable_if_t<backend::is_backend_v<Backend>> solve(const ExecutionSpace& exec,
                                                       algo::partial_pivoting, const AView& a,
                                                       const BView& b, const CView& c,
                                                       const DView& d, const InfoView& info,
                                                       Backend) {
  detail::one_shot_static_checks<algo::partial_pivoting, ExecutionSpace, AView, BView, CView,
                                 DView, InfoView>();
  using Layout = layout_of_t<DView>;
  using T = typename BView::non_const_value_type;  // coefficients
  using D = typename DView::non_const_value_type;  // right-hand sides: T or complex over real T
  const std::string fn = "bandsolve::solve(partial_pivoting)";
  const index_t nsys =
      static_cast<index_t>(detail::check_one_shot<Layout>(fn, a, b, c, d, info));
  const index_t n = static_cast<index_t>(rows(d)), slots = static_cast<index_t>(capacity(d));
  if (nsys == 0) return;
  if (n == 0) {
    Kokkos::deep_copy(exec, info, 0);
    return;
  }
  if constexpr (std::is_same_v<Backend, backend::device>) {
    detail::pivoting_device_solve(exec, a, b, c, d, info, n, nsys);
  } else {
    static_assert(std::is_same_v<Backend, backend::default_for_t<ExecutionSpace>>,
                  "bandsolve::solve(partial_pivoting): a host backend runs only on its own "
                  "execution space");
    detail::with_lane_packing<Layout, T>(nsys, [&](auto packing) {
      using P = decltype(packing);
      detail::one_shot_block_launch<P, T, D>(exec, "bandsolve::solve(partial_pivoting)",
                                             detail::pivoting_scratch_bytes<T, D>(n, P::L),
                                             detail::pivoting_block_kernel{}, a, b, c, d, info, n,
                                             nsys, slots);
    });
  }
}

template <class ExecutionSpace, class AView, class BView, class CView, class DView, class InfoView>
void solve(const ExecutionSpace& exec, algo::partial_pivoting, const AView& a, const BView& b,
           const CView& c, const DView& d, const InfoView& info) {
  solve(exec, algo::partial_pivoting{}, a, b, c, d, info,
        backend::default_for_t<ExecutionSpace>{});
}

namespace detail {
struct pivoting_factorization_access;
}

// The LU factors with row interchanges of a batch of tridiagonal matrices, stored in blocks of L
// systems (whatever the input layout) so that a solve streams them: 1/U(i,i), U(i,i+1),
// U(i,i+2), the multipliers and one interchange flag per row.
template <class Scalar, class Layout, class ExecutionSpace>
class pivoting_factorization {
 public:
  using scalar_type = Scalar;
  using layout_type = Layout;
  using execution_space = ExecutionSpace;
  using memory_space = typename ExecutionSpace::memory_space;
  static constexpr int block_width = detail::lane_packing<Layout, Scalar>::L;
  using factor_view = Kokkos::View<Scalar**[static_cast<std::size_t>(block_width)],
                                   Kokkos::LayoutRight, memory_space>;
  using flag_view = Kokkos::View<std::uint8_t**[static_cast<std::size_t>(block_width)],
                                 Kokkos::LayoutRight, memory_space>;

  pivoting_factorization() = default;

  std::size_t nsys() const { return static_cast<std::size_t>(nsys_); }
  std::size_t n() const { return static_cast<std::size_t>(n_); }
  // Per-system info codes (0, or the 1-based row of the first exactly zero U(i, i)).
  Kokkos::View<const int*, memory_space> info() const { return info_; }

  // LAPACK's ipiv (1-based) of every system: ipiv(s, i) = i+1 (no interchange at step i) or i+2
  // (rows i and i+1 interchanged); ipiv(s, n-1) = n. Copies to the host, so it waits for exec.
  Kokkos::View<int**, Kokkos::LayoutRight, Kokkos::HostSpace> ipiv() const {
    Kokkos::View<int**, Kokkos::LayoutRight, Kokkos::HostSpace> out(
        "bandsolve ipiv", static_cast<std::size_t>(nsys_), static_cast<std::size_t>(n_));
    auto flags = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), swapped_);
    for (index_t s = 0; s < nsys_; ++s)
      for (index_t i = 0; i < n_; ++i)
        out(s, i) = static_cast<int>(i + 1) +
                    (flags(s / block_width, i, s % block_width) != 0 ? 1 : 0);
    return out;
  }

  // Factors new matrices of the shape that was factored (the same rows and systems, Views of
  // Layout and Scalar) into this factorization's blocks: no allocation, no fresh pages. Same
  // factors, interchanges and info codes as factorize; enqueued on exec, not fenced. Copies of a
  // factorization share its storage and see the new factors.
  template <class AView, class BView, class CView>
  void refactor(const ExecutionSpace& exec, const AView& a, const BView& b, const CView& c);

  // Solves for the right-hand sides in d (same layout and shape as the factored matrices), in
  // place. d holds Scalar, or Kokkos::complex<Scalar> when Scalar is real. Enqueued on exec, not
  // fenced. Systems whose info is not 0 get inf/NaN.
  template <class DView>
  void solve(const ExecutionSpace& exec, const DView& d) const {
    detail::factored_solve_static_checks<algo::partial_pivoting, ExecutionSpace, Layout, Scalar,
                                         DView>();
    using D = typename DView::value_type;
    const std::string fn = "bandsolve::pivoting_factorization::solve";
    detail::check_factored_solve<Layout>(fn, initialized_, d, n_, nsys_);
    if (nsys_ == 0 || n_ == 0) return;
    using P = detail::lane_packing<Layout, Scalar>;
    constexpr int L = P::L;
    const index_t n = n_, slots = static_cast<index_t>(capacity(d));
    const factor_view r = r_, u1 = u1_, u2 = u2_, lm = lm_;
    const flag_view sw = swapped_;
    detail::for_each_pack(
        exec, "bandsolve::pivoting_factorization::solve", static_cast<index_t>(r.extent(0)),
        static_cast<std::size_t>(n) * L * sizeof(D),
        KOKKOS_LAMBDA(const index_t p, void* work) {
          const detail::pivoted_u<const Scalar> u{&r(p, 0, 0), &u1(p, 0, 0), &u2(p, 0, 0)};
          detail::pivoting_factored_solve_block<P::L, P::WG, Scalar, D>(
              n, u, &lm(p, 0, 0), &sw(p, 0, 0), detail::block_of<P, D>(d, p, slots),
              static_cast<D*>(work));
        });
  }

 private:
  friend struct detail::pivoting_factorization_access;

  // Members are built here, never assigned into default-constructed Views (Kokkos/GCC 12).
  pivoting_factorization(const factor_view& r, const factor_view& u1, const factor_view& u2,
                         const factor_view& lm, const flag_view& swapped,
                         const Kokkos::View<int*, memory_space>& info, index_t nsys, index_t n)
      : r_(r), u1_(u1), u2_(u2), lm_(lm), swapped_(swapped), info_(info), nsys_(nsys), n_(n),
        initialized_(true) {}

  factor_view r_, u1_, u2_, lm_;
  flag_view swapped_;
  Kokkos::View<int*, memory_space> info_;
  index_t nsys_ = 0, n_ = 0;
  bool initialized_ = false;
};

namespace detail {
// Lets factorize() fill a factorization without making its members public.
struct pivoting_factorization_access {
  template <class F>
  static F make(index_t nsys, index_t n, const typename F::execution_space& exec) {
    using fv = typename F::factor_view;
    const index_t blocks = (nsys + F::block_width - 1) / F::block_width;
    const auto nb = static_cast<std::size_t>(blocks), nr = static_cast<std::size_t>(n);
    auto alloc = [&](const char* label) { return Kokkos::view_alloc(exec, std::string(label)); };
    auto factor = [&](const char* label) { return allocate_zeroed<fv>(exec, label, nb, nr); };
    return F(factor("bandsolve::partial_pivoting 1/U(i,i)"),
             factor("bandsolve::partial_pivoting U(i,i+1)"),
             factor("bandsolve::partial_pivoting U(i,i+2)"),
             factor("bandsolve::partial_pivoting multipliers"),
             allocate_zeroed<typename F::flag_view>(
                 exec, "bandsolve::partial_pivoting interchanges", nb, nr),
             Kokkos::View<int*, typename F::memory_space>(
                 alloc("bandsolve::partial_pivoting info"), static_cast<std::size_t>(nsys)),
             nsys, n);
  }
  template <class F>
  static auto views(const F& f) {
    struct {
      typename F::factor_view r, u1, u2, lm;
      typename F::flag_view swapped;
      Kokkos::View<int*, typename F::memory_space> info;
    } v{f.r_, f.u1_, f.u2_, f.lm_, f.swapped_, f.info_};
    return v;
  }
};

// factorize(partial_pivoting)'s kernel. A function of its own because nvcc does not allow an
// extended (KOKKOS_LAMBDA) lambda inside a function with a deduced return type such as factorize.
// factorize's and refactor's work: the factors of (a, b, c), ns systems of n rows (arguments
// checked), into the blocks r, u1, u2, lm, sw and info. Enqueued on exec.
template <class P, class T, class ExecutionSpace, class AView, class BView, class CView,
          class FactorView, class FlagView, class InfoView>
void pivoting_factor_kernel(const ExecutionSpace& exec, const AView& a, const BView& b,
                            const CView& c, index_t n, index_t ns, const FactorView& r,
                            const FactorView& u1, const FactorView& u2, const FactorView& lm,
                            const FlagView& sw, const InfoView& info) {
  if (ns == 0 || n == 0) return;
  const index_t slots = static_cast<index_t>(capacity(b));
  constexpr int L = P::L;
  constexpr auto lane_count = static_cast<std::size_t>(L);  // an array bound
  detail::for_each_pack(
      exec, "bandsolve::factorize(partial_pivoting)", static_cast<index_t>(r.extent(0)), 0,
      KOKKOS_LAMBDA(const index_t p, void*) {
        int info_l[lane_count];
        const detail::pivoted_u<T> u{&r(p, 0, 0), &u1(p, 0, 0), &u2(p, 0, 0)};
        detail::pivoting_factor_block(n, detail::block_of<P, const T>(a, p, slots),
                                      detail::block_of<P, const T>(b, p, slots),
                                      detail::block_of<P, const T>(c, p, slots), u, &lm(p, 0, 0),
                                      &sw(p, 0, 0), info_l);
        const index_t real = ns - p * L < L ? ns - p * L : L;
        for (index_t l = 0; l < real; ++l) info(p * L + l) = info_l[l];
      });
}
}  // namespace detail

template <class Scalar, class Layout, class ExecutionSpace>
template <class AView, class BView, class CView>
void pivoting_factorization<Scalar, Layout, ExecutionSpace>::refactor(const ExecutionSpace& exec,
                                                                      const AView& a,
                                                                      const BView& b,
                                                                      const CView& c) {
  detail::check_refactor<algo::partial_pivoting, ExecutionSpace, Layout, Scalar>(
      "bandsolve::pivoting_factorization::refactor", initialized_, a, b, c, n_, nsys_);
  detail::pivoting_factor_kernel<detail::lane_packing<Layout, Scalar>, Scalar>(
      exec, a, b, c, n_, nsys_, r_, u1_, u2_, lm_, swapped_, info_);
}

// Factorizes the matrices (a, b, c) of nsys systems; nsys defaults to every slot of the Views
// (for interleaved packs, give the real number of systems to leave padding lanes out of info).
// Allocates the factors; enqueued on exec, not fenced. Backend as for solve: on the device
// backend the result is a pivoting_device_factorization (pivoting_device.hpp).
template <class ExecutionSpace, class AView, class BView, class CView, class Backend>
auto factorize(const ExecutionSpace& exec, algo::partial_pivoting, const AView& a, const BView& b,
               const CView& c, std::size_t nsys, Backend) {
  static_assert(backend::is_backend_v<Backend>,
                "bandsolve::factorize(partial_pivoting): the last argument must be a backend tag "
                "(backend::device, or the execution space's own)");
  detail::tridiag_static_checks<algo::partial_pivoting, ExecutionSpace, BView, AView, BView,
                                CView>();
  using Layout = layout_of_t<BView>;
  using T = typename BView::non_const_value_type;
  using F = pivoting_factorization<T, Layout, ExecutionSpace>;
  using P = detail::lane_packing<Layout, T>;
  const std::string fn = "bandsolve::factorize(partial_pivoting)";
  detail::check_same_shape(fn, "a", a, "b", b);
  detail::check_same_shape(fn, "c", c, "b", b);
  detail::check_rows_fit_int(fn, rows(b));
  nsys = detail::check_factor_nsys<Layout>(fn, b, nsys);
  if constexpr (std::is_same_v<Backend, backend::device>) {
    return detail::pivoting_device_factorize(exec, a, b, c, static_cast<index_t>(nsys));
  } else {
    static_assert(std::is_same_v<Backend, backend::default_for_t<ExecutionSpace>>,
                  "bandsolve::factorize(partial_pivoting): a host backend runs only on its own "
                  "execution space");
    const index_t n = static_cast<index_t>(rows(b)), ns = static_cast<index_t>(nsys);
    F f = detail::pivoting_factorization_access::make<F>(ns, n, exec);
    const auto v = detail::pivoting_factorization_access::views(f);
    detail::pivoting_factor_kernel<P, T>(exec, a, b, c, n, ns, v.r, v.u1, v.u2, v.lm, v.swapped,
                                         v.info);
    return f;
  }
}

template <class ExecutionSpace, class AView, class BView, class CView, class Backend,
          std::enable_if_t<backend::is_backend_v<Backend>, int> = 0>
auto factorize(const ExecutionSpace& exec, algo::partial_pivoting, const AView& a, const BView& b,
               const CView& c, Backend) {
  return factorize(exec, algo::partial_pivoting{}, a, b, c, static_cast<std::size_t>(-1),
                   Backend{});
}

template <class ExecutionSpace, class AView, class BView, class CView>
auto factorize(const ExecutionSpace& exec, algo::partial_pivoting, const AView& a, const BView& b,
               const CView& c, std::size_t nsys = static_cast<std::size_t>(-1)) {
  return factorize(exec, algo::partial_pivoting{}, a, b, c, nsys,
                   backend::default_for_t<ExecutionSpace>{});
}

}  // namespace bandsolve
