// Distributed block lines along an axis (bandsolve::mpi::solve_along with algo::block_thomas,
// and bandsolve::mpi::factorize_along with it, whose solves run twice to the same bits, and its
// refactor, bit for bit a fresh factorization):
// every rank holds a contiguous part of every line along the axis of a 2-D, 3-D or 4-D grid of
// m unknowns per point, and the result must equal the single-process solve_along of the whole
// grid to rounding, with its info codes on every rank: every axis, coefficients and d in
// LayoutRight order, LayoutLeft order and padded strided subviews (padding untouched), full and
// shared blocks, m = 2 and 3, with and without pivoting inside the blocks, float, double and
// complex d over real blocks, even and uneven splits (parts of 1 and 2 block rows), grids whose
// groups of lines lie side by side in memory (read as vectors) and groups that do not, one line; a
// singular block row; bad arguments on one rank, and ranks that disagree on the axis, make every
// rank throw. Run by mpiexec with 1-4 ranks.
//
// Every rank builds every block of the whole grid from a hash of (line, global row, entry), so
// it can compute the reference itself. Only CHECK is used: a REQUIRE failing on one rank would
// skip the collective calls that the other ranks then wait in.
#define BANDSOLVE_BLOCK_SIZES 2, 3
#include <bandsolve/mpi.hpp>  // the single-process solve_along too

#include <Kokkos_Core.hpp>
#include <catch2/catch_test_macros.hpp>
#include <mpi.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "axis_support.hpp"
#include "mpi_test_main.hpp"
#include "whole_lines.hpp"

namespace test_partitioned_block_along {  // units compile in groups: tests/mpi/CMakeLists.txt

namespace {

namespace bmpi = bandsolve::mpi;
using bandsolve::algo::block_thomas;
using bstest::at;
using bstest::extend;
using bstest::make_array;
using bstest::order;
using bstest::order_name;
using bstest::point_of;
using bstest_mpi::rank_space;
using bstest_mpi::thrown;
using bstest_mpi::world_rank;
using bstest_mpi::world_size;

// Block-diagonally dominant lines along the axis (each row of B_g has a diagonal entry larger
// than the sum of the row's other magnitudes in A_g, B_g, C_g by at least 1), line s's blocks
// from a hash of (s, global row g, which, entry); shared: every line line 0's. d from its own
// hash stream (two values for complex d). Line zero_line's block row zero_row: A, B, C all 0.
// Another value of `matrices` gives other blocks of the same shape (the same d).
struct block_lines {
  std::size_t N, m;
  bool shared = false;
  std::size_t zero_line = ~std::size_t(0), zero_row = 0;
  std::uint64_t matrices = 0;

