#pragma once
// Factored Thomas-PCR hybrid: the partition method with stored factors, for few long systems.
//
//   auto f = bandsolve::factorize(exec, bandsolve::algo::thomas_pcr{}, a, b, c[, nsys]);
//   f.solve(exec, d);      // any number of times; f.info() holds the factorization's codes
//   f.refactor(exec, a2, b2, c2);  // new matrices of the same shape, into f's storage
//
// Same Views as the one-shot hybrid (row, column, interleaved<W>, strided; float, double or their
// Kokkos::complex; interleaved padding lanes untouched). The factorization stores Thomas's LU (mu,
// 1/pivot, c') and, per chunk of 128 rows, one vector q and three numbers
// (partition_factor_kernel.hpp), 4 n values per system (plus 3/128 of that); a solve reads d twice
// and the factors once each and writes x (8 words per unknown), parallel over the chunks of every
// system (one team of every thread: chunks along n, SIMD across systems side by side) and over
// systems. info(s) = 0, or the 1-based first row whose LU pivot is zero, tiny or not finite (what
// Thomas and the one-shot hybrid report); such systems solve to inf/NaN.
// The factorization sweeps each system's rows in order (SIMD across the systems of a lane block,
// blocks shared by the threads): with one system it runs on one thread.
// Over real factors d may be Kokkos::complex of the same precision: its real and imaginary parts
// are solved in turn as real right-hand sides (partition_factored_parts_launch,
// partition_factored_parts_lanes).
// Host backends only (serial, openmp_simd): on a device execution space factorize does not
// compile (a static_assert says so); factorize(exec, algo::thomas{}, ...) is the device's
// factored solve.
#include <bandsolve/backend/huge_pages.hpp>
#include <bandsolve/backend/tags.hpp>
#include <bandsolve/core/algo.hpp>
#include <bandsolve/core/checks.hpp>
#include <bandsolve/tridiag/batch_checks.hpp>  // check_refactor
#include <bandsolve/tridiag/partition_factor_kernel.hpp>
#include <bandsolve/tridiag/team_batch.hpp>

#include <mutex>
#include <string>
#include <type_traits>

