// Distributed Thomas (bandsolve::mpi::solve): every rank holds a contiguous part of every line, and
// the result must equal the single-process Thomas solve of the whole lines to rounding, for every
// layout, float and double, even and uneven splits (parts of 1 and 2 rows), one line and many,
// both exchange schemes. Bad arguments on one rank make every rank throw the same message; a
// singular line gets the same info code on every rank. Periodic lines (algo::periodic) the same
// against the single-process periodic solve. Lines along an axis of a 2-D to 4-D array split
// over the ranks (mpi::solve_along, lines with ends and periodic lines) against the single-process
// solves of the whole lines. The same calls with the device backend's local passes, run on the
// host. Run by mpiexec with 1-4 ranks.
//
// Every rank builds every row of every line from a hash of (line, global row), so it can compute
// the reference itself. Only CHECK is used: a REQUIRE failing on one rank would skip the
// collective calls that the other ranks then wait in.
#include <bandsolve/mpi.hpp>
#include <bandsolve/tridiag/periodic.hpp>
#include <bandsolve/tridiag/thomas.hpp>
#include <test_support.hpp>

#include <Kokkos_Core.hpp>
#include <catch2/catch_test_macros.hpp>
#include <mpi.h>

#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "whole_lines.hpp"
#include "mpi_test_main.hpp"