  double coef(std::size_t s, std::size_t g, int which, std::size_t r, std::size_t c) const {
    if (s == zero_line && g == zero_row) return 0.0;
    const std::uint64_t line = (shared ? 0 : s) + matrices * 65536u;
    const auto raw = [&](int w, std::size_t rr, std::size_t cc) {
      if ((w == 0 && g == 0) || (w == 2 && g + 1 == N)) return 0.0;
      return bstest_mpi::hashed_value(((line * 1000003u + g) * 8u + std::uint64_t(w)) * 97u +
                                      rr * m + cc) /
             static_cast<double>(m);
    };
    if (which != 1 || r != c) return raw(which, r, c);
    double sum = 1.5;
    for (std::size_t k = 0; k < m; ++k) {
      sum += std::abs(raw(0, r, k)) + std::abs(raw(2, r, k));
      if (k != r) sum += std::abs(raw(1, r, k));
    }
    return (line + g + r) % 3 == 0 ? -sum : sum;
  }
  double rhs(std::size_t s, std::size_t g, std::size_t r, int part) const {
    return bstest_mpi::hashed_value(((s * 1000003u + g) * 8u + 3u + std::uint64_t(part)) * 97u +
                                    r);
  }
};

// Block rows of N held by each of P ranks: even, or 1, 2, 1, 2, ... with the rest on the last.
std::vector<std::size_t> parts_of(std::size_t N, int P, bool even) {
  std::vector<std::size_t> n(static_cast<std::size_t>(P));
  std::size_t used = 0;
  for (int r = 0; r < P; ++r) {
    const auto k = static_cast<std::size_t>(r);
    n[k] = even ? N / std::size_t(P) + (k < N % std::size_t(P) ? 1 : 0)
                : (r + 1 < P ? 1 + k % 2 : N - used);
    used += n[k];
  }
  return n;
}

template <class D>
D rhs_value(const block_lines& L, std::size_t s, std::size_t g, std::size_t r) {
  using T = bandsolve::real_type_t<D>;
  if constexpr (bandsolve::is_complex_v<D>)
    return D(T(L.rhs(s, g, r, 0)), T(L.rhs(s, g, r, 1)));
  else
    return D(L.rhs(s, g, r, 0));
}

// The grid's lines of L on the rows first .. first + n - 1 along `axis` (grid: the local extents)
// into a, b, c (full or shared) and d.
template <std::size_t R, bool Shared, class AView, class DView>
void fill(const block_lines& L, const std::array<std::size_t, R>& grid, int axis,
          std::size_t first, const AView& a, const AView& b, const AView& c, const DView& d) {
  using T = typename AView::value_type;
  using D = typename DView::value_type;
  const std::size_t n = grid[std::size_t(axis)], m = L.m;
  std::size_t nlines = 1;
  for (std::size_t k = 0; k < R; ++k)
    if (int(k) != axis) nlines *= grid[k];
  const AView* views[3] = {&a, &b, &c};
  for (std::size_t s = 0; s < nlines; ++s)
    for (std::size_t i = 0; i < n; ++i) {
      const auto p = point_of(grid, axis, s, i);
      for (std::size_t r = 0; r < m; ++r) {
        at(d, extend(p, r)) = rhs_value<D>(L, s, first + i, r);
        for (std::size_t q = 0; q < m; ++q)
          for (int w = 0; w < 3; ++w) {
            const T v = T(L.coef(s, first + i, w, r, q));
            if constexpr (Shared) {
              if (s == 0) at(*views[w], std::array<std::size_t, 3>{i, r, q}) = v;
            } else {
              at(*views[w], extend(p, r, q)) = v;
            }
          }
      }
    }
}

template <class D>
double magnitude(const D& v) {
  if constexpr (bandsolve::is_complex_v<D>)
    return std::hypot(double(v.real()), double(v.imag()));
  else
    return std::abs(double(v));
}

template <class T>
double tolerance() {
  return std::is_same_v<T, float> ? 1e-4 : 1e-12;
}

// What a case found: the largest difference of this rank's x from the reference's, relative to
// max(1, |x|), and the codes mpi::solve_along gave.
struct outcome {
  double worst = 0;
  std::vector<int> info;
};

// How a case solves this rank's part: mpi::solve_along; mpi::factorize_along and two solves;
// mpi::factorize_along of other blocks (in LayoutRight order), f.refactor with the case's and
// two solves, which must also equal a fresh factorization's solve bit for bit.
enum class mode { one_shot, factored, refactored };
const char* mode_name(mode k) {
  return k == mode::one_shot ? "one-shot" : k == mode::factored ? "factored" : "refactored";
}

// One case: the whole grid solved by the single-process solve_along, this rank's part as `how`
// says (coefficients in coef_order, d in d_order); checks that info equals the
// reference's on every rank and that d's padding is untouched.
template <class T, class D, std::size_t R, bool Shared>
outcome run_case(const block_lines& L, std::array<std::size_t, R> grid, int axis,
                const std::vector<std::size_t>& part, order coef_order, order d_order,
                block_thomas alg, mode how = mode::one_shot) {
  const std::size_t m = L.m;
  const int me = world_rank();
  std::size_t nlines = 1;
  for (std::size_t k = 0; k < R; ++k)
    if (int(k) != axis) nlines *= grid[k];
  using coefficient =
      std::conditional_t<Shared, bstest::strided<T, 3>, bstest::strided<T, int(R) + 2>>;
  const auto coefficients = [&](const std::array<std::size_t, R>& g, const char* label,
                                order o) {
    if constexpr (Shared)
      return make_array<T, 3>(label, {g[std::size_t(axis)], m, m}, o);
    else
      return coefficient(make_array<T, R + 2>(label, extend(g, m, m), o));
  };
  // The reference: the whole grid, LayoutRight order.
  const auto ra = coefficients(grid, "ra", order::right), rb = coefficients(grid, "rb", order::right),
             rc = coefficients(grid, "rc", order::right);
  const auto rd = make_array<D, R + 1>("rd", extend(grid, m), order::right);
  fill<R, Shared>(L, grid, axis, 0, ra, rb, rc, rd);
  const Kokkos::View<int*, Kokkos::HostSpace> rinfo("rinfo", nlines);
  bandsolve::solve_along(rank_space(), alg, axis, ra, rb, rc, rd, rinfo);
  Kokkos::fence();

  std::size_t first = 0;
  for (int r = 0; r < me; ++r) first += part[std::size_t(r)];
  std::array<std::size_t, R> local = grid;
  local[std::size_t(axis)] = part[std::size_t(me)];
  const auto a = coefficients(local, "a", coef_order), b = coefficients(local, "b", coef_order),
             c = coefficients(local, "c", coef_order);
  const D sentinel = D(777);
  const auto d_array =
      bstest::make_array_in_buffer<D, R + 1>("d", extend(local, m), d_order, sentinel);
  const auto& d = d_array.view;
  fill<R, Shared>(L, local, axis, first, a, b, c, d);
  const Kokkos::View<int*, Kokkos::HostSpace> info("info", nlines);
  Kokkos::deep_copy(info, -12345);
  if (how != mode::one_shot) {
    // Factored (the grid from d, or from a full coefficient array), solved twice: the second
    // solve of the same right-hand sides gives the first one's x bit for bit.
    const auto factorize = [&](const auto& fa, const auto& fb, const auto& fc) {
      if constexpr (Shared)
        return bmpi::factorize_along(rank_space(), MPI_COMM_WORLD, alg, axis, fa, fb, fc, d);
      else if (axis % 2 == 1)
        return bmpi::factorize_along(rank_space(), MPI_COMM_WORLD, alg, axis, fa, fb, fc, d);
      else
        return bmpi::factorize_along(rank_space(), MPI_COMM_WORLD, alg, axis, fa, fb, fc);
    };
    const auto raw = [&] {
      return std::vector<D>(d_array.whole.data(), d_array.whole.data() + d_array.whole.span());
    };
    const auto same_bits = [](const std::vector<D>& x, const std::vector<D>& y) {
      return x.size() == y.size() && std::memcmp(x.data(), y.data(), x.size() * sizeof(D)) == 0;
    };
    const std::vector<D> rhs = raw();
    auto f = [&] {
      if (how == mode::factored) return factorize(a, b, c);
      block_lines other = L;
      other.matrices = 7;
      other.zero_line = 1;  // block row 0 singular: a code the refactorization must clear
      other.zero_row = 0;
      const auto oa = coefficients(local, "oa", order::right),
                 ob = coefficients(local, "ob", order::right),
                 oc = coefficients(local, "oc", order::right);
      const auto od = make_array<D, R + 1>("od", extend(local, m), order::right);
      fill<R, Shared>(other, local, axis, first, oa, ob, oc, od);
      return factorize(oa, ob, oc);
    }();
    const auto copy = f;
    if (how == mode::refactored) {
      if (!Shared && nlines > 1) CHECK(f.info()(1) == 1);  // the other blocks' singular line
      f.refactor(rank_space(), a, b, c);
    }
    CHECK(f.nsys() == nlines);
    CHECK(f.rows() == local[std::size_t(axis)]);
    copy.solve(rank_space(), d);  // a copy made before sees the new factors
    const std::vector<D> x = raw();
    std::copy(rhs.begin(), rhs.end(), d_array.whole.data());
    f.solve(rank_space(), d);
    CHECK(same_bits(x, raw()));
    if (how == mode::refactored) {
      const auto fresh = factorize(a, b, c);
      std::copy(rhs.begin(), rhs.end(), d_array.whole.data());
      fresh.solve(rank_space(), d);
      CHECK(same_bits(x, raw()));
      CHECK(std::equal(fresh.info().data(), fresh.info().data() + nlines, f.info().data()));
    }
    Kokkos::deep_copy(info, f.info());
  } else {
    bmpi::solve_along(rank_space(), MPI_COMM_WORLD, alg, axis, a, b, c, d, info);
  }
  outcome out;
  double& worst = out.worst;
  for (std::size_t s = 0; s < nlines; ++s) {
    CHECK(info(s) == rinfo(s));
    out.info.push_back(info(s));
    for (std::size_t i = 0; i < local[std::size_t(axis)]; ++i)
      for (std::size_t r = 0; r < m; ++r) {
        const D x = at(d, extend(point_of(local, axis, s, i), r));
        const D y = at(rd, extend(point_of(grid, axis, s, first + i), r));
        worst = std::max(worst, magnitude(D(x - y)) / std::max(1.0, magnitude(y)));
      }
  }
  std::size_t changed = 0;  // d's padding keeps the sentinel
  if (d_order == order::padded) {
    std::vector<char> inside(d_array.whole.span(), 0);
    for (std::size_t s = 0; s < nlines; ++s)
      for (std::size_t i = 0; i < local[std::size_t(axis)]; ++i)
        for (std::size_t r = 0; r < m; ++r)
          inside[std::size_t(&at(d, extend(point_of(local, axis, s, i), r)) -
                             d_array.whole.data())] = 1;
    for (std::size_t e = 0; e < d_array.whole.span(); ++e)
      if (!inside[e] && !(d_array.whole.data()[e] == sentinel)) ++changed;
  }
  CHECK(changed == 0);
  return out;
}

// Every axis of a grid of rank R, both splits (the axis' extent 2P + 3: parts of 1 and 2 rows,
// and the rest on the last rank), the coefficient and d orders given.
template <class T, class D, std::size_t R, bool Shared>
void every_axis(std::array<std::size_t, R> grid, std::size_t m, block_thomas alg, order coef_order,
                order d_order) {
  const int P = world_size();
  for (int axis = 0; axis < int(R); ++axis)
    for (const bool even : {true, false}) {
      std::array<std::size_t, R> g = grid;
      g[std::size_t(axis)] = 2 * std::size_t(P) + 3;
      const block_lines L{g[std::size_t(axis)], m, Shared};
      INFO("rank " << R << " axis " << axis << " m " << m << (even ? " even" : " uneven")
                   << (Shared ? " shared" : "") << " coefficients " << order_name(coef_order)
                   << " d " << order_name(d_order) << " ranks " << P);
      for (const mode how : {mode::one_shot, mode::factored, mode::refactored}) {
        INFO(mode_name(how));
        CHECK(run_case<T, D, R, Shared>(L, g, axis, parts_of(g[std::size_t(axis)], P, even),
                                        coef_order, d_order, alg, how)
                  .worst <= tolerance<T>());
      }
    }
}

TEST_CASE("mpi::solve_along(block_thomas) equals the single-process solve_along",
          "[mpi][block][along]") {
  const block_thomas pivoting{block_thomas::pivoting::partial};
  for (const std::size_t m : {2, 3}) {
    every_axis<double, double, 3, false>({4, 3, 5}, m, block_thomas{}, order::right, order::left);
    every_axis<double, double, 3, false>({4, 3, 5}, m, pivoting, order::left, order::padded);
    every_axis<double, double, 3, false>({5, 2, 3}, m, block_thomas{}, order::padded,
                                         order::right);
    every_axis<double, double, 3, true>({4, 3, 5}, m, block_thomas{}, order::left, order::right);
  }
  every_axis<double, double, 2, false>({6, 5}, 3, block_thomas{}, order::left, order::padded);
  every_axis<double, double, 4, false>({2, 3, 2, 3}, 2, pivoting, order::right, order::left);
  every_axis<double, Kokkos::complex<double>, 3, false>({3, 4, 2}, 2, block_thomas{},
                                                        order::right, order::padded);
  every_axis<float, float, 3, false>({3, 4, 5}, 3, pivoting, order::padded, order::left);
  // LayoutLeft grids wide enough along x that a group's lines along y and z lie side by side in
  // memory (8 double or 16 float lanes: each block entry and component of d moves as one vector),
  // next to groups that wrap to the next row of lines and read lane by lane; shared blocks with d
  // side by side.
  every_axis<double, double, 3, false>({9, 4, 3}, 3, block_thomas{}, order::left, order::left);
  every_axis<float, float, 3, false>({17, 3, 2}, 2, pivoting, order::left, order::padded);
  every_axis<double, double, 3, true>({16, 3, 2}, 2, block_thomas{}, order::right, order::left);
  // One line along the split axis.
  const int P = world_size();
  const std::array<std::size_t, 2> one = {1, 2 * std::size_t(P) + 1};
  CHECK(run_case<double, double, 2, false>(block_lines{one[1], 3}, one, 1,
                                           parts_of(one[1], P, false), order::right,
                                           order::left, block_thomas{})
            .worst <= tolerance<double>());
}

TEST_CASE("mpi::solve_along(block_thomas) reports a singular block row on every rank",
          "[mpi][block][along]") {
  // Line 4 of a (3, N, 4) grid along y: block row N - 2, on the last rank (or the one before),
  // all zero; the reference's code (its global block row) on every rank.
  const int P = world_size();
  const std::size_t N = 2 * std::size_t(P) + 3;
  block_lines L{N, 3};
  L.zero_line = 4;
  L.zero_row = N - 2;
  const std::array<std::size_t, 3> grid = {3, N, 4};
  // x of the singular line is inf or NaN; the codes are what is checked (run_case compares them
  // with the reference's, line by line).
  // LayoutLeft arrays number the lines among the ranks in their memory's order (x fastest):
  // the code must come back at line 4 of solve_along's numbering all the same.
  std::vector<int> expected(12, 0);
  expected[4] = int(N) - 1;
  for (const order arrays : {order::right, order::left})
    for (const mode how : {mode::one_shot, mode::factored, mode::refactored}) {
      INFO(mode_name(how) << (arrays == order::left ? ", LayoutLeft" : ", LayoutRight"));
      const outcome o = run_case<double, double, 3, false>(L, grid, 1, parts_of(N, P, false),
                                                           arrays, arrays, block_thomas{}, how);
      CHECK(o.info == expected);
    }
}

TEST_CASE("mpi::solve_along(block_thomas): bad arguments on one rank make every rank throw",
          "[mpi][block][along]") {
  const int P = world_size(), me = world_rank();
  const bool bad = me == P - 1;
  using V5 = Kokkos::View<double*****, Kokkos::LayoutRight, Kokkos::HostSpace>;
  using V4 = Kokkos::View<double****, Kokkos::LayoutRight, Kokkos::HostSpace>;
  const std::size_t m = 2;
  const V5 a("a", 2, 3, 4, m, m);
  const std::string fn = "bandsolve::mpi::solve_along(block_thomas): rank " +
                         std::to_string(P - 1) + " of " + std::to_string(P) + ": ";
  // The lines of a (2, 3, 4) grid along axis (as many info entries).
  const auto solve = [&](int axis, const V4& d, const V5& b) {
    const std::size_t lines = axis == 0 ? 12 : axis == 1 ? 8 : 6;
    const Kokkos::View<int*, Kokkos::HostSpace> info("info", lines);
    return thrown([&] {
      bmpi::solve_along(rank_space(), MPI_COMM_WORLD, block_thomas{}, axis, b, b, b, d, info);
    });
  };
  const V4 d("d", 2, 3, 4, m);
  // A coefficient whose block size is not d's, on the last rank.
  const V5 b3("b3", 2, 3, 4, 3, 3);
  CHECK(solve(1, d, bad ? b3 : a) == fn + "a.extent(3) = 3 but d.extent(3) = 2 (blocks of m x m "
                                          "for the m unknowns of a point)");
  // Batch extents unlike the other ranks' (as many lines).
  const V5 a_other("a_other", 2, 4, 3, m, m);
  const V4 d_other("d_other", 2, 4, 3, m);
  const std::string other_extent = bad ? solve(0, d_other, a_other) : solve(0, d, a);
  if (P > 1)
    CHECK(other_extent ==
          "bandsolve::mpi::solve_along(block_thomas): the ranks hold different batch extents: "
          "d.extent(1) = 3 on rank 0 but 4 on rank " +
              std::to_string(P - 1) + " (only the extent along axis 0 may differ)");
  else
    CHECK(other_extent.empty());
  // Different axes.
  const std::string axes = solve(bad ? 2 : 0, d, a);
  if (P > 1)
    CHECK(axes == "bandsolve::mpi::solve_along(block_thomas): the ranks pass different axes: "
                  "axis = 0 on rank 0 but 2 on rank " +
                      std::to_string(P - 1));
  else
    CHECK(axes.empty());
  // An axis out of range on the last rank.
  const std::string out_of_range = thrown([&] {
    const Kokkos::View<int*, Kokkos::HostSpace> info("info", 8);
    bmpi::solve_along(rank_space(), MPI_COMM_WORLD, block_thomas{}, bad ? 3 : 1, a, a, a, d, info);
  });
  CHECK(out_of_range == fn + "axis = 3 but d has 3 grid axes (0 to 2; its last axis holds the m "
                             "unknowns of a point)");
  // The factored form: bad blocks in factorize_along, a bad d in a solve, on the last rank.
  const std::string factorize = thrown([&] {
    (void)bmpi::factorize_along(rank_space(), MPI_COMM_WORLD, block_thomas{}, 1, a, bad ? b3 : a,
                                a);
  });
  CHECK(factorize == "bandsolve::mpi::factorize_along(block_thomas): rank " +
                         std::to_string(P - 1) + " of " + std::to_string(P) +
                         ": a.extent(3) = 2 but b.extent(3) = 3 (blocks of m x m for the m "
                         "unknowns of a point)");
  const auto f = bmpi::factorize_along(rank_space(), MPI_COMM_WORLD, block_thomas{}, 1, a, a, a);
  const V4 d_wide("d_wide", 2, 3, 5, m);
  const std::string solve_bad = thrown([&] { f.solve(rank_space(), bad ? d_wide : d); });
  CHECK(solve_bad == "bandsolve::mpi::block_along_factorization::solve: rank " +
                         std::to_string(P - 1) + " of " + std::to_string(P) +
                         ": d.extent(2) = 5 but the factored grid has 4");
  CHECK(thrown([&] { f.solve(rank_space(), d); }).empty());
  auto g = f;
  const V5 a_wide("a_wide", 2, 3, 5, m, m);
  CHECK(thrown([&] { g.refactor(rank_space(), a, bad ? a_wide : a, a); }) ==
        "bandsolve::mpi::block_along_factorization::refactor: rank " + std::to_string(P - 1) +
            " of " + std::to_string(P) + ": b.extent(2) = 5 but the factored grid has 4");
  using V3 = Kokkos::View<double***, Kokkos::LayoutRight, Kokkos::HostSpace>;
  const V3 shared_short("short", 2, m, m), shared_rows("rows", 3, m, m);
  CHECK(thrown([&] { g.refactor(rank_space(), a, a, bad ? shared_short : shared_rows); }) ==
        "bandsolve::mpi::block_along_factorization::refactor: rank " + std::to_string(P - 1) +
            " of " + std::to_string(P) + ": c.extent(0) = 2 but the factored lines have 3 block "
            "rows");
  bmpi::block_along_factorization<double, rank_space> empty;
  CHECK(thrown([&] { empty.refactor(rank_space(), a, a, a); }) ==
        "bandsolve::mpi::block_along_factorization::refactor: this factorization is empty "
        "(default-constructed)");
  CHECK(thrown([&] { empty.solve(rank_space(), d); }) ==
        "bandsolve::mpi::block_along_factorization::solve: this factorization is empty "
        "(default-constructed)");
}

}  // namespace

}  // namespace test_partitioned_block_along
