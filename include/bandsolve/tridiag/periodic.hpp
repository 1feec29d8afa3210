#pragma once
// Batched periodic (cyclic) tridiagonal solver: host API.
//
//   bandsolve::solve(exec, bandsolve::algo::periodic{}, a, b, c, d, info);
//       Solves a[i] x[i-1] + b[i] x[i] + c[i] x[i+1] = d[i] with indices taken modulo n: a[0]
//       multiplies x[n-1] and c[n-1] multiplies x[0]. x overwrites d; a, b, c are untouched.
//   auto f = bandsolve::factorize(exec, bandsolve::algo::periodic{}, a, b, c, nsys);
//   f.solve(exec, d);      // any number of times; f.info() holds the factorization's codes
//   f.refactor(exec, a2, b2, c2);  // new matrices of the same shape, into f's storage
//   bandsolve::solve_along(exec, bandsolve::algo::periodic{}, axis, a, b, c, d, info);
//       Every line of a 2-4 D array along `axis` (periodic_axis.hpp).
//
// Method (see periodic_kernel.hpp): Thomas on the leading n-1 rows for two right-hand sides and
// a bordering (Schur complement) correction for x[n-1]; no pivoting, so for matrices whose
// leading blocks are safe for Thomas (diagonally dominant, symmetric positive definite).
// n = 1: (a[0] + b[0] + c[0]) x[0] = d[0]. n = 2: coefficients meeting in one position add,
// row 0 = b[0] x[0] + (a[0] + c[0]) x[1], row 1 = (a[1] + c[1]) x[0] + b[1] x[1].
// info(s) = 0, or the 1-based row of the first zero, tiny or non-finite pivot (n: the
// Schur complement, i.e. A singular or nearly so while its leading block is not).
//
// a, b, c, d: Kokkos::Views in one layout (row, column, interleaved<W>, strided) of float,
// double, Kokkos::complex<float> or Kokkos::complex<double>. Over real coefficients of type R, d
// may be Kokkos::complex<R> (one-shot solve and factorization's solve alike): pivots and info are
// those of the real matrix, and the real and imaginary parts of x solve for those of d.
// Work is enqueued on exec and never fenced here. The one-shot solve uses 2*n coefficient values
// and n right-hand side values of scratch per system of a work item (items of 128 bytes of
// lanes; batches smaller than that, outside interleaved packs, run one system per item), for at
// most min(items, threads) items at once (backend/host_simd/launch.hpp, pack_scratch_bytes); one long
// system: n (2 sizeof(T) + sizeof(D)) bytes. Large scratch is allocated per call and a failure
// throws bandsolve::allocation_error.
//
// Backends: the execution space's own (backend::default_for_t: serial, openmp_simd, device on
// Kokkos::Cuda), or a trailing backend::device{} argument to solve and factorize, which runs the
// device kernels (periodic_device.hpp, with its scratch and factor storage) on any execution
// space; factorize then returns a periodic_device_factorization.
#include <bandsolve/backend/host_simd/block_launch.hpp>
#include <bandsolve/backend/host_simd/launch.hpp>
#include <bandsolve/backend/huge_pages.hpp>
#include <bandsolve/core/algo.hpp>
#include <bandsolve/tridiag/batch_checks.hpp>
#include <bandsolve/tridiag/periodic_axis.hpp>
#include <bandsolve/tridiag/periodic_device.hpp>
#include <bandsolve/tridiag/periodic_kernel.hpp>

#include <string>
#include <type_traits>

