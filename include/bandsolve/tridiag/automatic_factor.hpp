#pragma once
// algo::automatic's factored form: factor once with the algorithm the batch's shape calls for.
//
//   auto f = bandsolve::factorize(exec, bandsolve::algo::automatic{}, a, b, c[, nsys]);
//   f.solve(exec, d);   // any number of times; f.info() holds the factorization's codes; d of
//                       // the factored type, or Kokkos::complex of it over real factors
//   f.choice();         // what was picked (tridiag_choice::thomas or thomas_pcr)
//   f.refactor(exec, a2, b2, c2);  // new matrices of the same shape, into the picked one's storage
//   bandsolve::choose_factored_tridiag<Layout, T>(nsys, n, threads)   // what it would pick
//
// Host backends (serial, openmp_simd), float, double and their Kokkos::complex: an
// automatic_factorization that holds Thomas's factorization or the Thomas-PCR hybrid's
// (thomas_pcr_factor.hpp), by the rule below. automatic{true} (symmetric positive definite
// matrices, a[i] = c[i-1]; real scalars) stores algo::symmetric's factors (b and c only; a is not
// read) where the rule picks Thomas, with that algorithm's info contract (its long rows run as
// scans as Thomas's do: symmetric_scan_sweep.hpp). The device backend has
// one factored solve, Thomas's: factorize(exec, algo::automatic{}, ...) returns
// factorize(exec, algo::thomas{}, ...) there.
//
// The rule (choose_factored_tridiag): Thomas's factored solve streams 3 factors and d per unknown
// (5 words with x), the partition method's 8 (d twice, its 4 factor arrays once), so Thomas wins
// wherever a batch fills one of its work items (its factor pack, thomas_factor_pack_width: 32
// doubles or 64 floats in row and strided layouts, 16 gathered floats of more than 256 rows and
// 8 gathered doubles of more than 2^16 rows (from 2^16 where the register sweeps are built, from
// 256 where the host also takes tiles: register_double_tiles), 64 / 128 in column, 32 / 64 in
// interleaved packs). With
// fewer systems Thomas stores one system per pack (row, column, strided: scalar sweeps, each
// system on one thread) or leaves lanes of its only pack empty (interleaved), and the partition
// method, which splits every system into chunks for the threads and lanes, takes over (at least
// two chunks of rows, more than detail::inline_solve_unknowns unknowns). Measured at
// nsys = 2^24 / n on 2 threads of an AMD EPYC (AVX-512), fraction of an in-program stream,
// Thomas / partition: row doubles 0.60 / 0.46 at 32 systems, 0.27 / 0.37 at 16; row floats
// 0.53 / 0.27 at 64, 0.14 / 0.28 at 32; column doubles 1.10 / 0.50 at 64, 0.19 / 0.63 at 32;
// column floats 1.18 / 0.49 at 128, 0.07 / 0.48 at 64; strided doubles 0.56 / 0.37 at 32,
// 0.22 / 0.46 at 16; interleaved<16> floats 0.56 / 0.41 at 64, 0.34 / 0.44 at 16;
// interleaved<8> doubles 0.40 / 0.34 at 16 (the one cell the rule gives away), 0.16 / 0.19 at 4
// (docs/performance.md, "Factored solve of few long systems"). Gathered floats in packs of 16
// (2-vCPU Intel Xeon): row 0.24-0.26 / 0.19-0.22 at 16 systems of 2^20 rows, 0.10 / 0.19-0.22
// at 4 systems; strided alike.
#include <bandsolve/tridiag/automatic.hpp>
#include <bandsolve/tridiag/symmetric.hpp>
#include <bandsolve/tridiag/thomas.hpp>
#include <bandsolve/tridiag/thomas_pcr_factor.hpp>

#include <cstddef>
#include <string>
#include <type_traits>

