// Distributed block Thomas (bandsolve::mpi::solve with algo::block_thomas): every rank holds a
// contiguous part of the block rows of every system, and the result must equal the single-process
// block Thomas solve of the whole lines to rounding and leave a small residual, for blocks of 2, 3,
// 5 and 8, float and double, row, column, strided and interleaved Views, even and uneven splits
// (parts of 1 and 2 block rows), one system and batches that are not a multiple of a pack (nor of
// the local passes' SIMD lanes), both exchange schemes, with and without pivoting inside the
// blocks; the words the exchanges send are counted. A singular block row gets the single-process
// info code on every rank; bad arguments on one rank, or different block sizes, make every rank
// throw. The factored form (mpi::factorize with algo::block_thomas) against the one-shot solve on
// the same cases, two right-hand sides per factorization; several right-hand sides per system in
// one View (one-shot and factored, every layout). The one-shot's rows stay in a buffer kept
// between calls. A factorization refactored with other matrices (another layout of the same kind,
// with and without pivoting) solves bit for bit as a fresh factorization of them, in the same
// storage, with their info codes (a line singular after refactoring, none after refactoring back);
// a shape unlike the factored one on one rank makes every rank throw the same message. Run by
// mpiexec with 1-4 ranks.
//
// Every rank builds every block of every line from a hash of (line, global row, entry), so it can
// compute the reference itself. Only CHECK is used: a REQUIRE failing on one rank would skip the
// collective calls that the other ranks then wait in.
//
// Only the block sizes the tests solve are compiled; a size left out (m = 4) is bad input that
// every rank reports.
#define BANDSOLVE_BLOCK_SIZES 2, 3, 5, 8
#include <bandsolve/mpi.hpp>  // the single-process block solve too

#include <Kokkos_Core.hpp>
#include <catch2/catch_test_macros.hpp>
#include <mpi.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "whole_lines.hpp"
#include "mpi_test_main.hpp"

