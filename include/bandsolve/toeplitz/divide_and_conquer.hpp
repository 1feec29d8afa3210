#pragma once
// Divide and conquer for one large tridiagonal Toeplitz system (Dmitruk and Stpiczynski 2020;
// docs/algorithms.md, "Toeplitz divide and conquer"), host API.
//
//   auto plan = bandsolve::factorize(exec, bandsolve::algo::toeplitz_dc{}, t1, t2, t3, n);
//   plan.solve(exec, x);   // x: View<T*> of n values holding f on entry and T^{-1} f on return
//   bandsolve::solve(exec, bandsolve::algo::toeplitz_dc{}, t1, t2, t3, x);   // one-shot
//
// T = tridiag(t1, t2, t3): t1 x[i-1] + t2 x[i] + t3 x[i+1] = f[i]. T = L R + P (splitting.hpp),
// x = v - gamma x_0 u with v = (LR)^{-1} f and u = (LR)^{-1} e_0 (Sherman-Morrison;
// x_0 = v_0 / (1 + gamma u_0), and 1 + gamma u_0 = (1 - q^{n+1}) / (1 - q) with q = t1 t3 / delta^2,
// never zero once the splitting is contractive). Each bidiagonal solve runs on r blocks of s rows:
//   (A1) every block's value at its end (start, for R) with zero carry-in, all blocks in parallel;
//   (A2) the carries, one after another (a carry reaches the next block scaled by the same
//        w_s = (-a)^s or g^s for every block, since L and R are Toeplitz);
//   (A3) every block solved from its carry, SIMD across the blocks of a work item, threads across
//        work items: f is read once and x written once, the backward sweep reads the cache.
// The carry w_k = (-a)^k (resp. g^k) decays geometrically: (A1) reads only the last (first)
// `truncation` rows of a block (beyond them a carry no longer changes a value of the same size),
// and u is stored and applied only on its first `truncation` rows.
//
// Only T that split into two contractive recurrences are accepted (diagonally dominant T always
// are); others throw std::invalid_argument naming the coefficients: use algo::thomas for them.
// Near the edge of diagonal dominance the recurrences contract slowly: when their truncation
// length (the rows after which a carry falls below eps/4) exceeds n, the carries never decay
// within the system, the split gains no parallelism and its Sherman-Morrison correction cancels
// (about 200 times Thomas's error at t = (-1, 2 + 1e-12, -1), n = 1000). Such plans solve by
// Thomas on T's LU factors instead (toeplitz/batched.hpp, 2n values, Thomas's accuracy);
// plan.uses_thomas() says which path was taken and plan.info() gives that path's pivot code.
// Memory is O(n) either way: no block is longer than the system.
// Work is enqueued on exec and never fenced here. factorize() allocates the workspace once; the
// plan's solve allocates nothing. x must have unit stride. T is float, double,
// Kokkos::complex<float> or Kokkos::complex<double> (the splitting in complex, splitting.hpp; x of
// the plan's type: a real T with complex x is a plan of complex coefficients with zero imaginary
// parts, or algo::toeplitz on one system, which keeps the factors real).
// Backends: the execution space's own (backend::default_for_t: serial, openmp_simd, device on
// Kokkos::Cuda), or a trailing backend::device{} argument to factorize and to the one-shot solve
// (the plan's third template argument), which runs the device kernels on any execution space
// (divide_and_conquer_device.hpp): blocks of about four truncation lengths, a thread each, and
// the Thomas path through the device sweep of toeplitz/batched_device.hpp.
#include <bandsolve/core/algo.hpp>
#include <bandsolve/core/config.hpp>
#include <bandsolve/core/errors.hpp>
#include <bandsolve/core/scalar_traits.hpp>
#include <bandsolve/toeplitz/batched.hpp>
#include <bandsolve/toeplitz/divide_and_conquer_device.hpp>
#include <bandsolve/toeplitz/divide_and_conquer_kernel.hpp>
#include <bandsolve/toeplitz/splitting.hpp>

#include <cmath>
#include <string>
#include <type_traits>

namespace bandsolve {

template <class Scalar, class ExecutionSpace, class Backend = backend::default_for_t<ExecutionSpace>>
class toeplitz_dc_plan {
  static_assert(backend::is_backend_v<Backend>,
                "bandsolve::toeplitz_dc_plan: the third template argument must be a backend tag");
  static_assert(std::is_same_v<Backend, backend::device> ||
                    std::is_same_v<Backend, backend::default_for_t<ExecutionSpace>>,
                "bandsolve::toeplitz_dc_plan: a host backend runs only on its own execution space");

