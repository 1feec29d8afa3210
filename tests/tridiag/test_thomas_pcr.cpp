// The Thomas-PCR hybrid in depth: every n = 1..70 in every layout, systems of many chunks (full
// and partial SIMD groups, the last chunk longer), info codes at chunk boundaries, and the
// device-callable per-system form inside a user's own kernel (the example of its use), and the
// factorization of the partition method (factorize(thomas_pcr)) and the factored automatic
// choice between it and Thomas's (factorize(automatic)).
#include "pcr_support.hpp"

#include <bandsolve/bandsolve.hpp>

#include <catch2/catch_all.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <tuple>
#include <type_traits>
#include <vector>

namespace test_thomas_pcr {  // units compile in groups: tests/CMakeLists.txt

namespace bl = bandsolve::layout;
using bandsolve::index_t;
using bandsolve::system_rows;
using bstest::host_batch;

namespace {

using layout_scalar_list =
    std::tuple<std::tuple<bl::row, float>, std::tuple<bl::row, double>,
               std::tuple<bl::column, float>, std::tuple<bl::column, double>,
               std::tuple<bl::interleaved<1>, float>, std::tuple<bl::interleaved<4>, double>,
               std::tuple<bl::interleaved<8>, double>, std::tuple<bl::interleaved<16>, float>>;

// Solves every system of p with the per-system form inside a TeamPolicy kernel (one team per
// system, as many threads as the backend gives), chunks of ChunkRows rows, Lanes per group.
template <int Lanes, int ChunkRows, class Exec, class T>
std::pair<std::vector<T>, std::vector<int>> team_solve(Exec exec, const host_batch<T>& p) {
  using Mem = typename Exec::memory_space;
  using Layout = bl::row;
  auto a = bstest::to_device<Layout, T, Mem>("a", p.a, p.nsys, p.n);
  auto b = bstest::to_device<Layout, T, Mem>("b", p.b, p.nsys, p.n);
  auto c = bstest::to_device<Layout, T, Mem>("c", p.c, p.nsys, p.n);
  auto d = bstest::to_device<Layout, T, Mem>("d", p.d, p.nsys, p.n);
  Kokkos::View<int*, Mem> info("info", p.nsys);
  const index_t n = static_cast<index_t>(p.n);
  using policy = Kokkos::TeamPolicy<Exec>;
  const int team_size = static_cast<int>(exec.concurrency());
  using shape = bandsolve::detail::thomas_pcr_layout<T, Lanes, ChunkRows>;
  const std::size_t bytes = static_cast<std::size_t>(shape::workspace(n, team_size)) * sizeof(T);
  Kokkos::parallel_for(
      policy(exec, static_cast<int>(p.nsys), team_size).set_scratch_size(1, Kokkos::PerTeam(bytes)),
      KOKKOS_LAMBDA(const typename policy::member_type& team) {
        const index_t s = team.league_rank();
        T* work = static_cast<T*>(team.team_scratch(1).get_shmem(bytes));
        const int code = bandsolve::detail::thomas_pcr_solve_shaped<Lanes, ChunkRows>(
            team, n, system_rows<const T>(&a(s, 0), 1), system_rows<const T>(&b(s, 0), 1),
            system_rows<const T>(&c(s, 0), 1), system_rows<T>(&d(s, 0), 1), work);
        if (team.team_rank() == 0) info(s) = code;
      });
  exec.fence();
  return {bstest::to_host(d, p.nsys), bstest::info_to_host(info)};
}

// Fills the padding lanes of an interleaved<8> batch's last pack (nsys systems of n rows) with a
// NaN sentinel; padding_of returns those lanes' values, to compare bit for bit after a solve.
template <class DView>
void fill_padding_with_nan(const DView& d, std::size_t nsys, std::size_t n) {
  using T = typename DView::non_const_value_type;
  auto m = Kokkos::create_mirror_view(d);
  Kokkos::deep_copy(m, d);
  const std::size_t last = d.extent(0) - 1;
  for (std::size_t l = nsys - last * 8; l < 8; ++l)
    for (std::size_t i = 0; i < n; ++i) m(last, i, l) = std::numeric_limits<T>::quiet_NaN();
  Kokkos::deep_copy(d, m);
}

template <class DView>
auto padding_of(const DView& d, std::size_t nsys, std::size_t n) {
  const auto raw = bstest::raw_copy(d);
  std::vector<typename DView::non_const_value_type> pad;
  const std::size_t last = d.extent(0) - 1;
  for (std::size_t l = nsys - last * 8; l < 8; ++l)
    for (std::size_t i = 0; i < n; ++i) pad.push_back(raw[(last * n + i) * 8 + l]);
  return pad;
}

// h (system s, row i at s n + i) as slice 1 of a column-major (nsys, 2, n) array: unit system
// stride, rows 2 nsys apart.
template <class Mem, class T>
Kokkos::View<T**, Kokkos::LayoutStride, Mem> column_major_slice(const char* label,
                                                                const std::vector<T>& h,
                                                                std::size_t nsys, std::size_t n) {
  Kokkos::View<T***, Kokkos::LayoutLeft, Mem> big(std::string(label), nsys, 2, n);
  Kokkos::View<T**, Kokkos::LayoutStride, Mem> v = Kokkos::subview(big, Kokkos::ALL, 1,
                                                                   Kokkos::ALL);
  bstest::fill(v, h, nsys);
  return v;
}

}  // namespace

TEMPLATE_LIST_TEST_CASE("thomas_pcr solves every n = 1..70 in every layout",
                        "[thomas_pcr][lapack]", layout_scalar_list) {
  using Layout = std::tuple_element_t<0, TestType>;
  using T = std::tuple_element_t<1, TestType>;
  bstest::for_each_exec([&](auto exec) {
    using Exec = decltype(exec);
    std::uint32_t seed = 3000;
    // nsys = 1: a team per system; 19: SIMD across systems with a partial pack.
    for (std::size_t nsys : {std::size_t(1), std::size_t(19)})
      for (std::size_t n = 1; n <= 70; ++n) {
        INFO(bstest::layout_name<Layout>() << ", " << bstest::exec_name<Exec>() << ", n = " << n
                                           << ", nsys = " << nsys);
        const auto p = bstest::random_dominant<T>(nsys, n, seed++);
        auto D = bstest::upload<Layout, Exec>(p);
        auto info = bstest::make_info<typename Exec::memory_space>(nsys);
        bandsolve::solve(exec, bandsolve::algo::thomas_pcr{}, D.a, D.b, D.c, D.d, info);
        exec.fence();
        CHECK(bstest::info_to_host(info) == std::vector<int>(nsys, 0));
        CHECK(bstest::max_rel_diff(bstest::to_host(D.d, nsys), bstest::reference_solve(p), nsys,
                                   n) <= bstest::reduction_tol<T>(n));
      }
  });
}

// The device backend's hybrid (solve(..., backend::device{}), the default on Kokkos::Cuda) on
// the host spaces: a thread per system for full batches, Thomas's chunk method over many teams
// for few long systems (forced here by lowering its thresholds, with 4-row chunks so that short
// systems have several levels); info agreed with Thomas's LU pivots as on the host.
#if BANDSOLVE_TESTS_DEVICE_BACKEND
TEMPLATE_TEST_CASE("thomas_pcr on the device backend", "[thomas_pcr][device]", float, double) {
  using T = TestType;
  namespace dev = bandsolve::detail::device;
  const auto saved = std::make_tuple(dev::long_system_min_rows, dev::long_system_fill,
                                     dev::long_chunk_rows);
  bstest::for_each_exec([&](auto exec) {
    using Exec = decltype(exec);
    std::uint32_t seed = 9000;
    for (const bool chunks : {false, true}) {
      dev::long_system_min_rows = chunks ? 0 : std::get<0>(saved);
      dev::long_system_fill = chunks ? 0 : std::get<1>(saved);
      dev::long_chunk_rows = chunks ? 4 : std::get<2>(saved);
      for (std::size_t nsys : {std::size_t(1), std::size_t(3), std::size_t(37)})
        for (std::size_t n : {std::size_t(1), std::size_t(2), std::size_t(3), std::size_t(17),
                              std::size_t(130)}) {
          INFO(bstest::exec_name<Exec>() << (chunks ? ", chunks" : ", a thread per system")
                                         << ", n = " << n << ", nsys = " << nsys);
          const auto p = bstest::random_dominant<T>(nsys, n, seed++);
          auto D = bstest::upload<bl::column, Exec>(p);
          auto info = bstest::make_info<typename Exec::memory_space>(nsys);
          bandsolve::solve(exec, bandsolve::algo::thomas_pcr{}, D.a, D.b, D.c, D.d, info,
                           bandsolve::backend::device{});
          exec.fence();
          CHECK(bstest::info_to_host(info) == std::vector<int>(nsys, 0));
          CHECK(bstest::max_rel_diff(bstest::to_host(D.d, nsys), bstest::reference_solve(p), nsys,
                                     n) <= bstest::reduction_tol<T>(n));
        }
      // A zero row: Thomas's LU pivot row, whichever chunk it falls in.
      for (std::size_t row : {0, 1, 5, 8, 40}) {
        INFO(bstest::exec_name<Exec>() << (chunks ? ", chunks" : ", a thread per system")
                                       << ", zero row " << row);
        auto p = bstest::random_dominant<T>(2, 41, seed++);
        const std::size_t k = p.idx(1, row);
        p.a[k] = p.b[k] = p.c[k] = T(0);
        auto D = bstest::upload<bl::row, Exec>(p);
        auto info = bstest::make_info<typename Exec::memory_space>(2);
        bandsolve::solve(exec, bandsolve::algo::thomas_pcr{}, D.a, D.b, D.c, D.d, info,
                         bandsolve::backend::device{});
        exec.fence();
        CHECK(bstest::info_to_host(info) == std::vector<int>{0, static_cast<int>(row + 1)});
      }
    }
  });
  std::tie(dev::long_system_min_rows, dev::long_system_fill, dev::long_chunk_rows) = saved;
}
#endif

TEMPLATE_TEST_CASE("thomas_pcr with many chunks: every n = 1..70 with 2- and 3-row chunks",
                   "[thomas_pcr][chunks]", float, double) {
  using T = TestType;
  // Chunks of 3 rows in groups of 4 lanes, and of 2 rows in groups of 8: full and partial
  // groups, a last chunk of M..2M-1 rows, reduced systems of 2 to 70 rows, split across the team.
  bstest::for_each_exec([&](auto exec) {
    using Exec = decltype(exec);
    std::uint32_t seed = 4000;
    for (std::size_t n = 1; n <= 70; ++n) {
      INFO(bstest::exec_name<Exec>() << ", n = " << n);
      const auto p = bstest::random_dominant<T>(2, n, seed++);
      const auto ref = bstest::reference_solve(p);
      const double tol = bstest::reduction_tol<T>(n);
      {
        const auto [x, info] = team_solve<4, 3>(exec, p);
        CHECK(info == std::vector<int>(2, 0));
        CHECK(bstest::max_rel_diff(x, ref, 2, n) <= tol);
      }
      {
        const auto [x, info] = team_solve<8, 2>(exec, p);
        CHECK(info == std::vector<int>(2, 0));
        CHECK(bstest::max_rel_diff(x, ref, 2, n) <= tol);
      }
    }
  });
}

TEMPLATE_TEST_CASE("thomas_pcr on long systems (128-row chunks) in row, column and strided views",
                   "[thomas_pcr][chunks]", float, double) {
  using T = TestType;
  bstest::for_each_exec([&](auto exec) {
    using Exec = decltype(exec);
    using Mem = typename Exec::memory_space;
    std::uint32_t seed = 5000;
    for (std::size_t n : {127, 128, 129, 255, 256, 257, 1000, 2177, 20000})
      for (std::size_t nsys : {std::size_t(1), std::size_t(2)}) {
        INFO(bstest::exec_name<Exec>() << ", n = " << n << ", nsys = " << nsys);
        const auto p = bstest::random_dominant<T>(nsys, n, seed++);
        const auto ref = bstest::reference_solve(p);
        const double tol = bstest::reduction_tol<T>(n);
        auto check = [&](auto a, auto b, auto c, auto d) {
          auto info = bstest::make_info<Mem>(nsys);
          bandsolve::solve(exec, bandsolve::algo::thomas_pcr{}, a, b, c, d, info);
          exec.fence();
          CHECK(bstest::info_to_host(info) == std::vector<int>(nsys, 0));
          CHECK(bstest::max_rel_diff(bstest::to_host(d, nsys), ref, nsys, n) <= tol);
        };
        {
          INFO("row");
          auto D = bstest::upload<bl::row, Exec>(p);
          check(D.a, D.b, D.c, D.d);
        }
        {
          INFO("column");
          auto D = bstest::upload<bl::column, Exec>(p);
          check(D.a, D.b, D.c, D.d);
        }
        {
          INFO("strided: rows at stride 2 of a padded array");
          using Big = Kokkos::View<T***, Kokkos::LayoutRight, Mem>;
          using Sub = Kokkos::View<T**, Kokkos::LayoutStride, Mem>;
          auto make = [&](const char* label, const std::vector<T>& h) {
            Big big(std::string(label), nsys, n + 1, 2);
            Sub v = Kokkos::subview(big, Kokkos::ALL, std::make_pair(std::size_t(1), n + 1), 0);
            bstest::fill(v, h, nsys);
            return v;
          };
          check(make("a", p.a), make("b", p.b), make("c", p.c), make("d", p.d));
        }
      }
  });
}

TEMPLATE_TEST_CASE("thomas_pcr reports a zero row at chunk boundaries with its own row",
                   "[thomas_pcr][info]", float, double) {
  using T = TestType;
  bstest::for_each_exec([&](auto exec) {
    using Exec = decltype(exec);
    std::uint32_t seed = 6000;
    // 3-row chunks: rows 0, 1, 2 (first, middle, last of chunk 0), 3 (first of chunk 1), the
    // last chunk's rows; default 128-row chunks through the batched API.
    for (std::size_t row : {0, 1, 2, 3, 4, 5, 30, 31, 32, 33, 34}) {
      INFO(bstest::exec_name<Exec>() << ", 3-row chunks, n = 35, zero row " << row);
      auto p = bstest::random_dominant<T>(2, 35, seed++);
      const std::size_t k = p.idx(1, row);
      p.a[k] = p.b[k] = p.c[k] = T(0);
      const auto [x, info] = team_solve<4, 3>(exec, p);
      CHECK(info == std::vector<int>{0, static_cast<int>(row + 1)});
    }
    for (std::size_t row : {0, 1, 126, 127, 128, 129, 255, 256, 999}) {
      INFO(bstest::exec_name<Exec>() << ", 128-row chunks, n = 1000, zero row " << row);
      auto p = bstest::random_dominant<T>(1, 1000, seed++);
      const std::size_t k = p.idx(0, row);
      p.a[k] = p.b[k] = p.c[k] = T(0);
      auto D = bstest::upload<bl::row, Exec>(p);
      auto info = bstest::make_info<typename Exec::memory_space>(1);
      bandsolve::solve(exec, bandsolve::algo::thomas_pcr{}, D.a, D.b, D.c, D.d, info);
      exec.fence();
      CHECK(bstest::info_to_host(info) == std::vector<int>{static_cast<int>(row + 1)});
    }
    // n = 2177: 17 chunks, so full SIMD groups of 8 (double) or 16 (float) chunks, which take the
    // register-blocked sweeps on CPUs (backend/host_simd/chunk_lanes.hpp): a zero row and a NaN
    // at the first, inner and last rows of chunks inside them, then in the last chunk.
    for (std::size_t row : {0, 1, 2, 127, 130, 1023, 1024, 1151, 1152, 2047, 2048, 2176})
      for (bool nan : {false, true}) {
        INFO(bstest::exec_name<Exec>() << ", 128-row chunks, n = 2177, row " << row
                                       << (nan ? " NaN" : " zero"));
        auto p = bstest::random_dominant<T>(1, 2177, seed++);
        const std::size_t k = p.idx(0, row);
        if (nan)
          p.b[k] = std::numeric_limits<T>::quiet_NaN();
        else
          p.a[k] = p.b[k] = p.c[k] = T(0);
        auto D = bstest::upload<bl::row, Exec>(p);
        auto info = bstest::make_info<typename Exec::memory_space>(1);
        bandsolve::solve(exec, bandsolve::algo::thomas_pcr{}, D.a, D.b, D.c, D.d, info);
        exec.fence();
        CHECK(bstest::info_to_host(info) == std::vector<int>{static_cast<int>(row + 1)});
      }
  });
}

// Systems side by side in memory (column, interleaved<W>, strided views of unit system stride)
// take the partition path: chunks along n, SIMD lanes across the systems. Lowered to 5-row
// chunks here (the default is 128) so that small systems have many chunks: pairs of chunks swept
// at once and single ones, a last chunk of 5..9 rows, blocks of 4, 8, 16 or 32 lanes, partial
// blocks (nsys not a multiple of them), interleaved packs of 3 and 8; n = 1, 2, 3 and 9 stay on
// the other paths. LAPACK ?gtsv as the reference, info of a zero or NaN row as Thomas's.
TEMPLATE_TEST_CASE("thomas_pcr on systems side by side: the partition path",
                   "[thomas_pcr][partition][lapack]", float, double) {
  using T = TestType;
  namespace det = bandsolve::detail;
  const index_t saved = det::partition_chunk_rows;
  det::partition_chunk_rows = 5;
  bstest::for_each_exec([&](auto exec) {
    using Exec = decltype(exec);
    using Mem = typename Exec::memory_space;
    std::uint32_t seed = 11000;
    auto run = [&](const char* what, const bstest::host_batch<T>& p, auto a, auto b, auto c,
                   auto d, const std::vector<int>& expected) {
      INFO(what << ", " << bstest::exec_name<Exec>() << ", n = " << p.n << ", nsys = " << p.nsys);
      auto info = bstest::make_info<Mem>(p.nsys);
      bandsolve::solve(exec, bandsolve::algo::thomas_pcr{}, a, b, c, d, info);
      exec.fence();
      const auto x = bstest::to_host(d, p.nsys);
      CHECK(bstest::info_to_host(info) == expected);
      if (expected == std::vector<int>(p.nsys, 0)) {
        CHECK(bstest::max_rel_diff(x, bstest::reference_solve(p), p.nsys, p.n) <=
              bstest::reduction_tol<T>(p.n));
        CHECK(bstest::max_residual(p, x) <= bstest::residual_tol<T>());
      }
    };
    auto every_layout = [&](const bstest::host_batch<T>& p, const std::vector<int>& expected) {
      {
        auto D = bstest::upload<bl::column, Exec>(p);
        run("column", p, D.a, D.b, D.c, D.d, expected);
      }
      {  // padding lanes of the last pack hold a NaN sentinel that must stay bit for bit
        auto D = bstest::upload<bl::interleaved<8>, Exec>(p);
        fill_padding_with_nan(D.d, p.nsys, p.n);
        const auto before = padding_of(D.d, p.nsys, p.n);
        run("interleaved<8>", p, D.a, D.b, D.c, D.d, expected);
        CHECK(bstest::bitwise_equal(before, padding_of(D.d, p.nsys, p.n)));
      }
      {
        auto D = bstest::upload<bl::interleaved<3>, Exec>(p);
        run("interleaved<3>", p, D.a, D.b, D.c, D.d, expected);
      }
      {  // unit system stride, rows 2 nsys apart: a slice of a column-major array
        const auto make = [&](const char* label, const std::vector<T>& h) {
          return column_major_slice<Mem>(label, h, p.nsys, p.n);
        };
        run("strided", p, make("a", p.a), make("b", p.b), make("c", p.c), make("d", p.d),
            expected);
      }
    };
    for (std::size_t nsys : {std::size_t(2), std::size_t(5), std::size_t(11), std::size_t(37)})
      for (std::size_t n : {std::size_t(1), std::size_t(2), std::size_t(3), std::size_t(9),
                            std::size_t(10), std::size_t(14), std::size_t(21), std::size_t(43),
                            std::size_t(64)})
        every_layout(bstest::random_dominant<T>(nsys, n, seed++), std::vector<int>(nsys, 0));
    // A zero row (a = b = c = 0) or a NaN on the diagonal of system 2 of 5: first, middle and
    // last rows of chunks, the longer last chunk (n = 43: chunks at 0, 5, .., 30, the last of 13
    // rows). Thomas's LU pivot row.
    for (std::size_t row : {0, 1, 4, 5, 6, 9, 22, 34, 35, 42})
      for (bool nan : {false, true}) {
        auto p = bstest::random_dominant<T>(5, 43, seed++);
        const std::size_t k = p.idx(2, row);
        if (nan)
          p.b[k] = std::numeric_limits<T>::quiet_NaN();
        else
          p.a[k] = p.b[k] = p.c[k] = T(0);
        every_layout(p, {0, 0, static_cast<int>(row + 1), 0, 0});
      }
    // algo::automatic on a full column batch of long systems (the threshold lowered to 40 rows):
    // the partition path.
    const std::size_t saved_rows = det::long_column_rows;
    det::long_column_rows = 40;
    {
      const auto p = bstest::random_dominant<T>(70, 43, seed++);
      auto D = bstest::upload<bl::column, Exec>(p);
      auto info = bstest::make_info<Mem>(p.nsys);
      bandsolve::solve(exec, bandsolve::algo::automatic{}, D.a, D.b, D.c, D.d, info);
      exec.fence();
      CHECK(bstest::info_to_host(info) == std::vector<int>(p.nsys, 0));
      CHECK(bstest::max_rel_diff(bstest::to_host(D.d, p.nsys), bstest::reference_solve(p),
                                 p.nsys, p.n) <= bstest::reduction_tol<T>(p.n));
    }
    det::long_column_rows = saved_rows;
  });
  det::partition_chunk_rows = saved;
  // The rule: full column and strided batches of n >= 2^17 rows and row batches of n >= 2^15
  // go to the hybrid, interleaved ones stay with Thomas while their packs fill the threads.
  using bandsolve::choose_tridiag;
  using bandsolve::tridiag_choice;
  CHECK(choose_tridiag<bl::column, T>(1024, std::size_t(1) << 16, 2) == tridiag_choice::thomas);
  CHECK(choose_tridiag<bl::column, T>(1024, std::size_t(1) << 17, 2) ==
        tridiag_choice::thomas_pcr);
  CHECK(choose_tridiag<bl::strided, T>(1024, std::size_t(1) << 18, 2) ==
        tridiag_choice::thomas_pcr);
  CHECK(choose_tridiag<bl::interleaved<8>, T>(1024, std::size_t(1) << 18, 2) ==
        tridiag_choice::thomas);
  CHECK(choose_tridiag<bl::interleaved<8>, T>(4, std::size_t(1) << 22, 2) ==
        tridiag_choice::thomas_pcr);
  CHECK(choose_tridiag<bl::row, T>(1024, std::size_t(1) << 14, 2) == tridiag_choice::thomas);
  CHECK(choose_tridiag<bl::row, T>(1024, std::size_t(1) << 15, 2) == tridiag_choice::thomas_pcr);
}

// Row i scaled by s_i leaves x unchanged and scales pivot i by s_i. The register sweeps of
// double chunks go four rows per step through products of four pivots, which leave the double
// range for pivots beyond about 1e+-77: such groups must fall back to the generic sweeps in both
// passes, and give the unscaled solution with info 0.
TEMPLATE_TEST_CASE("thomas_pcr on rows scaled by huge or tiny factors", "[thomas_pcr][scaling]",
                   float, double) {
  using T = TestType;
  const double big = std::is_same_v<T, double> ? 1e150 : 1e30;
  bstest::for_each_exec([&](auto exec) {
    using Exec = decltype(exec);
    for (std::size_t n : {2177, 20000})
      for (int scaling = 0; scaling < 4; ++scaling) {
        INFO(bstest::exec_name<Exec>() << ", n = " << n << ", scaling " << scaling);
        auto p = bstest::random_dominant<T>(1, n, 7000 + std::uint32_t(scaling));
        const auto ref = bstest::reference_solve(p);
        for (std::size_t i = 0; i < n; ++i) {
          // Every row by big, every row by 1 / big, the first half by big and the second by
          // 1 / big (some groups fall back, some not), a ramp from 1 / big to big.
          const double f = scaling == 0   ? big
                           : scaling == 1 ? 1 / big
                           : scaling == 2 ? (2 * i < n ? big : 1 / big)
                                          : std::pow(big, 2.0 * double(i) / double(n - 1) - 1.0);
          p.a[i] = T(p.a[i] * f);
          p.b[i] = T(p.b[i] * f);
          p.c[i] = T(p.c[i] * f);
          p.d[i] = T(p.d[i] * f);
        }
        auto D = bstest::upload<bl::row, Exec>(p);
        auto info = bstest::make_info<typename Exec::memory_space>(1);
        bandsolve::solve(exec, bandsolve::algo::thomas_pcr{}, D.a, D.b, D.c, D.d, info);
        exec.fence();
        CHECK(bstest::info_to_host(info) == std::vector<int>{0});
        CHECK(bstest::max_rel_diff(bstest::to_host(D.d, 1), ref, 1, n) <=
              bstest::reduction_tol<T>(n));
      }
  });
}

TEST_CASE("thomas_pcr's reduced system: Thomas on small teams, PCR on large ones",
          "[thomas_pcr][reduced]") {
  using bandsolve::detail::reduced_by_thomas;
  CHECK(reduced_by_thomas(1 << 16, 2));   // one system of 2^22 rows, 2 threads
  CHECK(reduced_by_thomas(16, 1));
  CHECK_FALSE(reduced_by_thomas(16, 2));
  CHECK_FALSE(reduced_by_thomas(1 << 16, 32));
  // The two-way sweep of the reduced system against known solutions, every size up to 9 (odd and
  // even: the bottom-up half is one row shorter or as long as the top-down one).
  using bandsolve::detail::reduced_thomas;
  for (int rows = 1; rows <= 9; ++rows) {
    std::vector<double> a(rows), c(rows), d(rows);
    for (int i = 0; i < rows; ++i) {
      a[i] = i == 0 ? 0 : 0.25 * ((i % 3) - 1);
      c[i] = i == rows - 1 ? 0 : 0.125 * ((i % 4) - 2);
    }
    for (int i = 0; i < rows; ++i)  // x_i = i + 1
      d[i] = (i + 1) + (i > 0 ? a[i] * i : 0) + (i + 1 < rows ? c[i] * (i + 2) : 0);
    bandsolve::detail::bad_code bad = 0;
    reduced_thomas(rows, a.data(), c.data(), d.data(), &bad, 2);
    CHECK(bad == 0);
    for (int i = 0; i < rows; ++i) CHECK(d[i] == Catch::Approx(i + 1).epsilon(1e-14));
  }
  // Singular matrices, each with its zero pivot named: rows 1 and 2 equal (4 rows, k = 1: the
  // 2x2 where the halves meet, row k+1 = 2); rows 0 and 1 equal (6 rows, k = 2: the top-down
  // pivot of row 1); rows 4 and 5 equal (6 rows: the bottom-up pivot of row 4, named 5).
  const auto named = [&](std::vector<double> a, std::vector<double> c) {
    std::vector<double> d(a.size(), 1.0);
    bandsolve::detail::bad_code bad = 0;
    reduced_thomas(static_cast<bandsolve::index_t>(a.size()), a.data(), c.data(), d.data(), &bad,
                   2);
    CHECK(bandsolve::detail::phase_of(bad) == 2);
    return bandsolve::detail::info_of(bad);
  };
  CHECK(named({0, 0, 1, 0}, {0, 1, 0, 0}) == 3);
  CHECK(named({0, 1, 0, 0, 0, 0}, {1, 0, 0, 0, 0, 0}) == 2);
  CHECK(named({0, 0, 0, 0, 0, 1}, {0, 0, 0, 0, 1, 0}) == 6);
}

// Full batches (at least threads x L systems) of systems of at least 2 L chunks with contiguous
// rows go one system per work item (a team of one thread), other full batches across systems.
TEMPLATE_TEST_CASE("thomas_pcr on full batches of long systems: one system per work item",
                   "[thomas_pcr][batch]", float, double) {
  using T = TestType;
  using exec = Kokkos::DefaultHostExecutionSpace;
  using Mem = exec::memory_space;
  constexpr std::size_t lanes = bandsolve::thomas_pcr_shape<T>::lanes;
  const std::size_t nsys = std::size_t(exec().concurrency()) * lanes + 1;
  const index_t shortest = static_cast<index_t>(2 * lanes * 128);
  CHECK_FALSE(bandsolve::detail::one_system_per_item<T>(shortest - 1));
  // 2 L chunks of 128 rows (every chunk in a full SIMD group), and 77 rows more (the last chunk
  // alone, 205 rows).
  for (const std::size_t n : {2 * lanes * 128, 2 * lanes * 128 + 77}) {
    INFO("n = " << n);
    CHECK(bandsolve::detail::one_system_per_item<T>(static_cast<index_t>(n)));  // >= shortest
    auto p = bstest::random_dominant<T>(nsys, n, 9500);
    const auto ref = bstest::reference_solve(p);
    // Zero rows in system 5 (row 1000, inside a SIMD group of chunks) and in the last system (its
    // last row): their info names them, every other system is solved.
    std::vector<int> expected(nsys, 0);
    for (const auto& [s, row] : {std::pair<std::size_t, std::size_t>{5, 1000}, {nsys - 1, n - 1}}) {
      const std::size_t k = p.idx(s, row);
      p.a[k] = p.b[k] = p.c[k] = T(0);
      expected[s] = static_cast<int>(row + 1);
    }
    const auto check = [&](const std::vector<T>& x, const std::vector<int>& info) {
      CHECK(info == expected);
      double worst = 0;
      for (std::size_t s = 0; s < nsys; ++s)
        if (expected[s] == 0)
          for (std::size_t i = 0; i < n; ++i)
            worst = std::max(worst, std::abs(double(x[p.idx(s, i)]) - double(ref[p.idx(s, i)])) /
                                        std::max(1.0, std::abs(double(ref[p.idx(s, i)]))));
      CHECK(worst <= bstest::reduction_tol<T>(n));
    };
    const auto in_layout = [&](auto layout, const char* what) {
      INFO(what);
      auto D = bstest::upload<decltype(layout), exec>(p);
      auto info = bstest::make_info<Mem>(nsys);
      bandsolve::solve(exec(), bandsolve::algo::thomas_pcr{}, D.a, D.b, D.c, D.d, info);
      exec().fence();
      check(bstest::to_host(D.d, nsys), bstest::info_to_host(info));
    };
    in_layout(bl::row{}, "row layout");
    in_layout(bl::column{}, "column layout (across systems)");
    {
      INFO("every other row of a padded array: unit row stride, nothing written outside");
      bstest::padded_rows<T, Mem> v(p);
      auto info = bstest::make_info<Mem>(nsys);
      bandsolve::solve(exec(), bandsolve::algo::thomas_pcr{}, v.a, v.b, v.c, v.d, info);
      exec().fence();
      check(bstest::to_host(v.d, nsys), bstest::info_to_host(info));
      CHECK(v.written_outside() == 0);
    }
  }
}

// The reduced system solved by the hybrid one level down (reduced_by_hybrid): teams of several
// threads with a reduced system of at least two SIMD groups of chunks per thread. Small chunks
// (3 rows, 4 lanes) reach it from n = 384 on 2 threads; the default shape (128 rows, 8 or 16
// lanes) from n = 2^18 on 2 threads, through the register-blocked sweeps at both levels.
TEMPLATE_TEST_CASE("thomas_pcr's reduced system solved by the hybrid one level down",
                   "[thomas_pcr][nested]", float, double) {
  using T = TestType;
  using bandsolve::detail::reduced_by_hybrid;
  CHECK(reduced_by_hybrid<8, 128>(1 << 16, 2));  // n = 2^22 on 2 threads
  CHECK_FALSE(reduced_by_hybrid<8, 128>(1 << 16, 1));   // one thread: its Thomas sweep
  CHECK_FALSE(reduced_by_hybrid<8, 128>(2048, 2));      // one group per thread: not worth it
  CHECK_FALSE(reduced_by_hybrid<8, 128>(1 << 16, 32));  // PCR's team
  using exec = Kokkos::DefaultHostExecutionSpace;
  const int team_size = static_cast<int>(exec().concurrency());
  if (!reduced_by_hybrid<4, 3>(2 * (1000 / 3), team_size))
    WARN("a team of " << team_size << " thread(s): the nested level is not reached here");
  std::uint32_t seed = 9000;
  for (std::size_t n : {1000, 1001, 3001}) {
    INFO("3-row chunks, 4 lanes, n = " << n);
    const auto p = bstest::random_dominant<T>(2, n, seed++);
    const auto [x, info] = team_solve<4, 3>(exec(), p);
    CHECK(info == std::vector<int>{0, 0});
    CHECK(bstest::max_rel_diff(x, bstest::reference_solve(p), 2, n) <=
          bstest::reduction_tol<T>(n));
  }
  // 2P = 2 * team_size * lanes * 128 reduced rows: two groups of chunks per thread below. Only
  // small CPU teams nest (reduced_by_thomas: 4 * team_size <= log2(2P)); on larger ones the
  // default shape would need systems of 10^8 rows and more, so the test stops here.
  constexpr int lanes = bandsolve::thomas_pcr_shape<T>::lanes;
  const std::size_t big = std::size_t(team_size) * lanes * 128 * 128 + 77;
  if (!reduced_by_hybrid<lanes, 128>(static_cast<index_t>(2 * (big / 128)), team_size)) {
    WARN("a team of " << team_size << " thread(s) does not nest with the default shape");
    return;
  }
  {
    INFO("default shape, n = " << big);
    const auto p = bstest::random_dominant<T>(1, big, seed++);
    auto D = bstest::upload<bl::row, exec>(p);
    auto info = bstest::make_info<exec::memory_space>(1);
    bandsolve::solve(exec(), bandsolve::algo::thomas_pcr{}, D.a, D.b, D.c, D.d, info);
    exec().fence();
    CHECK(bstest::info_to_host(info) == std::vector<int>{0});
    CHECK(bstest::max_rel_diff(bstest::to_host(D.d, 1), bstest::reference_solve(p), 1, big) <=
          bstest::reduction_tol<T>(big));
  }
  // Rows 127 and 128 (the last of chunk 0, the first of chunk 1) cut off from their neighbours
  // as the singular block [1 1; 1 1]: every chunk's own pivots are fine, the reduced system is
  // singular, and the nested level's bad row names one of the two.
  {
    auto p = bstest::random_dominant<T>(1, big, seed++);
    p.c[126] = p.a[127] = T(0);
    p.b[127] = p.c[127] = T(1);
    p.a[128] = p.b[128] = T(1);
    p.c[128] = p.a[129] = T(0);
    auto D = bstest::upload<bl::row, exec>(p);
    auto info = bstest::make_info<exec::memory_space>(1);
    bandsolve::solve(exec(), bandsolve::algo::thomas_pcr{}, D.a, D.b, D.c, D.d, info);
    exec().fence();
    const int code = bstest::info_to_host(info)[0];
    CHECK((code == 128 || code == 129));
  }
}

// ---------------------------------------------------------------------------------------------
// Example: the per-system form inside your own kernel.

// factorize(thomas_pcr): Thomas's LU stored for the partition method, solved twice (two
// right-hand sides) in every layout against LAPACK and the one-shot hybrid: long uneven systems
// with 128-row chunks (nsys 1, 3, and more than a lane block), short ones cut into 5-row chunks,
// info of zero pivots at chunk boundaries, argument errors.
TEMPLATE_TEST_CASE("thomas_pcr factorization: the partition method with stored factors",
                   "[thomas_pcr][factorize][lapack]", float, double) {
  using T = TestType;
  namespace det = bandsolve::detail;
  bstest::for_each_exec([&](auto exec) {
    using Exec = decltype(exec);
    using Mem = typename Exec::memory_space;
    std::uint32_t seed = 31000;
    auto run = [&](const char* what, const bstest::host_batch<T>& p, auto a, auto b, auto c,
                   auto d, const std::vector<int>& expected) {
      INFO(what << ", " << bstest::exec_name<Exec>() << ", n = " << p.n << ", nsys = " << p.nsys
                << ", chunk rows = " << det::partition_chunk_rows);
      const auto f = bandsolve::factorize(exec, bandsolve::algo::thomas_pcr{}, a, b, c, p.nsys);
      CHECK(f.n() == p.n);
      CHECK(f.nsys() == p.nsys);
      bstest::fill(d, p.d, p.nsys);
      f.solve(exec, d);
      exec.fence();
      CHECK(bstest::info_to_host(f.info()) == expected);
      const auto x = bstest::to_host(d, p.nsys);
      bstest::fill(d, p.d, p.nsys);
      auto info = bstest::make_info<Mem>(p.nsys);
      bandsolve::solve(exec, bandsolve::algo::thomas_pcr{}, a, b, c, d, info);
      exec.fence();
      CHECK(bstest::info_to_host(info) == expected);
      if (expected != std::vector<int>(p.nsys, 0)) return;
      const double tol = bstest::reduction_tol<T>(p.n);
      CHECK(bstest::max_rel_diff(x, bstest::reference_solve(p), p.nsys, p.n) <= tol);
      CHECK(bstest::max_rel_diff(x, bstest::to_host(d, p.nsys), p.nsys, p.n) <= tol);
      const auto rhs = bstest::random_rhs<T>(p.nsys, p.n, seed++);  // the same factors again
      bstest::fill(d, rhs, p.nsys);
      f.solve(exec, d);
      exec.fence();
      CHECK(bstest::max_rel_diff(bstest::to_host(d, p.nsys), bstest::reference_solve(p, &rhs),
                                 p.nsys, p.n) <= tol);
    };
    auto every_layout = [&](const bstest::host_batch<T>& p, const std::vector<int>& expected) {
      {
        auto D = bstest::upload<bl::row, Exec>(p);
        run("row", p, D.a, D.b, D.c, D.d, expected);
      }
      {
        auto D = bstest::upload<bl::column, Exec>(p);
        run("column", p, D.a, D.b, D.c, D.d, expected);
      }
      {
        auto D = bstest::upload<bl::interleaved<8>, Exec>(p);
        run("interleaved<8>", p, D.a, D.b, D.c, D.d, expected);
      }
      {
        auto D = bstest::upload<bl::interleaved<3>, Exec>(p);
        run("interleaved<3>", p, D.a, D.b, D.c, D.d, expected);
      }
      // Strided: a, b, c side by side (a slice of a column-major array), d once so and once
      // with contiguous rows (each system then reads its lane of the stored blocks).
      using Sub = Kokkos::View<T**, Kokkos::LayoutStride, Mem>;
      auto side = [&](const char* label) {
        Kokkos::View<T***, Kokkos::LayoutLeft, Mem> big(std::string(label), p.nsys, 2, p.n);
        return Sub(Kokkos::subview(big, Kokkos::ALL, 0, Kokkos::ALL));
      };
      const Sub a = side("a"), b = side("b"), c = side("c");
      bstest::fill(a, p.a, p.nsys);
      bstest::fill(b, p.b, p.nsys);
      bstest::fill(c, p.c, p.nsys);
      run("strided", p, a, b, c, side("d"), expected);
      Kokkos::View<T**, Kokkos::LayoutRight, Mem> rows_d("d", p.nsys, p.n + 1);
      run("strided, d by rows", p, a, b, c,
          Sub(Kokkos::subview(rows_d, Kokkos::ALL, std::make_pair(std::size_t(0), p.n))),
          expected);
    };
    // Long systems, 128-row chunks, n not a multiple of them.
    for (std::size_t nsys : {std::size_t(1), std::size_t(3), std::size_t(37)})
      every_layout(bstest::random_dominant<T>(nsys, (std::size_t(1) << 14) + 77, seed++),
                   std::vector<int>(nsys, 0));
    const index_t saved = det::partition_chunk_rows;
    det::partition_chunk_rows = 5;
    for (std::size_t nsys : {std::size_t(2), std::size_t(37)})
      for (std::size_t n : {std::size_t(1), std::size_t(2), std::size_t(3), std::size_t(9),
                            std::size_t(43)})
        every_layout(bstest::random_dominant<T>(nsys, n, seed++), std::vector<int>(nsys, 0));
    // A zero row (a = b = c = 0) in system 2 of 5: first, last and middle rows of chunks and the
    // longer last chunk (rows 35..42).
    for (std::size_t row : {0, 4, 5, 22, 42}) {
      auto p = bstest::random_dominant<T>(5, 43, seed++);
      const std::size_t k = p.idx(2, row);
      p.a[k] = p.b[k] = p.c[k] = T(0);
      every_layout(p, {0, 0, static_cast<int>(row + 1), 0, 0});
    }
    det::partition_chunk_rows = saved;
  });
  // Argument errors name the function and the values.
  using Exec = Kokkos::DefaultHostExecutionSpace;
  const Exec exec;
  using V = Kokkos::View<T**, Kokkos::LayoutRight, Exec::memory_space>;
  const V a("a", 3, 300), b("b", 3, 300), c("c", 3, 299), d("d", 3, 301);
  using Catch::Matchers::StartsWith;
  CHECK_THROWS_WITH(bandsolve::factorize(exec, bandsolve::algo::thomas_pcr{}, a, b, c),
                    StartsWith("bandsolve::factorize(thomas_pcr): c has 299 rows"));
  CHECK_THROWS_WITH(bandsolve::factorize(exec, bandsolve::algo::thomas_pcr{}, a, b, b, 4),
                    StartsWith("bandsolve::factorize(thomas_pcr): nsys = 4"));
  Kokkos::deep_copy(b, T(1));
  const auto f = bandsolve::factorize(exec, bandsolve::algo::thomas_pcr{}, a, b, a);
  CHECK_THROWS_WITH(f.solve(exec, d),
                    StartsWith("bandsolve::thomas_pcr_factorization::solve: d has 301 rows"));
  CHECK_THROWS_WITH(f.solve(exec, V("d", 2, 300)),
                    StartsWith("bandsolve::thomas_pcr_factorization::solve: d holds 2 systems"));
  CHECK_THROWS_WITH((bandsolve::thomas_pcr_factorization<T, bl::row, Exec>{}.solve(exec, d)),
                    StartsWith("bandsolve::thomas_pcr_factorization::solve: this factorization "
                               "is empty"));
}

namespace {
// thomas_pcr refactor in one layout: the new matrices' factors in the factorization's storage (a
// copy made before sees them), bitwise the solutions of a fresh factorization of them, a zero
// row's code set and cleared again, the reference solution.
template <class Layout, class T, class Exec>
void check_thomas_pcr_refactor(const Exec& exec, std::size_t n, std::size_t nsys,
                               std::uint32_t seed) {
  INFO(bstest::layout_name<Layout>() << ", " << bstest::exec_name<Exec>() << ", n = " << n
                                     << ", nsys = " << nsys);
  using Mem = typename Exec::memory_space;
  const auto p1 = bstest::random_dominant<T>(nsys, n, seed);
  auto p2 = bstest::random_dominant<T>(nsys, n, seed + 1);
  std::vector<int> codes(nsys, 0);
  if (nsys > 1) {
    const std::size_t row = n / 2, k = p2.idx(1, row);
    p2.a[k] = p2.b[k] = p2.c[k] = T(0);
    codes[1] = static_cast<int>(row + 1);
  }
  auto D1 = bstest::upload<Layout, Exec>(p1);
  auto D2 = bstest::upload<Layout, Exec>(p2);
  auto f = bandsolve::factorize(exec, bandsolve::algo::thomas_pcr{}, D1.a, D1.b, D1.c, nsys);
  const auto shared = f;
  f.refactor(exec, D2.a, D2.b, D2.c);
  const auto g = bandsolve::factorize(exec, bandsolve::algo::thomas_pcr{}, D2.a, D2.b, D2.c, nsys);
  exec.fence();
  CHECK(shared.storage_bytes() == g.storage_bytes());
  CHECK(bstest::info_to_host(shared.info()) == codes);
  auto d_shared = bstest::to_device<Layout, T, Mem>("d_shared", p2.d, nsys, n);
  auto d_fresh = bstest::to_device<Layout, T, Mem>("d_fresh", p2.d, nsys, n);
  shared.solve(exec, d_shared);
  g.solve(exec, d_fresh);
  exec.fence();
  CHECK(bstest::bitwise_equal(bstest::to_host(d_shared, nsys), bstest::to_host(d_fresh, nsys)));
  f.refactor(exec, D1.a, D1.b, D1.c);
  f.solve(exec, D1.d);
  exec.fence();
  CHECK(bstest::info_to_host(shared.info()) == std::vector<int>(nsys, 0));
  CHECK(bstest::max_rel_diff(bstest::to_host(D1.d, nsys), bstest::reference_solve(p1), nsys, n) <=
        bstest::reduction_tol<T>(n));
}
}  // namespace

TEMPLATE_TEST_CASE("thomas_pcr refactor factors new matrices into the factorization's storage",
                   "[thomas_pcr][factorize][refactor]", float, double) {
  using T = TestType;
  bstest::for_each_exec([](auto exec) {
    std::uint32_t seed = 33000;
    for (const std::size_t nsys : {1, 3, 37}) {  // long systems, 128-row chunks
      check_thomas_pcr_refactor<bl::row, T>(exec, (std::size_t(1) << 14) + 77, nsys, seed += 2);
      check_thomas_pcr_refactor<bl::column, T>(exec, (std::size_t(1) << 14) + 77, nsys, seed += 2);
    }
    namespace det = bandsolve::detail;
    const index_t saved = det::partition_chunk_rows;
    det::partition_chunk_rows = 5;
    for (const std::size_t n : {1, 2, 9, 43})
      for (const std::size_t nsys : {2, 37}) {
        check_thomas_pcr_refactor<bl::row, T>(exec, n, nsys, seed += 2);
        check_thomas_pcr_refactor<bl::column, T>(exec, n, nsys, seed += 2);
        check_thomas_pcr_refactor<bl::interleaved<8>, T>(exec, n, nsys, seed += 2);
      }
    det::partition_chunk_rows = saved;
  });
  // Errors: another shape, an empty factorization, systems no longer side by side.
  using Exec = Kokkos::DefaultHostExecutionSpace;
  using Catch::Matchers::Equals;
  const Exec exec;
  const std::string fn = "bandsolve::thomas_pcr_factorization::refactor: ";
  using C = Kokkos::View<T**, Kokkos::LayoutLeft, Exec::memory_space>;
  const C a("a", 40, 300), b("b", 40, 300), b9("b9", 40, 299), b41("b41", 41, 300);
  Kokkos::deep_copy(b, T(4));
  auto f = bandsolve::factorize(exec, bandsolve::algo::thomas_pcr{}, a, b, a);
  REQUIRE(f.lanes() > 1);
  CHECK_THROWS_WITH(f.refactor(exec, b9, b9, b9),
                    Equals(fn + "b has 299 rows but the factorization has 300"));
  CHECK_THROWS_WITH(f.refactor(exec, b41, b41, b41),
                    Equals(fn + "b holds 41 systems but the factorization has 40"));
  CHECK_THROWS_WITH((bandsolve::thomas_pcr_factorization<T, bl::column, Exec>{}.refactor(
                        exec, a, b, a)),
                    Equals(fn + "this factorization is empty (default-constructed)"));
  using S = Kokkos::View<T**, Kokkos::LayoutStride, Exec::memory_space>;
  auto g = bandsolve::factorize(exec, bandsolve::algo::thomas_pcr{}, S(a), S(b), S(a));
  Kokkos::View<T**, Kokkos::LayoutRight, Exec::memory_space> rows("rows", 40, 300);
  CHECK_THROWS_WITH(g.refactor(exec, S(rows), S(rows), S(rows)),
                    Equals(fn + "the factors are stored in blocks of " +
                           std::to_string(g.lanes()) +
                           " systems side by side, as a, b and c laid them; these do not"));
  C d("d", 40, 300);  // the refused calls left the factors of b = 4
  Kokkos::deep_copy(d, T(8));
  f.solve(exec, d);
  exec.fence();
  CHECK(bstest::to_host(d, 40)[7 * 300 + 5] == T(2));
}

// automatic's refactor goes to the factorization picked: the hybrid's (one long row system),
// Thomas's (a full pack), the symmetric one's (automatic{true}, symmetric positive definite
// lines): the same solutions, bit for bit, as a new automatic factorization of the new matrices.
TEMPLATE_TEST_CASE("automatic_factorization::refactor refactors the factorization it picked",
                   "[automatic][factorize][refactor]", float, double) {
  using T = TestType;
  const Kokkos::DefaultHostExecutionSpace exec;
  using Mem = Kokkos::DefaultHostExecutionSpace::memory_space;
  // Symmetric positive definite: a[i] = c[i-1], b[i] = |a[i]| + |c[i]| + 1.
  const auto spd = [](bstest::host_batch<T> p) {
    for (std::size_t s = 0; s < p.nsys; ++s)
      for (std::size_t i = 0; i < p.n; ++i) {
        const std::size_t k = p.idx(s, i);
        p.a[k] = i == 0 ? T(0) : p.c[p.idx(s, i - 1)];
        p.b[k] = std::abs(p.a[k]) + std::abs(p.c[k]) + T(1);
      }
    return p;
  };
  const std::size_t shapes[][2] = {{std::size_t(1) << 14, 1}, {256, 64}};
  std::uint32_t seed = 34000;
  for (const auto& shape : shapes)
    for (const bool symmetric : {false, true}) {
      const std::size_t n = shape[0], nsys = shape[1];
      INFO("n = " << n << ", nsys = " << nsys << (symmetric ? ", symmetric" : ""));
      auto p1 = bstest::random_dominant<T>(nsys, n, seed++);
      auto p2 = bstest::random_dominant<T>(nsys, n, seed++);
      if (symmetric) p1 = spd(p1), p2 = spd(p2);
      auto D1 = bstest::upload<bl::row, Kokkos::DefaultHostExecutionSpace>(p1);
      auto D2 = bstest::upload<bl::row, Kokkos::DefaultHostExecutionSpace>(p2);
      auto f = bandsolve::factorize(exec, bandsolve::algo::automatic{symmetric}, D1.a, D1.b, D1.c);
      const auto copy = f;
      f.refactor(exec, D2.a, D2.b, D2.c);
      const auto g = bandsolve::factorize(exec, bandsolve::algo::automatic{symmetric}, D2.a, D2.b,
                                          D2.c);
      CHECK(copy.choice() == g.choice());
      CHECK(copy.symmetric() == g.symmetric());
      auto x = bstest::to_device<bl::row, T, Mem>("x", p2.d, nsys, n);
      auto y = bstest::to_device<bl::row, T, Mem>("y", p2.d, nsys, n);
      copy.solve(exec, x);
      g.solve(exec, y);
      exec.fence();
      CHECK(bstest::info_to_host(copy.info()) == std::vector<int>(nsys, 0));
      CHECK(bstest::bitwise_equal(bstest::to_host(x, nsys), bstest::to_host(y, nsys)));
      CHECK(bstest::max_rel_diff(bstest::to_host(x, nsys), bstest::reference_solve(p2), nsys, n) <=
            bstest::reduction_tol<T>(n));
    }
  bandsolve::automatic_factorization<T, bl::row, Kokkos::DefaultHostExecutionSpace> empty;
  Kokkos::View<T**, Kokkos::LayoutRight, Mem> a("a", 2, 3);
  CHECK_THROWS_WITH(empty.refactor(exec, a, a, a),
                    Catch::Matchers::Equals("bandsolve::automatic_factorization::refactor: this "
                                            "factorization is empty (default-constructed)"));
}

TEMPLATE_TEST_CASE("factorize(automatic): Thomas's factors for full packs, the partition "
                   "method's for few long systems",
                   "[thomas_pcr][factorize][automatic]", float, double) {
  using T = TestType;
  using bandsolve::tridiag_choice;
  constexpr std::size_t row_pack = bandsolve::detail::sweep_packing<bl::row, T>::L;
  constexpr std::size_t column_pack = bandsolve::detail::sweep_packing<bl::column, T>::L;
  // The counts below are those of hosts that keep wide packs (AMD Zen 5 on): elsewhere row
  // doubles store tiles of 8 from 256 rows (thomas.hpp), and the rule follows the tile.
  struct whole_vectors {
    const bool saved = bandsolve::detail::register_double_tiles;
    whole_vectors() { bandsolve::detail::register_double_tiles = false; }
    ~whole_vectors() { bandsolve::detail::register_double_tiles = saved; }
  } const host_pinned;
  // The rule: the partition method below one Thomas work item of systems, for systems of two
  // chunks or more and batches too large for the calling thread.
  CHECK(bandsolve::choose_factored_tridiag<bl::row, T>(1, 1 << 14, 2) == tridiag_choice::thomas_pcr);
  // Gathered floats of more than 256 rows: Thomas's work items hold one tile (of 16 on x86).
  constexpr std::size_t long_row_pack = bandsolve::detail::has_long_row_packing_v<T>
                                            ? bandsolve::detail::long_row_one_shot_packing<T>::L
                                            : row_pack;
  CHECK(bandsolve::choose_factored_tridiag<bl::row, T>(long_row_pack - 1, 1 << 12, 2) ==
        tridiag_choice::thomas_pcr);
  CHECK(bandsolve::choose_factored_tridiag<bl::row, T>(long_row_pack, 1 << 12, 2) ==
        tridiag_choice::thomas);
  CHECK(bandsolve::choose_factored_tridiag<bl::strided, T>(long_row_pack, 1 << 12, 2, false) ==
        tridiag_choice::thomas);
  CHECK(bandsolve::choose_factored_tridiag<bl::strided, T>(row_pack - 1, 1 << 12, 2, true) ==
        tridiag_choice::thomas_pcr);
  CHECK(bandsolve::choose_factored_tridiag<bl::row, T>(row_pack - 1, 256, 2) ==
        tridiag_choice::thomas_pcr);
  // Column batches: Thomas from a pack of 32 lanes per thread (column_mid_packing).
  constexpr std::size_t column_mid = bandsolve::detail::column_mid_packing<T>::L;
  CHECK(bandsolve::choose_factored_tridiag<bl::column, T>(2 * column_mid - 1, 1 << 12, 2) ==
        tridiag_choice::thomas_pcr);
  CHECK(bandsolve::choose_factored_tridiag<bl::column, T>(2 * column_mid, 1 << 12, 2) ==
        tridiag_choice::thomas);
  CHECK(bandsolve::choose_factored_tridiag<bl::column, T>(4 * column_mid - 1, 1 << 12, 4) ==
        (4 * column_mid - 1 < column_pack ? tridiag_choice::thomas_pcr : tridiag_choice::thomas));
  CHECK(bandsolve::choose_factored_tridiag<bl::column, T>(column_pack, 1 << 12, 2) ==
        tridiag_choice::thomas);
  // Gathered doubles whose wide pack would go block by block (n > 2^16 at the default 16 MiB
  // limit): one tile (of 8 on x86), in row and strided layouts.
  if constexpr (bandsolve::detail::has_long_double_factor_packs_v<bl::row, T>) {
    constexpr std::size_t tile = bandsolve::detail::long_row_one_shot_packing<T>::L;
    CHECK(bandsolve::choose_factored_tridiag<bl::row, T>(tile, 1 << 17, 2) ==
          tridiag_choice::thomas);
    // Fewer systems than a tile: the partition method, unless Thomas's scans take rows this
    // long (thomas_scan_sweep.hpp; their rule is tested in test_thomas_scan.cpp).
    const tridiag_choice few = bandsolve::detail::thomas_scan_sweep_available
                                   ? tridiag_choice::thomas
                                   : tridiag_choice::thomas_pcr;
    CHECK(bandsolve::choose_factored_tridiag<bl::row, T>(tile - 1, 1 << 17, 2) == few);
    CHECK(bandsolve::choose_factored_tridiag<bl::strided, T>(tile, 1 << 17, 2, false) ==
          tridiag_choice::thomas);
    CHECK(bandsolve::choose_factored_tridiag<bl::row, T>(tile, 1 << 16, 2) == few);
  }
  CHECK(bandsolve::choose_factored_tridiag<bl::row, T>(31, 255, 2) == tridiag_choice::thomas);
  CHECK(bandsolve::choose_factored_tridiag<bl::row, T>(4, 1024, 2) == tridiag_choice::thomas);
  CHECK(bandsolve::choose_factored_tridiag<bl::row, T>(5, 1024, 2) == tridiag_choice::thomas_pcr);

  bstest::for_each_exec([&](auto exec) {
    using Exec = decltype(exec);
    std::uint32_t seed = 32000;
    // Factors with automatic{symmetric}, checks the pick against the rule, solves twice (the
    // second right-hand side new) and compares with LAPACK; info codes against `expected`.
    // hybrid_allowed false: strided Views whose systems neither lie side by side nor have
    // contiguous rows, which stay with Thomas whatever the rule says.
    auto run = [&](const char* what, const bstest::host_batch<T>& p, auto D, bool symmetric,
                   const std::vector<int>& expected, bool hybrid_allowed = true) {
      using Layout = bandsolve::layout_of_t<decltype(D.b)>;
      INFO(what << ", " << bstest::exec_name<Exec>() << ", n = " << p.n << ", nsys = " << p.nsys
                << (symmetric ? ", symmetric" : ""));
      const auto f = bandsolve::factorize(exec, bandsolve::algo::automatic{symmetric}, D.a, D.b,
                                          D.c, p.nsys);
      const bool lanes = bandsolve::detail::uses_lane_rows<Layout>(D.a) &&
                         bandsolve::detail::uses_lane_rows<Layout>(D.b) &&
                         bandsolve::detail::uses_lane_rows<Layout>(D.c);
      const tridiag_choice rule =
          hybrid_allowed ? bandsolve::choose_factored_tridiag<Layout, T>(
                               p.nsys, p.n, static_cast<int>(exec.concurrency()), lanes)
                         : tridiag_choice::thomas;
      CHECK(f.choice() == rule);
      CHECK(f.symmetric() == (symmetric && rule == tridiag_choice::thomas));
      CHECK(f.n() == p.n);
      CHECK(f.nsys() == p.nsys);
      CHECK(f.storage_bytes() > 0);
      f.solve(exec, D.d);
      exec.fence();
      CHECK(bstest::info_to_host(f.info()) == expected);
      if (expected != std::vector<int>(p.nsys, 0)) return;
      const double tol = bstest::reduction_tol<T>(p.n);
      CHECK(bstest::max_rel_diff(bstest::to_host(D.d, p.nsys), bstest::reference_solve(p),
                                 p.nsys, p.n) <= tol);
      const auto rhs = bstest::random_rhs<T>(p.nsys, p.n, seed++);
      bstest::fill(D.d, rhs, p.nsys);
      f.solve(exec, D.d);
      exec.fence();
      CHECK(bstest::max_rel_diff(bstest::to_host(D.d, p.nsys), bstest::reference_solve(p, &rhs),
                                 p.nsys, p.n) <= tol);
    };
    auto every_layout = [&](const bstest::host_batch<T>& p, bool symmetric,
                            const std::vector<int>& expected) {
      run("row", p, bstest::upload<bl::row, Exec>(p), symmetric, expected);
      run("column", p, bstest::upload<bl::column, Exec>(p), symmetric, expected);
      run("interleaved<8>", p, bstest::upload<bl::interleaved<8>, Exec>(p), symmetric, expected);
      // Strided: systems side by side (a slice of a column-major array), rows contiguous (padded
      // rows), and neither (every other value of a row-major array).
      using Mem = typename Exec::memory_space;
      using Sub = Kokkos::View<T**, Kokkos::LayoutStride, Mem>;
      struct strided_batch {
        Sub a, b, c, d;
      };
      const auto strided = [&](auto make) {
        strided_batch D{make("a"), make("b"), make("c"), make("d")};
        bstest::fill(D.a, p.a, p.nsys);
        bstest::fill(D.b, p.b, p.nsys);
        bstest::fill(D.c, p.c, p.nsys);
        bstest::fill(D.d, p.d, p.nsys);
        return D;
      };
      run("strided, side by side", p, strided([&](const char* label) {
            Kokkos::View<T***, Kokkos::LayoutLeft, Mem> big(std::string(label), p.nsys, 2, p.n);
            return Sub(Kokkos::subview(big, Kokkos::ALL, 0, Kokkos::ALL));
          }),
          symmetric, expected);
      run("strided, padded rows", p, strided([&](const char* label) {
            Kokkos::View<T**, Kokkos::LayoutRight, Mem> big(std::string(label), p.nsys, p.n + 3);
            return Sub(Kokkos::subview(big, Kokkos::ALL, std::make_pair(std::size_t(0), p.n)));
          }),
          symmetric, expected);
      run("strided, every other value", p, strided([&](const char* label) {
            Kokkos::View<T***, Kokkos::LayoutRight, Mem> big(std::string(label), p.nsys, p.n, 2);
            return Sub(Kokkos::subview(big, Kokkos::ALL, Kokkos::ALL, 0));
          }),
          symmetric, expected, false);
    };
    // Few long systems (the partition method), a pack short of one work item in column layout
    // only, and systems too short for chunks (Thomas).
    const std::size_t long_n = (std::size_t(1) << 13) + 77;
    // 20 systems of 600 rows: Thomas's tiles of 16 for row and gathered floats, the partition
    // method for doubles and lane-contiguous floats.
    const std::pair<std::size_t, std::size_t> shapes[] = {
        {3, long_n}, {row_pack + 3, 300}, {37, 200}, {20, 600}};
    for (const auto& [nsys, n] : shapes) {
      auto p = bstest::random_dominant<T>(nsys, n, seed++);
      every_layout(p, false, std::vector<int>(nsys, 0));
      // Symmetric positive definite: a_i = c_{i-1}, b_i > 0 and dominant.
      for (std::size_t s = 0; s < nsys; ++s)
        for (std::size_t i = 0; i < n; ++i) {
          const std::size_t k = p.idx(s, i);
          p.a[k] = i == 0 ? T(0) : p.c[k - 1];
          p.b[k] = std::abs(p.a[k]) + std::abs(p.c[k]) + T(1);
        }
      every_layout(p, true, std::vector<int>(nsys, 0));
    }
    // Gathered doubles past the whole-rows limit (0 here, so from 257 rows): Thomas's
    // factorization and the symmetric one (where its pack is wider than a tile: builds without
    // the register sweeps) store tiles of 8, which automatic counts as Thomas's work item.
    if constexpr (std::is_same_v<T, double>) {
      const std::size_t saved = bandsolve::detail::factored_gather_whole_bytes;
      bandsolve::detail::factored_gather_whole_bytes = 0;
      for (const std::size_t nsys : {7, 20}) {
        auto q = bstest::random_dominant<T>(nsys, 300, seed++);
        for (std::size_t s = 0; s < nsys; ++s)
          for (std::size_t i = 0; i < q.n; ++i) {
            const std::size_t k = q.idx(s, i);
            q.a[k] = i == 0 ? T(0) : q.c[k - 1];
            q.b[k] = std::abs(q.a[k]) + std::abs(q.c[k]) + T(1);
          }
        every_layout(q, false, std::vector<int>(nsys, 0));
        every_layout(q, true, std::vector<int>(nsys, 0));
        using S = bandsolve::symmetric_factorization<T, bl::row, Exec>;
        const std::size_t tile = S::long_pack_width, wide = S::pack_width;
        const std::size_t width = S::has_long_double_packs ? (nsys < tile ? 1 : tile)
                                                           : (nsys < wide ? 1 : wide);
        const auto D = bstest::upload<bl::row, Exec>(q);
        CHECK(bandsolve::factorize(exec, bandsolve::algo::symmetric{}, D.b, D.c).storage_bytes() ==
              2 * ((nsys + width - 1) / width) * width * q.n * sizeof(T));
      }
      bandsolve::detail::factored_gather_whole_bytes = saved;
    }
    // A zero row in system 1 of 3 long systems: the partition method's own code (its row).
    auto p = bstest::random_dominant<T>(3, long_n, seed++);
    const std::size_t k = p.idx(1, 700);
    p.a[k] = p.b[k] = p.c[k] = T(0);
    every_layout(p, false, {0, 701, 0});
  });
  // Complex scalars get the same wrapper (their rule: tridiag/test_reduction_complex.cpp);
  // errors are the stored algorithm's.
  using Exec = Kokkos::DefaultHostExecutionSpace;
  const Exec exec;
  using Z = Kokkos::View<Kokkos::complex<T>**, Kokkos::LayoutRight, Exec::memory_space>;
  const Z z("z", 2, 4);
  static_assert(std::is_same_v<decltype(bandsolve::factorize(exec, bandsolve::algo::automatic{},
                                                             z, z, z)),
                               bandsolve::automatic_factorization<Kokkos::complex<T>, bl::row,
                                                                  Exec>>);
  using V = Kokkos::View<T**, Kokkos::LayoutRight, Exec::memory_space>;
  const V a("a", 3, 3000), b("b", 3, 3000), d("d", 3, 3001);
  using Catch::Matchers::StartsWith;
  CHECK_THROWS_WITH(bandsolve::factorize(exec, bandsolve::algo::automatic{}, a, b, V("c", 3, 2999)),
                    StartsWith("bandsolve::factorize(thomas_pcr): c has 2999 rows"));
  Kokkos::deep_copy(b, T(1));
  const auto f = bandsolve::factorize(exec, bandsolve::algo::automatic{}, a, b, a);
  CHECK(f.choice() == tridiag_choice::thomas_pcr);
  CHECK_THROWS_WITH(f.solve(exec, d),
                    StartsWith("bandsolve::thomas_pcr_factorization::solve: d has 3001 rows"));
  CHECK_THROWS_WITH((bandsolve::automatic_factorization<T, bl::row, Exec>{}.solve(exec, a)),
                    StartsWith("bandsolve::automatic_factorization::solve: this factorization "
                               "is empty"));
}

TEST_CASE("example: thomas_pcr_solve inside a user kernel, with a team or one thread",
          "[thomas_pcr][example]") {
  using exec = Kokkos::DefaultHostExecutionSpace;
  const int nsys = 3, n = 5000;
  // Your data, in your layout: here one system per row of a plain 2-D array.
  Kokkos::View<double**, exec::memory_space> a("a", nsys, n), b("b", nsys, n), c("c", nsys, n),
      d("d", nsys, n), x2("x2", nsys, n);
  Kokkos::parallel_for(
      "fill", Kokkos::RangePolicy<exec>(0, nsys * n), KOKKOS_LAMBDA(const int k) {
        const int s = k / n, i = k % n;
        a(s, i) = -1;
        b(s, i) = 2 + 0.1 * (s + 1);
        c(s, i) = -1;
        d(s, i) = 1;
        x2(s, i) = 1;
      });
  Kokkos::View<int*, exec::memory_space> info("info", nsys), info2("info2", nsys);

  // 1. A team per system: every thread of the team calls thomas_pcr_solve with the same
  //    arguments and a workspace of thomas_pcr_workspace<double>(n, team_size) doubles.
  using policy = Kokkos::TeamPolicy<exec>;
  const int team_size = static_cast<int>(exec().concurrency());
  const std::size_t bytes =
      static_cast<std::size_t>(bandsolve::thomas_pcr_workspace<double>(n, team_size)) *
      sizeof(double);
  Kokkos::parallel_for(
      "my kernel",
      policy(exec(), nsys, team_size).set_scratch_size(1, Kokkos::PerTeam(bytes)),
      KOKKOS_LAMBDA(const policy::member_type& team) {
        const int s = team.league_rank();
        double* work = static_cast<double*>(team.team_scratch(1).get_shmem(bytes));
        const int code = bandsolve::thomas_pcr_solve(
            team, n, system_rows<const double>(&a(s, 0), 1), system_rows<const double>(&b(s, 0), 1),
            system_rows<const double>(&c(s, 0), 1), system_rows<double>(&d(s, 0), 1), work);
        if (team.team_rank() == 0) info(s) = code;
      });

  // 2. One thread per system: bandsolve::single_thread{} as the team, any workspace.
  const index_t per_system = bandsolve::thomas_pcr_workspace<double>(n, 1);
  Kokkos::View<double*, exec::memory_space> work("work", nsys * per_system);
  Kokkos::parallel_for(
      "my other kernel", Kokkos::RangePolicy<exec>(0, nsys), KOKKOS_LAMBDA(const int s) {
        info2(s) = bandsolve::thomas_pcr_solve(
            bandsolve::single_thread{}, n, system_rows<const double>(&a(s, 0), 1),
            system_rows<const double>(&b(s, 0), 1), system_rows<const double>(&c(s, 0), 1),
            system_rows<double>(&x2(s, 0), 1), &work(s * per_system));
      });
  exec().fence();

  // Check: residuals of both, and the two agree.
  host_batch<double> p(nsys, n);
  for (int s = 0; s < nsys; ++s)
    for (int i = 0; i < n; ++i) {
      p.a[p.idx(s, i)] = i > 0 ? -1 : 0;
      p.b[p.idx(s, i)] = 2 + 0.1 * (s + 1);
      p.c[p.idx(s, i)] = i + 1 < n ? -1 : 0;
      p.d[p.idx(s, i)] = 1;
    }
  const auto x = bstest::to_host(d, nsys), y = bstest::to_host(x2, nsys);
  CHECK(bstest::info_to_host(info) == std::vector<int>(nsys, 0));
  CHECK(bstest::info_to_host(info2) == std::vector<int>(nsys, 0));
  CHECK(bstest::max_residual(p, x) <= bstest::reduction_tol<double>(n));
  CHECK(bstest::max_rel_diff(y, x, nsys, n) <= bstest::reduction_tol<double>(n));
}

// Rows per chunk of a block of spikes by its bytes of lanes: the default 512 up to 256 bytes,
// halved per doubling above, never below four tips' rows.
TEST_CASE("spike_block_chunk_rows keeps a wide block's tile in L2", "[thomas_pcr][spike]") {
  namespace det = bandsolve::detail;
  REQUIRE(det::spike_chunk_rows == 512);
  REQUIRE(det::spike_tip_rows == 48);
  CHECK(det::spike_block_chunk_rows(64) == 512);
  CHECK(det::spike_block_chunk_rows(256) == 512);
  CHECK(det::spike_block_chunk_rows(512) == 256);
  CHECK(det::spike_block_chunk_rows(1024) == 256);  // 128 rows would hold fewer than 4 tips
}

// Few long systems side by side whose coupling decays take the truncated spikes
// (spike_lanes.hpp). Lowered to chunks of 16 rows with tips of 4 (defaults 512 and 48), so the
// systems need small off-diagonals for their spikes to fall below the roundoff within the tips:
// random_dominant systems with a and c scaled by 1e-5 (double; 1e-3 for float, whose roundoff is
// reached sooner), so that a tip left uncorrected shows above the tolerance. Column, interleaved
// packs of 8 (padding lanes kept bit for bit: partial packs take the partition path) and 3, and
// strided views (a slice of a bigger array whose other slice must stay untouched); nsys from 1 to
// a full block and a partial one (blocks of 8 and one of 3, or of 16 and 3, in column), one
// block of 2 and one and two of 4 widths in column and strided views (2 x wide, 4 x wide and
// 8 x wide systems: 32, 64 and 128 doubles; the widest with their chunks halved), for floats
// more than one block (one of 32 and one of 3), n a multiple of the chunk and not (the last chunk
// longer), a[0] and c[n-1] holding values that must be ignored; chunks that fail the checks
// (weakly dominant rows in one chunk: solved directly), and info of a zero or NaN row in and
// beside the tips. LAPACK ?gtsv as the reference.
TEMPLATE_TEST_CASE("thomas_pcr on systems side by side: the truncated spikes",
                   "[thomas_pcr][spike][lapack]", float, double) {
  using T = TestType;
  namespace det = bandsolve::detail;
  const index_t saved_rows = det::spike_chunk_rows, saved_tips = det::spike_tip_rows;
  det::spike_chunk_rows = 16;
  det::spike_tip_rows = 4;
  // Rows of system weak_s in [i0, i1) keep their off-diagonals, the others are scaled down.
  const auto strong = [](bstest::host_batch<T> p, std::size_t weak_s, std::size_t i0,
                         std::size_t i1) {
    for (std::size_t s = 0; s < p.nsys; ++s)
      for (std::size_t i = 0; i < p.n; ++i) {
        if (s == weak_s && i >= i0 && i < i1) continue;
        const T scale = sizeof(T) == sizeof(float) ? T(1e-3) : T(1e-5);
        p.a[p.idx(s, i)] *= scale;
        p.c[p.idx(s, i)] *= scale;
      }
    return p;
  };
  bstest::for_each_exec([&](auto exec) {
    using Exec = decltype(exec);
    using Mem = typename Exec::memory_space;
    std::uint32_t seed = 13000;
    auto run = [&](const char* what, const bstest::host_batch<T>& p,
                   const std::vector<int>& expected) {
      INFO(what << ", " << bstest::exec_name<Exec>() << ", n = " << p.n << ", nsys = " << p.nsys);
      const auto ref = bstest::reference_solve(p);
      const bstest::host_batch<T> q = bstest::with_ignored_ends(p);
      const auto check = [&](auto d, auto info) {
        bstest::check_reduction_solve(p, ref, expected, d, info);
      };
      {
        auto D = bstest::upload<bl::column, Exec>(q);
        auto info = bstest::make_info<Mem>(p.nsys);
        bandsolve::solve(exec, bandsolve::algo::thomas_pcr{}, D.a, D.b, D.c, D.d, info);
        exec.fence();
        check(D.d, info);
      }
      {  // interleaved packs: the padding lanes of the last pack hold a NaN that must stay
        auto D = bstest::upload<bl::interleaved<8>, Exec>(q);
        fill_padding_with_nan(D.d, p.nsys, p.n);
        const auto before = padding_of(D.d, p.nsys, p.n);
        auto info = bstest::make_info<Mem>(p.nsys);
        bandsolve::solve(exec, bandsolve::algo::thomas_pcr{}, D.a, D.b, D.c, D.d, info);
        exec.fence();
        check(D.d, info);
        CHECK(bstest::bitwise_equal(before, padding_of(D.d, p.nsys, p.n)));
      }
      {
        auto D = bstest::upload<bl::interleaved<3>, Exec>(q);
        auto info = bstest::make_info<Mem>(p.nsys);
        bandsolve::solve(exec, bandsolve::algo::thomas_pcr{}, D.a, D.b, D.c, D.d, info);
        exec.fence();
        check(D.d, info);
      }
      {  // unit system stride, rows 2 nsys apart; slice 0 is not the solver's to write
        using Big = Kokkos::View<T***, Kokkos::LayoutLeft, Mem>;
        using Sub = Kokkos::View<T**, Kokkos::LayoutStride, Mem>;
        Big big_d("big d", p.nsys, 2, p.n);
        Kokkos::deep_copy(big_d, T(3));
        const auto make = [&](const char* label, const std::vector<T>& h) {
          return column_major_slice<Mem>(label, h, p.nsys, p.n);
        };
        Sub d = Kokkos::subview(big_d, Kokkos::ALL, 1, Kokkos::ALL);
        bstest::fill(d, q.d, p.nsys);
        auto info = bstest::make_info<Mem>(p.nsys);
        bandsolve::solve(exec, bandsolve::algo::thomas_pcr{}, make("a", q.a), make("b", q.b),
                         make("c", q.c), d, info);
        exec.fence();
        check(d, info);
        const auto other = bstest::to_host(
            Sub(Kokkos::subview(big_d, Kokkos::ALL, 0, Kokkos::ALL)), p.nsys);
        CHECK(std::all_of(other.begin(), other.end(), [](T v) { return v == T(3); }));
      }
    };
    const std::size_t wide = det::partition_width_v<T>;
    for (std::size_t nsys : {std::size_t(1), std::size_t(3), wide / 2, wide / 2 + 3, wide,
                             wide + 3, 2 * wide, 4 * wide})
      for (std::size_t n : {std::size_t(64), std::size_t(70), std::size_t(100), std::size_t(200)}) {
        run("strong", strong(bstest::random_dominant<T>(nsys, n, seed++), nsys, 0, 0),
            std::vector<int>(nsys, 0));
        // one chunk of the last system weakly dominant: its block's chunk solved directly
        run("one weak chunk",
            strong(bstest::random_dominant<T>(nsys, n, seed++), nsys - 1, 32, 48),
            std::vector<int>(nsys, 0));
      }
    // Blocks of 4 x wide systems (512 bytes of lanes: one block, and two) take chunks of half
    // the rows, so that their tile keeps the size of a 256-byte block's: 16 rows where the
    // others take 32.
    det::spike_chunk_rows = 32;
    REQUIRE(det::spike_block_chunk_rows(2 * wide * sizeof(T)) == 32);
    REQUIRE(det::spike_block_chunk_rows(4 * wide * sizeof(T)) == 16);
    for (std::size_t nsys : {4 * wide, 8 * wide})
      for (std::size_t n : {std::size_t(128), std::size_t(150)}) {
        run("strong, chunks of 16", strong(bstest::random_dominant<T>(nsys, n, seed++), 0, 0, 0),
            std::vector<int>(nsys, 0));
        run("one weak chunk of 16",
            strong(bstest::random_dominant<T>(nsys, n, seed++), nsys - 1, 48, 64),
            std::vector<int>(nsys, 0));
      }
    det::spike_chunk_rows = 16;
    // A zero row or a NaN diagonal in system 1 of 3: rows in the top and bottom tips of a chunk,
    // between them, and the first and last rows of the systems. Thomas's LU pivot row.
    for (std::size_t row : {0, 2, 16, 17, 23, 30, 31, 50, 69})
      for (bool nan : {false, true}) {
        auto p = strong(bstest::random_dominant<T>(3, 70, seed++), 3, 0, 0);
        const std::size_t k = p.idx(1, row);
        if (nan)
          p.b[k] = std::numeric_limits<T>::quiet_NaN();
        else
          p.a[k] = p.b[k] = p.c[k] = T(0);
        run(nan ? "NaN" : "zero row", p, {0, static_cast<int>(row + 1), 0});
      }
  });
  det::spike_chunk_rows = saved_rows;
  det::spike_tip_rows = saved_tips;
}

}  // namespace test_thomas_pcr
