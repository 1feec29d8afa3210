// The truncated spikes of float systems with contiguous rows (tridiag/spike_rows.hpp), with the
// register sweeps switched on whatever the CPU (by default they are compiled only where AVX-512
// is enabled, which the test builds are not). Lowered to chunks of 64 rows with tips of 16
// (defaults 512 and 48): systems whose coupling decays within the tips (random_dominant with a
// and c scaled by 1e-3), row layout and strided views with contiguous rows (a slice of a bigger
// array whose other slice must stay untouched); nsys a block of 16, 16 + 3 and 35 (a last block
// of 3 systems), 9 (one partial block), and 1, 3, 4 and 5 systems cut into 16, 4, 4 and 2
// segments (lanes), n a multiple of the chunk and not (the last chunk of each lane longer), a[0]
// and c[n-1] holding values that must be ignored; a chunk that fails the checks (weakly dominant
// rows: solved directly in pass 2), and info of a zero or NaN row in and beside the tips and at
// the ends of segments. LAPACK ?gtsv as the reference. Which shapes the path takes:
// spike_rows_host_solve called directly.
#define BANDSOLVE_REGISTER_SWEEPS 1
#include "pcr_support.hpp"
#include "test_support.hpp"

#include <bandsolve/bandsolve.hpp>

#include <catch2/catch_all.hpp>

#include <algorithm>
#include <limits>
#include <utility>
#include <vector>

