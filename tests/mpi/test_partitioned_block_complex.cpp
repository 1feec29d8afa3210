// Complex block-tridiagonal lines across ranks: bandsolve::mpi::solve and mpi::factorize with
// algo::block_thomas in Kokkos::complex<float> and Kokkos::complex<double>, and complex
// right-hand sides of real lines, equal the single-process block Thomas solve of the whole lines
// to rounding: row, column, strided and interleaved Views, one and two right-hand sides per
// system, even and uneven splits (parts of 1 and 2 block rows), both exchange schemes, without
// and with pivoting inside the blocks, the values sent counted, a singular line's info code on
// every rank, ranks that pass different scalar types. Run by mpiexec with 1-4 ranks.
//
// Every rank builds every block of every line from a hash of (line, global row, entry), so it can
// compute the reference itself. Only CHECK is used: a REQUIRE failing on one rank would skip the
// collective calls that the other ranks then wait in. The block partition method is the same
// code for every block size (test_partitioned_block.cpp runs m = 2, 3, 5 and 8 in real
// arithmetic); m = 2 and 3 are compiled here.
#define BANDSOLVE_BLOCK_SIZES 2, 3
#include <bandsolve/mpi.hpp>  // the single-process block solve too

#include <Kokkos_Core.hpp>
#include <catch2/catch_test_macros.hpp>
#include <mpi.h>

#include <cmath>
#include <complex>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "whole_lines.hpp"
#include "mpi_test_main.hpp"

namespace test_partitioned_block_complex {  // units compile in groups: tests/mpi/CMakeLists.txt

namespace {

namespace bmpi = bandsolve::mpi;
using bandsolve::index_t;
using bandsolve::algo::block_thomas;
using exec_space = Kokkos::DefaultHostExecutionSpace;
using zfloat = Kokkos::complex<float>;
using zdouble = Kokkos::complex<double>;

using bstest_mpi::rank_space;
using bstest_mpi::world_rank;
using bstest_mpi::world_size;

constexpr block_thomas partial_pivoting{block_thomas::pivoting::partial};

// nsys complex block-tridiagonal lines of N block rows of m x m blocks, block diagonally dominant
// in modulus (each diagonal entry of B_g, at a hashed angle, exceeds the sum of the moduli of its
// row's other entries in A_g, B_g, C_g by 1 to 2; real coefficients: the real parts, the diagonal
// at angle 0); line `singular`, if any, has A, B, C all 0 in block row `singular_row`.
struct lines {
  std::size_t nsys, N, m;
  long singular = -1;
  std::size_t singular_row = 0;
  std::uint64_t rhs = 3;  // the hash stream of d (another value: another right-hand side)
  bool real = false;      // real coefficients (d stays complex)