namespace bandsolve {

template <class ExecutionSpace, class AView, class BView, class CView, class DView, class InfoView,
          class Backend>
std::enable_if_t<backend::is_backend_v<Backend>> solve(const ExecutionSpace& exec, algo::periodic,
                                                       const AView& a, const BView& b,
                                                       const CView& c, const DView& d,
                                                       const InfoView& info, Backend) {
  detail::one_shot_static_checks<algo::periodic, ExecutionSpace, AView, BView, CView, DView,
                                 InfoView>();
  using Layout = layout_of_t<DView>;
  using T = typename BView::non_const_value_type;  // coefficients
  using D = typename DView::non_const_value_type;  // right-hand sides: T or complex over real T
  const std::string fn = "bandsolve::solve(periodic)";
  const index_t nsys =
      static_cast<index_t>(detail::check_one_shot<Layout>(fn, a, b, c, d, info));
  const index_t n = static_cast<index_t>(rows(d)), slots = static_cast<index_t>(capacity(d));
  if (nsys == 0) return;
  if (n == 0) {
    Kokkos::deep_copy(exec, info, 0);
    return;
  }
  if constexpr (std::is_same_v<Backend, backend::device>) {
    detail::periodic_device_solve(exec, a, b, c, d, info, n, nsys);
  } else {
    static_assert(std::is_same_v<Backend, backend::default_for_t<ExecutionSpace>>,
                  "bandsolve::solve(periodic): a host backend runs only on its own execution "
                  "space");
    detail::with_lane_packing<Layout, T>(nsys, [&](auto packing) {
      using P = decltype(packing);
      detail::one_shot_block_launch<P, T, D>(exec, "bandsolve::solve(periodic)",
                                             detail::periodic_scratch_bytes<T, D>(n, P::L),
                                             detail::periodic_block_kernel{}, a, b, c, d, info, n,
                                             nsys, slots);
    });
  }
}

template <class ExecutionSpace, class AView, class BView, class CView, class DView, class InfoView>
void solve(const ExecutionSpace& exec, algo::periodic, const AView& a, const BView& b,
           const CView& c, const DView& d, const InfoView& info) {
  solve(exec, algo::periodic{}, a, b, c, d, info, backend::default_for_t<ExecutionSpace>{});
}

namespace detail {
struct periodic_factorization_access;
}

// The factors of a batch of periodic tridiagonal matrices in blocks of L systems: Thomas'
// 1/pivot, a/pivot and c/pivot of the leading block, the correction vector z = T^-1 e, and the
// closing row (1/s, a[n-1], c[n-1]). A solve reads 4 words and d per unknown and writes x.
template <class Scalar, class Layout, class ExecutionSpace>
class periodic_factorization {
 public:
  using scalar_type = Scalar;
  using layout_type = Layout;
  using execution_space = ExecutionSpace;
  using memory_space = typename ExecutionSpace::memory_space;
  static constexpr int block_width = detail::lane_packing<Layout, Scalar>::L;
  using factor_view = Kokkos::View<Scalar**[static_cast<std::size_t>(block_width)],
                                   Kokkos::LayoutRight, memory_space>;

  periodic_factorization() = default;

  std::size_t nsys() const { return static_cast<std::size_t>(nsys_); }
  std::size_t n() const { return static_cast<std::size_t>(n_); }
  Kokkos::View<const int*, memory_space> info() const { return info_; }
  // Bytes of the stored factors.
  std::size_t storage_bytes() const { return 4 * r_.span() * sizeof(Scalar); }

  // Factors new matrices of the shape that was factored (the same rows and systems, Views of
  // Layout and Scalar, any strides) into this factorization's storage: no allocation. Same
  // factors and info codes as factorize; enqueued on exec, not fenced. Copies share the storage.
  template <class AView, class BView, class CView>
  void refactor(const ExecutionSpace& exec, const AView& a, const BView& b, const CView& c);