namespace bandsolve {

namespace detail {

// The lane blocks of a factorization: systems side by side (column, interleaved<W> with W > 1,
// strided of unit system stride) as the one-shot partition path takes them (partition_lanes_v
// of an interleaved pack; for column and strided views the widest block the systems fill), else
// one system per block.
template <class T, class Layout>
partition_plan factor_plan(bool side_by_side, index_t n, index_t nsys) {
  const index_t M = partition_chunk_rows;
  if (side_by_side) {
    if constexpr (is_interleaved_layout_v<Layout>) {
      return at_least_one_chunk(make_partition_plan(n, nsys, partition_lanes_v<T, Layout::width>,
                                                    Layout::width, M));
    } else {
      constexpr index_t wide = partition_width_v<T>;
      const index_t lanes = nsys >= wide       ? wide
                            : nsys >= wide / 2 ? wide / 2
                            : nsys >= wide / 4 ? wide / 4
                                               : wide / 8;
      return at_least_one_chunk(make_partition_plan(n, nsys, lanes, nsys, M));
    }
  }
  return at_least_one_chunk(make_partition_plan(n, nsys, 1, 1, M));
}

// factorize(thomas_pcr)'s kernel with blocks of LB lanes: a block per work item.
template <int LB, class ExecutionSpace, class AView, class BView, class CView, class FactorView,
          class InfoView>
void partition_factor_launch(const ExecutionSpace& exec, const partition_plan& plan,
                             const AView& a, const BView& b, const CView& c, const FactorView& mu,
                             const FactorView& r, const FactorView& cp, const FactorView& q,
                             const FactorView& pi, const FactorView& sigma,
                             const FactorView& gamma, const InfoView& info) {
  using T = typename FactorView::value_type;
  using range = Kokkos::RangePolicy<ExecutionSpace>;
  Kokkos::parallel_for(
      "bandsolve::factorize(thomas_pcr)",
      range(exec, 0, static_cast<typename range::member_type>(plan.blocks)),
      KOKKOS_LAMBDA(const index_t g) {
        const index_t s0 = plan.first_system(g);
        const int nl = plan.lanes_in(g);
        const auto sa = system_of(a, s0);
        const auto sb = system_of(b, s0);
        const auto sc = system_of(c, s0);
        const index_t co = g * plan.P * LB;
        int bad[static_cast<std::size_t>(LB)];
        factor_block<LB, T>(plan, g, nl, lane_array<const T>{sa.p, sa.stride},
                            lane_array<const T>{sb.p, sb.stride},
                            lane_array<const T>{sc.p, sc.stride}, mu.data(), r.data(), cp.data(),
                            q.data(), pi.data() + co, sigma.data() + co, gamma.data() + co, bad);
        for (int l = 0; l < nl; ++l) info(s0 + l) = bad[l];
      });
}

// The factors a solve reads (flat Views; see partition_factor_kernel.hpp for their order).
template <class T, class Memory>
struct partition_factors {
  Kokkos::View<T*, Memory> mu, r, cp, q, pi, sigma, gamma;
};

// Scratch of a solve with blocks of LB lanes: eloc and xloc per chunk and lane, a row of zeros,
// a tile (r e of K chunks, or of one last chunk of up to 2M rows) per thread.
template <class T, int LB>
std::size_t factored_scratch_bytes(const partition_plan& p, int team_size) {
  constexpr int K = partition_chains_v<T, LB>;
  const std::size_t reduced =
      (2 * static_cast<std::size_t>(p.blocks) * static_cast<std::size_t>(p.P) + 1) * LB *
      sizeof(T);
  const std::size_t tile_rows = static_cast<std::size_t>(K > 2 ? K : 2) *
                                static_cast<std::size_t>(p.M);
  return (reduced + 63) / 64 * 64 +
         static_cast<std::size_t>(team_size) * tile_rows * LB * sizeof(T);
}

// The factored solve on one team (every thread calls it), blocks of LB lanes of the solve plan
// p; the factors are those of the factor plan fp (the same blocks, or p's systems one per block
// read from fp's blocks at their lanes). d_of(g) gives the d lane array of block g.
template <class T, int LB, bool Padded, class Member, class DArrays, class Memory>
KOKKOS_INLINE_FUNCTION void partition_factored_team(const Member& team, const partition_plan& p,
                                                    const partition_plan& fp,
                                                    const partition_factors<T, Memory>& f,
                                                    const DArrays& d_of, void* scratch) {
  constexpr int K = partition_chains_v<T, LB>;
  const int t = team.team_rank();
  T* const el = static_cast<T*>(scratch);
  T* const xl = el + p.blocks * p.P * LB;
  T* const zeros = xl + p.blocks * p.P * LB;
  const std::size_t reduced =
      (2 * static_cast<std::size_t>(p.blocks) * static_cast<std::size_t>(p.P) + 1) * LB *
      sizeof(T);
  const index_t tile_values = static_cast<index_t>(K > 2 ? K : 2) * p.M * LB;
  T* const tt = reinterpret_cast<T*>(static_cast<char*>(scratch) + (reduced + 63) / 64 * 64) +
                static_cast<index_t>(t) * tile_values;
  if (t == 0)
    for (int l = 0; l < LB; ++l) zeros[l] = T(0);
  const index_t fs = fp.lanes;      // factor row stride
  const index_t rsd = d_of(0).rs;   // d row stride
  // Block g's factor block and lane.
  const auto factor_block_of = [&](index_t g, index_t& gf, int& lf) {
    factor_slot(fp, p.first_system(g), gf, lf);
  };
  const auto chain_of = [&](bool recover, index_t w, factored_chain<T>& ch, index_t& m) {
    const index_t g = p.block_of(w), j = p.chunk_of(w), r0 = j * p.M;
    index_t gf;
    int lf;
    factor_block_of(g, gf, lf);
    const index_t fo = factor_chunk_offset(fp, gf, j) + lf;
    ch.d = d_of(g).p + r0 * rsd;
    ch.mu = f.mu.data() + fo;
    ch.r = f.r.data() + fo;
    ch.cp = f.cp.data() + fo;
    ch.q = f.q.data() + fo;
    const index_t own = (g * p.P + j) * LB;
    ch.el = el + own;
    ch.xl = xl + own;
    if (recover) {
      ch.e_in = j > 0 ? el + own - LB : zeros;
      ch.x_in = j + 1 < p.P ? xl + own + LB : zeros;
    }
    ch.nl = p.lanes_in(g);
    m = j == p.P - 1 ? p.mlast : p.M;
  };
  const auto run = [&](auto chains, bool recover, const factored_chain<T>* ch, index_t m) {
    constexpr int KK = decltype(chains)::value;
    bool full = true;
    for (int k = 0; k < KK; ++k) full = full && ch[k].nl == LB;
#if BANDSOLVE_HAS_SIMD_TRANSPOSE
    if constexpr (is_complex_v<T> && LB >= 2) {  // on the parts (partition_factor_complex.hpp)
      constexpr index_t ahead = partition_prefetch_rows;
      if (full || Padded) {
        if (recover && full)
          simd::factored_recover_parts<LB, KK, false>(ch, rsd, fs, m, ahead, tt);
        else if (recover)
          simd::factored_recover_parts<LB, KK, Padded>(ch, rsd, fs, m, ahead, tt);
        else if (full)
          simd::factored_reduce_parts<LB, KK, false>(ch, rsd, fs, m, ahead);
        else
          simd::factored_reduce_parts<LB, KK, Padded>(ch, rsd, fs, m, ahead);
        return;
      }
    }
#endif
    if (recover) {
      if (full)
        factored_recover<LB, KK, true, Padded>(ch, rsd, fs, m, tt);
      else
        factored_recover<LB, KK, false, Padded>(ch, rsd, fs, m, tt);
    } else {
      if (full)
        factored_reduce<LB, KK, true, Padded>(ch, rsd, fs, m);
      else
        factored_reduce<LB, KK, false, Padded>(ch, rsd, fs, m);
    }
  };
  const auto single = [&](bool recover, index_t w) {
    factored_chain<T> ch;
    index_t m;
    chain_of(recover, w, ch, m);
    run(std::integral_constant<int, 1>{}, recover, &ch, m);
  };
  index_t w0, w1;
  thread_share(team, 0, p.items, w0, w1);
  const index_t S = (w1 - w0) / K;
  // K chains walking K sub-ranges of the thread's items in step: long streams for the
  // prefetchers, as in partition_solve_team.
  const auto step = [&](bool recover, index_t s) {
    factored_chain<T> ch[static_cast<std::size_t>(K)];
    index_t m[static_cast<std::size_t>(K)];
    bool uniform = true;
    for (int k = 0; k < K; ++k) {
      chain_of(recover, w0 + k * S + s, ch[k], m[k]);
      uniform = uniform && m[k] == p.M;
    }
    if (uniform)
      run(std::integral_constant<int, K>{}, recover, ch, p.M);
    else
      for (int k = 0; k < K; ++k) single(recover, w0 + k * S + s);
  };
  for (index_t s = 0; s < S; ++s) step(false, s);
  for (index_t w = w0 + K * S; w < w1; ++w) single(false, w);
  team.team_barrier();
  index_t g0, g1;
  thread_share(team, 0, p.blocks, g0, g1);
  for (index_t g = g0; g < g1; ++g) {
    index_t gf;
    int lf;
    factor_block_of(g, gf, lf);
    const index_t co = gf * p.P * fs + lf;
    factored_scans<LB>(p.P, fs, f.pi.data() + co, f.sigma.data() + co, f.gamma.data() + co,
                       el + g * p.P * LB, xl + g * p.P * LB);
  }
  team.team_barrier();
  // Pass 2 backwards, starting on the rows pass 1 left in cache.
  for (index_t w = w1 - 1; w >= w0 + K * S; --w) single(true, w);
  for (index_t s = S - 1; s >= 0; --s) step(true, s);
  team.team_barrier();  // the scratch may be reused after return
}

// A solve with blocks of LB lanes (p) over the factors of fp.
template <int LB, class Layout, class ExecutionSpace, class DView, class T, class Memory>
void partition_factored_launch(const ExecutionSpace& exec, const partition_plan& p,
                               const partition_plan& fp, const partition_factors<T, Memory>& f,
                               const DView& d) {
  // Blocks whose unused lanes are an interleaved pack's own padding (blocks tile the pack).
  constexpr bool padded = [] {
    if constexpr (is_interleaved_layout_v<Layout>)
      return LB > 1 && Layout::width % LB == 0;
    else
      return false;
  }();
  using member_type = typename Kokkos::TeamPolicy<ExecutionSpace>::member_type;
  const auto d_of = KOKKOS_LAMBDA(index_t g) {
    const auto sd = system_of(d, p.first_system(g));
    return lane_array<T>{sd.p, sd.stride};
  };
  const int threads = concurrency_of(exec);
  launch_teams(exec, "bandsolve::thomas_pcr_factorization::solve", 1, threads,
               factored_scratch_bytes<T, LB>(p, threads),
               KOKKOS_LAMBDA(const member_type& team, const index_t, void* scratch) {
                 partition_factored_team<T, LB, padded>(team, p, fp, f, d_of, scratch);
               });
}

// A solve of complex right-hand sides d over the real factors of fp: the real and then the
// imaginary parts, each as a real right-hand side read in place (every other real of d), one
// system per block (the factors read at each system's lane, as for d whose systems are not side
// by side). Each part reads all of d: twice the traffic of a real solve per pass.
template <class ExecutionSpace, class DView, class T, class Memory>
void partition_factored_parts_launch(const ExecutionSpace& exec, const partition_plan& fp,
                                     const partition_factors<T, Memory>& f, const DView& d) {
  using member_type = typename Kokkos::TeamPolicy<ExecutionSpace>::member_type;
  const partition_plan p = at_least_one_chunk(make_partition_plan(fp.n, fp.nsys, 1, 1, fp.M));
  const int threads = concurrency_of(exec);
  for (index_t part = 0; part < 2; ++part) {
    const auto d_of = KOKKOS_LAMBDA(index_t g) {
      const auto sd = system_of(d, p.first_system(g));
      return lane_array<T>{reinterpret_cast<T*>(sd.p) + part, 2 * sd.stride};
    };
    launch_teams(exec, "bandsolve::thomas_pcr_factorization::solve(complex d)", 1, threads,
                 factored_scratch_bytes<T, 1>(p, threads),
                 KOKKOS_LAMBDA(const member_type& team, const index_t, void* scratch) {
                   partition_factored_team<T, 1, false>(team, p, fp, f, d_of, scratch);
                 });
  }
}

// Calls f(std::integral_constant<int, LB>) for the runtime lanes of a plan of T over Layout.
template <class T, class Layout, class F>
void with_lanes(index_t lanes, const F& f) {
  if constexpr (is_interleaved_layout_v<Layout>) {
    constexpr int LB = partition_lanes_v<T, Layout::width>;
    if (LB > 1 && lanes == LB) return f(std::integral_constant<int, LB>{});
  } else if constexpr (!std::is_same_v<Layout, layout::row>) {
    constexpr int wide = partition_width_v<T>;
    if (lanes == wide) return f(std::integral_constant<int, wide>{});
    if (lanes == wide / 2) return f(std::integral_constant<int, wide / 2>{});
    if (lanes == wide / 4) return f(std::integral_constant<int, wide / 4>{});
    if (lanes == wide / 8) return f(std::integral_constant<int, wide / 8>{});
  }
  f(std::integral_constant<int, 1>{});
}

// The kept scratch of partition_factored_parts_lanes (its own, so that the solves it runs, which
// take the default kept scratch, never wait on its lock).
struct complex_parts_tag {};

// A solve of complex right-hand sides d over the real factors of fp, whose systems lie side by
// side in lane blocks (fp.lanes > 1 and lanes_adjacent(d)): the real and imaginary parts copied
// into two real batches of the blocks' shape (column, or interleaved<W> for Layout's packs) in
// the kept scratch, each solved by the SIMD blocks as a real right-hand side, and copied back
// into d's systems (padding lanes untouched). Fences exec: the scratch goes back to the cache.
template <class Layout, class ExecutionSpace, class DView, class T, class Memory>
void partition_factored_parts_lanes(const ExecutionSpace& exec, const partition_plan& fp,
                                    const partition_factors<T, Memory>& f, const DView& d) {
  using unmanaged = Kokkos::MemoryTraits<Kokkos::Unmanaged>;
  constexpr bool packs = is_interleaved_layout_v<Layout>;
  using part_layout = std::conditional_t<packs, Layout, layout::column>;
  using part_view = typename part_layout::template view_type<T, Memory>;
  using part = Kokkos::View<typename part_view::data_type, typename part_view::array_layout,
                            Memory, unmanaged>;
  const index_t n = fp.n, slots = static_cast<index_t>(capacity(d));
  const auto values = static_cast<std::size_t>(slots) * static_cast<std::size_t>(n);
  std::unique_lock<std::mutex> lock;
  const auto buffer = scratch_buffer<Memory, complex_parts_tag>(
      exec, "bandsolve::thomas_pcr_factorization::solve(complex d)", 2 * values * sizeof(T),
      lock);
  T* const base = reinterpret_cast<T*>(buffer.data());
  const auto view_at = [&](T* at) {
    if constexpr (packs)
      return part(at, static_cast<std::size_t>(slots / Layout::width),
                  static_cast<std::size_t>(n));
    else
      return part(at, static_cast<std::size_t>(slots), static_cast<std::size_t>(n));
  };
  const part re = view_at(base), im = view_at(base + values);
  using range = Kokkos::RangePolicy<ExecutionSpace>;
  const index_t nsys = fp.nsys;
  const auto rows = range(exec, 0, static_cast<typename range::member_type>(n));
  Kokkos::parallel_for(
      "bandsolve::thomas_pcr_factorization::solve(complex d, parts)", rows,
      KOKKOS_LAMBDA(const index_t i) {
        for (index_t s = 0; s < slots; ++s) {
          const auto z = at(d, s, i);
          at(re, s, i) = z.real();
          at(im, s, i) = z.imag();
        }
      });
  with_lanes<T, Layout>(fp.lanes, [&](auto lanes) {
    constexpr int LB = decltype(lanes)::value;
    partition_factored_launch<LB, Layout>(exec, fp, fp, f, re);
    partition_factored_launch<LB, Layout>(exec, fp, fp, f, im);
  });
  Kokkos::parallel_for(
      "bandsolve::thomas_pcr_factorization::solve(complex d, x)", rows,
      KOKKOS_LAMBDA(const index_t i) {
        for (index_t s = 0; s < nsys; ++s)
          at(d, s, i) = typename DView::non_const_value_type(at(re, s, i), at(im, s, i));
      });
  exec.fence();
}

// Lets factorize() build a factorization without making its members public.
struct thomas_pcr_factorization_access {
  template <class F, class Factors, class InfoView>
  static F make(const Factors& f, const InfoView& info, const partition_plan& plan) {
    return F(f, info, plan);
  }
};

}  // namespace detail

// The factors of the partition method for a batch (see partition_factor_kernel.hpp), stored per
// lane block whatever the input layout.
template <class Scalar, class Layout, class ExecutionSpace>
class thomas_pcr_factorization {
 public:
  using scalar_type = Scalar;
  using layout_type = Layout;
  using execution_space = ExecutionSpace;
  using memory_space = typename ExecutionSpace::memory_space;