namespace bandsolve {

// The factored solve factorize(exec, algo::automatic{}, ...) picks for nsys systems of n rows in
// Layout, scalar T, on an execution space with `threads` threads (host backends); lane_rows:
// the rows of a, b and c are lane-contiguous (column, interleaved, strided with unit system
// stride), which decides Thomas's factor packs (detail::thomas_factor_pack_width).
template <class Layout, class T>
tridiag_choice choose_factored_tridiag(std::size_t nsys, std::size_t n, int threads,
                                       bool lane_rows = !std::is_same_v<Layout, layout::row>) {
  // Systems of Thomas's work item: its factor pack for a batch that fills one.
  const std::size_t thomas_lanes = static_cast<std::size_t>(detail::thomas_factor_pack_width<
      Layout, T>(static_cast<std::size_t>(-1), static_cast<index_t>(n), lane_rows));
  // The partition method needs two chunks per system to split anything.
  if (n < 2 * static_cast<std::size_t>(thomas_pcr_shape<T>::chunk_rows))
    return tridiag_choice::thomas;
  // Small batches run on the calling thread (tiny_launch.hpp): no launch beats that.
  if (nsys * n <= static_cast<std::size_t>(detail::inline_solve_unknowns))
    return tridiag_choice::thomas;
  // Long real rows with unit stride: Thomas's scans (thomas_scan_sweep.hpp) stream every array
  // front to back at any number of systems (row doubles, 2^24 unknowns, 2 threads, ns per unknown,
  // scans / partition method: 4 systems of 2^22 rows 0.70-0.74 / 1.71-1.73, one of 2^24 on one
  // thread 1.50 / 1.74 on two; floats 0.38 / 1.53-2.12).
  if (detail::thomas_scan_rows<Layout, T>(static_cast<index_t>(n), lane_rows, true))
    return tridiag_choice::thomas;
  // Complex systems whose rows are contiguous (row layout, strided rows): the partition method
  // where Thomas leaves threads idle, and for up to 32 systems (Thomas's row packs hold one
  // system each below 16, and 16 systems are one pack, on one thread). Complex double, 2
  // threads, 2^21 unknowns, row layout, ns per unknown Thomas / partition: 1 system 11.1-11.4 /
  // 3.5-3.9, 8: 5.7-5.9 / 3.4-3.7, 16: 5.6-6.1 / 3.4-4.6, 32: 3.1-4.3 / 3.4-4.0, 64: 3.2-4.0 /
  // 3.4-3.9, 128: 3.0-3.4 / 3.6-4.5 (bench/results/epyc-zen5-2vcpu/
  // complex_factored_crossover_run{1,2}.json, complex_row_parts_after_run{1,2,3}.json).
  // Lane-contiguous rows (column, interleaved, strided side by side) take the real rule below,
  // the partition passes running on the values' parts: column 2 to 16 systems 5.3-8.5 / 2.3-3.4,
  // 32: 2.9-3.1 / 2.7-3.4, 64: 2.0-2.2 / 2.5-3.4; interleaved<8> 4 systems 9.9-10.4 / 5.1-6.7,
  // 16: 2.5-2.9 / 2.5-3.2, 64: 1.4-1.8 / 2.5-3.3
  // (bench/results/epyc-zen5-2vcpu/complex_side_by_side_after_run{1,2}.json).
  if constexpr (is_complex_v<T>) {
    if (!lane_rows) {
      const bool idle_threads = nsys < static_cast<std::size_t>(threads > 0 ? threads : 1);
      return idle_threads || nsys <= 32 ? tridiag_choice::thomas_pcr : tridiag_choice::thomas;
    }
  }
  // Column batches that give every thread a pack of 32 lanes (column_mid_packing): Thomas (64
  // column systems of 2^18 rows, 2 threads, 2-vCPU Intel Xeon, fraction of STREAM: floats
  // 0.77-0.78 against the partition method's 0.48; doubles took Thomas before, 0.38-0.40 in
  // packs of 8, 0.77-0.79 in packs of 32).
  if constexpr (detail::has_mid_factor_packs_v<Layout, T,
                                               detail::sweep_packing<Layout, T>::L>) {
    const std::size_t team = static_cast<std::size_t>(threads > 1 ? threads : 1);
    if (lane_rows && nsys >= detail::column_mid_packing<T>::L * team)
      return tridiag_choice::thomas;
  }
  // Otherwise the crossover is a property of the pack, measured on 2 threads (above).
  return nsys < thomas_lanes ? tridiag_choice::thomas_pcr : tridiag_choice::thomas;
}

// A factorization of either kind, with the interface of both (thomas_factorization and
// thomas_pcr_factorization): nsys(), n(), info(), storage_bytes(), solve(exec, d).
template <class Scalar, class Layout, class ExecutionSpace>
class automatic_factorization {
 public:
  using scalar_type = Scalar;
  using layout_type = Layout;
  using execution_space = ExecutionSpace;
  using memory_space = typename ExecutionSpace::memory_space;
  using thomas_type = thomas_factorization<Scalar, Layout, ExecutionSpace>;
  using symmetric_type = symmetric_factorization<Scalar, Layout, ExecutionSpace>;
  using hybrid_type = thomas_pcr_factorization<Scalar, Layout, ExecutionSpace>;

  automatic_factorization() = default;
  explicit automatic_factorization(const thomas_type& f)
      : thomas_(f), kind_(kind::thomas), initialized_(true) {}
  explicit automatic_factorization(const symmetric_type& f)
      : symmetric_(f), kind_(kind::symmetric), initialized_(true) {}
  explicit automatic_factorization(const hybrid_type& f)
      : hybrid_(f), kind_(kind::hybrid), initialized_(true) {}