  // Solves for the right-hand sides in d (same layout and shape as the factored matrices), in
  // place. d holds Scalar, or Kokkos::complex<Scalar> when Scalar is real. Enqueued on exec, not
  // fenced. Systems whose info is not 0 get inf/NaN.
  template <class DView>
  void solve(const ExecutionSpace& exec, const DView& d) const {
    detail::factored_solve_static_checks<algo::periodic, ExecutionSpace, Layout, Scalar, DView>();
    using D = typename DView::value_type;
    const std::string fn = "bandsolve::periodic_factorization::solve";
    detail::check_factored_solve<Layout>(fn, initialized_, d, n_, nsys_);
    if (nsys_ == 0 || n_ == 0) return;
    using P = detail::lane_packing<Layout, Scalar>;
    const index_t n = n_, slots = static_cast<index_t>(capacity(d));
    const factor_view r = r_, lo = lo_, cp = cp_, z = z_;
    detail::for_each_pack(
        exec, "bandsolve::periodic_factorization::solve", static_cast<index_t>(r.extent(0)),
        static_cast<std::size_t>(n) * P::L * sizeof(D),
        KOKKOS_LAMBDA(const index_t p, void* work) {
          const detail::periodic_factors<const Scalar> f{&r(p, 0, 0), &lo(p, 0, 0), &cp(p, 0, 0),
                                                         &z(p, 0, 0)};
          detail::periodic_factored_solve_block<P::L, P::WG, Scalar, D>(
              n, f, detail::block_of<P, D>(d, p, slots), static_cast<D*>(work));
        });
  }

 private:
  friend struct detail::periodic_factorization_access;

  // Members are built here, never assigned into default-constructed Views (Kokkos/GCC 12).
  periodic_factorization(const factor_view& r, const factor_view& lo, const factor_view& cp,
                         const factor_view& z, const Kokkos::View<int*, memory_space>& info,
                         index_t nsys, index_t n)
      : r_(r), lo_(lo), cp_(cp), z_(z), info_(info), nsys_(nsys), n_(n), initialized_(true) {}