  thomas_pcr_factorization() = default;

  std::size_t nsys() const { return static_cast<std::size_t>(plan_.nsys); }
  std::size_t n() const { return static_cast<std::size_t>(plan_.n); }
  // Per-system info codes of the factorization (0 = ok, i > 0 = bad pivot at row i).
  Kokkos::View<const int*, memory_space> info() const { return info_; }
  // Systems side by side in one lane block of the stored factors (1: one system per block).
  std::size_t lanes() const { return static_cast<std::size_t>(plan_.lanes); }
  // Bytes of the stored factors.
  std::size_t storage_bytes() const {
    return (4 * f_.mu.span() + 3 * f_.pi.span()) * sizeof(Scalar);
  }

  // Factors new matrices of the shape that was factored (the same rows and systems, Views of
  // Layout and Scalar) into this factorization's storage and lane blocks: no allocation. Same
  // factors and info codes as factorize; enqueued on exec, not fenced. Copies share the storage.
  // Blocks of several lanes (lanes() > 1) read systems that lie side by side: a, b and c must then
  // lay theirs side by side too (any row stride).
  template <class AView, class BView, class CView>
  void refactor(const ExecutionSpace& exec, const AView& a, const BView& b, const CView& c);

  // Solves for the right-hand sides in d (same layout and shape as the factored matrices), in
  // place. Enqueued on exec, not fenced. Systems whose info is not 0 get inf/NaN.
  template <class DView>
  void solve(const ExecutionSpace& exec, const DView& d) const {
    detail::factored_solve_static_checks<algo::thomas_pcr, ExecutionSpace, Layout, Scalar,
                                         DView>();
    const std::string fn = "bandsolve::thomas_pcr_factorization::solve";
    if (!initialized_)
      detail::throw_invalid_argument(fn, "this factorization is empty (default-constructed)");
    if (static_cast<index_t>(rows(d)) != plan_.n)
      detail::throw_invalid_argument(fn, "d has ", rows(d), " rows but the factorization has ",
                                     plan_.n);
    const index_t slots = static_cast<index_t>(capacity(d));
    constexpr index_t width = [] {
      if constexpr (detail::is_interleaved_layout_v<Layout>)
        return static_cast<index_t>(Layout::width);
      else
        return index_t(1);
    }();
    if (slots != (plan_.nsys + width - 1) / width * width)
      detail::throw_invalid_argument(fn, "d holds ", slots, " systems but the factorization has ",
                                     plan_.nsys);
    if (plan_.nsys == 0 || plan_.n == 0) return;
    if constexpr (is_complex_over_real_v<Scalar, typename DView::value_type>) {
      if (plan_.lanes > 1 && detail::lanes_adjacent(d))
        detail::partition_factored_parts_lanes<Layout>(exec, plan_, f_, d);
      else
        detail::partition_factored_parts_launch(exec, plan_, f_, d);
    } else if (plan_.lanes > 1 && detail::lanes_adjacent(d)) {
      // Factor blocks of several lanes read d's rows of a block as one run: d must lay its
      // systems side by side too; otherwise each system is its own block, reading its lane of
      // the factors.
      detail::with_lanes<Scalar, Layout>(plan_.lanes, [&](auto lanes) {
        constexpr int LB = decltype(lanes)::value;
        detail::partition_factored_launch<LB, Layout>(exec, plan_, plan_, f_, d);
      });
    } else {
      const detail::partition_plan single =
          detail::at_least_one_chunk(detail::make_partition_plan(plan_.n, plan_.nsys, 1, 1, plan_.M));
      detail::partition_factored_launch<1, Layout>(exec, single, plan_, f_, d);
    }
  }