  // Thomas (also for the symmetric form) or the Thomas-PCR hybrid.
  tridiag_choice choice() const {
    return kind_ == kind::hybrid ? tridiag_choice::thomas_pcr : tridiag_choice::thomas;
  }
  // Whether algo::symmetric's factors are stored (automatic{true} where Thomas was picked).
  bool symmetric() const { return kind_ == kind::symmetric; }
  std::size_t nsys() const { return visit([](const auto& f) { return f.nsys(); }); }
  std::size_t n() const { return visit([](const auto& f) { return f.n(); }); }
  // Per-system info codes of the factorization (0 = ok, i > 0 = the stored algorithm's code).
  Kokkos::View<const int*, memory_space> info() const {
    return visit([](const auto& f) { return f.info(); });
  }
  std::size_t storage_bytes() const { return visit([](const auto& f) { return f.storage_bytes(); }); }

  // Factors new matrices of the shape that was factored into the storage of the factorization
  // that was picked (its refactor: Thomas's, the hybrid's, or the symmetric one's from b and c).
  // Enqueued on exec, not fenced.
  template <class AView, class BView, class CView>
  void refactor(const ExecutionSpace& exec, const AView& a, const BView& b, const CView& c) {
    if (!initialized_)
      detail::throw_invalid_argument("bandsolve::automatic_factorization::refactor",
                                     "this factorization is empty (default-constructed)");
    if (kind_ == kind::hybrid) hybrid_.refactor(exec, a, b, c);
    else if (kind_ == kind::thomas) thomas_.refactor(exec, a, b, c);
    else if constexpr (!is_complex_v<Scalar>) symmetric_.refactor(exec, b, c);
  }

  // Solves for the right-hand sides in d (same layout and shape as the factored matrices, of the
  // factored scalar type, or its Kokkos::complex over real factors), in place. Enqueued on exec,
  // not fenced.
  template <class DView>
  void solve(const ExecutionSpace& exec, const DView& d) const {
    detail::factored_solve_static_checks<algo::automatic, ExecutionSpace, Layout, Scalar,
                                         DView>();
    if (!initialized_)
      detail::throw_invalid_argument("bandsolve::automatic_factorization::solve",
                                     "this factorization is empty (default-constructed)");
    visit([&](const auto& f) { f.solve(exec, d); });
  }

 private:
  enum class kind { thomas, symmetric, hybrid };

  template <class F>
  decltype(auto) visit(const F& f) const {
    if (kind_ == kind::hybrid) return f(hybrid_);
    if (kind_ == kind::symmetric) return f(symmetric_);
    return f(thomas_);
  }

  thomas_type thomas_;
  symmetric_type symmetric_;
  hybrid_type hybrid_;
  kind kind_ = kind::thomas;
  bool initialized_ = false;
};

// Factorizes (a, b, c) of nsys systems with the algorithm choose_factored_tridiag picks; nsys
// defaults to every slot of the Views (for interleaved packs, give the real number of systems).
// Same Views and checks as factorize(exec, algo::thomas{}, ...); enqueued on exec, not fenced.
template <class ExecutionSpace, class AView, class BView, class CView>
auto factorize(const ExecutionSpace& exec, algo::automatic alg, const AView& a, const BView& b,
               const CView& c, std::size_t nsys = static_cast<std::size_t>(-1)) {
  using T = typename BView::non_const_value_type;
  using Layout = layout_of_t<BView>;
  if constexpr (std::is_same_v<backend::default_for_t<ExecutionSpace>, backend::device>) {
    return factorize(exec, algo::thomas{}, a, b, c, nsys);
  } else {
    using result_type = automatic_factorization<T, Layout, ExecutionSpace>;
    detail::tridiag_static_checks<algo::automatic, ExecutionSpace, BView, AView, BView, CView>();
    // The checks of the algorithm picked run in its factorize; the rule needs only the counts.
    const std::size_t systems = nsys == static_cast<std::size_t>(-1) ? capacity(b) : nsys;
    const bool lanes = detail::uses_lane_rows<Layout>(a) && detail::uses_lane_rows<Layout>(b) &&
                       detail::uses_lane_rows<Layout>(c);
    bool hybrid = choose_factored_tridiag<Layout, T>(systems, rows(b),
                                                     detail::concurrency_of(exec), lanes) ==
                  tridiag_choice::thomas_pcr;
    // As in the one-shot rule: strided Views go to the hybrid only when their systems lie side by
    // side or their rows are contiguous.
    if constexpr (std::is_same_v<Layout, layout::strided>)
      if (hybrid && !(detail::lanes_adjacent(a) && detail::lanes_adjacent(b) &&
                      detail::lanes_adjacent(c)) &&
          !(a.stride(1) == 1 && b.stride(1) == 1 && c.stride(1) == 1))
        hybrid = false;
    if (hybrid) return result_type(factorize(exec, algo::thomas_pcr{}, a, b, c, nsys));
    // (algo::symmetric takes a real diagonal; its long rows run as scans as Thomas's do.)
    if constexpr (!is_complex_v<T>)
      if (alg.symmetric) return result_type(factorize(exec, algo::symmetric{}, b, c, nsys));
    return result_type(factorize(exec, algo::thomas{}, a, b, c, nsys));
  }
}

}  // namespace bandsolve