  static double h(std::size_t s, std::size_t g, std::uint64_t which, std::size_t e) {
    return bstest_mpi::hashed_value(((s * 1000003u + g) * 32u + which) * 97u + e);
  }
  // which: 0 A, 1 B, 2 C (entry (r, c)); 3 d (entry r).
  std::complex<double> value(std::size_t s, std::size_t g, int which, std::size_t r,
                             std::size_t c) const {
    if (which < 3 && static_cast<long>(s) == singular && g == singular_row) return 0.0;
    if (which == 3) return {h(s, g, 2 * rhs + 8, r), h(s, g, 2 * rhs + 9, r)};
    const auto raw = [&](int w, std::size_t cc) -> std::complex<double> {
      if ((w == 0 && g == 0) || (w == 2 && g + 1 == N)) return 0.0;
      const auto k = static_cast<std::uint64_t>(w);
      return std::complex<double>(h(s, g, k, r * m + cc), real ? 0.0 : h(s, g, k + 4, r * m + cc)) /
             static_cast<double>(m);
    };
    if (which != 1 || r != c) return raw(which, c);
    double sum = 1.5 + 0.5 * h(s, g, 5, r);
    for (std::size_t k = 0; k < m; ++k) {
      sum += std::abs(raw(0, k)) + std::abs(raw(2, k));
      if (k != r) sum += std::abs(raw(1, k));
    }
    return std::polar(sum, real ? 0.0 : 3.14159 * h(s, g, 6, r));
  }
};

// A value of the lines as T (real T: its real part).
template <class T>
T narrow(const std::complex<double>& z) {
  using R = bandsolve::real_type_t<T>;
  if constexpr (bandsolve::is_complex_v<T>)
    return T(static_cast<R>(z.real()), static_cast<R>(z.imag()));
  else
    return static_cast<R>(z.real());
}

template <class T>
std::complex<double> widen(const T& z) {
  return {static_cast<double>(z.real()), static_cast<double>(z.imag())};
}

// Operand `which` of block rows [g0, g0 + n) into v: a coefficient (0-2: A, B, C) or, with Rhs,
// the right-hand side (which = 3).
template <class T, bool Rhs, class View>
View fill(const View& v, const lines& L, std::size_t g0, std::size_t n, int which) {
  for (std::size_t s = 0; s < L.nsys; ++s)
    for (std::size_t i = 0; i < n; ++i)
      for (std::size_t r = 0; r < L.m; ++r) {
        if constexpr (Rhs) {
          bandsolve::block_at(v, index_t(s), index_t(i), index_t(r)) =
              narrow<T>(L.value(s, g0 + i, which, r, 0));
        } else {
          for (std::size_t q = 0; q < L.m; ++q)
            bandsolve::block_at(v, index_t(s), index_t(i), index_t(r), index_t(q)) =
                narrow<T>(L.value(s, g0 + i, which, r, q));
        }
      }
  return v;
}

// View kinds of this rank's part: row (LayoutRight), column (LayoutLeft), strided (block rows
// 1 .. n of a LayoutRight array with two extra block rows per system), interleaved packs of 2.
enum class kind { row, column, strided, interleaved };
const char* kind_name(kind k) {
  const char* names[] = {"row", "column", "strided", "interleaved<2>"};
  return names[static_cast<int>(k)];
}
constexpr std::size_t pack_width = 2;

// Coefficient `which` (0-2) of block rows [g0, g0 + n) as a View of kind K.
template <kind K, class T>
auto local_coef(const lines& L, std::size_t g0, std::size_t n, int which) {
  using Mem = Kokkos::HostSpace;
  const std::size_t m = L.m;
  if constexpr (K == kind::strided) {
    Kokkos::View<T****, Kokkos::LayoutRight, Mem> base("base", L.nsys, n + 2, m, m);
    Kokkos::deep_copy(base, T(1e30));  // never read
    const Kokkos::View<T****, Kokkos::LayoutStride, Mem> v = Kokkos::subview(
        base, Kokkos::ALL, Kokkos::make_pair(std::size_t(1), n + 1), Kokkos::ALL, Kokkos::ALL);
    return fill<T, false>(v, L, g0, n, which);
  } else if constexpr (K == kind::interleaved) {
    return fill<T, false>(Kokkos::View<T****[pack_width], Kokkos::LayoutRight, Mem>(
                              "coef", (L.nsys + pack_width - 1) / pack_width, n, m, m),
                          L, g0, n, which);
  } else {
    using Layout = std::conditional_t<K == kind::row, Kokkos::LayoutRight, Kokkos::LayoutLeft>;
    return fill<T, false>(Kokkos::View<T****, Layout, Mem>("coef", L.nsys, n, m, m), L, g0, n,
                          which);
  }
}

// The right-hand sides of block rows [g0, g0 + n) as a View of kind K.
template <kind K, class T>
auto local_rhs(const lines& L, std::size_t g0, std::size_t n) {
  using Mem = Kokkos::HostSpace;
  if constexpr (K == kind::strided) {
    Kokkos::View<T***, Kokkos::LayoutRight, Mem> base("dbase", L.nsys, n + 2, L.m);
    Kokkos::deep_copy(base, T(1e30));
    const Kokkos::View<T***, Kokkos::LayoutStride, Mem> v =
        Kokkos::subview(base, Kokkos::ALL, Kokkos::make_pair(std::size_t(1), n + 1), Kokkos::ALL);
    return fill<T, true>(v, L, g0, n, 3);
  } else if constexpr (K == kind::interleaved) {
    return fill<T, true>(Kokkos::View<T***[pack_width], Kokkos::LayoutRight, Mem>(
                             "d", (L.nsys + pack_width - 1) / pack_width, n, L.m),
                         L, g0, n, 3);
  } else {
    using Layout = std::conditional_t<K == kind::row, Kokkos::LayoutRight, Kokkos::LayoutLeft>;
    return fill<T, true>(Kokkos::View<T***, Layout, Mem>("d", L.nsys, n, L.m), L, g0, n, 3);
  }
}

// The lines with right-hand side q of several (its own hash stream).
lines with_rhs(lines L, std::size_t q) {
  L.rhs += q;
  return L;
}

// nrhs right-hand sides per system of block rows [g0, g0 + n): a row or column
// View<T****>(nsys, n, m, nrhs).
template <kind K, class T>
auto local_rhs_several(const lines& L, std::size_t g0, std::size_t n, std::size_t nrhs) {
  static_assert(K == kind::row || K == kind::column);
  using Layout = std::conditional_t<K == kind::row, Kokkos::LayoutRight, Kokkos::LayoutLeft>;
  Kokkos::View<T****, Layout, Kokkos::HostSpace> d("d", L.nsys, n, L.m, nrhs);
  for (std::size_t q = 0; q < nrhs; ++q)
    fill<T, true>(Kokkos::subview(d, Kokkos::ALL, Kokkos::ALL, Kokkos::ALL, q), with_rhs(L, q),
                  g0, n, 3);
  return d;
}

// The single-process block Thomas solve of the whole lines (coefficients C, right-hand sides T):
// x (s, g, r at (s*N + g)*m + r), info.
template <class C, class T>
std::pair<std::vector<std::complex<double>>, std::vector<int>> reference(
    const lines& L, block_thomas algorithm) {
  using Mem = Kokkos::HostSpace;
  using V4 = Kokkos::View<C****, Kokkos::LayoutRight, Mem>;
  const auto a = fill<C, false>(V4("a", L.nsys, L.N, L.m, L.m), L, 0, L.N, 0);
  const auto b = fill<C, false>(V4("b", L.nsys, L.N, L.m, L.m), L, 0, L.N, 1);
  const auto c = fill<C, false>(V4("c", L.nsys, L.N, L.m, L.m), L, 0, L.N, 2);
  const auto d = fill<T, true>(Kokkos::View<T***, Kokkos::LayoutRight, Mem>("d", L.nsys, L.N, L.m),
                               L, 0, L.N, 3);
  Kokkos::View<int*, Mem> info("info", L.nsys);
  bandsolve::solve(rank_space(), algorithm, a, b, c, d, info);
  Kokkos::fence();
  std::vector<std::complex<double>> x(d.size());
  for (std::size_t k = 0; k < d.size(); ++k) x[k] = widen(d.data()[k]);
  return {x, std::vector<int>(info.data(), info.data() + L.nsys)};
}

// Block rows of each rank out of N: even, or uneven (1 on rank 0, 2 on rank 1 of 3 or more
// ranks, the rest shared by the others).
std::vector<std::size_t> parts(bool uneven, std::size_t N, int P) {
  std::vector<std::size_t> n(static_cast<std::size_t>(P));
  std::size_t left = N, first = 0;
  if (uneven && P > 1) n[0] = 1, left -= 1, first = 1;
  if (uneven && P > 2) n[1] = 2, left -= 2, first = 2;
  const std::size_t rest = static_cast<std::size_t>(P) - first;
  for (std::size_t r = first; r < n.size(); ++r)
    n[r] = left / rest + (r - first < left % rest ? 1 : 0);
  return n;
}

// Reduced block rows per line under `sizes`: 1 per part of one block row, else 2.
std::size_t reduced_rows(const std::vector<std::size_t>& sizes) {
  std::size_t K = 0;
  for (const auto n : sizes) K += n == 1 ? 1 : 2;
  return K;
}

// Solves this rank's part (one-shot, or factored and then solved) with coefficient Views of kind K
// and type C, right-hand sides of type T (NRHS > 0: that many per system, a rank-4 d); checks the
// info codes and the values sent, and returns the largest |x - x_ref| / (1 + |x_ref|) over the
// regular lines' rows.
template <kind K, class C, class T, std::size_t NRHS = 0>
double run(const lines& L, const std::vector<std::size_t>& sizes, bmpi::options opts,
           block_thomas algorithm, bool factored) {
  const std::size_t me = static_cast<std::size_t>(world_rank());
  std::size_t g0 = 0;
  for (std::size_t r = 0; r < me; ++r) g0 += sizes[r];
  const std::size_t n = sizes[me];
  const auto a = local_coef<K, C>(L, g0, n, 0);
  const auto b = local_coef<K, C>(L, g0, n, 1);
  const auto c = local_coef<K, C>(L, g0, n, 2);
  const auto d = [&] {
    if constexpr (NRHS > 0)
      return local_rhs_several<K, T>(L, g0, n, NRHS);
    else
      return local_rhs<K, T>(L, g0, n);
  }();
  std::vector<int> info(L.nsys);
  bstest_mpi::words_sent = 0;
  if (factored) {
    const auto f = bmpi::factorize(exec_space(), MPI_COMM_WORLD, algorithm, a, b, c, L.nsys, opts);
    bstest_mpi::words_sent = 0;
    f.solve(exec_space(), d);
    info.assign(f.info().data(), f.info().data() + L.nsys);
  } else {
    Kokkos::View<int*, Kokkos::HostSpace> info_v("info", L.nsys);
    bmpi::solve(exec_space(), MPI_COMM_WORLD, algorithm, a, b, c, d, info_v, opts);
    info.assign(info_v.data(), info_v.data() + L.nsys);
  }
  // Values per line per rank (of C: complex d over real lines travels as its two parts): K
  // reduced rows of 2m^2 + m values per right-hand side there and m back one-shot, m there and m
  // back factored (none on one rank, which solves on its own).
  long long total = bstest_mpi::words_sent;
  MPI_Allreduce(MPI_IN_PLACE, &total, 1, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
  const int P = world_size();
  const double sent = static_cast<double>(total) / static_cast<double>(L.nsys * std::size_t(P));
  const std::size_t rhs_words = L.m * (NRHS > 0 ? NRHS : 1) * (std::is_same_v<C, T> ? 1 : 2);
  const std::size_t per_row = (factored ? 0 : 2 * L.m * L.m) + 2 * rhs_words;
  CHECK(sent == (P > 1 ? static_cast<double>(reduced_rows(sizes) * per_row) / P : 0.0));
  // The whole solution on every rank (each rank adds its rows to zeros), as re, im pairs; the
  // reference of each right-hand side.
  const std::size_t m = L.m, N = L.N, Q = NRHS > 0 ? NRHS : 1;
  double worst = 0;
  for (std::size_t q = 0; q < Q; ++q) {
    const auto [xref, iref] = reference<C, T>(with_rhs(L, q), algorithm);
    CHECK(info == iref);
    std::vector<double> x(2 * L.nsys * N * m, 0.0);
    for (std::size_t s = 0; s < L.nsys; ++s)
      for (std::size_t i = 0; i < n; ++i)
        for (std::size_t r = 0; r < m; ++r) {
          const auto v = [&] {
            if constexpr (NRHS > 0)
              return widen(d(s, i, r, q));
            else
              return widen(bandsolve::block_at(d, index_t(s), index_t(i), index_t(r)));
          }();
          x[2 * ((s * N + g0 + i) * m + r)] = v.real();
          x[2 * ((s * N + g0 + i) * m + r) + 1] = v.imag();
        }
    MPI_Allreduce(MPI_IN_PLACE, x.data(), static_cast<int>(x.size()), MPI_DOUBLE, MPI_SUM,
                  MPI_COMM_WORLD);
    for (std::size_t s = 0; s < L.nsys; ++s) {
      if (iref[s] != 0) continue;
      for (std::size_t k = s * N * m; k < (s + 1) * N * m; ++k) {
        const double e = std::abs(std::complex<double>(x[2 * k], x[2 * k + 1]) - xref[k]) /
                         (1.0 + std::abs(xref[k]));
        if (!(e <= worst)) worst = std::isnan(e) ? 1e300 : e;
      }
    }
  }
  return worst;
}

template <class T>
double tolerance() {
  return std::is_same_v<T, zfloat> ? 1e-4 : 1e-12;
}

// C: the coefficients' type (T, or T's real type for complex right-hand sides of real lines).
template <kind K, class T, class C = T, std::size_t NRHS = 0>
void check_kind(bool factored) {
  const int P = world_size();
  for (const std::size_t m : {2, 3})
    for (const std::size_t nsys : {1, 7})  // groups of 4 (8) lanes, the last one partial
      for (const bool uneven : {false, true})
        for (const auto scheme : {bmpi::exchange::gather, bmpi::exchange::all_to_all})
          for (const block_thomas algorithm : {block_thomas{}, partial_pivoting}) {
            bmpi::options opts;
            opts.scheme = scheme;
            lines L{nsys, 9, m};
            L.real = !std::is_same_v<C, T>;
            const char* scalar = std::is_same_v<T, zfloat> ? " complex<float>" : " complex<double>";
            INFO(kind_name(K) << scalar << (L.real ? " over real lines" : "") << " nrhs " << NRHS
                              << " m = " << m << " nsys = " << nsys << " uneven " << uneven
                              << " scheme " << static_cast<int>(scheme) << " pivoting "
                              << (algorithm.pivot != block_thomas::pivoting::none) << " factored "
                              << factored << " ranks " << P);
            CHECK(run<K, C, T, NRHS>(L, parts(uneven, L.N, P), opts, algorithm, factored) <=
                  tolerance<T>());
          }
}

}  // namespace

TEST_CASE("mpi::solve(block_thomas) of complex lines equals the single-process solve",
          "[mpi][block][complex]") {
  check_kind<kind::row, zdouble>(false);
  check_kind<kind::column, zdouble>(false);
  check_kind<kind::strided, zdouble>(false);
  check_kind<kind::interleaved, zdouble>(false);
  check_kind<kind::row, zfloat>(false);
  check_kind<kind::interleaved, zfloat>(false);
}

TEST_CASE("mpi::factorize(block_thomas) of complex lines: solves equal the single-process solve",
          "[mpi][block][complex]") {
  check_kind<kind::row, zdouble>(true);
  check_kind<kind::column, zdouble>(true);
  check_kind<kind::strided, zdouble>(true);
  check_kind<kind::interleaved, zdouble>(true);
  check_kind<kind::column, zfloat>(true);
}

TEST_CASE("mpi::solve(block_thomas): a singular complex line gets the same info on every rank",
          "[mpi][block][complex]") {
  const int P = world_size();
  for (const bool factored : {false, true}) {
    lines L{7, 9, 3};
    L.singular = 5, L.singular_row = 6;
    INFO("factored " << factored << " ranks " << P);
    CHECK(run<kind::row, zdouble, zdouble>(L, parts(true, L.N, P), {}, block_thomas{}, factored) <=
          tolerance<zdouble>());
  }
}

TEST_CASE("mpi::solve and mpi::factorize(block_thomas): complex right-hand sides of real lines",
          "[mpi][block][complex]") {
  for (const bool factored : {false, true}) {
    check_kind<kind::row, zdouble, double>(factored);
    check_kind<kind::column, zdouble, double>(factored);
    check_kind<kind::strided, zdouble, double>(factored);
    check_kind<kind::interleaved, zfloat, float>(factored);
    check_kind<kind::column, zdouble, double, 2>(factored);
    check_kind<kind::row, zfloat, float, 2>(factored);
  }
}

TEST_CASE("mpi::solve(block_thomas): ranks that pass complex d over real and over complex lines "
          "all throw", "[mpi][block][complex]") {
  const int P = world_size();
  if (P < 2) return;
  lines L{3, 8, 2};
  const auto sizes = parts(false, L.N, P);
  std::size_t g0 = 0;
  for (int r = 0; r < world_rank(); ++r) g0 += sizes[static_cast<std::size_t>(r)];
  const std::size_t n = sizes[static_cast<std::size_t>(world_rank())];
  const auto d = local_rhs<kind::row, zdouble>(L, g0, n);
  Kokkos::View<int*, Kokkos::HostSpace> info("info", L.nsys);
  std::string message;
  try {
    if (world_rank() == 1) {
      L.real = true;
      bmpi::solve(exec_space(), MPI_COMM_WORLD, block_thomas{},
                  local_coef<kind::row, double>(L, g0, n, 0),
                  local_coef<kind::row, double>(L, g0, n, 1),
                  local_coef<kind::row, double>(L, g0, n, 2), d, info);
    } else {
      bmpi::solve(exec_space(), MPI_COMM_WORLD, block_thomas{},
                  local_coef<kind::row, zdouble>(L, g0, n, 0),
                  local_coef<kind::row, zdouble>(L, g0, n, 1),
                  local_coef<kind::row, zdouble>(L, g0, n, 2), d, info);
    }
  } catch (const std::invalid_argument& e) {
    message = e.what();
  }
  CHECK(message ==
        "bandsolve::mpi::solve(block_thomas): the ranks pass different scalar types: "
        "Kokkos::complex<double> on rank 0 but Kokkos::complex<double> over double coefficients "
        "on rank 1");
}

}  // namespace test_partitioned_block_complex