namespace {

namespace bmpi = bandsolve::mpi;
using bandsolve::index_t;
using bandsolve::algo::block_thomas;
using exec_space = Kokkos::DefaultHostExecutionSpace;

using bstest_mpi::rank_space;
using bstest_mpi::thrown;
using bstest_mpi::world_rank;
using bstest_mpi::world_size;

// A value in [-1, 1) from (line, global row, which operand, entry).
double hashed(std::uint64_t s, std::uint64_t g, std::uint64_t which, std::uint64_t e) {
  return bstest_mpi::hashed_value(((s * 1000003u + g) * 8u + which) * 97u + e);
}

// nsys block-tridiagonal lines of N block rows of m x m blocks, block diagonally dominant (each
// row of B_g has a diagonal entry larger than the sum of the row's other magnitudes in A_g, B_g,
// C_g by at least 1); the (line, row) pairs in zero_rows have A, B, C all 0 (singular).
struct lines {
  std::size_t nsys, N, m;
  std::vector<std::pair<std::size_t, std::size_t>> zero_rows = {};
  // The first two equations of every block row swapped (A, B, C rows alike): B_g's leading
  // entry is then small, which the solve without pivoting inside the blocks handles badly.
  bool pivot_needed = false;
  // Lines whose first two block rows are I x_0 + I x_1 and I x_0 + I x_1 + C_1 x_2: every diagonal
  // block is regular but the second pivot block B_1 - A_1 B_0^-1 C_0 is exactly 0 (singular).
  std::vector<std::size_t> twin_rows = {};
  // The hash stream of d (another value gives another right-hand side for the same matrices).
  std::uint64_t rhs = 3;
  // Another value gives other matrices of the same shape (the same d).
  std::uint64_t matrices = 0;
  // which: 0 A, 1 B, 2 C; entry (r, c); 3: d, entry r.
  double coef(std::size_t s, std::size_t g, int which, std::size_t r, std::size_t c) const {
    for (const auto& z : zero_rows)
      if (z.first == s && z.second == g && which < 3) return 0.0;
    for (const auto t : twin_rows)
      if (t == s && g < 2 && (which == 1 || (which == 2 && g == 0) || (which == 0 && g == 1)))
        return r == c ? 1.0 : 0.0;
    if (which == 3) return hashed(s, g, rhs, r);
    const std::uint64_t sm = s + matrices * 65536u;
    const auto raw = [&](int w, std::size_t rr, std::size_t cc) {
      if ((w == 0 && g == 0) || (w == 2 && g + 1 == N)) return 0.0;
      return hashed(sm, g, static_cast<std::uint64_t>(w), rr * m + cc) / static_cast<double>(m);
    };
    if (pivot_needed && r < 2) r = 1 - r;
    if (which != 1 || r != c) return raw(which, r, c);
    double sum = 1.0 + 0.5 * (hashed(sm, g, 5, r) + 1.0);
    for (std::size_t k = 0; k < m; ++k) {
      sum += std::abs(raw(0, r, k)) + std::abs(raw(2, r, k));
      if (k != r) sum += std::abs(raw(1, r, k));
    }
    return hashed(sm, g, 6, r) < 0 ? -sum : sum;
  }
};

// The single-process block Thomas solve of the whole lines: x (s, g, r at (s*N + g)*m + r), info.
template <class T>
std::pair<std::vector<T>, std::vector<int>> reference(const lines& L, block_thomas algorithm) {
  using V4 = Kokkos::View<T****, Kokkos::LayoutRight, Kokkos::HostSpace>;
  V4 a("a", L.nsys, L.N, L.m, L.m), b("b", L.nsys, L.N, L.m, L.m), c("c", L.nsys, L.N, L.m, L.m);
  Kokkos::View<T***, Kokkos::LayoutRight, Kokkos::HostSpace> d("d", L.nsys, L.N, L.m);
  for (std::size_t s = 0; s < L.nsys; ++s)
    for (std::size_t g = 0; g < L.N; ++g)
      for (std::size_t r = 0; r < L.m; ++r) {
        d(s, g, r) = static_cast<T>(L.coef(s, g, 3, r, 0));
        for (std::size_t q = 0; q < L.m; ++q) {
          a(s, g, r, q) = static_cast<T>(L.coef(s, g, 0, r, q));
          b(s, g, r, q) = static_cast<T>(L.coef(s, g, 1, r, q));
          c(s, g, r, q) = static_cast<T>(L.coef(s, g, 2, r, q));
        }
      }
  Kokkos::View<int*, Kokkos::HostSpace> info("info", L.nsys);
  bandsolve::solve(rank_space(), algorithm, a, b, c, d, info);
  Kokkos::fence();
  return {std::vector<T>(d.data(), d.data() + d.size()),
          std::vector<int>(info.data(), info.data() + L.nsys)};
}

// Block rows held by each of P ranks out of N = 13 (or N = P for all_ones).
enum class split { even, one_two_rest, rest_two_one, alternate_two_one };
const char* split_name(split k) {
  const char* names[] = {"even", "1,2,7,rest", "rest,7,2,1", "2,1,2,1"};
  return names[static_cast<int>(k)];
}
std::vector<std::size_t> parts(split kind, int P) {
  std::vector<std::size_t> n(static_cast<std::size_t>(P));
  const std::size_t pattern[3] = {1, 2, 7};
  std::size_t used = 0;
  for (int r = 0; r < P; ++r) {
    std::size_t& k = n[static_cast<std::size_t>(r)];
    switch (kind) {
      case split::even: k = 13 / P + (r < 13 % P ? 1 : 0); break;
      case split::one_two_rest: k = r + 1 < P ? pattern[r] : 13 - used; break;
      case split::rest_two_one: k = r > 0 ? pattern[P - 1 - r] : 0; break;
      case split::alternate_two_one: k = r % 2 == 0 ? 2 : 1; break;
    }
    used += k;
  }
  if (kind == split::rest_two_one) n[0] = 13 - used;
  return n;
}

// View kinds of this rank's part: row (LayoutRight), column (LayoutLeft), strided (block rows
// 1 .. n of a LayoutRight array with two extra block rows per system), interleaved packs of 12
// doubles (a group of 8 lanes lies in one pack, systems 0-7 and 16-23, and loads as vectors, or
// spans two, systems 8-15, and loads lane by lane) or 20 floats (a group of 16 lanes, systems
// 0-15, in one pack).
enum class kind { row, column, strided, interleaved };
const char* kind_name(kind k) {
  const char* names[] = {"row", "column", "strided", "interleaved<12> (double), <20> (float)"};
  return names[static_cast<int>(k)];
}
template <class T>
constexpr std::size_t pack_width = std::is_same_v<T, float> ? 20 : 12;

// This rank's block rows [g0, g0 + n) of operand `which` as a View of kind K.
template <kind K, class T>
auto local_coef(const lines& L, std::size_t g0, std::size_t n, int which) {
  const auto fill = [&](const auto& v) {
    for (std::size_t s = 0; s < L.nsys; ++s)
      for (std::size_t i = 0; i < n; ++i)
        for (std::size_t r = 0; r < L.m; ++r)
          for (std::size_t q = 0; q < L.m; ++q)
            bandsolve::block_at(v, index_t(s), index_t(i), index_t(r), index_t(q)) =
                static_cast<T>(L.coef(s, g0 + i, which, r, q));
    return v;
  };
  if constexpr (K == kind::strided) {
    Kokkos::View<T****, Kokkos::LayoutRight, Kokkos::HostSpace> base("base", L.nsys, n + 2, L.m,
                                                                      L.m);
    Kokkos::deep_copy(base, T(1e30));  // never read
    Kokkos::View<T****, Kokkos::LayoutStride, Kokkos::HostSpace> v = Kokkos::subview(
        base, Kokkos::ALL, Kokkos::make_pair(std::size_t(1), n + 1), Kokkos::ALL, Kokkos::ALL);
    return fill(v);
  } else if constexpr (K == kind::interleaved) {
    return fill(Kokkos::View<T****[pack_width<T>], Kokkos::LayoutRight, Kokkos::HostSpace>(
        "coef", (L.nsys + pack_width<T> - 1) / pack_width<T>, n, L.m, L.m));
  } else {
    using Layout = std::conditional_t<K == kind::row, Kokkos::LayoutRight, Kokkos::LayoutLeft>;
    return fill(Kokkos::View<T****, Layout, Kokkos::HostSpace>("coef", L.nsys, n, L.m, L.m));
  }
}

template <kind K, class T>
auto local_rhs(const lines& L, std::size_t g0, std::size_t n) {
  const auto fill = [&](const auto& v) {
    for (std::size_t s = 0; s < L.nsys; ++s)
      for (std::size_t i = 0; i < n; ++i)
        for (std::size_t r = 0; r < L.m; ++r)
          bandsolve::block_at(v, index_t(s), index_t(i), index_t(r)) =
              static_cast<T>(L.coef(s, g0 + i, 3, r, 0));
    return v;
  };
  if constexpr (K == kind::strided) {
    Kokkos::View<T***, Kokkos::LayoutRight, Kokkos::HostSpace> base("dbase", L.nsys, n + 2, L.m);
    Kokkos::deep_copy(base, T(1e30));
    Kokkos::View<T***, Kokkos::LayoutStride, Kokkos::HostSpace> v = Kokkos::subview(
        base, Kokkos::ALL, Kokkos::make_pair(std::size_t(1), n + 1), Kokkos::ALL);
    return fill(v);
  } else if constexpr (K == kind::interleaved) {
    return fill(Kokkos::View<T***[pack_width<T>], Kokkos::LayoutRight, Kokkos::HostSpace>(
        "d", (L.nsys + pack_width<T> - 1) / pack_width<T>, n, L.m));
  } else {
    using Layout = std::conditional_t<K == kind::row, Kokkos::LayoutRight, Kokkos::LayoutLeft>;
    return fill(Kokkos::View<T***, Layout, Kokkos::HostSpace>("d", L.nsys, n, L.m));
  }
}

// This rank's first global block row and block rows under `sizes`.
std::pair<std::size_t, std::size_t> my_rows(const std::vector<std::size_t>& sizes) {
  const std::size_t me = static_cast<std::size_t>(world_rank());
  std::size_t g0 = 0;
  for (std::size_t r = 0; r < me; ++r) g0 += sizes[r];
  return {g0, sizes[me]};
}

// Words the reduced systems' exchanges sent from this rank (mpi_test_main.hpp).
using bstest_mpi::words_sent;

// Reduced block rows per line under `sizes`: 1 per part of one block row, else 2.
std::size_t reduced_rows(const std::vector<std::size_t>& sizes) {
  std::size_t K = 0;
  for (const auto n : sizes) K += n == 1 ? 1 : 2;
  return K;
}

struct outcome {
  double max_error = 0;     // |x - x_ref| / (1 + |x_ref|) over this rank's rows, regular lines
  double max_residual = 0;  // |A x_{g-1} + B x_g + C x_{g+1} - d| / (1 + sum of magnitudes)
  std::vector<int> info;
};

// Solves this rank's part under `sizes` with Views of kind K and measures it against the
// reference and by the residual of the whole lines (x gathered on every rank).
template <kind K, class T>
outcome run(const lines& L, const std::vector<std::size_t>& sizes, bmpi::options opts,
            block_thomas algorithm = {}) {
  const auto [g0, n] = my_rows(sizes);
  const auto a = local_coef<K, T>(L, g0, n, 0);
  const auto b = local_coef<K, T>(L, g0, n, 1);
  const auto c = local_coef<K, T>(L, g0, n, 2);
  const auto d = local_rhs<K, T>(L, g0, n);
  Kokkos::View<int*, Kokkos::HostSpace> info("info", L.nsys);
  Kokkos::deep_copy(info, -7);
  words_sent = 0;
  bmpi::solve(exec_space(), MPI_COMM_WORLD, algorithm, a, b, c, d, info, opts);
  // Words per line per rank: K reduced rows of 2m^2 + m words there and m back (none on one
  // rank, which solves on its own).
  long long total = words_sent;
  MPI_Allreduce(MPI_IN_PLACE, &total, 1, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
  const int P = world_size();
  const double words = static_cast<double>(total) / static_cast<double>(L.nsys * std::size_t(P));
  const std::size_t per_row = 2 * L.m * L.m + 2 * L.m;
  CHECK(words == (P > 1 ? static_cast<double>(reduced_rows(sizes) * per_row) / P : 0.0));
  CHECK(words <= static_cast<double>(2 * per_row));
  const auto [xref, iref] = reference<T>(L, algorithm);
  outcome out;
  out.info.assign(info.data(), info.data() + L.nsys);
  const std::size_t m = L.m, N = L.N;
  // The whole solution on every rank (each rank adds its rows to zeros).
  std::vector<double> x(L.nsys * N * m, 0.0);
  for (std::size_t s = 0; s < L.nsys; ++s)
    for (std::size_t i = 0; i < n; ++i)
      for (std::size_t r = 0; r < m; ++r)
        x[(s * N + g0 + i) * m + r] =
            static_cast<double>(bandsolve::block_at(d, index_t(s), index_t(i), index_t(r)));
  if constexpr (K == kind::interleaved) {  // padding lanes (zero) neither read nor written
    bool untouched = true;
    for (std::size_t s = L.nsys; s < d.extent(0) * pack_width<T>; ++s)
      for (std::size_t i = 0; i < n; ++i)
        for (std::size_t r = 0; r < m; ++r)
          untouched = untouched &&
                      bandsolve::block_at(d, index_t(s), index_t(i), index_t(r)) == T(0);
    CHECK(untouched);
  }
  MPI_Allreduce(MPI_IN_PLACE, x.data(), static_cast<int>(x.size()), MPI_DOUBLE, MPI_SUM,
                MPI_COMM_WORLD);
  for (std::size_t s = 0; s < L.nsys; ++s) {
    if (iref[s] != 0) continue;
    for (std::size_t i = 0; i < n; ++i)
      for (std::size_t r = 0; r < m; ++r) {
        const double xr = static_cast<double>(xref[(s * N + g0 + i) * m + r]);
        const double e = std::abs(x[(s * N + g0 + i) * m + r] - xr) / (1.0 + std::abs(xr));
        if (!(e <= out.max_error)) out.max_error = std::isnan(e) ? 1e300 : e;
      }
    for (std::size_t g = 0; g < N; ++g)
      for (std::size_t r = 0; r < m; ++r) {
        double res = -L.coef(s, g, 3, r, 0), mag = 1.0 + std::abs(res);
        for (std::size_t q = 0; q < m; ++q) {
          const double terms[3] = {
              g > 0 ? L.coef(s, g, 0, r, q) * x[(s * N + g - 1) * m + q] : 0.0,
              L.coef(s, g, 1, r, q) * x[(s * N + g) * m + q],
              g + 1 < N ? L.coef(s, g, 2, r, q) * x[(s * N + g + 1) * m + q] : 0.0};
          for (const double t : terms) res += t, mag += std::abs(t);
        }
        const double rel = std::abs(res) / mag;
        if (!(rel <= out.max_residual)) out.max_residual = std::isnan(rel) ? 1e300 : rel;
      }
  }
  // info: the reference's codes on every rank.
  for (std::size_t s = 0; s < L.nsys; ++s) CHECK(out.info[s] == iref[s]);
  return out;
}

template <class T>
double tolerance() {
  return std::is_same_v<T, float> ? 1e-4 : 1e-12;
}

template <kind K, class T>
void check_layout() {
  const int P = world_size();
  const bmpi::exchange schemes[2] = {bmpi::exchange::gather, bmpi::exchange::all_to_all};
  const split splits[3] = {split::even, split::one_two_rest, split::rest_two_one};
  for (const std::size_t m : {2, 3, 5, 8})
    for (const std::size_t nsys : {1, 11, 19})  // groups of 8 (16) lanes, the last one partial
      for (const split sp : splits)
        for (const auto scheme : schemes) {
          bmpi::options opts;
          opts.scheme = scheme;
          const lines L{nsys, 13, m};
          const outcome o = run<K, T>(L, parts(sp, P), opts);
          INFO(kind_name(K) << (std::is_same_v<T, float> ? " float" : " double") << " m = " << m
                            << " nsys = " << nsys << " split " << split_name(sp) << " scheme "
                            << static_cast<int>(scheme) << " ranks " << P);
          CHECK(o.max_error <= tolerance<T>());
          CHECK(o.max_residual <= tolerance<T>());
        }
}

TEST_CASE("mpi::solve(block_thomas) equals the single-process block solve", "[mpi][block]") {
  check_layout<kind::row, double>();
  check_layout<kind::column, double>();
  check_layout<kind::strided, double>();
  check_layout<kind::interleaved, double>();
  check_layout<kind::row, float>();
  check_layout<kind::column, float>();
  check_layout<kind::strided, float>();
  check_layout<kind::interleaved, float>();
}

// The one-shot keeps its rows (2m^2 words per block row and line) in a buffer kept between calls
// (mpi/staging.hpp, block_rows_tag): a second solve finds it where the first left it, so it maps
// no fresh pages.
TEST_CASE("mpi::solve(block_thomas) keeps its rows in a buffer kept between calls",
          "[mpi][block]") {
  const int P = world_size();
  if (P == 1) return;  // one rank: the single-process solve
  const auto& rows =
      bandsolve::detail::scratch_cache<Kokkos::HostSpace, bmpi::detail::block_rows_tag>::instance();
  const lines L{19, 13, 3};
  const outcome first = run<kind::row, double>(L, parts(split::even, P), {});
  CHECK(rows.buffer.has_value());
  const char* const at = rows.buffer ? rows.buffer->data() : nullptr;
  const outcome second = run<kind::row, double>(L, parts(split::even, P), {});
  CHECK((rows.buffer && rows.buffer->data() == at));
  CHECK(first.info == second.info);
  CHECK(second.max_error <= tolerance<double>());
  CHECK(second.max_residual <= tolerance<double>());
}

// The one-shot solve in batches of lines, each reduced, exchanged and finished before the next
// (options::batch_bytes_per_thread = 1 takes the smallest batch, 16 lines per thread): 35 lines
// in batches of 16, the last partial; lines with a zero block row in the second and the last
// batch get the single-process codes on every rank.
TEST_CASE("mpi::solve(block_thomas) in batches of lines equals the single-process block solve",
          "[mpi][block]") {
  const int P = world_size();
  for (const split sp : {split::even, split::rest_two_one})
    for (const auto scheme : {bmpi::exchange::gather, bmpi::exchange::all_to_all}) {
      bmpi::options opts;
      opts.scheme = scheme;
      opts.batch_bytes_per_thread = 1;
      INFO("split " << split_name(sp) << " scheme " << static_cast<int>(scheme));
      lines L{35, 13, 3};
      L.zero_rows = {{20, 4}, {33, 12}};
      const outcome o = run<kind::row, double>(L, parts(sp, P), opts);
      CHECK(o.info[20] == 5);
      CHECK(o.info[33] == 13);
      CHECK(o.max_error <= 1e-12);
      CHECK(o.max_residual <= 1e-12);
      const outcome f = run<kind::column, float>(lines{35, 13, 2}, parts(sp, P), opts);
      CHECK(f.max_error <= tolerance<float>());
      CHECK(f.max_residual <= tolerance<float>());
    }
}

TEST_CASE("mpi::solve(block_thomas): 2,1,2,1 splits and one block row per rank",
          "[mpi][block]") {
  const int P = world_size();
  for (const std::size_t m : {3, 8}) {
    const lines L{5, static_cast<std::size_t>(P), m};
    const outcome ones = run<kind::row, double>(L, std::vector<std::size_t>(P, 1), {});
    CHECK(ones.max_error <= 1e-12);
    CHECK(ones.max_residual <= 1e-12);
    const auto sizes = parts(split::alternate_two_one, P);
    std::size_t N = 0;
    for (const auto k : sizes) N += k;
    const lines L2{5, N, m};
    const outcome alt = run<kind::column, double>(L2, sizes, {});
    CHECK(alt.max_error <= 1e-12);
    CHECK(alt.max_residual <= 1e-12);
  }
}

TEST_CASE("mpi::solve(block_thomas) with pivoting inside the blocks", "[mpi][block]") {
  const int P = world_size();
  lines L{9, 13, 3};
  L.pivot_needed = true;
  const block_thomas partial{block_thomas::pivoting::partial};
  for (const split sp : {split::even, split::one_two_rest}) {
    const outcome o = run<kind::row, double>(L, parts(sp, P), {}, partial);
    INFO("split " << split_name(sp));
    CHECK(o.max_error <= 1e-12);
    CHECK(o.max_residual <= 1e-12);
  }
}

TEST_CASE("mpi::solve(block_thomas): a singular block row gets the same info on every rank",
          "[mpi][block]") {
  const int P = world_size();
  for (const split sp : {split::even, split::one_two_rest, split::rest_two_one})
    for (const auto scheme : {bmpi::exchange::gather, bmpi::exchange::all_to_all}) {
      bmpi::options opts;
      opts.scheme = scheme;
      // Zero block rows at the first, an interior, a part's edge and the last row; line 5 twice.
      lines L{9, 13, 3};
      L.zero_rows = {{1, 0}, {3, 6}, {5, 1}, {5, 9}, {6, 2}, {7, 12}};
      const outcome o = run<kind::row, double>(L, parts(sp, P), opts);
      INFO("split " << split_name(sp) << " scheme " << static_cast<int>(scheme));
      CHECK(o.info[1] == 1);
      CHECK(o.info[3] == 7);
      CHECK(o.info[5] == 2);
      CHECK(o.info[7] == 13);
      CHECK(o.info[0] == 0);
      CHECK(o.max_error <= 1e-12);  // the regular lines
      // Every rank holds the same codes.
      std::vector<int> lo(o.info), hi(o.info);
      MPI_Allreduce(MPI_IN_PLACE, lo.data(), static_cast<int>(lo.size()), MPI_INT, MPI_MIN,
                    MPI_COMM_WORLD);
      MPI_Allreduce(MPI_IN_PLACE, hi.data(), static_cast<int>(hi.size()), MPI_INT, MPI_MAX,
                    MPI_COMM_WORLD);
      CHECK(lo == hi);
    }
}

TEST_CASE("mpi::solve(block_thomas): a line whose reduced system is singular gets a code on "
          "every rank", "[mpi][block]") {
  const int P = world_size();
  // Parts of 1 and 2 block rows: the local passes divide by regular diagonal blocks only, and the
  // reduced block solve meets the zero pivot block at the interface row of global block row 2.
  for (const split sp : {split::alternate_two_one})
    for (const auto scheme : {bmpi::exchange::gather, bmpi::exchange::all_to_all}) {
      bmpi::options opts;
      opts.scheme = scheme;
      const auto sizes = parts(sp, P);
      std::size_t N = 0;
      for (const auto k : sizes) N += k;
      for (const std::size_t m : {2, 5}) {
        lines L{6, N, m};
        L.twin_rows = {0, 4};
        const outcome o = run<kind::row, double>(L, sizes, opts);
        INFO("split " << split_name(sp) << " scheme " << static_cast<int>(scheme) << " m = " << m);
        CHECK(o.info[0] == 2);  // the single-process code too (run checks it on every rank)
        CHECK(o.info[4] == 2);
        CHECK(o.info[1] == 0);
        CHECK(o.max_error <= 1e-12);
      }
    }
  // One block row per rank.
  if (P >= 2) {
    lines L{3, static_cast<std::size_t>(P), 3};
    L.twin_rows = {1};
    const outcome o = run<kind::column, double>(L, std::vector<std::size_t>(P, 1), {});
    CHECK(o.info[1] == 2);
    CHECK(o.info[0] == 0);
  }
}

TEST_CASE("mpi::solve(block_thomas): bad arguments on one rank make every rank throw",
          "[mpi][block]") {
  const int P = world_size(), me = world_rank();
  const std::size_t m = 3, nsys = 4;
  const lines L{nsys, static_cast<std::size_t>(2 * P), m};
  using V4 = Kokkos::View<double****, Kokkos::LayoutRight, Kokkos::HostSpace>;
  using V3 = Kokkos::View<double***, Kokkos::LayoutRight, Kokkos::HostSpace>;
  Kokkos::View<int*, Kokkos::HostSpace> info("info", nsys);
  const std::string fn = "bandsolve::mpi::solve(block_thomas): ";
  const bool bad = me == P - 1;

  // d with a wrong block size on the last rank.
  {
    V4 a("a", nsys, 2, m, m), b("b", nsys, 2, m, m), c("c", nsys, 2, m, m);
    V3 d("d", nsys, 2, bad ? m + 1 : m);
    const std::string msg = thrown([&] {
      bmpi::solve(exec_space(), MPI_COMM_WORLD, block_thomas{}, a, b, c, d, info);
    });
    CHECK(msg.rfind(fn, 0) == 0);
    CHECK(msg.find("rank " + std::to_string(P - 1) + " of " + std::to_string(P)) !=
          std::string::npos);
    CHECK(msg.find("d.extent(2) = 4") != std::string::npos);
  }
  // An unsupported block size (m = 9), then one this program does not compile (m = 4), on the
  // last rank.
  const std::pair<std::size_t, const char*> bad_sizes[] = {
      {9, "m = 9"},
      {4, "m = 4 is not compiled in this program: BANDSOLVE_BLOCK_SIZES = 2, 3, 5, 8"}};
  for (const auto& [bad_m, expected] : bad_sizes) {
    const std::size_t mb = bad ? bad_m : m;
    V4 a("a", nsys, 2, mb, mb), b("b", nsys, 2, mb, mb), c("c", nsys, 2, mb, mb);
    V3 d("d", nsys, 2, mb);
    const std::string msg = thrown([&] {
      bmpi::solve(exec_space(), MPI_COMM_WORLD, block_thomas{}, a, b, c, d, info);
    });
    CHECK(msg.rfind(fn, 0) == 0);
    CHECK(msg.find(expected) != std::string::npos);
  }
  // No block rows on the last rank.
  {
    const std::size_t n = bad ? 0 : 2;
    V4 a("a", nsys, n, m, m), b("b", nsys, n, m, m), c("c", nsys, n, m, m);
    V3 d("d", nsys, n, m);
    const std::string msg = thrown([&] {
      bmpi::solve(exec_space(), MPI_COMM_WORLD, block_thomas{}, a, b, c, d, info);
    });
    CHECK(msg.rfind(fn, 0) == 0);
    CHECK(msg.find("holds 0 rows") != std::string::npos);
  }
  // Different numbers of systems.
  {
    const std::size_t ns = bad && P > 1 ? nsys - 1 : nsys;
    V4 a("a", ns, 2, m, m), b("b", ns, 2, m, m), c("c", ns, 2, m, m);
    V3 d("d", ns, 2, m);
    Kokkos::View<int*, Kokkos::HostSpace> inf("info", ns);
    const std::string msg = thrown([&] {
      bmpi::solve(exec_space(), MPI_COMM_WORLD, block_thomas{}, a, b, c, d, inf);
    });
    if (P > 1) {
      CHECK(msg.rfind(fn, 0) == 0);
      CHECK(msg.find("different numbers of systems") != std::string::npos);
    } else {
      CHECK(msg.empty());
    }
  }
  // Different (valid) block sizes.
  {
    const std::size_t mb = bad && P > 1 ? 2 : m;
    const auto a = local_coef<kind::row, double>(lines{nsys, 2 * std::size_t(P), mb}, 0, 2, 0);
    const auto b = local_coef<kind::row, double>(lines{nsys, 2 * std::size_t(P), mb}, 0, 2, 1);
    const auto c = local_coef<kind::row, double>(lines{nsys, 2 * std::size_t(P), mb}, 0, 2, 2);
    const auto d = local_rhs<kind::row, double>(lines{nsys, 2 * std::size_t(P), mb}, 0, 2);
    const std::string msg = thrown([&] {
      bmpi::solve(exec_space(), MPI_COMM_WORLD, block_thomas{}, a, b, c, d, info);
    });
    if (P > 1) {
      CHECK(msg.rfind(fn, 0) == 0);
      CHECK(msg.find("different block sizes: m = 3 on rank 0 but 2 on rank " +
                     std::to_string(P - 1)) != std::string::npos);
    } else {
      CHECK(msg.empty());
    }
  }
  // Different exchange schemes.
  if (P > 1) {
    const auto [g0, n] = my_rows(std::vector<std::size_t>(P, 2));
    const auto a = local_coef<kind::row, double>(L, g0, n, 0);
    const auto b = local_coef<kind::row, double>(L, g0, n, 1);
    const auto c = local_coef<kind::row, double>(L, g0, n, 2);
    const auto d = local_rhs<kind::row, double>(L, g0, n);
    bmpi::options opts;
    opts.scheme = bad ? bmpi::exchange::gather : bmpi::exchange::all_to_all;
    const std::string msg = thrown([&] {
      bmpi::solve(exec_space(), MPI_COMM_WORLD, block_thomas{}, a, b, c, d, info, opts);
    });
    CHECK(msg.rfind(fn, 0) == 0);
    CHECK(msg.find("different options") != std::string::npos);
  }
  // After all that, a good call still works on every rank.
  const outcome o = run<kind::row, double>(L, std::vector<std::size_t>(P, 2), {});
  CHECK(o.max_error <= 1e-12);
}

// Factors this rank's part under `sizes` with Views of kind K, then solves two right-hand sides
// and compares each with the one-shot solve of the same d (info codes included, the same on
// every rank) and counts the words sent: K reduced rows of 2m^2 words when factoring, m there and
// m back per reduced row per solve. Returns the factorization's info codes.
template <kind K, class T>
std::vector<int> check_factored(const lines& L0, const std::vector<std::size_t>& sizes,
                                bmpi::options opts, block_thomas algorithm = {}) {
  const int P = world_size();
  const auto [g0, n] = my_rows(sizes);
  const auto a = local_coef<K, T>(L0, g0, n, 0);
  const auto b = local_coef<K, T>(L0, g0, n, 1);
  const auto c = local_coef<K, T>(L0, g0, n, 2);
  const auto per_line = [&](std::size_t words_per_row) {
    long long total = words_sent;
    MPI_Allreduce(MPI_IN_PLACE, &total, 1, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
    CHECK(static_cast<double>(total) / static_cast<double>(L0.nsys * std::size_t(P)) ==
          (P > 1 ? static_cast<double>(reduced_rows(sizes) * words_per_row) / P : 0.0));
    return static_cast<double>(total) / static_cast<double>(L0.nsys * std::size_t(P));
  };
  words_sent = 0;
  const auto f = bmpi::factorize(exec_space(), MPI_COMM_WORLD, algorithm, a, b, c, L0.nsys, opts);
  per_line(2 * L0.m * L0.m);
  std::vector<int> codes(f.info().data(), f.info().data() + L0.nsys);
  for (const std::uint64_t seed : {3, 7}) {
    lines L = L0;
    L.rhs = seed;
    const auto d = local_rhs<K, T>(L, g0, n);
    const auto e = local_rhs<K, T>(L, g0, n);
    Kokkos::View<int*, Kokkos::HostSpace> info("info", L.nsys);
    bmpi::solve(exec_space(), MPI_COMM_WORLD, algorithm, a, b, c, e, info, opts);
    words_sent = 0;
    f.solve(exec_space(), d);
    CHECK(per_line(2 * L.m) <= static_cast<double>(4 * L.m));
    double err = 0;
    for (std::size_t s = 0; s < d.extent(0) * (K == kind::interleaved ? pack_width<T> : 1); ++s)
      for (std::size_t i = 0; i < n; ++i)
        for (std::size_t r = 0; r < L.m; ++r) {
          const auto at = [&](const auto& v) {
            return static_cast<double>(bandsolve::block_at(v, index_t(s), index_t(i), index_t(r)));
          };
          if (s >= L.nsys) {  // padding lanes untouched
            CHECK(at(d) == 0.0);
          } else if (info(s) == 0) {
            const double rel = std::abs(at(d) - at(e)) / (1.0 + std::abs(at(e)));
            if (!(rel <= err)) err = std::isnan(rel) ? 1e300 : rel;
          }
        }
    INFO(kind_name(K) << (std::is_same_v<T, float> ? " float" : " double") << " m = " << L.m
                      << " nsys = " << L.nsys << " scheme " << static_cast<int>(opts.scheme)
                      << " ranks " << P << " rhs " << seed);
    CHECK(err <= tolerance<T>());
    for (std::size_t s = 0; s < L.nsys; ++s) CHECK(codes[s] == info(s));
  }
  std::vector<int> lo(codes), hi(codes);
  MPI_Allreduce(MPI_IN_PLACE, lo.data(), static_cast<int>(lo.size()), MPI_INT, MPI_MIN,
                MPI_COMM_WORLD);
  MPI_Allreduce(MPI_IN_PLACE, hi.data(), static_cast<int>(hi.size()), MPI_INT, MPI_MAX,
                MPI_COMM_WORLD);
  CHECK(lo == hi);
  return codes;
}

TEST_CASE("mpi::factorize(block_thomas): solves equal the one-shot solve", "[mpi][block]") {
  const int P = world_size();
  for (const auto scheme : {bmpi::exchange::gather, bmpi::exchange::all_to_all}) {
    bmpi::options opts;
    opts.scheme = scheme;
    for (const split sp : {split::even, split::one_two_rest, split::rest_two_one}) {
      const auto sizes = parts(sp, P);
      // 19 systems: groups of 8 (16) lanes in the local passes, the last one partial.
      check_factored<kind::row, double>(lines{19, 13, 3}, sizes, opts);
      check_factored<kind::column, double>(lines{11, 13, 8}, sizes, opts);
      check_factored<kind::strided, double>(lines{11, 13, 2}, sizes, opts);
      check_factored<kind::interleaved, double>(lines{19, 13, 3}, sizes, opts);
      check_factored<kind::row, float>(lines{1, 13, 2}, sizes, opts);
      check_factored<kind::column, float>(lines{19, 13, 3}, sizes, opts);
      check_factored<kind::strided, float>(lines{11, 13, 8}, sizes, opts);
      check_factored<kind::interleaved, float>(lines{19, 13, 8}, sizes, opts);
    }
    // One block row per rank, and 2,1,2,1.
    check_factored<kind::row, double>(lines{5, std::size_t(P), 3}, std::vector<std::size_t>(P, 1),
                                      opts);
    const auto alt = parts(split::alternate_two_one, P);
    std::size_t N = 0;
    for (const auto k : alt) N += k;
    check_factored<kind::column, double>(lines{5, N, 8}, alt, opts);
  }
  // Pivoting inside the blocks.
  lines L{9, 13, 3};
  L.pivot_needed = true;
  for (const split sp : {split::even, split::one_two_rest})
    check_factored<kind::row, double>(L, parts(sp, P), {},
                                      block_thomas{block_thomas::pivoting::partial});
}

// This rank's block rows [g0, g0 + n) of nrhs right-hand sides (right-hand side k: the hash
// stream 11 + k) as a View of kind K with several right-hand sides per system: (nsys, n, m, nrhs),
// or packs (packs, n, m, nrhs, W).
template <kind K, class T>
auto local_rhs_several(const lines& L, std::size_t g0, std::size_t n, std::size_t nrhs) {
  const auto fill = [&](const auto& v) {
    for (std::size_t k = 0; k < nrhs; ++k) {
      lines Lk = L;
      Lk.rhs = 11 + k;
      for (std::size_t s = 0; s < L.nsys; ++s)
        for (std::size_t i = 0; i < n; ++i)
          for (std::size_t r = 0; r < L.m; ++r)
            bandsolve::block_at(v, index_t(s), index_t(i), index_t(r), index_t(k)) =
                static_cast<T>(Lk.coef(s, g0 + i, 3, r, 0));
    }
    return v;
  };
  if constexpr (K == kind::strided) {
    Kokkos::View<T****, Kokkos::LayoutRight, Kokkos::HostSpace> base("dbase", L.nsys, n + 2, L.m,
                                                                      nrhs);
    Kokkos::deep_copy(base, T(1e30));
    Kokkos::View<T****, Kokkos::LayoutStride, Kokkos::HostSpace> v = Kokkos::subview(
        base, Kokkos::ALL, Kokkos::make_pair(std::size_t(1), n + 1), Kokkos::ALL, Kokkos::ALL);
    return fill(v);
  } else if constexpr (K == kind::interleaved) {
    return fill(Kokkos::View<T****[pack_width<T>], Kokkos::LayoutRight, Kokkos::HostSpace>(
        "d", (L.nsys + pack_width<T> - 1) / pack_width<T>, n, L.m, nrhs));
  } else {
    using Layout = std::conditional_t<K == kind::row, Kokkos::LayoutRight, Kokkos::LayoutLeft>;
    return fill(Kokkos::View<T****, Layout, Kokkos::HostSpace>("d", L.nsys, n, L.m, nrhs));
  }
}

// nrhs right-hand sides per system solved at once, one-shot and by a factorization, against the
// single-process solve of each (x and info codes), with the words sent counted: K reduced rows of
// 2m^2 + m nrhs words there and m nrhs back one-shot, m nrhs there and back factored.
template <kind K, class T>
void check_several(const lines& L, const std::vector<std::size_t>& sizes, std::size_t nrhs,
                   bmpi::options opts) {
  const int P = world_size();
  const auto [g0, n] = my_rows(sizes);
  const auto a = local_coef<K, T>(L, g0, n, 0);
  const auto b = local_coef<K, T>(L, g0, n, 1);
  const auto c = local_coef<K, T>(L, g0, n, 2);
  const auto words_per_line = [&]() {
    long long total = words_sent;
    MPI_Allreduce(MPI_IN_PLACE, &total, 1, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
    return static_cast<double>(total) / static_cast<double>(L.nsys * std::size_t(P));
  };
  const auto expected = [&](std::size_t words_per_row) {
    return P > 1 ? static_cast<double>(reduced_rows(sizes) * words_per_row) / P : 0.0;
  };
  const std::size_t m = L.m;
  const auto x = local_rhs_several<K, T>(L, g0, n, nrhs);
  Kokkos::View<int*, Kokkos::HostSpace> info("info", L.nsys);
  words_sent = 0;
  bmpi::solve(exec_space(), MPI_COMM_WORLD, block_thomas{}, a, b, c, x, info, opts);
  CHECK(words_per_line() == expected(2 * m * m + 2 * m * nrhs));
  const auto f = bmpi::factorize(exec_space(), MPI_COMM_WORLD, block_thomas{}, a, b, c, L.nsys,
                                 opts);
  const auto y = local_rhs_several<K, T>(L, g0, n, nrhs);
  words_sent = 0;
  f.solve(exec_space(), y);
  CHECK(words_per_line() == expected(2 * m * nrhs));
  INFO(kind_name(K) << (std::is_same_v<T, float> ? " float" : " double") << " m = " << m
                    << " nsys = " << L.nsys << " nrhs = " << nrhs << " scheme "
                    << static_cast<int>(opts.scheme) << " ranks " << P);
  double err_one_shot = 0, err_factored = 0;
  const auto worse = [](double& worst, double got, double want) {
    const double e = std::abs(got - want) / (1.0 + std::abs(want));
    if (!(e <= worst)) worst = std::isnan(e) ? 1e300 : e;
  };
  const auto at = [&](const auto& v, std::size_t s, std::size_t i, std::size_t r, std::size_t k) {
    return static_cast<double>(
        bandsolve::block_at(v, index_t(s), index_t(i), index_t(r), index_t(k)));
  };
  for (std::size_t k = 0; k < nrhs; ++k) {
    lines Lk = L;
    Lk.rhs = 11 + k;
    const auto [xref, iref] = reference<T>(Lk, block_thomas{});
    for (std::size_t s = 0; s < L.nsys; ++s) {
      CHECK(info(s) == iref[s]);
      CHECK(f.info()(s) == iref[s]);
      if (iref[s] != 0) continue;
      for (std::size_t i = 0; i < n; ++i)
        for (std::size_t r = 0; r < m; ++r) {
          const double want = static_cast<double>(xref[(s * L.N + g0 + i) * m + r]);
          worse(err_one_shot, at(x, s, i, r, k), want);
          worse(err_factored, at(y, s, i, r, k), want);
        }
    }
    if constexpr (K == kind::interleaved)  // padding lanes (zero) neither read nor written
      for (std::size_t s = L.nsys; s < x.extent(0) * pack_width<T>; ++s)
        for (std::size_t i = 0; i < n; ++i)
          for (std::size_t r = 0; r < m; ++r) {
            CHECK(at(x, s, i, r, k) == 0.0);
            CHECK(at(y, s, i, r, k) == 0.0);
          }
  }
  CHECK(err_one_shot <= tolerance<T>());
  CHECK(err_factored <= tolerance<T>());
}

TEST_CASE("mpi::solve and factorize(block_thomas) with several right-hand sides per system",
          "[mpi][block]") {
  const int P = world_size();
  for (const auto scheme : {bmpi::exchange::gather, bmpi::exchange::all_to_all}) {
    bmpi::options opts;
    opts.scheme = scheme;
    for (const split sp : {split::even, split::one_two_rest, split::rest_two_one}) {
      const auto sizes = parts(sp, P);
      check_several<kind::row, double>(lines{11, 13, 3}, sizes, 3, opts);
      check_several<kind::column, float>(lines{9, 13, 2}, sizes, 2, opts);
      check_several<kind::strided, double>(lines{5, 13, 8}, sizes, 2, opts);
      check_several<kind::interleaved, double>(lines{11, 13, 5}, sizes, 3, opts);
    }
    // One right-hand side in a View of several, none at all, and one block row per rank.
    check_several<kind::row, double>(lines{4, 13, 2}, parts(split::even, P), 1, opts);
    check_several<kind::row, double>(lines{4, 13, 2}, parts(split::even, P), 0, opts);
    check_several<kind::row, double>(lines{6, std::size_t(P), 3}, std::vector<std::size_t>(P, 1),
                                     2, opts);
  }
  // A singular block row: the same codes as the single-process solve of every right-hand side.
  lines L{9, 13, 3};
  L.zero_rows = {{1, 0}, {5, 6}};
  check_several<kind::row, double>(L, parts(split::one_two_rest, P), 2, {});
}

TEST_CASE("mpi::solve and factorize(block_thomas): ranks with different numbers of right-hand "
          "sides all throw", "[mpi][block]") {
  const int P = world_size();
  if (P == 1) return;
  const bool bad = world_rank() == P - 1;
  const lines L{4, 2 * std::size_t(P), 3};
  const auto [g0, n] = my_rows(std::vector<std::size_t>(P, 2));
  const auto a = local_coef<kind::row, double>(L, g0, n, 0);
  const auto b = local_coef<kind::row, double>(L, g0, n, 1);
  const auto c = local_coef<kind::row, double>(L, g0, n, 2);
  const auto d = local_rhs_several<kind::row, double>(L, g0, n, bad ? 3 : 2);
  Kokkos::View<int*, Kokkos::HostSpace> info("info", L.nsys);
  const std::string expected = "different numbers of right-hand sides: nrhs = 2 on rank 0 but 3 "
                               "on rank " + std::to_string(P - 1);
  const std::string one_shot = thrown([&] {
    bmpi::solve(exec_space(), MPI_COMM_WORLD, block_thomas{}, a, b, c, d, info);
  });
  CHECK(one_shot.rfind("bandsolve::mpi::solve(block_thomas): ", 0) == 0);
  CHECK(one_shot.find(expected) != std::string::npos);
  const auto f = bmpi::factorize(exec_space(), MPI_COMM_WORLD, block_thomas{}, a, b, c);
  const std::string factored = thrown([&] { f.solve(exec_space(), d); });
  CHECK(factored.rfind("bandsolve::mpi::block_factorization::solve: ", 0) == 0);
  CHECK(factored.find(expected) != std::string::npos);
}

TEST_CASE("mpi::factorize(block_thomas): singular lines get the one-shot codes on every rank",
          "[mpi][block]") {
  const int P = world_size();
  for (const auto scheme : {bmpi::exchange::gather, bmpi::exchange::all_to_all}) {
    bmpi::options opts;
    opts.scheme = scheme;
    lines L{9, 13, 3};
    L.zero_rows = {{1, 0}, {3, 6}, {5, 1}, {5, 9}, {6, 2}, {7, 12}};
    for (const split sp : {split::even, split::one_two_rest}) {
      const auto codes = check_factored<kind::row, double>(L, parts(sp, P), opts);
      CHECK(codes[1] == 1);
      CHECK(codes[3] == 7);
      CHECK(codes[5] == 2);
      CHECK(codes[7] == 13);
      CHECK(codes[0] == 0);
    }
    // The reduced system alone singular (parts of 1 and 2 block rows).
    const auto alt = parts(split::alternate_two_one, P);
    std::size_t N = 0;
    for (const auto k : alt) N += k;
    lines T{6, N, 2};
    T.twin_rows = {0, 4};
    const auto codes = check_factored<kind::row, double>(T, alt, opts);
    CHECK(codes[0] == 2);
    CHECK(codes[4] == 2);
    CHECK(codes[1] == 0);
  }
}

// f (a factorization of L's rows g0 .. g0 + n - 1 on this rank) solves L's right-hand sides
// to L's solution (one right-hand side per line, row layout).
template <class F>
void check_solves_lines(const F& f, const lines& L, std::size_t g0, std::size_t n) {
  const std::size_t nsys = L.nsys, m = L.m;
  const auto d = local_rhs<kind::row, double>(L, g0, n);
  f.solve(exec_space(), d);
  const auto [xref, iref] = reference<double>(L, block_thomas{});
  double err = 0;
  for (std::size_t s = 0; s < nsys; ++s)
    for (std::size_t i = 0; i < n; ++i)
      for (std::size_t r = 0; r < m; ++r)
        err = std::max(err, std::abs(d(s, i, r) - xref[(s * L.N + g0 + i) * m + r]));
  CHECK(err <= 1e-12);
  CHECK(iref[0] == 0);
}

TEST_CASE("mpi::factorize(block_thomas): bad arguments on one rank make every rank throw",
          "[mpi][block]") {
  const int P = world_size(), me = world_rank();
  const std::size_t m = 3, nsys = 4;
  const bool bad = me == P - 1;
  const std::string rank = "rank " + std::to_string(P - 1) + " of " + std::to_string(P);
  const lines L{nsys, 2 * std::size_t(P), m};
  const auto [g0, n] = my_rows(std::vector<std::size_t>(P, 2));
  // An unsupported block size (m = 9) on the last rank.
  {
    const std::size_t mb = bad ? 9 : m;
    Kokkos::View<double****, Kokkos::HostSpace> a("a", nsys, 2, mb, mb), b("b", nsys, 2, mb, mb),
        c("c", nsys, 2, mb, mb);
    const std::string msg = thrown([&] {
      bmpi::factorize(exec_space(), MPI_COMM_WORLD, block_thomas{}, a, b, c);
    });
    CHECK(msg.rfind("bandsolve::mpi::factorize(block_thomas): " + rank, 0) == 0);
    CHECK(msg.find("m = 9") != std::string::npos);
  }
  const auto a = local_coef<kind::row, double>(L, g0, n, 0);
  const auto b = local_coef<kind::row, double>(L, g0, n, 1);
  const auto c = local_coef<kind::row, double>(L, g0, n, 2);
  const auto f = bmpi::factorize(exec_space(), MPI_COMM_WORLD, block_thomas{}, a, b, c);
  // A d with a wrong block size on the last rank.
  {
    Kokkos::View<double***, Kokkos::HostSpace> d("d", nsys, 2, bad ? m + 1 : m);
    const std::string msg = thrown([&] { f.solve(exec_space(), d); });
    CHECK(msg.rfind("bandsolve::mpi::block_factorization::solve: " + rank, 0) == 0);
    CHECK(msg.find("d.extent(2) = 4 but the factorization has 3 rows per block") !=
          std::string::npos);
  }
  // After that, a good solve still works on every rank.
  check_solves_lines(f, L, g0, n);
}

// Every rank's message and whether the ranks all have the same one (rank 0's, broadcast).
std::pair<std::string, bool> agreed_message(const std::string& mine) {
  char root[512] = {};
  std::strncpy(root, mine.c_str(), sizeof(root) - 1);
  MPI_Bcast(root, static_cast<int>(sizeof(root)), MPI_CHAR, 0, MPI_COMM_WORLD);
  int same = mine == root ? 1 : 0;
  MPI_Allreduce(MPI_IN_PLACE, &same, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  return {mine, same == 1};
}

// The words of this rank's block rows of d and e (every slot, padding lanes too) bit for bit
// the same, and the largest error of d's against the single-process solve of L over the lines
// regular there.
template <kind K, class T, class DView, class EView>
std::pair<bool, double> same_bits(const lines& L, const std::vector<std::size_t>& sizes,
                                  const DView& d, const EView& e, block_thomas algorithm) {
  const auto [g0, n] = my_rows(sizes);
  const std::size_t W = K == kind::interleaved ? pack_width<T> : 1;
  const auto [xref, iref] = reference<T>(L, algorithm);
  bool same = true;
  double err = 0;
  for (std::size_t s = 0; s < d.extent(0) * W; ++s)
    for (std::size_t i = 0; i < n; ++i)
      for (std::size_t r = 0; r < L.m; ++r) {
        const T x = bandsolve::block_at(d, index_t(s), index_t(i), index_t(r));
        const T y = bandsolve::block_at(e, index_t(s), index_t(i), index_t(r));
        same = same && std::memcmp(&x, &y, sizeof(T)) == 0;
        if (s >= L.nsys || iref[s] != 0) continue;
        const double want = static_cast<double>(xref[(s * L.N + g0 + i) * L.m + r]);
        const double rel = std::abs(static_cast<double>(x) - want) / (1.0 + std::abs(want));
        if (!(rel <= err)) err = std::isnan(rel) ? 1e300 : rel;
      }
  return {same, err};
}

// Factors the lines `first` with Views of kind K, makes a copy, and refactors with the matrices of
// `then` (the same shape) given as Views of kind R (the same pack width): the parts' factors and
// the info codes stay where they were, the exchanges send what factorize sends (2m^2 words per
// reduced row), and the copy's codes and solve of `then`'s d are bit for bit those of a fresh
// factorize of R's Views (the same kernels on the same values), near the single-process solve.
// Then refactors back to `first` (kind K) and checks the same against a factorization of it made
// apart at the start. Returns `then`'s codes.
template <kind K, kind R, class T>
std::vector<int> check_refactored(const lines& first, const lines& then,
                                  const std::vector<std::size_t>& sizes, bmpi::options opts,
                                  block_thomas algorithm = {}) {
  const int P = world_size();
  const auto [g0, n] = my_rows(sizes);
  INFO(kind_name(K) << " then " << kind_name(R) << (std::is_same_v<T, float> ? " float" : " double")
                    << " m = " << first.m << " nsys = " << first.nsys << " scheme "
                    << static_cast<int>(opts.scheme) << " pivoting "
                    << (algorithm.pivot == block_thomas::pivoting::partial) << " ranks " << P);
  const auto a = local_coef<K, T>(first, g0, n, 0);
  const auto b = local_coef<K, T>(first, g0, n, 1);
  const auto c = local_coef<K, T>(first, g0, n, 2);
  auto f = bmpi::factorize(exec_space(), MPI_COMM_WORLD, algorithm, a, b, c, first.nsys, opts);
  const auto apart =
      bmpi::factorize(exec_space(), MPI_COMM_WORLD, algorithm, a, b, c, first.nsys, opts);
  const auto copy = f;  // shares f's state: it solves with what refactor puts there
  const T* const stored = f.parts_factors().data();
  const int* const codes_at = f.info().data();
  CHECK((P > 1) == (f.parts_factors().size() > 0));
  const auto a2 = local_coef<R, T>(then, g0, n, 0);
  const auto b2 = local_coef<R, T>(then, g0, n, 1);
  const auto c2 = local_coef<R, T>(then, g0, n, 2);
  words_sent = 0;
  f.refactor(exec_space(), a2, b2, c2);
  long long total = words_sent;
  MPI_Allreduce(MPI_IN_PLACE, &total, 1, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
  CHECK(static_cast<double>(total) / static_cast<double>(first.nsys * std::size_t(P)) ==
        (P > 1 ? static_cast<double>(reduced_rows(sizes) * 2 * first.m * first.m) / P : 0.0));
  CHECK(f.parts_factors().data() == stored);
  CHECK(copy.parts_factors().data() == stored);
  CHECK(f.info().data() == codes_at);
  const auto fresh =
      bmpi::factorize(exec_space(), MPI_COMM_WORLD, algorithm, a2, b2, c2, then.nsys, opts);
  const std::vector<int> codes(copy.info().data(), copy.info().data() + then.nsys);
  CHECK(codes == std::vector<int>(fresh.info().data(), fresh.info().data() + then.nsys));
  const auto d = local_rhs<R, T>(then, g0, n);
  const auto e = local_rhs<R, T>(then, g0, n);
  copy.solve(exec_space(), d);
  fresh.solve(exec_space(), e);
  const auto [same, err] = same_bits<R, T>(then, sizes, d, e, algorithm);
  CHECK(same);
  CHECK(err <= tolerance<T>());
  // Back to the first matrices: their codes (every line regular) and solution.
  f.refactor(exec_space(), a, b, c);
  CHECK(f.parts_factors().data() == stored);
  CHECK(std::vector<int>(f.info().data(), f.info().data() + first.nsys) ==
        std::vector<int>(apart.info().data(), apart.info().data() + first.nsys));
  const auto d0 = local_rhs<K, T>(first, g0, n);
  const auto e0 = local_rhs<K, T>(first, g0, n);
  f.solve(exec_space(), d0);
  apart.solve(exec_space(), e0);
  const auto [same0, err0] = same_bits<K, T>(first, sizes, d0, e0, algorithm);
  CHECK(same0);
  CHECK(err0 <= tolerance<T>());
  return codes;
}

TEST_CASE("mpi::block_factorization::refactor equals a fresh factorize of the new matrices",
          "[mpi][block]") {
  const int P = world_size();
  for (const auto scheme : {bmpi::exchange::gather, bmpi::exchange::all_to_all}) {
    bmpi::options opts;
    opts.scheme = scheme;
    for (const split sp : {split::even, split::one_two_rest, split::rest_two_one}) {
      const auto sizes = parts(sp, P);
      const auto other = [](lines L) {
        L.matrices = 1;
        return L;
      };
      // 19 systems: groups of 8 (16) lanes in the local passes, the last one partial.
      check_refactored<kind::row, kind::column, double>(lines{19, 13, 3}, other(lines{19, 13, 3}),
                                                        sizes, opts);
      check_refactored<kind::column, kind::strided, float>(lines{11, 13, 2},
                                                           other(lines{11, 13, 2}), sizes, opts);
      check_refactored<kind::interleaved, kind::interleaved, double>(
          lines{11, 13, 2}, other(lines{11, 13, 2}), sizes, opts);
      check_refactored<kind::strided, kind::row, float>(lines{19, 13, 3},
                                                        other(lines{19, 13, 3}), sizes, opts);
      check_refactored<kind::interleaved, kind::interleaved, float>(
          lines{5, 13, 3}, other(lines{5, 13, 3}), sizes, opts);
      // Pivoting inside the blocks, kept by refactor.
      lines L{9, 13, 3};
      L.pivot_needed = true;
      const block_thomas partial{block_thomas::pivoting::partial};
      check_refactored<kind::column, kind::row, double>(L, other(L), sizes, opts, partial);
      L.m = 2;
      check_refactored<kind::row, kind::row, float>(L, other(L), sizes, opts, partial);
    }
    // One block row per rank.
    check_refactored<kind::row, kind::column, double>(
        lines{5, std::size_t(P), 3}, lines{5, std::size_t(P), 3, {}, false, {}, 3, 1},
        std::vector<std::size_t>(P, 1), opts);
  }
}

TEST_CASE("mpi::block_factorization::refactor: a line singular in the new matrices gets its "
          "code, and refactoring back clears it", "[mpi][block]") {
  const int P = world_size();
  for (const auto scheme : {bmpi::exchange::gather, bmpi::exchange::all_to_all}) {
    bmpi::options opts;
    opts.scheme = scheme;
    const lines L{9, 13, 3};
    lines S = L;
    S.matrices = 1;
    S.zero_rows = {{1, 0}, {3, 6}, {5, 12}};
    for (const split sp : {split::even, split::one_two_rest}) {
      const auto codes =
          check_refactored<kind::row, kind::column, double>(L, S, parts(sp, P), opts);
      CHECK(codes == std::vector<int>{0, 1, 0, 7, 0, 13, 0, 0, 0});
    }
    // The reduced system alone singular (parts of 1 and 2 block rows), with pivoting.
    const auto alt = parts(split::alternate_two_one, P);
    std::size_t N = 0;
    for (const auto k : alt) N += k;
    lines T{6, N, 2};
    T.twin_rows = {0, 4};
    const auto codes = check_refactored<kind::column, kind::row, float>(
        lines{6, N, 2}, T, alt, opts, block_thomas{block_thomas::pivoting::partial});
    CHECK(codes == std::vector<int>{2, 0, 0, 0, 2, 0});
  }
}

TEST_CASE("mpi::block_factorization::refactor: a shape unlike the factored one on one rank makes "
          "every rank throw", "[mpi][block]") {
  const int P = world_size(), me = world_rank();
  const std::size_t m = 3, nsys = 4;
  const bool bad = me == P - 1;
  const std::string who = "bandsolve::mpi::block_factorization::refactor: rank " +
                          std::to_string(P - 1) + " of " + std::to_string(P) + ": ";
  const lines L{nsys, 2 * std::size_t(P), m};
  lines other = L;
  other.matrices = 1;
  const std::vector<std::size_t> sizes(static_cast<std::size_t>(P), 2);
  const auto [g0, n] = my_rows(sizes);
  const auto a = local_coef<kind::row, double>(L, g0, n, 0);
  const auto b = local_coef<kind::row, double>(L, g0, n, 1);
  const auto c = local_coef<kind::row, double>(L, g0, n, 2);
  // The ranks with good shapes pass other matrices: had they factored them before the ranks
  // agreed, the solve below would not be that of L.
  const auto a2 = local_coef<kind::row, double>(other, g0, n, 0);
  const auto b2 = local_coef<kind::row, double>(other, g0, n, 1);
  const auto c2 = local_coef<kind::row, double>(other, g0, n, 2);
  auto f = bmpi::factorize(exec_space(), MPI_COMM_WORLD, block_thomas{}, a, b, c);
  const auto stored = f.parts_factors().data();
  using V4 = Kokkos::View<double****, Kokkos::LayoutLeft, Kokkos::HostSpace>;
  const auto refactor_bad = [&](const V4& v) {
    return agreed_message(thrown([&] {
      if (bad)
        f.refactor(exec_space(), v, v, v);
      else
        f.refactor(exec_space(), a2, b2, c2);
    }));
  };
  {
    const auto [msg, same] = refactor_bad(V4("v", nsys, n + 1, m, m));
    CHECK(same);
    CHECK(msg == who + "b has 3 block rows but the factorization has 2");
  }
  {
    const auto [msg, same] = refactor_bad(V4("v", nsys + 1, n, m, m));
    CHECK(same);
    CHECK(msg == who + "b holds 5 systems but the factorization has 4");
  }
  {
    const auto [msg, same] = refactor_bad(V4("v", nsys, n, 2, 2));
    CHECK(same);
    CHECK(msg == who + "b has blocks of 2 x 2 but the factorization has blocks of 3 x 3");
  }
  {
    // A block size this program does not compile.
    const auto [msg, same] = refactor_bad(V4("v", nsys, n, 4, 4));
    CHECK(same);
    CHECK(msg.rfind(who + "block size m = 4 is not compiled in this program", 0) == 0);
  }
  // The factorization is unchanged: L's solution, in the same storage.
  CHECK(f.parts_factors().data() == stored);
  check_solves_lines(f, L, g0, n);
  // An empty factorization says so (on each rank by itself: it has no communicator).
  bmpi::block_factorization<double, 0, exec_space> empty;
  CHECK(thrown([&] { empty.refactor(exec_space(), a, b, c); }) ==
        "bandsolve::mpi::block_factorization::refactor: this factorization is empty "
        "(default-constructed)");
}

}  // namespace