namespace test_partitioned_thomas {  // units compile in groups: tests/mpi/CMakeLists.txt
namespace {  // all internal: in a group GCC warns of external templates taking internal types

namespace {

using bandsolve::index_t;
namespace layout = bandsolve::layout;
namespace bmpi = bandsolve::mpi;

using bstest_mpi::rank_space;
using bstest_mpi::thrown;
using bstest_mpi::world_rank;
using bstest_mpi::world_size;

// A value in [-1, 1) from (line, global row, which coefficient).
double hashed(std::uint64_t s, std::uint64_t g, std::uint64_t which) {
  return bstest_mpi::hashed_value((s * 1000003u + g) * 8u + which);
}

// Row g of line s of N rows: diagonally dominant with margin 1 (cond_inf <= 6); zero_rows lists
// (line, row) pairs whose a, b, c are all 0 (a singular line); the lines in twin_rows start with
// rows (1 1) and (1 1), whose second pivot is 0 (singular too, with good diagonals). Periodic
// lines have a[0] and c[N-1] too; the lines in ring_rows are x_g - x_{g+1} = d_g on the ring
// (a = 0, b = 1, c = -1: singular, every leading block regular, the last pivot exactly 0).
template <class T>
struct lines {
  std::size_t nsys, N;
  std::vector<std::pair<std::size_t, std::size_t>> zero_rows;
  std::vector<std::size_t> twin_rows = {};
  std::uint64_t rhs = 3;  // which hash gives d (another value: another right-hand side)
  bool periodic = false;
  std::vector<std::size_t> ring_rows = {};
  bool shared = false;  // every line has line 0's a, b, c (its own d)
  std::size_t matrices = 0;  // another value: other matrices (the hashes of line s + 7919 matrices)
  T coef(std::size_t s, std::size_t g, int which) const {  // 0: a, 1: b, 2: c, 3: d
    if (which == 3) return static_cast<T>(hashed(s, g, rhs));
    return matrix_row(s, g)[static_cast<std::size_t>(which)];
  }
  // a, b and c of row g of line s, each hash drawn once (the tests draw every row of every line
  // for the reference, which dominated the sanitized tests' time drawn a coefficient at a time;
  // the empty() checks spare unoptimized builds the iterator calls of an empty list).
  std::array<T, 3> matrix_row(std::size_t s, std::size_t g) const {
    if (shared) s = 0;
    if (!zero_rows.empty())
      for (const auto& z : zero_rows)
        if (z.first == s && z.second == g) return {T(0), T(0), T(0)};
    if (!twin_rows.empty())
      for (const auto t : twin_rows)
        if (t == s && g < 2) return {g == 0 ? T(0) : T(1), T(1), T(1)};
    if (!ring_rows.empty())
      for (const auto t : ring_rows)
        if (t == s) return {T(0), T(1), T(-1)};
    s += 7919 * matrices;
    const double a = g == 0 && !periodic ? 0.0 : hashed(s, g, 0),
                 c = g + 1 == N && !periodic ? 0.0 : hashed(s, g, 2);
    const double b = std::abs(a) + std::abs(c) + 1.5 + 0.5 * hashed(s, g, 1);
    return {static_cast<T>(a), static_cast<T>(hashed(s, g, 4) < 0 ? -b : b), static_cast<T>(c)};
  }
  // The single-process Thomas (periodic) solve of the whole lines (row layout, one thread): x and
  // info.
  std::pair<std::vector<T>, std::vector<int>> reference() const {
    using V = Kokkos::View<T**, Kokkos::LayoutRight, Kokkos::HostSpace>;
    V a("a", nsys, N), b("b", nsys, N), c("c", nsys, N), d("d", nsys, N);
    for (std::size_t s = 0; s < nsys; ++s)
      for (std::size_t g = 0; g < N; ++g) {
        const std::array<T, 3> row = matrix_row(s, g);
        a(s, g) = row[0], b(s, g) = row[1], c(s, g) = row[2], d(s, g) = coef(s, g, 3);
      }
    std::vector<int> codes = bstest_mpi::solve_whole_lines(periodic, a, b, c, d);
    return {std::vector<T>(d.data(), d.data() + nsys * N), codes};
  }
};

template <class T>
lines<T> periodic_lines(std::size_t nsys, std::size_t N,
                        std::vector<std::pair<std::size_t, std::size_t>> zero_rows = {},
                        std::vector<std::size_t> ring_rows = {}) {
  lines<T> L{nsys, N, std::move(zero_rows)};
  L.periodic = true;
  L.ring_rows = std::move(ring_rows);
  return L;
}

// Rows held by each of P ranks.
enum class split { even, one_two_rest, rest_two_one, alternate_two_one, all_ones };
const char* split_name(split k) {
  const char* names[] = {"even", "1,2,7,rest", "rest,7,2,1", "2,1,2,1", "all ones"};
  return names[static_cast<int>(k)];
}
std::vector<std::size_t> parts(split kind, int P) {
  std::vector<std::size_t> n(static_cast<std::size_t>(P));
  const std::size_t pattern[3] = {1, 2, 7};
  std::size_t used = 0;
  for (int r = 0; r < P; ++r) {
    std::size_t& m = n[static_cast<std::size_t>(r)];
    switch (kind) {
      case split::even: m = 13 / P + (r < 13 % P ? 1 : 0); break;
      case split::one_two_rest: m = r + 1 < P ? pattern[r] : 13 - used; break;
      case split::rest_two_one: m = r > 0 ? pattern[P - 1 - r] : 0; break;
      case split::alternate_two_one: m = r % 2 == 0 ? 2 : 1; break;
      case split::all_ones: m = 1; break;
    }
    used += m;
  }
  if (kind == split::rest_two_one) n[0] = 13 - used;
  return n;
}

template <class Layout>
std::string layout_label() {
  if constexpr (std::is_same_v<Layout, layout::row> || std::is_same_v<Layout, layout::column> ||
                std::is_same_v<Layout, layout::strided>)
    return Layout::name;
  else
    return "interleaved<" + std::to_string(Layout::width) + ">";
}

// This rank's rows [g0, g0 + m) of the lines as a batch View in Layout (strided: rows 1 .. m of a
// row-layout array with two extra rows per system).
template <class Layout, class T>
auto local_view(const std::string& label, const lines<T>& L, std::size_t g0, std::size_t m,
                int which) {
  if constexpr (std::is_same_v<Layout, layout::strided>) {
    Kokkos::View<T**, Kokkos::LayoutRight, Kokkos::HostSpace> base(label, L.nsys, m + 2);
    Kokkos::deep_copy(base, T(1e30));  // never read
    Kokkos::View<T**, Kokkos::LayoutStride, Kokkos::HostSpace> v =
        Kokkos::subview(base, Kokkos::ALL, Kokkos::make_pair(std::size_t(1), m + 1));
    for (std::size_t s = 0; s < L.nsys; ++s)
      for (std::size_t i = 0; i < m; ++i) v(s, i) = L.coef(s, g0 + i, which);
    return v;
  } else {
    auto v = bandsolve::make_batch<Layout, T, Kokkos::HostSpace>(label, L.nsys, m);
    for (std::size_t s = 0; s < L.nsys; ++s)
      for (std::size_t i = 0; i < m; ++i)
        bandsolve::at(v, static_cast<index_t>(s), static_cast<index_t>(i)) = L.coef(s, g0 + i, which);
    return v;
  }
}

struct outcome {
  double max_error = 0;  // |x - x_ref| / (1 + |x_ref|) over this rank's rows of the good lines
  std::vector<int> info;
};

// Words the reduced systems' exchanges sent from this rank (mpi_test_main.hpp).
using bstest_mpi::words_sent;

// This rank's first global row and rows under the split `sizes`.
std::pair<std::size_t, std::size_t> my_rows(const std::vector<std::size_t>& sizes) {
  const std::size_t me = static_cast<std::size_t>(world_rank());
  std::size_t g0 = 0;
  for (std::size_t r = 0; r < me; ++r) g0 += sizes[r];
  return {g0, sizes[me]};
}

// Largest |x - x_ref| / (1 + |x_ref|) over this rank's rows of the lines the reference solves.
template <class T, class DView>
double max_error(const lines<T>& L, const DView& d, std::size_t g0, std::size_t m) {
  const auto [x, ref_info] = L.reference();
  double worst = 0;
  for (std::size_t s = 0; s < L.nsys; ++s) {
    if (ref_info[s] != 0) continue;
    for (std::size_t i = 0; i < m; ++i) {
      const double ref = static_cast<double>(x[s * L.N + g0 + i]);
      const double got =
          static_cast<double>(bandsolve::at(d, static_cast<index_t>(s), static_cast<index_t>(i)));
      const double e = std::abs(got - ref) / (1 + std::abs(ref));
      if (!(e <= worst)) worst = std::isfinite(e) ? e : 1e300;  // NaN too
    }
  }
  return worst;
}

// Rows of a line's reduced system: 2 per part (1 for a part of one row).
double reduced_rows(const std::vector<std::size_t>& sizes) {
  double K = 0;
  for (const auto m : sizes) K += m == 1 ? 1 : 2;
  return K;
}

// Words per line per rank sent by every rank since words_sent was 0.
double words_per_line_per_rank(std::size_t nsys) {
  long long total = words_sent;
  MPI_Allreduce(MPI_IN_PLACE, &total, 1, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
  return static_cast<double>(total) / static_cast<double>(nsys * static_cast<std::size_t>(world_size()));
}

template <class Algo>
constexpr bool periodic_v = std::is_same_v<Algo, bandsolve::algo::periodic>;

// Where the local passes run: the host backend's, or the device backend's (the path of
// Kokkos::Cuda, mpi/partition_device.hpp) on the host space exec.
enum class passes { host, device };

// Solves the lines split as `sizes` with bandsolve::mpi::solve on exec (untagged for Thomas
// lines, tagged for periodic ones); compares with the whole lines' reference.
template <class Layout, class Algo = bandsolve::algo::thomas, passes Path = passes::host, class T,
          class Exec>
outcome run(const Exec& exec, const lines<T>& L, const std::vector<std::size_t>& sizes,
            const bmpi::options& opts) {
  CHECK(L.periodic == periodic_v<Algo>);
  const auto [g0, m] = my_rows(sizes);
  auto a = local_view<Layout>("a", L, g0, m, 0), b = local_view<Layout>("b", L, g0, m, 1),
       c = local_view<Layout>("c", L, g0, m, 2), d = local_view<Layout>("d", L, g0, m, 3);
  Kokkos::View<int*, Kokkos::HostSpace> info("info", L.nsys);
  Kokkos::deep_copy(info, -7);
  words_sent = 0;
  if constexpr (Path == passes::device)
    bmpi::solve(exec, MPI_COMM_WORLD, Algo{}, a, b, c, d, info, opts, bandsolve::backend::device{});
  else if constexpr (periodic_v<Algo>)
    bmpi::solve(exec, MPI_COMM_WORLD, Algo{}, a, b, c, d, info, opts);
  else
    bmpi::solve(exec, MPI_COMM_WORLD, a, b, c, d, info, opts);
  // 3 words per reduced row there, 1 back: 4K/P <= 8 (none with one rank).
  const double words = words_per_line_per_rank(L.nsys);
  CHECK(words == (world_size() == 1 ? 0.0 : 4 * reduced_rows(sizes) / world_size()));
  CHECK(words <= 8);
  outcome out;
  out.info.assign(info.data(), info.data() + L.nsys);
  out.max_error = max_error(L, d, g0, m);
  return out;
}

// Factorizes the lines split as `sizes`, then solves two right-hand sides; batches: the batches of
// lines the factorization should keep (0: not checked). Returns f.finish_tip_rows().
template <class Layout, class Algo = bandsolve::algo::thomas, passes Path = passes::host, class T,
          class Exec>
std::ptrdiff_t run_factored(const Exec& exec, lines<T> L, const std::vector<std::size_t>& sizes,
                            const bmpi::options& opts, const std::vector<int>& expected_info,
                            std::size_t batches = 0) {
  CHECK(L.periodic == periodic_v<Algo>);
  const auto [g0, m] = my_rows(sizes);
  auto a = local_view<Layout>("a", L, g0, m, 0), b = local_view<Layout>("b", L, g0, m, 1),
       c = local_view<Layout>("c", L, g0, m, 2);
  const auto f = [&] {
    if constexpr (Path == passes::device)
      return bmpi::factorize(exec, MPI_COMM_WORLD, Algo{}, a, b, c, L.nsys, opts,
                             bandsolve::backend::device{});
    else if constexpr (periodic_v<Algo>)
      return bmpi::factorize(exec, MPI_COMM_WORLD, Algo{}, a, b, c, L.nsys, opts);
    else
      return bmpi::factorize(exec, MPI_COMM_WORLD, a, b, c, L.nsys, opts);
  }();
  const std::vector<int> info(f.info().data(), f.info().data() + L.nsys);
  CHECK(info == expected_info);
  CHECK(f.on_device_backend() == (Path == passes::device));
  if (batches > 0) CHECK(f.batches() == bstest_mpi::expected_batches(f, batches));
  for (const std::uint64_t rhs : {3, 5}) {
    L.rhs = rhs;
    auto d = local_view<Layout>("d", L, g0, m, 3);
    words_sent = 0;
    f.solve(exec, d);
    // 1 word per reduced row there, 1 back: 2K/P <= 4.
    const double words = words_per_line_per_rank(L.nsys);
    CHECK(words == 2 * reduced_rows(sizes) / world_size());
    CHECK(words <= 4);
    CHECK(max_error(L, d, g0, m) <= 100 * std::numeric_limits<T>::epsilon());
  }
  return f.finish_tip_rows();
}

template <class Layout, class T>
void check_layout() {
  const int P = world_size();
  const double tol = 100 * std::numeric_limits<T>::epsilon();
  const split splits[] = {split::even, split::one_two_rest, split::rest_two_one,
                          split::alternate_two_one, split::all_ones};
  const bmpi::exchange schemes[] = {bmpi::exchange::automatic, bmpi::exchange::all_to_all,
                                    bmpi::exchange::gather};
  bstest::for_each_exec([&](const auto& exec) {
    for (const split kind : splits) {
      const auto sizes = parts(kind, P);
      std::size_t N = 0;
      for (const auto m : sizes) N += m;
      for (const std::size_t nsys : {std::size_t(1), std::size_t(37)})
        for (const auto scheme : schemes) {
          bmpi::options opts;
          opts.scheme = scheme;
          const outcome out = run<Layout>(exec, lines<T>{nsys, N, {}}, sizes, opts);
          INFO(layout_label<Layout>() << ", " << (sizeof(T) == 4 ? "float" : "double") << ", "
                                      << exec.name() << ", " << P << " ranks, split "
                                      << split_name(kind) << " (" << N << " rows), nsys " << nsys
                                      << ", scheme " << static_cast<int>(scheme));
          CHECK(out.max_error <= tol);
          CHECK(out.info == std::vector<int>(nsys, 0));
        }
    }
  });
}

// The message every rank threw, and whether it is the same on every rank.
std::pair<std::string, bool> agreed_message(const std::string& mine) {
  char root[512] = {};
  std::strncpy(root, mine.c_str(), sizeof(root) - 1);
  MPI_Bcast(root, static_cast<int>(sizeof(root)), MPI_CHAR, 0, MPI_COMM_WORLD);
  int same = mine == root ? 1 : 0;
  MPI_Allreduce(MPI_IN_PLACE, &same, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  return {mine, same == 1};
}

}  // namespace

TEST_CASE("mpi::solve equals the single-process Thomas solve", "[mpi]") {
  check_layout<layout::row, double>();
  check_layout<layout::row, float>();
  check_layout<layout::column, double>();
  check_layout<layout::column, float>();
  check_layout<layout::interleaved<4>, double>();
  check_layout<layout::interleaved<4>, float>();
  check_layout<layout::strided, double>();
  check_layout<layout::strided, float>();
}

// Full packs of systems side by side (up to 128 per work item) and parts longer than the tiles
// of rows the local passes transpose (8 doubles, 16 floats), with a zero row in a full pack.
template <class Layout, class T>
void check_long_parts() {
  const int P = world_size();
  const std::size_t nsys = 300, N = 41 * static_cast<std::size_t>(P);
  const std::vector<std::size_t> sizes(static_cast<std::size_t>(P), 41);
  INFO(layout_label<Layout>() << ", " << (sizeof(T) == 4 ? "float" : "double") << ", " << P
                              << " ranks, " << N << " rows, nsys " << nsys);
  const outcome out = run<Layout>(Kokkos::DefaultHostExecutionSpace(), lines<T>{nsys, N, {}}, sizes, {});
  CHECK(out.max_error <= 100 * std::numeric_limits<T>::epsilon());
  CHECK(out.info == std::vector<int>(nsys, 0));
  std::vector<int> expected(nsys, 0);
  expected[70] = 6;
  expected[131] = static_cast<int>(N);
  const outcome singular =
      run<Layout>(rank_space(), lines<T>{nsys, N, {{70, 5}, {131, N - 1}}}, sizes, {});
  CHECK(singular.info == expected);
  // Batches of 64 lines per thread (the fewest batch_bytes_per_thread allows), the last one
  // shorter: the singular lines lie in different batches.
  bmpi::options batches;
  batches.batch_bytes_per_thread = 1;
  const outcome batched =
      run<Layout>(Kokkos::DefaultHostExecutionSpace(), lines<T>{nsys, N, {}}, sizes, batches);
  CHECK(batched.max_error <= 100 * std::numeric_limits<T>::epsilon());
  CHECK(run<Layout>(rank_space(), lines<T>{nsys, N, {{70, 5}, {131, N - 1}}}, sizes, batches)
            .info == expected);
  // Every line in one batch: the finish sweeps forward again instead of keeping the rows.
  bmpi::options one_batch;
  one_batch.batch_bytes_per_thread = 0;
  CHECK(run<Layout>(Kokkos::DefaultHostExecutionSpace(), lines<T>{nsys, N, {}}, sizes, one_batch)
            .max_error <= 100 * std::numeric_limits<T>::epsilon());
  run_factored<Layout>(Kokkos::DefaultHostExecutionSpace(), lines<T>{nsys, N, {}}, sizes, {},
                       std::vector<int>(nsys, 0));
  // The factorization keeps its reduced systems in the same batches (64 lines each on one thread:
  // 5 batches, the last one shorter); the singular lines lie in different batches.
  const std::size_t kept = 5;
  run_factored<Layout>(rank_space(), lines<T>{nsys, N, {{70, 5}, {131, N - 1}}}, sizes,
                       batches, expected, kept);
  run_factored<Layout>(Kokkos::DefaultHostExecutionSpace(), lines<T>{nsys, N, {}}, sizes, batches,
                       std::vector<int>(nsys, 0));
  run_factored<Layout, bandsolve::algo::periodic>(rank_space(), periodic_lines<T>(nsys, N),
                                                  sizes, batches, std::vector<int>(nsys, 0), kept);
}

TEST_CASE("mpi::solve and mpi::factorize: full packs of systems, parts longer than a tile", "[mpi]") {
  check_long_parts<layout::row, double>();
  check_long_parts<layout::row, float>();
  check_long_parts<layout::column, double>();
  check_long_parts<layout::column, float>();
  check_long_parts<layout::interleaved<8>, double>();
  check_long_parts<layout::strided, float>();
}

// Parts of 256 rows per rank: every line's coupling to the interface values (|c'| <= 1/2, |a'|
// shrinking by at least 2/3 a row for these lines) falls below the unit roundoff well within
// each end, so the factored solve's finish corrects only the tips, in one batch and in batches,
// lines with ends and periodic. Parts of 41 rows keep the full finish in double (their tips would
// meet).
template <class Layout, class T>
void check_truncated_finish() {
  const int P = world_size();
  const std::size_t nsys = 150, m = 256, N = m * static_cast<std::size_t>(P);
  const std::vector<std::size_t> sizes(static_cast<std::size_t>(P), m);
  INFO(layout_label<Layout>() << ", " << (sizeof(T) == 4 ? "float" : "double") << ", " << P
                              << " ranks, " << N << " rows, nsys " << nsys);
  const std::vector<int> ok(nsys, 0);
  bmpi::options batches;
  batches.batch_bytes_per_thread = 1;
  for (const auto& opts : {bmpi::options{}, batches}) {
    // Every rank truncates: one batch where batch_bytes_per_thread asks for 3 (expected_batches).
    const std::size_t kept = opts.batch_bytes_per_thread == 1 ? 3 : 0;
    const std::ptrdiff_t tip =
        run_factored<Layout>(Kokkos::DefaultHostExecutionSpace(), lines<T>{nsys, N, {}}, sizes,
                             opts, ok, kept);
    CHECK(tip >= 1);
    CHECK(2 * tip <= static_cast<std::ptrdiff_t>(m) - 2);
    const std::ptrdiff_t ring_tip = run_factored<Layout, bandsolve::algo::periodic>(
        rank_space(), periodic_lines<T>(nsys, N), sizes, opts, ok);
    CHECK(ring_tip >= 1);
    CHECK(2 * ring_tip <= static_cast<std::ptrdiff_t>(m) - 2);
  }
  // A singular line (a zero row near a part's end, in the tip) keeps its info code; the other
  // lines are solved.
  std::vector<int> expected(nsys, 0);
  expected[70] = static_cast<int>(m) + 3;
  const std::ptrdiff_t singular_tip = run_factored<Layout>(
      rank_space(), lines<T>{nsys, N, {{70, m + 2}}}, sizes, batches, P > 1 ? expected : ok);
  // Its pivots are not finite past the zero row: that rank keeps the full finish.
  if (P > 1 && world_rank() == 1) CHECK(singular_tip == -1);
}

TEST_CASE("mpi::factorize: parts whose coupling dies out finish only the rows near their ends",
          "[mpi]") {
  check_truncated_finish<layout::row, double>();
  check_truncated_finish<layout::row, float>();
  check_truncated_finish<layout::column, double>();
  check_truncated_finish<layout::column, float>();
  check_truncated_finish<layout::interleaved<4>, double>();
  check_truncated_finish<layout::interleaved<8>, float>();
  check_truncated_finish<layout::strided, double>();
  check_truncated_finish<layout::strided, float>();
  // Double parts of 41 rows: the full finish.
  const int P = world_size();
  const std::size_t N = 41 * static_cast<std::size_t>(P);
  CHECK(run_factored<layout::row>(rank_space(), lines<double>{20, N, {}},
                                  std::vector<std::size_t>(static_cast<std::size_t>(P), 41), {},
                                  std::vector<int>(20, 0)) == -1);
}

// Batches hold whole packs of every layout, column floats' 128 lines included: a batch that
// started inside a pack of the stored factors ran its factored passes one line at a time (448
// lines per batch for column floats of 260 rows per rank, before batches were rounded to 128).
TEST_CASE("mpi batches are whole multiples of 128 lines, or 64 where fewer fit", "[mpi]") {
  namespace bd = bandsolve::mpi::detail;
  constexpr auto float_lanes =
      static_cast<std::size_t>(bd::part_lanes_v<layout::column, float>);
  const std::size_t machine = bd::machine_batch_bytes();
  for (const std::size_t asked : {std::size_t(1), std::size_t(1) << 19, std::size_t(2) << 20,
                                  bmpi::options::automatic_batch_bytes}) {
    bmpi::options opts;
    opts.batch_bytes_per_thread = asked;
    const std::size_t bytes = bd::batch_bytes(opts, machine);
    CHECK(bytes == (asked == bmpi::options::automatic_batch_bytes ? machine : asked));
    for (const int threads : {1, 2, 3}) {
      for (std::size_t rows = 1; rows <= 4096; rows += rows < 300 ? 1 : 97) {
        for (const std::size_t scalar : {std::size_t(4), std::size_t(8), std::size_t(16)}) {
          INFO(bytes << " bytes per thread, " << threads << " threads, " << rows << " rows, "
                     << scalar << "-byte values");
          const std::size_t lines =
              bd::batch_lines(opts, machine, 1 << 20, rows, scalar, threads);
          const auto t = static_cast<std::size_t>(threads);
          REQUIRE(lines % t == 0);
          const std::size_t per_thread = lines / t;
          CHECK((per_thread == 64 || per_thread % float_lanes == 0));
          CHECK(per_thread * 4 * rows * scalar <= (per_thread == 64 ? 256 * rows * scalar : bytes));
        }
      }
    }
  }
  bmpi::options one_batch;
  one_batch.batch_bytes_per_thread = 0;
  CHECK(bd::batch_lines(one_batch, machine, 1000, 260, 4, 1) == 1000);
}

// options::automatic_batch_bytes: a quarter of the level-2 cache where that holds at least 512 KiB,
// else 2 MiB; the ranks agree on the smallest of their hosts' values.
TEST_CASE("mpi automatic batches follow the level-2 cache", "[mpi]") {
  namespace bd = bandsolve::mpi::detail;
  constexpr std::size_t KiB = 1024, MiB = KiB * KiB;
  CHECK(bd::batch_bytes_for_level2(0) == 2 * MiB);
  CHECK(bd::batch_bytes_for_level2(1 * MiB) == 2 * MiB);
  CHECK(bd::batch_bytes_for_level2(2 * MiB - 4) == 2 * MiB);
  CHECK(bd::batch_bytes_for_level2(2 * MiB) == 512 * KiB);
  CHECK(bd::batch_bytes_for_level2(4 * MiB) == 1 * MiB);
  const std::size_t mine = bd::machine_batch_bytes();
  CHECK(mine == bd::batch_bytes_for_level2(bandsolve::detail::level2_cache_bytes()));
  unsigned long long least = mine;
  MPI_Allreduce(MPI_IN_PLACE, &least, 1, MPI_UNSIGNED_LONG_LONG, MPI_MIN, MPI_COMM_WORLD);
  const bmpi::options opts;
  const bd::partition p = bd::agree_on_arguments(
      "f", MPI_COMM_WORLD, bd::scalar_code<double>(),
      [] { return std::pair<std::size_t, std::size_t>(1, 1); }, &opts);
  CHECK(p.machine_batch_bytes == least);
  CHECK(bd::batch_bytes(opts, p.machine_batch_bytes) == least);
}

TEST_CASE("mpi::solve: bad arguments on one rank make every rank throw the same message", "[mpi]") {
  const int P = world_size(), me = world_rank();
  const int bad = P - 1;
  const std::string who = "bandsolve::mpi::solve: rank " + std::to_string(bad) + " of " +
                          std::to_string(P) + ": ";
  using V = Kokkos::View<double**, Kokkos::LayoutRight, Kokkos::HostSpace>;
  const std::size_t nsys = 3, m = 4;
  V a("a", nsys, m), b("b", nsys, m), c("c", nsys, m), d("d", nsys, m);
  Kokkos::deep_copy(b, 4.0);
  Kokkos::View<int*, Kokkos::HostSpace> info("info", nsys);

  SECTION("b has a row more than d on the last rank") {
    V b_bad("b", nsys, m + 1);
    const auto [msg, same] = agreed_message(thrown(
        [&] { bmpi::solve(rank_space(), MPI_COMM_WORLD, a, me == bad ? b_bad : b, c, d, info); }));
    CHECK(same);
    CHECK(msg == who + "b has 5 rows but d has 4");
  }
  SECTION("no rows on the last rank") {
    V e("e", nsys, 0);
    const auto [msg, same] = agreed_message(thrown([&] {
      if (me == bad)
        bmpi::solve(rank_space(), MPI_COMM_WORLD, e, e, V("c", nsys, 0), V("d", nsys, 0), info);
      else
        bmpi::solve(rank_space(), MPI_COMM_WORLD, a, b, c, d, info);
    }));
    CHECK(same);
    CHECK(msg == who + "this rank holds 0 rows; every rank must hold at least one row of each system");
  }
  SECTION("the ranks hold different numbers of systems") {
    V a1("a", nsys + 1, m), b1("b", nsys + 1, m), c1("c", nsys + 1, m), d1("d", nsys + 1, m);
    Kokkos::deep_copy(b1, 4.0);
    Kokkos::View<int*, Kokkos::HostSpace> info1("info", nsys + 1);
    const auto [msg, same] = agreed_message(thrown([&] {
      if (me == bad && P > 1)
        bmpi::solve(rank_space(), MPI_COMM_WORLD, a1, b1, c1, d1, info1);
      else
        bmpi::solve(rank_space(), MPI_COMM_WORLD, a, b, c, d, info);
    }));
    CHECK(same);
    if (P > 1)
      CHECK(msg == "bandsolve::mpi::solve: the ranks hold different numbers of systems: nsys = 3 "
                   "on rank 0 but 4 on rank " + std::to_string(bad) +
                       " (every rank holds a part of every system)");
    else
      CHECK(msg.empty());  // nothing thrown
  }
  SECTION("other options on the last rank") {
    bmpi::options other;
    other.scheme = bmpi::exchange::gather;
    other.batch_bytes_per_thread = 4096;
    const auto [msg, same] = agreed_message(thrown([&] {
      bmpi::solve(rank_space(), MPI_COMM_WORLD, a, b, c, d, info,
                  me == bad ? other : bmpi::options{});
    }));
    CHECK(same);
    if (P > 1)
      CHECK(msg == "bandsolve::mpi::solve: the ranks pass different options: scheme 0, "
                   "all_to_all_min_lines_per_rank 16, batch_bytes_per_thread automatic on rank 0 "
                   "but 2, 16, 4096 on rank " + std::to_string(bad));
    else
      CHECK(msg.empty());  // nothing thrown
  }
  SECTION("a factored solve with a row fewer on the last rank") {
    const auto f = bmpi::factorize(rank_space(), MPI_COMM_WORLD, a, b, c);
    V d_bad("d", nsys, m - 1);
    const auto [msg, same] = agreed_message(
        thrown([&] { f.solve(rank_space(), me == bad ? d_bad : d); }));
    CHECK(same);
    CHECK(msg == "bandsolve::mpi::factorization::solve: rank " + std::to_string(bad) + " of " +
                     std::to_string(P) + ": d has 3 rows but the factorization has 4");
  }
  SECTION("periodic lines: b has a row more than d on the last rank") {
    V b_bad("b", nsys, m + 1);
    const auto [msg, same] = agreed_message(thrown([&] {
      bmpi::solve(rank_space(), MPI_COMM_WORLD, bandsolve::algo::periodic{}, a,
                  me == bad ? b_bad : b, c, d, info);
    }));
    CHECK(same);
    CHECK(msg == "bandsolve::mpi::solve(periodic): rank " + std::to_string(bad) + " of " +
                     std::to_string(P) + ": b has 5 rows but d has 4");
  }
  // The ranks are still in step: a good solve afterwards.
  Kokkos::deep_copy(d, 4.0);
  bmpi::solve(rank_space(), MPI_COMM_WORLD, a, b, c, d, info);
  CHECK(std::abs(d(1, 2) - 1.0) < 1e-15);
  CHECK(info(0) == 0);
}

TEST_CASE("mpi::solve: a singular line gets the same info code on every rank", "[mpi]") {
  const int P = world_size();
  for (const split kind : {split::even, split::one_two_rest}) {
    const auto sizes = parts(kind, P);
    // Zero rows: line 2 at global row 6, line 4 at row 0 (Thomas: info 7 and 1).
    lines<double> L{5, 13, {{2, 6}, {4, 0}}};
    for (const auto scheme : {bmpi::exchange::all_to_all, bmpi::exchange::gather}) {
      bmpi::options opts;
      opts.scheme = scheme;
      const outcome out = run<layout::column>(rank_space(), L, sizes, opts);
      INFO(P << " ranks, split " << split_name(kind) << ", scheme " << static_cast<int>(scheme));
      CHECK(out.info == std::vector<int>{0, 0, 7, 0, 1});
      CHECK(L.reference().second == std::vector<int>{0, 0, 7, 0, 1});
      CHECK(out.max_error <= 100 * std::numeric_limits<double>::epsilon());  // the other lines
    }
  }
}

TEST_CASE("mpi::solve: a line whose reduced system is singular gets the same info code on every rank",
          "[mpi]") {
  // Parts of 2, 1, 2, 1 rows: the zero pivot of line 1 (row 2) is met by the reduced solve, on
  // whichever rank solves that line, and is mapped back to its global row.
  const auto sizes = parts(split::alternate_two_one, world_size());
  std::size_t N = 0;
  for (const auto m : sizes) N += m;
  lines<double> L{3, N, {}, {1}};
  for (const auto scheme : {bmpi::exchange::all_to_all, bmpi::exchange::gather}) {
    bmpi::options opts;
    opts.scheme = scheme;
    const outcome out = run<layout::row>(rank_space(), L, sizes, opts);
    INFO(world_size() << " ranks, scheme " << static_cast<int>(scheme));
    CHECK(out.info == std::vector<int>{0, 2, 0});
    CHECK(L.reference().second == std::vector<int>{0, 2, 0});
    CHECK(out.max_error <= 100 * std::numeric_limits<double>::epsilon());
  }
}

TEST_CASE("mpi::factorize, then solves of two right-hand sides", "[mpi]") {
  const int P = world_size();
  for (const split kind : {split::even, split::one_two_rest, split::rest_two_one,
                           split::alternate_two_one, split::all_ones}) {
    const auto sizes = parts(kind, P);
    std::size_t N = 0;
    for (const auto m : sizes) N += m;
    for (const std::size_t nsys : {std::size_t(1), std::size_t(37)})
      for (const auto scheme : {bmpi::exchange::automatic, bmpi::exchange::all_to_all,
                                bmpi::exchange::gather}) {
        bmpi::options opts;
        opts.scheme = scheme;
        INFO(P << " ranks, split " << split_name(kind) << ", nsys " << nsys << ", scheme "
               << static_cast<int>(scheme));
        const std::vector<int> ok(nsys, 0);
        run_factored<layout::row>(Kokkos::DefaultHostExecutionSpace(), lines<double>{nsys, N, {}}, sizes, opts, ok);
        run_factored<layout::column>(rank_space(), lines<float>{nsys, N, {}}, sizes, opts, ok);
        run_factored<layout::interleaved<4>>(rank_space(), lines<float>{nsys, N, {}}, sizes,
                                             opts, ok);
        run_factored<layout::strided>(rank_space(), lines<double>{nsys, N, {}}, sizes, opts, ok);
      }
  }
  // Singular lines: a zero row (line 2, row 6) and a zero pivot of the reduced system (line 1).
  for (const auto scheme : {bmpi::exchange::all_to_all, bmpi::exchange::gather}) {
    bmpi::options opts;
    opts.scheme = scheme;
    INFO(P << " ranks, scheme " << static_cast<int>(scheme));
    run_factored<layout::row>(rank_space(), lines<double>{5, 13, {{2, 6}, {4, 0}}},
                              parts(split::one_two_rest, P), opts, {0, 0, 7, 0, 1});
    const auto sizes = parts(split::alternate_two_one, P);
    std::size_t N = 0;
    for (const auto m : sizes) N += m;
    run_factored<layout::row>(rank_space(), lines<double>{3, N, {}, {1}}, sizes, opts,
                              {0, 2, 0});
    // In batches of 64 lines (3 for 150 lines): the reduced solve of the third batch finds line
    // 140's zero pivot, mapped back to line 140.
    bmpi::options batches = opts;
    batches.batch_bytes_per_thread = 1;
    std::vector<int> codes(150, 0);
    codes[1] = codes[140] = 2;
    run_factored<layout::row>(rank_space(), lines<double>{150, N, {}, {1, 140}}, sizes,
                              batches, codes, 3);
    // Every host layout in batches: the 150 lines of 64 SIMD packs (column), of 4 lanes
    // (interleaved) and of a cache line (strided) across batch ends.
    run_factored<layout::column>(rank_space(), lines<float>{150, N, {}, {1, 140}}, sizes,
                                 batches, codes, 3);
    run_factored<layout::interleaved<4>>(rank_space(), lines<double>{150, N, {}, {1, 140}},
                                         sizes, batches, codes, 3);
    run_factored<layout::strided>(rank_space(), lines<double>{150, N, {}, {1, 140}}, sizes,
                                  batches, codes, 3);
  }
}

// Factorizes the lines `first` split as `sizes`, refactors the factorization with `then` (the
// same shape), and solves `then`'s right-hand side with a copy made before: the parts' factors
// in the storage of the first (the same layout), `then`'s info codes and solution; then back to
// `first`. Returns the finish tips of the two factorizations.
template <class Layout, class Algo = bandsolve::algo::thomas, passes Path = passes::host, class T,
          class Exec>
std::pair<std::ptrdiff_t, std::ptrdiff_t> run_refactored(const Exec& exec, const lines<T>& first,
                                                         const lines<T>& then,
                                                         const std::vector<std::size_t>& sizes,
                                                         const bmpi::options& opts,
                                                         const std::vector<int>& then_info) {
  const auto [g0, m] = my_rows(sizes);
  const double tol = 100 * std::numeric_limits<T>::epsilon();
  auto a = local_view<Layout>("a", first, g0, m, 0), b = local_view<Layout>("b", first, g0, m, 1),
       c = local_view<Layout>("c", first, g0, m, 2);
  auto f = [&] {
    if constexpr (Path == passes::device)
      return bmpi::factorize(exec, MPI_COMM_WORLD, Algo{}, a, b, c, first.nsys, opts,
                             bandsolve::backend::device{});
    else
      return bmpi::factorize(exec, MPI_COMM_WORLD, Algo{}, a, b, c, first.nsys, opts);
  }();
  const std::ptrdiff_t first_tip = f.finish_tip_rows();
  const auto copy = f;
  const T* const stored = f.parts_factors().r.data();
  auto a2 = local_view<Layout>("a2", then, g0, m, 0), b2 = local_view<Layout>("b2", then, g0, m, 1),
       c2 = local_view<Layout>("c2", then, g0, m, 2);
  f.refactor(exec, a2, b2, c2);
  CHECK(f.parts_factors().r.data() == stored);
  CHECK(copy.parts_factors().r.data() == stored);
  CHECK(std::vector<int>(copy.info().data(), copy.info().data() + then.nsys) == then_info);
  const std::ptrdiff_t then_tip = copy.finish_tip_rows();
  auto d2 = local_view<Layout>("d2", then, g0, m, 3);
  copy.solve(exec, d2);
  CHECK(max_error(then, d2, g0, m) <= tol);
  // The first lines again: their codes (every line solved) and solution.
  f.refactor(exec, a, b, c);
  CHECK(f.finish_tip_rows() == first_tip);
  CHECK(std::vector<int>(f.info().data(), f.info().data() + first.nsys) ==
        std::vector<int>(first.nsys, 0));
  auto d = local_view<Layout>("d", first, g0, m, 3);
  f.solve(exec, d);
  CHECK(max_error(first, d, g0, m) <= tol);
  return {first_tip, then_tip};
}

TEST_CASE("mpi::factorization::refactor factors new lines into the factorization's storage",
          "[mpi]") {
  using periodic = bandsolve::algo::periodic;
  const int P = world_size();
  for (const split kind : {split::even, split::alternate_two_one}) {
    const auto sizes = parts(kind, P);
    std::size_t N = 0;
    for (const auto m : sizes) N += m;
    for (const std::size_t nsys : {std::size_t(1), std::size_t(37)}) {
      INFO(P << " ranks, split " << split_name(kind) << ", nsys " << nsys);
      lines<double> first{nsys, N, {}}, then{nsys, N, {}};
      then.matrices = 1;
      lines<float> first_f{nsys, N, {}}, then_f{nsys, N, {}};
      then_f.matrices = 1;
      const std::vector<int> ok(nsys, 0);
      const bmpi::options opts;
      run_refactored<layout::row>(Kokkos::DefaultHostExecutionSpace(), first, then, sizes, opts,
                                  ok);
      run_refactored<layout::column>(rank_space(), first_f, then_f, sizes, opts, ok);
      run_refactored<layout::interleaved<4>>(rank_space(), first, then, sizes, opts, ok);
      run_refactored<layout::strided>(rank_space(), first_f, then_f, sizes, opts, ok);
      auto ring = periodic_lines<double>(nsys, N), ring_then = periodic_lines<double>(nsys, N);
      ring_then.matrices = 1;
      run_refactored<layout::row, periodic>(rank_space(), ring, ring_then, sizes, opts, ok);
#if BANDSOLVE_TESTS_DEVICE_BACKEND
      run_refactored<layout::column, bandsolve::algo::thomas, passes::device>(
          rank_space(), first, then, sizes, opts, ok);
#endif
    }
  }
  // Parts whose coupling dies out (the truncated finish, one batch) refactored with a singular
  // line (a zero row in rank 1's tip: that rank keeps the full finish, and the reduced systems
  // go in the 3 batches the options ask for), and back.
  const std::size_t nsys = 150, m = 256, N = m * static_cast<std::size_t>(P);
  const std::vector<std::size_t> sizes(static_cast<std::size_t>(P), m);
  bmpi::options batches;
  batches.batch_bytes_per_thread = 1;
  lines<double> then{nsys, N, {{70, m + 2}}};
  then.matrices = 1;
  std::vector<int> codes(nsys, 0);
  if (P > 1) codes[70] = static_cast<int>(m) + 3;
  const auto [first_tip, then_tip] = run_refactored<layout::row>(
      rank_space(), lines<double>{nsys, N, {}}, then, sizes, batches, codes);
  CHECK(first_tip >= 1);
  if (P > 1 && world_rank() == 1) CHECK(then_tip == -1);
}

TEST_CASE("mpi::factorization::refactor: a shape unlike the factored one on one rank makes every "
          "rank throw", "[mpi]") {
  const int P = world_size(), me = world_rank();
  const int bad = P - 1;
  const std::string who = "bandsolve::mpi::factorization::refactor: rank " + std::to_string(bad) +
                          " of " + std::to_string(P) + ": ";
  using V = Kokkos::View<double**, Kokkos::LayoutRight, Kokkos::HostSpace>;
  const std::size_t nsys = 3, m = 4;
  V a("a", nsys, m), b("b", nsys, m), c("c", nsys, m), d("d", nsys, m);
  Kokkos::deep_copy(b, 4.0);
  auto f = bmpi::factorize(rank_space(), MPI_COMM_WORLD, a, b, c);
  SECTION("a row more on the last rank") {
    V a5("a", nsys, m + 1), b5("b", nsys, m + 1), c5("c", nsys, m + 1);
    const auto [msg, same] = agreed_message(thrown([&] {
      if (me == bad)
        f.refactor(rank_space(), a5, b5, c5);
      else
        f.refactor(rank_space(), a, b, c);
    }));
    CHECK(same);
    CHECK(msg == who + "b has 5 rows on this rank but the factorization has 4");
  }
  SECTION("a system more on the last rank") {
    V a4("a", nsys + 1, m), b4("b", nsys + 1, m), c4("c", nsys + 1, m);
    const auto [msg, same] = agreed_message(thrown([&] {
      if (me == bad)
        f.refactor(rank_space(), a4, b4, c4);
      else
        f.refactor(rank_space(), a, b, c);
    }));
    CHECK(same);
    CHECK(msg == who + "b holds 4 systems but the factorization has 3");
  }
  // The factorization is unchanged: b = 4 on every row, d = 8 gives x = 2.
  Kokkos::deep_copy(d, 8.0);
  f.solve(rank_space(), d);
  CHECK(d(2, 3) == 2.0);
}

// Calls f(kind, sizes, N, nsys, opts) for every split of the rows over the ranks (N rows in
// all), one line and 37, and both exchange schemes.
template <class F>
void for_each_split_case(const F& f) {
  for (const split kind : {split::even, split::one_two_rest, split::rest_two_one,
                           split::alternate_two_one, split::all_ones}) {
    const auto sizes = parts(kind, world_size());
    std::size_t N = 0;
    for (const auto m : sizes) N += m;
    for (const std::size_t nsys : {std::size_t(1), std::size_t(37)})
      for (const auto scheme : {bmpi::exchange::all_to_all, bmpi::exchange::gather}) {
        bmpi::options opts;
        opts.scheme = scheme;
        f(kind, sizes, N, nsys, opts);
      }
  }
}

// Periodic lines: every split, one line and 37, both schemes, one-shot on the tests' host spaces
// and factored (two right-hand sides) on FactorExec, against the single-process periodic solve.
template <class Layout, class T, class FactorExec>
void check_periodic() {
  using periodic = bandsolve::algo::periodic;
  const int P = world_size();
  const double tol = 100 * std::numeric_limits<T>::epsilon();
  bstest::for_each_exec([&](const auto& exec) {
    for_each_split_case([&](split kind, const auto& sizes, std::size_t N, std::size_t nsys,
                            const bmpi::options& opts) {
      INFO("periodic, " << layout_label<Layout>() << ", " << (sizeof(T) == 4 ? "float" : "double")
                        << ", " << exec.name() << ", " << P << " ranks, split " << split_name(kind)
                        << " (" << N << " rows), nsys " << nsys << ", scheme "
                        << static_cast<int>(opts.scheme));
      const auto L = periodic_lines<T>(nsys, N);
      const outcome out = run<Layout, periodic>(exec, L, sizes, opts);
      CHECK(out.max_error <= tol);
      CHECK(out.info == std::vector<int>(nsys, 0));
      if (std::is_same_v<std::decay_t<decltype(exec)>, rank_space>)
        run_factored<Layout, periodic>(FactorExec(), L, sizes, opts, std::vector<int>(nsys, 0));
    });
  });
}

TEST_CASE("mpi::solve(periodic) and mpi::factorize(periodic) equal the single-process periodic "
          "solve", "[mpi]") {
  check_periodic<layout::row, double, Kokkos::DefaultHostExecutionSpace>();
  check_periodic<layout::column, double, rank_space>();
  check_periodic<layout::interleaved<4>, float, rank_space>();
  check_periodic<layout::strided, float, rank_space>();
  // Full packs of 64 systems side by side (column batches) and parts longer than a tile.
  const int P = world_size();
  const std::size_t nsys = 300, N = 41 * static_cast<std::size_t>(P);
  const std::vector<std::size_t> sizes(static_cast<std::size_t>(P), 41);
  const auto L = periodic_lines<double>(nsys, N);
  const outcome out = run<layout::column, bandsolve::algo::periodic>(
      Kokkos::DefaultHostExecutionSpace(), L, sizes, {});
  CHECK(out.max_error <= 100 * std::numeric_limits<double>::epsilon());
  CHECK(out.info == std::vector<int>(nsys, 0));
  run_factored<layout::column, bandsolve::algo::periodic>(rank_space(), L, sizes, {},
                                                          std::vector<int>(nsys, 0));
}

TEST_CASE("mpi::solve(periodic): singular lines get the same info code on every rank", "[mpi]") {
  // Zero rows (line 2 at global row 6, line 4 at row 0: found by the local passes) and a line on
  // the ring whose leading blocks are regular but whose last pivot, the reduced periodic
  // system's Schur complement, is 0 (line 1: found by the reduced solve, reported at row N).
  const int P = world_size();
  for (const split kind : {split::even, split::one_two_rest}) {
    const auto sizes = parts(kind, P);
    const auto L = periodic_lines<double>(5, 13, {{2, 6}, {4, 0}}, {1});
    const std::vector<int> expected{0, 13, 7, 0, 1};
    CHECK(L.reference().second == expected);
    for (const auto scheme : {bmpi::exchange::all_to_all, bmpi::exchange::gather}) {
      bmpi::options opts;
      opts.scheme = scheme;
      INFO(P << " ranks, split " << split_name(kind) << ", scheme " << static_cast<int>(scheme));
      const outcome out = run<layout::column, bandsolve::algo::periodic>(rank_space(), L,
                                                                          sizes, opts);
      CHECK(out.info == expected);
      CHECK(out.max_error <= 100 * std::numeric_limits<double>::epsilon());  // the other lines
      run_factored<layout::column, bandsolve::algo::periodic>(rank_space(), L, sizes, opts,
                                                              expected);
    }
  }
}

// Lines along an axis (mpi::solve_along): the global array has extents ext (ext[axis] = N, the
// rows of the split); element g of line s (numbered as solve_along numbers them) is row g of
// lines<T>'s line s (shared coefficients: of line 0). Each rank holds its rows along the axis.
using extents = std::array<std::size_t, 4>;

template <class T, int R>
struct nd_array;
template <class T>
struct nd_array<T, 1> { using type = T*; };
template <class T>
struct nd_array<T, 2> { using type = T**; };
template <class T>
struct nd_array<T, 3> { using type = T***; };
template <class T>
struct nd_array<T, 4> { using type = T****; };
// A layout for check_along: rank-3 LayoutStride arrays laid out as LayoutLeft on rank 0 and as
// LayoutRight on the others (each rank proposes another line order: the ranks must agree on one).
struct mixed_layouts {};

template <class ArrayLayout>
using kokkos_layout_t = std::conditional_t<std::is_same_v<ArrayLayout, mixed_layouts>,
                                           Kokkos::LayoutStride, ArrayLayout>;

template <class T, int R, class ArrayLayout = Kokkos::LayoutRight>
using nd_view =
    Kokkos::View<typename nd_array<T, R>::type, kokkos_layout_t<ArrayLayout>, Kokkos::HostSpace>;

template <class V>
typename V::reference_type element(const V& v, const extents& i) {
  if constexpr (V::rank == 1) return v(i[0]);
  else if constexpr (V::rank == 2) return v(i[0], i[1]);
  else if constexpr (V::rank == 3) return v(i[0], i[1], i[2]);
  else return v(i[0], i[1], i[2], i[3]);
}

// f(i) for every index of an array of extents e (unused axes 1).
template <class F>
void for_each_index(const extents& e, const F& f) {
  for (std::size_t i0 = 0; i0 < e[0]; ++i0)
    for (std::size_t i1 = 0; i1 < e[1]; ++i1)
      for (std::size_t i2 = 0; i2 < e[2]; ++i2)
        for (std::size_t i3 = 0; i3 < e[3]; ++i3) f(extents{i0, i1, i2, i3});
}

// A View of extents e in ArrayLayout; LayoutStride: the subview of a LayoutRight array with two
// more indices along the last axis, padding that is never read (1e30) nor written; mixed_layouts:
// LayoutLeft strides on rank 0, LayoutRight strides on the others.
template <class V, class ArrayLayout = typename V::array_layout>
V allocate_nd(const std::string& label, const extents& e) {
  constexpr int R = static_cast<int>(V::rank);
  using T = typename V::value_type;
  if constexpr (std::is_same_v<ArrayLayout, mixed_layouts>) {
    static_assert(R == 3, "mixed layouts: rank 3 only here");
    return world_rank() == 0
               ? V(label, Kokkos::LayoutStride(e[0], 1, e[1], e[0], e[2], e[0] * e[1]))
               : V(label, Kokkos::LayoutStride(e[0], e[1] * e[2], e[1], e[2], e[2], 1));
  } else if constexpr (std::is_same_v<typename V::array_layout, Kokkos::LayoutStride>) {
    static_assert(R == 3, "padded arrays: rank 3 only here");
    nd_view<T, 3> base(label, e[0], e[1], e[2] + 2);
    Kokkos::deep_copy(base, T(1e30));
    return Kokkos::subview(base, Kokkos::ALL, Kokkos::ALL, Kokkos::make_pair(std::size_t(1), e[2] + 1));
  } else if constexpr (R == 1) {
    return V(label, e[0]);
  } else if constexpr (R == 2) {
    return V(label, e[0], e[1]);
  } else if constexpr (R == 3) {
    return V(label, e[0], e[1], e[2]);
  } else {
    return V(label, e[0], e[1], e[2], e[3]);
  }
}

// Line number of global index g along axis (batch indices in axis order, last fastest).
std::size_t line_of(const extents& g, const extents& ext, int rank, int axis) {
  std::size_t s = 0;
  for (int k = 0; k < rank; ++k)
    if (k != axis) s = s * ext[static_cast<std::size_t>(k)] + g[static_cast<std::size_t>(k)];
  return s;
}

// Fills this rank's part (rows g0 .. g0 + m - 1 along axis) of a, b, c, d (global: g0 = 0).
template <class T, class CView, class DView>
void fill_along(const lines<T>& L, const extents& ext, int axis, std::size_t g0, const CView& a,
                const CView& b, const CView& c, const DView& d) {
  constexpr int R = static_cast<int>(DView::rank);
  const auto ax = static_cast<std::size_t>(axis);
  extents local = ext;
  local[ax] = d.extent(ax);
  for_each_index(local, [&](extents i) {
    extents g = i;
    g[ax] += g0;
    const std::size_t s = line_of(g, ext, R, axis);
    element(d, i) = L.coef(s, g[ax], 3);
    if constexpr (CView::rank == 1) {
      if (s == 0) a(i[ax]) = L.coef(0, g[ax], 0), b(i[ax]) = L.coef(0, g[ax], 1), c(i[ax]) = L.coef(0, g[ax], 2);
    } else {
      element(a, i) = L.coef(s, g[ax], 0), element(b, i) = L.coef(s, g[ax], 1),
      element(c, i) = L.coef(s, g[ax], 2);
    }
  });
}

// One solve along `axis` of an R-D array (batch extents ext, the axis's from the split) held in
// ArrayLayout, coefficients full (same type as d) or Shared; zero_lines: lines with a zero row
// (global row 5 or the last). Checks x and info against the single-process Thomas solve of the
// whole lines (what solve_along computes, line by line) and the words the exchange sent.
// Factored: factorize_along, then one solve. opts: of the one-shot solve or the factorization.
// refactored: other coefficients factored first (line 1 singular), then a copy of that
// factorization solves after refactor with the lines' own.
template <class T, int R, class ArrayLayout, bool Shared = false, passes Path = passes::host,
          class Algo = bandsolve::algo::thomas, bool Factored = false>
void check_along(int axis, extents ext, const std::vector<std::size_t>& sizes,
                 const std::vector<std::size_t>& zero_lines = {},
                 const bmpi::options& opts = {}, bool refactored = false) {
  using DView = nd_view<T, R, ArrayLayout>;
  using CView = std::conditional_t<Shared, nd_view<T, 1>, DView>;
  const auto ax = static_cast<std::size_t>(axis);
  std::size_t N = 0;
  for (const auto m : sizes) N += m;
  ext[ax] = N;
  for (int k = R; k < 4; ++k) ext[static_cast<std::size_t>(k)] = 1;
  std::size_t nsys = 1;
  for (int k = 0; k < R; ++k)
    if (k != axis) nsys *= ext[static_cast<std::size_t>(k)];
  lines<T> L{nsys, N, {}};
  for (const auto s : zero_lines) L.zero_rows.push_back({s, s % 2 == 0 ? std::size_t(5) : N - 1});
  const extents cext = Shared ? extents{N, 1, 1, 1} : ext;

  L.shared = Shared;
  L.periodic = periodic_v<Algo>;
  // The whole lines, solved by one process (as a row batch: line s is system s).
  const auto [x_ref, ref_codes] = L.reference();
  const Kokkos::DefaultHostExecutionSpace exec;

  // This rank's rows.
  const auto [g0, m] = my_rows(sizes);
  extents local = ext, lcext = cext;
  local[ax] = m;
  lcext[Shared ? 0 : ax] = m;
  using CLayout = std::conditional_t<Shared, Kokkos::LayoutRight, ArrayLayout>;
  const DView d = allocate_nd<DView, ArrayLayout>("d", local);
  const CView a = allocate_nd<CView, CLayout>("a", lcext),
              b = allocate_nd<CView, CLayout>("b", lcext),
              c = allocate_nd<CView, CLayout>("c", lcext);
  fill_along(L, ext, axis, g0, a, b, c, d);
  Kokkos::View<int*, Kokkos::HostSpace> info("info", nsys);
  Kokkos::deep_copy(info, -7);
  words_sent = 0;
  if constexpr (Factored) {
    const auto factor = [&](const CView& fa, const CView& fb, const CView& fc) {
      if constexpr (Shared && Path == passes::device)
        return bmpi::factorize_along(exec, MPI_COMM_WORLD, Algo{}, axis, fa, fb, fc, d, opts,
                                     bandsolve::backend::device{});
      else if constexpr (Shared)
        return bmpi::factorize_along(exec, MPI_COMM_WORLD, Algo{}, axis, fa, fb, fc, d, opts);
      else if constexpr (Path == passes::device)
        return bmpi::factorize_along(exec, MPI_COMM_WORLD, Algo{}, axis, fa, fb, fc, opts,
                                     bandsolve::backend::device{});
      else
        return bmpi::factorize_along(exec, MPI_COMM_WORLD, Algo{}, axis, fa, fb, fc, opts);
    };
    auto first = [&, g0 = g0] {  // (a structured binding: captured by name from C++20 on)
      if (!refactored) return factor(a, b, c);
      lines<T> other = L;  // other matrices, line 1 singular
      other.matrices = 1;
      other.zero_rows = {{1, 2}};
      const CView a0 = allocate_nd<CView, CLayout>("a0", lcext),
                  b0 = allocate_nd<CView, CLayout>("b0", lcext),
                  c0 = allocate_nd<CView, CLayout>("c0", lcext);
      fill_along(other, ext, axis, g0, a0, b0, c0, allocate_nd<DView, ArrayLayout>("d0", local));
      return factor(a0, b0, c0);
    }();
    const auto f = first;  // a copy: it solves with what refactor puts in first
    if (refactored) {
      if constexpr (Shared)
        first.refactor(exec, a, b, c, d);
      else
        first.refactor(exec, a, b, c);
    }
    CHECK(f.on_device_backend() == (Path == passes::device));
    // Parts of 200 rows or more (these lines' coupling dies out within about 90 rows): the host
    // passes finish only the tips.
    if (Path == passes::host && m >= 200 && zero_lines.empty()) CHECK(f.finish_tip_rows() >= 1);
    // Shared coefficients: one line's factors in one pack of lanes (the column passes' pack at
    // most), else every line's.
    if constexpr (Shared)
      CHECK(f.storage_bytes() <=
            (4 * m * bmpi::detail::part_lanes_v<layout::column, T> + 3) * sizeof(T));
    else
      CHECK(f.storage_bytes() >= 4 * m * nsys * sizeof(T));
    for (std::size_t s = 0; s < nsys; ++s) info(s) = f.info()(s);
    words_sent = 0;
    f.solve(exec, d);
  } else if constexpr (Path == passes::device)
    bmpi::solve_along(exec, MPI_COMM_WORLD, Algo{}, axis, a, b, c, d, info, bmpi::options{},
                      bandsolve::backend::device{});
  else if constexpr (periodic_v<Algo>)
    bmpi::solve_along(exec, MPI_COMM_WORLD, Algo{}, axis, a, b, c, d, info, opts);
  else if (axis % 2 == 0)
    bmpi::solve_along(exec, MPI_COMM_WORLD, axis, a, b, c, d, info, opts);
  else
    bmpi::solve_along(exec, MPI_COMM_WORLD, bandsolve::algo::thomas{}, axis, a, b, c, d, info,
                      opts);
  const double words = words_per_line_per_rank(nsys);
  if constexpr (Factored) {  // 1 word per reduced row there, 1 back (one rank too)
    CHECK(words == 2 * reduced_rows(sizes) / world_size());
    CHECK(words <= 4);
  } else {
    CHECK(words == (world_size() == 1 ? 0.0 : 4 * reduced_rows(sizes) / world_size()));
    CHECK(words <= 8);
  }

  CHECK(std::vector<int>(info.data(), info.data() + nsys) == ref_codes);
  for (const auto s : zero_lines) CHECK(ref_codes[s] != 0);
  double worst = 0;
  // Structured bindings are captured by name from C++20 on (Clang rejects them in C++17).
  for_each_index(local, [&, g0 = g0, &x_ref = x_ref, &ref_codes = ref_codes](extents i) {
    extents g = i;
    g[ax] += g0;
    if (ref_codes[line_of(g, ext, R, axis)] != 0) return;
    const double ref = static_cast<double>(x_ref[line_of(g, ext, R, axis) * N + g[ax]]);
    const double e = std::abs(static_cast<double>(element(d, i)) - ref) / (1 + std::abs(ref));
    if (!(e <= worst)) worst = std::isfinite(e) ? e : 1e300;
  });
  CHECK(worst <= 100 * std::numeric_limits<T>::epsilon());

  // Once (one type: each costs compile time): the reference is the single-process solve_along
  // of the whole array, info numbering included.
  if constexpr (R == 3 && std::is_same_v<ArrayLayout, Kokkos::LayoutRight> && !Shared &&
                std::is_same_v<T, double> && !periodic_v<Algo>) {
    const DView ga = allocate_nd<DView>("a", ext), gb = allocate_nd<DView>("b", ext),
                gc = allocate_nd<DView>("c", ext), gd = allocate_nd<DView>("d", ext);
    fill_along(L, ext, axis, 0, ga, gb, gc, gd);
    Kokkos::View<int*, Kokkos::HostSpace> ginfo("info", nsys);
    bandsolve::solve_along(exec, bandsolve::algo::thomas{}, axis, ga, gb, gc, gd, ginfo);
    exec.fence();
    CHECK(std::vector<int>(ginfo.data(), ginfo.data() + nsys) == ref_codes);
    double gworst = 0;
    for_each_index(ext, [&, &x_ref = x_ref, &ref_codes = ref_codes](extents g) {
      const std::size_t s = line_of(g, ext, R, axis);
      if (ref_codes[s] != 0) return;
      const double e = std::abs(element(gd, g) - x_ref[s * N + g[ax]]);
      if (!(e <= gworst)) gworst = std::isfinite(e) ? e : 1e300;
    });
    CHECK(gworst <= 1e-13);
  }
}

TEST_CASE("mpi::solve_along equals the single-process solve of the whole lines", "[mpi]") {
  const int P = world_size();
  for (const split kind : {split::even, split::one_two_rest}) {
    const auto sizes = parts(kind, P);
    for (int axis = 0; axis < 3; ++axis) {
      INFO(P << " ranks, split " << split_name(kind) << ", axis " << axis);
      const extents ext{6, 11, 5, 1};
      check_along<double, 3, Kokkos::LayoutRight>(axis, ext, sizes, {3, 20});
      check_along<double, 3, Kokkos::LayoutLeft>(axis, ext, sizes, {7});
      check_along<double, 3, mixed_layouts>(axis, ext, sizes, {2, 7});
      check_along<double, 3, Kokkos::LayoutStride>(axis, ext, sizes);
      check_along<double, 3, Kokkos::LayoutRight, true>(axis, ext, sizes);
      check_along<float, 3, Kokkos::LayoutRight>(axis, ext, sizes);
      if (axis < 2) check_along<double, 2, Kokkos::LayoutRight>(axis, {9, 10, 1, 1}, sizes, {4});
    }
    // Rank 4: along axis 2 the first two batch axes do not fold (a run per index of both).
    for (int axis = 0; axis < 4; ++axis) {
      INFO(P << " ranks, split " << split_name(kind) << ", rank 4, axis " << axis);
      check_along<double, 4, Kokkos::LayoutRight>(axis, {3, 4, 5, 2}, sizes, {1});
    }
    // Batches of 64 lines: across runs of 7 lines (axis 1 of a 20 x N x 7 array: 140 lines),
    // through one run of 140 (axis 2), singular lines in both batches, periodic lines.
    bmpi::options batches;
    batches.batch_bytes_per_thread = 1;
    INFO(P << " ranks, split " << split_name(kind) << ", batches of 64 lines");
    check_along<double, 3, Kokkos::LayoutRight>(1, {20, 0, 7, 1}, sizes, {3, 64, 100}, batches);
    check_along<double, 3, Kokkos::LayoutRight>(2, {20, 7, 0, 1}, sizes, {63, 64}, batches);
    check_along<double, 3, Kokkos::LayoutRight, false, passes::host, bandsolve::algo::periodic>(
        1, {20, 0, 7, 1}, sizes, {5, 70}, batches);
  }
}

// The device backend's passes (the path of Kokkos::Cuda), run on the host: row, strided and
// interleaved batches with a singular line, strided arrays and shared coefficients along every
// axis, and bad input rejected on every rank before any exchange.
// factorize_along, then a solve: every axis of rank-3 arrays in each layout, float, periodic
// rings, a rank-4 array (two loop axes), singular lines, shared coefficients, and the device
// passes.
TEST_CASE("mpi::factorize_along: parts whose coupling dies out finish only near their ends",
          "[mpi]") {
  using thomas = bandsolve::algo::thomas;
  using periodic = bandsolve::algo::periodic;
  const std::vector<std::size_t> sizes(static_cast<std::size_t>(world_size()), 200);
  check_along<double, 3, Kokkos::LayoutRight, false, passes::host, thomas, true>(1, {6, 0, 5, 1},
                                                                               sizes);
  check_along<float, 3, Kokkos::LayoutLeft, true, passes::host, thomas, true>(0, {0, 7, 5, 1},
                                                                            sizes);
  check_along<double, 3, Kokkos::LayoutRight, false, passes::host, periodic, true>(
      2, {6, 5, 0, 1}, sizes);
  bmpi::options batches;
  batches.batch_bytes_per_thread = 1;
  check_along<double, 3, Kokkos::LayoutStride, false, passes::host, thomas, true>(
      0, {0, 20, 7, 1}, sizes, {}, batches);
}

TEST_CASE("mpi::factorize_along equals the single-process solve of the whole lines", "[mpi]") {
  using thomas = bandsolve::algo::thomas;
  using periodic = bandsolve::algo::periodic;
  const int P = world_size();
  for (const split kind : {split::even, split::one_two_rest}) {
    const auto sizes = parts(kind, P);
    for (int axis = 0; axis < 3; ++axis) {
      INFO("factorize_along, " << P << " ranks, split " << split_name(kind) << ", axis " << axis);
      const extents ext{6, 11, 5, 1};
      check_along<double, 3, Kokkos::LayoutRight, false, passes::host, thomas, true>(
          axis, ext, sizes, {3, 20});
      check_along<double, 3, Kokkos::LayoutLeft, false, passes::host, thomas, true>(axis, ext,
                                                                                    sizes, {7});
      check_along<double, 3, mixed_layouts, false, passes::host, thomas, true>(axis, ext, sizes,
                                                                             {2, 7});
      check_along<float, 3, Kokkos::LayoutStride, false, passes::host, thomas, true>(axis, ext,
                                                                                     sizes);
      check_along<double, 3, Kokkos::LayoutRight, false, passes::host, periodic, true>(
          axis, ext, sizes, {7});
#if BANDSOLVE_TESTS_DEVICE_BACKEND
      check_along<double, 3, Kokkos::LayoutRight, false, passes::device, thomas, true>(
          axis, ext, sizes, {3, 20});
      check_along<double, 3, Kokkos::LayoutStride, false, passes::device, periodic, true>(
          axis, ext, sizes);
#endif
      // Coefficients shared by every line (rank-1 a, b, c, then d for the extents).
      check_along<double, 3, Kokkos::LayoutLeft, true, passes::host, thomas, true>(axis, ext,
                                                                                   sizes);
      // A zero row in the shared coefficients: every line singular, the same code.
      check_along<double, 3, Kokkos::LayoutRight, true, passes::host, thomas, true>(axis, ext,
                                                                                    sizes, {0});
#if BANDSOLVE_TESTS_DEVICE_BACKEND
      check_along<float, 3, Kokkos::LayoutRight, true, passes::device, periodic, true>(axis, ext,
                                                                                       sizes);
#endif
      // Factored first from other coefficients, then refactored with the lines' own.
      check_along<double, 3, Kokkos::LayoutLeft, false, passes::host, thomas, true>(
          axis, ext, sizes, {7}, {}, true);
      check_along<double, 3, Kokkos::LayoutRight, true, passes::host, thomas, true>(
          axis, ext, sizes, {}, {}, true);
#if BANDSOLVE_TESTS_DEVICE_BACKEND
      check_along<double, 3, Kokkos::LayoutStride, false, passes::device, periodic, true>(
          axis, ext, sizes, {}, {}, true);
#endif
    }
    check_along<double, 4, Kokkos::LayoutRight, false, passes::host, thomas, true>(
        2, {3, 4, 5, 2}, sizes, {1});
    // Shared coefficients of 300 lines in column runs: the factors of one pack, not of each line;
    // in batches of 64 lines, singular (a zero row in the shared coefficients) or not.
    check_along<double, 3, Kokkos::LayoutRight, true, passes::host, thomas, true>(
        0, {0, 20, 15, 1}, sizes);
    bmpi::options batches;
    batches.batch_bytes_per_thread = 1;
    check_along<double, 3, Kokkos::LayoutRight, true, passes::host, thomas, true>(
        0, {0, 20, 15, 1}, sizes, {}, batches);
    check_along<double, 3, Kokkos::LayoutRight, true, passes::host, thomas, true>(
        2, {20, 15, 0, 1}, sizes, {0}, batches);
    check_along<double, 3, Kokkos::LayoutLeft, false, passes::host, periodic, true>(
        1, {20, 0, 15, 1}, sizes, {7, 200}, batches);
  }
  // A d of other extents on one rank: every rank throws the same message before any exchange.
  const std::size_t m = my_rows(parts(split::even, P)).second;
  using field = Kokkos::View<double***, Kokkos::LayoutRight, Kokkos::HostSpace>;
  const field a("a", 4, m, 3), b("b", 4, m, 3), c("c", 4, m, 3), d("d", 4, m, 3),
      wide("d", 4, m, 4);
  Kokkos::deep_copy(b, 4.0);
  const auto f = bmpi::factorize_along(rank_space(), MPI_COMM_WORLD, 1, a, b, c);
  const auto msg = agreed_message(thrown([&] {
    if (world_rank() == P - 1)
      f.solve(rank_space(), wide);
    else
      f.solve(rank_space(), d);
  }));
  CHECK(msg.second);
  CHECK(msg.first.rfind("bandsolve::mpi::along_factorization::solve", 0) == 0);
  // refactor: coefficients of other extents on one rank, or shared ones for full arrays.
  auto g = bmpi::factorize_along(rank_space(), MPI_COMM_WORLD, 1, a, b, c);
  const auto refactor_msg = agreed_message(thrown([&] {
    if (world_rank() == P - 1)
      g.refactor(rank_space(), wide, wide, wide);
    else
      g.refactor(rank_space(), a, b, c);
  }));
  CHECK(refactor_msg.second);
  CHECK(refactor_msg.first.rfind("bandsolve::mpi::along_factorization::refactor", 0) == 0);
  CHECK(refactor_msg.first.find("b.extent(2) = 4 on this rank but the factored arrays have 3") !=
        std::string::npos);
  const Kokkos::View<double*, Kokkos::HostSpace> line("line", m);
  const auto shared_msg = agreed_message(thrown([&] {
    g.refactor(rank_space(), line, line, line, d);
  }));
  CHECK(shared_msg.first.find("the factored coefficients were full arrays") != std::string::npos);
}

// Element g (global indices) of coefficient `which` (0: a, 1: b, 2: c, 3: d) of the arrays that
// check_factored_route solves: diagonally dominant, different on every line.
double route_value(int which, const extents& g) {
  const double h = std::sin(0.7 * double(g[0]) + 1.3 * double(g[1]) + 0.37 * double(g[2]) + which);
  return which == 1 ? 4 + h : which == 3 ? h : -1 + 0.3 * h;
}

// This rank's part v (its rows from global row g0 along axis) of coefficient `which`.
template <class V>
void fill_route_part(const V& v, int axis, std::size_t g0, int which) {
  for_each_index({v.extent(0), v.extent(1), v.extent(2), 1}, [&](extents i) {
    extents g = i;
    g[static_cast<std::size_t>(axis)] += g0;
    element(v, i) = route_value(which, g);
  });
}

// factorize_along of a, b, c made by make_c (label, this rank's extents), then one solve of a d
// made by make_d, against the single-process solve_along of the whole LayoutRight array. The
// factors must be stored in packs of pack_lines lines, in more than one batch when `batched`.
template <class MakeC, class MakeD>
void check_factored_route(int axis, extents ext, const std::vector<std::size_t>& sizes,
                          const MakeC& make_c, const MakeD& make_d, std::size_t pack_lines,
                          bool batched = false, const bmpi::options& opts = {}) {
  using right = nd_view<double, 3, Kokkos::LayoutRight>;
  const auto ax = static_cast<std::size_t>(axis);
  ext[ax] = 0;
  for (const auto rows : sizes) ext[ax] += rows;
  ext[3] = 1;
  const auto [g0, m] = my_rows(sizes);
  extents local = ext;
  local[ax] = m;
  const auto a = make_c("a", local), b = make_c("b", local), c = make_c("c", local);
  const auto d = make_d("d", local);
  fill_route_part(a, axis, g0, 0), fill_route_part(b, axis, g0, 1);
  fill_route_part(c, axis, g0, 2), fill_route_part(d, axis, g0, 3);
  const Kokkos::DefaultHostExecutionSpace exec;
  const auto f = bmpi::factorize_along(exec, MPI_COMM_WORLD, bandsolve::algo::thomas{}, axis, a,
                                       b, c, opts);
  CHECK(f.factor_pack_lines() == pack_lines);
  CHECK((f.batches() > 1) == batched);
  f.solve(exec, d);

  const right ga("a", ext[0], ext[1], ext[2]), gb("b", ext[0], ext[1], ext[2]),
      gc("c", ext[0], ext[1], ext[2]), gd("d", ext[0], ext[1], ext[2]);
  fill_route_part(ga, axis, 0, 0), fill_route_part(gb, axis, 0, 1);
  fill_route_part(gc, axis, 0, 2), fill_route_part(gd, axis, 0, 3);
  const Kokkos::View<int*, Kokkos::HostSpace> info("info", f.nsys());
  bandsolve::solve_along(exec, bandsolve::algo::thomas{}, axis, ga, gb, gc, gd, info);
  exec.fence();
  int bad_codes = 0;
  for (std::size_t s = 0; s < f.nsys(); ++s) bad_codes += (info(s) != 0) + (f.info()(s) != 0);
  CHECK(bad_codes == 0);
  double worst = 0;
  for_each_index(local, [&, g0 = g0](extents i) {
    extents g = i;
    g[ax] += g0;
    const double ref = element(gd, g);
    const double e = std::abs(element(d, i) - ref) / (1 + std::abs(ref));
    if (!(e <= worst)) worst = std::isfinite(e) ? e : 1e300;
  });
  CHECK(worst <= 1e-13);
}

// The host routes of factorize_along's solve: column runs longer than a pack of 64 lines (one
// run of 135; three of 70, the later ones not starting on a pack; five of 70 whose rows lie one
// padded pitch apart, more than 70 lines), row runs apart from each
// other (a slice of the middle axis: a run per index of the first), runs factored in batches of
// 64 lines (row runs, one or many, lines n rows apart or a padded pitch; column runs; d in
// strided runs), and a d laid out unlike the coefficients (factors stored for the column
// passes read by the row passes; stored for the row passes, d in column runs; a LayoutLeft d
// of batches factored for the row passes). The storage and the batches are checked too.
TEST_CASE("mpi::factorize_along: column packs, row runs apart, batches, other layouts of d",
          "[mpi]") {
  using right = nd_view<double, 3, Kokkos::LayoutRight>;
  using left = nd_view<double, 3, Kokkos::LayoutLeft>;
  const auto make_right = [](const std::string& label, const extents& e) {
    return right(label, e[0], e[1], e[2]);
  };
  const auto make_left = [](const std::string& label, const extents& e) {
    return left(label, e[0], e[1], e[2]);
  };
  // Axis 1 fastest, then axis 0, then axis 2: along axis 2 one column run of e[0] e[1] lines
  // (a LayoutLeft array is one too, its lines numbered in memory order: line_order.hpp).
  const auto make_columns = [](const std::string& label, const extents& e) {
    return nd_view<double, 3, Kokkos::LayoutStride>(
        label, Kokkos::LayoutStride(e[0], e[1], e[1], 1, e[2], e[0] * e[1]));
  };
  // Indices 2 .. e[1] + 1 of the middle axis of a LayoutRight array: runs along axis 2 apart.
  const auto make_slice = [](const std::string& label, const extents& e) {
    const right base(label, e[0], e[1] + 4, e[2]);
    Kokkos::deep_copy(base, 1e30);  // never read nor written
    return nd_view<double, 3, Kokkos::LayoutStride>(Kokkos::subview(
        base, Kokkos::ALL, Kokkos::make_pair(std::size_t(2), e[1] + 2), Kokkos::ALL));
  };
  // Indices 0 .. e[2] - 1 of the last axis of a LayoutRight array padded by 3: along axis 0 a
  // column run of e[2] lines per index of axis 1, the rows one padded pitch apart; along axis 2
  // a row run of e[1] lines per index of axis 0, the lines one padded pitch apart.
  const auto make_padded = [](const std::string& label, const extents& e) {
    const right base(label, e[0], e[1], e[2] + 3);
    Kokkos::deep_copy(base, 1e30);  // never read nor written
    return nd_view<double, 3, Kokkos::LayoutStride>(Kokkos::subview(
        base, Kokkos::ALL, Kokkos::ALL, Kokkos::make_pair(std::size_t(0), e[2])));
  };
  bmpi::options batches;
  batches.batch_bytes_per_thread = 1;
  // Packs of the column passes and of the row and strided passes.
  const std::size_t column = bmpi::detail::part_lanes_v<layout::column, double>,
                    row = bmpi::detail::part_lanes_v<layout::row, double>;
  const int P = world_size();
  for (const split kind : {split::even, split::one_two_rest}) {
    const auto sizes = parts(kind, P);
    INFO(P << " ranks, split " << split_name(kind));
    check_factored_route(0, {0, 9, 15, 1}, sizes, make_right, make_right, column);
    check_factored_route(1, {3, 0, 70, 1}, sizes, make_right, make_right, column);
    check_factored_route(0, {0, 5, 70, 1}, sizes, make_padded, make_padded, column);
    check_factored_route(2, {9, 15, 0, 1}, sizes, make_columns, make_columns, column);
    check_factored_route(2, {9, 15, 0, 1}, sizes, make_columns, make_right, column);
    check_factored_route(2, {9, 15, 0, 1}, sizes, make_right, make_columns, row);
    check_factored_route(2, {9, 15, 0, 1}, sizes, make_left, make_left, column);
    check_factored_route(2, {3, 16, 0, 1}, sizes, make_slice, make_slice, row);
    check_factored_route(2, {10, 13, 0, 1}, sizes, make_right, make_right, row, true, batches);
    check_factored_route(2, {10, 13, 0, 1}, sizes, make_right, make_left, row, true, batches);
    // Many row runs in batches, a batch ending inside a run: runs apart, lines a padded pitch
    // apart.
    check_factored_route(2, {7, 13, 0, 1}, sizes, make_slice, make_slice, row, true, batches);
    check_factored_route(2, {3, 50, 0, 1}, sizes, make_padded, make_padded, row, true, batches);
    // Column runs in batches (one run of 135 lines; five of 70 one padded pitch apart), and the
    // strided passes in batches (column runs of d, factors stored for the row passes).
    check_factored_route(0, {0, 9, 15, 1}, sizes, make_right, make_right, column, true, batches);
    check_factored_route(0, {0, 5, 70, 1}, sizes, make_padded, make_padded, column, true,
                         batches);
    check_factored_route(2, {9, 15, 0, 1}, sizes, make_right, make_columns, row, true, batches);
  }
}

#if BANDSOLVE_TESTS_DEVICE_BACKEND
TEST_CASE("mpi::solve and mpi::solve_along with the device passes: singular lines, strided "
          "arrays, bad input", "[mpi]") {
  const int P = world_size();
  const auto sizes = parts(split::one_two_rest, P);
  std::size_t N = 0;
  for (const auto m : sizes) N += m;
  INFO(P << " ranks");
  const lines<double> L{37, N, {{5, 2}}};
  std::vector<int> expected(37, 0);
  expected[5] = 3;
  using thomas = bandsolve::algo::thomas;
  const rank_space serial;
  for (const outcome& out : {run<layout::row, thomas, passes::device>(serial, L, sizes, {}),
                             run<layout::strided, thomas, passes::device>(serial, L, sizes, {}),
                             run<layout::interleaved<4>, thomas, passes::device>(serial, L, sizes,
                                                                                 {})}) {
    CHECK(out.max_error <= 100 * std::numeric_limits<double>::epsilon());
    CHECK(out.info == expected);
  }
  for (int axis = 0; axis < 3; ++axis) {
    check_along<double, 3, Kokkos::LayoutStride, false, passes::device>(axis, {6, 11, 5, 1}, sizes,
                                                                       {4});
    check_along<double, 3, Kokkos::LayoutRight, true, passes::device>(axis, {6, 11, 5, 1}, sizes);
    check_along<double, 3, Kokkos::LayoutLeft, false, passes::device>(axis, {6, 11, 5, 1}, sizes,
                                                                      {4});
  }
  const auto [g0, m] = my_rows(sizes);
  auto a = local_view<layout::row>("a", L, g0, m, 0), b = local_view<layout::row>("b", L, g0, m, 1),
       c = local_view<layout::row>("c", L, g0, m, 2), d = local_view<layout::row>("d", L, g0, m, 3);
  Kokkos::View<int*, Kokkos::HostSpace> info("info", L.nsys), short_info("info", L.nsys - 1);
  const auto msg = agreed_message(thrown([&] {
    bmpi::solve(rank_space(), MPI_COMM_WORLD, a, b, c, d,
                world_rank() == P - 1 ? short_info : info, bmpi::options{},
                bandsolve::backend::device{});
  }));
  CHECK(msg.second);
  CHECK(msg.first.rfind("bandsolve::mpi::solve", 0) == 0);
}
#endif

// The device backend's local passes (one thread per system, forward rows kept in memory) on the
// host: every layout once and both scalar types, every split, one line and many, both schemes,
// lines with ends and periodic lines, and singular lines (zero rows found by the local passes, a
// reduced system found singular by the reduced solve) with the host passes' info codes.
template <class Layout, class Algo, class T>
void check_device_passes() {
  const int P = world_size();
  const double tol = 100 * std::numeric_limits<T>::epsilon();
  const Kokkos::DefaultHostExecutionSpace exec;
  for_each_split_case([&](split kind, const auto& sizes, std::size_t N, std::size_t nsys,
                          const bmpi::options& opts) {
    INFO("device passes, " << (periodic_v<Algo> ? "periodic, " : "") << layout_label<Layout>()
                           << ", " << (sizeof(T) == 4 ? "float" : "double") << ", " << P
                           << " ranks, split " << split_name(kind) << " (" << N << " rows), nsys "
                           << nsys << ", scheme " << static_cast<int>(opts.scheme));
    const auto L = periodic_v<Algo> ? periodic_lines<T>(nsys, N) : lines<T>{nsys, N, {}};
    const outcome out = run<Layout, Algo, passes::device>(exec, L, sizes, opts);
    CHECK(out.max_error <= tol);
    CHECK(out.info == std::vector<int>(nsys, 0));
    run_factored<Layout, Algo, passes::device>(exec, L, sizes, opts, std::vector<int>(nsys, 0));
  });
}

#if BANDSOLVE_TESTS_DEVICE_BACKEND
TEST_CASE("mpi::solve with the device backend's local passes equals the single-process solve",
          "[mpi]") {
  using thomas = bandsolve::algo::thomas;
  using periodic = bandsolve::algo::periodic;
  check_device_passes<layout::row, thomas, double>();
  check_device_passes<layout::column, thomas, float>();
  check_device_passes<layout::interleaved<4>, thomas, double>();
  check_device_passes<layout::strided, thomas, float>();
  check_device_passes<layout::column, periodic, double>();
  check_device_passes<layout::row, periodic, float>();
  // Singular lines: the info codes of the host passes on every rank.
  const int P = world_size();
  const Kokkos::DefaultHostExecutionSpace exec;
  for (const split kind : {split::even, split::one_two_rest}) {
    const auto sizes = parts(kind, P);
    INFO(P << " ranks, split " << split_name(kind));
    const lines<double> L{5, 13, {{2, 6}, {4, 0}}};
    const outcome out = run<layout::column, thomas, passes::device>(exec, L, sizes, {});
    CHECK(out.info == std::vector<int>{0, 0, 7, 0, 1});
    CHECK(out.max_error <= 100 * std::numeric_limits<double>::epsilon());
    run_factored<layout::column, thomas, passes::device>(exec, L, sizes, {}, {0, 0, 7, 0, 1});
    const auto R = periodic_lines<double>(5, 13, {{2, 6}, {4, 0}}, {1});
    const outcome ring = run<layout::column, periodic, passes::device>(exec, R, sizes, {});
    CHECK(ring.info == std::vector<int>{0, 13, 7, 0, 1});
    CHECK(ring.max_error <= 100 * std::numeric_limits<double>::epsilon());
    run_factored<layout::column, periodic, passes::device>(exec, R, sizes, {}, {0, 13, 7, 0, 1});
  }
  const auto alternate = parts(split::alternate_two_one, P);
  std::size_t N = 0;
  for (const auto m : alternate) N += m;
  const lines<double> twin{3, N, {}, {1}};
  const outcome reduced = run<layout::row, thomas, passes::device>(exec, twin, alternate, {});
  CHECK(reduced.info == twin.reference().second);
  CHECK(reduced.max_error <= 100 * std::numeric_limits<double>::epsilon());
  // Lines along every axis of a 3-D array (one run, a run per index, contiguous lines), shared
  // coefficients (system stride 0), periodic rings, a rank-4 array (two loop axes).
  for (const split kind : {split::even, split::one_two_rest}) {
    const auto sizes = parts(kind, P);
    for (int axis = 0; axis < 3; ++axis) {
      INFO("device passes along axis " << axis << ", " << P << " ranks, split "
                                       << split_name(kind));
      check_along<double, 3, Kokkos::LayoutRight, false, passes::device>(axis, {6, 11, 5, 1},
                                                                         sizes, {3, 20});
      check_along<float, 3, Kokkos::LayoutLeft, true, passes::device>(axis, {6, 11, 5, 1}, sizes);
      check_along<double, 3, Kokkos::LayoutStride, false, passes::device, periodic>(
          axis, {6, 11, 5, 1}, sizes, {7});
    }
    check_along<double, 4, Kokkos::LayoutRight, false, passes::device>(2, {3, 4, 5, 2}, sizes, {1});
  }
}
#endif

// The device passes' per-call buffers (mpi/staging.hpp): aligned pieces of one buffer, reused
// after a mark, refused beyond its end; and kept between calls, so that a second solve finds its
// device rows and host staging where the first left them (no allocation, no fresh pages).
#if BANDSOLVE_TESTS_DEVICE_BACKEND
TEST_CASE("mpi::solve with the device passes carves its buffers from buffers kept between calls",
          "[mpi]") {
  namespace detail = bandsolve::mpi::detail;
  std::vector<double> storage(64);
  detail::carved_buffer<Kokkos::HostSpace> carve(reinterpret_cast<char*>(storage.data()), 512);
  const auto x = carve.take<double>(3);
  const auto y = carve.take<int>(5);
  CHECK(x.extent(0) == 3);
  CHECK(y.extent(0) == 5);
  CHECK(reinterpret_cast<char*>(y.data()) - reinterpret_cast<char*>(x.data()) == 64);
  const std::size_t mark = carve.mark();
  const auto z = carve.take<double>(40);
  carve.rewind(mark);
  CHECK(carve.take<double>(1).data() == z.data());
  CHECK_THROWS_AS(carve.take<double>(64), std::logic_error);

  const int P = world_size();
  if (P == 1) return;  // one rank: the single-process solve, no exchange
  const auto sizes = parts(split::even, P);
  std::size_t N = 0;
  for (const auto m : sizes) N += m;
  const lines<double> L{300, N, {{7, 1}}};
  const Kokkos::DefaultHostExecutionSpace exec;
  using thomas = bandsolve::algo::thomas;
  using bandsolve::detail::scratch_cache;
  const auto& staging = scratch_cache<Kokkos::HostSpace, detail::staging_tag>::instance();
  const auto& rows = scratch_cache<Kokkos::HostSpace, detail::device_rows_tag>::instance();
  const outcome first = run<layout::column, thomas, passes::device>(exec, L, sizes, {});
  REQUIRE(staging.buffer.has_value());
  REQUIRE(rows.buffer.has_value());
  const char* staging_at = staging.buffer->data();
  const char* rows_at = rows.buffer->data();
  const outcome second = run<layout::column, thomas, passes::device>(exec, L, sizes, {});
  CHECK(staging.buffer->data() == staging_at);
  CHECK(rows.buffer->data() == rows_at);
  CHECK(first.info == second.info);
  CHECK(second.info == L.reference().second);
  CHECK(second.max_error <= 100 * std::numeric_limits<double>::epsilon());
}
#endif

// Periodic lines along an axis: rings split over the ranks, against the single-process periodic
// solve of the whole lines; a singular ring (a zero row) gets its row on every rank.
TEST_CASE("mpi::solve_along(periodic) equals the single-process periodic solve", "[mpi]") {
  const int P = world_size();
  for (const split kind : {split::even, split::rest_two_one}) {
    const auto sizes = parts(kind, P);
    for (int axis = 0; axis < 3; ++axis) {
      INFO(P << " ranks, split " << split_name(kind) << ", axis " << axis);
      check_along<double, 3, Kokkos::LayoutRight, false, passes::host, bandsolve::algo::periodic>(
          axis, {6, 11, 5, 1}, sizes, {2});
      check_along<double, 3, Kokkos::LayoutLeft, true, passes::host, bandsolve::algo::periodic>(
          axis, {6, 11, 5, 1}, sizes);
    }
    check_along<float, 4, Kokkos::LayoutRight, false, passes::host, bandsolve::algo::periodic>(
        2, {3, 4, 5, 2}, sizes);
  }
}

TEST_CASE("mpi::solve_along: different batch extents on one rank make every rank throw the same "
          "message", "[mpi]") {
  const int P = world_size(), bad = P - 1;
  using V = nd_view<double, 3>;
  const bool me_bad = world_rank() == bad && P > 1;
  // The same number of lines (6 x 4 and 4 x 6), so only the extents tell them apart.
  const V a("a", me_bad ? 4 : 6, 3, me_bad ? 6 : 4), b("b", a.layout()), c("c", a.layout()),
      d("d", a.layout());
  Kokkos::deep_copy(b, 4.0);
  Kokkos::View<int*, Kokkos::HostSpace> info("info", 24);
  const auto [msg, same] = agreed_message(thrown([&] {
    bmpi::solve_along(Kokkos::DefaultHostExecutionSpace(), MPI_COMM_WORLD, 1, a, b, c, d, info);
  }));
  CHECK(same);
  if (P > 1)
    CHECK(msg == "bandsolve::mpi::solve_along: the ranks hold different batch extents: "
                 "d.extent(0) = 6 on rank 0 but 4 on rank " + std::to_string(bad) +
                     " (only the extent along axis 1 may differ)");
  else
    CHECK(msg.empty());  // nothing thrown
}

}  // namespace
}  // namespace test_partitioned_thomas