 private:
  friend struct detail::thomas_pcr_factorization_access;
  using factors = detail::partition_factors<Scalar, memory_space>;

  // Members are built here, never assigned into default-constructed Views (see README).
  thomas_pcr_factorization(const factors& f, const Kokkos::View<int*, memory_space>& info,
                           const detail::partition_plan& plan)
      : f_(f), info_(info), plan_(plan), initialized_(true) {}

  factors f_;
  Kokkos::View<int*, memory_space> info_;
  detail::partition_plan plan_;
  bool initialized_ = false;
};

namespace detail {
// factorize(thomas_pcr) after its checks. A function of its own (not inside factorize, whose
// return type is deduced) for the extended lambdas of the launch.
template <class ExecutionSpace, class AView, class BView, class CView, class Result>
void thomas_pcr_factor(const ExecutionSpace& exec, const AView& a, const BView& b,
                       const CView& c, const partition_plan& plan,
                       const partition_factors<typename Result::scalar_type,
                                               typename Result::memory_space>& f,
                       const Kokkos::View<int*, typename Result::memory_space>& info) {
  using T = typename Result::scalar_type;
  using Layout = typename Result::layout_type;
  with_lanes<T, Layout>(plan.lanes, [&](auto lanes) {
    constexpr int LB = decltype(lanes)::value;
    partition_factor_launch<LB>(exec, plan, a, b, c, f.mu, f.r, f.cp, f.q, f.pi, f.sigma,
                                f.gamma, info);
  });
}
}  // namespace detail

template <class Scalar, class Layout, class ExecutionSpace>
template <class AView, class BView, class CView>
void thomas_pcr_factorization<Scalar, Layout, ExecutionSpace>::refactor(const ExecutionSpace& exec,
                                                                        const AView& a,
                                                                        const BView& b,
                                                                        const CView& c) {
  const std::string fn = "bandsolve::thomas_pcr_factorization::refactor";
  detail::check_refactor<algo::thomas_pcr, ExecutionSpace, Layout, Scalar>(
      fn, initialized_, a, b, c, plan_.n, plan_.nsys);
  if (plan_.lanes > 1 &&
      !(detail::lanes_adjacent(a) && detail::lanes_adjacent(b) && detail::lanes_adjacent(c)))
    detail::throw_invalid_argument(fn, "the factors are stored in blocks of ", plan_.lanes,
                                   " systems side by side, as a, b and c laid them; these do not");
  if (plan_.nsys > 0 && plan_.n > 0)
    detail::thomas_pcr_factor<ExecutionSpace, AView, BView, CView, thomas_pcr_factorization>(
        exec, a, b, c, plan_, f_, info_);
}

// Factorizes the matrices (a, b, c) of nsys systems for the partition method; nsys defaults to
// every slot of the Views (for interleaved packs, give the real number of systems to leave
// padding lanes out of info). Allocates the factors; enqueued on exec, not fenced.
template <class ExecutionSpace, class AView, class BView, class CView>
auto factorize(const ExecutionSpace& exec, algo::thomas_pcr, const AView& a, const BView& b,
               const CView& c, std::size_t nsys = static_cast<std::size_t>(-1)) {
  using Layout = layout_of_t<BView>;
  using T = typename BView::non_const_value_type;
  static_assert(Kokkos::is_execution_space<ExecutionSpace>::value,
                "bandsolve::factorize(thomas_pcr): the first argument must be a Kokkos execution "
                "space instance");
  static_assert(Kokkos::is_view<AView>::value && Kokkos::is_view<BView>::value &&
                    Kokkos::is_view<CView>::value,
                "bandsolve::factorize(thomas_pcr): a, b and c must be Kokkos::Views");
  static_assert(!std::is_same_v<Layout, unsupported_layout>,
                "bandsolve::factorize(thomas_pcr): " BANDSOLVE_SUPPORTED_VIEWS);
  static_assert(std::is_same_v<layout_of_t<AView>, Layout> &&
                    std::is_same_v<layout_of_t<CView>, Layout>,
                "bandsolve::factorize(thomas_pcr): a, b and c must use the same layout");
  static_assert(is_supported_scalar_v<T>,
                "bandsolve::factorize(thomas_pcr): the scalar type must be float, double, "
                "Kokkos::complex<float> or Kokkos::complex<double>");
  static_assert(std::is_same_v<typename AView::non_const_value_type, T> &&
                    std::is_same_v<typename CView::non_const_value_type, T>,
                "bandsolve::factorize(thomas_pcr): a, b and c must have the same scalar type");
  static_assert(
      Kokkos::SpaceAccessibility<ExecutionSpace, typename AView::memory_space>::accessible &&
          Kokkos::SpaceAccessibility<ExecutionSpace, typename BView::memory_space>::accessible &&
          Kokkos::SpaceAccessibility<ExecutionSpace, typename CView::memory_space>::accessible,
      "bandsolve::factorize(thomas_pcr): the Views must be accessible from the execution space");
  static_assert(!std::is_same_v<backend::default_for_t<ExecutionSpace>, backend::device>,
                "bandsolve::factorize(thomas_pcr): host execution spaces only (serial, OpenMP); "
                "on a device use factorize(exec, algo::thomas{}, ...)");
  using result_type = thomas_pcr_factorization<T, Layout, ExecutionSpace>;
  using Memory = typename result_type::memory_space;
  constexpr std::size_t width = [] {
    if constexpr (detail::is_interleaved_layout_v<Layout>)
      return static_cast<std::size_t>(Layout::width);
    else
      return std::size_t(1);
  }();
  const std::string fn = "bandsolve::factorize(thomas_pcr)";
  detail::check_same_shape(fn, "a", a, "b", b);
  detail::check_same_shape(fn, "c", c, "b", b);
  detail::check_rows_fit_int(fn, rows(b));
  const std::size_t slots = capacity(b);
  if (nsys == static_cast<std::size_t>(-1)) nsys = slots;
  if (width > 1 ? (nsys + width - 1) / width != b.extent(0) : nsys != slots)
    detail::throw_invalid_argument(fn, "nsys = ", nsys, " does not match the ", slots,
                                   " system slots of b (", Layout::name, " layout)");
  const index_t n = static_cast<index_t>(rows(b)), ns = static_cast<index_t>(nsys);
  const bool side_by_side =
      detail::lanes_adjacent(a) && detail::lanes_adjacent(b) && detail::lanes_adjacent(c);
  const detail::partition_plan plan = detail::factor_plan<T, Layout>(side_by_side, n, ns);
  const std::size_t row_values = static_cast<std::size_t>(plan.blocks) *
                                 static_cast<std::size_t>(n) *
                                 static_cast<std::size_t>(plan.lanes);
  const std::size_t chunk_values = static_cast<std::size_t>(plan.blocks) *
                                   static_cast<std::size_t>(n > 0 ? plan.P : 0) *
                                   static_cast<std::size_t>(plan.lanes);
  const auto make = [&](const char* label, std::size_t size) {
    return detail::allocate_zeroed<Kokkos::View<T*, Memory>>(exec, label, size);
  };
  const detail::partition_factors<T, Memory> f{
      make("bandsolve::thomas_pcr mu", row_values),   make("bandsolve::thomas_pcr r", row_values),
      make("bandsolve::thomas_pcr c'", row_values),   make("bandsolve::thomas_pcr q", row_values),
      make("bandsolve::thomas_pcr pi", chunk_values), make("bandsolve::thomas_pcr sigma", chunk_values),
      make("bandsolve::thomas_pcr gamma", chunk_values)};
  const Kokkos::View<int*, Memory> info(
      Kokkos::view_alloc(exec, std::string("bandsolve::thomas_pcr info")), nsys);
  auto result = detail::thomas_pcr_factorization_access::make<result_type>(f, info, plan);
  if (ns > 0 && n > 0)
    detail::thomas_pcr_factor<ExecutionSpace, AView, BView, CView, result_type>(exec, a, b, c,
                                                                                plan, f, info);
  return result;
}

}  // namespace bandsolve