 public:
  using scalar_type = Scalar;
  using execution_space = ExecutionSpace;
  using backend_type = Backend;
  using memory_space = typename ExecutionSpace::memory_space;
  // The splitting's constants: double for real T, std::complex<double> for complex T.
  using splitting_type = basic_toeplitz_splitting<
      std::conditional_t<is_complex_v<Scalar>, std::complex<double>, double>>;
  // Blocks per work item (SIMD lanes) and the default block length: a work item spans
  // lanes * block_rows values (128 KiB), so the backward sweep finds them in L2.
  static constexpr int lanes = detail::toeplitz_dc_lanes<Scalar>;
  static constexpr index_t default_block_rows = 16384 / lanes / (is_complex_v<Scalar> ? 2 : 1);

  toeplitz_dc_plan() = default;

  std::size_t n() const { return static_cast<std::size_t>(n_); }
  const splitting_type& splitting() const { return split_; }
  std::size_t block_rows() const { return static_cast<std::size_t>(c_.s); }
  std::size_t blocks() const { return static_cast<std::size_t>(c_.nblocks); }
  // Whether this plan solves by Thomas on T's LU factors (see the top of this header).
  bool uses_thomas() const { return uses_thomas_; }
  // 0, or the 1-based row of the first zero, tiny or non-finite LU pivot of T (Thomas path).
  int info() const { return uses_thomas_ ? thomas_.info() : 0; }

  // Solves T x = f in place (x holds f on entry). Enqueued on exec, not fenced.
  template <class XView>
  void solve(const ExecutionSpace& exec, const XView& x) const {
    static_assert(Kokkos::is_view<XView>::value && XView::rank == 1,
                  "bandsolve::toeplitz_dc_plan::solve: x must be a rank-1 Kokkos::View");
    static_assert(std::is_same_v<typename XView::value_type, Scalar>,
                  "bandsolve::toeplitz_dc_plan::solve: x must be a non-const View of the plan's "
                  "scalar type");
    static_assert(Kokkos::SpaceAccessibility<ExecutionSpace,
                                             typename XView::memory_space>::accessible,
                  "bandsolve::toeplitz_dc_plan::solve: x must be accessible from the execution "
                  "space");
    const std::string fn = "bandsolve::toeplitz_dc_plan::solve";
    if (!initialized_)
      detail::throw_invalid_argument(fn, "this plan is empty (default-constructed)");
    if (static_cast<index_t>(x.extent(0)) != n_)
      detail::throw_invalid_argument(fn, "x.extent(0) = ", x.extent(0), " but the plan has n = ",
                                     n_);
    if (n_ == 0) return;
    if (x.stride(0) != 1)
      detail::throw_invalid_argument(fn, "x.stride(0) = ", x.stride(0),
                                     "; the divide and conquer needs unit stride");
    if (uses_thomas_) {
      const Kokkos::View<Scalar**, Kokkos::LayoutRight, memory_space,
                         Kokkos::MemoryTraits<Kokkos::Unmanaged>>
          rows(x.data(), 1, static_cast<std::size_t>(n_));
      thomas_.solve(exec, rows, Backend{});
      return;
    }
    if constexpr (std::is_same_v<Backend, backend::device>)
      detail::toeplitz_dc_device_run(exec, c_, x.data(), carry_l_, carry_r_, ends_, u_, scale_);
    else
      detail::toeplitz_dc_run<Scalar, lanes>(exec, c_, x.data(), carry_l_, carry_r_, u_, scale_);
  }

 private:
  template <class S, class E, class B>
  friend toeplitz_dc_plan<S, E, B> detail_make_toeplitz_dc_plan(const E&, S, S, S, std::size_t,
                                                                std::size_t, B);
  using view = Kokkos::View<Scalar*, memory_space>;

  // Members are built here, never assigned into default-constructed Views (Kokkos/GCC 12).
  toeplitz_dc_plan(const splitting_type& split,
                   const detail::toeplitz_dc_constants<Scalar>& constants, const view& carry_l,
                   const view& carry_r, const view& ends, const view& u, const view& scale,
                   index_t n, const toeplitz_batch_factorization<Scalar, ExecutionSpace>& thomas,
                   bool uses_thomas)
      : split_(split), c_(constants), carry_l_(carry_l), carry_r_(carry_r), ends_(ends), u_(u),
        scale_(scale), thomas_(thomas), n_(n), uses_thomas_(uses_thomas), initialized_(true) {}