namespace test_spike_rows {
namespace {

namespace bl = bandsolve::layout;
namespace det = bandsolve::detail;
using bandsolve::index_t;

// Chunks of 64 rows with tips of 16 while a test runs.
struct small_chunks {
  index_t rows = det::spike_chunk_rows, tips = det::spike_tip_rows;
  small_chunks() {
    det::spike_chunk_rows = 64;
    det::spike_tip_rows = 16;
  }
  ~small_chunks() {
    det::spike_chunk_rows = rows;
    det::spike_tip_rows = tips;
  }
};

// Every row's off-diagonals scaled by 1e-3 but rows [i0, i1) of system weak_s, which get
// a = c = -1, b = 2.05: their spikes still hold about 0.006 after the 16 tip rows.
template <class T>
bstest::host_batch<T> strong(bstest::host_batch<T> p, std::size_t weak_s = 0,
                             std::size_t i0 = 0, std::size_t i1 = 0) {
  for (std::size_t s = 0; s < p.nsys; ++s)
    for (std::size_t i = 0; i < p.n; ++i) {
      const std::size_t k = p.idx(s, i);
      if (s == weak_s && i >= i0 && i < i1) {
        p.a[k] = i == 0 ? T(0) : T(-1);
        p.c[k] = i + 1 == p.n ? T(0) : T(-1);
        p.b[k] = T(2.05);
      } else {
        p.a[k] *= T(1e-3);
        p.c[k] *= T(1e-3);
      }
    }
  return p;
}

// Slice 1 of an nsys x 2 x n LayoutRight array: rows contiguous, systems 2 n apart.
template <class Mem, class T>
Kokkos::View<T**, Kokkos::LayoutStride, Mem> row_slice(
    const Kokkos::View<T***, Kokkos::LayoutRight, Mem>& big, const std::vector<T>& h,
    std::size_t nsys) {
  Kokkos::View<T**, Kokkos::LayoutStride, Mem> v = Kokkos::subview(big, Kokkos::ALL, 1,
                                                                   Kokkos::ALL);
  bstest::fill(v, h, nsys);
  return v;
}

}  // namespace

#if BANDSOLVE_HAS_SIMD_TRANSPOSE
TEST_CASE("row spikes solve float rows and strided rows as LAPACK does",
          "[thomas_pcr][spike][lapack]") {
  using T = float;
  const small_chunks chunks;
  bstest::for_each_exec([&](auto exec) {
    using Exec = decltype(exec);
    using Mem = typename Exec::memory_space;
    std::uint32_t seed = 17000;
    auto run = [&](const char* what, const bstest::host_batch<T>& p,
                   const std::vector<int>& expected) {
      INFO(what << ", " << bstest::exec_name<Exec>() << ", n = " << p.n << ", nsys = " << p.nsys);
      const auto ref = bstest::reference_solve(p);
      const bstest::host_batch<T> q = bstest::with_ignored_ends(p);
      const auto check = [&](auto d, auto info) {
        bstest::check_reduction_solve(p, ref, expected, d, info);
      };
      {  // the path itself
        auto D = bstest::upload<bl::row, Exec>(q);
        auto info = bstest::make_info<Mem>(p.nsys);
        REQUIRE(det::spike_rows_host_solve(exec, "test", D.a, D.b, D.c, D.d, info,
                                           static_cast<index_t>(p.nsys),
                                           static_cast<index_t>(p.n)));
        exec.fence();
        check(D.d, info);
      }
      {  // through the public solve
        auto D = bstest::upload<bl::row, Exec>(q);
        auto info = bstest::make_info<Mem>(p.nsys);
        bandsolve::solve(exec, bandsolve::algo::thomas_pcr{}, D.a, D.b, D.c, D.d, info);
        exec.fence();
        check(D.d, info);
      }
      {  // strided rows; slice 0 is not the solver's to write
        using Big = Kokkos::View<T***, Kokkos::LayoutRight, Mem>;
        Big ba("big a", p.nsys, 2, p.n), bb("big b", p.nsys, 2, p.n), bc("big c", p.nsys, 2, p.n),
            bd("big d", p.nsys, 2, p.n);
        Kokkos::deep_copy(bd, T(3));
        const auto a = row_slice<Mem>(ba, q.a, p.nsys), b = row_slice<Mem>(bb, q.b, p.nsys),
                   c = row_slice<Mem>(bc, q.c, p.nsys), d = row_slice<Mem>(bd, q.d, p.nsys);
        auto info = bstest::make_info<Mem>(p.nsys);
        REQUIRE(det::spike_rows_host_solve(exec, "test", a, b, c, d, info,
                                           static_cast<index_t>(p.nsys),
                                           static_cast<index_t>(p.n)));
        exec.fence();
        check(d, info);
        using Sub = Kokkos::View<T**, Kokkos::LayoutStride, Mem>;
        const auto other = bstest::to_host(Sub(Kokkos::subview(bd, Kokkos::ALL, 0, Kokkos::ALL)),
                                           p.nsys);
        CHECK(std::all_of(other.begin(), other.end(), [](T v) { return v == T(3); }));
      }
    };
    const std::pair<std::size_t, std::size_t> shapes[] = {
        {16, 256}, {16, 272}, {16, 400}, {19, 256}, {19, 272}, {19, 400}, {35, 272},
        {35, 400}, {9, 256},  {3, 1024}, {4, 1024}, {5, 1056}, {1, 4096}};
    for (const auto& [nsys, n] : shapes) {
      run("strong", strong(bstest::random_dominant<T>(nsys, n, seed++)),
          std::vector<int>(nsys, 0));
      // one chunk of the last system weakly dominant (not the chunk the decay is sampled on):
      // its item's chunk solved directly
      run("one weak chunk",
          strong(bstest::random_dominant<T>(nsys, n, seed++), nsys - 1, 192, 256),
          std::vector<int>(nsys, 0));
    }
    // A zero row or a NaN diagonal in system 1 of 17, and of 3 (4 segments of 256 rows):
    // rows in the top and bottom tips of a chunk, between them, at the ends of segments, and the
    // first and last rows of the systems. Thomas's LU pivot row.
    const auto bad_row = [&](std::size_t nsys, std::size_t n, std::size_t row, bool nan) {
      auto p = strong(bstest::random_dominant<T>(nsys, n, seed++));
      const std::size_t k = p.idx(1, row);
      if (nan)
        p.b[k] = std::numeric_limits<T>::quiet_NaN();
      else
        p.a[k] = p.b[k] = p.c[k] = T(0);
      std::vector<int> expected(nsys, 0);
      expected[1] = static_cast<int>(row + 1);
      run(nan ? "NaN" : "zero row", p, expected);
    };
    for (bool nan : {false, true}) {
      for (std::size_t row : {0, 2, 64, 70, 100, 127, 128, 200, 271}) bad_row(17, 272, row, nan);
      for (std::size_t row : {0, 2, 255, 256, 300, 511, 767, 768, 1023})
        bad_row(3, 1024, row, nan);
    }
  });
}

TEST_CASE("row spikes take only the shapes they serve", "[thomas_pcr][spike]") {
  const small_chunks chunks;
  using Exec = Kokkos::DefaultHostExecutionSpace;
  using Mem = Exec::memory_space;
  const Exec exec;
  const auto takes = [&](auto p) {
    auto D = bstest::upload<bl::row, Exec>(p);
    auto info = bstest::make_info<Mem>(p.nsys);
    return det::spike_rows_host_solve(exec, "test", D.a, D.b, D.c, D.d, info,
                                      static_cast<index_t>(p.nsys), static_cast<index_t>(p.n));
  };
  CHECK(takes(strong(bstest::random_dominant<float>(16, 256, 1))));
  CHECK(takes(strong(bstest::random_dominant<float>(9, 256, 2))));  // more than half a block
  CHECK(takes(strong(bstest::random_dominant<float>(4, 1024, 2))));  // 4 segments of 256 rows
  // half a block or less, and rows too few to cut into segments of four chunks
  CHECK_FALSE(takes(strong(bstest::random_dominant<float>(8, 256, 2))));
  CHECK_FALSE(takes(strong(bstest::random_dominant<float>(4, 512, 2))));
  CHECK_FALSE(takes(strong(bstest::random_dominant<float>(16, 264, 3))));  // n not a multiple
  CHECK_FALSE(takes(strong(bstest::random_dominant<float>(16, 192, 4))));  // under four chunks
  CHECK_FALSE(takes(strong(bstest::random_dominant<double>(16, 256, 5))));  // doubles: hybrid
  // a Laplacian line: no decay in the sampled chunk
  bstest::host_batch<float> lap(16, 256);
  for (std::size_t k = 0; k < lap.a.size(); ++k) {
    lap.a[k] = lap.c[k] = -1;
    lap.b[k] = 2;
    lap.d[k] = 1;
  }
  CHECK_FALSE(takes(lap));
}
#endif

}  // namespace test_spike_rows