  factor_view r_, lo_, cp_, z_;
  Kokkos::View<int*, memory_space> info_;
  index_t nsys_ = 0, n_ = 0;
  bool initialized_ = false;
};

namespace detail {
struct periodic_factorization_access {
  template <class F>
  static F make(index_t nsys, index_t n, const typename F::execution_space& exec) {
    using fv = typename F::factor_view;
    const index_t blocks = (nsys + F::block_width - 1) / F::block_width;
    const auto nb = static_cast<std::size_t>(blocks), nr = static_cast<std::size_t>(n);
    auto alloc = [&](const char* label) { return Kokkos::view_alloc(exec, std::string(label)); };
    auto factor = [&](const char* label) { return allocate_zeroed<fv>(exec, label, nb, nr); };
    return F(factor("bandsolve::periodic 1/pivot"),
             factor("bandsolve::periodic a/pivot"),
             factor("bandsolve::periodic c/pivot"),
             factor("bandsolve::periodic z"),
             Kokkos::View<int*, typename F::memory_space>(alloc("bandsolve::periodic info"),
                                                          static_cast<std::size_t>(nsys)),
             nsys, n);
  }
  template <class F>
  static auto views(const F& f) {
    struct {
      typename F::factor_view r, lo, cp, z;
      Kokkos::View<int*, typename F::memory_space> info;
    } v{f.r_, f.lo_, f.cp_, f.z_, f.info_};
    return v;
  }
};

// factorize(periodic)'s kernel. A function of its own because nvcc does not allow an extended
// (KOKKOS_LAMBDA) lambda inside a function with a deduced return type such as factorize.
template <class P, class T, class ExecutionSpace, class AView, class BView, class CView,
          class FactorView, class InfoView>
void periodic_factor_kernel(const ExecutionSpace& exec, const AView& a, const BView& b,
                            const CView& c, index_t n, index_t ns, index_t slots,
                            const FactorView& r, const FactorView& lo, const FactorView& cp,
                            const FactorView& z, const InfoView& info) {
  constexpr int L = P::L;
  constexpr auto lane_count = static_cast<std::size_t>(L);  // an array bound
  detail::for_each_pack(
      exec, "bandsolve::factorize(periodic)", static_cast<index_t>(r.extent(0)), 0,
      KOKKOS_LAMBDA(const index_t p, void*) {
        int info_l[lane_count];
        const detail::periodic_factors<T> fac{&r(p, 0, 0), &lo(p, 0, 0), &cp(p, 0, 0),
                                              &z(p, 0, 0)};
        detail::periodic_factor_block(n, detail::block_of<P, const T>(a, p, slots),
                                      detail::block_of<P, const T>(b, p, slots),
                                      detail::block_of<P, const T>(c, p, slots), fac, info_l);
        const index_t real = ns - p * L < L ? ns - p * L : L;
        for (index_t l = 0; l < real; ++l) info(p * L + l) = info_l[l];
      });
}
}  // namespace detail

template <class Scalar, class Layout, class ExecutionSpace>
template <class AView, class BView, class CView>
void periodic_factorization<Scalar, Layout, ExecutionSpace>::refactor(const ExecutionSpace& exec,
                                                                      const AView& a,
                                                                      const BView& b,
                                                                      const CView& c) {
  const std::string fn = "bandsolve::periodic_factorization::refactor";
  detail::check_refactor<algo::periodic, ExecutionSpace, Layout, Scalar>(fn, initialized_, a, b,
                                                                         c, n_, nsys_);
  if (nsys_ == 0 || n_ == 0) return;
  detail::periodic_factor_kernel<detail::lane_packing<Layout, Scalar>, Scalar>(
      exec, a, b, c, n_, nsys_, static_cast<index_t>(capacity(b)), r_, lo_, cp_, z_, info_);
}

// Factorizes the periodic matrices (a, b, c) of nsys systems; nsys defaults to every slot of the
// Views (for interleaved packs, give the real number of systems). Allocates the factors;
// enqueued on exec, not fenced. Backend as for solve: on the device backend the result is a
// periodic_device_factorization (periodic_device.hpp).
template <class ExecutionSpace, class AView, class BView, class CView, class Backend>
auto factorize(const ExecutionSpace& exec, algo::periodic, const AView& a, const BView& b,
               const CView& c, std::size_t nsys, Backend) {
  static_assert(backend::is_backend_v<Backend>,
                "bandsolve::factorize(periodic): the last argument must be a backend tag "
                "(backend::device, or the execution space's own)");
  detail::tridiag_static_checks<algo::periodic, ExecutionSpace, BView, AView, BView, CView>();
  using Layout = layout_of_t<BView>;
  using T = typename BView::non_const_value_type;
  using F = periodic_factorization<T, Layout, ExecutionSpace>;
  using P = detail::lane_packing<Layout, T>;
  const std::string fn = "bandsolve::factorize(periodic)";
  detail::check_same_shape(fn, "a", a, "b", b);
  detail::check_same_shape(fn, "c", c, "b", b);
  detail::check_rows_fit_int(fn, rows(b));
  nsys = detail::check_factor_nsys<Layout>(fn, b, nsys);
  if constexpr (std::is_same_v<Backend, backend::device>) {
    return detail::periodic_device_factorize(exec, a, b, c, static_cast<index_t>(nsys));
  } else {
    static_assert(std::is_same_v<Backend, backend::default_for_t<ExecutionSpace>>,
                  "bandsolve::factorize(periodic): a host backend runs only on its own execution "
                  "space");
    const index_t n = static_cast<index_t>(rows(b)), ns = static_cast<index_t>(nsys),
                  slots = static_cast<index_t>(capacity(b));
    F f = detail::periodic_factorization_access::make<F>(ns, n, exec);
    if (ns == 0 || n == 0) return f;
    const auto v = detail::periodic_factorization_access::views(f);
    detail::periodic_factor_kernel<P, T>(exec, a, b, c, n, ns, slots, v.r, v.lo, v.cp, v.z,
                                         v.info);
    return f;
  }
}

template <class ExecutionSpace, class AView, class BView, class CView, class Backend,
          std::enable_if_t<backend::is_backend_v<Backend>, int> = 0>
auto factorize(const ExecutionSpace& exec, algo::periodic, const AView& a, const BView& b,
               const CView& c, Backend) {
  return factorize(exec, algo::periodic{}, a, b, c, static_cast<std::size_t>(-1), Backend{});
}

template <class ExecutionSpace, class AView, class BView, class CView>
auto factorize(const ExecutionSpace& exec, algo::periodic, const AView& a, const BView& b,
               const CView& c, std::size_t nsys = static_cast<std::size_t>(-1)) {
  return factorize(exec, algo::periodic{}, a, b, c, nsys, backend::default_for_t<ExecutionSpace>{});
}

}  // namespace bandsolve