  splitting_type split_;
  detail::toeplitz_dc_constants<Scalar> c_;
  view carry_l_, carry_r_, ends_, u_, scale_;  // ends_: the device backend's block ends
  toeplitz_batch_factorization<Scalar, ExecutionSpace> thomas_;  // the fallback's LU factors
  index_t n_ = 0;
  bool uses_thomas_ = false, initialized_ = false;
};

// Not part of the API: builds a plan (factorize() below is the entry point).
template <class Scalar, class ExecutionSpace, class Backend>
toeplitz_dc_plan<Scalar, ExecutionSpace, Backend> detail_make_toeplitz_dc_plan(
    const ExecutionSpace& exec, Scalar t1, Scalar t2, Scalar t3, std::size_t n,
    std::size_t block_rows, Backend) {
  using plan_type = toeplitz_dc_plan<Scalar, ExecutionSpace, Backend>;
  const std::string fn = "bandsolve::factorize(toeplitz_dc)";
  detail::check_rows_fit_int(fn, n);
  const typename plan_type::splitting_type sp = split_toeplitz(fn, t1, t2, t3);
  // Host arithmetic in the splitting's type (double or std::complex<double>), rounded to Scalar.
  using Wide = typename plan_type::splitting_type::value_type;
  const auto narrow = [](Wide v) {
    if constexpr (is_complex_v<Scalar>) {
      using R = real_type_t<Scalar>;
      return Scalar(static_cast<R>(std::real(v)), static_cast<R>(std::imag(v)));
    } else {
      return static_cast<Scalar>(v);
    }
  };
  const index_t nn = static_cast<index_t>(n);
  detail::toeplitz_dc_constants<Scalar> c;
  c.n = nn;
  c.k = static_cast<index_t>(sp.truncation);
  using view = Kokkos::View<Scalar*, typename plan_type::memory_space>;
  // Members a path does not use are empty allocations, not default-constructed Views: with GCC 12
  // a Kokkos 4.6 develop build crashes destroying those (docs/development.md).
  const auto unused = [&](const char* what) {
    return view(Kokkos::view_alloc(exec, std::string("bandsolve::toeplitz_dc ") + what), 0);
  };
  if (detail::toeplitz_dc_needs_thomas(sp, nn)) {
    // The carries would not decay within the system: solve by Thomas on T's LU factors (2n
    // values), which keeps Thomas's accuracy.
    c.s = nn;
    c.nblocks = nn > 0 ? 1 : 0;
    c.last_rows = nn;
    return plan_type(sp, c, unused("carry_l"), unused("carry_r"), unused("ends"), unused("u"),
                     unused("scale"), nn, factorize(exec, algo::toeplitz{}, t1, t2, t3, n), true);
  }
  // Blocks at least four truncation lengths long keep the (A1) reads a small fraction of f.
  index_t s = block_rows != 0 ? static_cast<index_t>(block_rows) : plan_type::default_block_rows;
  if constexpr (std::is_same_v<Backend, backend::device>) {
    // A thread per block: short blocks (divide_and_conquer_device.hpp).
    if (block_rows == 0) s = detail::toeplitz_dc_device_block_rows<Scalar>(sp.truncation, nn);
  } else {
    // Automatic lengths are multiples of the lane count (the register-transpose path).
    if (block_rows == 0 && s < 4 * sp.truncation) {
      const index_t v = plan_type::lanes;
      s = static_cast<index_t>(4 * sp.truncation < (1L << 30) ? 4 * sp.truncation : (1L << 30));
      s = (s + v - 1) / v * v;
    }
    // No block longer than the system (rounded up to the lanes): the workspace stays O(n).
    const index_t v = plan_type::lanes, whole = (nn + v - 1) / v * v;
    if (s > whole && whole > 0) s = whole;
  }
  c.s = s;
  c.nblocks = nn > 0 ? (nn + s - 1) / s : 0;
  c.last_rows = nn - (c.nblocks - 1) * s;
  c.a = narrow(sp.a);
  c.g = narrow(sp.g);
  c.inv_delta = narrow(1.0 / sp.delta);
  c.w_s = narrow(std::pow(-sp.a, static_cast<double>(s)));
  c.g_s = narrow(std::pow(sp.g, static_cast<double>(s)));
  // u = (LR)^{-1} e_0: u_i = (-a)^i / delta * (1 - q^{n-i}) / (1 - q), q = t1 t3 / delta^2,
  // kept on its first `truncation` rows (beyond them |u_i| < eps |u_0|). |q| <= contraction^2 < 1.
  const Wide q = sp.t1 * sp.t3 / (sp.delta * sp.delta);
  c.u_rows = nn < c.k ? nn : c.k;
  const Wide u0 = (1.0 - std::pow(q, static_cast<double>(nn))) / ((1.0 - q) * sp.delta);
  c.sm_factor = narrow(sp.gamma / (1.0 + sp.gamma * u0));

  const auto nblocks = static_cast<std::size_t>(c.nblocks);  // a view extent
  const view carry_l(Kokkos::view_alloc(exec, std::string("bandsolve::toeplitz_dc carry_l")),
                     nblocks);
  const view carry_r(Kokkos::view_alloc(exec, std::string("bandsolve::toeplitz_dc carry_r")),
                     nblocks);
  const view scale(Kokkos::view_alloc(exec, std::string("bandsolve::toeplitz_dc scale")), 1);
  const view u(Kokkos::view_alloc(exec, std::string("bandsolve::toeplitz_dc u")),
               static_cast<std::size_t>(c.u_rows));
  auto u_host = Kokkos::create_mirror_view(Kokkos::HostSpace(), u);
  Wide pw = 1.0;
  for (index_t i = 0; i < c.u_rows; ++i, pw *= -sp.a)
    u_host(i) = narrow(pw / sp.delta * (1.0 - std::pow(q, static_cast<double>(nn - i))) / (1.0 - q));
  Kokkos::deep_copy(exec, u, u_host);
  exec.fence();  // u_host is a temporary: the copy must finish before it goes away
  // The device backend's (A2, B2) read the block ends from a view of their own.
  const view ends =
      std::is_same_v<Backend, backend::device>
          ? view(Kokkos::view_alloc(exec, std::string("bandsolve::toeplitz_dc ends")), nblocks)
          : unused("ends");
  return plan_type(sp, c, carry_l, carry_r, ends, u, scale, nn,
                   factorize(exec, algo::toeplitz{}, t1, t2, t3, 0), false);
}

// Prepares the solve of T x = f for T = tridiag(t1, t2, t3) of n rows: chooses the root, the
// block length (block_rows = 0: automatic) and allocates the workspace. Throws
// std::invalid_argument for T the method cannot solve (see splitting.hpp). Fences exec (the
// correction vector u is copied from the host). Backend: the execution space's own, or
// backend::device (the plan's kernels and its automatic block length).
template <class ExecutionSpace, class Scalar, class Backend>
std::enable_if_t<backend::is_backend_v<Backend>, toeplitz_dc_plan<Scalar, ExecutionSpace, Backend>>
factorize(const ExecutionSpace& exec, algo::toeplitz_dc, Scalar t1, Scalar t2, Scalar t3,
          std::size_t n, std::size_t block_rows, Backend) {
  static_assert(Kokkos::is_execution_space<ExecutionSpace>::value,
                "bandsolve::factorize(toeplitz_dc): the first argument must be a Kokkos "
                "execution space instance");
  static_assert(is_supported_scalar_v<Scalar>,
                "bandsolve::factorize(toeplitz_dc): the scalar type must be float, double, "
                "Kokkos::complex<float> or Kokkos::complex<double>");
  static_assert(std::is_same_v<Backend, backend::device> ||
                    std::is_same_v<Backend, backend::default_for_t<ExecutionSpace>>,
                "bandsolve::factorize(toeplitz_dc): a host backend runs only on its own execution "
                "space");
  return detail_make_toeplitz_dc_plan(exec, t1, t2, t3, n, block_rows, Backend{});
}

template <class ExecutionSpace, class Scalar>
toeplitz_dc_plan<Scalar, ExecutionSpace> factorize(const ExecutionSpace& exec, algo::toeplitz_dc,
                                                   Scalar t1, Scalar t2, Scalar t3, std::size_t n,
                                                   std::size_t block_rows = 0) {
  return factorize(exec, algo::toeplitz_dc{}, t1, t2, t3, n, block_rows,
                   backend::default_for_t<ExecutionSpace>{});
}

template <class ExecutionSpace, class Scalar, class Backend>
std::enable_if_t<backend::is_backend_v<Backend>, toeplitz_dc_plan<Scalar, ExecutionSpace, Backend>>
factorize(const ExecutionSpace& exec, algo::toeplitz_dc, Scalar t1, Scalar t2, Scalar t3,
          std::size_t n, Backend) {
  return factorize(exec, algo::toeplitz_dc{}, t1, t2, t3, n, 0, Backend{});
}

// One-shot solve (builds a plan: allocates and fences once; prefer factorize() for repeated
// solves). Backend as for factorize.
template <class ExecutionSpace, class XView, class Backend = backend::default_for_t<ExecutionSpace>>
std::enable_if_t<backend::is_backend_v<Backend>> solve(const ExecutionSpace& exec,
                                                       algo::toeplitz_dc,
                                                       typename XView::value_type t1,
                                                       typename XView::value_type t2,
                                                       typename XView::value_type t3,
                                                       const XView& x, Backend = {}) {
  factorize(exec, algo::toeplitz_dc{}, t1, t2, t3, x.extent(0), 0, Backend{}).solve(exec, x);
}

}  // namespace bandsolve
